"""The places of a Chaos Marauders table that readers (or camera zones) can watch, and its buttons."""

from __future__ import annotations

from companion.bundle import ButtonRole, ZoneField, ZoneKind
from companion.games.chaos_marauders.state import LINES, SLOTS

LINE = ZoneKind(
    "line",
    "battle line",
    fields=(
        ZoneField.seat(),
        ZoneField.number("line", maximum=LINES - 1),
        ZoneField.number("slot", required=False, maximum=SLOTS - 1),
    ),
    label="{owner}'s line {line}",
)
"""A player's battle line: a card settling here is placed into that line (``slot`` when the reader
watches one slot; else the engine picks the only open slot or asks which)."""
DISCARD = ZoneKind("discard", "discard pile", label="the discard pile")
"""The discard pile: a card settling here is discarded."""
PAD = ZoneKind(
    "pad",
    "play pad",
    fields=(ZoneField.seat(required=False),),
    label="{owner}'s play pad",
    shared_label="the play pad",
)
"""Where a drawn card is shown; special (green) cards are resolved from here."""

ZONES = (LINE, DISCARD, PAD)

SHOUT = ButtonRole(
    "shout",
    "Shout",
    per_seat=True,
    window_ms=40,
    provenance=(
        "assumed: presses this close are a tie to the ear, so the buttons' own timestamps decide; long "
        "enough for the slowest button source to report, short enough that nobody notices the wait"
    ),
)
"""One button per seat: "Chaos Marauders!" is shouted when a player spots the card (rulebook). The
first press wins; presses within the window are ordered by their timestamps (companion.table)."""

BUTTONS = (SHOUT,)
