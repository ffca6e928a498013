"""How the bench scores what the recogniser named in a frame against the frame's truth.

- a detection is **correct** when its centre lies inside a true card's quad and its id matches (one
  detection per card: a second one of the same card is a false positive);
- a card **counts** (``cards``, ``top1_accuracy``) when it is enrolled, not covered by a hand, a
  token or glare (``occluded``) and at least half of it is in view and uncovered (``visible``);
- **missed** = counted cards without a correct detection;
- **false_positives** = every other detection: on the table, on a thing that is no card, on a card
  never enrolled, a wrong id on any card, a second detection of a card already found;
- **misnamed** = detections lying on cards (enrolled or not) none of which has that id.

Every counted card is also tallied under each situation it is in (``by_situation``): ``isolated``
(none of the others), ``crowded`` (within 15 frame pixels of another card, or touching it),
``overlapped`` (partly under another card), ``frame_edge`` (partly out of the frame); occluded cards
by how much of them is covered. A truth file without situations (the free-table sets) has them
worked out from its quads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np

from companion.percentiles import percentile

CROWDED_PX = 15.0
COUNTS_FROM = 0.5
SITUATIONS = ("isolated", "crowded", "overlapped", "frame_edge", "occluded")
COVERED_BINS = ((0.0, 0.1), (0.1, 0.25), (0.25, 0.4), (0.4, 0.6), (0.6, 1.01))


class Named(Protocol):
    card: str

    @property
    def centre(self) -> tuple[float, float]: ...


@dataclass
class Tally:
    cards: int = 0
    correct: int = 0
    missed: int = 0
    occluded: int = 0
    occluded_named: int = 0
    false_positives: int = 0
    false_positives_empty: int = 0
    misnamed: int = 0
    strangers: int = 0
    strangers_named: int = 0
    wall_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    situations: dict[str, list[int]] = field(default_factory=dict)
    """situation → [cards, correct]"""
    covered: dict[str, list[int]] = field(default_factory=dict)
    """covered share's bin → [occluded cards, named]"""
    extra: dict[str, list[float]] = field(default_factory=dict)
    """Other timings (``mat_ms``, ``tracked_ms``) and the frames' px/mm."""

    def figures(self) -> dict[str, Any]:
        def ms(values: list[float], p: float) -> float | None:
            value = percentile(values, p)
            return None if value is None else round(value, 3)

        figures: dict[str, Any] = {
            "top1_accuracy": round(self.correct / self.cards, 5) if self.cards else None,
            "false_positives": self.false_positives,
            "missed": self.missed,
            "ms_per_frame_p50": ms(self.wall_ms, 50),
            "ms_per_frame_p99": ms(self.wall_ms, 99),
            "frames": len(self.wall_ms),
            "cards": self.cards,
            "correct": self.correct,
            "misnamed": self.misnamed,
            "false_positives_on_empty_scenes": self.false_positives_empty,
            "occluded": self.occluded,
            "occluded_named": self.occluded_named,
            "cpu_ms_per_frame_p50": ms(self.cpu_ms, 50),
            "cpu_ms_per_frame_p99": ms(self.cpu_ms, 99),
            "strangers": self.strangers,
            "strangers_named": self.strangers_named,
            "by_situation": {
                name: {"cards": n, "correct": k, "accuracy": round(k / n, 5) if n else None}
                for name, (n, k) in sorted(
                    self.situations.items(), key=lambda item: SITUATIONS.index(item[0])
                )
            },
            "occluded_by_covered_share": {
                name: {"cards": n, "named": k, "share_named": round(k / n, 4) if n else None}
                for name, (n, k) in self.covered.items()
            },
        }
        for key, values in self.extra.items():
            if key.endswith("_ms"):
                figures[f"{key[:-3]}_ms_p50"] = ms(values, 50)
                figures[f"{key[:-3]}_ms_p99"] = ms(values, 99)
            elif values:
                figures[key] = round(float(np.median(values)), 3)
        return figures


def situations_of(cards: list[dict[str, Any]], size: tuple[int, int]) -> list[list[str]]:
    """Each card's situations worked out from the quads (for a truth file that does not say)."""
    width, height = size
    quads = [np.asarray(card["corners"], np.float32) for card in cards]
    out = []
    for index, quad in enumerate(quads):
        found = []
        for other_index, other in enumerate(quads):
            if other_index != index and _distance(quad, other) <= CROWDED_PX:
                found.append("crowded")
                break
        if (
            (quad[:, 0] < 0).any()
            or (quad[:, 1] < 0).any()
            or (quad[:, 0] > width).any()
            or (quad[:, 1] > height).any()
        ):
            found.append("frame_edge")
        if cards[index].get("occluded"):
            found.append("occluded")
        out.append(found)
    return out


def _distance(a: np.ndarray, b: np.ndarray) -> float:
    """Least distance between two convex quads (0 when they touch or overlap)."""
    area, _ = cv2.intersectConvexConvex(a, b)
    if area > 0:
        return 0.0
    nearest = min(abs(cv2.pointPolygonTest(b, (float(x), float(y)), True)) for x, y in a)
    return min(nearest, min(abs(cv2.pointPolygonTest(a, (float(x), float(y)), True)) for x, y in b))


def score_frame(
    tally: Tally, detections: list[Any], cards: list[dict[str, Any]], size: tuple[int, int] | None = None
) -> None:
    quads = [np.asarray(card["corners"], np.float32) for card in cards]
    credited: set[int] = set()
    for detection in detections:
        inside = [
            index
            for index, quad in enumerate(quads)
            if cv2.pointPolygonTest(quad, detection.centre, measureDist=False) >= 0
        ]
        match = next(
            (
                i
                for i in inside
                if cards[i]["card"] == detection.card and cards[i].get("enrolled", True) and i not in credited
            ),
            None,
        )
        if match is not None:
            credited.add(match)
            continue
        tally.false_positives += 1
        if not cards:
            tally.false_positives_empty += 1
        if inside and all(
            cards[i]["card"] != detection.card or not cards[i].get("enrolled", True) for i in inside
        ):
            tally.misnamed += 1
        if any(not cards[i].get("enrolled", True) for i in inside):
            tally.strangers_named += 1
    given = [card.get("situations") for card in cards]
    worked_out = situations_of(cards, size) if size is not None and any(g is None for g in given) else None
    for index, card in enumerate(cards):
        if not card.get("enrolled", True):
            tally.strangers += 1
            continue
        named = index in credited
        if card.get("occluded"):
            tally.occluded += 1
            tally.occluded_named += named
            share = float(card.get("covered", 0.0))
            for low, high in COVERED_BINS:
                if low <= share < high:
                    entry = tally.covered.setdefault(
                        f"{round(low * 100)}-{round(min(high, 1) * 100)}%", [0, 0]
                    )
                    entry[0] += 1
                    entry[1] += named
            continue
        if float(card.get("visible", 1.0)) < COUNTS_FROM:
            continue  # mostly out of view, or under another card: nobody can be asked to read it
        tally.cards += 1
        tally.correct += named
        tally.missed += not named
        situations = given[index] if given[index] is not None else (worked_out[index] if worked_out else [])
        for name in [s for s in situations if s != "occluded"] or ["isolated"]:
            entry = tally.situations.setdefault(name, [0, 0])
            entry[0] += 1
            entry[1] += named
