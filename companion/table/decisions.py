"""What the table's pure parts decide, for the table to carry out (they never call back into it).

The tag path (``placements``), the camera path (``camera``) and the buttons read their inputs and
the live position, and return a list of these; ``Table`` posts the notices, offers the tags and
submits the translations, in order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.bundle import LivePosition, Translation
from companion.table.enrolment import PendingTag
from companion.table.mappers import TableGame


@dataclass(frozen=True)
class Post:
    """A notice that stays on the TV until a ``Clear`` of its key."""

    key: str
    text: str
    level: str = "warning"


@dataclass(frozen=True)
class Clear:
    key: str


@dataclass(frozen=True)
class Tell:
    """A one-off notice (gone after ``notice_s``)."""

    text: str
    level: str = "warning"


@dataclass(frozen=True)
class Offer:
    """A tag offered on the control page for enrolment."""

    tag: PendingTag


@dataclass(frozen=True)
class Play:
    """Carry out a mapper's translation (submit its act, or show its note); latency from ``since``."""

    translation: Translation
    since: float


Decision = Post | Clear | Tell | Offer | Play


@dataclass(frozen=True)
class Reading:
    """What the pure parts read at one moment: the live position, the running game as the table
    reads it (None when none is played or it has no mapper), whether enrolment is on, and how to
    find another game (a tag enrolled for a game not being played still needs its title)."""

    position: LivePosition
    game: TableGame | None
    enrolling: bool
    games: Callable[[str], TableGame | None]
