"""Shattered Chaos as a game bundle: what the platform needs to play it (companion.bundle): the engine and
its data, the places its table reads (zones.py) and what a card, a button or ``next`` means there
(table.py), its dice, the camera mat, the TV and phone screens, the command-line extras and the demo."""

from __future__ import annotations

from companion.bundle import CliCommand, GameBundle
from companion.engine import JSON
from companion.games.shattered_chaos.zones import BUTTONS, ZONES

_CLI = "companion.games.shattered_chaos.cli"


def cards() -> list[dict[str, JSON]]:
    """The cards a table can tag: the adventurer cards and every chaos card (bronze, silver, gold)."""
    from companion.games.shattered_chaos.cli import card_catalog

    return card_catalog(None)


BUNDLE = GameBundle(
    name="shattered-chaos",
    title="Shattered Chaos",
    engine="companion.games.shattered_chaos.engine:ShatteredChaos",
    package="companion.games.shattered_chaos",
    zones=ZONES,
    buttons=BUTTONS,
    mapper="companion.games.shattered_chaos.table:ShatteredChaosMapper",
    catalog="companion.games.shattered_chaos.bundle:cards",
    dice="data/dice.toml",
    mat="data/mat.toml",
    screens=("tv.js", "tv.css", "control.js", "control.css"),
    commands=(
        CliCommand(
            "score",
            "the final evaluation of a finished adventure",
            f"{_CLI}:score_arguments",
            f"{_CLI}:score",
        ),
        CliCommand("odds", "exact odds of an adventurer's attack", f"{_CLI}:odds_arguments", f"{_CLI}:odds"),
        CliCommand("cards", "list a game's cards", f"{_CLI}:cards_arguments", f"{_CLI}:cards"),
        CliCommand(
            "simulate",
            "play random adventures checking the rules engine",
            f"{_CLI}:simulate_arguments",
            f"{_CLI}:simulate",
        ),
    ),
    demo="companion.games.shattered_chaos.demo:kit",
)
