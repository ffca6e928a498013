// The control page's "Confirm the result" card, shown when the table publishes to a hall and the game
// is over: each player confirms the result on their own phone (a shared phone for seats without one),
// and the hall counts it once every seat did. Talks to /control/result; redrawn on every view.
"use strict";

(function () {
  var box = document.getElementById("c-confirm");
  if (!box || !window.TableControl) return;
  var url = box.getAttribute("data-url");
  var el = TableLive.el;
  var shown = null;

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function draw(state) {
    clear(box);
    if (!state.enabled || !state.seats || !state.seats.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.appendChild(el("h2", null, state.confirmed ? "Result confirmed for the hall" : "Confirm the result for the hall"));
    if (state.outcome) box.appendChild(el("p", "hint", state.outcome));
    var list = el("ul", "confirm-list");
    state.seats.forEach(function (s) {
      var item = el("li", s.confirmed ? "confirm-done" : null);
      item.appendChild(el("span", "confirm-name", s.name));
      if (s.confirmed) item.appendChild(el("span", "confirm-state", "confirmed"));
      else if (state.may_confirm.indexOf(s.seat) >= 0) {
        var button = el("button", "primary", "Confirm for " + s.name);
        button.addEventListener("click", function () { send(s.seat, state.digest, button); });
        item.appendChild(button);
      } else item.appendChild(el("span", "confirm-state", "waiting for their phone"));
      list.appendChild(item);
    });
    box.appendChild(list);
    box.appendChild(el("p", "msg", ""));
  }

  function load() {
    fetch(url, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : { enabled: false }; })
      .then(draw)
      .catch(function () {});
  }

  function send(seat, digest, button) {
    button.disabled = true;
    fetch(url + "/confirm", {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seat: seat, digest: digest }),
    })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (answer.ok) draw(answer.body);
        else {
          button.disabled = false;
          box.querySelector(".msg").textContent = answer.body.reason || "Refused";
        }
      })
      .catch(function () { button.disabled = false; });
  }

  TableControl.onView(function (view) {
    var key = view.status === "finished" ? view.game_id + ":" + view.seq : null;
    if (key === shown) return;
    shown = key;
    if (key === null) box.hidden = true;
    else load();
  });
})();
