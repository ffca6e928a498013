// Starts the page once every script (the frame's and each game's screens) has loaded. The pages carry
// no inline script: their Content-Security-Policy allows only the companion's own files, so the
// settings a page needs ride in a JSON block (#tv-config, #c-config) that this file hands over.
"use strict";

(function () {
  var tv = document.getElementById("tv-config");
  if (tv && window.TableTV) {
    var config = JSON.parse(tv.textContent);
    TableTV.start(config.stream, config.history, config.view, config.dice);
    if (window.TablePairing) TablePairing.start(config.pairing);
  }
  if (document.getElementById("c-config") && window.TableControl) TableControl.start();
})();
