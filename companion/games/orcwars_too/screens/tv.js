// ORCWARS TOO! on the TV: each chief's leaders with their armies, gold, hand and lands on the left; on the
// right the turn (A, B1-B5, C and whose it is) and the battle as a show: both secret strategies face down
// until revealed together, then every roll, the table's cell and the damage it gives, and what survived.
// Between battles the right side shows the lands (who holds which orcland, fortresses, mines), the last
// battle and the caravans. Hands are secret: the TV counts chips, never names them.
"use strict";

(function () {
  var el = TableTV.el;
  var RACE_COLOURS = {
    orc: "#c0392b", goblin: "#27ae60", kobold: "#8e9e3a", hobgoblin: "#d35400", bugbear: "#8e6e53",
    ogre: "#7f5aa2", troll: "#16a085", gnoll: "#b7950b",
  };

  function count(n, one) { return n + " " + (n === 1 ? one : one + (/s$/.test(one) ? "es" : "s")); }

  function playerOf(game, seat) {
    return (game.players || []).filter(function (p) { return p.seat === seat; })[0] || { name: "?", colour: "#888" };
  }

  function token(unit, extra, count) {
    // A unit: its power in a race-coloured box, its name beside it (and how many alike, "×3").
    var box = el("span", "ow-unit" + (extra ? " " + extra : ""));
    var power = el("b", "ow-unit-power", String(unit.power));
    power.style.background = RACE_COLOURS[unit.race] || (unit.kind === "war-machine" ? "#5d6d7e" : "#566573");
    box.appendChild(power);
    box.appendChild(el("span", "ow-unit-name", unit.name));
    if (count > 1) box.appendChild(el("span", "ow-unit-count", "×" + count));
    return box;
  }

  function grouped(units) {
    // Alike units (same name and power) as one token with a count: read at a glance from across the room.
    var out = [];
    units.forEach(function (u) {
      var same = out.filter(function (g) { return g.unit.name === u.name && g.unit.power === u.power; })[0];
      if (same) same.count++;
      else out.push({ unit: u, count: 1 });
    });
    return out;
  }

  function armyRow(game, army) {
    var row = el("div", "ow-army" + (army.lost ? " is-lost" : ""));
    var head = el("div", "ow-army-head");
    head.appendChild(el("span", "ow-leader", army.name));
    head.appendChild(el("span", "ow-as", "A" + army.authority + " S" + army.survivability));
    if (army.shaman) head.appendChild(el("span", "ow-badge ow-shaman", "shaman"));
    if (army.gold) head.appendChild(el("span", "ow-badge ow-gold", army.gold + " gold"));
    head.appendChild(el("strong", "ow-power", String(army.power)));
    row.appendChild(head);
    var units = el("div", "ow-units");
    units.appendChild(el("span", "ow-where", army.territory_name));
    grouped(army.units).forEach(function (g) { units.appendChild(token(g.unit, null, g.count)); });
    var done = [];
    if (army.moved) done.push("moved");
    if (army.attacked) done.push("attacked");
    if (game.levy && game.levy.leader === army.leader) done.push("levying…");
    else if (army.levied) done.push("levied");
    if (!army.units.length) units.appendChild(el("span", "ow-alone", "alone"));
    if (done.length) units.appendChild(el("span", "ow-done", done.join(" · ")));
    row.appendChild(units);
    return row;
  }

  function panel(game, player, waiting) {
    var box = el("section", "ow-player" + (player.active ? " is-active" : "") + (waiting ? " is-waiting" : ""));
    box.style.setProperty("--player", player.colour || "#888");
    box.dataset.seat = player.seat;
    var head = el("header", "ow-head");
    head.appendChild(el("span", "ow-name", player.name));
    var facts = el("span", "ow-facts");
    facts.appendChild(el("span", "ow-fact ow-fact-gold", player.gold + " gold"));
    facts.appendChild(el("span", "ow-fact", player.hand + " in hand"));
    if (player.unplaced_caravans.length) facts.appendChild(el("span", "ow-fact", player.unplaced_caravans.length + " caravan"));
    head.appendChild(facts);
    var score = el("span", "ow-score");
    score.appendChild(el("strong", null, String(player.score.total)));
    score.appendChild(el("span", "ow-score-label", "/" + game.victory.power_needed));
    head.appendChild(score);
    box.appendChild(head);
    var sub = el("div", "ow-sub");
    if (!player.setup) { // in the setup nobody holds anything yet: the line says how far each chief is
      sub.appendChild(el("span", null, count(player.score.lands, "land") + " · " + count(player.score.fortresses, "fort") + " · " +
        player.leaders_with_armies + "/" + game.victory.leaders_needed + " armies in orclands"));
    }
    if (player.announced.length) sub.appendChild(el("span", "ow-announced", "announces " + player.announced.join(" & ") + " victory!"));
    if (player.setup) {
      var stage = player.setup === "draw" && player.draws_owed ? "draws " + player.draws_owed + " more"
        : { bosses: "taking bosses", draw: "hand full: trade or Done", trade: "trading units for gold", ready: "ready ✓" }[player.setup] || player.setup;
      sub.appendChild(el("span", "ow-setup", stage));
    }
    box.appendChild(sub);
    var armies = el("div", "ow-armies");
    player.armies.forEach(function (a) { armies.appendChild(armyRow(game, a)); });
    if (player.garrisons.length) {
      // Troops left behind, one line for all of them: where, and how many.
      var left = player.garrisons.map(function (g) {
        return g.territory_name + " " + g.units.length;
      }).join(" · ");
      armies.appendChild(el("p", "ow-left", "Left behind: " + left));
    }
    if (player.captives.length) {
      armies.appendChild(el("p", "ow-captives", "Captives: " + player.captives.map(function (c) { return c.name; }).join(", ")));
    }
    if (!armies.children.length) armies.appendChild(el("p", "ow-empty", game.phase === "setup" ? "setting up…" : "no leader on the board"));
    box.appendChild(armies);
    return box;
  }

  // ------------------------------------------------------------------------------------ turn track

  function turnBox(game) {
    var box = el("section", "ow-box ow-turn");
    var players = game.players || [];
    var current = game.step && game.step.seat !== undefined && game.step.seat !== null ? playerOf(game, game.step.seat) : null;
    box.appendChild(el("h2", null, game.phase === "turn" ? "Turn " + game.turn + (game.turn_limit ? " of " + game.turn_limit : "") : game.step.label));
    if (game.phase === "turn") {
      var track = el("div", "ow-track");
      (game.steps || []).forEach(function (s) {
        track.appendChild(el("span", "ow-step is-" + s.state, s.id));
      });
      box.appendChild(track);
      var now = (game.steps || []).filter(function (s) { return s.state === "now"; })[0];
      if (now) box.appendChild(el("p", "ow-step-label", (current ? current.name + ": " : "") + now.label));
      var order = el("ol", "ow-order");
      (game.order || []).forEach(function (seat) {
        var p = playerOf(game, seat);
        var item = el("li", "ow-order-item" + (current && current.seat === seat ? " is-now" : ""));
        item.style.setProperty("--player", p.colour || "#888");
        item.appendChild(el("span", "ow-order-name", p.name));
        order.appendChild(item);
      });
      box.appendChild(order);
    } else if (game.rolloff) {
      var rolls = el("ol", "ow-order");
      game.rolloff.rolls.forEach(function (r) {
        var p = players[r[0]] || { name: "?" };
        var item = el("li", "ow-order-item");
        item.style.setProperty("--player", p.colour || "#888");
        item.appendChild(el("span", "ow-order-name", p.name + " " + r[1]));
        rolls.appendChild(item);
      });
      box.appendChild(rolls);
    } else if (game.phase === "setup") {
      // The table waits for the slowest chief: who is ready, who is not, and what is left in the cup.
      var ready = players.filter(function (p) { return p.setup === "ready"; }).length;
      box.appendChild(el("p", "ow-step-label", ready + " of " + players.length + " chiefs ready · tribe cup " + game.tribe_cup + " chips"));
    }
    return box;
  }

  // ---------------------------------------------------------------------------------------- battle

  function strategyCard(side, defender, fortress, revealed) {
    // Face down until both are revealed: "?" and whether the side has chosen; then the strategy.
    var shown = side.proposed;
    var card = el("div", "ow-card" + (shown ? " is-up ow-card-" + shown : side.chosen ? " is-chosen" : ""));
    if (!shown) {
      card.appendChild(el("span", "ow-card-face", "?"));
      card.appendChild(el("span", "ow-card-note", side.chosen ? "chosen in secret" : revealed ? "no choice" : "choosing…"));
      return card;
    }
    card.appendChild(el("span", "ow-card-face", side.proposed_name || shown));
    return card;
  }

  function rollLine(label, value, cls) {
    var p = el("p", "ow-roll" + (cls ? " " + cls : ""));
    p.appendChild(el("span", "ow-roll-label", label));
    p.appendChild(el("strong", null, value));
    return p;
  }

  function sideBox(game, battle, name) {
    var side = battle[name];
    var owner = side.owner !== null && side.owner !== undefined ? playerOf(game, side.owner) : null;
    var box = el("section", "ow-side ow-side-" + name + (battle.loser === name ? " is-loser" : ""));
    box.style.setProperty("--player", owner ? owner.colour : "#9aa6b6");
    var head = el("header", "ow-side-head");
    head.appendChild(el("span", "ow-side-role", name === "attacker" ? "Attacker" : "Defender"));
    head.appendChild(el("strong", "ow-side-power", String(side.power)));
    box.appendChild(head);
    box.appendChild(el("p", "ow-side-name", side.name));
    if (side.kind === "army" || side.proposed) box.appendChild(strategyCard(side, name === "defender", battle.fortress, battle.revealed));
    if (side.authority_roll) {
      var ok = side.real && side.real === side.proposed && !side.strategy_roll;
      box.appendChild(rollLine("leadership d8", side.authority_roll + " vs " + side.authority_target + (ok ? " ✓" : " ✗"), ok ? "is-good" : "is-bad"));
    }
    if (side.strategy_roll) box.appendChild(rollLine("real strategy d6", String(side.strategy_roll)));
    if (side.real && (side.real !== side.proposed)) box.appendChild(rollLine("fights with", side.real_name, "is-real"));
    var stupid = side.units.filter(function (u) { return u.stupidity_roll; });
    stupid.forEach(function (u) { box.appendChild(rollLine(u.name + " d6", u.stupidity_roll + (u.stupid ? " stupid!" : " fights"), u.stupid ? "is-bad" : "")); });
    if (side.surrender_roll) box.appendChild(rollLine("surrender d6", String(side.surrender_roll)));
    if (side.survival_roll) box.appendChild(rollLine((side.survivor || "survivor") + " d6", String(side.survival_roll)));
    var units = el("div", "ow-units ow-battle-units");
    side.leaders.forEach(function (l) {
      var t = token({ power: l.authority, name: l.name + (l.fate ? " — " + l.fate : ""), race: "" }, "is-leader" + (l.destroyed ? " is-destroyed" : "") + (l.damage ? " is-hit" : ""));
      if (l.damage) t.appendChild(el("span", "ow-hit", "−" + l.damage));
      units.appendChild(t);
    });
    side.units.forEach(function (u) {
      var cls = (u.destroyed ? " is-destroyed" : "") + (u.surrendered ? " is-surrendered" : "") + (u.stupid ? " is-stupid" : "") + (u.damage ? " is-hit" : "");
      var t = token(u, cls.trim());
      if (u.damage) t.appendChild(el("span", "ow-hit", "−" + u.damage));
      if (u.regeneration_roll) t.appendChild(el("span", "ow-regen", u.regeneration_roll >= 5 ? "regenerates" : "stays dead"));
      units.appendChild(t);
    });
    if (side.caravan) units.appendChild(token({ power: side.power, name: side.caravan, race: "" }, "is-caravan"));
    box.appendChild(units);
    return box;
  }

  function damageBox(battle) {
    var d = battle.damage;
    var box = el("div", "ow-damage");
    if (!d) {
      var fled = battle.defender.proposed === "flee";
      var waiting = battle.revealed ? "Rolling for the real strategies…" : "Strategies are chosen in secret";
      box.appendChild(el("p", "ow-muted", fled ? "The lonely chief flees: no fight" : waiting));
      return box;
    }
    box.appendChild(el("p", "ow-cell", (d.table === "fortress" ? "Fortress" : "Field") + " table: " + d.cell));
    var row = el("div", "ow-damage-row");
    var toAttacker = el("div", "ow-dmg");
    toAttacker.appendChild(el("strong", null, String(d.damage_to_attacker)));
    toAttacker.appendChild(el("span", null, d.attacker_ratio + " of " + d.defender_power + (d.attacker_hacked ? " · hacked!" : "")));
    var toDefender = el("div", "ow-dmg");
    toDefender.appendChild(el("strong", null, String(d.damage_to_defender)));
    var note = d.defender_ratio + " of " + d.attacker_power;
    if (d.absorbed) note += " −" + d.absorbed + " walls";
    if (d.defender_hacked) note += " · hacked!";
    toDefender.appendChild(el("span", null, note));
    row.appendChild(toAttacker);
    row.appendChild(el("span", "ow-vs", "damage"));
    row.appendChild(toDefender);
    box.appendChild(row);
    if (d.castle_destroyed) box.appendChild(el("p", "ow-castle", "The castle falls!"));
    return box;
  }

  function battleBox(game, battle, live) {
    var box = el("section", "ow-box ow-battle" + (live ? " is-live" : " is-last"));
    var title = (live ? "Battle in " : "Last battle: ") + battle.territory_name;
    if (battle.fortress) title += " · fortress " + battle.fortress;
    box.appendChild(el("h2", null, title));
    var sides = el("div", "ow-sides");
    sides.appendChild(sideBox(game, battle, "attacker"));
    sides.appendChild(sideBox(game, battle, "defender"));
    box.appendChild(sides);
    box.appendChild(damageBox(battle));
    if (battle.loser && battle.loser !== "none") {
      var loser = battle[battle.loser];
      box.appendChild(el("p", "ow-outcome", loser.name + " gives way" + (battle.retreat_to ? " to " + battle.retreat_to : "")));
    } else if (battle.loser === "none") {
      box.appendChild(el("p", "ow-outcome", "Nobody is left standing"));
    }
    return box;
  }

  // ----------------------------------------------------------------------------------------- lands

  function landsBox(game) {
    var box = el("section", "ow-box ow-lands");
    box.appendChild(el("h2", null, "Orclands"));
    var grid = el("div", "ow-land-grid");
    (game.territories || []).filter(function (t) { return t.kind === "orcland"; }).forEach(function (t) {
      var owner = t.controller !== null ? playerOf(game, t.controller) : null;
      var tile = el("div", "ow-land" + (owner ? " is-held" : ""));
      tile.style.setProperty("--player", owner ? owner.colour : "#2a3340");
      tile.appendChild(el("span", "ow-land-name", t.name));
      var marks = [];
      if (t.fortress) marks.push("fort " + t.fortress);
      if (t.mine) marks.push("mine");
      if (t.neutral.length) marks.push(t.neutral.length + " neutral");
      if (marks.length) tile.appendChild(el("span", "ow-land-marks", marks.join(" · ")));
      grid.appendChild(tile);
    });
    box.appendChild(grid);
    var caravans = game.caravans || [];
    if (caravans.length) {
      box.appendChild(el("p", "ow-caravans", "Caravans: " + caravans.map(function (c) {
        return c.name.replace(/ Caravan$/, "") + " in " + c.territory_name + (c.power !== null ? " (" + c.power + ")" : "");
      }).join(" · ")));
    }
    return box;
  }

  function fitAll(main) {
    Array.prototype.forEach.call(main.querySelectorAll(".ow-name"), function (n) { TableTV.fit(n, 34, 24); });
    Array.prototype.forEach.call(main.querySelectorAll(".ow-armies"), function (a) {
      if (TableTV.overflows(a)) a.classList.add("is-compact");
      if (TableTV.overflows(a)) a.classList.add("is-tight");
      // Still too many leaders for the panel: the last ones give way to a count, never a cut-off row.
      var hidden = 0;
      while (TableTV.overflows(a) && a.children.length > 1) {
        a.removeChild(a.lastChild.classList.contains("ow-more") ? a.lastChild.previousSibling : a.lastChild);
        hidden++;
        var more = a.querySelector(".ow-more") || a.appendChild(el("p", "ow-more"));
        more.textContent = "+" + hidden + " more";
      }
    });
    Array.prototype.forEach.call(main.querySelectorAll(".ow-side"), function (s) {
      if (TableTV.overflows(s)) s.classList.add("is-compact");
    });
    var side = main.querySelector(".ow-right");
    if (side && TableTV.overflows(side)) side.classList.add("is-tight");
    TableTV.fitAll(Array.prototype.map.call(main.querySelectorAll(".ow-leader, .ow-where, .ow-side-name, .ow-land-name, .ow-step-label"), function (n) {
      return { node: n, maxPx: parseFloat(getComputedStyle(n).fontSize), minPx: 20 };
    }));
  }

  TableTV.register("orcwars-too", {
    round: function (game) {
      if (game.phase === "setup") return "Setup";
      if (game.phase === "rolloff" && !game.turn) return "Who starts";
      return "Turn " + game.turn;
    },
    status: function (game) {
      var out = [];
      if (game.step && game.step.id && game.phase === "turn") out.push(["Step", game.step.id]);
      out.push(["Gold pile", String(game.gold_pile)]);
      return out;
    },
    finalParts: function (player) {
      return count(player.score.lands, "land") + " · " + count(player.score.fortresses, "fortress");
    },
    render: function (main, game) {
      var waiting = game.prompt ? game.prompt.players || [] : [];
      var count = (game.players || []).length;
      main.className = "tv-main ow-table ow-seats-" + count + (game.battle ? " has-battle" : "");
      var players = el("div", "ow-players");
      (game.players || []).forEach(function (p) { players.appendChild(panel(game, p, waiting.indexOf(p.seat) >= 0)); });
      main.appendChild(players);
      var right = el("aside", "ow-right");
      right.appendChild(turnBox(game));
      if (game.battle) right.appendChild(battleBox(game, game.battle, true));
      else {
        right.appendChild(landsBox(game));
        if (game.last_battle) right.appendChild(battleBox(game, game.last_battle, false));
      }
      main.appendChild(right);
      fitAll(main);
    },
  });
})();
