"""The places of a Shattered Chaos table that readers (or camera zones) watch, and its own button.

Each adventurer's card lies before its player, with up to two chaos cards laid by it (V.G line 1549: "up to
2 chaos cards on his adventurer card"); the large chaos board holds the three chaos card stacks and their
discard pile (IV.6-7). A reader may watch one card place (an adventurer card, one chaos card slot) or a
whole adventurer's place (the card and the chaos cards laid by it: a chaos card on an adventurer zone is
in that adventurer's hand, as on its chaos zone).
"""

from __future__ import annotations

from companion.bundle import ButtonRole, ZoneField, ZoneKind

STACKS = ("defensive", "offensive", "flexible")
"""The chaos card stacks (V.G line 1405), as a stack zone names them."""

ADVENTURER = ZoneKind(
    "adventurer", "adventurer card", fields=(ZoneField.seat(),), label="{owner}'s adventurer card"
)
"""A player's adventurer card: which adventurer the seat plays (and the chaos cards laid on or by it)."""
CHAOS = ZoneKind(
    "chaos",
    "chaos cards",
    fields=(ZoneField.seat(), ZoneField.number("slot", required=False, maximum=1, title="chaos card slot")),
    label="{owner}'s chaos cards",
)
"""The chaos cards an adventurer holds, laid by the adventurer card (``slot`` when a reader watches one of
the two places)."""
STACK = ZoneKind(
    "stack",
    "chaos card stack",
    fields=(ZoneField.named("stack", title="chaos card stack"),),
    label="the {stack} stack",
)
"""One of the three chaos card stacks on the large chaos board (``stack = "offensive"``)."""
DISCARD = ZoneKind("discard", "chaos card discard pile", label="the chaos card discard pile")
"""The chaos card discard pile (IV.7): a card laid here from an adventurer's card is used or discarded."""

ZONES = (ADVENTURER, CHAOS, STACK, DISCARD)

ADVENTURER_BUTTON = ButtonRole(
    "adventurer",
    "Adventurer",
    per_seat=True,
    window_ms=1500,
    provenance=(
        "assumed: the players whose adventurer the enemy sees press their buttons one after another once the"
        " TV asks; 1.5 s from the first press gathers them, short enough that the table does not wait"
    ),
)
"""One button per seat, "my adventurer": the answer to what only the map knows (the enemy sees me, I am the
closest, the tie is me), the adventurer a chaos call names, the one who suffers a shadow's damage. The
``next`` button says "none of them"."""

BUTTONS = (ADVENTURER_BUTTON,)
