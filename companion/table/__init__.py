"""The table: RFID readers, dice and buttons turned into game commands (see docs/table.md).

Game-agnostic zones, settle windows and the tag registry live here; what a card on a zone means
for a particular game lives in that game's bundle (``companion/games/<game>/table.py``).
"""

from companion.bundle import Zone, ZoneKind
from companion.table.clock import ManualClock
from companion.table.config import ReaderZone, TableConfig, TableConfigError
from companion.table.dice_owners import DiceOwnerError, DiceOwners
from companion.table.enrolment import PendingTag
from companion.table.registry import EnrolledTag, InvalidTagUidError, TagRegistry, normalise_uid
from companion.table.table import EnrolmentError, Table

__all__ = [
    "DiceOwnerError",
    "DiceOwners",
    "EnrolledTag",
    "EnrolmentError",
    "InvalidTagUidError",
    "ManualClock",
    "PendingTag",
    "ReaderZone",
    "Table",
    "TableConfig",
    "TableConfigError",
    "TagRegistry",
    "Zone",
    "ZoneKind",
    "normalise_uid",
]
