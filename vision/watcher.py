"""Stability: a card is reported only once it has lain still in one zone for a number of frames.

Each frame's recognised cards, placed on the mat (zone and position in millimetres), are matched to
the tracks of the frames before: the same card, in the same zone, within ``match_mm`` of where it
lay. A track seen ``settle_frames`` frames in a row becomes a ``CardSighted``; a reported track
missing ``gone_frames`` frames in a row becomes a ``CardGone``. So a card slid across zones, or a
hand sweeping over the table, produces nothing: the slide never stays, the hand never stays long.
A track that is not yet reported is dropped at its first miss (it must be seen in a row).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
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

    def __post_init__(self) -> None:
        if self.settle_frames < 1 or self.gone_frames < 1:
            raise ValueError("settle_frames and gone_frames must be at least 1")
        if self.match_mm <= 0:
            raise ValueError("match_mm must be positive")


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


class CardWatcher:
    """Turns per-frame sightings into settled ``CardSighted`` / ``CardGone`` observations."""

    def __init__(self, settings: WatcherSettings | None = None) -> None:
        self.settings = settings or WatcherSettings()
        self._tracks: list[Track] = []
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
        for track in unmatched:
            track.missed += 1
            track.seen = 0
            if not track.reported:
                self._tracks.remove(track)  # not seen in a row: it was passing through
            elif track.missed >= self.settings.gone_frames:
                self._tracks.remove(track)
                out.append(CardGone(track.zone, track.card, at, track.id))
        self._tracks.extend(fresh)
        for track in self._tracks:
            if not track.reported and track.seen >= self.settings.settle_frames:
                track.reported = True
                confidence = sum(track.confidences) / len(track.confidences)
                out.append(CardSighted(track.zone, track.card, round(confidence, 3), at, track.id))
        return out

    def lying(self) -> list[Track]:
        """The cards reported and not yet gone."""
        return [track for track in self._tracks if track.reported]

    def forget(self, at: float) -> list[CardGone]:
        """Every reported card gone at once (the camera stopped): the table must not keep them."""
        gone = [CardGone(t.zone, t.card, at, t.id) for t in self._tracks if t.reported]
        self._tracks.clear()
        return gone

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
