// The phone control page: renders the live view's prompt as buttons and posts commands.
// Commands go to /control/commands with the session cookie (the PIN was entered once); the answer
// is the session's Outcome, whose "reason" is shown when the game refuses.
"use strict";

(function () {
  var el = TableLive.el;
  var config = JSON.parse(document.getElementById("c-config").textContent);
  var COLOURS = ["#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e"];
  var NAMES = ["Grotsnik", "Ugluk", "Snagla", "Bogrot"];
  var view = null;
  var catalogs = {}; // game -> [card]

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
      })
      .catch(function () { say("No answer from the companion — is it running?", false); });
  }

  function act(action) { return send("act", action); }

  function option(select, value, label) {
    var o = el("option", null, label);
    o.value = value;
    select.appendChild(o);
  }

  function fillSlots(select) {
    if (select.options.length) return;
    option(select, "", "any");
    for (var i = 0; i < 12; i++) option(select, String(i), String(i + 1));
  }

  function players() { return view && view.game ? view.game.players || [] : []; }

  function faceName(die, face) {
    var d = config.dice[die];
    return d && d.faces && d.faces[face] ? d.faces[face] : face;
  }

  function renderRolls(prompt) {
    var box = clear($("c-rolls"));
    if (!prompt || !prompt.roll) return;
    var roll = prompt.roll;
    (prompt.players || []).forEach(function (seat) {
      var who = players()[seat];
      var row = el("div", "rollrow");
      row.appendChild(el("h3", null, (who ? who.name : "Seat " + seat) + " rolled"));
      if (roll.count === 1) {
        roll.faces.forEach(function (face) {
          var b = el("button", "primary", faceName(roll.die, face));
          b.onclick = function () { act({ kind: "roll", player: seat, die: roll.die, faces: [face] }); };
          row.appendChild(b);
        });
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

  function pileCards(game) {
    // The draw pile as [{id, title, count}] whatever the game sends (a list or a count per id).
    var pile = game.draw_pile;
    var catalog = catalogs[game.game] || [];
    var titles = {};
    catalog.forEach(function (c) { titles[c.id] = c.title; });
    if (Array.isArray(pile)) {
      return pile.map(function (c) {
        return typeof c === "string" ? { id: c, title: titles[c] || c, count: 1 } : c;
      });
    }
    if (pile && typeof pile === "object" && pile.cards) return pile.cards;
    if (game.draw_pile_cards) {
      // {card id: copies left}: only the cards really in the pile.
      return Object.keys(game.draw_pile_cards).map(function (id) {
        return { id: id, title: titles[id] || id, count: game.draw_pile_cards[id] };
      });
    }
    // Only a count is known: offer every title; the engine refuses one that is not in the pile.
    return catalog.map(function (c) { return { id: c.id, title: c.title, count: c.copies }; });
  }

  function loadCatalog(game) {
    if (!game || catalogs[game] !== undefined) return;
    catalogs[game] = [];
    fetch(config.cards.replace("GAME", encodeURIComponent(game)))
      .then(function (r) { return r.ok ? r.json() : { cards: [] }; })
      .then(function (body) { catalogs[game] = body.cards || []; if (view) render(view); });
  }

  function renderDraw(game, prompt) {
    var box = $("c-draw");
    var isDraw = prompt && prompt.kind === "draw" && !prompt.roll;
    box.hidden = !isDraw;
    if (!isDraw) return;
    var select = $("c-draw-card");
    var current = select.value;
    clear(select);
    pileCards(game).forEach(function (c) {
      if (c.count > 0) option(select, c.id, c.title + " (" + c.count + " left)");
    });
    if (current) select.value = current;
    fillSlots($("c-draw-slot"));
  }

  function renderChoices(prompt) {
    var box = clear($("c-choices"));
    if (!prompt) return;
    (prompt.choices || []).forEach(function (choice) {
      var b = el("button", null, choice.label);
      b.onclick = function () { act(choice.action); };
      box.appendChild(b);
    });
  }

  // "Correct the table": put a card from the draw or discard pile on a seat's slot (correct_place),
  // or take one off to the discard pile (correct_remove). Neither answers the prompt.
  var armed = null; // "seat/line/slot" of the tile tapped once, waiting for the second tap

  function cardTitles(game) {
    var titles = {};
    (catalogs[game.game] || []).forEach(function (c) { titles[c.id] = c; });
    return titles;
  }

  function fixSeat() { return parseInt($("c-fix-seat").value, 10); }

  function renderCorrection(game) {
    var box = $("c-correct");
    box.hidden = !game || !game.players || game.draw_pile_cards === undefined;
    if (box.hidden) return;
    var seats = $("c-fix-seat");
    var seat = seats.value;
    clear(seats);
    players().forEach(function (p) { option(seats, String(p.seat), p.name); });
    if (seat) seats.value = seat;
    var slots = $("c-fix-slot");
    if (!slots.options.length) for (var i = 0; i < 12; i++) option(slots, String(i), String(i + 1));

    var titles = cardTitles(game);
    var counts = $("c-fix-source").value === "discard"
      ? (game.discard_pile && game.discard_pile.cards) || {}
      : game.draw_pile_cards || {};
    var cards = $("c-fix-card");
    var card = cards.value;
    clear(cards);
    Object.keys(counts).sort(function (a, b) {
      return (titles[a] ? titles[a].title : a).localeCompare(titles[b] ? titles[b].title : b);
    }).forEach(function (id) {
      option(cards, id, (titles[id] ? titles[id].title : id) + " (" + counts[id] + ")");
    });
    if (card && counts[card]) cards.value = card;

    var git = titles[cards.value] && titles[cards.value].ability === "sneaky-git";
    $("c-fix-owner-row").hidden = !git;
    var owners = $("c-fix-owner");
    var owner = owners.value;
    clear(owners);
    players().forEach(function (p) { if (p.seat !== fixSeat()) option(owners, String(p.seat), p.name); });
    if (owner) owners.value = owner;

    renderTiles(game);
  }

  function renderTiles(game) {
    var box = clear($("c-fix-tiles"));
    var seat = fixSeat();
    var who = (game.players || [])[seat];
    if (!who) return;
    (who.lines || []).forEach(function (line) {
      var row = el("div", "fix-line");
      row.appendChild(el("span", null, "Line " + (line.index + 1)));
      line.slots.forEach(function (card, slot) {
        if (!card) return;
        var key = seat + "/" + line.index + "/" + slot;
        var label = (slot + 1) + ": " + card.title;
        var b = el("button", armed === key ? "armed" : null, armed === key ? "Remove " + card.title + "?" : label);
        b.type = "button";
        b.dataset.line = line.index;
        b.dataset.slot = slot;
        b.dataset.card = card.id;
        b.onclick = function () {
          if (armed !== key) {
            armed = key;
            renderTiles(view.game);
            return;
          }
          armed = null;
          act({ kind: "correct_remove", player: seat, line: line.index, slot: slot });
        };
        row.appendChild(b);
      });
      if (row.children.length === 1) row.appendChild(el("span", "hint", "empty"));
      box.appendChild(row);
    });
  }

  function renderStatus(v) {
    var devices = clear($("c-devices"));
    Object.keys(v.devices || {}).forEach(function (name) {
      var s = v.devices[name] || {};
      devices.appendChild(el("li", null, name + ": " + TableLive.deviceSummary(s)));
    });
    var notices = clear($("c-notices"));
    (v.notices || []).forEach(function (n) { notices.appendChild(el("li", "notice", n.text)); });
  }

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
            var label = "#" + item.seq + " " + item.source + " " + item.kind + (texts.length ? ": " + texts.join(" — ") : "");
            list.appendChild(el("li", item.reverted ? "reverted" : null, label));
          });
        });
    }, 300);
  }

  function render(v) {
    view = v;
    document.body.dataset.seq = v.seq;
    var game = v.game;
    var prompt = game ? game.prompt : null;
    if (game) loadCatalog(game.game);
    $("c-title").textContent = game ? game.title : "No game";
    $("c-round").textContent = game && game.round ? "· round " + game.round : "";
    $("c-prompt").textContent = !game ? "No game running: start one below" : game.finished ? "Game over" : prompt ? prompt.text : "";
    $("c-undo").disabled = !v.can_undo;
    $("c-redo").disabled = !v.can_redo;
    $("c-end").disabled = v.status !== "playing";
    renderChoices(prompt);
    renderRolls(prompt);
    renderDraw(game || {}, prompt);
    renderCorrection(game);
    renderStatus(v);
    loadHistory();
  }

  function addPlayer(name, colour) {
    var list = $("c-players");
    var li = el("li");
    var n = el("input");
    n.type = "text";
    n.value = name;
    n.placeholder = "Name";
    var c = el("input");
    c.type = "color";
    c.value = colour;
    var x = el("button", "small", "✕");
    x.type = "button";
    x.onclick = function () { li.remove(); };
    li.appendChild(n);
    li.appendChild(c);
    li.appendChild(x);
    list.appendChild(li);
  }

  function seatValue(id) { return parseInt($(id).value, 10); }

  function slotValue(id) { return $(id).value === "" ? null : parseInt($(id).value, 10); }

  function wire() {
    $("c-undo").onclick = function () { send("undo"); };
    $("c-redo").onclick = function () { send("redo"); };
    $("c-end").onclick = function () { if (confirm("End this game now?")) send("end_game"); };
    $("c-draw-only").onclick = function () {
      var seat = view.game.prompt.players[0];
      act({ kind: "draw", player: seat, card: $("c-draw-card").value });
    };
    $("c-draw-place").onclick = function () {
      var seat = view.game.prompt.players[0];
      act({ kind: "place", player: seat, card: $("c-draw-card").value, line: seatValue("c-draw-line"), slot: slotValue("c-draw-slot") });
    };
    $("c-fix-place").onclick = function () {
      var action = {
        kind: "correct_place", player: fixSeat(), card: $("c-fix-card").value,
        line: seatValue("c-fix-line"), slot: seatValue("c-fix-slot"), source: $("c-fix-source").value,
      };
      if (!$("c-fix-owner-row").hidden) action.owner = seatValue("c-fix-owner");
      act(action);
    };
    ["c-fix-seat", "c-fix-source", "c-fix-card"].forEach(function (id) {
      $(id).onchange = function () { armed = null; if (view && view.game) renderCorrection(view.game); };
    });
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
      send("new_game", { game: $("c-game").value, players: chosen });
    };
    var defaults = config.defaultPlayers.length ? config.defaultPlayers : NAMES.map(function (n, i) { return { name: n, colour: COLOURS[i] }; });
    defaults.forEach(function (p) { addPlayer(p.name, p.colour); });
  }

  wire();
  TableLive.connect(config.stream, render, config.view);
})();
