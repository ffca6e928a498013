// The control page's "New game" section: any installed game, its own setup options, and players.
// The defaults always start: the server lists, for each game, the player counts its engine accepts
// with the default options and with each choice of an option (a 2-3 player scenario), and the names
// it offers; the list of players follows the choices (names typed by hand are kept). Starting a game
// while one is played asks first and says that the game at the table is set aside, not lost.
"use strict";

var TableNewGame = (function () {
  var el = TableLive.el;
  var COLOURS = ["#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e", "#b05cff", "#ff8a3d"];
  var config = null;
  var ctx = null;
  var edited = false; // a name or colour was changed by hand: keep the list, only fit its length
  var opened = null; // the status for which the section was last opened by itself
  var carried = { game: null, name: null, options: {} }; // a finished game's result.follow_on, once per game

  function $(id) { return document.getElementById(id); }

  function gameInfo(name) {
    return (config.games || []).filter(function (g) { return g.name === name; })[0] || { options: [], min_players: 1, max_players: 8 };
  }

  function defaultsFor(info) {
    // The table's own players (the settings), else the names the game offers.
    var own = config.defaultPlayers || [];
    var offered = info.default_players || [];
    var list = own.length ? own : offered;
    var count = Math.max(info.max_players || list.length, list.length);
    var out = [];
    for (var i = 0; i < count; i++) {
      var p = list[i] || offered[i] || { name: "Player " + (i + 1) };
      out.push({ name: p.name, colour: p.colour || COLOURS[i % COLOURS.length] });
    }
    return out;
  }

  // ------------------------------------------------------------------------------ options

  function optionSpecs() {
    // The chosen game's setup options, defaulting to what a finished game of it carries on with.
    var name = $("c-game").value;
    var next = carried.name === name ? carried.options : {};
    return gameInfo(name).options.map(function (given) {
      return Object.prototype.hasOwnProperty.call(next, given.name) ? Object.assign({}, given, { default: next[given.name] }) : given;
    });
  }

  function renderOptions() {
    var box = ctx.clear($("c-options"));
    optionSpecs().forEach(function (opt) {
      var perSeat = opt.kind === "per_seat";
      var label = el(perSeat ? "div" : "label", perSeat ? "per-seat" : null, opt.label);
      var input;
      if (perSeat) {
        input = el("div", "per-seat-menus"); // one menu per player listed (renderSeatOptions)
        input.dataset.values = JSON.stringify(Array.isArray(opt.default) ? opt.default : []);
      } else if (opt.kind === "choice") {
        input = el("select");
        opt.choices.forEach(function (c) {
          ctx.option(input, JSON.stringify(c.value), c.label);
        });
        input.value = JSON.stringify(opt.default);
        input.onchange = fitPlayers;
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
  }

  function renderSeatOptions() {
    // A per-seat option (the adventurer each player plays): a menu per player listed, in seat order,
    // labelled with the player's name and kept in step with the list; what was chosen stays with its
    // seat. A seat without a choice yet takes the option's default for it, else the next unused choice.
    var names = rows().map(function (li, i) { return li.querySelector("input").value.trim() || "Player " + (i + 1); });
    var specs = {};
    optionSpecs().forEach(function (opt) { specs[opt.name] = opt; });
    Array.prototype.forEach.call($("c-options").querySelectorAll("[data-kind=per_seat]"), function (box) {
      var opt = specs[box.dataset.option];
      if (!opt) return;
      var kept = Array.prototype.map.call(box.querySelectorAll("select"), function (s) { return s.value; });
      if (box.dataset.values !== undefined) { // just drawn, or set: these values hold
        kept = JSON.parse(box.dataset.values).map(function (v) { return JSON.stringify(v); });
        delete box.dataset.values;
      }
      ctx.clear(box);
      var values = opt.choices.map(function (c) { return JSON.stringify(c.value); });
      names.forEach(function (name, i) {
        var row = el("label", "per-seat-row", name);
        var s = el("select");
        opt.choices.forEach(function (c) { ctx.option(s, JSON.stringify(c.value), c.label); });
        var unused = values.filter(function (v) { return kept.indexOf(v) < 0; });
        var value = i < kept.length && values.indexOf(kept[i]) >= 0 ? kept[i] : unused[0] || values[i % values.length];
        kept[i] = value;
        s.value = value;
        s.dataset.was = value;
        s.onchange = function () { chooseForSeat(box, i, opt, s); };
        row.appendChild(s);
        box.appendChild(row);
      });
    });
  }

  function chooseForSeat(box, index, opt, select) {
    // A choice that is each seat's alone (opt.distinct: one adventurer per player) taken from another
    // seat swaps: that seat gets this seat's former choice, so the form never offers a refused setup.
    var was = select.dataset.was;
    var menus = Array.prototype.slice.call(box.querySelectorAll("select"));
    var other = opt.distinct ? menus.filter(function (m) { return m !== select && m.value === select.value; })[0] : null;
    select.dataset.was = select.value;
    if (other) {
      other.value = was;
      other.dataset.was = was;
      followChoice(menus.indexOf(other), opt, was);
    }
    followChoice(index, opt, select.value);
  }

  function followChoice(index, opt, value) {
    // Players the form named after the choices (Shattered Chaos' seats are the data's adventurers) take
    // the name of the choice made for their seat, so "Mender" never plays Raider; a typed name stays.
    var li = rows()[index];
    var input = li && li.querySelector("input");
    var labels = opt.choices.map(function (c) { return c.label; });
    var chosen = opt.choices.filter(function (c) { return JSON.stringify(c.value) === value; })[0];
    if (!input || !chosen || input.dataset.typed || labels.indexOf(input.value.trim()) < 0) return;
    input.value = chosen.label;
    renderSeatOptions();
  }

  function chosenOptions() {
    var options = {};
    Array.prototype.forEach.call($("c-options").querySelectorAll("[data-option]"), function (input) {
      var kind = input.dataset.kind;
      if (kind === "per_seat") {
        options[input.dataset.option] = Array.prototype.map.call(input.querySelectorAll("select"), function (s) { return JSON.parse(s.value); });
      } else if (kind === "choice") options[input.dataset.option] = JSON.parse(input.value);
      else if (kind === "bool") options[input.dataset.option] = input.checked;
      else if (kind === "int") { if (input.value !== "") options[input.dataset.option] = parseInt(input.value, 10); }
      else if (input.value !== "") options[input.dataset.option] = input.value;
    });
    return options;
  }

  function setOptions(options) {
    Array.prototype.forEach.call($("c-options").querySelectorAll("[data-option]"), function (input) {
      var name = input.dataset.option;
      if (!(name in options)) return;
      if (input.dataset.kind === "per_seat") input.dataset.values = JSON.stringify(options[name] || []);
      else if (input.dataset.kind === "choice") input.value = JSON.stringify(options[name]);
      else if (input.dataset.kind === "bool") input.checked = !!options[name];
      else input.value = options[name];
    });
  }

  // ------------------------------------------------------------------------------ players

  function allowed() {
    // The player counts the chosen options start with, as the server found them by asking the engine.
    var info = gameInfo($("c-game").value);
    var chosen = chosenOptions();
    var same = function (a, b) { return JSON.stringify(a) === JSON.stringify(b); };
    if ((info.starts || []).length) {
      var entry = info.starts.filter(function (s) {
        return Object.keys(s.options).every(function (name) { return same(s.options[name], chosen[name]); });
      })[0];
      if (entry) return entry.players;
    }
    var counts = info.player_counts || [];
    info.options.forEach(function (opt) {
      var choice = (opt.choices || []).filter(function (c) { return same(c.value, chosen[opt.name]); })[0];
      if (choice && choice.players) counts = counts.filter(function (n) { return choice.players.indexOf(n) >= 0; });
    });
    return counts;
  }

  function rows() { return Array.prototype.slice.call($("c-players").children); }

  function addPlayer(name, colour) {
    var li = el("li");
    var n = el("input");
    n.type = "text";
    n.value = name;
    n.placeholder = "Name";
    n.maxLength = 32; // the server refuses longer names (NAME_MAX_CHARS in web/__init__.py)
    n.oninput = function () { edited = true; n.dataset.typed = "1"; };
    n.onchange = renderSeatOptions; // a per-seat option's menus are labelled by the players' names
    var c = el("input");
    c.type = "color";
    c.value = colour;
    c.oninput = function () { edited = true; };
    var x = el("button", "small", "✕");
    x.type = "button";
    x.setAttribute("aria-label", "Remove this player");
    x.onclick = function () { li.remove(); edited = true; describePlayers(); };
    li.appendChild(n);
    li.appendChild(c);
    li.appendChild(x);
    $("c-players").appendChild(li);
  }

  function nextDefault() {
    var used = rows().map(function (li) { return li.querySelector("input").value; });
    var free = defaultsFor(gameInfo($("c-game").value)).filter(function (p) { return used.indexOf(p.name) < 0; })[0];
    var n = rows().length;
    return free || { name: "Player " + (n + 1), colour: COLOURS[n % COLOURS.length] };
  }

  function fitPlayers() {
    // The list takes a count the chosen options start with: the nearest one, fewer before more.
    var counts = allowed();
    var n = rows().length;
    if (counts.length && counts.indexOf(n) < 0) {
      var below = counts.filter(function (c) { return c < n; });
      var target = below.length ? below[below.length - 1] : counts[0];
      while (rows().length > target) rows()[rows().length - 1].remove();
      while (rows().length < target) { var p = nextDefault(); addPlayer(p.name, p.colour); }
    }
    describePlayers();
  }

  function describePlayers() {
    renderSeatOptions();
    var counts = allowed();
    var info = gameInfo($("c-game").value);
    var n = rows().length;
    var max = counts.length ? counts[counts.length - 1] : 0;
    var min = counts.length ? counts[0] : 0;
    $("c-add-player").disabled = n >= max;
    rows().forEach(function (li) { li.querySelector("button").disabled = n <= min; });
    var whole = counts.length > 2 && max - min === counts.length - 1;
    var words = counts.length === 1 ? String(counts[0]) : whole ? min + " to " + max :
      counts.slice(0, -1).join(", ") + " or " + max;
    var narrowed = counts.length && (counts[0] !== info.min_players || max !== info.max_players);
    var hint = $("c-players-hint");
    hint.textContent = !counts.length ? "These options cannot start a game: choose others" :
      words + " players" + (narrowed ? " with these options" : "");
    hint.className = "hint" + (counts.indexOf(n) < 0 ? " msg-error" : "");
    $("c-start").disabled = counts.indexOf(n) < 0;
  }

  function fillPlayers(list) {
    ctx.clear($("c-players"));
    list.forEach(function (p) { addPlayer(p.name, p.colour); });
  }

  function chooseGame() {
    renderOptions();
    if (!edited) fillPlayers(defaultsFor(gameInfo($("c-game").value)));
    fitPlayers();
  }

  // ------------------------------------------------------------------------------ start

  function standing(game) {
    var players = (game.players || []).map(function (p) {
      var total = p.score && typeof p.score.total === "number" ? " " + p.score.total : "";
      return p.name + total;
    });
    return game.title + (game.round ? ", round " + game.round : "") + (players.length ? ": " + players.join(", ") : "");
  }

  function start() {
    var chosen = rows().map(function (li) {
      var inputs = li.querySelectorAll("input");
      return { name: inputs[0].value.trim(), colour: inputs[1].value };
    }).filter(function (p) { return p.name; });
    var game = $("c-game").value;
    var view = ctx.view();
    if (view && view.status === "playing" && view.game) {
      var title = gameInfo(game).title || game;
      var question = "Start a new game of " + title + "?\n\nThe game at the table (" + standing(view.game) +
        ") is set aside, not lost: resume it from Past games.";
      if (!confirm(question)) return;
    }
    ctx.send("new_game", { game: game, players: chosen, options: chosenOptions() }).then(function (answer) {
      if (answer && answer.accepted) { $("c-new").open = false; window.scrollTo({ top: 0, behavior: "smooth" }); }
    });
  }

  function prefill(setup, gameId) {
    // "Same players again": the form filled with a game's setup, opened and in view; one tap starts it.
    // The finished game that carries on (a campaign's adventure: carryOn) goes on with its follow_on,
    // the next adventure and the campaign log, not the same adventure afresh.
    var next = gameId !== undefined && gameId === carried.game ? carried.options : {};
    $("c-game").value = setup.game;
    renderOptions();
    setOptions(Object.assign({}, setup.options || {}, next));
    fillPlayers((setup.players || []).map(function (p, i) { return { name: p.name, colour: p.colour || COLOURS[i % COLOURS.length] }; }));
    edited = true;
    fitPlayers();
    $("c-new").open = true;
    $("c-new").scrollIntoView({ block: "start", behavior: "smooth" });
  }

  function carryOn(view) {
    // A finished game that carries on (a campaign's next adventure, docs/bundles.md "result"): the form
    // starts from the options its result gives, with the same players in the same seats, once per game.
    var result = view.result;
    var next = view.game && result && result.final && result.follow_on ? result.follow_on : {};
    if (!Object.keys(next).length || carried.game === view.game_id) return;
    carried = { game: view.game_id, name: view.game.game, options: next };
    $("c-game").value = view.game.game;
    renderOptions();
    fillPlayers((view.game.players || []).map(function (p, i) { return { name: p.name, colour: p.colour || COLOURS[i % COLOURS.length] }; }));
    edited = true;
    fitPlayers();
  }

  function onView(view) {
    carryOn(view);
    // Open by itself when there is nothing else to do: no game, or the game is over.
    var idle = view.status !== "playing";
    var key = view.status + ":" + view.game_id;
    if (idle && opened !== key) { $("c-new").open = true; opened = key; }
    if (!idle) opened = null;
  }

  function startForm(pageConfig, context) {
    config = pageConfig;
    ctx = context;
    $("c-game").onchange = chooseGame;
    $("c-add-player").onclick = function () { var p = nextDefault(); addPlayer(p.name, p.colour); edited = true; describePlayers(); };
    $("c-start").onclick = start;
    chooseGame();
  }

  return { start: startForm, prefill: prefill, onView: onView };
})();
