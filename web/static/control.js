// The phone control page's frame: prompt and its choices, dice entry (dice.js), undo/redo, the result,
// what to do once a game is over, a new game (newgame.js), past games (pastgames.js), devices and
// history. Feedback lands where the player looks: a bar at the foot of the screen, and the prompt card
// brought into view when a move of this phone leads to a new question. What only one game
// needs (a card game's draw form, a skirmish game's attack form) is drawn by that game's renderer, its
// bundle's screens/control.js, which calls TableControl.register.
// Commands go to /control/commands with the session cookie (the PIN was entered once); the answer
// is the session's Outcome, whose "reason" is shown when the game refuses.
"use strict";

var TableControl = (function () {
  var el = TableLive.el;
  var renderers = {}; // game name -> {prompt(box, game, prompt, ctx) -> handled?, panel(box, game, view, ctx)}
  var config = null;
  var view = null;
  var catalogs = {}; // game -> [card]
  var seat = { game: null, seat: null, held: [] }; // which seat this phone plays (GET/POST /control/seat)
  var secret = { seq: null, data: null }; // the seat's private view (GET /control/private)
  var listeners = []; // functions told of every view after it is drawn (phones.js)
  var offered = null; // {game, card, source}: a card a reader of the phone (its camera) identified
  var moved = null; // {seq, asked}: a move of this phone was accepted; its next question is brought into view
  var toastTimer = null;

  function $(id) { return document.getElementById(id); }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function say(text, ok) {
    // A bar fixed at the foot of the screen, wherever the page is scrolled: what the companion answered
    // is seen by the thumb that tapped. Confirmations fade; a refusal stays until tapped or replaced.
    var msg = $("c-msg");
    clearTimeout(toastTimer);
    msg.textContent = text || "";
    msg.className = "msg toast " + (ok ? "msg-ok" : "msg-error");
    msg.setAttribute("role", ok ? "status" : "alert");
    msg.hidden = !text;
    if (ok && text) toastTimer = setTimeout(function () { msg.hidden = true; }, 3500);
  }

  function send(kind, payload) {
    var asked = $("c-prompt").textContent;
    say("Sending…", true);
    return fetch(config.commands, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ kind: kind, payload: payload || {} }),
    })
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); })
      .then(function (answer) {
        if (answer.status === 403 && !answer.body.reason) location.reload();
        if (answer.body.accepted) {
          var told = (answer.body.events || []).map(function (e) { return e.text; }).filter(Boolean)[0];
          say("Done" + (told ? ": " + told : " (#" + answer.body.seq + ")"), true);
          moved = { seq: answer.body.seq, asked: asked };
          if (view && view.seq >= moved.seq) showPrompt(); // the view came before the answer
        } else say(answer.body.reason || "Refused (" + answer.status + ")", false);
        return answer.body;
      })
      .catch(function () { say("No answer from the companion — is it running?", false); });
  }

  function act(action) { return send("act", action); }

  function actionButton(label, action, className) {
    // A button that sends one action; data-action names it (tests and the tap count find it by it).
    var b = el("button", className || null, label);
    b.type = "button";
    b.dataset.action = JSON.stringify(action);
    b.onclick = function () { act(action); };
    return b;
  }

  function option(select, value, label) {
    var o = el("option", null, label);
    o.value = value;
    select.appendChild(o);
    return o;
  }

  function players() { return view && view.game ? view.game.players || [] : []; }

  function playerName(seat) {
    var p = players().filter(function (q) { return q.seat === seat; })[0];
    return p ? p.name : "Seat " + (seat + 1);
  }

  function faceName(die, face) {
    var d = config.dice[die];
    return d && d.faces && d.faces[face] ? d.faces[face] : face;
  }

  function catalog(game) {
    // The game's cards ([] until loaded; the page redraws when they arrive).
    if (!game) return [];
    if (catalogs[game] === undefined) {
      catalogs[game] = [];
      fetch(config.cards.replace("GAME", encodeURIComponent(game)))
        .then(function (r) { return r.ok ? r.json() : { cards: [] }; })
        .then(function (body) { catalogs[game] = body.cards || []; if (view) render(view); });
    }
    return catalogs[game];
  }

  var ctx = {
    act: act, send: send, say: say, el: el, clear: clear, option: option,
    players: players, playerName: playerName, faceName: faceName, catalog: catalog,
    die: function (id) { return config.dice[id] || null; }, // a die of the dice data: {title, faces}
    view: function () { return view; },
    redraw: function () { if (view) render(view); },
    seat: function () { return seat.game === (view && view.game_id) ? seat.seat : null; },
    // A card some reader of this phone identified (its camera, see offer), for the game's draw form.
    offered: function (game) { return offered && offered.game === game ? offered : null; },
    forget: function () { offered = null; },
    scanUrl: function () { return config.scan || null; }, // POST a photo of a card here (scan.js)
    actionButton: actionButton,
    privateView: function () { return secret.data; },
    // A phone that plays a seat acts for that seat alone (the server refuses the rest); a shared phone,
    // with no seat, acts for every seat no phone plays. Rolls: its own, when the table lets players
    // enter their own; a shared phone's, those of seats no phone plays, or every roll when they may not.
    mayAct: function (forSeat) {
      var mine = ctx.seat();
      if (forSeat === null || forSeat === undefined) return true;
      return mine === null ? !heldByAPhone(forSeat) : forSeat === mine;
    },
    // A throw for the table (roll.anyone: an enemy's dice in a co-operative game) is any phone's
    // (a player's own phone's only where players enter their own dice).
    mayRoll: function (forSeat, roll) {
      var mine = ctx.seat();
      if (roll && roll.anyone) return mine === null || config.playerRolls !== false;
      if (mine === null) return config.playerRolls === false || !heldByAPhone(forSeat);
      return config.playerRolls !== false && forSeat === mine;
    },
  };

  // ------------------------------------------------------------------------- this phone's seat

  function json(url, options) {
    return fetch(url, Object.assign({ credentials: "same-origin", headers: { "Content-Type": "application/json", Accept: "application/json" } }, options || {}))
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); });
  }

  // Seat requests are answered in any order (the server is threaded): an answer counts only when no seat
  // request was sent after it, or a slow first look at the seat would undo the seat picked meanwhile.
  var seatAsked = 0;

  function loadSeat() {
    var asked = ++seatAsked;
    return json(config.seat).then(function (answer) {
      if (asked !== seatAsked || answer.status !== 200) return;
      seat = { game: answer.body.game_id, seat: answer.body.seat, held: answer.body.held || [] };
      secret = { seq: null, data: null };
      if (view) render(view);
    });
  }

  function claimSeat(value, takeOver) {
    var wanted = value === "" ? null : parseInt(value, 10);
    var asked = ++seatAsked;
    json(config.seat, { method: "POST", body: JSON.stringify({ seat: wanted, take_over: !!takeOver }) }).then(function (answer) {
      if (asked !== seatAsked) return; // a later pick or look at the seat has the last word
      if (answer.status === 409 && wanted !== null && !takeOver) {
        if (confirm(playerName(wanted) + "'s seat is on another phone. Take it over? The TV will say so.")) claimSeat(value, true);
        else loadSeat();
        return;
      }
      if (answer.status !== 200) { say(answer.body.reason || "Refused", false); return; }
      seat = { game: answer.body.game_id, seat: answer.body.seat, held: answer.body.held || [] };
      secret = { seq: null, data: null };
      say(wanted === null ? "This phone plays no seat" : "This phone plays " + playerName(wanted), true);
      if (view) render(view);
    });
  }

  function renderSeat(v, renderer) {
    var bar = $("c-seatbar");
    var game = v.game;
    bar.hidden = !game || game.finished || v.status !== "playing";
    if (bar.hidden) return;
    if (seat.game !== v.game_id) { seat.game = v.game_id; seat.seat = null; loadSeat(); }
    var select = clear($("c-seat"));
    option(select, "", "all seats (shared)");
    players().forEach(function (p) { option(select, String(p.seat), p.name); });
    select.value = seat.seat === null ? "" : String(seat.seat);
    select.onchange = function () { claimSeat(select.value, false); };
    // A game that keeps secrets per seat (its game_type says so) shows this phone its seat's part.
    var secrets = !!(v.game_type && v.game_type.hidden_information);
    if (secrets && seat.seat !== null && secret.seq !== v.seq) {
      var asked = secret.seq = v.seq;
      json(config.private).then(function (answer) {
        // Only the answer to the latest look: an older one may be of the seat this phone played before.
        if (secret.seq !== asked || answer.status !== 200) return;
        if (JSON.stringify(secret.data) === JSON.stringify(answer.body.private)) return;
        secret.data = answer.body.private;
        if (view) render(view);
      });
    }
  }

  function renderRolls(prompt) {
    var box = clear($("c-rolls"));
    if (!prompt || !prompt.roll) return;
    var roll = prompt.roll;
    // A throw for the table (roll.anyone: an enemy's dice in a co-operative game) is entered once, by any phone.
    (roll.anyone ? (prompt.players || []).slice(0, 1) : prompt.players || []).forEach(function (seat) {
      if (!ctx.mayRoll(seat, roll)) { box.appendChild(waitingFor(seat, "roll")); return; }
      var row = el("div", "rollrow");
      row.appendChild(el("h3", null, roll.anyone ? "The table rolled" : playerName(seat) + " rolled"));
      row.appendChild(TableDice.entry(ctx, seat, roll));
      box.appendChild(row);
    });
  }

  function waitingFor(forSeat, what) {
    // What a phone playing another seat shows instead of that seat's buttons.
    return el("p", "hint waiting-for", playerName(forSeat) + (what === "roll" ? " enters their roll" : " answers") +
      " on their phone (this phone plays " + playerName(ctx.seat()) + ")");
  }

  function renderChoices(prompt, handled) {
    var box = clear($("c-choices"));
    if (!prompt || handled) return;
    var choices = (prompt.choices || []).filter(function (choice) {
      var action = choice.action || {};
      return ctx.mayAct(typeof action.player === "number" ? action.player : null);
    });
    if (!choices.length && (prompt.choices || []).length) {
      (prompt.players || []).forEach(function (seat) { box.appendChild(waitingFor(seat, "answer")); });
      return;
    }
    choices.forEach(function (choice) { box.appendChild(actionButton(choice.label, choice.action)); });
  }

  function renderResult(v, closed) {
    // The final scores on every phone, not only on the TV: the view's typed result (docs/api.md). A game
    // closed with End game before its end shows the standings as they stood, said as such.
    var box = clear($("c-result"));
    var result = v.result;
    box.hidden = !v.game || !result || !(result.final || closed);
    if (box.hidden) return;
    var winners = result.final ? result.winners || [] : [];
    var names = winners.map(playerName);
    if (!result.final) box.appendChild(el("h2", null, "Scores when the game was closed"));
    else box.appendChild(el("h2", null, result.outcome || (!names.length ? "No winner" : result.tie ? "A tie: " + names.join(" & ") : names.join(" & ") + " wins!")));
    if (result.final) (result.summary || []).forEach(function (line) { box.appendChild(el("p", "result-summary", line)); });
    var list = el(result.cooperative ? "ul" : "ol", "result-list"); // a co-operative party: nobody ranked
    var colours = {};
    players().forEach(function (p) { colours[p.seat] = p.colour; });
    (result.standings || []).slice().sort(function (a, b) { return result.cooperative ? a.seat - b.seat : a.rank - b.rank || a.seat - b.seat; }).forEach(function (standing) {
      var item = el("li", winners.indexOf(standing.seat) >= 0 ? "result-winner" : null);
      item.style.setProperty("--player", colours[standing.seat] || "#888");
      item.appendChild(el("strong", "result-name", standing.name));
      if (typeof standing.points === "number") {
        var shown = Math.round(standing.points) === standing.points ? standing.points : standing.points.toFixed(1);
        item.appendChild(el("span", "result-total", shown + " " + (result.points_label || "")));
      }
      var parts = [];
      var details = standing.details || {};
      Object.keys(details).forEach(function (key) {
        if (typeof details[key] === "number" && details[key]) parts.push(key.replace(/_/g, " ") + " " + details[key]);
      });
      if (parts.length) item.appendChild(el("span", "hint", parts.join(" · ")));
      list.appendChild(item);
    });
    box.appendChild(list);
  }

  function renderStatus(v) {
    var devices = clear($("c-devices"));
    Object.keys(v.devices || {}).forEach(function (name) {
      var s = v.devices[name] || {};
      devices.appendChild(el("li", null, name + ": " + TableLive.deviceSummary(s)));
    });
    var notices = clear($("c-notices"));
    (v.notices || []).forEach(function (n) { notices.appendChild(el("li", "notice", n.text)); });
    renderDice(v);
  }

  // Whose die is which: every die a device reports (Bluetooth dice, the bridge's e-dice), each with the
  // player it belongs to. Rebuilt only when something shown changed, so an open picker stays open.
  var diceShown = null;
  function renderDice(v) {
    var devices = v.devices || {};
    var owners = (devices.table || {}).dice_owners || {};
    var dice = [];
    ((devices["ble-dice"] || {}).dice || []).forEach(function (d) {
      dice.push({ id: d.die, label: d.name + " (" + d.kind + ")" });
    });
    (((devices.firmware || {}).capabilities || {}).dice || []).forEach(function (d) {
      dice.push({ id: d.id, label: "e-die " + d.id + (d.faces ? " (" + d.faces + " faces)" : "") });
    });
    var key = JSON.stringify([dice, owners, players().map(function (p) { return p.name; })]);
    if (key === diceShown) return;
    diceShown = key;
    $("c-dice-head").hidden = !dice.length;
    var list = clear($("c-dice"));
    dice.forEach(function (d) {
      var select = el("select");
      select.setAttribute("aria-label", "Whose die is " + d.label);
      option(select, "", "anyone");
      players().forEach(function (p) { option(select, String(p.seat), p.name); });
      var owner = owners[String(d.id)];
      select.value = owner === undefined ? "" : String(owner);
      select.addEventListener("change", function () {
        setDiceOwner(d.id, select.value === "" ? null : Number(select.value));
      });
      var item = el("li", "dice-owner", d.label + " belongs to ");
      item.appendChild(select);
      list.appendChild(item);
    });
  }

  function setDiceOwner(die, seat) {
    return fetch(config.diceOwners, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ die: die, player: seat }),
    })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (answer) {
        if (answer.ok) say("Die " + die + (seat === null ? " is anyone's" : " belongs to " + playerName(seat)), true);
        else say(answer.body.reason || answer.body.error || "Refused", false);
      })
      .catch(function () { say("No answer from the companion — is it running?", false); });
  }

  // What a history line says when the change has no events of its own (an act is told by its action).
  var HISTORY_NAMES = { undo: "Undone", redo: "Redone", new_game: "New game", end_game: "Game ended" };
  var historyTimer = null;
  function loadHistory() {
    if (historyTimer) return;
    historyTimer = setTimeout(function () {
      historyTimer = null;
      fetch(config.history + "?limit=15")
        .then(function (r) { return r.ok ? r.json() : { history: [] }; })
        .then(function (body) {
          var list = clear($("c-history"));
          (body.history || []).slice().reverse().forEach(function (item) {  // newest first
            var texts = (item.events || []).map(function (e) { return typeof e === "string" ? e : e.text; }).filter(Boolean);
            if (!texts.length) texts = [HISTORY_NAMES[item.kind] || TableLive.describeAction(item.action, playerName, faceName) || item.kind];
            var li = el("li", item.reverted ? "reverted" : null, texts.join(" — "));
            li.appendChild(el("span", "history-meta", " #" + item.seq + " · " + item.source));
            list.appendChild(li);
          });
        });
    }, 300);
  }

  // The seats a phone plays (the view's devices.phones.seats): a shared phone does not act for them.
  function heldByAPhone(forSeat) {
    var phones = view && view.devices && view.devices.phones;
    var held = phones && phones.seats ? phones.seats : (seat.game === (view && view.game_id) ? seat.held : []);
    return held.indexOf(forSeat) >= 0;
  }

  function mayTakeBack(move) {
    // What the session would answer (companion/session/senders.py): a phone that plays a seat takes
    // back only that seat's moves (and corrections); a shared phone anything but a secret or the move
    // of a seat a phone plays.
    if (!move) return true;
    var mine = ctx.seat();
    if (mine === null) return !move.secret && (move.actor === null || !heldByAPhone(move.actor));
    return move.actor === mine || (move.actor === null && !move.secret);
  }

  function renderUndo(v) {
    var undo = $("c-undo");
    var redo = $("c-redo");
    var undoOk = mayTakeBack(v.undo_move);
    var redoOk = mayTakeBack(v.redo_move);
    undo.disabled = !v.can_undo || !undoOk;
    redo.disabled = !v.can_redo || !redoOk;
    var why = "";
    if (v.can_undo && !undoOk) {
      var move = v.undo_move;
      var owner = move.actor === null ? "its player's" : playerName(move.actor) + "'s";
      why = move.secret ? "The last move is secret: only " + owner + " phone can undo it" :
        "The last move was " + owner + ": their phone can undo it";
    }
    var hint = $("c-undo-why");
    hint.textContent = why;
    hint.hidden = !why;
  }

  function showPrompt() {
    // After a move of this phone, a new question is brought into view if the player scrolled away.
    if (!moved || !view || view.seq < moved.seq) return;
    var changed = $("c-prompt").textContent !== moved.asked;
    moved = null;
    if (!changed) return;
    var card = $("c-prompt-card");
    var box = card.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight * 0.6) card.scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function render(v) {
    view = v;
    document.body.dataset.seq = v.seq;
    document.body.dataset.status = v.status;
    var game = v.game;
    // A game closed with End game is no longer live: no question, no form, no "to play".
    var closed = !!game && v.status !== "playing" && !game.finished;
    var prompt = game && v.status === "playing" && !game.finished ? game.prompt : null;
    var renderer = game ? renderers[game.game] || {} : {};
    if (game) catalog(game.game);
    renderSeat(v, renderer);
    $("c-title").textContent = game ? game.title : "No game";
    $("c-round").textContent = game && game.round ? "· round " + game.round : "";
    $("c-prompt").textContent = !game ? "No game running: start one below" : closed ? "This game was closed" :
      game.finished ? "Game over" : prompt ? prompt.text : "";
    renderUndo(v);
    $("c-end").disabled = v.status !== "playing";
    var promptBox = clear($("c-game-prompt"));
    var handled = game && renderer.prompt ? renderer.prompt(promptBox, game, prompt, ctx) : false;
    renderChoices(prompt, handled);
    // A game may draw its own dice entry (one die rolled again and again, not several at once).
    var rollsDrawn = game && prompt && prompt.roll && renderer.rolls ? renderer.rolls(clear($("c-rolls")), game, prompt, ctx) : false;
    if (!rollsDrawn) renderRolls(prompt);
    renderResult(v, closed);
    var panel = clear($("c-game-panel"));
    if (game && renderer.panel && !closed) renderer.panel(panel, game, v, ctx);
    renderStatus(v);
    loadHistory();
    if (window.TableNewGame) TableNewGame.onView(v);
    if (window.TablePastGames) TablePastGames.onView(v);
    showPrompt();
    listeners.forEach(function (listener) { listener(v); });
  }

  function offer(game, card, source, others, sure) {
    // A card read off the table by this phone (its camera: scan.js): the game's draw form offers it
    // first, one tap to confirm, the next most likely (others) beside it. Cleared by forget() or
    // another offer.
    offered = card ? { game: game, card: card, source: source || "camera", others: others || [], sure: sure !== false } : null;
    if (view) render(view);
  }

  function onView(listener) { listeners.push(listener); }

  function wire() {
    $("c-undo").onclick = function () { send("undo"); };
    $("c-redo").onclick = function () { send("redo"); };
    $("c-end").onclick = function () {
      if (confirm("End this game now? It cannot be resumed: its scores are final and its secrets are shown.")) send("end_game");
    };
    $("c-msg").onclick = function () { $("c-msg").hidden = true; };
    if (window.TableNewGame) TableNewGame.start(config, ctx);
    if (window.TablePastGames) TablePastGames.start(config, ctx);
  }

  function register(name, renderer) { renderers[name] = renderer; }

  function start() {
    config = JSON.parse(document.getElementById("c-config").textContent);
    wire();
    TableLive.connect(config.stream, render, config.view);
  }

  return { start: start, register: register, ctx: ctx, onView: onView, json: json, offer: offer };
})();
