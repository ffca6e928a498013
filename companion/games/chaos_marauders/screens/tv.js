// Chaos Marauders on the TV: one band per player, their three battle lines of twelve slots each.
// A card just placed pulses (found by comparing with the previous view, so it also works after an
// undo); the slot the table's next button is showing is outlined with the card confirm would put there.
// A slot's column is as wide as its card's name needs (empty slots narrow), and every name is fitted
// at 20 px or more: shortened ("Boneshaker (R)", "Hak Veinthrob's…") when a crowded line leaves no room.
"use strict";

(function () {
  var el = TableTV.el;
  var previousCells = null; // "seat:line:slot" -> card id, from the previous view
  var lastSeq = null;
  var SHIELD = "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5l-8-3z";
  var EMPTY_WEIGHT = 2.5; // an empty slot's column, in the characters a card's column is weighed in
  var NAME_PX = { 2: 24, 3: 22 }; // by seats; otherwise TableTV.MIN_PX

  function cellsOf(game) {
    var cells = {};
    (game.players || []).forEach(function (player) {
      (player.lines || []).forEach(function (line) {
        (line.slots || []).forEach(function (card, slot) {
          if (card) cells[player.seat + ":" + line.index + ":" + slot] = card.id;
        });
      });
    });
    return cells;
  }

  function freshCells(cells) {
    var fresh = {};
    if (previousCells === null) return fresh; // the first view: nothing is "new"
    Object.keys(cells).forEach(function (key) {
      if (previousCells[key] !== cells[key]) fresh[key] = true;
    });
    return fresh;
  }

  function candidateOf(view) {
    // {key: "seat:line:slot", title} of a placement the table's buttons are showing, or null.
    var table = (view.devices || {}).table || {};
    var action = table.choice && table.choice.action;
    if (!action || action.kind !== "place" || action.slot === null || action.slot === undefined) return null;
    var seat = action.target === null || action.target === undefined ? action.player : action.target;
    var pending = ((view.game || {}).pending_cards || []).filter(function (c) { return c && c.id === action.card; })[0];
    return { key: seat + ":" + action.line + ":" + action.slot, title: pending ? pending.title : "" };
  }

  function shield() {
    // Drawn, not a font glyph: the TV's browser may have no emoji font.
    var ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("class", "line-shield");
    svg.setAttribute("aria-label", "protected");
    var path = document.createElementNS(ns, "path");
    path.setAttribute("d", SHIELD);
    svg.appendChild(path);
    return svg;
  }

  function tile(card, fresh) {
    if (!card) return el("div", "tile tile-empty");
    var node = el("div", "tile card-" + (card.colour || "grey") + (fresh ? " tile-fresh" : ""));
    if (card.hidden) node.classList.add("tile-hidden"); // face down: the Chaos Marauders may be spotted
    node.dataset.card = card.id;
    node.title = card.title;
    var stats = el("span", "tile-stats");
    if (card.attack !== null && card.attack !== undefined) stats.appendChild(el("span", "tile-attack", card.attack));
    if (card.vp) stats.appendChild(el("span", "tile-vp", card.vp));
    node.appendChild(stats);
    node.appendChild(el("span", "tile-name", card.hidden ? "?" : card.title));
    if (card.owner !== null && card.owner !== undefined) node.classList.add("tile-owned");
    return node;
  }

  function statsWeight(card) {
    // The attack and VP figures stand in a column of their own beside the name.
    var attack = card.attack === null || card.attack === undefined ? "" : String(card.attack);
    var digits = Math.max(attack.length, String(card.vp || "").length);
    return digits ? digits + 1.5 : 0;
  }

  function weight(title, extra) {
    // A card's column, in characters: its longest word or half its name (it may take two lines).
    var words = String(title).split(/\s+/);
    var longest = Math.max.apply(null, words.map(function (w) { return w.length; }));
    return Math.max(longest, Math.ceil(String(title).length / 2), 3) + extra;
  }

  function shortForms(title) {
    // What a tile shows when the whole name does not fit: "(left)" as "(L)", then the leading words as
    // initials ("H. Standard": a Standard and a Musician stay apart), then fewer words.
    var sided = String(title).replace(/\((\w)\w*\)/g, function (m, first) { return "(" + first.toUpperCase() + ")"; });
    var forms = sided !== title ? [sided] : [];
    var words = sided.split(/\s+/);
    var side = /^\(.\)$/.test(words[words.length - 1]) ? words.pop() : null;
    if (words.length > 1) {
      var initials = words.slice(0, -1).filter(function (w) { return !/^[a-z]{1,3}$/.test(w); })
        .map(function (w) { return w.charAt(0) + "."; }); // "of" and the like go: "C. Malal"
      forms.push(initials.concat(words.slice(-1), side ? [side] : []).join(" "));
    }
    if (side) {
      // A war machine's part keeps its side to the last: "Chuc… (L)".
      for (var c = words[0].length - 1; c >= 2; c--) forms.push(words[0].slice(0, c) + "… " + side);
    }
    return forms.concat(TableTV.shortened(sided));
  }

  function fitNames(main, seats) {
    var max = NAME_PX[seats] || TableTV.MIN_PX;
    var jobs = Array.prototype.map.call(main.querySelectorAll(".tile-name"), function (name) {
      return { node: name, maxPx: max, minPx: TableTV.MIN_PX, forms: shortForms(name.textContent) };
    });
    Array.prototype.forEach.call(main.querySelectorAll(".cm-name"), function (name) {
      jobs.push({ node: name, maxPx: 34, minPx: TableTV.MIN_PX });
    });
    TableTV.fitAll(jobs);
  }

  function candidateTile(title) {
    var node = el("div", "tile tile-candidate");
    node.appendChild(el("span", "tile-name", title));
    return node;
  }

  function lineRow(player, line, fresh, candidate) {
    var row = el("div", "line" + (line.complete ? " line-complete" : "") + (line.can_attack ? " line-attacking" : ""));
    row.dataset.line = line.index;
    var label = el("div", "line-label");
    var attack = el("span", "line-attack", line.attack_value === null || line.attack_value === undefined ? "–" : line.attack_value);
    label.appendChild(attack);
    var state = el("span", "line-state", line.complete ? "done" : (line.card_count || 0) + "/12");
    if (line.protected) state.appendChild(shield());
    label.appendChild(state);
    row.appendChild(label);
    var slots = el("div", "slots");
    var columns = [];
    (line.slots || []).forEach(function (card, slot) {
      var key = player.seat + ":" + line.index + ":" + slot;
      if (!card && candidate && candidate.key === key) {
        slots.appendChild(candidateTile(candidate.title));
        columns.push(weight(candidate.title, 0));
      } else {
        slots.appendChild(tile(card, card && fresh[key]));
        columns.push(card ? weight(card.hidden ? "?" : card.title, statsWeight(card)) : EMPTY_WEIGHT);
      }
    });
    slots.style.gridTemplateColumns = columns.map(function (w) { return "minmax(0, " + w + "fr)"; }).join(" ");
    row.appendChild(slots);
    return row;
  }

  function band(player, fresh, waiting, promptKind, candidate) {
    var panel = el("section", "cm-player" + (player.active ? " is-active" : "") + (waiting ? " is-waiting" : ""));
    panel.style.setProperty("--player", player.colour || "#888");
    panel.dataset.seat = player.seat;
    var head = el("header", "cm-head");
    head.appendChild(el("span", "cm-name", player.name));
    var score = el("div", "cm-score");
    score.appendChild(el("strong", "cm-total", TableTV.total(player)));
    score.appendChild(el("span", "cm-vp", "VP"));
    head.appendChild(score);
    if (waiting) head.appendChild(el("span", "cm-turn", promptKind === "roll" ? "roll the Cube!" : "to play"));
    panel.appendChild(head);
    var lines = el("div", "cm-lines");
    (player.lines || []).forEach(function (line) {
      lines.appendChild(lineRow(player, line, fresh, candidate));
    });
    panel.appendChild(lines);
    return panel;
  }

  function pileCount(pile) {
    if (typeof pile === "number") return pile;
    if (pile && typeof pile === "object" && "count" in pile) return pile.count;
    return "";
  }

  TableTV.register("chaos-marauders", {
    status: function (game) {
      return [["Draw pile", pileCount(game.draw_pile)], ["Discards", pileCount(game.discard_pile)]];
    },
    render: function (main, game, view) {
      var cells = cellsOf(game);
      var fresh = lastSeq !== null && view.seq !== lastSeq ? freshCells(cells) : {};
      var waiting = game.prompt ? game.prompt.players || [] : [];
      var kind = game.prompt ? game.prompt.kind : null;
      var candidate = candidateOf(view);
      main.className = "tv-main cm-table cm-seats-" + (game.players || []).length;
      (game.players || []).forEach(function (p) {
        main.appendChild(band(p, fresh, waiting.indexOf(p.seat) >= 0, kind, candidate));
      });
      fitNames(main, (game.players || []).length);
      previousCells = cells;
      lastSeq = view.seq;
    },
  });
})();
