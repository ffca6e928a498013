"""The topic tree of a hall (docs/hall.md, Topics)::

    hall/<hall-id>/tables/<table-id>/events   every accepted input, QoS 1, in seq order
    hall/<hall-id>/tables/<table-id>/view     the table's published view, retained
    hall/<hall-id>/tables/<table-id>/status   online/offline (the last will), game, round, players, retained
    hall/<hall-id>/tables/<table-id>/result   the current game's result and who confirmed it, retained

Ids are short lowercase words, so a topic can never hold a wildcard or a level separator.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NewType, get_args

TableId = NewType("TableId", str)
HallId = NewType("HallId", str)
Leaf = Literal["events", "view", "status", "result"]
LEAVES: tuple[Leaf, ...] = get_args(Leaf)
ROOT = "hall"

_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


class TopicError(ValueError):
    """An id or topic that is not part of a hall's tree."""


def check_id(text: str, what: str = "table id") -> str:
    """``text`` when it is a valid id (1 to 40 of a-z, 0-9, '-' and '_', starting with a letter or
    digit); TopicError naming ``what`` otherwise."""
    if not isinstance(text, str) or not _ID.fullmatch(text):
        raise TopicError(
            f"{what} {str(text)[:60]!r} must be 1 to 40 of a-z, 0-9, '-' and '_',"
            " starting with a letter or digit"
        )
    return text


def table_id(text: str) -> TableId:
    return TableId(check_id(text, "table id"))


def hall_id(text: str) -> HallId:
    return HallId(check_id(text, "hall id"))


@dataclass(frozen=True)
class TableTopics:
    """The four topics of one table."""

    hall: HallId
    table: TableId

    @property
    def base(self) -> str:
        return f"{ROOT}/{self.hall}/tables/{self.table}"

    def leaf(self, leaf: Leaf) -> str:
        return f"{self.base}/{leaf}"

    @property
    def events(self) -> str:
        return self.leaf("events")

    @property
    def view(self) -> str:
        return self.leaf("view")

    @property
    def status(self) -> str:
        return self.leaf("status")

    @property
    def result(self) -> str:
        return self.leaf("result")


def subscriptions(hall: HallId) -> tuple[str, ...]:
    """What a hall subscribes to: every table's four leaves."""
    return tuple(f"{ROOT}/{hall}/tables/+/{leaf}" for leaf in LEAVES)


@dataclass(frozen=True)
class ParsedTopic:
    table: TableId
    leaf: Leaf


def parse_topic(hall: HallId, topic: str) -> ParsedTopic | None:
    """The table and leaf of a topic of ``hall``; None for anything else (another hall, an unknown
    leaf, a malformed id): a message on such a topic is dropped."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != ROOT or parts[1] != hall or parts[2] != "tables":
        return None
    if not _ID.fullmatch(parts[3]) or parts[4] not in LEAVES:
        return None
    return ParsedTopic(TableId(parts[3]), parts[4])  # type: ignore[arg-type]
