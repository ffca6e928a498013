// The control page's "Confirm the result" card, shown when the table publishes to a hall and the game
// is over: each player confirms the result on their own phone (a shared phone for seats without one),
// and the hall counts it once every seat did. A finished game a new game set aside before every seat
// confirmed stays on the card ("the last game") until they have. Talks to /control/result; asked again
// when the game changes, and on every view while there is something to confirm.
"use strict";

(function () {
  var box = document.getElementById("c-confirm");
  if (!box || !window.TableControl) return;
  var url = box.getAttribute("data-url");
  var el = TableLive.el;
  var shown = null;
  var pending = false; // the card lists seats still to confirm: other phones' confirmations redraw it

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function draw(state) {
    clear(box);
    pending = !!(state.enabled && state.seats && state.seats.length && !state.confirmed);
    if (!state.enabled || !state.seats || !state.seats.length) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    var head = state.confirmed ? (state.replaced ? "The last game's result" : "Result") + " confirmed for the hall" :
      "Confirm " + (state.replaced ? "the last game's result" : "the result") + " for the hall";
    box.appendChild(el("h2", null, head));
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
    // Asked when the game changes (a finished game set aside may wait for confirmations), and at every
    // view while the game is over or seats are still to confirm; not at every move of a game played.
    var live = view.status === "finished" || pending;
    var key = view.game_id + ":" + (live ? view.seq : "");
    if (key === shown) return;
    shown = key;
    if (view.game_id === null || view.game_id === undefined) box.hidden = true;
    else load();
  });
})();
