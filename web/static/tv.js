// The TV scoreboard: draws each published view (see docs/api.md for its keys) into the page shell.
// Whole views arrive every time, so the page is redrawn from scratch; what changed since the previous
// view (a tile just placed) is found by comparing the two, which also works after an undo.
"use strict";

var TableTV = (function () {
  var el = TableLive.el;
  var TICKER_SIZE = 6; // changes remembered
  var TICKER_LINES = 4; // lines that fit the footer
  var previousCells = null; // "seat:line:slot" -> card id, from the previous view
  var ticker = []; // [{seq, text}] newest first
  var lastSeq = null;

  function text(id, value) {
    document.getElementById(id).textContent = value || "";
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function cellsOf(game) {
    var cells = {};
    (game.players || []).forEach(function (player) {
      (player.lines || []).forEach(function (line) {
        (line.slots || []).forEach(function (card, slot) {
          if (card) cells[player.seat + ":" + line.index + ":" + slot] = card.id;
        });
      });
    });
    return cells;
  }

  function candidateTile(title) {
    // The slot the table's next button is showing: the card that confirm would put there, ghosted.
    var node = el("div", "tile tile-candidate");
    node.appendChild(el("span", "tile-name", title));
    return node;
  }

  function candidateOf(view) {
    // {key: "seat:line:slot", title} of a placement the table's buttons are showing, or null.
    var table = (view.devices || {}).table || {};
    var action = table.choice && table.choice.action;
    if (!action || action.kind !== "place" || action.slot === null || action.slot === undefined) return null;
    var seat = action.target === null || action.target === undefined ? action.player : action.target;
    var pending = ((view.game || {}).pending_cards || []).filter(function (c) { return c && c.id === action.card; })[0];
    return { key: seat + ":" + action.line + ":" + action.slot, title: pending ? pending.title : "" };
  }

  function tile(card, fresh) {
    if (!card) return el("div", "tile tile-empty");
    var node = el("div", "tile card-" + (card.colour || "grey") + (fresh ? " tile-fresh" : ""));
    if (card.hidden) node.classList.add("tile-hidden"); // face down: the Chaos Marauders may be spotted
    node.dataset.card = card.id;
    node.title = card.title;
    node.appendChild(el("span", "tile-attack", card.attack === null || card.attack === undefined ? "" : card.attack));
    node.appendChild(el("span", "tile-name", card.title));
    node.appendChild(el("span", "tile-vp", card.vp ? card.vp : ""));
    if (card.owner !== null && card.owner !== undefined) node.classList.add("tile-owned");
    return node;
  }

  function lineRow(player, line, fresh, candidate) {
    var row = el("div", "line" + (line.complete ? " line-complete" : ""));
    row.dataset.line = line.index;
    var label = el("div", "line-label");
    var attack = el("span", "line-attack");
    attack.appendChild(el("small", "line-attack-icon", "⚔"));
    attack.appendChild(document.createTextNode(line.attack_value === null || line.attack_value === undefined ? "–" : line.attack_value));
    label.appendChild(attack);
    var state = line.complete ? "complete" : (line.card_count || 0) + "/12";
    if (line.protected) state += " 🛡";
    label.appendChild(el("span", "line-state", state));
    row.appendChild(label);
    var slots = el("div", "slots");
    (line.slots || []).forEach(function (card, slot) {
      var key = player.seat + ":" + line.index + ":" + slot;
      if (!card && candidate && candidate.key === key) slots.appendChild(candidateTile(candidate.title));
      else slots.appendChild(tile(card, card && fresh[key]));
    });
    row.appendChild(slots);
    return row;
  }

  function scoreParts(score) {
    var parts = [];
    Object.keys(score || {}).forEach(function (key) {
      // Only the numeric parts (cards, booty, line bonus...); per-line detail is drawn on the lines.
      if (key !== "total" && typeof score[key] === "number" && score[key]) {
        parts.push(key.replace(/_/g, " ") + " " + score[key]);
      }
    });
    return parts.join(" · ");
  }

  function playerPanel(player, fresh, waiting, promptKind, candidate) {
    var panel = el("section", "player" + (player.active ? " player-active" : "") + (waiting ? " player-waiting" : ""));
    panel.style.setProperty("--player", player.colour || "#888");
    panel.dataset.seat = player.seat;
    var head = el("header", "player-head");
    head.appendChild(el("span", "player-name", player.name));
    if (waiting) head.appendChild(el("span", "player-turn", promptKind === "roll" ? "roll the Cube!" : "to play"));
    var score = el("span", "player-score");
    score.appendChild(el("span", "player-score-parts", scoreParts(player.score)));
    score.appendChild(el("strong", "player-total", player.score ? player.score.total : 0));
    score.appendChild(el("span", "player-vp-label", "VP"));
    head.appendChild(score);
    panel.appendChild(head);
    (player.lines || []).forEach(function (line) {
      panel.appendChild(lineRow(player, line, fresh, candidate));
    });
    return panel;
  }

  function freshCells(cells) {
    var fresh = {};
    if (previousCells === null) return fresh; // the first view: nothing is "new"
    Object.keys(cells).forEach(function (key) {
      if (previousCells[key] !== cells[key]) fresh[key] = true;
    });
    return fresh;
  }

  function renderPrompt(game, view) {
    var prompt = document.getElementById("prompt");
    var top = document.getElementById("top");
    if (!game) {
      prompt.textContent = "No game yet — scan the code to start one";
      top.style.removeProperty("--player");
      return;
    }
    var active = (game.players || []).filter(function (p) { return p.active; })[0];
    top.style.setProperty("--player", active ? active.colour : "#888");
    if (game.finished) prompt.textContent = "Game over";
    else prompt.textContent = game.prompt ? game.prompt.text : "";
    text("game-title", game.title || game.game);
    text("round", game.round ? "Round " + game.round : "");
    var piles = clear(document.getElementById("piles"));
    [["Draw pile", game.draw_pile], ["Discards", game.discard_pile]].forEach(function (pile) {
      if (pile[1] === undefined) return;
      var row = el("div", "pile");
      row.appendChild(el("span", "pile-label", pile[0]));
      row.appendChild(el("strong", "pile-count", pileCount(pile[1])));
      piles.appendChild(row);
    });
  }

  function pileCount(pile) {
    if (typeof pile === "number") return pile;
    if (Array.isArray(pile)) {
      return pile.reduce(function (n, item) {
        return n + (item && typeof item === "object" && "count" in item ? item.count : 1);
      }, 0);
    }
    if (pile && typeof pile === "object" && "count" in pile) return pile.count;
    return "";
  }

  function remember(view) {
    var change = view.last_change;
    if (!change || ticker.some(function (t) { return t.seq === change.seq && t.kind === change.kind; })) return;
    var texts = (change.events || []).map(function (e) { return e.text; }).filter(Boolean);
    if (!texts.length) {
      var names = { undo: "Undone", redo: "Redone", new_game: "New game", end_game: "Game ended" };
      texts = [names[change.kind] || change.kind];
    }
    ticker.unshift({ seq: change.seq, kind: change.kind, texts: texts });
    ticker = ticker.slice(0, TICKER_SIZE);
  }

  function renderTicker() {
    // One line per event: the latest change's events in large type, older changes below.
    var list = clear(document.getElementById("ticker"));
    var lines = 0;
    ticker.forEach(function (item, i) {
      item.texts.forEach(function (line) {
        if (lines++ < TICKER_LINES) list.appendChild(el("li", i === 0 ? "tick tick-new" : "tick", line));
      });
    });
  }

  function renderSide(view) {
    var notices = clear(document.getElementById("notices"));
    (view.notices || []).forEach(function (n) {
      notices.appendChild(el("li", "notice notice-" + (n.level || "info"), n.text));
    });
    var devices = clear(document.getElementById("devices"));
    Object.keys(view.devices || {}).forEach(function (name) {
      var status = view.devices[name] || {};
      var state = status.state || status.status || "";
      var item = el("li", "device device-" + String(state).replace(/[^a-z_-]/gi, ""));
      item.appendChild(el("span", "device-dot"));
      item.appendChild(el("span", "device-name", name));
      item.appendChild(el("span", "device-state", TableLive.deviceSummary(status)));
      devices.appendChild(item);
    });
  }

  function renderFinal(game) {
    var final = document.getElementById("final");
    if (!game || !game.finished || !game.result) {
      final.hidden = true;
      return;
    }
    clear(final);
    var result = game.result;
    var winners = result.winners || [];
    var byseat = {};
    (game.players || []).forEach(function (p) { byseat[p.seat] = p; });
    var names = winners.map(function (s) { return byseat[s] ? byseat[s].name : "seat " + s; });
    var box = el("div", "final-box");
    box.appendChild(el("h1", "final-title", result.tie ? "A tie! " + names.join(" & ") : names.join(" & ") + " wins!"));
    var rows = (game.players || []).slice().sort(function (a, b) {
      return (b.score ? b.score.total : 0) - (a.score ? a.score.total : 0);
    });
    var table = el("ol", "final-table");
    rows.forEach(function (p) {
      var row = el("li", "final-row" + (winners.indexOf(p.seat) >= 0 ? " final-winner" : ""));
      row.style.setProperty("--player", p.colour || "#888");
      row.appendChild(el("span", "final-name", p.name));
      row.appendChild(el("span", "final-parts", scoreParts(p.score)));
      row.appendChild(el("strong", "final-total", p.score ? p.score.total : 0));
      table.appendChild(row);
    });
    box.appendChild(table);
    final.appendChild(box);
    final.hidden = false;
  }

  function render(view) {
    var game = view.game;
    document.body.dataset.seq = view.seq;
    document.body.dataset.status = view.status;
    renderPrompt(game, view);
    var players = clear(document.getElementById("players"));
    if (!game) {
      players.appendChild(el("p", "tv-empty", "Start a game on the control page"));
      previousCells = null;
    } else {
      var cells = cellsOf(game);
      var fresh = lastSeq !== null && view.seq !== lastSeq ? freshCells(cells) : {};
      var waiting = game.prompt ? game.prompt.players || [] : [];
      players.className = "tv-players tv-players-" + (game.players || []).length;
      var candidate = candidateOf(view);
      (game.players || []).forEach(function (p) {
        var kind = game.prompt ? game.prompt.kind : null;
        players.appendChild(playerPanel(p, fresh, waiting.indexOf(p.seat) >= 0, kind, candidate));
      });
      previousCells = cells;
    }
    lastSeq = view.seq;
    remember(view);
    renderTicker();
    renderSide(view);
    renderFinal(game);
  }

  function seedTicker(historyUrl) {
    // A TV switched on mid-game shows the last few events at once, not just the latest.
    fetch(historyUrl)
      .then(function (r) { return r.ok ? r.json() : { history: [] }; })
      .then(function (body) {
        (body.history || []).forEach(function (item) {
          if (item.reverted || !item.events || !item.events.length) return;
          if (ticker.some(function (t) { return t.seq === item.seq; })) return;
          ticker.push({ seq: item.seq, kind: item.kind, texts: item.events });
        });
        ticker.sort(function (a, b) { return b.seq - a.seq; });
        ticker = ticker.slice(0, TICKER_SIZE);
        renderTicker();
      })
      .catch(function () {});
  }

  function start(url, historyUrl, viewUrl) {
    TableLive.connect(url, render, viewUrl);
    if (historyUrl) seedTicker(historyUrl);
  }

  return { start: start, render: render };
})();
