"""What adapters see at the table, before any game meaning is attached (see DESIGN.md, adapters).

Adapters (serial bridge, GPIO, camera) produce these and only enqueue them; ``companion.table``
turns them into game commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NewType

ReaderId = NewType("ReaderId", int)
TagUid = NewType("TagUid", str)
"""An RFID UID as upper-case hex without separators, e.g. ``"04A1B2C3D4E5F6"``."""
DieId = NewType("DieId", int)
ButtonId = NewType("ButtonId", str)


@dataclass(frozen=True)
class TagSeen:
    reader: ReaderId
    uid: TagUid
    at: float
    """Monotonic seconds on the host when the observation arrived."""


@dataclass(frozen=True)
class TagGone:
    reader: ReaderId
    uid: TagUid
    at: float


@dataclass(frozen=True)
class DieRolled:
    """A die came to rest. The device says which of its dice and which face, never what the face shows:
    the table's ``[table.dice]`` names the die (``"cube"``, ``"d20"``) and the dice data maps the face
    to the game's symbol (``companion.dice``)."""

    die: DieId
    """The device's number for the die."""
    face: int
    """The face index the device read (1-based)."""
    at: float
    faces: int | None = None
    """How many faces the device says the die has (None: it does not say)."""


@dataclass(frozen=True)
class ButtonPressed:
    button: ButtonId
    at: float
    """When the button went down, in seconds of the host's monotonic clock (``time.monotonic``), for
    every source, so presses from the Pi's pins and from the microcontroller can be ordered together
    (a shout race):

    * ``"gpio"``: read in the gpiozero callback, the moment the edge reached the Pi;
    * ``"firmware"``: the board's own millisecond stamp of the edge, mapped onto the host's clock by
      an offset estimated from when its frames arrive (``firmware_bridge.clock``). Two presses on the
      board keep their order and their spacing (to 0.1 %), and a press that reached the host late (a
      re-send after an unplug) keeps the moment it was made.

    Both are within about a millisecond of the press: the GPIO stamp is late by the callback's
    scheduling, the board's by its debounce and the link's least delay."""
    source: str = "gpio"
    """What the button is wired to: "gpio" (the Pi's own pins) or "firmware" (the microcontroller).
    The commands a press makes carry it, so the log says which device an input came from."""


@dataclass(frozen=True)
class CardSighted:
    """The camera saw a card lying still in a zone of the mat (for its stability window)."""

    zone: str
    """The zone's name on the mat (``"p0-line1"``); the ``[table]`` layout says what it is."""
    card: str
    confidence: float
    at: float
    track: int = 0
    """A stable id of this physical card while the camera follows it, so two copies of one card in
    one zone stay apart."""
    covers: tuple[int, ...] = ()
    """Tracks of this zone the camera saw vanish from the spot where this card appeared: the cards
    it was laid on (a pile), or the ones lifted off it (it was uncovered). The table tells which."""
    moved_from: tuple[str, int] | None = None
    """(zone, track) of the card this one is, carried here from another zone: the camera saw the
    same card vanish there (within its move window) as this one appeared. Moves are detected here,
    once; the table takes them as they are."""


@dataclass(frozen=True)
class CardGone:
    """A card the camera had sighted left its zone (or is no longer seen)."""

    zone: str
    card: str
    at: float
    track: int = 0


Observation = TagSeen | TagGone | DieRolled | ButtonPressed | CardSighted | CardGone
