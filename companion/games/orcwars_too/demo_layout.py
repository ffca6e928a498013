"""The simulated table of the ORCWARS TOO! demo: which reader, button and die is what, and the tags of
every chip of the box."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.bundle import DemoLayout
from companion.games.orcwars_too.actions import GOLD
from companion.games.orcwars_too.catalog import default_data

SEATS = 6
CHIP_PREFIX = 0x0C
GOLD_PREFIX = 0x0D


def chip_tags() -> dict[str, str]:
    """UID -> chip for every chip of the box: one tag a counter or caravan (``0C000000``, ``0C000001``...
    in the data's order), one a gold chip (``0D000000``...), all alike. Deterministic: a restarted demo
    finds them again."""
    data = default_data()
    tags = {f"{CHIP_PREFIX:02X}{n:06X}": chip for n, chip in enumerate(_chips())}
    tags.update({f"{GOLD_PREFIX:02X}{n:06X}": GOLD for n in range(data.gold_chips)})
    return tags


def _chips() -> list[str]:
    data = default_data()
    return [c.id for c in data.counters] + [c.id for c in data.caravans]


@dataclass(frozen=True)
class Layout:
    """Readers 0..seats-1 are the chiefs' hands, then one per territory in the board's order; button n is
    chief n's Done, then next and confirm; die 0 is the d6 (also read as the d3), die 1 the d8, die 2 the
    d20."""

    seats: int = SEATS
    settle_ms: int = 40
    removal_ms: int = 80

    @property
    def territories(self) -> tuple[str, ...]:
        return tuple(t.id for t in default_data().board)

    def hand_reader(self, seat: int) -> int:
        return seat

    def territory_reader(self, territory: str) -> int:
        return self.seats + self.territories.index(territory)

    @property
    def next_button(self) -> int:
        return self.seats

    @property
    def confirm_button(self) -> int:
        return self.seats + 1

    def table_section(self) -> dict[str, Any]:
        readers: list[dict[str, Any]] = [
            {"reader": self.hand_reader(s), "zone": "hand", "player": s} for s in range(self.seats)
        ]
        readers += [
            {"reader": self.territory_reader(t), "zone": "territory", "territory": t}
            for t in self.territories
        ]
        buttons = {str(s): f"done:{s}" for s in range(self.seats)}
        buttons.update({str(self.next_button): "next", str(self.confirm_button): "confirm"})
        return {
            "settle_ms": self.settle_ms,
            "removal_ms": self.removal_ms,
            "readers": readers,
            "buttons": buttons,
        }

    def demo_layout(self) -> DemoLayout:
        readers = self.seats + len(self.territories)
        buttons = (*range(self.seats), self.next_button, self.confirm_button)
        dice = ((0, ("d6", "d3")), (1, "d8"), (2, "d20"))
        return DemoLayout(readers, buttons, dice, self.table_section())
