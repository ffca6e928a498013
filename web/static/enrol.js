// Enrolment on the control page: pair RFID tags lying on the readers with cards.
// Kept apart from control.js; talks to /control/enrol (PIN cookie) and refreshes every 2 s while open.
"use strict";

(function () {
  var box = document.getElementById("c-enrol");
  if (!box) return;
  var url = box.getAttribute("data-url");
  var timer = null;

  function $(id) { return document.getElementById(id); }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function item(tag, text) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render(state) {
    $("c-enrol-state").textContent = state.active
      ? "Enrolling " + (state.game || "") + ": put a card on any reader"
      : "Not enrolling (unknown tags are still offered below)";
    $("c-enrol-start").hidden = state.active;
    $("c-enrol-stop").hidden = !state.active;
    var list = clear($("c-enrol-pending"));
    (state.pending || []).forEach(function (tag) {
      var row = item("li");
      row.appendChild(item("span", tag.uid + " on " + tag.place + (tag.card_id ? " (now " + tag.card_id + ")" : "") + " "));
      var pick = item("select");
      (state.cards || []).forEach(function (card) {
        var option = item("option", card.title);
        option.value = card.id;
        if (card.id === tag.card_id) option.selected = true;
        pick.appendChild(option);
      });
      var save = item("button", "Enrol");
      save.type = "button";
      save.onclick = function () { post({ op: "enrol", uid: tag.uid, card: pick.value }); };
      var forget = item("button", "Forget");
      forget.type = "button";
      forget.onclick = function () { post({ op: "forget", uid: tag.uid }); };
      row.appendChild(pick);
      row.appendChild(save);
      row.appendChild(forget);
      list.appendChild(row);
    });
  }

  function answer(response) {
    return response.json().then(function (body) {
      if (!response.ok) throw new Error(body.reason || "refused (" + response.status + ")");
      return body.state || body;
    });
  }

  function say(text) { $("c-enrol-msg").textContent = text || ""; }

  function refresh() {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(answer).then(render, function (err) { say(err.message); });
  }

  function post(body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
    }).then(answer).then(function (state) { say(""); render(state); }, function (err) { say(err.message); });
  }

  $("c-enrol-start").onclick = function () { post({ op: "start" }); };
  $("c-enrol-stop").onclick = function () { post({ op: "stop" }); };
  box.addEventListener("toggle", function () {
    // Poll only while the section is open: the phone is on battery.
    if (box.open) { refresh(); timer = setInterval(refresh, 2000); }
    else if (timer) { clearInterval(timer); timer = null; }
  });
})();
