// Chaos Marauders on the phone: the draw form, a slot picker for "which slot?" questions, Bilge
// Guttrot's reorganisation, and hand corrections of the table ("the cards on the table are the truth").
"use strict";

(function () {
  var armed = null; // "seat/line/slot" of a correction tile tapped once, waiting for the second tap
  var bilge = null; // {seq, lines: [[card|null x12] x3], picked: [line, slot] | null} while editing
  var slotCard = null; // the card whose slots are shown when a question offers several cards
  var fix = { seat: null, source: "pile", card: null, line: 0, slot: 0, owner: null };

  function titles(ctx, game) {
    var out = {};
    ctx.catalog(game.game).forEach(function (c) { out[c.id] = c; });
    return out;
  }

  function select(ctx, values, current, onchange, id) {
    // values: [[value, label]]; the id lets scripts (and tests) find the control.
    var s = ctx.el("select");
    if (id) s.id = id;
    values.forEach(function (v) { ctx.option(s, String(v[0]), v[1]); });
    if (current !== null && current !== undefined) s.value = String(current);
    s.onchange = function () { onchange(s.value); };
    return s;
  }

  function labelled(ctx, text, control) {
    var l = ctx.el("label", null, text);
    l.appendChild(control);
    return l;
  }

  function range(n) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(i);
    return out;
  }

  // -------------------------------------------------------------------------------------- draw

  // The card drawn is one tap: the titles most likely to be drawn (most copies left in the draw pile)
  // as buttons; any other by its first letter (a second tap) or by typing in the search. The draw is
  // sent at once, and the engine's next question (which slot, or discard) is the second tap: line and
  // slot are offered only where the card may go. A card the phone's camera read is offered first.
  var LIKELY = 12; // buttons shown before any letter or search: what fits a phone's screen
  var draw = { letter: null, query: "", focused: false };

  function byChance(pile, names) {
    return Object.keys(pile).sort(function (a, b) {
      return pile[b] - pile[a] || (names[a] ? names[a].title : a).localeCompare(names[b] ? names[b].title : b);
    });
  }

  function matches(card, query) {
    // Every word typed starts a word of the title or of one of its other spellings ("hak vol").
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    var spellings = [card.title].concat(card.aliases || []).map(function (t) { return t.toLowerCase().split(/[\s'‘’()-]+/); });
    return spellings.some(function (titleWords) {
      return words.every(function (w) { return titleWords.some(function (t) { return t.indexOf(w) === 0; }); });
    });
  }

  function cardButton(ctx, card, id, left, seat, extra) {
    var b = ctx.actionButton("", { kind: "draw", player: seat, card: id }, "cm-drawcard card-" + ((card && card.colour) || "grey") + (extra || ""));
    b.dataset.card = id;
    b.appendChild(ctx.el("span", "cm-drawcard-title", card ? card.title : id));
    b.appendChild(ctx.el("span", "cm-drawcard-left", left + " left"));
    b.addEventListener("click", function () { draw.letter = null; draw.query = ""; ctx.forget(); });
    return b;
  }

  function drawForm(into, game, prompt, ctx) {
    var seat = prompt.players[0];
    var names = titles(ctx, game);
    var pile = game.draw_pile_cards || {};
    var ids = byChance(pile, names);
    if (!ids.length || !Object.keys(names).length) return false;
    var box = ctx.el("div", "cm-draw");
    box.id = "c-draw";
    into.appendChild(box);
    var scan = window.TableScan && TableScan.button(ctx, game.game);
    if (scan) box.appendChild(scan);
    var seen = ctx.offered(game.game);
    if (seen && pile[seen.card]) {
      // The card the phone's camera read, one tap to confirm; the next most likely beside it.
      var offer = ctx.el("div", "cm-offer");
      offer.id = "c-offer";
      offer.appendChild(ctx.el("p", "hint", "The " + seen.source + (seen.sure ? " read the card drawn:" : " is not sure — is it this card?")));
      offer.appendChild(cardButton(ctx, names[seen.card], seen.card, pile[seen.card], seat, " cm-offered"));
      (seen.others || []).filter(function (id) { return pile[id]; }).forEach(function (id) {
        offer.appendChild(cardButton(ctx, names[id], id, pile[id], seat, " cm-offered-other"));
      });
      var wrong = ctx.el("button", "small", "Not this card");
      wrong.type = "button";
      wrong.onclick = function () { ctx.forget(); ctx.redraw(); };
      offer.appendChild(wrong);
      box.appendChild(offer);
    }
    var shown;
    var query = draw.query.trim();
    if (query) shown = ids.filter(function (id) { return names[id] && matches(names[id], query); });
    else if (draw.letter) shown = ids.filter(function (id) { return (names[id] ? names[id].title : id).charAt(0).toUpperCase() === draw.letter; });
    else shown = ids.slice(0, LIKELY);
    box.appendChild(ctx.el("h3", null, query || draw.letter ? "Cards " + (query ? "matching “" + query + "”" : "starting with " + draw.letter) :
      "Card drawn (most likely first)"));
    var grid = ctx.el("div", "cm-drawgrid");
    grid.id = "c-draw-cards";
    shown.forEach(function (id) { grid.appendChild(cardButton(ctx, names[id], id, pile[id], seat)); });
    if (!shown.length) grid.appendChild(ctx.el("p", "hint", "No card left in the draw pile matches"));
    box.appendChild(grid);
    // Every other card by its first letter: the letters of the cards still in the pile.
    var rest = ids.slice(LIKELY).map(function (id) { return (names[id] ? names[id].title : id).charAt(0).toUpperCase(); });
    var letters = rest.filter(function (l, i) { return rest.indexOf(l) === i; }).sort();
    if (letters.length) {
      var strip = ctx.el("div", "cm-letters");
      strip.id = "c-draw-letters";
      strip.appendChild(ctx.el("span", "hint", "Others:"));
      letters.forEach(function (letter) {
        var b = ctx.el("button", "cm-letter" + (draw.letter === letter ? " is-picked" : ""), letter);
        b.type = "button";
        b.dataset.letter = letter;
        b.onclick = function () { draw.letter = draw.letter === letter ? null : letter; draw.query = ""; ctx.redraw(); };
        strip.appendChild(b);
      });
      box.appendChild(strip);
    }
    var find = ctx.el("input", "cm-find");
    find.id = "c-draw-find";
    find.type = "search";
    find.placeholder = "Or type a card's name";
    find.autocomplete = "off";
    find.value = draw.query;
    find.oninput = function () { draw.query = find.value; draw.letter = null; draw.focused = true; ctx.redraw(); };
    find.onblur = function () { draw.focused = false; };
    box.appendChild(find);
    if (draw.focused) {
      // A view that arrives while typing redraws the form: the keyboard stays where it was.
      setTimeout(function () { find.focus(); find.setSelectionRange(find.value.length, find.value.length); }, 0);
    }
    return false;
  }

  // ----------------------------------------------------------------------------- slot picker

  function slotPicker(box, game, prompt, ctx) {
    // "Which slot?" as a picture of the lines, not a list of up to 36 buttons: one row of twelve
    // slots per line the card may go in, open slots that take it lit; other answers as buttons.
    var places = [];
    var others = [];
    (prompt.choices || []).forEach(function (c) {
      if (c.action.kind === "place" && c.action.slot !== null) places.push(c);
      else others.push(c);
    });
    if (places.length < 6) return false; // few enough to list as buttons
    var groups = {};
    var order = [];
    places.forEach(function (c) {
      var a = c.action;
      var owner = a.target === null || a.target === undefined ? a.player : a.target;
      var key = owner + ":" + a.line + ":" + a.card;
      if (!groups[key]) { groups[key] = { owner: owner, line: a.line, card: a.card, slots: {} }; order.push(key); }
      groups[key].slots[a.slot] = c;
    });
    var names = titles(ctx, game);
    var cards = order.map(function (key) { return groups[key].card; }).filter(function (c, i, all) { return all.indexOf(c) === i; });
    if (cards.length > 1) {
      // Several cards to place (cards won in an attack): pick the card first, then its slot, rather
      // than a picture of the lines per card one under the other.
      if (cards.indexOf(slotCard) < 0) slotCard = cards[0];
      box.appendChild(ctx.el("h3", null, "Which card?"));
      var tabs = ctx.el("div", "cm-cardtabs");
      cards.forEach(function (card) {
        var b = ctx.el("button", "cm-cardtab" + (card === slotCard ? " is-picked" : ""), names[card] ? names[card].title : card);
        b.type = "button";
        b.dataset.card = card;
        b.onclick = function () { slotCard = card; ctx.redraw(); };
        tabs.appendChild(b);
      });
      box.appendChild(tabs);
      order = order.filter(function (key) { return groups[key].card === slotCard; });
    }
    order.forEach(function (key) {
      var g = groups[key];
      var title = names[g.card] ? names[g.card].title : "Card";
      box.appendChild(ctx.el("h3", null, title + " → " + ctx.playerName(g.owner) + "'s line " + (g.line + 1)));
      var grid = ctx.el("div", "cm-slotgrid");
      var owner = (game.players || []).filter(function (p) { return p.seat === g.owner; })[0];
      var cells = owner ? owner.lines[g.line].slots : [];
      range(12).forEach(function (slot) {
        var choice = g.slots[slot];
        var held = cells[slot];
        var b = ctx.el("button", "cm-slot" + (choice ? " is-open" : "") + (held ? " is-held" : ""), held ? (held.hidden ? "?" : held.title) : String(slot + 1));
        b.type = "button";
        b.disabled = !choice;
        if (choice) {
          b.dataset.action = JSON.stringify(choice.action);
          b.onclick = function () { ctx.act(choice.action); };
        }
        grid.appendChild(b);
      });
      box.appendChild(grid);
    });
    var rest = ctx.el("div", "choices");
    others.forEach(function (c) { rest.appendChild(ctx.actionButton(c.label, c.action)); });
    box.appendChild(rest);
    return true;
  }

  // ------------------------------------------------------------------------ Bilge's reorganisation

  function bilgeEditor(box, game, prompt, ctx) {
    var seat = prompt.players[0];
    var me = (game.players || []).filter(function (p) { return p.seat === seat; })[0];
    if (!me) return;
    if (!bilge || bilge.seat !== seat || bilge.base !== JSON.stringify(me.lines.map(function (l) { return l.slots; }))) {
      bilge = {
        seat: seat,
        base: JSON.stringify(me.lines.map(function (l) { return l.slots; })),
        lines: me.lines.map(function (l) { return l.slots.map(function (c) { return c ? { id: c.id, title: c.title } : null; }); }),
        picked: null,
      };
    }
    var details = ctx.el("details", "cm-bilge");
    details.open = true;
    details.appendChild(ctx.el("summary", null, "Reorganise your lines"));
    details.appendChild(ctx.el("p", "hint", "Tap a card, then the slot to move it to (a card there swaps places)."));
    bilge.lines.forEach(function (cells, li) {
      details.appendChild(ctx.el("h3", null, "Line " + (li + 1)));
      var grid = ctx.el("div", "cm-slotgrid");
      cells.forEach(function (card, slot) {
        var picked = bilge.picked && bilge.picked[0] === li && bilge.picked[1] === slot;
        var b = ctx.el("button", "cm-slot is-open" + (card ? " is-held" : "") + (picked ? " is-picked" : ""), card ? card.title : String(slot + 1));
        b.type = "button";
        b.onclick = function () {
          if (!bilge.picked) {
            if (card) bilge.picked = [li, slot];
          } else {
            var from = bilge.picked;
            var moving = bilge.lines[from[0]][from[1]];
            bilge.lines[from[0]][from[1]] = bilge.lines[li][slot];
            bilge.lines[li][slot] = moving;
            bilge.picked = null;
          }
          ctx.redraw();
        };
        grid.appendChild(b);
      });
      details.appendChild(grid);
    });
    var go = ctx.el("button", "primary", "Reorganise");
    go.onclick = function () {
      var lines = bilge.lines.map(function (cells) { return cells.map(function (c) { return c ? c.id : null; }); });
      ctx.act({ kind: "reorganise", player: seat, lines: lines });
    };
    details.appendChild(go);
    box.appendChild(details);
  }

  // --------------------------------------------------------------------------- corrections

  function correction(box, game, ctx) {
    var details = ctx.el("details", "card");
    details.id = "c-correct";
    details.open = fix.open || false;
    details.ontoggle = function () { fix.open = details.open; };
    details.appendChild(ctx.el("summary", null, "Correct the table"));
    details.appendChild(ctx.el("p", "hint", "The cards on the table are the truth: put a card where it lies, or take one off. Corrections change neither the turn nor the question asked."));
    var players = game.players || [];
    if (fix.seat === null || !players[fix.seat]) fix.seat = players.length ? players[0].seat : 0;
    var names = titles(ctx, game);
    details.appendChild(labelled(ctx, "Seat", select(ctx, players.map(function (p) { return [p.seat, p.name]; }), fix.seat,
      function (v) { fix.seat = parseInt(v, 10); armed = null; ctx.redraw(); }, "c-fix-seat")));
    var where = ctx.el("div", "row");
    where.appendChild(labelled(ctx, "Line", select(ctx, range(3).map(function (i) { return [i, String(i + 1)]; }), fix.line,
      function (v) { fix.line = parseInt(v, 10); }, "c-fix-line")));
    where.appendChild(labelled(ctx, "Slot", select(ctx, range(12).map(function (i) { return [i, String(i + 1)]; }), fix.slot,
      function (v) { fix.slot = parseInt(v, 10); }, "c-fix-slot")));
    details.appendChild(where);
    details.appendChild(labelled(ctx, "From", select(ctx, [["pile", "Draw pile"], ["discard", "Discard pile"]], fix.source,
      function (v) { fix.source = v; fix.card = null; ctx.redraw(); }, "c-fix-source")));
    var counts = fix.source === "discard" ? (game.discard_pile && game.discard_pile.cards) || {} : game.draw_pile_cards || {};
    var ids = Object.keys(counts).sort(function (a, b) {
      return (names[a] ? names[a].title : a).localeCompare(names[b] ? names[b].title : b);
    });
    if (!counts[fix.card]) fix.card = ids.length ? ids[0] : null;
    details.appendChild(labelled(ctx, "Card", select(ctx, ids.map(function (id) {
      return [id, (names[id] ? names[id].title : id) + " (" + counts[id] + ")"];
    }), fix.card, function (v) { fix.card = v; ctx.redraw(); }, "c-fix-card")));
    var git = names[fix.card] && names[fix.card].ability === "sneaky-git";
    var others = players.filter(function (p) { return p.seat !== fix.seat; });
    if (git) {
      if (fix.owner === null || fix.owner === fix.seat) fix.owner = others.length ? others[0].seat : null;
      details.appendChild(labelled(ctx, "Sneaky Git owned by", select(ctx, others.map(function (p) { return [p.seat, p.name]; }),
        fix.owner, function (v) { fix.owner = parseInt(v, 10); }, "c-fix-owner")));
    }
    var put = ctx.el("button", "primary", "Put the card on the table");
    put.id = "c-fix-place";
    put.type = "button";
    put.disabled = !fix.card;
    put.onclick = function () {
      var action = { kind: "correct_place", player: fix.seat, card: fix.card, line: fix.line, slot: fix.slot, source: fix.source };
      if (git) action.owner = fix.owner;
      ctx.act(action);
    };
    details.appendChild(put);
    details.appendChild(ctx.el("h3", null, "Take a card off (to the discard pile): tap it, then tap again"));
    var tiles = ctx.el("div", "fix-tiles");
    tiles.id = "c-fix-tiles";
    var who = players.filter(function (p) { return p.seat === fix.seat; })[0];
    (who ? who.lines : []).forEach(function (line) {
      var row = ctx.el("div", "fix-line");
      row.appendChild(ctx.el("span", null, "Line " + (line.index + 1)));
      line.slots.forEach(function (card, slot) {
        if (!card) return;
        var key = fix.seat + "/" + line.index + "/" + slot;
        var b = ctx.el("button", armed === key ? "armed" : null, armed === key ? "Remove " + card.title + "?" : (slot + 1) + ": " + card.title);
        b.type = "button";
        b.dataset.line = line.index;
        b.dataset.slot = slot;
        b.dataset.card = card.id;
        b.onclick = function () {
          if (armed !== key) { armed = key; ctx.redraw(); return; }
          armed = null;
          ctx.act({ kind: "correct_remove", player: fix.seat, line: line.index, slot: slot });
        };
        row.appendChild(b);
      });
      if (row.children.length === 1) row.appendChild(ctx.el("span", "hint", "empty"));
      tiles.appendChild(row);
    });
    details.appendChild(tiles);
    box.appendChild(details);
  }

  // ------------------------------------------------------------------------------ Cube rolls

  function cubeRolls(box, game, prompt, ctx) {
    // There is one Cube: the Idol's six rolls, Dagromm's four, Odlugg's one per card are that Cube
    // thrown again and again, so the phone asks for one throw at a time (the engine counts them),
    // never for "6 dice" at once.
    var roll = prompt.roll;
    if (roll.count < 2) return false;
    var seat = prompt.players[0];
    if (!ctx.mayRoll(seat)) {
      box.appendChild(ctx.el("p", "hint waiting-for", ctx.playerName(seat) + " enters their throws on their phone."));
      return true;
    }
    var row = ctx.el("div", "rollrow");
    row.appendChild(ctx.el("h3", null, "What " + ctx.playerName(seat) + "'s next throw of the Cube shows"));
    roll.faces.filter(function (f, i) { return roll.faces.indexOf(f) === i; }).forEach(function (face) {
      row.appendChild(ctx.actionButton(ctx.faceName(roll.die, face), { kind: "roll", player: seat, die: roll.die, faces: [face] }, "primary"));
    });
    box.appendChild(row);
    return true;
  }

  TableControl.register("chaos-marauders", {
    rolls: cubeRolls,
    prompt: function (box, game, prompt, ctx) {
      if (!prompt) return false;
      var owner = prompt.players.length === 1 ? prompt.players[0] : null;
      if (owner !== null && !prompt.roll && !ctx.mayAct(owner)) {
        // Another seat's draw, placement or choice: that player answers on their own phone.
        box.appendChild(ctx.el("p", "hint waiting-for", ctx.playerName(owner) + " plays this on their phone."));
        return true;
      }
      if (prompt.kind === "draw" && !prompt.roll) return drawForm(box, game, prompt, ctx);
      if (prompt.kind === "place") return slotPicker(box, game, prompt, ctx);
      if (prompt.kind === "bilge") bilgeEditor(box, game, prompt, ctx);
      return false;
    },
    panel: function (box, game, view, ctx) {
      if (!game.finished && view.status === "playing") correction(box, game, ctx);
    },
  });
})();
