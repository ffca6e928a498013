"""The places of a HeroScape table that readers (or camera zones) can watch."""

from __future__ import annotations

from companion.bundle import ZoneField, ZoneKind

ARMY = ZoneKind("army", "army cards", fields=(ZoneField.seat(),), label="{owner}'s army cards")
"""Where a player lays his army cards: a card settling here joins his army while armies are gathered
(premade or drafted) and is checked against the army afterwards."""

ZONES = (ARMY,)
