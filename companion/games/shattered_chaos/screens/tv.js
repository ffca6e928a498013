// Shattered Chaos on the TV: the party above (each adventurer's life and chaos ledgers, action tokens, chaos
// cards, condition tokens), and below: every enemy model's lives, the enemy's decided action in large
// type (or the attack under way with its odds, or the final evaluation), and the round counter with its
// five sections, the phase, what comes next and the graveyard. Laid out for 1080p, nothing under 20 px.
"use strict";

(function () {
  var el = TableTV.el;

  function text(tag, cls, value) { return el(tag, cls, value === undefined || value === null ? "" : String(value)); }

  function pct(p) {
    // Never "100%" for what can still fail, nor "0%" for what can happen.
    var shown = Math.round(p * 100);
    if (shown === 100 && p < 1) return ">99%";
    if (shown === 0 && p > 0) return "<1%";
    return shown + "%";
  }

  // ------------------------------------------------------------------------------ the party

  function lifeLedger(p) {
    // One box per point of the ledger; the clip's value filled; the start value (the red digit) ringed.
    var row = el("div", "sc-life-boxes");
    for (var i = 1; i <= p.max_life; i++) {
      var box = el("span", "sc-box" + (i <= p.life ? " is-on" : "") + (i === p.start_life ? " is-start" : ""));
      row.appendChild(box);
    }
    return row;
  }

  function chaosLedger(p) {
    // The box at the bottom (no token) and the number beside each of the four tokens; the value it
    // stands at lit.
    var row = el("div", "sc-chaos-boxes");
    var cells = [p.ledger.empty].concat(p.ledger.values);
    cells.forEach(function (value, i) {
      var on = i === 0 ? p.chaos_tokens === 0 : i <= p.chaos_tokens;
      var cls = "sc-chaos-cell" + (i === 0 ? " is-empty-box" : "") + (on ? " is-token" : "") + (i === p.chaos_tokens ? " is-now" : "");
      row.appendChild(text("span", cls, value));
    });
    return row;
  }

  function tokens(p, rules) {
    var box = el("div", "sc-tokens");
    for (var i = 0; i < rules.action_tokens; i++) box.appendChild(el("span", "sc-action" + (i < p.actions ? " is-up" : "")));
    return box;
  }

  function heroPanel(game, p, waiting) {
    var panel = el("section", "sc-hero" + (p.shadow ? " is-shadow" : "") + (waiting ? " is-waiting" : ""));
    panel.style.setProperty("--player", p.colour || "#888");
    panel.dataset.seat = p.seat;
    var head = el("header", "sc-hero-head");
    head.appendChild(text("span", "sc-hero-name", p.adventurer));
    if (p.starting) head.appendChild(text("span", "sc-badge sc-starting", "start"));
    if (p.shadow) head.appendChild(text("span", "sc-badge sc-shadow-badge", "shadow"));
    panel.appendChild(head);
    panel.appendChild(text("div", "sc-player-name", p.name));

    var life = el("div", "sc-row sc-life");
    life.appendChild(text("span", "sc-label", "Life"));
    life.appendChild(text("strong", "sc-big", p.life));
    life.appendChild(text("span", "sc-muted", "/ " + p.max_life + " · start " + p.start_life));
    panel.appendChild(life);
    panel.appendChild(lifeLedger(p));

    var chaos = el("div", "sc-row sc-chaos");
    chaos.appendChild(text("span", "sc-label", "Chaos"));
    chaos.appendChild(text("strong", "sc-big", p.chaos));
    chaos.appendChild(tokens(p, game.rules));
    panel.appendChild(chaos);
    panel.appendChild(chaosLedger(p));
    var talents = (p.talents || []).map(function (t) { return t.title; });
    panel.appendChild(text("p", "sc-talent", talents.join(" · ")));

    var cards = el("div", "sc-cards");
    (p.cards || []).forEach(function (c) {
      // A card laid on the discard pile for the coming attack: still the adventurer's, shown as leaving.
      cards.appendChild(text("span", "sc-card sc-stack-" + c.stack + (c.laid ? " is-laid" : ""), bonusText(c) + (c.laid ? " → attack" : "")));
    });
    if (p.destruction) cards.appendChild(text("span", "sc-card sc-destruction", "destruction"));
    (p.conditions || []).forEach(function (c) {
      cards.appendChild(text("span", "sc-card sc-condition", c.kind + (c.half ? " ½" : "")));
    });
    if (!cards.childNodes.length) cards.appendChild(text("span", "sc-muted", "no chaos card"));
    panel.appendChild(cards);
    return panel;
  }

  function bonusText(card) {
    if (card.bonus === "vortex") return "±" + card.amount + " vortex";
    if (card.bonus === "step") return card.amount + (card.amount === 1 ? " step" : " steps");
    return "+" + card.amount + " " + card.bonus;
  }

  // ------------------------------------------------------------------------------ enemies

  function enemyRow(e) {
    var row = el("div", "sc-enemy" + (e.acting ? " is-acting" : "") + (e.acted ? " is-done" : "") + (e.elite ? " is-elite" : ""));
    row.dataset.model = e.number;
    row.appendChild(text("span", "sc-enemy-name", e.name));
    var bar = el("span", "sc-enemy-bar");
    var fill = el("span", "sc-enemy-fill");
    fill.style.width = Math.max(0, Math.min(100, 100 * e.lives / e.max_lives)) + "%";
    bar.appendChild(fill);
    row.appendChild(bar);
    row.appendChild(text("strong", "sc-enemy-lives", e.lives + "/" + e.max_lives));
    var extra = [];
    if (e.armour) extra.push("armour " + e.armour);
    (e.conditions || []).forEach(function (c) { extra.push(c.kind + (c.half ? " ½" : "")); });
    row.appendChild(text("span", "sc-enemy-extra", extra.join(" · ")));
    return row;
  }

  function enemiesBox(game) {
    var box = el("section", "sc-box-panel sc-enemies");
    box.appendChild(text("h2", null, "Enemies"));
    var list = el("div", "sc-enemy-list" + ((game.enemies || []).length > 6 ? " is-two-columns" : ""));
    (game.enemies || []).forEach(function (e) { list.appendChild(enemyRow(e)); });
    if (!(game.enemies || []).length) list.appendChild(text("p", "sc-muted", "No enemy on the board"));
    box.appendChild(list);
    return box;
  }

  // ------------------------------------------------------------------------------ the action in the middle

  function faceChips(faces) {
    var row = el("div", "sc-faces");
    (faces || []).forEach(function (symbol) {
      var parts = /^(\w+):(\d+)(v*)$/.exec(symbol) || [symbol, "", symbol, ""];
      var chip = el("span", "sc-face sc-face-" + parts[1]);
      chip.appendChild(text("span", "sc-face-eyes", parts[2]));
      for (var v = 0; v < parts[3].length; v++) chip.appendChild(el("span", "sc-vortex"));
      row.appendChild(chip);
    });
    return row;
  }

  function actionBox(game) {
    var box = el("section", "sc-box-panel sc-middle");
    var players = game.players || [];
    function who(seat) { return players[seat] ? players[seat].adventurer : "?"; }
    var ev = game.evaluation;
    if (ev) {
      box.classList.add("is-evaluation");
      box.appendChild(text("h2", null, ev.lost ? "Defeat" : "Final evaluation"));
      if (ev.lost) {
        box.appendChild(text("p", "sc-decision", "Marker to the end: section " + ev.section));
      } else {
        box.appendChild(text("p", "sc-decision", ev.damage + " damage → " + ev.spaces + (ev.spaces === 1 ? " space" : " spaces") + " → round " + ev.final_round));
        box.appendChild(text("p", "sc-instruction", "From round " + ev.start_round + " to round " + ev.final_round + ": section " + ev.section));
      }
      box.appendChild(text("p", "sc-evaluation-cards", "Draw " + ev.draw + " chaos cards, keep " + ev.keep));
      return box;
    }
    var attack = game.attack;
    if (attack) {
      box.appendChild(text("h2", null, attack.reaction ? "Reaction" : "Attack"));
      box.appendChild(text("p", "sc-decision", who(attack.seat) + " → " + attack.target + ", " + attack.distance + (attack.distance === 1 ? " space" : " spaces")));
      if (attack.odds) {
        box.appendChild(text("p", "sc-odds", "Reach " + pct(attack.odds.p_reach) + " · stun " + pct(attack.odds.p_stun) + " · " + attack.odds.expected_damage.toFixed(1) + " damage expected"));
      }
      if (attack.faces.length) box.appendChild(faceChips(attack.faces));
      if (attack.cards.length) box.appendChild(text("p", "sc-instruction", "Cards: " + attack.cards.join(", ")));
      return box;
    }
    var decision = game.decision;
    var question = game.closed ? null : game.question; // a closed game asks nothing
    var enemyActing = game.phase === "enemies" || game.acting_enemy || game.enemy_attack;
    var title = game.phase === "enemies" ? "Enemy phase" : enemyActing ? "The enemy's reaction" : "Last attack";
    box.appendChild(text("h2", null, title));
    if (decision && enemyActing) {
      box.appendChild(text("p", "sc-decision", decision.text));
      if (decision.instruction) box.appendChild(text("p", "sc-instruction", decision.instruction));
    } else if (question) {
      box.appendChild(text("p", "sc-decision sc-asking", "Who does it see?"));
    } else if (game.last_attack) {
      box.appendChild(text("p", "sc-last", game.last_attack.text));
      box.appendChild(faceChips(game.last_attack.faces));
    } else {
      box.appendChild(text("p", "sc-muted sc-last", game.closed ? "No attack was made" : "Attack an enemy from a phone: the odds show before the throw"));
    }
    if (question) {
      var chaos = el("div", "sc-candidates");
      question.candidates.forEach(function (seat) {
        chaos.appendChild(text("span", "sc-candidate", who(seat) + " " + question.chaos[String(seat)]));
      });
      box.appendChild(chaos);
    }
    return box;
  }

  // ------------------------------------------------------------------------------ at the table

  var TABLE_HINTS = {
    "enemy-sight": "Seen? Press your Adventurer button · next: none of them",
    "enemy-within": "Within range? Press your Adventurer button · next: none of them",
    "enemy-reach": "Within reach? Press your Adventurer button · next: none of them",
    "enemy-closest": "The closest presses their Adventurer button",
    "enemy-nearest": "The closest presses their Adventurer button",
    "enemy-tie": "Press the Adventurer button of the one it goes for",
    partner: "Press the Adventurer button of who also draws · next: nobody",
    redirect: "Press the Adventurer button of who suffers it",
    draw: "Lay the card drawn by the adventurer card · next: none",
    "chaos-hit": "next: keep the throw",
    armour: "Armour cards on the discard pile · next: none",
    react: "next: no reaction",
    resolve: "next: step through the readings · confirm takes one",
  };
  var THROWS = { throw: "Throw ", rethrow: "Throw again: ", "enemy-throw": "Anyone throws for the enemy: " };

  function tableHint(game, view) {
    // How the buttons, readers and e-dice answer the prompt, when the companion reads a table: readers
    // configured, or a device that brings buttons and dice (the microcontroller, Bluetooth dice).
    var devices = (view && view.devices) || {};
    var prompt = game.prompt;
    var wired = (devices.table && devices.table.readers > 0) || devices.firmware || devices["ble-dice"];
    if (!wired || !prompt) return null;
    if (THROWS[prompt.kind] && prompt.roll) {
      var colours = (prompt.roll.dice || []).map(function (die) { return die.replace(/^sc-/, ""); });
      return THROWS[prompt.kind] + colours.join(" + ") + (colours.length > 1 ? " e-dice together" : " e-die");
    }
    return TABLE_HINTS[prompt.kind] || null;
  }

  // ------------------------------------------------------------------------------ round counter

  function roundBox(game) {
    var box = el("section", "sc-box-panel sc-round");
    var counter = el("div", "sc-counter");
    var marker = game.round_counter.marker;
    var shown = game.evaluation ? game.evaluation.final_round : marker;
    game.round_counter.sections.forEach(function (s) {
      var section = el("div", "sc-section" + (s.rounds.indexOf(shown) >= 0 ? " is-now" : ""));
      section.appendChild(text("span", "sc-section-cards", s.keep + "/" + s.draw));
      var rounds = el("div", "sc-section-rounds");
      s.rounds.forEach(function (r) {
        rounds.appendChild(text("span", "sc-round-step" + (r === shown ? " is-marker" : r < shown ? " is-past" : ""), r));
      });
      section.appendChild(rounds);
      counter.appendChild(section);
    });
    box.appendChild(counter);
    box.appendChild(text("p", "sc-phase", game.phase_title));
    // A game closed with End game goes no further: what would have come next is not said.
    box.appendChild(text("p", "sc-next", game.closed ? "The adventure was closed here with End game" : game.next));
    var narrator = (game.narrator || []).filter(function (s) { return s.current; }).map(function (s) { return s.current; });
    if (narrator.length) box.appendChild(text("p", "sc-next sc-narrator", "Narrator cards: " + narrator.join(" · ")));
    var dead = (game.graveyard || []).map(function (g) { return g.name + (g.counts > 1 ? " ×" + g.counts : ""); });
    box.appendChild(text("p", "sc-graveyard", "Graveyard: " + (dead.length ? dead.join(", ") : "empty")));
    var left = (game.stacks || []).map(function (s) { return s.name.charAt(0).toUpperCase() + s.name.slice(1) + " " + s.left; });
    box.appendChild(text("p", "sc-muted sc-stacks", "Chaos cards left: " + left.join(" · ")));
    return box;
  }

  // ------------------------------------------------------------------------------ fitting

  function fitAll(main) {
    var jobs = [];
    Array.prototype.forEach.call(main.querySelectorAll(".sc-hero-name"), function (n) { jobs.push({ node: n, maxPx: 38, minPx: 26 }); });
    Array.prototype.forEach.call(main.querySelectorAll(".sc-player-name"), function (n) { jobs.push({ node: n, maxPx: 22, minPx: 20 }); });
    Array.prototype.forEach.call(main.querySelectorAll(".sc-decision"), function (n) { jobs.push({ node: n, maxPx: 44, minPx: 26 }); });
    Array.prototype.forEach.call(main.querySelectorAll(".sc-instruction, .sc-buttons, .sc-last, .sc-next, .sc-graveyard, .sc-stacks, .sc-talent"), function (n) {
      jobs.push({ node: n, maxPx: 24, minPx: 20 });
    });
    Array.prototype.forEach.call(main.querySelectorAll(".sc-enemy-name"), function (n) { jobs.push({ node: n, maxPx: 26, minPx: 20 }); });
    TableTV.fitAll(jobs);
    Array.prototype.forEach.call(main.querySelectorAll(".sc-cards"), function (cards) {
      if (TableTV.overflows(cards)) cards.classList.add("is-tight");
    });
  }

  TableTV.register("shattered-chaos", {
    round: function (game) { return "Round " + game.round; },
    status: function (game) {
      return [["Adventure", String(game.adventure.number)], ["Map chaos", String(game.map_chaos)]];
    },
    finalParts: function (player) {
      var parts = [player.adventurer];
      if (player.shadow) parts.push("shadow");
      var damage = player.score ? player.score.total : 0;
      parts.push(damage < 0 ? -damage + " lives above start" : damage + " damage");
      return parts.join(" · ");
    },
    render: function (main, game, view) {
      var waiting = game.prompt ? game.prompt.players || [] : [];
      var count = (game.players || []).length;
      main.className = "tv-main sc-table sc-seats-" + count;
      var party = el("div", "sc-party");
      (game.players || []).forEach(function (p) {
        party.appendChild(heroPanel(game, p, waiting.length < count && waiting.indexOf(p.seat) >= 0));
      });
      main.appendChild(party);
      var lower = el("div", "sc-lower");
      lower.appendChild(enemiesBox(game));
      var middle = actionBox(game);
      var hint = tableHint(game, view);
      if (hint) middle.appendChild(text("p", "sc-buttons", hint)); // at the foot of the box
      lower.appendChild(middle);
      lower.appendChild(roundBox(game));
      main.appendChild(lower);
      fitAll(main);
    },
  });
})();
