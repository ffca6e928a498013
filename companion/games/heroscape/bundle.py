"""HeroScape (Swarm of the Marro) as a game bundle: what the platform needs to play it (companion.bundle)."""

from __future__ import annotations

from companion.bundle import CliCommand, GameBundle
from companion.engine import JSON
from companion.games.heroscape.catalog import GAME, TITLE
from companion.games.heroscape.zones import ZONES

_CLI = "companion.games.heroscape.cli"


def cards() -> list[dict[str, JSON]]:
    """The army cards as JSON objects (every value with its provenance)."""
    from companion.games.heroscape.catalog import default_catalog

    return [card.to_json() for card in default_catalog().cards]


BUNDLE = GameBundle(
    name=GAME,
    title=TITLE,
    engine="companion.games.heroscape.engine:HeroScape",
    package="companion.games.heroscape",
    zones=ZONES,
    mapper="companion.games.heroscape.table:HeroScapeMapper",
    catalog="companion.games.heroscape.bundle:cards",
    dice="data/dice.toml",
    screens=("tv.js", "tv.css", "control.js", "control.css"),
    commands=(
        CliCommand("odds", "exact odds of an attack", f"{_CLI}:odds_arguments", f"{_CLI}:odds_command"),
        CliCommand("cards", "list a game's cards", f"{_CLI}:cards_arguments", f"{_CLI}:cards"),
        CliCommand(
            "simulate",
            "play random games checking the rules engine",
            f"{_CLI}:simulate_arguments",
            f"{_CLI}:simulate",
        ),
    ),
    demo="companion.games.heroscape.demo:kit",
)
