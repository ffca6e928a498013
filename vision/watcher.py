"""Stability: a card is reported only once it has lain still in one zone for a number of frames.

Each frame's recognised cards, placed on the mat (zone and position in millimetres), are matched to
the tracks of the frames before: the same card, in the same zone, within ``match_mm`` of where it
lay. A track seen ``settle_frames`` frames in a row becomes a ``CardSighted``; a reported track
missing ``gone_frames`` frames in a row becomes a ``CardGone``. So a card slid across zones, or a
hand sweeping over the table, produces nothing: the slide never stays, the hand never stays long.
A track that is not yet reported is dropped at its first miss (it must be seen in a row).

A card cannot lie in two places, so when a track settles, the reported tracks that vanished no later
than it appeared (missing at least as many frames as it has been seen) are read with it:

* the same card in another zone: it was carried there. Its ``CardGone`` comes first, before the
  ``CardSighted``, and the sighting names it (``moved_from``): moves are detected here, once, and
  the table takes them as they are. A card of the same id reported gone from another zone within
  ``move_s`` seconds was carried too (lifted, held a while, laid down): the most recent such
  departure not yet claimed is the one, as copies look alike;
* the same card in the same zone, further than ``match_mm`` from where it lay: it was pushed along
  its zone. The old track follows it and nothing is reported (as a tag moved on its reader);
* other cards of the same zone where it now lies (within ``match_mm``): the cards it was laid on,
  or lifted off it. They are named in ``CardSighted.covers``, for the table to tell which.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from companion.observations import CardGone, CardSighted


@dataclass(frozen=True)
class Sighting:
    """One recognised card in one frame, placed on the mat."""

    zone: str
    card: str
    confidence: float
    at_mm: tuple[float, float]


@dataclass(frozen=True)
class WatcherSettings:
    settle_frames: int = 4
    """Frames in a row a card must be seen in one zone before it is reported."""
    gone_frames: int = 8
    """Frames in a row a reported card must be missing before it is reported gone."""
    match_mm: float = 25.0
    """How far a card may seem to move between frames and still be the same card (a nudge, jitter)."""
    move_s: float = 3.0
    """A card gone from one zone and settled in another within this was carried there (the table's
    ``[table] move_ms``: a player carries a card across the table in a second or two)."""

    def __post_init__(self) -> None:
        if self.settle_frames < 1 or self.gone_frames < 1:
            raise ValueError("settle_frames and gone_frames must be at least 1")
        if self.match_mm <= 0:
            raise ValueError("match_mm must be positive")
        if self.move_s < 0:
            raise ValueError("move_s cannot be negative")


@dataclass
class Track:
    id: int
    zone: str
    card: str
    at_mm: tuple[float, float]
    seen: int = 1
    missed: int = 0
    reported: bool = False
    confidences: list[float] = field(default_factory=list)
    gone_at: float | None = None
    """When it was reported gone (a departure another zone's sighting may claim as a move)."""


class CardWatcher:
    """Turns per-frame sightings into settled ``CardSighted`` / ``CardGone`` observations."""

    def __init__(self, settings: WatcherSettings | None = None) -> None:
        self.settings = settings or WatcherSettings()
        self._tracks: list[Track] = []
        self._departed: list[Track] = []
        """Tracks reported gone in the last few frames (a card laid on a pile may settle only after
        the card it covers was reported gone, and must still name it in ``covers``), or within the
        move window (a card lifted, held, then laid in another zone was carried there)."""
        self._next_id = 1

    def update(self, sightings: Iterable[Sighting], at: float) -> list[CardSighted | CardGone]:
        """Feeds one frame's sightings (taken at ``at``, monotonic seconds); returns what settled."""
        unmatched = list(self._tracks)
        fresh: list[Track] = []
        for sighting in sorted(sightings, key=lambda s: -s.confidence):
            track = self._nearest(sighting, unmatched)
            if track is None:
                fresh.append(self._new_track(sighting))
                continue
            unmatched.remove(track)
            track.seen, track.missed, track.at_mm = track.seen + 1, 0, sighting.at_mm
            track.confidences.append(sighting.confidence)
        out: list[CardSighted | CardGone] = []
        for track in self._departed:
            track.missed += 1
        self._departed = [
            track for track in self._departed if self._recent(track) or self._movable(track, at)
        ]
        for track in unmatched:
            track.missed += 1
            track.seen = 0
            if not track.reported:
                self._tracks.remove(track)  # not seen in a row: it was passing through
            elif track.missed >= self.settings.gone_frames:
                self._tracks.remove(track)
                track.gone_at = at
                self._departed.append(track)
                out.append(CardGone(track.zone, track.card, at, track.id))
        self._tracks.extend(fresh)
        for track in list(self._tracks):
            if not track.reported and track.seen >= self.settings.settle_frames:
                out.extend(self._settled(track, at))
        return out

    def _settled(self, track: Track, at: float) -> list[CardSighted | CardGone]:
        """``track`` has lain still long enough: what it means (see the module docstring)."""
        if self._pushed_along(track):
            return []
        out: list[CardSighted | CardGone] = []
        moved_from = None
        moved = self._vanished(track, lambda t: t.zone != track.zone and t.card == track.card)
        if moved:
            self._tracks.remove(moved[0])
            moved[0].gone_at = at
            out.append(CardGone(moved[0].zone, moved[0].card, at, moved[0].id))
            moved_from = (moved[0].zone, moved[0].id)
        else:
            carried = self._carried(track, at)
            if carried is not None:
                moved_from = (carried.zone, carried.id)
        track.reported = True
        confidence = sum(track.confidences) / len(track.confidences)
        recent = [t for t in self._departed if self._recent(t)]
        under = [*self._vanished(track, lambda t: self._same_spot(t, track)), *recent]
        covers = tuple(t.id for t in under if t.missed >= track.seen and self._same_spot(t, track))
        out.append(
            CardSighted(track.zone, track.card, round(confidence, 3), at, track.id, covers, moved_from)
        )
        return out

    def _carried(self, track: Track, at: float) -> Track | None:
        """The most recent departure of ``track``'s card from another zone within the move window
        (claimed: a second copy laid down takes the departure before it)."""
        candidates = [
            t
            for t in self._departed
            if t.card == track.card and t.zone != track.zone and self._movable(t, at)
        ]
        if not candidates:
            return None
        chosen = max(candidates, key=lambda t: t.gone_at or 0.0)
        self._departed.remove(chosen)
        return chosen

    def _recent(self, track: Track) -> bool:
        """Reported gone in the last few frames: still a card the next one may have covered."""
        return track.missed <= self.settings.gone_frames + self.settings.settle_frames

    def _movable(self, track: Track, at: float) -> bool:
        return track.gone_at is not None and at - track.gone_at <= self.settings.move_s

    def lying(self) -> list[Track]:
        """The cards reported and not yet gone."""
        return [track for track in self._tracks if track.reported]

    def forget(self, at: float) -> list[CardGone]:
        """Every reported card gone at once (the camera stopped): the table must not keep them."""
        gone = [CardGone(t.zone, t.card, at, t.id) for t in self._tracks if t.reported]
        self._tracks.clear()
        self._departed.clear()
        return gone

    def _vanished(self, track: Track, which: Callable[[Track], bool]) -> list[Track]:
        """Reported tracks that vanished no later than ``track`` appeared, most recently gone first."""
        gone = [t for t in self._tracks if t.reported and t.missed >= track.seen and which(t)]
        return sorted(gone, key=lambda t: t.missed)

    def _pushed_along(self, track: Track) -> bool:
        """``track`` is a reported card of its zone moved along it: the old track follows it."""
        same = self._vanished(track, lambda t: t.zone == track.zone and t.card == track.card)
        if not same:
            return False
        same[0].at_mm, same[0].seen, same[0].missed = track.at_mm, track.seen, 0
        self._tracks.remove(track)
        return True

    def _same_spot(self, other: Track, track: Track) -> bool:
        return other.zone == track.zone and math.dist(other.at_mm, track.at_mm) <= self.settings.match_mm

    def _nearest(self, sighting: Sighting, tracks: list[Track]) -> Track | None:
        best, best_distance = None, self.settings.match_mm
        for track in tracks:
            if track.zone != sighting.zone or track.card != sighting.card:
                continue
            distance = math.dist(track.at_mm, sighting.at_mm)
            if distance <= best_distance:
                best, best_distance = track, distance
        return best

    def _new_track(self, sighting: Sighting) -> Track:
        track = Track(self._next_id, sighting.zone, sighting.card, sighting.at_mm)
        track.confidences.append(sighting.confidence)
        self._next_id += 1
        return track
