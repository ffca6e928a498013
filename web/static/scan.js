// The phone as a scanner: "Photograph the card" opens the phone's camera (a file input with
// `capture`, which works over plain HTTP, unlike a live viewfinder), shrinks the photo on the phone
// (a 12-megapixel photo is 4 MB; 1600 pixels are plenty to read a card and quick to send over Wi-Fi),
// sends it to /control/scan and offers the card it shows in the game's draw form (TableControl.offer):
// one tap to confirm, the next most likely cards beside it. Nothing changes at the table until then.
var TableScan = (function () {
  "use strict";

  var SIDE = 1600;
  var busy = false;

  function shrink(file) {
    return new Promise(function (resolve, reject) {
      var url = URL.createObjectURL(file);
      var img = new Image();
      img.onload = function () {
        var scale = Math.min(1, SIDE / Math.max(img.naturalWidth, img.naturalHeight));
        var canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.round(img.naturalWidth * scale));
        canvas.height = Math.max(1, Math.round(img.naturalHeight * scale));
        canvas.getContext("2d").drawImage(img, 0, 0, canvas.width, canvas.height);
        URL.revokeObjectURL(url);
        canvas.toBlob(function (blob) { blob ? resolve(blob) : reject(new Error("no JPEG")); }, "image/jpeg", 0.85);
      };
      img.onerror = function () { URL.revokeObjectURL(url); reject(new Error("not an image")); };
      img.src = url;
    });
  }

  function send(ctx, game, file) {
    busy = true;
    ctx.say("Reading the photo…", true);
    shrink(file)
      .catch(function () { return file; }) // the server says what is wrong with it
      .then(function (blob) {
        var form = new FormData();
        form.append("photo", blob, "card.jpg");
        return fetch(ctx.scanUrl(), { method: "POST", credentials: "same-origin", body: form });
      })
      .then(function (r) { return r.json().then(function (body) { return { status: r.status, body: body }; }); })
      .then(function (answer) {
        var cards = (answer.body.cards || []).map(function (c) { return c.card; });
        if (answer.status !== 200 || !cards.length) {
          ctx.say(answer.body.reason || "The photo could not be read (" + answer.status + ")", false);
          return;
        }
        var best = answer.body.cards[0];
        ctx.say(answer.body.sure ? "The photo shows " + best.title : "Not sure: is it " + best.title + "?", answer.body.sure);
        TableControl.offer(answer.body.game || game, cards[0], "phone's camera", cards.slice(1), answer.body.sure);
      })
      .catch(function () { ctx.say("No answer from the companion — is it running?", false); })
      .then(function () { busy = false; });
  }

  // The "Photograph the card" control for a game's draw form; null when this companion cannot scan.
  function button(ctx, game) {
    if (!ctx.scanUrl()) return null;
    var label = ctx.el("label", "button scan-card");
    label.id = "c-scan";
    label.appendChild(document.createTextNode("Photograph the card"));
    var input = document.createElement("input");
    input.type = "file";
    input.accept = "image/*";
    input.setAttribute("capture", "environment");
    input.className = "visually-hidden";
    input.id = "c-scan-photo";
    input.onchange = function () {
      var file = input.files && input.files[0];
      input.value = "";
      if (file && !busy) send(ctx, game, file);
    };
    label.appendChild(input);
    return label;
  }

  return { button: button };
})();
