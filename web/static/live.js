// Live published views over Server-Sent Events, shared by the TV and the control page.
// EventSource reconnects by itself only while the server answers; when the connection fails hard
// (server down, a proxy error page) it gives up, so on every error we close it and reconnect
// ourselves with exponential backoff, and show the "disconnected" banner until a view arrives.
"use strict";

var TableLive = (function () {
  var MIN_DELAY_MS = 500;
  var MAX_DELAY_MS = 8000;

  function connect(url, onView) {
    var banner = document.getElementById("banner");
    var delay = MIN_DELAY_MS;
    var source = null;
    var timer = null;

    function setConnected(ok) {
      if (banner) banner.hidden = ok;
      document.body.classList.toggle("is-disconnected", !ok);
    }

    function open() {
      timer = null;
      source = new EventSource(url);
      source.onmessage = function (message) {
        var view;
        try {
          view = JSON.parse(message.data);
        } catch (err) {
          return; // a garbled message is skipped: the next view is whole again
        }
        delay = MIN_DELAY_MS;
        setConnected(true);
        onView(view);
      };
      source.onerror = function () {
        setConnected(false);
        source.close();
        if (timer === null) {
          timer = setTimeout(open, delay);
          delay = Math.min(delay * 2, MAX_DELAY_MS);
        }
      };
    }

    open();
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  return { connect: connect, el: el };
})();
