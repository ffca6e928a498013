"""The ORCWARS TOO! demo: chiefs who draw, levy, march on the orclands, fight and trade by themselves, at a
simulated table.

The chiefs (``demo_chiefs``) answer every prompt but the dice, which the platform throws. Their hands
(``demo_hands``) do at the table what has a physical act: chips drawn from the tribe cup and the gold pile
onto the hand readers, chips lifted off a hand, chips of a hand laid beside a leader on a territory's reader,
a leader carried to the next territory, the chiefs' Done buttons, the electronic dice; the rest (secret
strategies, damage assignments, answers, trades) goes from each chief's own phone.

The table (``layout``): one hand reader per chief, one reader under every territory of the board, a Done
button per chief and the next and confirm buttons, an electronic d6 that is also read as the d3, a d8 and a
d20.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.bundle import DemoLayout, DemoTable, LivePosition, TableDevice
from companion.engine import Action
from companion.games.orcwars_too.demo_chiefs import Chiefs
from companion.games.orcwars_too.demo_hands import OrcwarsHands
from companion.games.orcwars_too.demo_layout import Layout, chip_tags

PLAYERS = (
    {"name": "Ugluk", "colour": "#e23b3b"},
    {"name": "Grotsnik", "colour": "#2f7df6"},
    {"name": "Snagla", "colour": "#2fb84f"},
    {"name": "Bogrot", "colour": "#f2b01e"},
    {"name": "Muzgash", "colour": "#a65be0"},
    {"name": "Lagduf", "colour": "#1fb5b0"},
)
TURN_LIMIT = 25
"""A club night's clock for the demo's games, should no chief win by the rules before it runs out."""


class OrcwarsDemo:
    """The game's ``companion.bundle.DemoKit``."""

    players = PLAYERS
    options: Mapping[str, Any] = {"turn_limit": TURN_LIMIT}

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._chiefs = Chiefs(rng)
        self._layout = Layout()

    def layout(self, seats: int) -> DemoLayout:
        self._layout = Layout(seats)
        return self._layout.demo_layout()

    def tags(self) -> dict[str, str]:
        return chip_tags()

    def next_action(self, position: LivePosition) -> Action | None:
        return self._chiefs.next_action(position)

    def hands(self, table: DemoTable, device: TableDevice) -> OrcwarsHands:
        return OrcwarsHands(table, device, self._layout, chip_tags(), self._rng)


def kit(rng: random.Random) -> OrcwarsDemo:
    return OrcwarsDemo(rng)
