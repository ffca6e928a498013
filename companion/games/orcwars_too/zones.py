"""The places of an ORCWARS TOO! table that readers (or camera zones) can watch, and the chiefs' buttons.

* ``hand``: a reader in front of each chief where his hand lies (face down: the reader still reads it).
  A chip drawn from the tribe cup or the gold pile settles there; a chip lifted off it is traded for gold
  in the setup, discarded at B5, or starts the redraw of a hand without leaders.
* ``territory``: a reader under one territory of the board (any number of them; a territory without one
  is played from the phones). A leader carried there moves (or retreats) there; a chip of a hand laid
  beside a leader there is levied by him; a leader of a hand laid on his home is levied himself.
"""

from __future__ import annotations

from companion.bundle import ButtonRole, ZoneField, ZoneKind

HAND = ZoneKind("hand", "hand", fields=(ZoneField.seat(),), label="{owner}'s hand")
TERRITORY = ZoneKind(
    "territory", "territory", fields=(ZoneField.named("territory"),), label="the {territory} territory"
)
ZONES = (HAND, TERRITORY)

DONE = ButtonRole(
    "done",
    "Done",
    per_seat=True,
    provenance="a button per chief, no race between them: no window (the house rules time nothing)",
)
"""A chief's own button: done with what the prompt asks of him (ready after the setup, no more units
bought, his leaders' orders given, his rampage over, done trading)."""
BUTTONS = (DONE,)
