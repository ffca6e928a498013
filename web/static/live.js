// Live published views over Server-Sent Events, shared by the TV and the control page.
// EventSource reconnects by itself only while the server answers; when the connection fails hard
// (server down, a proxy error page) it gives up, so on every error we close it and reconnect
// ourselves with exponential backoff, and show the "disconnected" banner until a view arrives.
// A stream can also die silently (the Pi lost power: no TCP reset ever reaches the TV), so a
// watchdog asks /api/view now and then and reconnects when the stream has fallen behind.
"use strict";

var TableLive = (function () {
  var MIN_DELAY_MS = 500;
  var MAX_DELAY_MS = 8000;
  var WATCHDOG_MS = 30000;
  var CHECK_TIMEOUT_MS = 5000;

  function connect(url, onView, viewUrl) {
    var banner = document.getElementById("banner");
    var delay = MIN_DELAY_MS;
    var source = null;
    var timer = null;
    var lastSeq = null;

    function setConnected(ok) {
      if (banner) banner.hidden = ok;
      document.body.classList.toggle("is-disconnected", !ok);
    }

    function reconnectLater() {
      if (source) source.close();
      if (timer === null) {
        timer = setTimeout(open, delay);
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      }
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
        lastSeq = view.seq;
        setConnected(true);
        onView(view);
      };
      source.onerror = function () {
        setConnected(false);
        reconnectLater();
      };
    }

    function check() {
      if (!viewUrl || timer !== null) return; // already reconnecting
      var abort = new AbortController();
      var giveUp = setTimeout(function () { abort.abort(); }, CHECK_TIMEOUT_MS);
      fetch(viewUrl, { signal: abort.signal, cache: "no-store" })
        .then(function (r) { return r.json(); })
        .then(function (view) {
          clearTimeout(giveUp);
          if (lastSeq !== null && view.seq !== lastSeq) {
            onView(view); // the stream missed this: show it now, then get a fresh stream
            lastSeq = view.seq;
            reconnectLater();
          }
        })
        .catch(function () {
          clearTimeout(giveUp);
          setConnected(false);
          reconnectLater();
        });
    }

    open();
    setInterval(check, WATCHDOG_MS);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // One line per device for both pages: state, firmware version, battery, and when it was last heard.
  // "Last heard" is shown as the Pi's time of day, not "N s ago": the TV's clock may differ from the Pi's.
  function deviceSummary(status) {
    var parts = [status.state || status.status || "?"];
    if (status.firmware) parts.push("v" + status.firmware);
    if (status.detail) parts.push(String(status.detail));
    if (status.battery && status.battery.percent !== undefined && status.battery.percent !== null) {
      parts.push(status.battery.percent + "%");
    }
    if (typeof status.last_heard === "number") {
      parts.push("heard " + new Date(status.last_heard * 1000).toLocaleTimeString([], { hour12: false }));
    }
    return parts.join(" · ");
  }

  // An accepted action told in words, for a change whose events say nothing (a roll that only counts
  // towards several, like the Idol's six): "Grotsnik rolled Orcish Eye", never a bare "act".
  function describeAction(action, playerName, faceName) {
    if (!action || typeof action !== "object") return null;
    var who = typeof action.player === "number" ? playerName(action.player) : null;
    if (action.kind === "roll" && Array.isArray(action.faces) && action.faces.length) {
      var faces = action.faces.map(function (face) { return faceName(action.die, face); }).join(", ");
      return (who ? who + " rolled " : "Rolled ") + faces;
    }
    var what = String(action.kind || "move").replace(/_/g, " ");
    return who ? who + ": " + what : what.charAt(0).toUpperCase() + what.slice(1);
  }

  return { connect: connect, el: el, deviceSummary: deviceSummary, describeAction: describeAction };
})();
