// Join codes on the TV. A phone without the PIN asks to join; the public view (everyone's stream) says
// only that phones are asking ("devices.pairing"), and this screen then asks /tv/pairing for the codes,
// which the server gives only to a trusted display (the kiosk on the Pi, or a browser let in once).
// Any other screen gets a 403 and shows nothing more than the public notice.
"use strict";

var TablePairing = (function () {
  var url = null;
  var seen = null; // the last devices.pairing status, as JSON: a change means "ask again"
  var codes = []; // [{code, name, until}] shown now
  var ticking = null;

  function el(tag, cls, text) { return TableLive.el(tag, cls, text); }

  function spaced(code) { return code.slice(0, 3) + " " + code.slice(3); }

  function draw() {
    var box = document.getElementById("joining");
    var now = Date.now();
    codes = codes.filter(function (c) { return c.until > now; });
    while (box.firstChild) box.removeChild(box.firstChild);
    box.hidden = !codes.length;
    if (!codes.length) {
      if (ticking) { clearInterval(ticking); ticking = null; }
      return;
    }
    box.appendChild(el("h2", null, codes.length === 1 ? "A phone asks to join" : codes.length + " phones ask to join"));
    codes.forEach(function (c) {
      var row = el("p", "joining-row");
      row.appendChild(el("span", "joining-name", c.name));
      row.appendChild(el("strong", "joining-code", spaced(c.code)));
      var left = Math.ceil((c.until - now) / 1000);
      row.appendChild(el("span", "joining-left", Math.floor(left / 60) + ":" + ("0" + (left % 60)).slice(-2)));
      box.appendChild(row);
    });
    box.appendChild(el("p", "joining-hint", "Type the code on that phone. Not yours? Ignore it: it expires."));
  }

  function load() {
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : { joining: [] }; })
      .then(function (body) {
        var now = Date.now();
        codes = (body.joining || []).map(function (j) { return { code: j.code, name: j.name, until: now + j.seconds_left * 1000 }; });
        draw();
        if (codes.length && !ticking) ticking = setInterval(draw, 1000);
      })
      .catch(function () {});
  }

  function update(view) {
    var status = JSON.stringify((view.devices || {}).pairing || null);
    if (status === seen) return;
    seen = status;
    var pairing = (view.devices || {}).pairing;
    if (pairing && pairing.waiting) load();
    else { codes = []; draw(); }
  }

  function start(pairingUrl) {
    url = pairingUrl;
    TableTV.onView(update);
  }

  return { start: start, update: update };
})();
