// HeroScape on the TV: each player's army cards with their figures and wounds, the round track,
// initiative and turn order, revealed order markers, glyphs in play, the last attack with its dice,
// and what the scenario asks to win. Order markers show only once revealed: a player who placed his
// shows a tick, never where.
"use strict";

(function () {
  var el = TableTV.el;
  var SVG = "http://www.w3.org/2000/svg";
  var FACES = {
    // Drawn, not font glyphs: the TV's browser may have no symbol font.
    skull: "M12 2C7 2 4 5.6 4 10c0 2.6 1.2 4.6 3 5.8V19h3v-2h4v2h3v-3.2c1.8-1.2 3-3.2 3-5.8 0-4.4-3-8-8-8zM8.5 13a2 2 0 1 1 0-4 2 2 0 0 1 0 4zm7 0a2 2 0 1 1 0-4 2 2 0 0 1 0 4z",
    shield: "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5l-8-3z",
    blank: "",
  };

  function icon(face, extra) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "hs-die hs-die-" + face + (extra ? " " + extra : ""));
    var rect = document.createElementNS(SVG, "rect");
    rect.setAttribute("x", "0.5");
    rect.setAttribute("y", "0.5");
    rect.setAttribute("width", "23");
    rect.setAttribute("height", "23");
    rect.setAttribute("rx", "4");
    svg.appendChild(rect);
    if (FACES[face]) {
      var path = document.createElementNS(SVG, "path");
      path.setAttribute("d", FACES[face]);
      svg.appendChild(path);
    }
    return svg;
  }

  function pips(unit) {
    var box = el("div", "hs-pips");
    if (unit.hero) {
      // A Hero: one box per point of Life, the wounded ones filled.
      var figure = unit.figures[0];
      for (var i = 0; i < unit.life; i++) {
        var dead = figure.status !== "alive";
        box.appendChild(el("span", "hs-life" + (dead || i < figure.wounds ? " is-wounded" : "")));
      }
      return box;
    }
    unit.figures.forEach(function (f) {
      box.appendChild(el("span", "hs-figure" + (f.status === "alive" ? "" : " is-gone"), ""));
    });
    return box;
  }

  function cardRow(unit, active) {
    var row = el("div", "hs-card" + (unit.living ? "" : " is-out") + (active ? " is-acting" : ""));
    row.dataset.unit = unit.unit;
    var name = el("div", "hs-card-name");
    var title = el("span", "hs-card-title", unit.title);
    // The card's short name keeps the copy number where the full title cannot fit ("Drudge (2)").
    var copy = /\((\d+)\)$/.exec(unit.title);
    title.dataset.short = (unit.short || unit.title) + (copy && unit.short ? " (" + copy[1] + ")" : "");
    name.appendChild(title);
    if (unit.negated) name.appendChild(el("span", "hs-badge hs-negated", "negated"));
    var markers = el("div", "hs-markers");
    (unit.revealed_markers || []).forEach(function (m) { markers.appendChild(el("span", "hs-marker", m)); });
    // Two lines on a roomy row (the name with its markers; the figures with the numbers); a compact
    // row lays the same four parts on one line (CSS: the lines become "display: contents").
    var first = el("div", "hs-card-line");
    first.appendChild(name);
    first.appendChild(markers);
    var second = el("div", "hs-card-line");
    second.appendChild(pips(unit));
    second.appendChild(stats(unit));
    row.appendChild(first);
    row.appendChild(second);
    return row;
  }

  function stats(unit) {
    // The card's numbers and what is left, said as the events say it ("5 of 6 life left"): in full
    // on a roomy row, short on a compact one (CSS shows one of the two).
    var box = el("div", "hs-stats");
    if (!unit.living) {
      box.appendChild(el("span", null, "destroyed"));
      return box;
    }
    var left = unit.hero ? Math.max(0, unit.life - unit.figures[0].wounds) : unit.living;
    var of = unit.hero ? unit.life : unit.figures.length;
    var what = unit.hero ? " life" : " left";
    box.appendChild(el("span", "hs-stats-long", "Attack " + unit.attack + " · Defense " + unit.defense + " · " + left + " of " + of + what));
    box.appendChild(el("span", "hs-stats-short", "A" + unit.attack + " D" + unit.defense + " · " + left + "/" + of + what));
    return box;
  }

  function panel(game, player, waiting) {
    var turn = game.turn;
    var box = el("section", "hs-player" + (player.active ? " is-active" : "") + (waiting ? " is-waiting" : "") + (player.out ? " is-out" : ""));
    box.style.setProperty("--player", player.colour || "#888");
    box.dataset.seat = player.seat;
    var head = el("header", "hs-head");
    head.appendChild(el("span", "hs-name", player.name));
    if (game.phase === "markers" || player.markers_placed) {
      head.appendChild(el("span", "hs-placed" + (player.markers_placed ? " is-done" : ""), player.markers_placed ? "markers ✓" : "placing…"));
    }
    var score = el("span", "hs-score");
    if (gathering(game)) {
      // Armies being drafted or gathered: the points taken against the limit.
      score.appendChild(el("strong", null, player.army_points));
      score.appendChild(el("span", "hs-score-label", player.limit ? " of " + player.limit + " pts" : " pts"));
    } else {
      // In battle: points still on the battlefield, of the army's points.
      score.appendChild(el("strong", null, player.score ? player.score.total : 0));
      score.appendChild(el("span", "hs-score-label", player.army_points ? " / " + player.army_points + " pts" : " pts"));
    }
    head.appendChild(score);
    box.appendChild(head);
    var cards = el("div", "hs-cards");
    (player.army || []).forEach(function (unit) {
      var acting = turn && (unit.unit === turn.unit || unit.unit === turn.first);
      cards.appendChild(cardRow(unit, acting));
    });
    if (game.rogue_hive && game.hive_controller === player.seat) {
      cards.appendChild(cardRow(game.rogue_hive, turn && game.rogue_hive.unit === turn.unit));
    }
    if (!(player.army || []).length) cards.appendChild(el("p", "hs-empty", game.phase === "draft" || game.phase === "army" ? "no cards yet" : "no army"));
    box.appendChild(cards);
    return box;
  }

  function dieRow(label, faces, count, counting) {
    // More than six dice would wrap at full size: draw them smaller on one row.
    var row = el("div", "hs-dice-row" + (Math.max(count, (faces || []).length) > 6 ? " hs-dice-many" : ""));
    row.appendChild(el("span", "hs-dice-label", label));
    (faces || []).forEach(function (f) { row.appendChild(icon(f, f === counting ? "counts" : "")); });
    for (var i = (faces || []).length; i < count; i++) row.appendChild(el("span", "hs-die-waiting"));
    return row;
  }

  function partsLine(parts) {
    // Where the dice come from: "Attack 3 · +1 height advantage · +1 Glyph of Ulaniva".
    if (!parts || !parts.length) return null;
    return el("p", "hs-dice-parts", parts.map(function (p, i) {
      return i === 0 ? p[0] + " " + p[1] : (p[1] > 0 ? "+" : "") + p[1] + " " + p[0];
    }).join(" · "));
  }

  function lastAttack(game) {
    var shown = game.pending_attack || game.last_attack;
    var box = el("section", "hs-side-box hs-attack");
    if (!shown) {
      box.appendChild(el("h2", null, "Attacks"));
      box.appendChild(el("p", "hs-muted", "No attack yet"));
      return box;
    }
    var pending = !!game.pending_attack;
    var kinds = { attack: pending ? "Attack under way" : "Last attack", leaving: "Leaving engagement", fall: "Fall" };
    box.appendChild(el("h2", null, kinds[shown.kind] || "Attack"));
    box.appendChild(el("p", "hs-attack-who", shown.kind === "fall" ? shown.defender_label : shown.attacker_label + " → " + shown.defender_label));
    var dice = el("div", "hs-dice");
    var defending = shown.kind === "attack";
    dice.appendChild(dieRow(shown.attack_dice + (shown.kind === "fall" ? " dice" : " att"), shown.attack_faces, pending ? shown.attack_dice : 0, "skull"));
    var attackParts = partsLine(shown.attack_parts);
    if (attackParts) dice.appendChild(attackParts);
    if (defending && (!pending || shown.stage === "defense")) {
      dice.appendChild(dieRow(shown.defense_dice + " def", shown.defense_faces, pending ? shown.defense_dice : 0, "shield"));
    }
    var defenseParts = defending ? partsLine(shown.defense_parts) : null;
    if (defenseParts) dice.appendChild(defenseParts);
    box.appendChild(dice);
    if (pending && shown.odds) {
      // The odds of these dice: the modifiers above are the ones they include.
      box.appendChild(el("p", "hs-odds", Math.round(shown.odds.p_at_least_one * 100) + "% to wound · " + shown.odds.expected.toFixed(1) + " wounds expected"));
    } else if (!pending) {
      var said = shown.outcome || "";
      var result = said.charAt(0).toUpperCase() + said.slice(1) + (shown.destroyed ? ": destroyed!" : "");
      box.appendChild(el("p", "hs-result" + (shown.destroyed ? " is-destroyed" : ""), result));
    }
    return box;
  }

  function rolloffBox(game) {
    // A roll-off players asked for (Line of Sight, Simultaneous Special Powers): the rolls as they
    // come, then who won, for the rest of that turn.
    var r = game.rolloffs;
    if (!r || !(r.pending || (r.last && r.last.recent))) return null;
    var box = el("section", "hs-side-box hs-rolloff");
    var players = game.players || [];
    if (!r.pending) {
      box.appendChild(el("h2", null, "Roll-off"));
      box.appendChild(el("p", "hs-rolloff-result", r.last.text));
      return box;
    }
    box.appendChild(el("h2", null, "Roll-off: " + r.pending.label + (r.pending.again ? " (tie, again)" : "")));
    var list = el("ol", "hs-order");
    r.pending.contenders.forEach(function (seat) {
      var p = players[seat] || { name: "?" };
      var item = el("li", "hs-order-item" + (r.pending.waiting[0] === seat ? " is-now" : ""));
      item.style.setProperty("--player", p.colour || "#888");
      item.appendChild(el("span", "hs-order-name", p.name));
      var got = r.pending.rolls.filter(function (x) { return x[0] === seat; })[0];
      item.appendChild(el("span", "hs-order-roll", got ? "d20 " + got[1] : "rolling…"));
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  function gathering(game) {
    return game.phase === "draft" || game.phase === "army" || (game.rolloff && game.rolloff.purpose === "draft");
  }

  function draftBox(game) {
    // The draft in place of the round track: who picks now and the picking order of this pass.
    var box = el("section", "hs-side-box hs-round");
    box.appendChild(el("h2", null, game.phase === "army" ? "Gathering armies" : "Draft"));
    var players = game.players || [];
    if (game.draft) {
      var list = el("ol", "hs-order");
      game.draft.order.forEach(function (seat) {
        var p = players[seat] || { name: "?" };
        var item = el("li", "hs-order-item" + (game.draft.picker === seat ? " is-now" : ""));
        item.style.setProperty("--player", p.colour || "#888");
        item.appendChild(el("span", "hs-order-name", p.name));
        list.appendChild(item);
      });
      box.appendChild(list);
      var picker = players[game.draft.picker];
      if (picker) box.appendChild(el("p", null, picker.name + " takes " + (game.draft.picks === 1 ? "a card" : game.draft.picks + " cards")));
    } else if (game.phase === "army") {
      var waiting = players.filter(function (p) { return !p.ready; }).map(function (p) { return p.name; });
      box.appendChild(el("p", null, waiting.length ? "Laying cards: " + waiting.join(", ") : "Armies ready"));
    }
    return box;
  }

  function roundTrack(game) {
    if (gathering(game) && !game.rolloff) return draftBox(game);
    // The round marker on its track, then this round's initiative rolls in turn order.
    var box = el("section", "hs-side-box hs-round");
    box.appendChild(el("h2", null, game.round_limit ? "Round " + game.round + " of " + game.round_limit : "Round " + game.round));
    if (game.round_limit) {
      var track = el("div", "hs-track");
      for (var r = 1; r <= game.round_limit; r++) {
        track.appendChild(el("span", "hs-track-step" + (r < game.round ? " is-past" : r === game.round ? " is-now" : ""), String(r)));
      }
      box.appendChild(track);
    }
    var players = game.players || [];
    var rolls = {};
    ((game.initiative && game.initiative.rolls) || []).forEach(function (r) { rolls[r[0]] = r[1]; });
    var orderSeats = (game.initiative && game.initiative.order) || [];
    if (game.rolloff) {
      var purposes = { initiative: "Initiative", draft: "Who drafts first", hive: "Who controls the Hive", placement: "Who places first", first: "Who goes first" };
      var how = game.rolloff.purpose === "first" ? ": skulls on six dice" : ": d20 each";
      box.appendChild(el("p", "hs-muted", (purposes[game.rolloff.purpose] || "Roll-off") + how));
      var rolled = el("ol", "hs-order");
      game.rolloff.contenders.forEach(function (seat) {
        var p = players[seat] || { name: "?" };
        var item = el("li", "hs-order-item" + (game.rolloff.waiting[0] === seat ? " is-now" : ""));
        item.style.setProperty("--player", p.colour || "#888");
        item.appendChild(el("span", "hs-order-name", p.name));
        var got = game.rolloff.rolls.filter(function (r) { return r[0] === seat; })[0];
        item.appendChild(el("span", "hs-order-roll", got ? String(got[1]) : "…"));
        rolled.appendChild(item);
      });
      box.appendChild(rolled);
    } else if (orderSeats.length && game.phase === "turns") {
      var list = el("ol", "hs-order");
      orderSeats.forEach(function (seat) {
        var p = players[seat] || { name: "?" };
        var item = el("li", "hs-order-item" + (game.turn && game.turn.player === seat ? " is-now" : ""));
        item.style.setProperty("--player", p.colour || "#888");
        item.appendChild(el("span", "hs-order-name", p.name));
        if (rolls[seat] !== undefined) item.appendChild(el("span", "hs-order-roll", "d20 " + rolls[seat]));
        list.appendChild(item);
      });
      box.appendChild(list);
    } else if (game.phase === "markers") {
      box.appendChild(el("p", "hs-muted", "Order markers are being placed"));
    }
    return box;
  }

  function sidebar(game) {
    var side = el("aside", "hs-side");
    side.appendChild(roundTrack(game));
    var rolloff = rolloffBox(game);
    if (rolloff) side.appendChild(rolloff);
    side.appendChild(lastAttack(game));
    var goal = el("section", "hs-side-box hs-goal");
    goal.appendChild(el("h2", null, game.scenario ? game.scenario.title : "Battle"));
    goal.appendChild(el("p", "hs-goal-text", game.scenario ? game.scenario.goal : ""));
    (game.victory || []).forEach(function (line) { goal.appendChild(el("p", "hs-victory", line)); });
    if (game.flooded) goal.appendChild(el("p", "hs-alert", "Level 1 is flooded"));
    side.appendChild(goal);
    var glyphs = (game.glyphs || []).filter(function (g) { return !g.removed; });
    if (glyphs.length) {
      var box = el("section", "hs-side-box hs-glyphs");
      box.appendChild(el("h2", null, "Glyphs"));
      glyphs.forEach(function (g) {
        box.appendChild(el("p", "hs-glyph" + (g.holder ? " is-held" : ""), g.power + ": " + (g.holder ? g.holder_label : "nobody on it")));
      });
      side.appendChild(box);
    }
    return side;
  }

  function fitPanels(main) {
    // Everything whole on the TV: a long name shrinks (to 24 px at least, then is shortened); a card's
    // row is two large lines while the panel has room, and a big army packs its rows onto one line,
    // tighter, then in two columns without the stat line.
    Array.prototype.forEach.call(main.querySelectorAll(".hs-name"), function (name) { TableTV.fit(name, 36, 24); });
    Array.prototype.forEach.call(main.querySelectorAll(".hs-cards"), function (cards) {
      // Roomy two-line rows first; then one line a card, then tighter lines, then two columns.
      ["is-compact", "is-tight", "is-two-columns"].some(function (level) {
        if (!TableTV.overflows(cards)) return true;
        cards.classList.add(level);
        return false;
      });
    });
    // A full sidebar drops the scenario's goal sentence first (its progress lines stay), then the track.
    var side = main.querySelector(".hs-side");
    if (side && TableTV.overflows(side)) side.classList.add("is-tight");
    if (side && TableTV.overflows(side)) side.classList.add("is-tighter");
    Array.prototype.forEach.call(main.querySelectorAll(".hs-card-title"), function (title) {
      var size = title.closest(".is-tight") ? 22 : title.closest(".is-compact") ? 25 : 38;
      TableTV.fit(title, size, 20, [title.dataset.short]);
    });
  }

  TableTV.register("heroscape", {
    round: function (game) {
      if (game.phase === "draft") return "Drafting";
      if (game.phase === "army") return "Gathering armies";
      return "Round " + game.round + (game.round_limit ? " of " + game.round_limit : "");
    },
    status: function (game) {
      var out = [];
      if (game.turn && game.turn.marker) out.push(["Turn", game.turn.marker + " of 3"]);
      return out;
    },
    finalParts: function (player) {
      return (player.army || []).filter(function (u) { return u.living; }).map(function (u) { return u.title; }).join(", ");
    },
    render: function (main, game) {
      var waiting = game.prompt ? game.prompt.players || [] : [];
      var count = (game.players || []).length;
      main.className = "tv-main hs-table hs-seats-" + count;
      var players = el("div", "hs-players");
      (game.players || []).forEach(function (p) { players.appendChild(panel(game, p, waiting.indexOf(p.seat) >= 0)); });
      main.appendChild(players);
      main.appendChild(sidebar(game));
      fitPanels(main);
    },
  });
})();
