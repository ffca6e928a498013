// Shattered Chaos on the phone: the adventurer's own turn (move, interact, chaos call, skills) and attack
// with its odds before the throw (the chance each die reaches the distance as range, to stun, a critical,
// the damage expected); the three dice entered one colour per row; the map's answers an enemy's decision
// needs, in as few taps as the question allows; and the narrator's entries and corrections.
"use strict";

(function () {
  var COLOURS = ["yellow", "red", "blue"];
  var form = { distance: 1, cards: {}, seen: {}, faces: {} }; // kept across redraws (a view arrives after every input)

  function button(ctx, label, cls, onclick, id) {
    var b = ctx.el("button", cls, label);
    b.type = "button";
    if (id) b.id = id;
    b.onclick = onclick;
    return b;
  }

  function labelled(ctx, label, control) {
    var l = ctx.el("label", null, label);
    l.appendChild(control);
    return l;
  }

  function select(ctx, key, values, onchange, id) {
    var s = ctx.el("select");
    if (id) s.id = id;
    values.forEach(function (v) { ctx.option(s, v[0], v[1]); });
    if (values.some(function (v) { return v[0] === form[key]; })) s.value = form[key];
    form[key] = s.value;
    s.onchange = function () { form[key] = s.value; if (onchange) onchange(); };
    return s;
  }

  function pct(p) {
    // Never "100%" for what can still fail, nor "0%" for what can happen.
    var shown = Math.round(p * 100);
    if (shown === 100 && p < 1) return ">99%";
    if (shown === 0 && p > 0) return "<1%";
    return shown + "%";
  }

  // ------------------------------------------------------------------------------ odds (as odds.py)

  function vortexTotals(thrown, sources) {
    var totals = [thrown];
    sources.forEach(function (n) {
      var next = [];
      totals.forEach(function (t) { next.push(t + n, t, t - n); });
      totals = next;
    });
    var seen = {};
    return totals.map(function (t) { return Math.max(0, t); }).filter(function (t) {
      if (seen[t]) return false;
      seen[t] = true;
      return true;
    });
  }

  function attackOdds(game, distance, rangeBonus, damageBonus, vortexSources, armour, destruction) {
    // Every throw of the three dice, each read the way that does the most damage (odds.attack_odds).
    var dice = COLOURS.map(function (c) { return game.dice[c]; });
    var rules = game.rules;
    var total = dice[0].length * dice[1].length * dice[2].length;
    var out = { reach: 0, stun: 0, critical: 0, expected: 0, dieReach: [0, 0, 0] };
    dice[0].forEach(function (a) { dice[1].forEach(function (b) { dice[2].forEach(function (c) {
      var thrown = [a, b, c];
      var reaching = [];
      thrown.forEach(function (f, i) {
        if (f.eyes + rangeBonus >= distance) { reaching.push(i); out.dieReach[i] += 1 / total; }
      });
      if (!reaching.length) return;
      out.reach += 1 / total;
      var totals = vortexTotals(a.vortices + b.vortices + c.vortices, vortexSources);
      var most = Math.max.apply(null, totals);
      if (most >= rules.stun_vortices) out.stun += 1 / total;
      if (most >= rules.critical_vortices) out.critical += 1 / total;
      var best = 0;
      reaching.forEach(function (index) {
        var damage = damageBonus;
        thrown.forEach(function (f, i) { if (i !== index) damage += f.eyes; });
        totals.forEach(function (v) {
          var ignored = v >= rules.critical_vortices ? Math.min(armour, rules.critical_ignores_armour) : 0;
          var net = Math.max(0, damage - (armour - ignored)) + (destruction ? rules.destruction_damage : 0);
          if (net > best) best = net;
        });
      });
      out.expected += best / total;
    }); }); });
    return out;
  }

  // ------------------------------------------------------------------------------ the adventurer's turn

  function actingSeat(ctx, prompt) {
    var seat = ctx.seat();
    if (seat !== null) return seat;
    if (prompt.players.length === 1) return prompt.players[0];
    if (prompt.players.map(String).indexOf(form.actor) < 0) form.actor = String(prompt.players[0]);
    return parseInt(form.actor, 10);
  }

  function attackForm(box, game, hero, ctx, only) {
    // ``only``: the one enemy a reaction may attack (the one that attacked).
    var enemies = (game.enemies || []).filter(function (e) { return only === undefined || e.number === only; });
    var details = ctx.el("div", "sc-attack-form");
    details.appendChild(ctx.el("h3", null, only === undefined ? "Attack" : "React: attack it back"));
    if (!enemies.length) {
      details.appendChild(ctx.el("p", "hint", "No enemy on the board."));
      box.appendChild(details);
      return;
    }
    details.appendChild(labelled(ctx, "Enemy", select(ctx, "target", enemies.map(function (e) {
      return [String(e.number), e.name + " · " + e.lives + " lives" + (e.armour ? " · armour " + e.armour : "")];
    }), ctx.redraw, "sc-target")));
    var target = enemies.filter(function (e) { return String(e.number) === form.target; })[0] || enemies[0];
    var row = ctx.el("div", "sc-stepper");
    row.appendChild(ctx.el("span", null, "Spaces away"));
    row.appendChild(button(ctx, "−", "small", function () { form.distance = Math.max(1, form.distance - 1); ctx.redraw(); }));
    var shown = ctx.el("strong", "sc-distance", String(form.distance));
    shown.id = "sc-distance";
    row.appendChild(shown);
    row.appendChild(button(ctx, "+", "small", function () { form.distance = Math.min(30, form.distance + 1); ctx.redraw(); }, "sc-farther"));
    details.appendChild(row);
    var chosen = [];
    (hero.cards || []).forEach(function (card) {
      if (["range", "damage", "life", "vortex"].indexOf(card.bonus) < 0) return;
      var check = ctx.el("input");
      check.type = "checkbox";
      // A card laid on the discard pile at the table goes with this attack: ticked, and it stays so.
      check.checked = card.laid || !!form.cards[card.id];
      check.disabled = !!card.laid;
      check.onchange = function () { form.cards[card.id] = check.checked; ctx.redraw(); };
      var l = ctx.el("label", "check", card.laid ? card.title + " (laid on the discard pile)" : "Discard " + card.title);
      l.insertBefore(check, l.firstChild);
      details.appendChild(l);
      if (check.checked) chosen.push(card);
    });
    var destruction = false;
    if (hero.destruction) {
      var token = ctx.el("input");
      token.type = "checkbox";
      token.checked = !!form.destruction;
      token.onchange = function () { form.destruction = token.checked; ctx.redraw(); };
      var tl = ctx.el("label", "check", "Use the destruction token");
      tl.insertBefore(token, tl.firstChild);
      details.appendChild(tl);
      destruction = token.checked;
    }
    var bonus = { range: hero.attack.range, damage: hero.attack.damage };
    var sources = hero.attack.vortex.slice();
    chosen.forEach(function (c) {
      if (c.bonus === "vortex") sources.push(c.amount);
      else if (bonus[c.bonus] !== undefined) bonus[c.bonus] += c.amount;
    });
    var marked = (target.conditions || []).some(function (c) { return c.kind === "destruction"; });
    var odds = attackOdds(game, form.distance, bonus.range, bonus.damage, sources, target.armour, marked);
    var oddsBox = ctx.el("div", "sc-odds");
    oddsBox.id = "sc-odds";
    oddsBox.appendChild(ctx.el("p", "sc-odds-main", "Reaches " + form.distance + (form.distance === 1 ? " space: " : " spaces: ") + pct(odds.reach) +
      " · stuns " + pct(odds.stun) + " · critical " + pct(odds.critical)));
    oddsBox.appendChild(ctx.el("p", "sc-odds-main", "Damage expected: " + odds.expected.toFixed(1) + " (after armour " + target.armour + ")"));
    oddsBox.appendChild(ctx.el("p", "hint", "As range: " + COLOURS.map(function (c, i) { return c + " " + pct(odds.dieReach[i]); }).join(" · ") +
      ". You choose the range die after the throw; the other two are the damage."));
    details.appendChild(oddsBox);
    details.appendChild(button(ctx, "Attack " + target.name, "primary", function () {
      var cards = chosen.map(function (c) { return c.id; });
      ctx.act({ kind: "attack", player: hero.seat, model: target.number, distance: form.distance, cards: cards, destruction: destruction })
        .then(function (answer) { if (answer && answer.accepted) { form.cards = {}; form.destruction = false; } });
    }, "sc-attack"));
    box.appendChild(details);
  }

  function skills(box, game, hero, ctx) {
    var more = ctx.el("details", "sc-more");
    more.open = !!form.skillsOpen;
    more.ontoggle = function () { form.skillsOpen = more.open; };
    more.appendChild(ctx.el("summary", null, "Before an action: steps, chaos tokens, cards"));
    var can = game.skills || [];
    if (!hero.shadow && can.indexOf("chaos-step") >= 0 && hero.chaos_tokens) {
      var steps = ctx.el("div", "row");
      steps.appendChild(ctx.el("span", null, "Chaos steps:"));
      for (var n = 1; n <= Math.min(hero.chaos_tokens, 4 - hero.chaos_steps); n++) {
        (function (count) {
          steps.appendChild(button(ctx, String(count), "small", function () { ctx.act({ kind: "chaos_step", player: hero.seat, steps: count }); }));
        })(n);
      }
      more.appendChild(steps);
    }
    if (hero.talents.some(function (t) { return /step/.test(t.title); }) && !hero.stepped) {
      more.appendChild(button(ctx, "Talent: one step", null, function () { ctx.act({ kind: "talent_step", player: hero.seat }); }));
    }
    (hero.cards || []).forEach(function (card) {
      if (card.bonus === "step") more.appendChild(button(ctx, "Discard " + card.title + " to step", null, function () { ctx.act({ kind: "step_card", player: hero.seat, card: card.id }); }));
      more.appendChild(button(ctx, "Discard " + card.title + " for a chaos token", "small", function () { ctx.act({ kind: "discard_card", player: hero.seat, card: card.id }); }));
    });
    if (!hero.shadow && game.map_chaos && hero.chaos_tokens < game.rules.ledger_tokens) {
      var pick = ctx.el("div", "row");
      pick.appendChild(ctx.el("span", null, "Pick up chaos tokens:"));
      for (var k = 1; k <= Math.min(game.map_chaos, game.rules.ledger_tokens - hero.chaos_tokens); k++) {
        (function (count) {
          pick.appendChild(button(ctx, String(count), "small", function () { ctx.act({ kind: "pick_up", player: hero.seat, tokens: count }); }));
        })(k);
      }
      more.appendChild(pick);
    }
    if (!hero.shadow && can.indexOf("destroy") >= 0 && !hero.destruction) {
      more.appendChild(button(ctx, "Destroy: a destruction token for 2 chaos tokens", null, function () { ctx.act({ kind: "destroy", player: hero.seat }); }));
    }
    box.appendChild(more);
  }

  function adventurerTurn(box, game, prompt, ctx) {
    var seat = actingSeat(ctx, prompt);
    if (ctx.seat() === null && prompt.players.length > 1) {
      box.appendChild(labelled(ctx, "Who acts", select(ctx, "actor", prompt.players.map(function (s) {
        var p = game.players[s];
        return [String(s), p.adventurer + " (" + p.name + ")"];
      }), ctx.redraw, "sc-actor")));
    }
    var hero = game.players[seat];
    if (!hero || !hero.actions) {
      box.appendChild(ctx.el("p", "hint", (hero ? hero.adventurer : "Your adventurer") + " has no action token left: the others act."));
      return;
    }
    box.appendChild(ctx.el("h3", null, hero.adventurer + " · " + hero.actions + (hero.actions === 1 ? " action token" : " action tokens") + " · chaos " + hero.chaos));
    var row = ctx.el("div", "row sc-actions");
    row.appendChild(button(ctx, "Move", "primary", function () { ctx.act({ kind: "move", player: seat }); }, "sc-move"));
    row.appendChild(button(ctx, "Call on CHAOS", null, function () { ctx.act({ kind: "chaos_call", player: seat }); }, "sc-chaos-call"));
    box.appendChild(row);
    var interact = ctx.el("div", "row");
    var number = ctx.el("input");
    number.type = "text";
    number.maxLength = 4;
    number.placeholder = "number on the token's back";
    number.value = form.token || "";
    number.oninput = function () { form.token = number.value; };
    interact.appendChild(number);
    interact.appendChild(button(ctx, "Interact", null, function () { ctx.act({ kind: "interact", player: seat, card: (form.token || "").trim() }); form.token = ""; }));
    box.appendChild(interact);
    attackForm(box, game, hero, ctx);
    skills(box, game, hero, ctx);
  }

  // ------------------------------------------------------------------------------ the map's answers

  function sighting(box, game, prompt, ctx) {
    var q = game.question;
    var key = q.model + ":" + q.asking + ":" + q.action;
    if (form.seenKey !== key) { form.seenKey = key; form.seen = {}; }
    box.appendChild(ctx.el("p", "hint", "Tap each adventurer that fits, highest chaos first; then confirm."));
    var list = ctx.el("div", "sc-sight");
    q.candidates.forEach(function (seat) {
      var p = game.players[seat];
      var on = !!form.seen[seat];
      list.appendChild(button(ctx, p.adventurer + " · chaos " + q.chaos[String(seat)] + (on ? " ✓" : ""), on ? "primary" : null, function () {
        form.seen[seat] = !form.seen[seat];
        ctx.redraw();
      }, "sc-seen-" + seat));
    });
    box.appendChild(list);
    var picked = q.candidates.filter(function (s) { return form.seen[s]; });
    var row = ctx.el("div", "row");
    row.appendChild(button(ctx, picked.length ? "Confirm (" + picked.length + ")" : "None of them", "primary", function () {
      ctx.act({ kind: "sighted", model: q.model, adventurers: picked });
    }, "sc-sighted"));
    box.appendChild(row);
  }

  // ------------------------------------------------------------------------------ dice

  function diceColours(game, prompt) {
    if (prompt.kind === "throw") return COLOURS.slice();
    if (prompt.kind === "rethrow" && game.attack) return game.attack.rethrow.slice();
    if (prompt.kind === "enemy-throw" && game.enemy_attack) return game.enemy_attack.dice.slice();
    return [];
  }

  function faceButton(ctx, face, on, onclick) {
    // The eyes, and a drawn ring per vortex (no font has to carry a vortex sign).
    var b = button(ctx, String(face.eyes), "sc-face-button" + (on ? " is-on" : ""), onclick);
    b.dataset.face = face.symbol;
    for (var v = 0; v < face.vortices; v++) b.appendChild(ctx.el("span", "sc-ring"));
    return b;
  }

  function rolls(box, game, prompt, ctx) {
    var colours = diceColours(game, prompt);
    // Another adventurer's throw on a phone that plays a seat: the frame says who throws. The enemy's
    // throw (roll.anyone) is any phone's.
    if (!colours.length || !ctx.mayRoll(prompt.players[0], prompt.roll)) return false;
    var key = prompt.kind + ":" + prompt.text;
    if (form.facesKey !== key) { form.facesKey = key; form.faces = {}; }
    box.appendChild(ctx.el("h3", null, prompt.kind === "enemy-throw" ? "The enemy's dice (a ring: a vortex)" : "Your throw (a ring: a vortex)"));
    colours.forEach(function (colour, i) {
      var row = ctx.el("div", "sc-die-row sc-die-" + colour);
      row.appendChild(ctx.el("span", "sc-die-name", colour));
      game.dice[colour].forEach(function (face) {
        var on = form.faces[i] === face.symbol;
        row.appendChild(faceButton(ctx, face, on, function () {
          form.faces[i] = face.symbol;
          ctx.redraw();
        }));
      });
      box.appendChild(row);
    });
    var faces = colours.map(function (_, i) { return form.faces[i]; });
    var ready = faces.every(function (f) { return !!f; });
    var go = button(ctx, "Enter the throw", "primary", function () {
      ctx.act({ kind: "roll", player: prompt.players[0], die: prompt.roll.die, faces: faces });
    }, "sc-enter-throw");
    go.disabled = !ready;
    box.appendChild(go);
    return true;
  }

  // ------------------------------------------------------------------------------ campaign box

  function campaignBox(box, game, ctx) {
    var row = ctx.el("div", "row");
    var value = select(ctx, "keepValue", [["s", "silver"], ["g", "gold"]]);
    var number = ctx.el("input");
    number.type = "number";
    number.min = 1;
    number.max = 36;
    number.value = form.keepNumber || 1;
    number.oninput = function () { form.keepNumber = number.value; };
    row.appendChild(value);
    row.appendChild(number);
    row.appendChild(button(ctx, "Keep this card", "primary", function () {
      ctx.act({ kind: "keep_card", card: form.keepValue + String(parseInt(number.value, 10) || 1) });
    }));
    box.appendChild(row);
    if (game.campaign) box.appendChild(ctx.el("p", "hint sc-log", "Campaign log (paste it into the next adventure): " + game.campaign));
  }

  // ------------------------------------------------------------------------------ table tools

  function tools(box, game, view, ctx) {
    if (game.finished) {
      if (game.campaign) box.appendChild(ctx.el("p", "hint sc-log", "Campaign log: " + game.campaign));
      return;
    }
    var more = ctx.el("details", "sc-more");
    more.open = !!form.toolsOpen;
    more.ontoggle = function () { form.toolsOpen = more.open; };
    more.appendChild(ctx.el("summary", null, "Narrator and corrections"));
    var place = ctx.el("div", "row");
    place.appendChild(select(ctx, "place", (game.placeable || []).map(function (m) { return [String(m.number), m.name]; }), null, "sc-place-model"));
    place.appendChild(button(ctx, "Place enemy", null, function () { ctx.act({ kind: "place_enemy", model: parseInt(form.place, 10) }); }, "sc-place"));
    more.appendChild(place);
    (game.enemies || []).forEach(function (e) {
      var row = ctx.el("div", "row");
      row.appendChild(ctx.el("span", null, e.name));
      row.appendChild(button(ctx, "−1 life", "small", function () { ctx.act({ kind: "set_lives", model: e.number, lives: e.lives - 1 }); }));
      row.appendChild(button(ctx, "killed", "small", function () { ctx.act({ kind: "set_lives", model: e.number, lives: 0 }); }));
      row.appendChild(button(ctx, "taken off", "small", function () { ctx.act({ kind: "remove_enemy", model: e.number }); }));
      more.appendChild(row);
    });
    var tokens = ctx.el("div", "row");
    tokens.appendChild(ctx.el("span", null, "Chaos tokens placed on the map:"));
    [1, 2, 3].forEach(function (n) {
      tokens.appendChild(button(ctx, "+" + n, "small", function () { ctx.act({ kind: "place_chaos", tokens: n }); }));
    });
    more.appendChild(tokens);
    (game.narrator || []).forEach(function (stack) {
      if (stack.current) more.appendChild(button(ctx, "Narrator " + stack.current + " read", null, function () { ctx.act({ kind: "read_narrator", card: stack.current }); }));
    });
    game.players.forEach(function (p) {
      var row = ctx.el("div", "row");
      row.appendChild(ctx.el("span", null, p.adventurer + ": life " + p.life));
      row.appendChild(button(ctx, "−1", "small", function () { ctx.act({ kind: "set_life", player: p.seat, life: Math.max(0, p.life - 1) }); }));
      row.appendChild(button(ctx, "+1", "small", function () { ctx.act({ kind: "set_life", player: p.seat, life: p.life + 1 }); }));
      row.appendChild(ctx.el("span", null, "chaos tokens " + p.chaos_tokens));
      row.appendChild(button(ctx, "−1", "small", function () { ctx.act({ kind: "set_chaos", player: p.seat, tokens: Math.max(0, p.chaos_tokens - 1) }); }));
      row.appendChild(button(ctx, "+1", "small", function () { ctx.act({ kind: "set_chaos", player: p.seat, tokens: p.chaos_tokens + 1 }); }));
      more.appendChild(row);
    });
    var end = ctx.el("div", "row");
    end.appendChild(button(ctx, "Adventure won", null, function () { if (confirm("The narrator cards say the adventure is won?")) ctx.act({ kind: "end_adventure", outcome: "won" }); }));
    end.appendChild(button(ctx, "Adventure lost", null, function () { if (confirm("Give up this adventure?")) ctx.act({ kind: "end_adventure", outcome: "lost" }); }));
    more.appendChild(end);
    box.appendChild(more);
  }

  function decision(box, game, ctx) {
    // What the enemy does, on every phone: the table moves the model as it says.
    if (game.decision && (game.phase === "enemies" || game.acting_enemy || game.enemy_attack)) {
      var d = ctx.el("div", "sc-decision-box");
      d.appendChild(ctx.el("strong", null, game.decision.text));
      if (game.decision.instruction) d.appendChild(ctx.el("p", "hint", game.decision.instruction));
      box.appendChild(d);
    }
  }

  TableControl.register("shattered-chaos", {
    prompt: function (box, game, prompt, ctx) {
      if (!prompt) return false;
      decision(box, game, ctx);
      if (prompt.kind === "adventurers") { adventurerTurn(box, game, prompt, ctx); return true; }
      if (["enemy-sight", "enemy-reach", "enemy-within"].indexOf(prompt.kind) >= 0 && game.question) { sighting(box, game, prompt, ctx); return true; }
      if (prompt.kind === "react" && game.enemy_attack) {
        var hero = game.players[prompt.players[0]];
        attackForm(box, game, hero, ctx, game.enemy_attack.model);
        box.appendChild(button(ctx, "No reaction", null, function () { ctx.act({ kind: "decline_reaction", player: hero.seat }); }, "sc-no-reaction"));
        return true;
      }
      if (prompt.kind === "campaign") campaignBox(box, game, ctx);
      return false;
    },
    rolls: rolls,
    panel: tools,
  });
})();
