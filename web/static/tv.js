// The TV scoreboard's frame: title, prompt, status, ticker, notices, devices and the final result.
// What a game's table looks like is drawn by that game's renderer (its bundle's screens/tv.js, which
// calls TableTV.register); a game without one gets a plain panel per player. Whole views arrive every
// time (see docs/api.md for their keys), so each is drawn from scratch. The final scoreboard reads the
// view's typed result (view.result: standings, winners, outcome) and the ticker the view's last_change
// (its events, else its public action): nothing is guessed from a game's name or fetched to be told.
// The page is laid out for 1920x1080 and scaled as a whole to the screen. Text that could outgrow its
// box is fitted after drawing (TableTV.fit: smaller type down to MIN_PX, then a shortened text), and
// lists (ticker, notices, devices) keep only the items that fit whole: nothing is ever cut off.
"use strict";

var TableTV = (function () {
  var el = TableLive.el;
  var WIDTH = 1920; // the layout's size, scaled to the screen
  var HEIGHT = 1080;
  var MIN_PX = 20; // nothing smaller on a TV read from three metres
  var MAX_CHARS = 160; // a longer text (a pasted essay as a name) is shortened before it is fitted
  var TICKER_SIZE = 6; // changes remembered
  var renderers = {}; // game name -> {render(main, game, view), status(game), round(game), finalParts(player)}
  var ticker = []; // [{seq, kind, texts}] newest first
  var CHANGE_NAMES = { undo: "Undone", redo: "Redone", new_game: "New game", end_game: "Game ended", act: "Move played" };
  var urls = { history: null, dice: null };
  var dice = {}; // die name -> {title, faces: {face: name}}: changes without events are told by their action
  var listeners = []; // functions told of every view after it is drawn (pairing.js: the join codes)

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

  // ------------------------------------------------------------------------------ fitting

  function scaleToScreen() {
    // One picture for every screen: a 720p TV shows the 1080p layout smaller, never reflowed or cut.
    var scale = Math.min(window.innerWidth / WIDTH, window.innerHeight / HEIGHT);
    var left = (window.innerWidth - WIDTH * scale) / 2;
    var top = (window.innerHeight - HEIGHT * scale) / 2;
    document.body.style.transform = "translate(" + left + "px, " + top + "px) scale(" + scale + ")";
  }

  function overflows(node) {
    return node.scrollWidth > node.clientWidth + 1 || node.scrollHeight > node.clientHeight + 1;
  }

  function shortened(value) {
    // Ever shorter forms of a text, word by word, each ending in "…" (the last resort of fit).
    var words = String(value).slice(0, MAX_CHARS).split(/\s+/).filter(Boolean);
    var forms = [];
    for (var n = words.length - 1; n >= 1; n--) forms.push(words.slice(0, n).join(" ") + "…");
    var first = words[0] || "";
    for (var c = first.length - 1; c >= 1; c--) forms.push(first.slice(0, c) + "…");
    return forms;
  }

  function fitAll(jobs) {
    // Shows each job's node text whole: the largest size from maxPx down to minPx (>= MIN_PX) that fits
    // its box, else the first of its forms (default: the text shortened word by word) that fits at minPx.
    // A box must bound its text (a max-height or a grid cell) for an overflow to be seen. All nodes are
    // fitted together, a round at a time (all writes, then all reads), so the page is laid out once a
    // round rather than once a try: a Pi redraws a crowded table in time.
    // jobs: [{node, maxPx, minPx, forms}]
    var pending = jobs.map(function (job) {
      var full = job.node.textContent;
      if (full.length > MAX_CHARS) {
        job.node.textContent = full.slice(0, MAX_CHARS - 1) + "…";
        job.node.title = full.slice(0, 4 * MAX_CHARS);
      }
      var low = Math.max(job.minPx || MIN_PX, MIN_PX);
      var state = { node: job.node, full: full, size: Math.max(job.maxPx, low), low: low, forms: job.forms, next: 0 };
      job.node.style.fontSize = state.size + "px";
      return state;
    });
    while (pending.length) {
      pending = pending.filter(function (state) { return overflows(state.node); }); // reads
      pending = pending.filter(function (state) { // writes
        if (state.size > state.low) {
          state.size = Math.max(state.size - 2, state.low);
          state.node.style.fontSize = state.size + "px";
          return true;
        }
        if (!state.forms) state.forms = shortened(state.full);
        if (state.next >= state.forms.length) return false; // nothing shorter: left as it is
        state.node.textContent = state.forms[state.next++];
        if (!state.node.title) state.node.title = state.full;
        return true;
      });
    }
  }

  function fit(node, maxPx, minPx, forms) {
    // One node fitted as fitAll does; true when its text now fits.
    fitAll([{ node: node, maxPx: maxPx, minPx: minPx, forms: forms }]);
    return !overflows(node);
  }

  function keepWhatFits(box, list, items) {
    // Appends items (nodes) to list while box shows them whole; the first that does not fit and
    // everything after it are left out. Returns how many were kept.
    for (var i = 0; i < items.length; i++) {
      list.appendChild(items[i]);
      if (overflows(box)) {
        list.removeChild(items[i]);
        return i;
      }
    }
    return items.length;
  }

  // ------------------------------------------------------------------------------ scores

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

  function star() {
    // Drawn, not a font glyph: "★" is missing from some fonts a TV's browser may have.
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "final-star");
    svg.setAttribute("aria-label", "winner");
    var path = document.createElementNS(ns, "path");
    path.setAttribute("d", "M12 1.5l3.1 7.1 7.7.7-5.8 5.1 1.7 7.6L12 18l-6.7 4 1.7-7.6-5.8-5.1 7.7-.7z");
    svg.appendChild(path);
    return svg;
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
      fitAll(Array.prototype.map.call(main.querySelectorAll(".plain-name"), function (n) { return { node: n, maxPx: 48, minPx: 24 }; }));
    },
  };

  function rendererOf(game) {
    return renderers[game.game] || plain;
  }

  // ------------------------------------------------------------------------------ the frame

  function renderTop(game, renderer) {
    var prompt = document.getElementById("prompt");
    var top = document.getElementById("top");
    var status = clear(document.getElementById("status"));
    if (!game) {
      prompt.textContent = "No game yet";
      top.style.removeProperty("--player");
      text("game-title", "Table Companion");
      text("round", "");
      fit(prompt, 48, 28);
      return;
    }
    var waiting = game.prompt ? game.prompt.players || [] : [];
    var lead = (game.players || []).filter(function (p) { return p.active; })[0] ||
      (game.players || []).filter(function (p) { return waiting.indexOf(p.seat) >= 0; })[0];
    top.style.setProperty("--player", lead && waiting.length < 2 ? lead.colour : "#888");
    prompt.textContent = game.closed ? "Game closed: a phone starts a new game or resumes one" :
      game.finished ? "Game over" : game.prompt ? game.prompt.text : "";
    text("game-title", game.title || game.game);
    text("round", renderer.round ? renderer.round(game) : game.round ? "Round " + game.round : "");
    var pairs = renderer.status ? renderer.status(game) : [];
    keepWhatFits(status, status, pairs.map(function (pair) {
      var row = el("div", "status-item");
      row.appendChild(el("span", "status-label", pair[0]));
      row.appendChild(el("strong", "status-value", pair[1]));
      return row;
    }));
    fitAll([
      { node: prompt, maxPx: 48, minPx: 28 },
      { node: document.getElementById("game-title"), maxPx: 28, minPx: 20 },
      { node: document.getElementById("round"), maxPx: 40, minPx: 24 },
    ]);
  }

  function faceName(die, face) {
    var info = dice[die];
    return info && info.faces && info.faces[face] ? info.faces[face] : String(face);
  }

  function describe(action, game) {
    // A change whose events say nothing (a roll that only counts towards several, like the Idol's
    // six) is told from its action, so the ticker never shows a bare "act".
    return TableLive.describeAction(action, function (seat) {
      var p = ((game && game.players) || []).filter(function (q) { return q.seat === seat; })[0];
      return p ? p.name : "Seat " + (seat + 1);
    }, faceName);
  }

  var currentGame = null; // the game of the latest view: names for the changes told by their action

  function remember(view) {
    // The latest change, told by its events or else by its action (as anyone may read it): a roll that
    // only counts towards several (the Idol's six) says "Grotsnik rolled Orcish Eye", never a bare "act".
    var change = view.last_change;
    if (!change || ticker.some(function (t) { return t.seq === change.seq && t.kind === change.kind; })) return;
    var texts = (change.events || []).map(function (e) { return e.text; }).filter(Boolean);
    ticker.unshift({ seq: change.seq, kind: change.kind, texts: texts, action: change.action || null });
    ticker = ticker.slice(0, TICKER_SIZE);
  }

  function linesOf(entry) {
    if (entry.texts.length) return entry.texts;
    var told = entry.action ? describe(entry.action, currentGame) : null;
    return [told || CHANGE_NAMES[entry.kind] || String(entry.kind).replace(/_/g, " ")];
  }

  function renderTicker() {
    // One line per event: the latest change's events in large type, older changes below, as many
    // as fit whole. The newest line alone is fitted (smaller, then shortened) if it is very long.
    var box = document.getElementById("ticker");
    var list = clear(box);
    var items = [];
    ticker.forEach(function (item, i) {
      linesOf(item).forEach(function (line) { items.push(el("li", i === 0 ? "tick tick-new" : "tick", line)); });
    });
    if (!items.length) return;
    list.appendChild(items[0]);
    if (overflows(box)) fitTick(box, items[0]);
    keepWhatFits(box, list, items.slice(1));
  }

  function fitTick(box, item) {
    // The ticker line is sized by its list: fitted by the list's overflow, not its own.
    var size = 32;
    while (overflows(box) && size > MIN_PX) {
      size -= 2;
      item.style.fontSize = size + "px";
    }
    var forms = shortened(item.textContent);
    for (var i = 0; i < forms.length && overflows(box); i++) item.textContent = forms[i];
  }

  function renderSide(view) {
    var side = document.querySelector(".tv-side");
    var notices = clear(document.getElementById("notices"));
    var devices = clear(document.getElementById("devices"));
    // Devices first (a lost board matters more than an old notice), then the newest notices.
    keepWhatFits(side, devices, Object.keys(view.devices || {}).map(function (name) {
      var status = view.devices[name] || {};
      var state = status.state || status.status || "";
      var item = el("li", "device device-" + String(state).replace(/[^a-z_-]/gi, ""));
      item.appendChild(el("span", "device-dot"));
      item.appendChild(el("span", "device-name", name));
      item.appendChild(el("span", "device-state", TableLive.deviceSummary(status)));
      return item;
    }));
    keepWhatFits(side, notices, (view.notices || []).slice(0, 3).map(function (n) {
      return el("li", "notice notice-" + (n.level || "info"), String(n.text).slice(0, MAX_CHARS));
    }));
  }

  function points(value) {
    // The game's own points as people read them: whole numbers whole, others to one decimal.
    if (typeof value !== "number") return "";
    return Math.round(value) === value ? String(value) : value.toFixed(1);
  }

  function renderFinal(view, game, renderer) {
    // The typed result (docs/api.md, "result"): standings by rank, the winners starred, the outcome as
    // the game words it. A co-operative game's seats won or lost together: one outcome, no ranking.
    var final = document.getElementById("final");
    var result = view.result;
    if (!game || !result || !result.final) {
      final.hidden = true;
      return;
    }
    clear(final);
    var winners = result.winners || [];
    var byseat = {};
    (game.players || []).forEach(function (p) { byseat[p.seat] = p; });
    var names = winners.map(function (s) { return byseat[s] ? byseat[s].name : "Seat " + (s + 1); });
    var box = el("div", "final-box" + (result.cooperative ? " final-cooperative" : ""));
    var title = result.outcome || (!names.length ? "No winner" : result.tie ? "A tie! " + names.join(" & ") : names.join(" & ") + " wins!");
    box.appendChild(el("h1", "final-title", title));
    if ((result.summary || []).length) {
      // The game's own lines under the outcome (a co-operative party's evaluation).
      var summary = el("ul", "final-summary");
      result.summary.forEach(function (line) { summary.appendChild(el("li", null, line)); });
      box.appendChild(summary);
    }
    // A co-operative party won or lost together: its members in seat order, nobody ranked.
    var rows = (result.standings || []).slice().sort(function (a, b) { return result.cooperative ? a.seat - b.seat : a.rank - b.rank || a.seat - b.seat; });
    var table = el("ol", "final-table");
    rows.forEach(function (standing) {
      var player = byseat[standing.seat] || { seat: standing.seat, name: standing.name, score: {} };
      var won = winners.indexOf(standing.seat) >= 0;
      var row = el("li", "final-row" + (won ? " final-winner" : ""));
      row.style.setProperty("--player", player.colour || "#888");
      var name = el("span", "final-name");
      if (won) name.appendChild(star());
      name.appendChild(el("span", "final-name-text", standing.name));
      row.appendChild(name);
      row.appendChild(el("span", "final-parts", renderer.finalParts ? renderer.finalParts(player) : scoreParts(player.score)));
      var total = el("strong", "final-total", points(standing.points));
      if (standing.points !== null && standing.points !== undefined) total.title = result.points_label || "";
      row.appendChild(total);
      table.appendChild(row);
    });
    box.appendChild(table);
    if (result.points_label && rows.some(function (r) { return typeof r.points === "number"; })) {
      box.appendChild(el("p", "final-label", result.points_label));
    }
    final.appendChild(box);
    final.hidden = false;
    fit(box.querySelector(".final-title"), 72, 36);
    fitAll(Array.prototype.map.call(box.querySelectorAll(".final-summary li"), function (n) { return { node: n, maxPx: 32, minPx: 22 }; }));
    fitAll(Array.prototype.map.call(box.querySelectorAll(".final-name-text"), function (n) { return { node: n, maxPx: 48, minPx: 24 }; }));
  }

  function bigQr(main) {
    // No game: the code to scan is the whole screen's message, large enough to scan from a chair.
    var small = document.querySelector(".tv-qr img");
    var box = el("div", "tv-start");
    var img = el("img", "tv-start-qr");
    img.src = small ? small.src : "";
    img.alt = "QR code of the control page";
    box.appendChild(img);
    var words = el("div", "tv-start-words");
    words.appendChild(el("p", "tv-start-title", "Scan with a phone to start a game"));
    var url = document.querySelector(".tv-url");
    words.appendChild(el("p", "tv-start-url", url ? url.textContent : ""));
    box.appendChild(words);
    main.appendChild(box);
  }

  function renderHint(view) {
    // The table's Next button stepping through a question's choices: which one Confirm would take, in
    // large type where the latest events are told (the slot is outlined on the board by the game).
    var choice = ((view.devices || {}).table || {}).choice;
    var box = document.getElementById("tv-hint");
    if (!box) return;
    box.hidden = !choice || view.status !== "playing";
    if (box.hidden) return;
    clear(box);
    var of = choice.count ? " (" + choice.index + " of " + choice.count + ")" : "";
    box.appendChild(el("span", "tv-hint-label", "Press Confirm to take" + of));
    box.appendChild(el("strong", "tv-hint-choice", choice.label));
    box.appendChild(el("span", "tv-hint-label", "Next shows the next choice"));
    fit(box.querySelector(".tv-hint-choice"), 44, 28);
  }

  function render(view) {
    var game = view.game;
    // A game closed with End game is no longer live: its board stays, without a question or a turn.
    if (game && view.status !== "playing" && !game.finished) {
      var idle = (game.players || []).map(function (p) { return Object.assign({}, p, { active: false }); });
      game = Object.assign({}, game, { prompt: null, players: idle, closed: true });
    }
    var renderer = game ? rendererOf(game) : plain;
    currentGame = game;
    document.body.dataset.seq = view.seq;
    document.body.dataset.status = view.status;
    document.body.dataset.game = game ? game.game : "";
    renderTop(game, renderer);
    var main = clear(document.getElementById("players"));
    main.className = "tv-main";
    if (!game) bigQr(main);
    else renderer.render(main, game, view);
    document.body.classList.toggle("no-game", !game);
    remember(view);
    renderTicker();
    renderHint(view);
    renderSide(view);
    renderFinal(view, game, renderer);
    listeners.forEach(function (listener) { listener(view); });
  }

  function onView(listener) { listeners.push(listener); }

  function seedTicker() {
    // A TV switched on mid-game shows the last few events at once, not just the latest.
    fetch(urls.history + "?limit=" + TICKER_SIZE)
      .then(function (r) { return r.ok ? r.json() : { history: [] }; })
      .then(function (body) {
        (body.history || []).forEach(function (item) {
          if (item.reverted || ticker.some(function (t) { return t.seq === item.seq; })) return;
          var texts = (item.events || []).filter(Boolean);
          if (!texts.length && item.kind !== "act") return;
          ticker.push({ seq: item.seq, kind: item.kind, texts: texts, action: item.action });
        });
        ticker.sort(function (a, b) { return b.seq - a.seq; });
        ticker = ticker.slice(0, TICKER_SIZE);
        renderTicker();
      })
      .catch(function () {});
  }

  function loadDice() {
    if (!urls.dice) return;
    fetch(urls.dice)
      .then(function (r) { return r.ok ? r.json() : { dice: {} }; })
      .then(function (body) { dice = body.dice || {}; renderTicker(); })
      .catch(function () {});
  }

  function start(url, historyUrl, viewUrl, diceUrl) {
    urls.history = historyUrl ? historyUrl.split("?")[0] : null;
    urls.dice = diceUrl || null;
    scaleToScreen();
    window.addEventListener("resize", scaleToScreen);
    loadDice();
    TableLive.connect(url, render, viewUrl);
    if (urls.history) seedTicker();
  }

  return {
    start: start, render: render, register: register, onView: onView, el: el, clear: clear, scoreParts: scoreParts, total: total,
    fit: fit, fitAll: fitAll, shortened: shortened, overflows: overflows, MIN_PX: MIN_PX,
  };
})();
