"""The publisher's watermark, kept beside the event log (``<db>-hall.json``): the highest seq the broker
acknowledged (every seq up to it has its PUBACK), the seq publishing started after (``since``), and
which log and hall they belong to.

It is saved at most once a second and when publishing stops, without fsync: a watermark lost in a
power cut only makes the table publish a few acknowledged inputs again, which the hall drops as
duplicates. It is never ahead of the truth: a seq is written only after its PUBACK arrived.
"""

from __future__ import annotations

import json
import logging
import os
import time
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SAVE_EVERY = 1.0


@dataclass
class Mark:
    hall: str
    table: str
    log: str
    """A random id of the event log this mark counts in (a new log starts its seqs over)."""
    first_game: float | None
    """When the log's first game was created: a log replaced under the same path is told by it."""
    since: int
    acked: int


def mark_path(db: Path) -> Path:
    return db.with_name(f"{db.stem}-hall.json")


class Watermark:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.mark: Mark | None = None
        self._saved: Mark | None = None
        self._saved_at = 0.0

    def load(self, hall: str, table: str, first_game: float | None, start: int) -> Mark:
        """The mark for this hall and table (``start`` as ``since`` when there is none, or when it
        belongs to another hall, table or log)."""
        mark: Mark | None = None
        try:
            data = json.loads(self.path.read_text())
            mark = Mark(**data)
        except FileNotFoundError:
            pass
        except (OSError, ValueError, TypeError) as exc:
            log.warning(
                "the hall watermark %s is unreadable (%s): publishing from the current game", self.path, exc
            )
        same_log = mark is not None and (mark.first_game is None or mark.first_game == first_game)
        if mark is None or mark.hall != hall or mark.table != table or not same_log:
            mark = Mark(hall, table, uuid.uuid4().hex[:12], first_game, start, start)
        elif mark.first_game is None and first_game is not None:
            mark.first_game = first_game
        self.mark = mark
        self.save(force=True)
        return mark

    def advance(self, acked: int) -> None:
        assert self.mark is not None
        if acked > self.mark.acked:
            self.mark.acked = acked
            self.save()

    def save(self, force: bool = False) -> None:
        if self.mark is None or self.mark == self._saved:
            return
        now = time.monotonic()
        if not force and now - self._saved_at < SAVE_EVERY:
            return
        temporary = self.path.with_name(self.path.name + ".new")
        try:
            temporary.write_text(json.dumps(asdict(self.mark)))
            os.replace(temporary, self.path)
        except OSError as exc:  # a full card: the next save tries again; duplicates at worst
            log.warning("the hall watermark %s cannot be saved: %s", self.path, exc)
            return
        self._saved = Mark(**asdict(self.mark))
        self._saved_at = now
