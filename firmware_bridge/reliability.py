"""The host end of reliable delivery: accept the next expected sequence number, nothing else.

The device runs go-back-N (see ``firmware/tcproto.Outbox``), so the host needs no reordering buffer:
an event ahead of a gap is dropped and re-sent by the device; one behind the window is a duplicate.
Sequence numbers are 16-bit and compared with serial-number arithmetic (RFC 1982), so they wrap.
"""

from __future__ import annotations

from enum import Enum


class Verdict(Enum):
    DELIVER = "deliver"
    DUPLICATE = "duplicate"
    AHEAD = "ahead"


def seq_before(a: int, b: int) -> bool:
    """True when ``a`` comes before ``b`` modulo 65536 (within half the sequence space)."""
    return 0 < ((b - a) & 0xFFFF) < 0x8000


class Receiver:
    """Dedup window for one device boot: ``classify`` then, if delivered, ``advance``."""

    def __init__(self, expected: int) -> None:
        self.expected = expected & 0xFFFF
        self.highest_seen: int | None = None

    @property
    def last_delivered(self) -> int:
        """What a cumulative ACK acknowledges (the one before ``expected``, also across the wrap)."""
        return (self.expected - 1) & 0xFFFF

    def classify(self, seq: int) -> Verdict:
        if seq == self.expected:
            return Verdict.DELIVER
        if seq_before(seq, self.expected) or (seq - self.expected) & 0xFFFF == 0x8000:
            return Verdict.DUPLICATE
        return Verdict.AHEAD

    def is_retransmit(self, seq: int) -> bool:
        """True when ``seq`` is not newer than every event seen so far (it has been sent before)."""
        seen_before = self.highest_seen is not None and not seq_before(self.highest_seen, seq)
        if not seen_before:
            self.highest_seen = seq
        return seen_before

    def advance(self) -> None:
        self.expected = (self.expected + 1) & 0xFFFF
