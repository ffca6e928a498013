// HeroScape on the phone: order markers placed in secret from this phone's seat, armies gathered card
// by card, the attack form (attacker, target, height, what the map says) with the odds before the
// roll, leaving-engagement attacks, falls, glyphs, the scenario's declarations and hand corrections.
"use strict";

(function () {
  var form = {}; // the forms' choices, kept across redraws (a view arrives after every input)

  function units(game, seat) {
    var player = (game.players || [])[seat];
    return player ? player.army : [];
  }

  function figures(game, seat, alive) {
    var out = [];
    units(game, seat).forEach(function (u) {
      u.figures.forEach(function (f) { if (!alive || f.status === "alive") out.push({ id: f.id, label: f.label, unit: u }); });
    });
    return out;
  }

  function labelled(ctx, text, control) {
    var l = ctx.el("label", null, text);
    l.appendChild(control);
    return l;
  }

  function select(ctx, key, values, onchange) {
    // values: [[value, label]]; the chosen value lives in form[key].
    var s = ctx.el("select");
    s.id = "hs-" + key;
    values.forEach(function (v) { ctx.option(s, v[0], v[1]); });
    if (form[key] !== undefined && values.some(function (v) { return v[0] === form[key]; })) s.value = form[key];
    form[key] = s.value;
    s.onchange = function () { form[key] = s.value; if (onchange) onchange(); };
    return s;
  }

  function button(ctx, text, cls, onclick, id) {
    var b = ctx.el("button", cls, text);
    b.type = "button";
    if (id) b.id = id;
    b.onclick = onclick;
    return b;
  }

  function mySeat(ctx, prompt) {
    var seat = ctx.seat();
    if (seat !== null) return seat;
    return prompt && prompt.players && prompt.players.length === 1 ? prompt.players[0] : null;
  }

  // ------------------------------------------------------------------------------ order markers

  function markers(box, game, prompt, ctx) {
    var seat = ctx.seat();
    var secret = ctx.privateView();
    if (seat === null) {
      box.appendChild(ctx.el("p", "hint", "Choose which player this phone plays (above): markers are placed in secret, each on its own phone."));
      return;
    }
    if (prompt.players.indexOf(seat) < 0) {
      box.appendChild(ctx.el("p", "hint", "Your markers are placed. Waiting for the others…"));
      return;
    }
    var living = ((secret && secret.units) || []).filter(function (u) { return u.alive; });
    if (!living.length) return;
    var values = living.map(function (u) { return [u.unit, u.title]; });
    var row = ctx.el("div", "hs-marker-form");
    ["1", "2", "3", "X"].forEach(function (m, i) {
      // Spread over the cards at first; a choice made stays while that card lives.
      if (!values.some(function (v) { return v[0] === form["marker" + m]; })) form["marker" + m] = values[i % values.length][0];
      row.appendChild(labelled(ctx, "Marker " + m, select(ctx, "marker" + m, values)));
    });
    box.appendChild(row);
    box.appendChild(button(ctx, "Place my markers (face down)", "primary", function () {
      ctx.act({ kind: "place_markers", player: seat, markers: ["1", "2", "3", "X"].map(function (m) { return form["marker" + m]; }) });
    }, "hs-place-markers"));
  }

  function markerList(ctx, cls, heading, markers) {
    var list = ctx.el("p", cls);
    list.appendChild(ctx.el("strong", null, heading));
    list.appendChild(document.createTextNode(["1", "2", "3", "X"].map(function (m) {
      var info = markers[m];
      var state = info.removed ? " (taken)" : info.revealed ? " ✓" : "";
      return m + " " + info.title + state;
    }).join(" · ")));
    return list;
  }

  function myMarkers(box, ctx) {
    var secret = ctx.privateView();
    if (!secret) return;
    if (secret.markers) box.appendChild(markerList(ctx, "hs-my-markers", "Your markers: ", secret.markers));
    // "Teammates can look at each other's Markers": shown, never placed from here.
    (secret.teammates || []).forEach(function (mate) {
      if (!mate.markers) return;
      var list = markerList(ctx, "hs-mate-markers", mate.name + "'s markers: ", mate.markers);
      list.dataset.seat = mate.seat;
      box.appendChild(list);
    });
  }

  function loseMarker(box, prompt, ctx) {
    var secret = ctx.privateView();
    var seat = ctx.seat();
    if (seat === null || prompt.players.indexOf(seat) < 0 || !secret || !secret.lose_marker_options) {
      box.appendChild(ctx.el("p", "hint", "The player whose marker was taken tells their own phone which one."));
      return;
    }
    secret.lose_marker_options.forEach(function (m) {
      box.appendChild(button(ctx, "Marker " + m + " was taken", null, function () { ctx.act({ kind: "lose_marker", player: seat, marker: m }); }));
    });
  }

  // ------------------------------------------------------------------------------------- armies

  function army(box, game, prompt, ctx) {
    var seat = mySeat(ctx, prompt);
    var waiting = prompt.players;
    if (ctx.seat() !== null && waiting.indexOf(seat) < 0) {
      box.appendChild(ctx.el("p", "hint", "Waiting for " + waiting.map(ctx.playerName).join(", ") + " to gather their armies…"));
      return;
    }
    if (seat === null || waiting.indexOf(seat) < 0) seat = waiting.length ? waiting[0] : null;
    if (seat === null) return;
    var player = game.players[seat];
    box.appendChild(ctx.el("h3", null, player.name + "'s army: " + player.army_points + " of " + player.limit + " points"));
    var cards = ctx.catalog(game.game).map(function (c) { return [c.id, c.title + " (" + c.points + ")"]; });
    var row = ctx.el("div", "row");
    row.appendChild(select(ctx, "add", cards));
    row.appendChild(button(ctx, "Add card", "primary", function () { ctx.act({ kind: "add_card", player: seat, card: form.add }); }, "hs-add-card"));
    box.appendChild(row);
    player.army.forEach(function (u) {
      box.appendChild(button(ctx, "Remove " + u.title, "small", function () { ctx.act({ kind: "remove_card", player: seat, unit: u.unit }); }));
    });
    box.appendChild(button(ctx, "My army is ready", null, function () { ctx.act({ kind: "army_ready", player: seat }); }, "hs-army-ready"));
  }

  // ------------------------------------------------------------------------------------ attacks

  var HEIGHTS = [["none", "None"], ["attacker", "Attacker is higher (+1)"], ["attacker-major", "Attacker 10+ levels higher (+2)"], ["defender", "Defender is higher (+1)"], ["defender-major", "Defender 10+ levels higher (+2)"]];

  function attackForm(box, game, turn, ctx) {
    var attackers = turn.attackers.filter(function (a) { return !a.attacked || a.specials.length; });
    if (!attackers.length || !turn.targets.length) return;
    var secret = ctx.privateView();
    var dice = secret && secret.seat === turn.player ? secret.attack_dice : null;
    var details = ctx.el("div", "hs-attack-form");
    details.appendChild(ctx.el("h3", null, "Attack"));
    details.appendChild(labelled(ctx, "Attacker", select(ctx, "attacker", attackers.map(function (a) { return [a.id, a.label + (a.attacked ? " (attacked)" : "")]; }), ctx.redraw)));
    var attacker = attackers.filter(function (a) { return a.id === form.attacker; })[0] || attackers[0];
    var kinds = [["", "Normal attack"]].concat(attacker.specials.map(function (s) { return [s.id, s.name]; }));
    details.appendChild(labelled(ctx, "With", select(ctx, "special", kinds, ctx.redraw)));
    // A special attack that may not target some figures (Pistol Fire: never one who follows Jandar)
    // offers only the others.
    var power = attacker.specials.filter(function (s) { return s.id === form.special; })[0];
    var targets = turn.targets.filter(function (t) { return !power || !power.not_general || t.general !== power.not_general; });
    if (!targets.length) targets = turn.targets;
    details.appendChild(labelled(ctx, "Target", select(ctx, "target", targets.map(function (t) { return [t.id, t.label]; }), ctx.redraw)));
    var heights = HEIGHTS.filter(function (h) { return !dice || dice.heights.indexOf(h[0]) >= 0; });
    details.appendChild(labelled(ctx, "Height advantage", select(ctx, "height", heights, ctx.redraw)));
    var target = targets.filter(function (t) { return t.id === form.target; })[0] || targets[0];
    var labels = {};
    (game.conditions || []).forEach(function (c) { labels[c.id] = c.label; });
    var checks = [];
    (target.conditions || []).concat(attacker.conditions || []).forEach(function (c) {
      var box2 = ctx.el("input");
      box2.type = "checkbox";
      box2.dataset.condition = c;
      box2.checked = !!form["c-" + c];
      box2.onchange = function () { form["c-" + c] = box2.checked; ctx.redraw(); };
      var l = ctx.el("label", "check", labels[c] || c);
      l.insertBefore(box2, l.firstChild);
      details.appendChild(l);
      checks.push(box2);
    });
    var chosen = checks.filter(function (c) { return c.checked; }).map(function (c) { return c.dataset.condition; });
    details.appendChild(liveOdds(ctx, dice, form.attacker, form.special || "", form.target, form.height, chosen));
    details.appendChild(button(ctx, "Declare the attack", "primary", function () {
      var conditions = checks.filter(function (c) { return c.checked; }).map(function (c) { return c.dataset.condition; });
      ctx.act({ kind: "attack", player: turn.player, attacker: form.attacker, defender: form.target, special: form.special || null, height: form.height, conditions: conditions });
    }, "hs-declare"));
    box.appendChild(details);
  }

  function moreForms(box, game, turn, ctx) {
    var more = ctx.el("details", "hs-more");
    more.open = !!form.moreOpen;
    more.ontoggle = function () { form.moreOpen = more.open; };
    var shared = ctx.seat() === null;
    more.appendChild(ctx.el("summary", null, shared ? "Leaving engagement, falls, glyphs" : "Falls, glyphs"));
    var movers = turn.movers.map(function (m) { return [m.id, m.label]; });
    // A leaving-engagement attack is the engaged opponent's to roll: on a shared phone here, else on
    // that opponent's own phone (leavingForm).
    if (shared) leavingForm(more, turn, turn.targets, ctx);
    more.appendChild(ctx.el("h3", null, "A fall"));
    more.appendChild(labelled(ctx, "Figure", select(ctx, "fall-fig", movers)));
    var levels = ctx.el("input");
    levels.type = "number";
    levels.min = 0;
    levels.value = form.levels || 4;
    levels.oninput = function () { form.levels = levels.value; };
    more.appendChild(labelled(ctx, "Levels down (not onto water)", levels));
    more.appendChild(button(ctx, "It fell", null, function () {
      ctx.act({ kind: "fall", player: turn.player, figure: form["fall-fig"], levels: parseInt(levels.value, 10) || 0 });
    }));
    more.appendChild(ctx.el("h3", null, "A glyph"));
    more.appendChild(labelled(ctx, "Figure", select(ctx, "glyph-fig", movers)));
    more.appendChild(labelled(ctx, "Glyph", select(ctx, "glyph", (game.glyph_catalog || []).map(function (g) { return [g.id, g.title + " (" + g.power + ")"]; }))));
    more.appendChild(button(ctx, "It stops on the glyph", null, function () {
      ctx.act({ kind: "glyph", player: turn.player, figure: form["glyph-fig"], glyph: form.glyph });
    }));
    (game.glyphs || []).forEach(function (g) {
      if (g.removed || !g.holder || parseInt(g.holder.split(":")[0], 10) !== turn.player) return;
      more.appendChild(button(ctx, g.holder_label + " leaves the " + g.title, "small", function () {
        ctx.act({ kind: "leave_glyph", player: turn.player, glyph: g.id, conditions: g.id === "proftaka" ? ["friend-adjacent"] : [] });
      }));
    });
    box.appendChild(more);
  }

  function leavingForm(box, turn, attackers, ctx) {
    // Leaving engagement: the engaged opponent's figure rolls one die at the mover.
    if (!attackers.length || !turn.movers.length) return;
    box.appendChild(ctx.el("h3", null, "Leaving an engagement"));
    box.appendChild(labelled(ctx, "Moving figure", select(ctx, "le-def", turn.movers.map(function (m) { return [m.id, m.label]; }))));
    box.appendChild(labelled(ctx, "Engaged opponent", select(ctx, "le-att", attackers.map(function (t) { return [t.id, t.label]; }))));
    box.appendChild(button(ctx, "It attacks as the figure leaves", null, function () {
      var attacker = form["le-att"];
      ctx.act({ kind: "leaving_engagement", player: parseInt(attacker.split(":")[0], 10), attacker: attacker, defender: form["le-def"] });
    }, "hs-leaving"));
  }

  function othersTurn(box, game, turn, ctx) {
    // A phone playing another seat than the turn player's: no attack form, no "End the turn", only the
    // leaving-engagement attacks of its own figures engaged with the moving ones.
    var mine = ctx.seat();
    box.appendChild(ctx.el("p", "hint waiting-for", ctx.playerName(turn.player) + "'s turn: they play it on their phone."));
    var own = turn.targets.filter(function (t) { return parseInt(t.id.split(":")[0], 10) === mine; });
    if (turn.step !== "move" || !own.length) return;
    var details = ctx.el("details", "hs-more");
    details.open = !!form.leavingOpen;
    details.ontoggle = function () { form.leavingOpen = details.open; };
    details.appendChild(ctx.el("summary", null, "A figure of " + ctx.playerName(turn.player) + " leaves an engagement with yours"));
    leavingForm(details, turn, own, ctx);
    box.appendChild(details);
  }

  function declarations(box, game, ctx) {
    var rules = (game.scenario && game.scenario.rules) || [];
    var seat = ctx.seat();
    if (rules.indexOf("exit-zone") >= 0 && (seat === 0 || seat === null)) {
      figures(game, 0, true).filter(function (f) { return f.unit.hero; }).forEach(function (f) {
        box.appendChild(button(ctx, f.label + " reached the Exit Zone", "small", function () { ctx.act({ kind: "declare", player: 0, fact: "exited", figures: [f.id] }); }));
      });
    }
    if (rules.indexOf("zone-control") >= 0 && (seat === 0 || seat === null)) {
      box.appendChild(button(ctx, "Player 1 holds a zone alone", "small", function () { ctx.act({ kind: "declare", player: 0, fact: "zone", figures: [] }); }));
    }
    if (rules.indexOf("water-spaces") >= 0 && (seat === 1 || seat === null)) {
      box.appendChild(button(ctx, "Player 2 occupies four water spaces", "small", function () { ctx.act({ kind: "declare", player: 1, fact: "water", figures: [] }); }));
    }
  }

  function rolloffForm(box, game, ctx) {
    // "Roll the 20-sided die; the high roller wins": a Line of Sight dispute or Simultaneous Special
    // Powers, asked by one player naming the opponent. The engine then asks each for the d20.
    var r = game.rolloffs;
    if (!r || !r.open || !r.topics.length) return;
    var players = game.players || [];
    var details = ctx.el("details", "hs-rolloff-form");
    details.open = !!form.rolloffOpen;
    details.ontoggle = function () { form.rolloffOpen = details.open; };
    details.appendChild(ctx.el("summary", null, "Roll off (d20): line of sight, simultaneous powers"));
    details.appendChild(labelled(ctx, "About", select(ctx, "ro-about", r.topics.map(function (t) { return [t.id, t.label]; }))));
    var seat = ctx.seat();
    var askers = players.filter(function (p) { return !p.out && (seat === null || p.seat === seat); });
    if (!askers.length) return;
    details.appendChild(labelled(ctx, "Asked by", select(ctx, "ro-by", askers.map(function (p) { return [String(p.seat), p.name]; }), ctx.redraw)));
    var by = parseInt(form["ro-by"], 10);
    var me = players[by];
    var rivals = players.filter(function (p) { return !p.out && me && p.team !== me.team; });
    if (!rivals.length) return;
    details.appendChild(labelled(ctx, "Against", select(ctx, "ro-against", rivals.map(function (p) { return [String(p.seat), p.name]; }))));
    details.appendChild(button(ctx, "Roll off", "primary", function () {
      ctx.act({ kind: "dispute", player: by, opponent: parseInt(form["ro-against"], 10), about: form["ro-about"] });
    }, "hs-rolloff"));
    box.appendChild(details);
  }

  function flood(box, game, prompt, ctx) {
    var seat = prompt.players[0];
    if (!ctx.mayAct(seat)) {
      box.appendChild(ctx.el("p", "hint", ctx.playerName(seat) + " says on their phone which figures are swept away."));
      return;
    }
    var mine = figures(game, seat, true);
    var checks = mine.map(function (f) {
      var c = ctx.el("input");
      c.type = "checkbox";
      c.value = f.id;
      var l = ctx.el("label", "check", f.label);
      l.insertBefore(c, l.firstChild);
      box.appendChild(l);
      return c;
    });
    box.appendChild(button(ctx, "These are swept away", "primary", function () {
      ctx.act({ kind: "declare", player: seat, fact: "flooded", figures: checks.filter(function (c) { return c.checked; }).map(function (c) { return c.value; }) });
    }));
  }

  // ------------------------------------------------------------------------------ odds

  function binomial(n, p) {
    // P(k successes of n), k = 0..n.
    var out = [];
    var choose = 1;
    for (var k = 0; k <= n; k++) {
      out.push(choose * Math.pow(p, k) * Math.pow(1 - p, n - k));
      choose = choose * (n - k) / (k + 1);
    }
    return out;
  }

  function woundOdds(attack, defense, faces) {
    // Exact, as `companion odds heroscape` computes it: each attack die counts skulls, each defense
    // die shields (their chances from the combat die's faces), wounds are the skulls beyond the shields.
    var chance = function (face) { return faces.filter(function (f) { return f === face; }).length / faces.length; };
    var skulls = binomial(attack, chance("skull"));
    var shields = binomial(defense, chance("shield"));
    var dist = [];
    for (var w = 0; w <= attack; w++) dist.push(0);
    skulls.forEach(function (ps, s) { shields.forEach(function (ph, h) { dist[Math.max(0, s - h)] += ps * ph; }); });
    var expected = 0;
    dist.forEach(function (p, w) { expected += w * p; });
    return { attack: attack, defense: defense, p_at_least_one: 1 - dist[0], expected: expected, distribution: dist };
  }

  function describe(parts) {
    // "Attack 3, +1 height advantage, +1 Glyph of Ulaniva": the card's number, then each modifier.
    return (parts || []).map(function (p, i) { return i === 0 ? p[0] + " " + p[1] : (p[1] > 0 ? "+" : "") + p[1] + " " + p[0]; }).join(", ");
  }

  function oddsLines(ctx, box, o, attackParts, defenseParts) {
    var line = ctx.el("p", "hs-odds", o.attack + " attack vs " + o.defense + " defense: " +
      (o.p_at_least_one * 100).toFixed(1) + "% to wound, " + o.expected.toFixed(2) + " wounds expected");
    line.dataset.attack = o.attack;
    line.dataset.defense = o.defense;
    line.dataset.p = o.p_at_least_one;
    line.dataset.expected = o.expected;
    line.dataset.distribution = JSON.stringify(o.distribution);
    box.appendChild(line);
    // Which modifiers the dice include (height, glyphs, Concentrated Will, auras...), as the engine
    // counts them: the odds are of exactly these dice.
    if (attackParts && defenseParts) {
      var parts = ctx.el("p", "hs-odds-parts");
      parts.appendChild(ctx.el("span", null, "Attack dice: " + describe(attackParts)));
      parts.appendChild(ctx.el("span", null, "Defense dice: " + describe(defenseParts)));
      box.appendChild(parts);
    }
    // The whole distribution: how likely each number of wounds is.
    box.appendChild(ctx.el("p", "hs-odds-table", o.distribution.map(function (p, w) {
      return w + " " + (w === 1 ? "wound" : "wounds") + " " + (p * 100).toFixed(1) + "%";
    }).join(" · ")));
  }

  function liveOdds(ctx, dice, attackerId, special, targetId, height, chosen) {
    // The odds of the attack as the form stands, before it is declared: the dice are the engine's
    // (the turn player's private view lists them per choice), the chances computed here.
    var box = ctx.el("div", "hs-odds-live");
    var attacker = dice && dice.attackers[attackerId];
    var defender = dice && dice.defenders[targetId];
    var bySize = attacker && attacker.dice[special];
    if (!attacker || !defender || !bySize || !bySize[defender.size]) {
      box.appendChild(ctx.el("p", "hint", dice || ctx.seat() !== null ? "" : "Choose your seat (above) to see the odds before you declare."));
      return box;
    }
    var key = function (own) { return chosen.filter(function (c) { return own.indexOf(c) >= 0; }).sort().join("+"); };
    var mine = key(attacker.conditions);
    var theirs = key(defender.conditions);
    var attack = bySize[defender.size][height][mine];
    var defense = defender.dice[height][theirs];
    var attackParts = attacker.parts && attacker.parts[special][defender.size][height][mine];
    var defenseParts = defender.parts && defender.parts[height][theirs];
    oddsLines(ctx, box, woundOdds(attack, defense, dice.faces), attackParts, defenseParts);
    return box;
  }

  function odds(box, game) {
    var pending = game.pending_attack;
    if (!pending || !pending.odds) return;
    oddsLines(TableControl.ctx, box, pending.odds, pending.attack_parts, pending.defense_parts);
  }

  // --------------------------------------------------------------------------------- corrections

  function corrections(box, game, ctx) {
    var details = ctx.el("details", "card");
    details.open = !!form.fixOpen;
    details.ontoggle = function () { form.fixOpen = details.open; };
    details.appendChild(ctx.el("summary", null, "Correct wounds and figures"));
    var all = [];
    (game.players || []).forEach(function (p) { figures(game, p.seat, false).forEach(function (f) { all.push([f.id, p.name + ": " + f.label + " (" + f.unit.figures.filter(function (x) { return x.id === f.id; })[0].status + ")"]); }); });
    if (!all.length) return;
    details.appendChild(labelled(ctx, "Figure", select(ctx, "fix-fig", all)));
    var wounds = ctx.el("input");
    wounds.type = "number";
    wounds.min = 0;
    wounds.value = form.fixWounds || 0;
    wounds.oninput = function () { form.fixWounds = wounds.value; };
    details.appendChild(labelled(ctx, "Wound markers", wounds));
    var owner = function () { return parseInt(form["fix-fig"].split(":")[0], 10); };
    var row = ctx.el("div", "row");
    row.appendChild(button(ctx, "Set wounds", null, function () { ctx.act({ kind: "correct_wounds", player: owner(), figure: form["fix-fig"], wounds: parseInt(wounds.value, 10) || 0 }); }));
    row.appendChild(button(ctx, "On the battlefield", null, function () { ctx.act({ kind: "correct_status", player: owner(), figure: form["fix-fig"], status: "alive" }); }));
    row.appendChild(button(ctx, "Destroyed", "danger", function () { ctx.act({ kind: "correct_status", player: owner(), figure: form["fix-fig"], status: "destroyed" }); }));
    details.appendChild(row);
    box.appendChild(details);
  }

  TableControl.register("heroscape", {
    prompt: function (box, game, prompt, ctx) {
      if (!prompt) return false;
      if (prompt.kind === "order_markers") markers(box, game, prompt, ctx);
      else if (prompt.kind === "lose-marker") loseMarker(box, prompt, ctx);
      else if (prompt.kind === "army") army(box, game, prompt, ctx);
      else if (prompt.kind === "flood") flood(box, game, prompt, ctx);
      else if (prompt.kind === "attack_roll" || prompt.kind === "defense_roll") odds(box, game);
      else if (prompt.kind === "turn" && game.turn && !ctx.mayAct(game.turn.player)) {
        othersTurn(box, game, game.turn, ctx);
        return true; // none of the turn's choices are this phone's
      } else if (prompt.kind === "turn" && game.turn) {
        attackForm(box, game, game.turn, ctx);
        moreForms(box, game, game.turn, ctx);
      }
      return false;
    },
    panel: function (box, game, view, ctx) {
      var mine = ctx.el("section", "card");
      myMarkers(mine, ctx);
      declarations(mine, game, ctx);
      if (!game.finished) rolloffForm(mine, game, ctx);
      if (mine.children.length) box.appendChild(mine);
      if (!game.finished) corrections(box, game, ctx);
    },
  });
})();
