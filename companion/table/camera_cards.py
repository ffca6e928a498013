"""What the table remembers of the cards the camera saw, so that they behave like tagged cards.

A tag keeps its identity from reader to reader; a card the camera sees gets a new stand-in tag in
every zone (``CAM:<zone>:<track>``). This module gives it back the history a tag would have:

* **Moves.** A card that left one zone and is sighted in another within ``move_ms`` was carried there:
  the sighting continues the stand-in that left, so the mapper hears ``came_from`` = the zone kind it
  left. Copies look alike: a sighting claims the most recent unclaimed departure of the same card id.
* **Piles.** The camera sees only the top card of a pile. Each zone keeps the camera's record of the
  cards it saw there, in the order they came. A card that vanished from the spot where a newcomer
  appeared (the watcher says which: ``CardSighted.covers``) is *covered*; any other card that went
  was *lifted*. A sighting is a card coming back when, reading the record from the top down past the
  lifted cards (and those still in sight), the first covered card is the same card: it was
  *uncovered*; a lifted card of the same id found first was *put back*. Either way it takes its old
  place in the record (the cards lifted off it leave), and the table plays it only if the engine
  holds fewer copies there than the record does: compared by count, so a real new copy is played.

The reading the camera cannot make: a second copy of a card laid on the pile straight on top of the
card that covers the first copy looks exactly like that first copy uncovered (docs/table.md).

Pure and single-threaded (the table's worker owns it); times are the table clock's seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.observations import ReaderId, TagUid


@dataclass
class _Seen:
    """One card the camera saw in a zone, as long as it is thought to be there."""

    card: str
    uid: TagUid
    lying: bool = True
    covered: bool = False
    """Another card was laid on this one (the camera saw it vanish under the newcomer)."""


@dataclass(frozen=True)
class _Departure:
    card: str
    reader: ReaderId
    uid: TagUid
    at: float


@dataclass(frozen=True)
class Arrival:
    """What a camera sighting is, once the record has taken it in."""

    continues: TagUid | None
    """The stand-in tag whose card this is (moved here, uncovered or put back), or None: a new card."""
    copies: int
    """Copies of the card the camera's record holds in this zone, this one included."""


class CameraCards:
    def __init__(self, move_window: float) -> None:
        self._window = move_window
        self._zones: dict[ReaderId, list[_Seen]] = {}
        self._departures: list[_Departure] = []
        self._empty_since: dict[ReaderId, float] = {}
        """When the camera last saw each zone empty (no card of its record in sight)."""

    def left(self, reader: ReaderId, uid: TagUid, card: str, at: float) -> None:
        """A card the camera saw in ``reader``'s zone went out of sight (its removal settled)."""
        covered = False
        record = self._zones.get(reader, [])
        for seen in record:
            if seen.uid == uid:
                seen.lying, covered = False, seen.covered
        if not any(seen.lying for seen in record):
            self._empty_since.setdefault(reader, at)
        self._expire(at)
        if not covered:  # a card under another did not go anywhere: it cannot have moved
            self._departures.append(_Departure(card, reader, uid, at))

    def arrived(
        self, reader: ReaderId, uid: TagUid, card: str, at: float, covers: frozenset[TagUid] = frozenset()
    ) -> Arrival:
        """A card the camera sighted in ``reader``'s zone (after its stability window). ``covers``:
        the cards the camera saw vanish from the very spot as this one appeared (covered by it, or
        lifted off it)."""
        self._expire(at)
        record = self._zones.setdefault(reader, [])
        empty_since = self._empty_since.pop(reader, None)
        if empty_since is not None and at - empty_since > self._window:
            # Nothing in sight there for longer than a card takes to be uncovered: the pile was
            # gathered up (a new game), and the cards under its top went with it.
            record[:] = [seen for seen in record if not seen.covered]
        back = self._coming_back(record, card, covers)
        if back is not None:
            continues: TagUid | None = back.uid
            self._departures = [d for d in self._departures if d.uid != continues]
            back.uid, back.lying, back.covered = uid, True, False
        else:
            moved = self._claim(card, reader)
            continues = moved.uid if moved is not None else None
            if moved is not None:
                moved_from = self._zones.get(moved.reader, [])
                self._zones[moved.reader] = [seen for seen in moved_from if seen.uid != moved.uid]
            for seen in record:
                if seen.uid in covers:
                    seen.covered = True
            self._departures = [d for d in self._departures if d.uid not in covers]
            record.append(_Seen(card, uid))
        return Arrival(continues, sum(1 for seen in record if seen.card == card))

    def _coming_back(self, record: list[_Seen], card: str, covers: frozenset[TagUid]) -> _Seen | None:
        """The card of the record this sighting uncovers or puts back (the ones lifted off it leave
        the record), or None for a new card."""
        for index in range(len(record) - 1, -1, -1):
            seen = record[index]
            if seen.lying:
                continue  # still in sight (a neighbour), or vanishing as this card appeared
            if seen.card == card:
                above = record[index + 1 :]
                lifted_off = [s for s in above if not s.lying or s.uid in covers]
                record[:] = [s for s in record if all(s is not gone for gone in lifted_off)]
                return seen
            if seen.covered:
                return None  # the card under the lifted ones is another card: this one is new
        return None

    def _claim(self, card: str, reader: ReaderId) -> _Departure | None:
        """The most recent departure of ``card`` from another zone, within the move window."""
        candidates = [d for d in self._departures if d.card == card and d.reader != reader]
        if not candidates:
            return None
        chosen = max(candidates, key=lambda d: d.at)
        self._departures.remove(chosen)
        return chosen

    def _expire(self, now: float) -> None:
        self._departures = [d for d in self._departures if now - d.at <= self._window]
