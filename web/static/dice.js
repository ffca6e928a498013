// Dice entry on the phone, for any game: what a roll prompt asks ({die, count, faces}) as the fewest taps.
// One die of few faces: a button per face. One die of many faces (a d20): a large grid, one tap.
// Several dice of few faces (combat dice): a counter per face that always adds up to the dice thrown
// (the last face holds the rest). Several dice of many faces: a grid per die, then Enter.
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

  function perDie(ctx, seat, roll, faces) {
    // Several dice of many faces: tap a face for each die (each grid keeps its pick), then Enter.
    var picked = [];
    var box = el("div", "dice-several");
    var go = el("button", "primary", "Enter " + roll.count + " dice");
    go.type = "button";
    go.disabled = true;
    go.onclick = function () { ctx.act({ kind: "roll", player: seat, die: roll.die, faces: picked.slice() }); };
    for (var i = 0; i < roll.count; i++) {
      (function (index) {
        box.appendChild(el("h4", null, "Die " + (index + 1)));
        var g = el("div", "dicegrid");
        ordered(faces).forEach(function (face) {
          var b = el("button", "dicegrid-face", ctx.faceName(roll.die, face));
          b.type = "button";
          b.onclick = function () {
            picked[index] = face;
            Array.prototype.forEach.call(g.children, function (c) { c.classList.toggle("is-picked", c === b); });
            go.disabled = picked.filter(function (f) { return f !== undefined; }).length !== roll.count;
          };
          g.appendChild(b);
        });
        box.appendChild(g);
      })(i);
    }
    box.appendChild(go);
    return box;
  }

  // The entry for one seat's roll: a node to put under "<name> rolled".
  function entry(ctx, seat, roll) {
    var faces = distinct(roll.faces);
    if (roll.count === 1 && faces.length <= 6) {
      var row = el("div", "dicebuttons");
      faces.forEach(function (face) {
        row.appendChild(button(ctx, ctx.faceName(roll.die, face), { kind: "roll", player: seat, die: roll.die, faces: [face] }));
      });
      return row;
    }
    if (roll.count === 1) return grid(ctx, seat, roll, faces);
    if (faces.length <= 4) return counter(ctx, seat, roll, faces);
    return perDie(ctx, seat, roll, faces);
  }

  return { entry: entry };
})();
