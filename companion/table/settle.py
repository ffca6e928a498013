"""Which tag is really lying on which reader: the settle and removal windows, with no game meaning.

A card slid across the table brushes the readers it passes; a tag on the edge of a field drops out
for a read cycle. So a reading becomes a *placement* only after it stayed ``settle`` seconds with the
tag on no other reader, and a placed tag becomes a *lift* only after it stayed away ``removal``
seconds. A tag lying on two readers at once is *ambiguous*: reported, never committed to either.

Pure and single-threaded: the caller feeds readings with their times and asks what fell due.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.observations import ReaderId, TagUid


@dataclass(frozen=True)
class Placed:
    reader: ReaderId
    uid: TagUid
    seen_at: float
    """Start of the window the tag stayed (its arrival, or when it left the reader it also touched)."""
    settled_at: float
    """When the settle window ended: latency is measured from here."""


@dataclass(frozen=True)
class Lifted:
    reader: ReaderId
    uid: TagUid
    gone_at: float


@dataclass(frozen=True)
class Ambiguous:
    uid: TagUid
    readers: tuple[ReaderId, ...]


@dataclass(frozen=True)
class Cleared:
    """An ambiguous tag now lies on at most one reader."""

    uid: TagUid


Settled = Placed | Lifted | Ambiguous | Cleared


@dataclass
class _Reading:
    since: float
    settle: float
    removal: float
    committed: bool = False
    gone_at: float | None = None
    ambiguous: bool = False


class SettleTracker:
    def __init__(self, settle: float, removal: float) -> None:
        self._settle = settle
        self._removal = removal
        self._readings: dict[tuple[ReaderId, TagUid], _Reading] = {}
        self._ambiguous: set[TagUid] = set()

    def seen(self, reader: ReaderId, uid: TagUid, at: float, *, settled: bool = False) -> None:
        """A tag read on ``reader``. ``settled``: the reading already held still (the camera waits
        its own stability window before it reports a card), so it counts at once and leaves at once."""
        reading = self._readings.get((reader, uid))
        if reading is None:
            windows = (0.0, 0.0) if settled else (self._settle, self._removal)
            self._readings[(reader, uid)] = _Reading(at, *windows)
        elif reading.gone_at is not None:
            reading.gone_at = None  # back within the removal window: a flicker
        # else a repeated report (a re-sync after reconnect): nothing changes

    def gone(self, reader: ReaderId, uid: TagUid, at: float) -> None:
        reading = self._readings.get((reader, uid))
        if reading is None:
            return
        if reading.committed:
            if reading.gone_at is None:
                reading.gone_at = at
        else:
            del self._readings[(reader, uid)]  # it never settled: a slide, nothing to report
        # The tag has left this reader: wherever else it lies must now stay a full window on its own.
        for (other_reader, other_uid), other in self._readings.items():
            if other_uid == uid and other_reader != reader and not other.committed:
                other.since = max(other.since, at)
                other.ambiguous = False

    def due(self, now: float) -> list[Settled]:
        """Everything that settled by ``now``, in time order of the windows' ends."""
        out: list[tuple[float, Settled]] = []
        for (reader, uid), reading in list(self._readings.items()):
            if reading.committed:
                if reading.gone_at is not None and reading.gone_at + reading.removal <= now:
                    del self._readings[(reader, uid)]
                    out.append((reading.gone_at + reading.removal, Lifted(reader, uid, reading.gone_at)))
            elif not reading.ambiguous and reading.since + reading.settle <= now:
                others = self._present_elsewhere(reader, uid)
                if others:
                    reading.ambiguous = True
                    if uid not in self._ambiguous:
                        self._ambiguous.add(uid)
                        readers = tuple(sorted((reader, *others)))
                        out.append((reading.since + reading.settle, Ambiguous(uid, readers)))
                else:
                    reading.committed = True
                    settled_at = reading.since + reading.settle
                    out.append((settled_at, Placed(reader, uid, reading.since, settled_at)))
        for uid in sorted(self._ambiguous):
            if not any(r.ambiguous for (_, u), r in self._readings.items() if u == uid):
                self._ambiguous.discard(uid)
                out.append((now, Cleared(uid)))
        out.sort(key=lambda item: item[0])
        return [settled for _, settled in out]

    def next_deadline(self) -> float | None:
        """When ``due`` next has something to say (None: not until a new reading)."""
        deadlines: list[float] = []
        for reading in self._readings.values():
            if reading.committed:
                if reading.gone_at is not None:
                    deadlines.append(reading.gone_at + reading.removal)
            elif not reading.ambiguous:
                deadlines.append(reading.since + reading.settle)
        if any(self._ambiguous_settled(uid) for uid in self._ambiguous):
            deadlines.append(float("-inf"))  # an ambiguity just resolved: report it at once
        return min(deadlines, default=None)

    def committed_on(self, reader: ReaderId) -> list[TagUid]:
        """Tags placed on ``reader`` and not lifted (including ones inside their removal window)."""
        return [uid for (r, uid), reading in self._readings.items() if r == reader and reading.committed]

    def placed_reader(self, uid: TagUid) -> ReaderId | None:
        for (reader, u), reading in self._readings.items():
            if u == uid and reading.committed:
                return reader
        return None

    def _present_elsewhere(self, reader: ReaderId, uid: TagUid) -> list[ReaderId]:
        return [
            r
            for (r, u), reading in self._readings.items()
            if u == uid and r != reader and reading.gone_at is None
        ]

    def _ambiguous_settled(self, uid: TagUid) -> bool:
        return not any(r.ambiguous for (_, u), r in self._readings.items() if u == uid)
