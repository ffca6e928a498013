// The TV scoreboard's frame: title, prompt, status, ticker, notices, devices and the final result.
// What a game's table looks like is drawn by that game's renderer (its bundle's screens/tv.js, which
// calls TableTV.register); a game without one gets a plain panel per player. Whole views arrive every
// time (see docs/api.md for their keys), so each is drawn from scratch.
"use strict";

var TableTV = (function () {
  var el = TableLive.el;
  var TICKER_SIZE = 6; // changes remembered
  var TICKER_LINES = 3; // lines that fit the footer at their size
  var renderers = {}; // game name -> {render(main, game, view), status(game), round(game), finalParts(player)}
  var ticker = []; // [{seq, kind, texts}] newest first
  var CHANGE_NAMES = { undo: "Undone", redo: "Redone", new_game: "New game", end_game: "Game ended", act: "Move played" };

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function text(id, value) {
    document.getElementById(id).textContent = value || "";
  }

  function register(name, renderer) {
    renderers[name] = renderer;
  }

  function scoreParts(score) {
    // The numeric parts of a score other than its total ("cards 40 · booty 10"), for any game.
    var parts = [];
    Object.keys(score || {}).forEach(function (key) {
      if (key !== "total" && typeof score[key] === "number" && score[key]) {
        parts.push(key.replace(/_/g, " ") + " " + score[key]);
      }
    });
    return parts.join(" · ");
  }

  function total(player) {
    return player.score && typeof player.score.total === "number" ? player.score.total : 0;
  }

  // A game without a renderer of its own: one panel per player with the score and whose turn it is.
  var plain = {
    render: function (main, game) {
      var waiting = game.prompt ? game.prompt.players || [] : [];
      main.className = "tv-main tv-plain";
      (game.players || []).forEach(function (p) {
        var panel = el("section", "plain-player" + (p.active ? " is-active" : "") + (waiting.indexOf(p.seat) >= 0 ? " is-waiting" : ""));
        panel.style.setProperty("--player", p.colour || "#888");
        panel.appendChild(el("span", "plain-name", p.name));
        panel.appendChild(el("span", "plain-parts", scoreParts(p.score)));
        panel.appendChild(el("strong", "plain-total", total(p)));
        main.appendChild(panel);
      });
    },
  };

  function rendererOf(game) {
    return renderers[game.game] || plain;
  }

  function renderTop(game, renderer) {
    var prompt = document.getElementById("prompt");
    var top = document.getElementById("top");
    var status = clear(document.getElementById("status"));
    if (!game) {
      prompt.textContent = "No game yet — scan the code to start one";
      top.style.removeProperty("--player");
      text("game-title", "Table Companion");
      text("round", "");
      return;
    }
    var waiting = game.prompt ? game.prompt.players || [] : [];
    var lead = (game.players || []).filter(function (p) { return p.active; })[0] ||
      (game.players || []).filter(function (p) { return waiting.indexOf(p.seat) >= 0; })[0];
    top.style.setProperty("--player", lead && waiting.length < 2 ? lead.colour : "#888");
    prompt.textContent = game.finished ? "Game over" : game.prompt ? game.prompt.text : "";
    text("game-title", game.title || game.game);
    text("round", renderer.round ? renderer.round(game) : game.round ? "Round " + game.round : "");
    (renderer.status ? renderer.status(game) : []).forEach(function (pair) {
      var row = el("div", "status-item");
      row.appendChild(el("span", "status-label", pair[0]));
      row.appendChild(el("strong", "status-value", pair[1]));
      status.appendChild(row);
    });
  }

  function remember(view) {
    var change = view.last_change;
    if (!change || ticker.some(function (t) { return t.seq === change.seq && t.kind === change.kind; })) return;
    var texts = (change.events || []).map(function (e) { return e.text; }).filter(Boolean);
    if (!texts.length) texts = [CHANGE_NAMES[change.kind] || change.kind];
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
    (view.notices || []).slice(0, 2).forEach(function (n) {
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

  function renderFinal(game, renderer) {
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
    var title = result.headline || (!names.length ? "No winner" : result.tie ? "A tie! " + names.join(" & ") : names.join(" & ") + " wins!");
    box.appendChild(el("h1", "final-title", title));
    if (result.reason) box.appendChild(el("p", "final-reason", result.reason));
    var rows = (game.players || []).slice().sort(function (a, b) { return total(b) - total(a); });
    var table = el("ol", "final-table");
    rows.forEach(function (p) {
      var row = el("li", "final-row" + (winners.indexOf(p.seat) >= 0 ? " final-winner" : ""));
      row.style.setProperty("--player", p.colour || "#888");
      row.appendChild(el("span", "final-name", p.name));
      row.appendChild(el("span", "final-parts", renderer.finalParts ? renderer.finalParts(p) : scoreParts(p.score)));
      row.appendChild(el("strong", "final-total", total(p)));
      table.appendChild(row);
    });
    box.appendChild(table);
    final.appendChild(box);
    final.hidden = false;
  }

  function render(view) {
    var game = view.game;
    var renderer = game ? rendererOf(game) : plain;
    document.body.dataset.seq = view.seq;
    document.body.dataset.status = view.status;
    document.body.dataset.game = game ? game.game : "";
    renderTop(game, renderer);
    var main = clear(document.getElementById("players"));
    main.className = "tv-main";
    if (!game) main.appendChild(el("p", "tv-empty", "Start a game on the control page"));
    else renderer.render(main, game, view);
    remember(view);
    renderTicker();
    renderSide(view);
    renderFinal(game, renderer);
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

  return { start: start, render: render, register: register, el: el, clear: clear, scoreParts: scoreParts, total: total };
})();
