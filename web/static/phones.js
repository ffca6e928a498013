// The control page's "Phones" section: the phones the table trusts (name, seat, last seen), each of
// which any phone in may log out at once; the join codes of phones asking to come in without the PIN
// (read one out to its owner when no TV is in sight); a new PIN, which logs out every other phone.
// Talks to /control/phones and /control/pin/change; refreshed when the view says phones or joins changed.
"use strict";

(function () {
  var box = document.getElementById("c-phones");
  if (!box || !window.TableControl) return;
  var url = box.getAttribute("data-url");
  var pinUrl = box.getAttribute("data-pin-url");
  var seen = null;
  var el = TableLive.el;

  function $(id) { return document.getElementById(id); }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function say(text, ok) {
    var msg = $("c-phones-msg");
    msg.textContent = text || "";
    msg.className = "msg " + (ok ? "msg-ok" : "msg-error");
  }

  function ago(when) {
    var seconds = Math.max(0, Date.now() / 1000 - when);
    if (seconds < 90) return "just now";
    if (seconds < 5400) return Math.round(seconds / 60) + " min ago";
    if (seconds < 129600) return Math.round(seconds / 3600) + " h ago";
    return Math.round(seconds / 86400) + " days ago";
  }

  function spaced(code) { return code.slice(0, 3) + " " + code.slice(3); }

  function draw(body) {
    var joining = clear($("c-joining"));
    (body.joining || []).forEach(function (j) {
      var li = el("li", "joining-item");
      li.appendChild(el("span", null, j.name + " asks to join: "));
      li.appendChild(el("strong", "joining-code", spaced(j.code)));
      li.appendChild(el("span", "hint", " (" + j.seconds_left + " s left; type it on that phone)"));
      joining.appendChild(li);
    });
    var badge = $("c-joining-badge");
    badge.hidden = !(body.joining || []).length;
    badge.textContent = (body.joining || []).length + " asking";
    var list = clear($("c-phone-list"));
    (body.phones || []).forEach(function (p) {
      var li = el("li", p.this ? "phone phone-this" : "phone");
      li.dataset.phone = p.id;
      li.appendChild(el("strong", null, p.name + (p.this ? " (this phone)" : "")));
      li.appendChild(el("span", "hint", (p.seat_name ? "plays " + p.seat_name : "no seat") + " · seen " + ago(p.last_seen) + " · " + p.address));
      var out = el("button", "small danger", p.this ? "Log out" : "Log it out");
      out.type = "button";
      out.onclick = function () { revoke(p); };
      li.appendChild(out);
      list.appendChild(li);
    });
    $("c-pin-change").hidden = !!body.pin_in_settings;
    $("c-pin-fixed").hidden = !body.pin_in_settings;
  }

  function load() {
    TableControl.json(url).then(function (answer) {
      if (answer.status === 200) draw(answer.body);
    }).catch(function () {});
  }

  function revoke(phone) {
    var question = phone.this ? "Log this phone out?" : "Log out " + phone.name + (phone.seat_name ? " (" + phone.seat_name + "'s seat)" : "") + "? It needs the PIN or a code from the TV to come back.";
    if (!confirm(question)) return;
    TableControl.json(url + "/" + encodeURIComponent(phone.id) + "/revoke", { method: "POST", body: "{}" }).then(function (answer) {
      if (answer.status !== 200) { say(answer.body.reason || "Refused", false); return; }
      if (answer.body.this) { location.reload(); return; }
      say(phone.name + " is logged out", true);
      load();
    });
  }

  function changePin() {
    if (!confirm("Make a new PIN? Every other phone is logged out and must join again.")) return;
    // The current PIN is asked again: a phone let in by a join code never knew it.
    var current = prompt("Type the table's current PIN");
    if (current === null) return;
    TableControl.json(pinUrl, { method: "POST", body: JSON.stringify({ current: current.trim() }) }).then(function (answer) {
      if (answer.status !== 200) { say(answer.body.reason || "Refused", false); return; }
      say("New PIN: " + answer.body.pin + " (" + answer.body.logged_out + " other phones logged out)", true);
      load();
    });
  }

  $("c-pin-change").onclick = changePin;
  box.addEventListener("toggle", function () { if (box.open) load(); });
  TableControl.onView(function (view) {
    var devices = view.devices || {};
    var status = JSON.stringify([devices.phones || null, devices.pairing || null]);
    if (status === seen) return;
    seen = status;
    load();
  });
})();
