"""The host end of reliable delivery: accept the next expected sequence number, nothing else.

The device keeps up to a window of events in flight (see ``firmware/tcproto.Outbox``). Events are
delivered strictly in sequence order; one that arrives ahead of a gap is held (at most ``MAX_AHEAD``)
until the gap is filled, so a single corrupted or reordered frame costs one re-send, not a window.
One behind ``expected`` is a duplicate. Sequence numbers are 16-bit and compared with serial-number
arithmetic (RFC 1982), so they wrap.
"""

from __future__ import annotations

from enum import Enum
from typing import Generic, TypeVar

T = TypeVar("T")
MAX_AHEAD = 128
"""Most events held ahead of a gap; well above the device's window, well below 32768."""
HELD_BITS = 64
"""Events after the gap that an ACK's ``held`` bitmap reports (the device's window is at most 65)."""


class Verdict(Enum):
    DELIVER = "deliver"
    DUPLICATE = "duplicate"
    AHEAD = "ahead"


def seq_before(a: int, b: int) -> bool:
    """True when ``a`` comes before ``b`` modulo 65536 (within half the sequence space)."""
    return 0 < ((b - a) & 0xFFFF) < 0x8000


class Receiver(Generic[T]):
    """Dedup window for one device boot: ``accept(seq, item)`` returns what is now deliverable."""

    def __init__(self, expected: int) -> None:
        self.expected = expected & 0xFFFF
        self.highest_seen: int | None = None
        self._ahead: dict[int, T] = {}

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

    def accept(self, seq: int, item: T) -> tuple[Verdict, list[T]]:
        """The verdict on ``seq`` and the items now deliverable in order (it, then any held ones)."""
        verdict = self.classify(seq)
        if verdict is Verdict.AHEAD:
            if (seq - self.expected) & 0xFFFF < MAX_AHEAD:
                self._ahead.setdefault(seq, item)
            return verdict, []
        if verdict is Verdict.DUPLICATE:
            return verdict, []
        ready = [item]
        self.advance()
        while self.expected in self._ahead:
            ready.append(self._ahead.pop(self.expected))
            self.advance()
        return verdict, ready

    @property
    def held(self) -> int:
        return len(self._ahead)

    def held_bitmap(self) -> int:
        """Bit i set: ``expected + 1 + i`` is held (``expected`` itself is the gap)."""
        bits = 0
        for seq in self._ahead:
            i = (seq - self.expected - 1) & 0xFFFF
            if i < HELD_BITS:
                bits |= 1 << i
        return bits
