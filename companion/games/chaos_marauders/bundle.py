"""Chaos Marauders as a game bundle: what the platform needs to play it (see companion.bundle)."""

from __future__ import annotations

from companion.bundle import CliCommand, GameBundle
from companion.engine import JSON
from companion.games.chaos_marauders.catalog import GAME, TITLE
from companion.games.chaos_marauders.zones import BUTTONS, ZONES

_CLI = "companion.games.chaos_marauders.cli"


def cards() -> list[dict[str, JSON]]:
    """The card catalog as JSON objects (every value with its provenance)."""
    from companion.games.chaos_marauders.catalog import load_catalog

    return [card.to_json() for card in load_catalog()]


BUNDLE = GameBundle(
    name=GAME,
    title=TITLE,
    engine="companion.games.chaos_marauders.engine:ChaosMarauders",
    package="companion.games.chaos_marauders",
    zones=ZONES,
    buttons=BUTTONS,
    mapper="companion.games.chaos_marauders.table:ChaosMaraudersMapper",
    catalog="companion.games.chaos_marauders.bundle:cards",
    dice="data/dice.toml",
    mat="data/mat.toml",
    screens=("tv.js", "tv.css", "control.js", "control.css"),
    commands=(
        CliCommand("cards", "list a game's cards", f"{_CLI}:cards_arguments", f"{_CLI}:cards"),
        CliCommand(
            "simulate",
            "play random games checking the rules engine",
            f"{_CLI}:simulate_arguments",
            f"{_CLI}:simulate",
        ),
        CliCommand("score", "score a finished table", f"{_CLI}:score_arguments", f"{_CLI}:score"),
    ),
    demo="companion.games.chaos_marauders.demo:kit",
)
