"""Raid's declarations: everything the platform reads of it (companion.bundle.GameBundle)."""

from __future__ import annotations

from companion.bundle import ButtonRole, GameBundle, ZoneField, ZoneKind
from companion.engine import JSON

NAME = "raid"
TITLE = "Raid"
CARDS = {"scout": ("Scout", 1), "torch": ("Torch", 2), "banner": ("Banner", 3)}
"""Card id -> (printed title, points)."""
TERRITORIES = ("north", "south")
MODELS = 2

HAND = ZoneKind("hand", "hand", fields=(ZoneField.seat(),), label="{owner}'s hand")
TERRITORY = ZoneKind(
    "territory", "territory", fields=(ZoneField.named("territory"),), label="the {territory} territory"
)
ENEMY = ZoneKind(
    "enemy",
    "enemy model",
    fields=(ZoneField.number("model", maximum=MODELS - 1, title="enemy model"),),
    label="enemy model {model}",
)
READY = ButtonRole("ready", "Ready", per_seat=True, provenance="a button per seat: no race, no window")


def cards() -> list[dict[str, JSON]]:
    return [{"id": card, "title": title, "points": points} for card, (title, points) in CARDS.items()]


BUNDLE = GameBundle(
    name=NAME,
    title=TITLE,
    engine="tests.bundles.raid.engine:Raid",
    package="tests.bundles.raid",
    zones=(HAND, TERRITORY, ENEMY),
    buttons=(READY,),
    mapper="tests.bundles.raid.table:RaidMapper",
    catalog="tests.bundles.raid.bundle:cards",
    mat="data/mat.toml",
    screens=("tv.js",),
    demo="tests.bundles.raid.demo:kit",
)
