"""What the table remembers of the cards the camera saw, so that they behave like tagged cards.

A tag keeps its identity from reader to reader; a card the camera sees is a new track in every zone
(``<zone>:<track>``). This module gives it back the history a tag would have:

* **Moves.** The camera's watcher pairs a card that vanished from one zone with the same card
  settling in another within the move window, and says so (``CardSighted.moved_from``): the sighting
  continues the card that left, which leaves the other zone's record. Moves are detected there, once.
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

Pure and single-threaded (the table's worker owns it); times are seconds of the camera's clock.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class _Seen:
    """One card the camera saw in a zone, as long as it is thought to be there."""

    card: str
    key: str
    lying: bool = True
    covered: bool = False
    """Another card was laid on this one (the camera saw it vanish under the newcomer)."""


@dataclass(frozen=True)
class Arrival:
    """What a camera sighting is, once the record has taken it in."""

    continues: str | None
    """The key of the card this one is (moved here, uncovered or put back), or None: a new card."""
    came_from: str | None
    """The camera zone the card it continues lay in (this zone for one uncovered or put back)."""
    copies: int
    """Copies of the card the camera's record holds in this zone, this one included."""


def camera_key(zone: str, track: int) -> str:
    """How the table knows a card the camera follows: its zone and its track."""
    return f"{zone}:{track}"


class CameraCards:
    def __init__(self, forget_after: float) -> None:
        self._forget_after = forget_after
        """A zone seen empty for longer than this forgets the cards buried in it (gathered up)."""
        self._zones: dict[str, list[_Seen]] = {}
        self._empty_since: dict[str, float] = {}
        """When the camera last saw each zone empty (no card of its record in sight)."""

    def left(self, zone: str, key: str, at: float) -> None:
        """A card the camera saw in ``zone`` went out of sight (its removal settled)."""
        record = self._zones.get(zone, [])
        for seen in record:
            if seen.key == key:
                seen.lying = False
        if not any(seen.lying for seen in record):
            self._empty_since.setdefault(zone, at)

    def lying(self, zone: str, card: str) -> int:
        """Copies of ``card`` in sight in ``zone``."""
        return sum(1 for seen in self._zones.get(zone, ()) if seen.card == card and seen.lying)

    def arrived(
        self,
        zone: str,
        key: str,
        card: str,
        at: float,
        covers: frozenset[str] = frozenset(),
        moved_from: tuple[str, str] | None = None,
    ) -> Arrival:
        """A card the camera sighted in ``zone`` (after its stability window). ``covers``: the cards
        the camera saw vanish from the very spot as this one appeared (covered by it, or lifted off
        it); ``moved_from``: (zone, key) of the card of another zone the watcher says this one is."""
        record = self._zones.setdefault(zone, [])
        empty_since = self._empty_since.pop(zone, None)
        if empty_since is not None and at - empty_since > self._forget_after:
            # Nothing in sight there for longer than a card takes to be uncovered: the pile was
            # gathered up (a new game), and the cards under its top went with it.
            record[:] = [seen for seen in record if not seen.covered]
        back = None if moved_from is not None else self._coming_back(record, card, covers)
        if back is not None:
            continues, came_from = back.key, zone
            back.key, back.lying, back.covered = key, True, False
        else:
            continues, came_from = None, None
            if moved_from is not None:
                came_from, continues = moved_from
                self._take(continues)
            for seen in record:
                if seen.key in covers:
                    seen.covered = True
            record.append(_Seen(card, key))
        return Arrival(continues, came_from, sum(1 for seen in record if seen.card == card))

    def _take(self, key: str) -> None:
        """Takes the card ``key`` out of the record of the zone it lay in (it was carried away)."""
        for record in self._zones.values():
            record[:] = [seen for seen in record if seen.key != key]

    def _coming_back(self, record: list[_Seen], card: str, covers: frozenset[str]) -> _Seen | None:
        """The card of the record this sighting uncovers or puts back (the ones lifted off it leave
        the record), or None for a new card."""
        for index in range(len(record) - 1, -1, -1):
            seen = record[index]
            if seen.lying:
                continue  # still in sight (a neighbour), or vanishing as this card appeared
            if seen.card == card:
                above = record[index + 1 :]
                lifted_off = [s for s in above if not s.lying or s.key in covers]
                record[:] = [s for s in record if all(s is not gone for gone in lifted_off)]
                return seen
            if seen.covered:
                return None  # the card under the lifted ones is another card: this one is new
        return None
