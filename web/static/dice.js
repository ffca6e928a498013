// Dice entry on the phone, for any game: what a roll prompt asks ({die, count, faces, policy, dice}) as
// the fewest taps. One die of few faces: a button per face. One die of many faces (a d20): a large
// grid, one tap. A die thrown again and again (policy one_by_one): each throw as one die, entered as
// it falls. Several dice of few faces (combat dice): a counter per face that always adds up to the
// dice thrown (the last face holds the rest). Several dice of many faces, or different dice thrown
// together (roll.dice: a yellow, a red and a blue die): a grid per die with its own faces, then Enter.
"use strict";

var TableDice = (function () {
  var el = TableLive.el;

  function distinct(list) {
    return list.filter(function (x, i) { return list.indexOf(x) === i; });
  }

  function button(ctx, label, action, className) {
    var b = el("button", className || "primary", label);
    b.type = "button";
    b.dataset.action = JSON.stringify(action);
    b.onclick = function () { ctx.act(action); };
    return b;
  }

  // Faces in the order people read them: numbers by value, the rest as the die lists them.
  function ordered(faces) {
    var numeric = faces.every(function (f) { return /^\d+$/.test(String(f)); });
    return numeric ? faces.slice().sort(function (a, b) { return Number(a) - Number(b); }) : faces;
  }

  function grid(ctx, seat, roll, faces) {
    var box = el("div", "dicegrid" + (faces.length > 12 ? " dicegrid-wide" : ""));
    ordered(faces).forEach(function (face) {
      box.appendChild(button(ctx, ctx.faceName(roll.die, face), { kind: "roll", player: seat, die: roll.die, faces: [face] }, "dicegrid-face"));
    });
    return box;
  }

  function counter(ctx, seat, roll, faces) {
    // The last face is "the rest": + on another face takes a die from it, − gives one back, so the
    // counts always add up to roll.count and Enter is always ready ("9 of 5 dice" cannot happen).
    var rest = faces[faces.length - 1];
    var counts = {};
    faces.forEach(function (face) { counts[face] = face === rest ? roll.count : 0; });
    var box = el("div", "facecount");
    function thrown() {
      var out = [];
      faces.forEach(function (f) { for (var i = 0; i < counts[f]; i++) out.push(f); });
      return out;
    }
    function redraw() {
      while (box.firstChild) box.removeChild(box.firstChild);
      faces.forEach(function (face) {
        var row = el("div", "facecount-row" + (face === rest ? " facecount-rest" : ""));
        row.dataset.face = face;
        row.appendChild(el("span", "facecount-name", ctx.faceName(roll.die, face)));
        if (face === rest) {
          row.appendChild(el("span", "facecount-restnote", "the rest"));
          row.appendChild(el("strong", "facecount-n", counts[face]));
        } else {
          var minus = el("button", "small", "−");
          minus.type = "button";
          minus.disabled = counts[face] === 0;
          minus.onclick = function () { counts[face]--; counts[rest]++; redraw(); };
          var plus = el("button", "small", "+");
          plus.type = "button";
          plus.disabled = counts[rest] === 0;
          plus.onclick = function () { counts[face]++; counts[rest]--; redraw(); };
          row.appendChild(minus);
          row.appendChild(el("strong", "facecount-n", counts[face]));
          row.appendChild(plus);
        }
        box.appendChild(row);
      });
      var go = button(ctx, "Enter " + roll.count + " dice", { kind: "roll", player: seat, die: roll.die, faces: thrown() });
      box.appendChild(go);
    }
    redraw();
    return box;
  }

  function perDie(ctx, seat, roll, dice) {
    // One grid per die ({die, title, faces}; each grid keeps its pick), then Enter.
    var picked = [];
    var box = el("div", "dice-several");
    var go = el("button", "primary", "Enter " + dice.length + " dice");
    go.type = "button";
    go.disabled = true;
    go.onclick = function () { ctx.act({ kind: "roll", player: seat, die: roll.die, faces: picked.slice() }); };
    dice.forEach(function (die, index) {
      box.appendChild(el("h4", null, die.title));
      var g = el("div", "dicegrid");
      ordered(die.faces).forEach(function (face) {
        var b = el("button", "dicegrid-face", ctx.faceName(die.die, face));
        b.type = "button";
        b.onclick = function () {
          picked[index] = face;
          Array.prototype.forEach.call(g.children, function (c) { c.classList.toggle("is-picked", c === b); });
          go.disabled = picked.filter(function (f) { return f !== undefined; }).length !== dice.length;
        };
        g.appendChild(b);
      });
      box.appendChild(g);
    });
    box.appendChild(go);
    return box;
  }

  function mixed(ctx, seat, roll) {
    // Different dice thrown together, in the roll's order: each die offers the faces its dice data
    // gives (else every face the roll accepts) under its own name.
    return perDie(ctx, seat, roll, roll.dice.map(function (die) {
      var known = ctx.die(die);
      var faces = known && known.faces ? Object.keys(known.faces) : [];
      return { die: die, title: known && known.title ? known.title : die, faces: faces.length ? faces : distinct(roll.faces) };
    }));
  }

  // The entry for one seat's roll: a node to put under "<name> rolled".
  function entry(ctx, seat, roll) {
    if (roll.dice && roll.dice.length) return mixed(ctx, seat, roll);
    var faces = distinct(roll.faces);
    if (roll.count === 1 || roll.policy === "one_by_one") {
      if (faces.length > 6) return grid(ctx, seat, roll, faces);
      var row = el("div", "dicebuttons");
      faces.forEach(function (face) {
        row.appendChild(button(ctx, ctx.faceName(roll.die, face), { kind: "roll", player: seat, die: roll.die, faces: [face] }));
      });
      return row;
    }
    if (faces.length <= 4) return counter(ctx, seat, roll, faces);
    var dice = [];
    for (var i = 0; i < roll.count; i++) dice.push({ die: roll.die, title: "Die " + (i + 1), faces: faces });
    return perDie(ctx, seat, roll, dice);
  }

  return { entry: entry };
})();
