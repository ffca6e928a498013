// The hall page: every table as a live tile (game, round, players, leader, online or not, time since
// its last event), each a link to that table's TV relayed by the hall; the event's standings, rounds
// and games; and, for the organiser, the forms that change the event. Whole snapshots arrive over
// /hall/stream (see docs/hall.md), so each is drawn from scratch.
"use strict";

(function () {
  var node = document.getElementById("hall-config");
  if (!node) return;
  var config = JSON.parse(node.textContent);
  var el = TableLive.el;
  var latest = null;
  var clockOffset = 0; // the hall's clock minus this browser's: "12 s ago" is measured on the hall's

  function $(id) { return document.getElementById(id); }

  function clear(box) {
    while (box.firstChild) box.removeChild(box.firstChild);
    return box;
  }

  function ago(when) {
    if (typeof when !== "number") return "no event yet";
    var seconds = Math.max(0, Math.round(Date.now() / 1000 + clockOffset - when));
    if (seconds < 60) return "last event " + seconds + " s ago";
    if (seconds < 3600) return "last event " + Math.floor(seconds / 60) + " min ago";
    return "last event " + Math.floor(seconds / 3600) + " h ago";
  }

  function fmt(value) {
    if (value === null || value === undefined) return "";
    return Math.round(value * 100) / 100;
  }

  function say(text, ok) {
    var msg = $("h-msg");
    if (!msg) return;
    msg.textContent = text || "";
    msg.className = "msg " + (ok ? "msg-ok" : "msg-error");
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
    })
      .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (answer) {
        say(answer.ok ? answer.body.message || "Done" : answer.body.reason || "Refused", answer.ok);
        return answer;
      })
      .catch(function () { say("No answer from the hall", false); });
  }

  // ------------------------------------------------------------------------------ tiles

  function tile(t) {
    var link = el("a", "tile" + (t.online ? "" : " is-offline"));
    link.href = config.urls.table.replace("TABLE", encodeURIComponent(t.table));
    link.dataset.table = t.table;
    var head = el("div", "tile-head");
    head.appendChild(el("span", "tile-name", t.name));
    head.appendChild(el("span", "tile-state", t.online ? (t.status === "finished" ? "finished" : t.status === "playing" ? "playing" : "no game") : "offline" + (t.reason ? " (" + t.reason + ")" : "")));
    link.appendChild(head);
    var game = t.title ? t.title + (t.round !== null && t.round !== undefined ? " · round " + t.round : "") : "no game";
    link.appendChild(el("p", "tile-game", game));
    var players = el("ul", "tile-players");
    var leaders = t.leader ? String(t.leader.name).split(" & ") : [];
    (t.players || []).forEach(function (p) {
      var item = el("li", leaders.indexOf(p.name) >= 0 ? "is-leader" : null, p.name);
      item.style.setProperty("--player", p.colour || "#888");
      players.appendChild(item);
    });
    link.appendChild(players);
    if (t.leader) {
      var points = t.leader.points !== null && t.leader.points !== undefined ? " · " + fmt(t.leader.points) + (t.leader.label ? " " + t.leader.label : "") : "";
      link.appendChild(el("p", "tile-leader", "Leads: " + t.leader.name + points));
    }
    if (t.result && t.result.final) {
      var confirmed = t.result.confirmed_by.length;
      var text = t.result.confirmed ? "Result confirmed" : "Result: " + confirmed + " of " + t.result.seats + " confirmed";
      var line = el("p", "tile-result " + (t.result.confirmed ? "is-confirmed" : "is-pending"), text);
      link.appendChild(line);
      if (config.organiser && !t.result.confirmed) {
        var button = el("button", "small", "Confirm as organiser");
        button.addEventListener("click", function (event) {
          event.preventDefault();
          post(config.urls.confirm, { table: t.table });
        });
        link.appendChild(button);
      }
    }
    if (t.missing) link.appendChild(el("p", "tile-gap", "events #" + t.missing[0] + "–#" + t.missing[1] + " not received yet"));
    var seen = el("p", "tile-seen", ago(t.last_event_at));
    seen.dataset.at = t.last_event_at === null ? "" : String(t.last_event_at);
    link.appendChild(seen);
    return link;
  }

  function drawTiles(state) {
    var box = clear($("h-tiles"));
    if (!state.tiles.length) box.appendChild(el("p", "hall-empty", "Waiting for tables… (a table joins when its [hall] settings name this hall)"));
    state.tiles.forEach(function (t) { box.appendChild(tile(t)); });
    var online = state.tiles.filter(function (t) { return t.online; }).length;
    $("h-count").textContent = online + " of " + state.tiles.length + " tables online";
    var link = $("h-link");
    link.textContent = state.broker.connected ? "broker " + state.broker.url : "broker unreachable (" + state.broker.url + "): showing the last known state";
    link.className = "hall-link " + (state.broker.connected ? "is-up" : "is-down");
  }

  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll(".tile-seen"), function (p) {
      p.textContent = ago(p.dataset.at ? Number(p.dataset.at) : null);
    });
  }

  // ------------------------------------------------------------------------------ the event

  function drawEvent(state) {
    var event = state.event;
    var rounds = clear($("h-rounds"));
    var body = clear($("h-standings-body"));
    $("h-standings").hidden = !event;
    $("h-exports").hidden = !event;
    if (!event) {
      $("h-event-title").textContent = "No event yet";
      $("h-event-info").textContent = config.organiser ? "Start one below." : "The organiser starts the event on this page.";
    } else {
      var game = config.games.filter(function (g) { return g.name === event.game; })[0];
      var current = event.rounds.length;
      $("h-event-title").textContent = event.name;
      $("h-event-info").textContent = (game ? game.title : event.game) + " · " + (event.format === "swiss" ? "Swiss, round " + current + " of " + event.rounds_planned : "league") + " · " + event.players.length + " players";
      event.standings.forEach(function (row) {
        var tr = el("tr", row.rank === 1 && row.games ? "is-top" : null);
        [row.rank, row.player, fmt(row.wins), row.games + (row.byes ? " +" + row.byes + " bye" : ""), fmt(row.sos), fmt(row.points)].forEach(function (v) { tr.appendChild(el("td", null, v)); });
        body.appendChild(tr);
      });
      event.rounds.slice().reverse().forEach(function (rnd) {
        var box = el("section", "round");
        box.appendChild(el("h3", null, "Round " + rnd.number));
        var list = el("ol");
        rnd.tables.forEach(function (players, i) {
          var done = event.records.some(function (r) { return r.round === rnd.number && samePlayers(r.players, players); });
          var where = rnd.hall_tables[i] ? rnd.hall_tables[i] + ": " : "";
          list.appendChild(el("li", done ? "is-done" : null, where + players.join(" – ") + (done ? " ✓" : "")));
        });
        box.appendChild(list);
        if (rnd.bye) box.appendChild(el("p", "hall-hint", "Bye: " + rnd.bye));
        rounds.appendChild(box);
      });
      if (event.records.length) {
        var games = el("ul", "games-list");
        event.records.slice().reverse().forEach(function (r) {
          var item = el("li");
          var won = r.winners.map(function (s) { return r.players[s]; }).join(" & ") || "no winner";
          item.appendChild(el("span", null, (r.round ? "R" + r.round + " " : "") + r.table + ": " + won + (r.confirmed_by === "organiser" ? " (organiser)" : "")));
          if (config.organiser) {
            var strike = el("button", "small", "Strike");
            strike.addEventListener("click", function () {
              if (window.confirm("Strike this game from the event?")) post(config.urls.strike, { table: r.table, log: r.log, game_id: r.game_id });
            });
            item.appendChild(strike);
          }
          games.appendChild(item);
        });
        rounds.appendChild(el("h3", null, "Games"));
        rounds.appendChild(games);
      }
    }
    var problems = clear($("h-problems"));
    state.unmatched.concat(state.problems).slice(-6).forEach(function (p) { problems.appendChild(el("li", null, p)); });
  }

  function samePlayers(a, b) {
    return a.slice().sort().join("\n") === b.slice().sort().join("\n");
  }

  function render(state) {
    latest = state;
    clockOffset = state.now - Date.now() / 1000;
    document.body.dataset.seq = state.seq;
    drawTiles(state);
    drawEvent(state);
  }

  // ------------------------------------------------------------------------------ organiser

  function admin() {
    var select = $("h-game");
    if (!select) return;
    config.games.forEach(function (g) {
      var o = el("option", null, g.title);
      o.value = g.name;
      select.appendChild(o);
    });
    $("h-new").addEventListener("submit", function (event) {
      event.preventDefault();
      var form = event.target;
      post(config.urls.event, {
        name: form.name.value,
        game: form.game.value,
        format: form.format.value,
        rounds: Number(form.rounds.value),
        seats: Number(form.seats.value),
        min_seats: Math.min(Number(form.seats.value), 2),
        players: form.players.value.split("\n").filter(function (line) { return line.trim(); }),
      });
    });
    $("h-round").addEventListener("click", function () { post(config.urls.round); });
    $("h-clear").addEventListener("click", function () {
      if (window.confirm("Close the event? Its standings are gone from this page (export them first).")) post(config.urls.clear);
    });
  }

  admin();
  TableLive.connect(config.stream, render, config.state);
  setInterval(tick, 1000);
})();
