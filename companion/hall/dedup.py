"""Dropping duplicates by (table, sequence): QoS 1 delivers at least once, and a table that reconnects
re-publishes everything after the last seq the broker acknowledged, so a hall sees some seqs twice.

A table's seqs come from one event log; a table moved to a new log (``log`` changes) starts over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hall.topics import TableId

MAX_AHEAD = 4096
"""Seqs remembered above the highest contiguous one (a gap the table has not filled yet)."""


@dataclass
class _Seen:
    log: str
    upto: int
    """Every seq up to this one has been seen (or lies before the table's ``since``)."""
    ahead: set[int] = field(default_factory=set)


class Deduplicator:
    """Which (table, seq) pairs a hall has already taken. Not thread-safe: one reader calls it."""

    def __init__(self) -> None:
        self._tables: dict[TableId, _Seen] = {}

    def first_time(self, table: TableId, log: str, since: int, seq: int) -> bool:
        """True the first time ``seq`` of ``table``'s log arrives, False for a duplicate."""
        seen = self._tables.get(table)
        if seen is None or seen.log != log:
            # The first seq seen is the baseline: a hall that began listening after the table started
            # publishing never gets the earlier seqs, and waiting for them would be a gap for ever.
            seen = self._tables[table] = _Seen(log, max(since, seq - 1))
        if seq <= seen.upto or seq in seen.ahead:
            return False
        if seq == seen.upto + 1:
            seen.upto = seq
            while seen.upto + 1 in seen.ahead:
                seen.upto += 1
                seen.ahead.discard(seen.upto)
        else:
            seen.ahead.add(seq)
            if len(seen.ahead) > MAX_AHEAD:  # a gap never filled: give it up, remember what follows
                seen.upto = min(seen.ahead)
                seen.ahead.discard(seen.upto)
                while seen.upto + 1 in seen.ahead:
                    seen.upto += 1
                    seen.ahead.discard(seen.upto)
        return True

    def missing(self, table: TableId) -> tuple[int, int] | None:
        """The first gap (first, last seq missing) of ``table``, or None when its seqs are contiguous."""
        seen = self._tables.get(table)
        if seen is None or not seen.ahead:
            return None
        return seen.upto + 1, min(seen.ahead) - 1
