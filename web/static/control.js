// The phone control page's frame: prompt and its choices, dice entry, undo/redo, the result, a new
// game (any installed game, with its own setup options), devices and history. What only one game
// needs (a card game's draw form, a skirmish game's attack form) is drawn by that game's renderer, its
// bundle's screens/control.js, which calls TableControl.register.
// Commands go to /control/commands with the session cookie (the PIN was entered once); the answer
// is the session's Outcome, whose "reason" is shown when the game refuses.
"use strict";

var TableControl = (function () {
  var el = TableLive.el;
  var COLOURS = ["#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e"];
  var NAMES = ["Grotsnik", "Ugluk", "Snagla", "Bogrot"];
  var renderers = {}; // game name -> {prompt(box, game, prompt, ctx) -> handled?, panel(box, game, view, ctx)}
  var config = null;
  var view = null;
  var catalogs = {}; // game -> [card]
  var seat = { game: null, seat: null, held: [] }; // which seat this phone plays (GET/POST /control/seat)
  var secret = { seq: null, data: null }; // the seat's private view (GET /control/private)
  var listeners = []; // functions told of every view after it is drawn (phones.js)

  function $(id) { return document.getElementById(id); }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function say(text, ok) {
    var msg = $("c-msg");
    msg.textContent = text || "";
    msg.className = "msg " + (ok ? "msg-ok" : "msg-error");
  }

  function send(kind, payload) {
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
        if (answer.body.accepted) say("Done (#" + answer.body.seq + ")", true);
        else say(answer.body.reason || "Refused (" + answer.status + ")", false);
        return answer.body;
      })
      .catch(function () { say("No answer from the companion — is it running?", false); });
  }

  function act(action) { return send("act", action); }

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
    view: function () { return view; },
    redraw: function () { if (view) render(view); },
    seat: function () { return seat.game === (view && view.game_id) ? seat.seat : null; },
    privateView: function () { return secret.data; },
    // A phone that plays a seat acts for that seat alone (the server refuses the rest); a shared phone,
    // with no seat, acts for every seat. Rolls: its own, when the table lets players enter their own.
    mayAct: function (forSeat) { var mine = ctx.seat(); return mine === null || forSeat === null || forSeat === undefined || forSeat === mine; },
    // A throw for the table (roll.anyone: an enemy's dice in a co-operative game) is any phone's.
    mayRoll: function (forSeat, roll) { var mine = ctx.seat(); return mine === null || (config.playerRolls !== false && (forSeat === mine || !!(roll && roll.anyone))); },
  };

  // ------------------------------------------------------------------------- this phone's seat

  function json(url, options) {
    return fetch(url, Object.assign({ credentials: "same-origin", headers: { "Content-Type": "application/json", Accept: "application/json" } }, options || {}))
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); });
  }

  function loadSeat() {
    return json(config.seat).then(function (answer) {
      if (answer.status !== 200) return;
      seat = { game: answer.body.game_id, seat: answer.body.seat, held: answer.body.held || [] };
      secret = { seq: null, data: null };
      if (view) render(view);
    });
  }

  function claimSeat(value, takeOver) {
    var wanted = value === "" ? null : parseInt(value, 10);
    json(config.seat, { method: "POST", body: JSON.stringify({ seat: wanted, take_over: !!takeOver }) }).then(function (answer) {
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
    bar.hidden = !game || game.finished;
    if (bar.hidden) return;
    if (seat.game !== v.game_id) { seat.game = v.game_id; seat.seat = null; loadSeat(); }
    var select = clear($("c-seat"));
    option(select, "", "nobody (shared phone)");
    players().forEach(function (p) { option(select, String(p.seat), p.name); });
    select.value = seat.seat === null ? "" : String(seat.seat);
    select.onchange = function () { claimSeat(select.value, false); };
    // A game that keeps secrets per seat (its game_type says so) shows this phone its seat's part.
    var secrets = !!(v.game_type && v.game_type.hidden_information);
    if (secrets && seat.seat !== null && secret.seq !== v.seq) {
      secret.seq = v.seq;
      json(config.private).then(function (answer) {
        if (answer.status !== 200) return;
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
    (roll.anyone ? (prompt.players || []).slice(0, 1) : prompt.players || []).forEach(function (seat) {
      if (!ctx.mayRoll(seat, roll)) { box.appendChild(waitingFor(seat, "roll")); return; }
      var row = el("div", "rollrow");
      row.appendChild(el("h3", null, roll.anyone ? "The table rolled" : playerName(seat) + " rolled"));
      if (roll.dice && roll.dice.length) {
        row.appendChild(mixedDice(seat, roll)); // different dice thrown together: one menu per die
      } else if ((roll.count === 1 || roll.policy === "one_by_one") && roll.faces.length <= 6) {
        roll.faces.forEach(function (face) { // one die, or each throw of one die entered as it falls
          var b = el("button", "primary", faceName(roll.die, face));
          b.onclick = function () { act({ kind: "roll", player: seat, die: roll.die, faces: [face] }); };
          row.appendChild(b);
        });
      } else if (distinct(roll.faces).length <= 4) {
        // Several dice of few faces (combat dice): count each face instead of one menu per die.
        row.appendChild(faceCounter(seat, roll));
      } else {
        var selects = [];
        for (var i = 0; i < roll.count; i++) {
          var s = el("select");
          roll.faces.forEach(function (face) { option(s, face, faceName(roll.die, face)); });
          selects.push(s);
          row.appendChild(s);
        }
        var go = el("button", "primary", "Enter roll");
        go.onclick = function () {
          act({ kind: "roll", player: seat, die: roll.die, faces: selects.map(function (s) { return s.value; }) });
        };
        row.appendChild(go);
      }
      box.appendChild(row);
    });
  }

  function facesOf(die, fallback) {
    // The faces a die shows (from the dice data), else every face the roll accepts.
    var known = config.dice[die];
    var faces = known && known.faces ? Object.keys(known.faces) : [];
    return faces.length ? faces : fallback;
  }

  function mixedDice(seat, roll) {
    // One menu per die of a mixed throw (a yellow, a red and a blue die), in the roll's order.
    var box = el("div", "mixed-dice");
    var selects = roll.dice.map(function (die) {
      var label = el("label", null, config.dice[die] ? config.dice[die].title : die);
      var s = el("select");
      facesOf(die, roll.faces).forEach(function (face) { option(s, face, faceName(die, face)); });
      label.appendChild(s);
      box.appendChild(label);
      return s;
    });
    var go = el("button", "primary", "Enter roll");
    go.onclick = function () {
      act({ kind: "roll", player: seat, die: roll.die, faces: selects.map(function (s) { return s.value; }) });
    };
    box.appendChild(go);
    return box;
  }

  function distinct(list) {
    return list.filter(function (x, i) { return list.indexOf(x) === i; });
  }

  function faceCounter(seat, roll) {
    var faces = distinct(roll.faces);
    var counts = {};
    var box = el("div", "facecount");
    faces.forEach(function (face, i) {
      counts[face] = i === faces.length - 1 ? roll.count : 0; // the rest fall on the last face
    });
    var total = el("p", "hint");
    function redraw() {
      clear(box);
      faces.forEach(function (face) {
        var row = el("div", "facecount-row");
        row.appendChild(el("span", "facecount-name", faceName(roll.die, face)));
        var minus = el("button", "small", "−");
        minus.type = "button";
        minus.onclick = function () { if (counts[face] > 0) { counts[face]--; redraw(); } };
        var plus = el("button", "small", "+");
        plus.type = "button";
        plus.onclick = function () { counts[face]++; redraw(); };
        row.appendChild(minus);
        row.appendChild(el("strong", "facecount-n", counts[face]));
        row.appendChild(plus);
        box.appendChild(row);
      });
      var sum = faces.reduce(function (n, f) { return n + counts[f]; }, 0);
      total.textContent = sum + " of " + roll.count + " dice";
      box.appendChild(total);
      var go = el("button", "primary", "Enter " + roll.count + " dice");
      go.disabled = sum !== roll.count;
      go.onclick = function () {
        var thrown = [];
        faces.forEach(function (f) { for (var i = 0; i < counts[f]; i++) thrown.push(f); });
        act({ kind: "roll", player: seat, die: roll.die, faces: thrown });
      };
      box.appendChild(go);
    }
    redraw();
    return box;
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
    choices.forEach(function (choice) {
      var b = el("button", null, choice.label);
      b.onclick = function () { act(choice.action); };
      box.appendChild(b);
    });
  }

  function renderResult(v) {
    // The final scores on every phone, not only on the TV: the view's typed result (docs/api.md).
    var box = clear($("c-result"));
    var result = v.result;
    box.hidden = !v.game || !result || !result.final;
    if (box.hidden) return;
    var winners = result.winners || [];
    var names = winners.map(playerName);
    box.appendChild(el("h2", null, result.outcome || (!names.length ? "No winner" : result.tie ? "A tie: " + names.join(" & ") : names.join(" & ") + " wins!")));
    (result.summary || []).forEach(function (line) { box.appendChild(el("p", "result-summary", line)); });
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
      dice.push({ id: d.id, label: "e-die " + d.id + " (" + d.kind + ")" });
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

  function render(v) {
    view = v;
    document.body.dataset.seq = v.seq;
    var game = v.game;
    var prompt = game && !game.finished ? game.prompt : null;
    var renderer = game ? renderers[game.game] || {} : {};
    if (game) catalog(game.game);
    renderSeat(v, renderer);
    $("c-title").textContent = game ? game.title : "No game";
    $("c-round").textContent = game && game.round ? "· round " + game.round : "";
    $("c-prompt").textContent = !game ? "No game running: start one below" : game.finished ? "Game over" : prompt ? prompt.text : "";
    $("c-undo").disabled = !v.can_undo;
    $("c-redo").disabled = !v.can_redo;
    $("c-end").disabled = v.status !== "playing";
    var promptBox = clear($("c-game-prompt"));
    var handled = game && renderer.prompt ? renderer.prompt(promptBox, game, prompt, ctx) : false;
    renderChoices(prompt, handled);
    // A game may draw its own dice entry (one die rolled again and again, not several at once).
    var rollsDrawn = game && prompt && prompt.roll && renderer.rolls ? renderer.rolls(clear($("c-rolls")), game, prompt, ctx) : false;
    if (!rollsDrawn) renderRolls(prompt);
    renderResult(v);
    carryOn(v);
    var panel = clear($("c-game-panel"));
    if (game && renderer.panel) renderer.panel(panel, game, v, ctx);
    renderStatus(v);
    loadHistory();
    listeners.forEach(function (listener) { listener(v); });
  }

  function onView(listener) { listeners.push(listener); }

  // ------------------------------------------------------------------------------ new game

  function gameInfo(name) {
    return (config.games || []).filter(function (g) { return g.name === name; })[0] || { options: [] };
  }

  var carried = { game: null, options: {} }; // the finished game's result.follow_on, once per game

  function carryOn(v) {
    // A finished game that carries on (a campaign's next adventure, docs/bundles.md "result"): the
    // new-game form starts from the options its result gives, with the same players in the same seats.
    var result = v.result;
    var next = v.game && result && result.final && result.follow_on ? result.follow_on : {};
    if (!Object.keys(next).length || carried.game === v.game_id) return;
    carried = { game: v.game_id, options: next };
    $("c-game").value = v.game.game;
    clear($("c-players"));
    (v.game.players || []).forEach(function (p) { addPlayer(p.name, p.colour || "#888888"); });
    renderOptions();
  }

  function optionSpecs() {
    // The chosen game's setup options, defaulting to what a finished game of it carries on with.
    var next = carried.game !== null && view && view.game && view.game.game === $("c-game").value ? carried.options : {};
    return gameInfo($("c-game").value).options.map(function (given) {
      return Object.prototype.hasOwnProperty.call(next, given.name) ? Object.assign({}, given, { default: next[given.name] }) : given;
    });
  }

  function renderOptions() {
    var box = clear($("c-options"));
    optionSpecs().forEach(function (opt) {
      var label = el(opt.kind === "per_seat" ? "div" : "label", opt.kind === "per_seat" ? "per-seat" : null, opt.label);
      var input;
      if (opt.kind === "per_seat") {
        input = el("div", "per-seat-menus"); // one menu per player listed (renderSeatOptions)
        input.dataset.fresh = "1";
      } else if (opt.kind === "choice") {
        input = el("select");
        opt.choices.forEach(function (c) { option(input, JSON.stringify(c.value), c.label); });
        input.value = JSON.stringify(opt.default);
      } else if (opt.kind === "bool") {
        input = el("input");
        input.type = "checkbox";
        input.checked = !!opt.default;
        label.className = "check";
      } else {
        input = el("input");
        input.type = opt.kind === "int" ? "number" : "text";
        if (opt.minimum !== null) input.min = opt.minimum;
        if (opt.maximum !== null) input.max = opt.maximum;
        input.value = opt.default === null || opt.default === undefined ? "" : opt.default;
      }
      input.dataset.option = opt.name;
      input.dataset.kind = opt.kind;
      label.appendChild(input);
      if (opt.help) label.appendChild(el("span", "hint", opt.help));
      box.appendChild(label);
    });
    renderSeatOptions();
  }

  function renderSeatOptions() {
    // A per-seat option (the adventurer each player plays): a menu per player listed, in seat order,
    // kept in step with the list; what was chosen stays with its seat.
    var names = Array.prototype.map.call($("c-players").children, function (li, i) {
      return li.querySelector("input").value.trim() || "Player " + (i + 1);
    });
    var specs = {};
    optionSpecs().forEach(function (opt) { specs[opt.name] = opt; });
    Array.prototype.forEach.call($("c-options").querySelectorAll("[data-kind=per_seat]"), function (box) {
      var opt = specs[box.dataset.option];
      if (!opt) return;
      var kept = Array.prototype.map.call(box.querySelectorAll("select"), function (s) { return s.value; });
      if (box.dataset.fresh) { kept = []; delete box.dataset.fresh; } // just drawn: the defaults hold
      clear(box);
      names.forEach(function (name, i) {
        var row = el("label", "per-seat-row", name);
        var s = el("select");
        opt.choices.forEach(function (c) { option(s, JSON.stringify(c.value), c.label); });
        var given = Array.isArray(opt.default) && i < opt.default.length ? opt.default[i] : (opt.choices[i % opt.choices.length] || {}).value;
        s.value = i < kept.length ? kept[i] : JSON.stringify(given);
        row.appendChild(s);
        box.appendChild(row);
      });
    });
  }

  function chosenOptions() {
    var options = {};
    Array.prototype.forEach.call($("c-options").querySelectorAll("[data-option]"), function (input) {
      var kind = input.dataset.kind;
      if (kind === "per_seat") options[input.dataset.option] = Array.prototype.map.call(input.querySelectorAll("select"), function (s) { return JSON.parse(s.value); });
      else if (kind === "choice") options[input.dataset.option] = JSON.parse(input.value);
      else if (kind === "bool") options[input.dataset.option] = input.checked;
      else if (kind === "int") { if (input.value !== "") options[input.dataset.option] = parseInt(input.value, 10); }
      else if (input.value !== "") options[input.dataset.option] = input.value;
    });
    return options;
  }

  function addPlayer(name, colour) {
    var list = $("c-players");
    var li = el("li");
    var n = el("input");
    n.type = "text";
    n.value = name;
    n.placeholder = "Name";
    n.maxLength = 32; // the server refuses longer names (NAME_MAX_CHARS in web/__init__.py)
    var c = el("input");
    c.type = "color";
    c.value = colour;
    var x = el("button", "small", "✕");
    x.type = "button";
    x.onclick = function () { li.remove(); renderSeatOptions(); };
    n.onchange = renderSeatOptions; // a per-seat option's menus are labelled by the players' names
    li.appendChild(n);
    li.appendChild(c);
    li.appendChild(x);
    list.appendChild(li);
    renderSeatOptions();
  }

  function wire() {
    $("c-undo").onclick = function () { send("undo"); };
    $("c-redo").onclick = function () { send("redo"); };
    $("c-end").onclick = function () { if (confirm("End this game now?")) send("end_game"); };
    $("c-game").onchange = renderOptions;
    $("c-add-player").onclick = function () {
      var n = $("c-players").children.length;
      addPlayer(NAMES[n % NAMES.length], COLOURS[n % COLOURS.length]);
    };
    $("c-start").onclick = function () {
      var chosen = [];
      Array.prototype.forEach.call($("c-players").children, function (li) {
        var inputs = li.querySelectorAll("input");
        if (inputs[0].value.trim()) chosen.push({ name: inputs[0].value.trim(), colour: inputs[1].value });
      });
      send("new_game", { game: $("c-game").value, players: chosen, options: chosenOptions() });
    };
    var defaults = config.defaultPlayers.length ? config.defaultPlayers : NAMES.map(function (n, i) { return { name: n, colour: COLOURS[i] }; });
    defaults.forEach(function (p) { addPlayer(p.name, p.colour); });
    renderOptions();
  }

  function register(name, renderer) { renderers[name] = renderer; }

  function start() {
    config = JSON.parse(document.getElementById("c-config").textContent);
    wire();
    TableLive.connect(config.stream, render, config.view);
  }

  return { start: start, register: register, ctx: ctx, onView: onView, json: json };
})();
