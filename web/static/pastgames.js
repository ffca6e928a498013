// The control page's "Past games": every game of the event log, newest first, each with its export and,
// for a game a new game set aside before its end, Resume (the game at the table is then set aside in
// its turn, so nothing is lost either way). Also the "what next" buttons once a game is over or closed:
// a new game, the same players again, a game to resume. Reads GET /api/games (web/api.py).
"use strict";

var TablePastGames = (function () {
  var el = TableLive.el;
  var config = null;
  var ctx = null;
  var games = []; // /api/games, oldest first
  var seen = null; // "game_id:status" of the view the list was last loaded for
  var SHOWN = 12;
  var STATUS = { playing: "at the table", finished: "over", closed: "closed", set_aside: "set aside" };

  function $(id) { return document.getElementById(id); }

  function titleOf(name) {
    var info = (config.games || []).filter(function (g) { return g.name === name; })[0];
    return info ? info.title : name;
  }

  function when(seconds) {
    if (typeof seconds !== "number") return "";
    var d = new Date(seconds * 1000);
    var today = new Date().toDateString() === d.toDateString();
    var time = d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    return today ? time : d.toLocaleDateString([], { day: "numeric", month: "short" }) + " " + time;
  }

  function names(game) {
    return ((game.setup && game.setup.players) || []).map(function (p) { return p.name; }).join(", ");
  }

  function load() {
    return fetch(config.pastGames, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : { games: [] }; })
      .then(function (body) { games = body.games || []; draw(); return games; })
      .catch(function () { return games; });
  }

  function resume(game) {
    var view = ctx.view();
    if (view && view.status === "playing" && view.game) {
      var question = "Resume game #" + game.id + " of " + titleOf(game.game) + " (" + names(game) + ")?\n\n" +
        "The game at the table (" + view.game.title + (view.game.round ? ", round " + view.game.round : "") +
        ") is set aside, not lost: resume it from Past games.";
      if (!confirm(question)) return;
    }
    ctx.send("resume", { game_id: game.id }).then(function (answer) {
      if (answer && answer.accepted) window.scrollTo({ top: 0, behavior: "smooth" });
    });
  }

  function row(game) {
    var li = el("li", "pastgame pastgame-" + game.status);
    li.dataset.game = game.id;
    var head = el("div", "pastgame-head");
    head.appendChild(el("strong", null, "#" + game.id + " " + titleOf(game.game)));
    head.appendChild(el("span", "pastgame-status", STATUS[game.status] || game.status));
    li.appendChild(head);
    li.appendChild(el("span", "pastgame-players", names(game)));
    li.appendChild(el("span", "hint", when(game.last_at || game.created) + " · " + game.inputs + (game.inputs === 1 ? " input" : " inputs")));
    var buttons = el("div", "row");
    if (game.resumable) {
      var go = el("button", "primary small", "Resume");
      go.type = "button";
      go.onclick = function () { resume(game); };
      buttons.appendChild(go);
    }
    var again = el("button", "small", "Same players again");
    again.type = "button";
    again.onclick = function () { if (window.TableNewGame) TableNewGame.prefill(game.setup); };
    buttons.appendChild(again);
    var link = el("a", "button-link small", "Export");
    link.href = config.export.replace("GAME", String(game.id));
    link.setAttribute("download", "game-" + game.id + ".jsonl");
    buttons.appendChild(link);
    li.appendChild(buttons);
    return li;
  }

  function draw() {
    var list = ctx.clear($("c-past-list"));
    var newest = games.slice().reverse();
    newest.slice(0, SHOWN).forEach(function (game) { list.appendChild(row(game)); });
    if (newest.length > SHOWN) list.appendChild(el("li", "hint", (newest.length - SHOWN) + " older games: GET " + config.pastGames));
    if (!newest.length) list.appendChild(el("li", "hint", "No game yet"));
    var waiting = games.filter(function (g) { return g.resumable; }).length;
    var badge = $("c-past-badge");
    badge.hidden = !waiting;
    badge.textContent = waiting + " to resume";
    drawNext();
  }

  function drawNext() {
    // What to do once the game at the table is over or closed (or none was started).
    var box = ctx.clear($("c-next"));
    var view = ctx.view();
    box.hidden = !view || view.status === "playing";
    if (box.hidden) return;
    var buttons = el("div", "row");
    var fresh = el("button", "primary", "New game");
    fresh.type = "button";
    fresh.onclick = function () { $("c-new").open = true; $("c-new").scrollIntoView({ block: "start", behavior: "smooth" }); };
    buttons.appendChild(fresh);
    var current = games.filter(function (g) { return g.id === view.game_id; })[0];
    if (current) {
      var again = el("button", null, "Same players again");
      again.type = "button";
      again.id = "c-rematch";
      again.onclick = function () { if (window.TableNewGame) TableNewGame.prefill(current.setup, current.id); };
      buttons.appendChild(again);
    }
    var waiting = games.filter(function (g) { return g.resumable; });
    if (waiting.length) {
      var back = el("button", null, "Resume #" + waiting[waiting.length - 1].id + " " + titleOf(waiting[waiting.length - 1].game));
      back.type = "button";
      back.onclick = function () { resume(waiting[waiting.length - 1]); };
      buttons.appendChild(back);
    }
    box.appendChild(buttons);
  }

  function onView(view) {
    var key = view.game_id + ":" + view.status;
    if (key !== seen) { seen = key; load(); } else drawNext();
  }

  function start(pageConfig, context) {
    config = pageConfig;
    ctx = context;
    $("c-past").addEventListener("toggle", function () { if ($("c-past").open) load(); });
  }

  return { start: start, onView: onView, load: load };
})();
