"""ORCWARS TOO! as a game bundle: what the platform needs to play it (companion.bundle).

Phase 1: the engine, its data, dice, screens and command-line extras; played by phone. The table's
zones (a hand reader, territories), its mapper and the demo come with the platform's new table interface.
"""

from __future__ import annotations

from companion.bundle import CliCommand, GameBundle
from companion.engine import JSON

_CLI = "companion.games.orcwars_too.cli"


def cards() -> list[dict[str, JSON]]:
    """Every chip of the box as JSON objects (every value with its provenance)."""
    from companion.games.orcwars_too.catalog import default_data
    from companion.games.orcwars_too.cli import chips

    return chips(default_data())


BUNDLE = GameBundle(
    name="orcwars-too",
    title="ORCWARS TOO!",
    engine="companion.games.orcwars_too.engine:OrcwarsToo",
    package="companion.games.orcwars_too",
    catalog="companion.games.orcwars_too.bundle:cards",
    dice="data/dice.toml",
    screens=("tv.js", "tv.css", "control.js", "control.css"),
    commands=(
        CliCommand(
            "combat",
            "combat damage from the ratio tables",
            f"{_CLI}:combat_arguments",
            f"{_CLI}:combat",
        ),
        CliCommand("cards", "list a game's cards", f"{_CLI}:cards_arguments", f"{_CLI}:cards"),
        CliCommand(
            "simulate",
            "play random games checking the rules engine",
            f"{_CLI}:simulate_arguments",
            f"{_CLI}:simulate",
        ),
    ),
)
