"""The places of a Chaos Marauders table that readers (or camera zones) can watch."""

from __future__ import annotations

from companion.bundle import ZoneKind

LINE = ZoneKind(
    "line", "battle line", needs=("player", "line"), allows=("slot",), label="{owner}'s line {line}"
)
"""A player's battle line: a card settling here is placed into that line (``slot`` when the reader
watches one slot; else the engine picks the only open slot or asks which)."""
DISCARD = ZoneKind("discard", "discard pile", label="the discard pile")
"""The discard pile: a card settling here is discarded."""
PAD = ZoneKind("pad", "play pad", allows=("player",), label="{owner}'s play pad", shared_label="the play pad")
"""Where a drawn card is shown; special (green) cards are resolved from here."""

ZONES = (LINE, DISCARD, PAD)
