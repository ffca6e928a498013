// ORCWARS TOO! on the phone: the secret strategy (only on the side's own phone), what was drawn from the
// tribe cup, the setup, a leader's orders (move, levy, attack, leave troops, build, go underground), spies,
// rampage, the discard, trades, the damage assignment with live totals, and dice entered as numbers.
// Draws, discards, trade offers and strategies are secret: the phone must play its seat (the seat bar).
"use strict";

(function () {
  var form = {}; // choices kept across redraws (a view arrives after every input)
  var SAID = { charge: "Mindless Charge", careful: "Careful Advance", clever: "Clever Strategy", flee: "Flee" };
  var STRATS = ["charge", "careful", "clever"];
  var SHORT = { charge: "Charge", careful: "Careful", clever: "Clever" };
  var DRAW_GROUPS = [[["leader"], "Leaders (authority)"], [["troop"], "Troops (power)"], [["war-machine"], "War machines (power)"],
    [["shaman", "spy"], "Shamans and spies"]];

  function button(ctx, text, cls, onclick, id) {
    var b = ctx.el("button", cls, text);
    b.type = "button";
    if (id) b.id = id;
    b.onclick = onclick;
    return b;
  }

  function labelled(ctx, text, control) {
    var l = ctx.el("label", null, text);
    l.appendChild(control);
    return l;
  }

  function select(ctx, key, values, onchange) {
    // values: [[value, label]]; the chosen value lives in form[key].
    var s = ctx.el("select");
    s.id = "ow-" + key;
    values.forEach(function (v) { ctx.option(s, v[0], v[1]); });
    if (form[key] !== undefined && values.some(function (v) { return v[0] === form[key]; })) s.value = form[key];
    form[key] = s.value;
    s.onchange = function () { form[key] = s.value; if (onchange) onchange(); };
    return s;
  }

  function picks(key) {
    if (!form[key]) form[key] = {};
    return form[key];
  }

  function chipList(ctx, key, chips, onchange) {
    // Checkboxes over chips ([{id, name, power}]); the ticked ids live in form[key].
    var chosen = picks(key);
    var box = ctx.el("div", "ow-chips");
    chips.forEach(function (c) {
      var l = ctx.el("label", "check ow-chip");
      var input = ctx.el("input");
      input.type = "checkbox";
      input.checked = !!chosen[c.id];
      input.dataset.chip = c.id;
      input.onchange = function () { chosen[c.id] = input.checked; if (onchange) onchange(); };
      l.appendChild(input);
      l.appendChild(document.createTextNode(c.name + (c.power ? " (" + c.power + ")" : "")));
      box.appendChild(l);
    });
    return box;
  }

  function ticked(key, chips) {
    var chosen = picks(key);
    return chips.filter(function (c) { return chosen[c.id]; }).map(function (c) { return c.id; });
  }

  function hint(ctx, box, text) { box.appendChild(ctx.el("p", "hint", text)); }

  function mine(game, seat) {
    return (game.players || []).filter(function (p) { return p.seat === seat; })[0] || null;
  }

  function needSeat(ctx, box, what) {
    var seat = ctx.seat();
    if (seat === null) hint(ctx, box, "Choose which player this phone plays (above): " + what + " in secret, each on its own phone.");
    return seat;
  }

  function territories(game) { return game.territories || []; }

  function territoryName(game, id) {
    var t = territories(game).filter(function (x) { return x.id === id; })[0];
    return t ? t.name : id;
  }

  // ------------------------------------------------------------------------------------ draws

  function drawForm(ctx, box, seat, owed, title) {
    var secret = ctx.privateView();
    var drawable = (secret && secret.drawable) || [];
    var key = "draw" + seat;
    if (!form[key]) form[key] = [];
    var picked = form[key];
    box.appendChild(ctx.el("h3", null, title || "What did you draw? (" + owed + ")"));
    var chosen = ctx.el("p", "ow-picked", picked.length ? picked.map(function (t) { return nameOf(drawable, t); }).join(", ") : "Tap each chip you drew");
    box.appendChild(chosen);
    // Grouped as the chips look (a leader's face, a troop's, the rest), each group in name order, so the
    // chip in the hand is found at a glance among the box's forty-odd kinds.
    DRAW_GROUPS.forEach(function (group) {
      var kinds = group[0];
      var these = drawable.filter(function (d) { return kinds.indexOf(d.kind) >= 0; });
      if (!these.length) return;
      box.appendChild(ctx.el("p", "ow-draw-group", group[1]));
      var grid = ctx.el("div", "ow-grid");
      these.forEach(function (d) {
        var left = d.left - picked.filter(function (t) { return t === d.type; }).length;
        var b = button(ctx, d.name + (d.power && d.kind !== "shaman" && d.kind !== "spy" ? " " + d.power : ""), "small", function () {
          if (picked.length < owed) { picked.push(d.type); ctx.redraw(); }
        });
        b.appendChild(ctx.el("span", "ow-left", left + " left"));
        b.disabled = left <= 0 || picked.length >= owed;
        grid.appendChild(b);
      });
      box.appendChild(grid);
    });
    var row = ctx.el("div", "row");
    row.appendChild(button(ctx, "Clear", "small", function () { form[key] = []; ctx.redraw(); }));
    var go = button(ctx, "Enter " + picked.length + " drawn", "primary", function () {
      var sent = picked.slice();
      form[key] = [];
      ctx.act({ kind: "draw", player: seat, counters: sent });
    }, "ow-draw");
    go.disabled = !picked.length;
    row.appendChild(go);
    box.appendChild(row);
  }

  function nameOf(drawable, type) {
    var d = drawable.filter(function (x) { return x.type === type; })[0];
    return d ? d.name : type;
  }

  // ------------------------------------------------------------------------------------ setup

  function setup(box, game, prompt, ctx) {
    var seat = needSeat(ctx, box, "bosses and draws are taken");
    if (seat === null) return;
    var me = mine(game, seat);
    var secret = ctx.privateView() || {};
    if (!me || me.setup === "ready") { hint(ctx, box, "Ready. Waiting for the others…"); return; }
    if (me.setup === "bosses") {
      var leaders = (secret.drawable || []).filter(function (d) { return d.kind === "leader"; });
      box.appendChild(ctx.el("h3", null, "Your bosses (1 or 2 leaders)"));
      box.appendChild(chipList(ctx, "bosses", leaders));
      box.appendChild(button(ctx, "Take these bosses", "primary", function () {
        ctx.act({ kind: "take_bosses", player: seat, leaders: ticked("bosses", leaders) });
      }, "ow-bosses"));
      return;
    }
    if (me.draws_owed) { drawForm(ctx, box, seat, me.draws_owed); return; }
    var units = (secret.hand || []).filter(function (c) { return c.kind !== "leader"; });
    box.appendChild(ctx.el("h3", null, "Trade units for gold (one for one)"));
    box.appendChild(chipList(ctx, "trade", units));
    var row = ctx.el("div", "row");
    row.appendChild(button(ctx, "Trade for gold", null, function () {
      ctx.act({ kind: "trade_for_gold", player: seat, counters: ticked("trade", units) });
    }));
    row.appendChild(button(ctx, "I am ready", "primary", function () { ctx.act({ kind: "done", player: seat }); }, "ow-ready"));
    box.appendChild(row);
  }

  // ---------------------------------------------------------------------------------- strategy

  function strategy(box, game, prompt, ctx) {
    var seat = needSeat(ctx, box, "strategies are chosen");
    if (seat === null) return;
    var secret = ctx.privateView() || {};
    if (prompt.players.indexOf(seat) < 0) {
      hint(ctx, box, secret.strategy ? "You chose " + SAID[secret.strategy] + ". Waiting for the other side…" : "The other side is choosing…");
      return;
    }
    var battle = game.battle || {};
    var side = battle.attacker && battle.attacker.owner === seat ? battle.attacker : battle.defender;
    var other = side === battle.attacker ? battle.defender : battle.attacker;
    if (other && other.proposed) hint(ctx, box, "Your shaman saw them choose " + other.proposed_name + ".");
    var options = prompt.choices.filter(function (c) { return c.action.player === seat; });
    var grid = ctx.el("div", "ow-strategies");
    options.forEach(function (c) {
      var s = c.action.strategy;
      grid.appendChild(button(ctx, SAID[s], "ow-strategy ow-strategy-" + s, function () { ctx.act(c.action); }, "ow-strategy-" + s));
    });
    box.appendChild(grid);
    hint(ctx, box, "Secret until both sides have chosen: the TV shows both together.");
    if (battle.chart && side && other) chart(box, battle, side === battle.attacker, other, ctx);
  }

  // The ratio table worked out at both sides' powers, from this chief's side: what he takes and what he
  // deals for each pair of strategies (a failed leadership check or a stupid troll changes it later).
  function chart(box, battle, attacking, other, ctx) {
    var side = attacking ? battle.attacker : battle.defender;
    box.appendChild(ctx.el("h3", "ow-chart-title", "Battle in " + battle.territory_name + ": your power " + side.power +
      " against " + other.power + (battle.table === "fortress" ? " · fortress table (walls " + battle.fortress + ")" : " · field table")));
    var table = ctx.el("table", "ow-chart");
    var head = ctx.el("tr");
    head.appendChild(ctx.el("th", null, "you ↓ they →"));
    STRATS.forEach(function (s) {
      head.appendChild(ctx.el("th", other.proposed === s ? "ow-chart-seen" : null, SHORT[s]));
    });
    table.appendChild(head);
    STRATS.forEach(function (mineS) {
      var row = ctx.el("tr");
      row.appendChild(ctx.el("th", null, SHORT[mineS]));
      STRATS.forEach(function (theirs) {
        var cell = battle.chart.filter(function (c) {
          return attacking ? c.attacker === mineS && c.defender === theirs : c.attacker === theirs && c.defender === mineS;
        })[0];
        var take = attacking ? cell.damage_to_attacker : cell.damage_to_defender;
        var deal = attacking ? cell.damage_to_defender : cell.damage_to_attacker;
        var hackedMe = attacking ? cell.attacker_hacked : cell.defender_hacked;
        var hackedThem = attacking ? cell.defender_hacked : cell.attacker_hacked;
        var td = ctx.el("td", other.proposed === theirs ? "ow-chart-seen" : null);
        td.appendChild(ctx.el("span", "ow-chart-take", "−" + take + (hackedMe ? "★" : "")));
        td.appendChild(ctx.el("span", "ow-chart-deal", deal + (hackedThem ? "★" : "")));
        row.appendChild(td);
      });
      table.appendChild(row);
    });
    box.appendChild(table);
    hint(ctx, box, "Each cell: the damage you take (red), then the damage you deal; ★ leaders hacked to pieces." +
      (battle.table === "fortress" ? " The walls' absorption is counted in." : ""));
  }

  // ------------------------------------------------------------------------------------ assign

  function assign(box, game, prompt, ctx) {
    // Both chiefs may assign at once, each on his own phone; a phone with no seat assigns for either.
    var battle = game.battle;
    if (!battle || !battle.damage) return false;
    var mineSeat = ctx.seat();
    var seats = prompt.players.filter(function (s) { return mineSeat === null || s === mineSeat; });
    if (!seats.length) { hint(ctx, box, "The other side assigns its damage…"); return true; }
    seats.forEach(function (seat) { assignFor(box, game, prompt, ctx, seat); });
    return true;
  }

  function assignFor(box, game, prompt, ctx, seat) {
    var battle = game.battle;
    var name = battle.attacker.owner === seat ? "attacker" : "defender";
    var side = battle[name];
    var total = name === "attacker" ? battle.damage.damage_to_attacker : battle.damage.damage_to_defender;
    var units = side.leaders.map(function (l) { return { id: l.id, name: l.name, power: l.authority }; })
      .concat(side.units.filter(function (u) { return !u.stupid; }).map(function (u) { return { id: u.id, name: u.name, power: u.power }; }));
    var key = "assign" + name + total + units.map(function (u) { return u.id; }).join();
    var shares = picks(key);
    var sum = units.reduce(function (n, u) { return n + (shares[u.id] || 0); }, 0);
    box.appendChild(ctx.el("h3", null, ctx.playerName(seat) + ": " + sum + " of " + total + " damage assigned"));
    units.forEach(function (u) {
      var row = ctx.el("div", "ow-assign-row");
      row.appendChild(ctx.el("span", "ow-assign-name", u.name + " (" + u.power + ")"));
      var minus = button(ctx, "−", "small", function () { if (shares[u.id] > 0) { shares[u.id]--; ctx.redraw(); } });
      var plus = button(ctx, "+", "small", function () {
        if ((shares[u.id] || 0) < u.power && sum < total) { shares[u.id] = (shares[u.id] || 0) + 1; ctx.redraw(); }
      });
      plus.disabled = (shares[u.id] || 0) >= u.power || sum >= total;
      minus.disabled = !shares[u.id];
      row.appendChild(minus);
      row.appendChild(ctx.el("strong", "ow-assign-n", String(shares[u.id] || 0)));
      row.appendChild(plus);
      box.appendChild(row);
    });
    var damaged = units.filter(function (u) { return shares[u.id] > 0 && shares[u.id] + 1 < u.power; });
    box.appendChild(labelled(ctx, "One damaged unit rolls to survive", select(ctx, "survivor" + key,
      [["", "none"]].concat(damaged.map(function (u) { return [u.id, u.name + " (survives on d6 ≤ " + (u.power - shares[u.id] - 1) + ")"]; })))));
    var go = button(ctx, "Assign the damage", "primary", function () {
      var damage = units.filter(function (u) { return shares[u.id] > 0; }).map(function (u) { return [u.id, shares[u.id]]; });
      ctx.act({ kind: "assign_damage", player: seat, damage: damage, survivor: form["survivor" + key] || "" });
    }, "ow-assign-" + seat);
    go.disabled = sum !== total;
    box.appendChild(go);
    var quick = ctx.el("div", "row");
    prompt.choices.filter(function (c) { return c.action.player === seat; }).forEach(function (c) {
      quick.appendChild(button(ctx, c.label, "small", function () { ctx.act(c.action); }));
    });
    box.appendChild(quick);
  }

  // ---------------------------------------------------------------------------------- campaign

  function handChips(ctx, kinds) {
    var secret = ctx.privateView() || {};
    return (secret.hand || []).filter(function (c) { return kinds.indexOf(c.kind) >= 0; });
  }

  function armyCard(box, game, ctx, seat, army, alone) {
    var details = ctx.el("details", "ow-army-card");
    details.open = form.open === army.leader || (alone && form.open === undefined); // a lone leader's orders at once
    details.ontoggle = function () { if (details.open) form.open = army.leader; };
    var did = ["moved", "attacked", "levied"].filter(function (k) { return army[k]; });
    details.appendChild(ctx.el("summary", null, army.name + " · " + army.territory_name + " · power " + army.power +
      (did.length ? " · " + did.join(", ") : "")));
    var here = territories(game).filter(function (t) { return t.id === army.territory; })[0] || { armies: [], neutral: [], caravans: [] };
    var other = territories(game).filter(function (t) { return t.id !== army.territory && (!t.adjacent || !here.adjacent || here.adjacent.indexOf(t.id) >= 0); });
    var places = other.map(function (t) { return [t.id, t.name + (t.kind === "outland" ? " (outland)" : "")]; });
    if (!army.moved && !army.lost) {
      var row = ctx.el("div", "row");
      row.appendChild(select(ctx, "to" + army.leader, places));
      if (!army.units.length) row.appendChild(select(ctx, "via" + army.leader, [["", "straight there"]].concat(places.map(function (p) { return [p[0], "by " + p[1]]; }))));
      row.appendChild(button(ctx, "Move", "primary", function () {
        ctx.act({ kind: "move", player: seat, leader: army.leader, to: form["to" + army.leader], via: form["via" + army.leader] || "" });
      }));
      details.appendChild(row);
    }
    var targets = [];
    (game.players || []).forEach(function (p) {
      if (p.seat === seat) return;
      var there = p.armies.some(function (a) { return a.territory === army.territory; }) || p.garrisons.some(function (g) { return g.territory === army.territory; });
      if (there) targets.push(["seat:" + p.seat, "Attack " + p.name]);
    });
    if (here.neutral.length) targets.push(["neutral", "Attack the neutral troops"]);
    (here.caravans || []).forEach(function (c) { targets.push([c, "Attack the " + (game.caravans.filter(function (x) { return x.chip === c; })[0] || { name: c }).name]); });
    var attacks = ctx.el("div", "row");
    targets.forEach(function (t) { attacks.appendChild(button(ctx, t[1], null, function () { ctx.act({ kind: "attack", player: seat, leader: army.leader, target: t[0] }); })); });
    details.appendChild(attacks);
    var levied = handChips(ctx, ["troop", "war-machine", "shaman"]);
    var open = game.levy && game.levy.leader === army.leader; // chips laid one at a time join his levy
    if ((!army.levied || open) && (levied.length || here.neutral.length)) {
      details.appendChild(ctx.el("h3", null, open ? "Levy more (the same levy: one check)" : "Levy"));
      details.appendChild(chipList(ctx, "levy" + army.leader, levied));
      if (here.neutral.length) details.appendChild(chipList(ctx, "neutrals" + army.leader, [{ id: "all", name: "all " + here.neutral.length + " neutral troops here" }]));
      details.appendChild(button(ctx, "Levy", null, function () {
        ctx.act({ kind: "levy", player: seat, leader: army.leader, counters: ticked("levy" + army.leader, levied), neutrals: !!picks("neutrals" + army.leader).all });
      }));
    }
    if (army.units.length) {
      details.appendChild(ctx.el("h3", null, "Leave behind"));
      details.appendChild(chipList(ctx, "leave" + army.leader, army.units));
      details.appendChild(button(ctx, "Leave these here", null, function () {
        ctx.act({ kind: "leave_behind", player: seat, leader: army.leader, units: ticked("leave" + army.leader, army.units) });
      }));
    }
    var more = ctx.el("div", "row");
    more.appendChild(button(ctx, "Claim troops here", "small", function () { ctx.act({ kind: "claim", player: seat, leader: army.leader }); }));
    if (!army.moved) more.appendChild(button(ctx, "Go underground", "small", function () { ctx.act({ kind: "underground", player: seat, leader: army.leader }); }));
    more.appendChild(button(ctx, "Build a mine", "small", function () { ctx.act({ kind: "build_mine", player: seat, leader: army.leader }); }));
    details.appendChild(more);
    if (!army.moved && army.units.length) {
      var fort = ctx.el("div", "row");
      fort.appendChild(select(ctx, "fort" + army.leader, (game.fortress_ratings || []).map(function (r) { return [String(r), "Fortress " + r + " (" + r + " gold)"]; })));
      fort.appendChild(button(ctx, "Build", "small", function () {
        ctx.act({ kind: "build_fortress", player: seat, leader: army.leader, rating: parseInt(form["fort" + army.leader], 10) });
      }));
      details.appendChild(fort);
    }
    box.appendChild(details);
  }

  function campaign(box, game, prompt, ctx) {
    var seat = prompt.players[0];
    var me = mine(game, seat);
    if (!me) return;
    var standing = me.armies.filter(function (a) { return !a.lost; });
    standing.forEach(function (a) { armyCard(box, game, ctx, seat, a, standing.length === 1); });
    var leaders = handChips(ctx, ["leader"]);
    if (ctx.seat() === seat && leaders.length) {
      var levy = ctx.el("details", "ow-army-card");
      levy.appendChild(ctx.el("summary", null, "Levy a leader from your hand"));
      levy.appendChild(select(ctx, "newleader", leaders.map(function (l) { return [l.id, l.name + " (home: " + territoryName(game, l.native) + ")"]; })));
      var chips = handChips(ctx, ["troop", "war-machine", "shaman"]);
      levy.appendChild(chipList(ctx, "newlevy", chips));
      levy.appendChild(button(ctx, "Levy him at home", "primary", function () {
        ctx.act({ kind: "levy", player: seat, leader: form.newleader, counters: ticked("newlevy", chips) });
      }));
      box.appendChild(levy);
    }
    var spies = handChips(ctx, ["spy"]);
    if (ctx.seat() === seat && spies.length) {
      var spy = ctx.el("details", "ow-army-card");
      spy.appendChild(ctx.el("summary", null, "Use a spy"));
      spy.appendChild(select(ctx, "spyuse", (game.spy_uses || []).map(function (u) { return [u.id, u.label]; })));
      spy.appendChild(select(ctx, "spytarget", (game.players || []).filter(function (p) { return p.seat !== seat; }).map(function (p) { return [String(p.seat), p.name]; })));
      spy.appendChild(button(ctx, "Use the spy", null, function () {
        ctx.act({ kind: "use_spy", player: seat, spy: spies[0].id, use: form.spyuse, target: parseInt(form.spytarget, 10) });
      }));
      box.appendChild(spy);
    }
    if (ctx.seat() !== seat) hint(ctx, box, "Claim " + ctx.playerName(seat) + "'s seat to levy from the hand and use spies.");
    box.appendChild(button(ctx, "Done with my leaders", "primary", function () { ctx.act({ kind: "done", player: seat }); }, "ow-done"));
  }

  function rampage(box, game, prompt, ctx) {
    var seat = prompt.players[0];
    var me = mine(game, seat);
    if (!me) return;
    me.armies.forEach(function (a) {
      var t = territories(game).filter(function (x) { return x.id === a.territory; })[0];
      var row = ctx.el("div", "row");
      if (t && t.kind === "outland") {
        row.appendChild(button(ctx, a.name + " rampages", null, function () { ctx.act({ kind: "rampage", player: seat, leader: a.leader, with_leader: true }); }));
        if (a.units.length) row.appendChild(button(ctx, "Army only", "small", function () { ctx.act({ kind: "rampage", player: seat, leader: a.leader, with_leader: false }); }));
      }
      if (t && t.controller === seat && !t.mine) row.appendChild(button(ctx, "Mine in " + t.name, "small", function () { ctx.act({ kind: "build_mine", player: seat, leader: a.leader }); }));
      if (row.children.length) box.appendChild(row);
    });
    territories(game).filter(function (t) { return t.mine && t.controller === seat; }).forEach(function (t) {
      box.appendChild(button(ctx, "Destroy the mine of " + t.name, "small", function () { ctx.act({ kind: "destroy_mine", player: seat, territory: t.id }); }));
    });
    box.appendChild(button(ctx, "Done (mines produce)", "primary", function () { ctx.act({ kind: "done", player: seat }); }, "ow-done"));
  }

  function discard(box, game, prompt, ctx) {
    var seat = needSeat(ctx, box, "hands are discarded");
    if (seat === null || prompt.players.indexOf(seat) < 0) return;
    var units = handChips(ctx, ["leader", "troop", "war-machine"]);
    var over = units.length - 10;
    box.appendChild(ctx.el("h3", null, "Discard " + over + " units"));
    box.appendChild(chipList(ctx, "discard", units, function () { ctx.redraw(); }));
    var go = button(ctx, "Discard", "primary", function () { ctx.act({ kind: "discard", player: seat, counters: ticked("discard", units) }); });
    go.disabled = ticked("discard", units).length !== over;
    box.appendChild(go);
  }

  // ------------------------------------------------------------------------------------ trading

  function trading(box, game, prompt, ctx) {
    var seat = needSeat(ctx, box, "trades are offered");
    if (seat === null) return;
    if (prompt.players.indexOf(seat) < 0) { hint(ctx, box, "You are done trading."); return; }
    var me = mine(game, seat);
    var secret = ctx.privateView() || {};
    var partners = (game.players || []).filter(function (p) { return p.seat !== seat && !p.done_trading && p.armies.length; });
    if (partners.length && me.armies.length) {
      box.appendChild(labelled(ctx, "Trade with", select(ctx, "partner", partners.map(function (p) { return [String(p.seat), p.name]; }), function () { ctx.redraw(); })));
      var give = (secret.hand || []).concat(secret.captives || []);
      box.appendChild(ctx.el("h3", null, "You give"));
      box.appendChild(chipList(ctx, "give", give));
      var gold = ctx.el("input");
      gold.type = "number"; gold.min = 0; gold.max = me.gold; gold.value = form.giveGold || 0;
      gold.onchange = function () { form.giveGold = gold.value; };
      box.appendChild(labelled(ctx, "Gold you give (of " + me.gold + ")", gold));
      var partner = mine(game, parseInt(form.partner, 10)) || partners[0];
      box.appendChild(ctx.el("h3", null, "You take"));
      box.appendChild(chipList(ctx, "take", partner.captives || []));
      var want = ctx.el("input");
      want.type = "number"; want.min = 0; want.max = partner.gold; want.value = form.takeGold || 0;
      want.onchange = function () { form.takeGold = want.value; };
      box.appendChild(labelled(ctx, "Gold you take (of " + partner.gold + ")", want));
      box.appendChild(button(ctx, "Offer the trade", null, function () {
        ctx.act({ kind: "offer_trade", player: seat, partner: partner.seat, give: ticked("give", give), give_gold: parseInt(form.giveGold || 0, 10),
          take: ticked("take", partner.captives || []), take_gold: parseInt(form.takeGold || 0, 10) });
      }));
    } else {
      hint(ctx, box, "No chief with a leader beside yours to trade with.");
    }
    box.appendChild(button(ctx, "Done trading", "primary", function () { ctx.act({ kind: "done", player: seat }); }, "ow-done"));
  }

  function answerTrade(box, game, prompt, ctx) {
    var seat = ctx.seat();
    var secret = ctx.privateView() || {};
    var offer = secret.offer;
    if (seat === null || !offer) { hint(ctx, box, "Only the two chiefs see the offer, each on their own phone."); return seat !== null; }
    var from = ctx.playerName(offer.seat);
    var list = function (chips, gold) { return chips.map(function (c) { return c.name; }).concat(gold ? [gold + " gold"] : []).join(", ") || "nothing"; };
    box.appendChild(ctx.el("p", null, from + " gives: " + list(offer.give, offer.give_gold)));
    box.appendChild(ctx.el("p", null, from + " takes: " + list(offer.take, offer.take_gold)));
    if (offer.partner !== seat) { hint(ctx, box, "Waiting for " + ctx.playerName(offer.partner) + "'s answer…"); return true; }
    return false;
  }

  // ------------------------------------------------------------------------------------- rolls

  function rolls(box, game, prompt, ctx) {
    // One die, its faces as numbers to tap (a d8 or d20 in a menu would be slow at the table); when several
    // chiefs throw together, a pad for each this phone may enter (a player's own phone: his own).
    var roll = prompt.roll;
    if (roll.count !== 1) return false;
    var seats = prompt.players.length ? prompt.players : [0];
    seats.forEach(function (seat) {
      if (ctx.mayRoll && !ctx.mayRoll(seat)) {
        box.appendChild(ctx.el("p", "hint waiting-for", ctx.playerName(seat) + " enters their roll"));
        return;
      }
      box.appendChild(ctx.el("h3", null, roll.die + " rolled for " + ctx.playerName(seat)));
      var grid = ctx.el("div", "ow-numpad ow-numpad-" + roll.faces.length);
      roll.faces.forEach(function (face) {
        grid.appendChild(button(ctx, face, "ow-face", function () { ctx.act({ kind: "roll", player: seat, die: roll.die, faces: [face] }); }));
      });
      box.appendChild(grid);
    });
    if (seats.length > 1) hint(ctx, box, "Thrown together: each die counts for the chief who threw it (or for the first still to roll).");
    return true;
  }

  // -------------------------------------------------------------------------------------- panel

  function panel(box, game, view, ctx) {
    var secret = ctx.privateView();
    if (!secret) return;
    var card = ctx.el("section", "card");
    card.appendChild(ctx.el("h3", null, secret.name + "'s hand (secret)"));
    var hand = secret.hand || [];
    if (!hand.length) card.appendChild(ctx.el("p", null, "empty"));
    // Read at a glance across the table: leaders, then troops, then the rest; alike chips counted once.
    [["leader", "Leaders"], ["troop", "Troops"], ["war-machine", "War machines"], ["other", "Other"]].forEach(function (group) {
      var chips = hand.filter(function (c) {
        return group[0] === "other" ? ["leader", "troop", "war-machine"].indexOf(c.kind) < 0 : c.kind === group[0];
      });
      if (!chips.length) return;
      var seen = {}, order = [];
      chips.forEach(function (c) {
        var label = c.name + (c.kind === "leader" ? " (authority " + c.power + ")" : c.power && c.kind !== "shaman" && c.kind !== "spy" ? " " + c.power : "");
        if (!seen[label]) { seen[label] = 0; order.push(label); }
        seen[label]++;
      });
      var line = ctx.el("p", "ow-hand-line");
      line.appendChild(ctx.el("strong", null, group[1] + ": "));
      line.appendChild(document.createTextNode(order.map(function (l) { return l + (seen[l] > 1 ? " ×" + seen[l] : ""); }).join(", ")));
      card.appendChild(line);
    });
    var units = hand.filter(function (c) { return ["leader", "troop", "war-machine"].indexOf(c.kind) >= 0; }).length;
    if (hand.length) card.appendChild(ctx.el("p", "hint", units + " units in hand (at most " + (secret.hand_limit || 10) + " after B5)"));
    if ((secret.captives || []).length) card.appendChild(ctx.el("p", null, "Captives: " + secret.captives.map(function (c) { return c.name; }).join(", ")));
    box.appendChild(card);
  }

  TableControl.register("orcwars-too", {
    prompt: function (box, game, prompt, ctx) {
      if (!prompt) return false;
      var kind = prompt.kind;
      if (kind === "setup") { setup(box, game, prompt, ctx); return true; }
      if (kind === "draw" || kind === "reinforce") {
        var seat = needSeat(ctx, box, "draws are entered");
        if (seat !== null && prompt.players.indexOf(seat) >= 0) drawForm(ctx, box, seat, mine(game, seat).draws_owed);
        return true;
      }
      if (kind === "buy") {
        var buyer = prompt.players[0];
        box.appendChild(button(ctx, "Buy a unit (2 gold)", null, function () { ctx.act({ kind: "buy", player: buyer }); }));
        return false;
      }
      if (kind === "strategy") { strategy(box, game, prompt, ctx); return true; }
      if (kind === "assign") return assign(box, game, prompt, ctx);
      if (kind === "campaign") { campaign(box, game, prompt, ctx); return true; }
      if (kind === "rampage") { rampage(box, game, prompt, ctx); return true; }
      if (kind === "discard") { discard(box, game, prompt, ctx); return true; }
      if (kind === "trading") { trading(box, game, prompt, ctx); return true; }
      if (kind === "answer_trade") return answerTrade(box, game, prompt, ctx);
      return false;
    },
    rolls: rolls,
    panel: panel,
  });
})();
