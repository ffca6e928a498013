"""ORCWARS TOO! as a game bundle: what the platform needs to play it (companion.bundle).

The engine, its data and dice, the table (a hand reader per chief, readers under the territories, a Done
button per chief: ``zones``, ``table``), the TV and phone screens, the command-line extras and the demo.
"""

from __future__ import annotations

from companion.bundle import CliCommand, GameBundle
from companion.engine import JSON
from companion.games.orcwars_too.zones import BUTTONS, ZONES

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
    zones=ZONES,
    buttons=BUTTONS,
    mapper="companion.games.orcwars_too.table:OrcwarsMapper",
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
    demo="companion.games.orcwars_too.demo:kit",
)
