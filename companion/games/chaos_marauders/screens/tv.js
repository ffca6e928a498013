// Chaos Marauders on the TV: one band per player, their three battle lines of twelve slots each.
// A card just placed pulses (found by comparing with the previous view, so it also works after an
// undo); the slot the table's next button is showing is outlined with the card confirm would put there.
// Every card stays identifiable from the sofa with twelve in a line, at 1080p and 720p: it shows its
// table name on two lines (TV_NAMES: the words players call it by, "Suicide / Squad"), its colour,
// a war machine's part as an arrow, a card of another tribe a dot in that tribe's colour; a legend
// under the bands says what the colours and marks mean. A slot's column is as wide as its name needs
// (empty slots narrow), and names are fitted from 24 down to 20 px, never cut.
"use strict";

(function () {
  var el = TableTV.el;
  var previousCells = null; // "seat:line:slot" -> card id, from the previous view
  var lastSeq = null;
  var SHIELD = "M12 2 4 5v6c0 5 3.4 9.3 8 11 4.6-1.7 8-6 8-11V5l-8-3z";
  var EMPTY_WEIGHT = 2.5; // an empty slot's column, in the characters a card's column is weighed in
  var NAME_PX = { 2: 30, 3: 28, 4: 24 }; // the largest name size by seats; fitted down to TableTV.MIN_PX
  // Two short lines per card, the words a table calls it by; the full title is the tile's tooltip and
  // the phone's. A card not listed here (an owner's own) shows its title on two lines.
  var TV_NAMES = {
    "grivziz-dirtballs": ["Grivziz", "Dirtballs"],
    "hak-veinthrobs-volunteers": ["Hak's", "Volunteers"],
    "spattznatts-suicide-squad": ["Suicide", "Squad"],
    "claws-of-malal": ["Claws of", "Malal"],
    "crummy-snotling-slaves": ["Snotling", "Slaves"],
    "hobgoblin-musician": ["Hobgoblin", "Musician"],
    "hobgoblin-standard": ["Hobgoblin", "Standard"],
    "orc-regimental-standard": ["Orc", "Standard"],
    "orc-regimental-musician": ["Orc", "Musician"],
    "bozlum-pigstickers": ["Pig-", "stickers"],
    "blightskabb-plague-lords": ["Plague", "Lords"],
    "sneaky-git": ["Sneaky", "Git"],
    "shaman-of-aaaaaaaag": ["Shaman", "of Aag"],
    "venemous-creeps": ["Venomous", "Creeps"],
    "spoil-heap": ["Spoil", "Heap"],
    "chaos-marauders": ["Chaos", "Marauders"],
    "horned-rat-standard": ["Horned Rat", "Standard"],
    "dagromm-flailbreath": ["Dagromm", "Flail"],
    "odlugg-spleenripper": ["Odlugg", "Spleen"],
    "idol": ["Idol", ""],
    "bilge-guttrot": ["Bilge", "Guttrot"],
    "skyrrs-blowback": ["Skyrr's", "Blowback"],
    "garok-varokroksenrok": ["Garok", ""],
    "monggos-meat-grinders": ["Meat", "Grinders"],
    "shotti": ["Shotti", ""],
    "spittledung-xxxxx": ["Spittle", "dung"],
  };
  var SIDES = { left: "left", right: "right", crew: "Crew" };

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
    return { key: seat + ":" + action.line + ":" + action.slot, title: pending ? pending.title : "", card: pending || null };
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

  function svg(className, label, paths) {
    // Drawn, not font glyphs: the TV's browser may have no emoji or symbol font.
    var ns = "http://www.w3.org/2000/svg";
    var node = document.createElementNS(ns, "svg");
    node.setAttribute("viewBox", "0 0 24 24");
    node.setAttribute("class", className);
    node.setAttribute("aria-label", label);
    paths.forEach(function (d) {
      var path = document.createElementNS(ns, "path");
      path.setAttribute("d", d);
      node.appendChild(path);
    });
    return node;
  }

  var ARROW = { left: "M15 4 5 12l10 8V4z", right: "M9 4l10 8-10 8V4z" };

  function tvName(card) {
    // [line 1, line 2] a tile shows for the card.
    if (card.hidden) return ["?", ""];
    if (TV_NAMES[card.id]) return TV_NAMES[card.id];
    if (card.machine) return [card.machine, SIDES[card.part] || card.part || ""];
    var words = String(card.title).split(/\s+/);
    var half = Math.ceil(words.length / 2);
    return [words.slice(0, half).join(" "), words.slice(half).join(" ")];
  }

  function tile(card, fresh, owners) {
    if (!card) return el("div", "tile tile-empty");
    var node = el("div", "tile card-" + (card.colour || "grey") + (fresh ? " tile-fresh" : ""));
    if (card.hidden) node.classList.add("tile-hidden"); // face down: the Chaos Marauders may be spotted
    node.dataset.card = card.id;
    node.title = card.title;
    var name = el("div", "tile-name");
    var stats = el("span", "tile-stats");
    if (card.attack !== null && card.attack !== undefined) stats.appendChild(el("span", "tile-attack", card.attack));
    if (card.vp) stats.appendChild(el("span", "tile-vp", card.vp));
    if (stats.childNodes.length) name.appendChild(stats);
    var lines = tvName(card);
    var first = el("span", "tile-line tile-line1", lines[0]);
    name.appendChild(first);
    var second = el("span", "tile-line tile-line2", card.machine && !TV_NAMES[card.id] ? "" : lines[1]);
    if (card.machine && ARROW[card.part]) second.appendChild(svg("tile-side tile-side-" + card.part, card.part, [ARROW[card.part]]));
    if (card.machine && !TV_NAMES[card.id]) second.appendChild(document.createTextNode(lines[1]));
    if (lines[1] || card.machine) name.appendChild(second);
    node.appendChild(name);
    if (card.owner !== null && card.owner !== undefined) {
      // A card of another tribe lying here (a Sneaky Git): a dot in its owner's colour.
      node.classList.add("tile-owned");
      var dot = el("span", "tile-owner");
      dot.style.setProperty("--owner", owners[card.owner] || "#ffcc4d");
      node.appendChild(dot);
    }
    return node;
  }

  function statsWeight(card) {
    // The attack and VP figures stand before the first line of the name.
    var attack = card.attack === null || card.attack === undefined ? "" : String(card.attack);
    var digits = Math.max(attack.length, String(card.vp || "").length);
    return digits ? digits + 0.8 : 0;
  }

  function weight(lines, extra) {
    // A card's column, in characters: its longer line (the first carries the figures).
    return Math.max(String(lines[0]).length + extra, String(lines[1] || "").length + (extra ? 1 : 0), 3);
  }

  function fitNames(main, seats) {
    // Each tile's two lines at one size, the largest that fits (rounds of writes then reads, as
    // TableTV.fitAll does, so a crowded table is laid out a few times, not once per tile).
    var max = NAME_PX[seats] || TableTV.MIN_PX;
    var names = Array.prototype.slice.call(main.querySelectorAll(".tile-name"));
    var size = {};
    names.forEach(function (name, i) { size[i] = max; name.style.fontSize = max + "px"; });
    var pending = names.map(function (name, i) { return i; });
    while (pending.length) {
      pending = pending.filter(function (i) { return TableTV.overflows(names[i]) || lineOverflows(names[i]); });
      pending = pending.filter(function (i) {
        if (size[i] <= TableTV.MIN_PX) return false;
        size[i] -= 2;
        names[i].style.fontSize = size[i] + "px";
        return true;
      });
    }
    // Last resort, never met by the names above: a line still too long is shortened, never cut.
    var jobs = [];
    names.forEach(function (name) {
      Array.prototype.forEach.call(name.querySelectorAll(".tile-line"), function (line) {
        if (line.scrollWidth > line.clientWidth + 1 && !line.querySelector("svg")) {
          jobs.push({ node: line, maxPx: TableTV.MIN_PX, minPx: TableTV.MIN_PX });
        }
      });
    });
    Array.prototype.forEach.call(main.querySelectorAll(".cm-name"), function (name) {
      jobs.push({ node: name, maxPx: 34, minPx: TableTV.MIN_PX });
    });
    TableTV.fitAll(jobs);
  }

  function lineOverflows(name) {
    return Array.prototype.some.call(name.querySelectorAll(".tile-line"), function (line) {
      return line.scrollWidth > line.clientWidth + 1;
    });
  }

  function candidateTile(candidate) {
    // Where Confirm would put the card: its name, dashed and beckoning.
    var node = el("div", "tile tile-candidate");
    var lines = candidate.card ? tvName(candidate.card) : [candidate.title, ""];
    var name = el("div", "tile-name");
    name.appendChild(el("span", "tile-line tile-line1", lines[0]));
    if (lines[1]) name.appendChild(el("span", "tile-line tile-line2", lines[1]));
    node.title = candidate.title;
    node.appendChild(name);
    return node;
  }

  function lineRow(player, line, fresh, candidate, owners) {
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
        slots.appendChild(candidateTile(candidate));
        columns.push(weight(tvName(candidate.card || { title: candidate.title }), 0));
      } else {
        slots.appendChild(tile(card, card && fresh[key], owners));
        columns.push(card ? weight(tvName(card), statsWeight(card)) : EMPTY_WEIGHT);
      }
    });
    // A card's column grows to its name's width before any empty slot takes what is left; a crowded
    // line shares the room so that short names are whole first (the grid fills tracks up evenly).
    slots.style.gridTemplateColumns = columns.map(function (w) {
      return w === EMPTY_WEIGHT ? "minmax(18px, 1fr)" : "minmax(0, max-content)";
    }).join(" ");
    row.appendChild(slots);
    return row;
  }

  function band(player, fresh, waiting, promptKind, candidate, owners, closed) {
    var panel = el("section", "cm-player" + (player.active ? " is-active" : "") + (waiting ? " is-waiting" : ""));
    panel.style.setProperty("--player", player.colour || "#888");
    panel.dataset.seat = player.seat;
    var head = el("header", "cm-head");
    head.appendChild(el("span", "cm-name", player.name));
    var score = el("div", "cm-score");
    score.appendChild(el("strong", "cm-total", TableTV.total(player)));
    score.appendChild(el("span", "cm-vp", "VP"));
    head.appendChild(score);
    // A projection that swings as lines complete and fall: said as one (a game closed with End game
    // ended there: its VP are what they were then).
    head.appendChild(el("span", "cm-vp-note", closed ? "when it was closed" : "if it ended now"));
    if (waiting) head.appendChild(el("span", "cm-turn", promptKind === "roll" ? "roll the Cube!" : "to play"));
    panel.appendChild(head);
    var lines = el("div", "cm-lines");
    (player.lines || []).forEach(function (line) {
      lines.appendChild(lineRow(player, line, fresh, candidate, owners));
    });
    panel.appendChild(lines);
    return panel;
  }

  function legend(game) {
    // What the colours and marks mean, in one line under the bands.
    var box = el("div", "cm-legend");
    [["grey", "troops"], ["purple", "regiments"], ["green", "special"], ["blue", "booty"], ["red", "war machine"]].forEach(function (pair) {
      var item = el("span", "cm-legend-item");
      item.appendChild(el("span", "cm-swatch card-" + pair[0]));
      item.appendChild(document.createTextNode(pair[1]));
      box.appendChild(item);
    });
    var figures = el("span", "cm-legend-item");
    figures.appendChild(el("span", "tile-attack", "5"));
    figures.appendChild(document.createTextNode("attack "));
    figures.appendChild(el("span", "tile-vp", "40"));
    figures.appendChild(document.createTextNode("VP"));
    box.appendChild(figures);
    var sides = el("span", "cm-legend-item");
    sides.appendChild(svg("tile-side", "left", [ARROW.left]));
    sides.appendChild(svg("tile-side", "right", [ARROW.right]));
    sides.appendChild(document.createTextNode("machine part"));
    box.appendChild(sides);
    var owned = el("span", "cm-legend-item");
    owned.appendChild(el("span", "cm-legend-dot"));
    owned.appendChild(document.createTextNode("owner's colour"));
    box.appendChild(owned);
    var guarded = el("span", "cm-legend-item");
    guarded.appendChild(shield());
    guarded.appendChild(document.createTextNode("Horned Rat: safe"));
    box.appendChild(guarded);
    return box;
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
      var owners = {};
      (game.players || []).forEach(function (p) { owners[p.seat] = p.colour; });
      main.className = "tv-main cm-table cm-seats-" + (game.players || []).length;
      (game.players || []).forEach(function (p) {
        main.appendChild(band(p, fresh, waiting.indexOf(p.seat) >= 0, kind, candidate, owners, !!game.closed));
      });
      main.appendChild(legend(game));
      fitNames(main, (game.players || []).length);
      previousCells = cells;
      lastSeq = view.seq;
    },
  });
})();
