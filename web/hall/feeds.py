"""The hall's live feeds in the shape ``web.stream.events`` sends (a ``Subscription`` of views with an
``id``): the hall page's snapshots, and one table's relayed view for its read-only TV."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

from companion.hall.state import HallState


class Encoded(dict[str, Any]):
    """A message for ``web.stream.format_view``: its ``seq`` (the SSE id) and its JSON text."""

    __slots__ = ("json",)

    def __init__(self, seq: int, text: str) -> None:
        super().__init__(seq=seq)
        self.json = text


class _Feed:
    def __init__(self, state: HallState) -> None:
        self.state = state
        self._closed = False
        self._version = -1

    @property
    def dropped(self) -> int:
        return 0

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        self._closed = True

    def _changed(self, timeout: float | None) -> bool:
        version = self.state.wait(self._version, 3600.0 if timeout is None else timeout)
        if version == self._version:
            return False
        self._version = version
        return True


class SnapshotCache:
    """The hall page's snapshot, built once per change however many pages watch."""

    def __init__(self, build: Callable[[], dict[str, Any]]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._last: tuple[int, Encoded] | None = None

    def get(self, version: int) -> Encoded:
        with self._lock:
            if self._last is None or self._last[0] != version:
                body = self._build()
                self._last = (version, Encoded(version, json.dumps(body, separators=(",", ":"))))
            return self._last[1]


class HallFeed(_Feed):
    """Snapshots of the whole hall, at most one per ``min_interval`` seconds (a busy hall changes
    hundreds of times a second; a page redraws a few times)."""

    def __init__(self, state: HallState, cache: SnapshotCache, min_interval: float) -> None:
        super().__init__(state)
        self._cache = cache
        self._min_interval = min_interval
        self._sent_at = 0.0
        self._pause = threading.Event()  # never set: a wait on it is an interruptible pause

    def get(self, timeout: float | None = None) -> Encoded | None:
        if self._closed:
            return None
        wait = self._sent_at + self._min_interval - time.monotonic()
        if wait > 0:
            self._pause.wait(min(wait, timeout if timeout is not None else wait))
        if not self._changed(timeout):
            return None
        self._sent_at = time.monotonic()
        return self._cache.get(self._version)


class TableViewFeed(_Feed):
    """One table's latest view as the table published it (retained on the broker)."""

    def __init__(self, state: HallState, table: str) -> None:
        super().__init__(state)
        self.table = table
        self._sent: str | None = None

    def get(self, timeout: float | None = None) -> Encoded | None:
        if self._closed:
            return None
        deadline = time.monotonic() + (timeout or 0.0)
        while True:
            text = self.state.view_json(self.table)
            if text is not None and text is not self._sent:
                self._sent = text
                table = self.state.table(self.table)
                seq = int((table.view or {}).get("seq", 0)) if table is not None else 0
                return Encoded(seq, text)
            left = deadline - time.monotonic()
            if left <= 0 or not self._changed(left):
                return None
