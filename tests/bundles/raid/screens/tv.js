// Raid's TV: the party's tally against the target, each player's plan. Registered like any game's.
"use strict";

TableTV.register("raid", {
  render: function (main, game) {
    var el = TableTV.el;
    main.className = "tv-main tv-plain";
    var tally = el("section", "plain-player");
    tally.appendChild(el("span", "plain-name", "The party"));
    tally.appendChild(el("strong", "plain-total", game.tally + " / " + game.target));
    main.appendChild(tally);
    (game.players || []).forEach(function (p) {
      var panel = el("section", "plain-player" + (p.active ? " is-waiting" : ""));
      panel.style.setProperty("--player", p.colour || "#888");
      panel.appendChild(el("span", "plain-name", p.name));
      panel.appendChild(el("span", "plain-parts", p.plan || ""));
      main.appendChild(panel);
    });
  },
  round: function (game) { return "Round " + game.round + " of " + game.rounds; },
});
