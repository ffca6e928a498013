"""Cards in a camera frame: where each lies and which enrolled card it is, or nothing.

``Recognizer.recognize(frame)`` finds card-shaped quads (``vision.detect``), reads each one's
descriptor (``vision.identify``) and compares it with every enrolled face, upright and upside down.
A quad is named only when the best match is good enough (``min_score``) *and* clearly better than
the best other card (``min_margin``): a card half under a hand, a card never enrolled, a phone or a
blank card back fail one test or the other and are reported as nothing, never as a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision import detect, identify
from vision.references import ReferenceSet

CENTRE_FROM = 8
"""Enrolled faces needed before their mean face is taken out of every comparison."""


SAME = np.array([0, 1, 2, 3])
HALF_TURN = np.array([2, 3, 0, 1])
"""The corners of a quad read upside down: its top-left is the old bottom-right."""
MIN_SIDE = 32
"""A frame smaller than this either way holds no card worth reading."""


def as_bgr(frame: np.ndarray) -> np.ndarray:
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8:
        raise ValueError("a frame must be an 8-bit image array")
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.ndim == 3 and frame.shape[2] == 1:
        return frame[:, :, 0]
    if frame.ndim == 2 or (frame.ndim == 3 and frame.shape[2] == 3):
        return frame
    raise ValueError(f"a frame must be grey, BGR or BGRA, not of shape {frame.shape}")


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


@dataclass(frozen=True)
class RecognizerSettings:
    """Thresholds set on the hard synthetic sets (docs/vision.md), where a card's true match scored
    0.85 or more in 99 % of quads (median 0.95) and led the next card by 0.43 or more, while the
    best match of a quad that was no enrolled card (a stranger, a phone, a card back) stayed at or
    under 0.52."""

    min_score: float = 0.6
    """Least normalised cross-correlation with the named card's face."""
    min_margin: float = 0.25
    """Least lead of the named card over the best other card. A card never enrolled but much like
    an enrolled one (same template, similar art) scored up to 0.63 and led by up to 0.22 in a
    deck where half the cards were strangers; true matches lead by 0.43 or more."""
    second_look: float = 0.35
    """A best match scoring from this up to ``min_score`` is looked at again with nudged quads."""
    nudge: float = 0.05
    """How far the second look moves a quad's sides, as a fraction of its size."""
    closer_part: float = 0.7
    """A quad nobody could name is looked at again at full resolution; what is found inside it counts
    when it is smaller than this part of it (a card of two joined, not the same quad again)."""
    closer_size: float = 1.5
    """...and only when it is this many times the median card named in the same frame."""
    square_below: float = 1.2
    """A quad whose long sides are less than this many times its short ones is read both ways."""
    detector: detect.DetectorSettings = field(default_factory=detect.DetectorSettings)


@dataclass(frozen=True)
class Detection:
    """One card seen in a frame."""

    card: str
    corners: np.ndarray
    """(4, 2) float32 frame pixels: the face's top-left, top-right, bottom-right, bottom-left."""
    confidence: float
    """0..1: the match's correlation, scaled down when another card comes close."""

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return (float(x), float(y))

    def __repr__(self) -> str:
        x, y = self.centre
        return f"Detection(card={self.card!r}, centre=({x:.0f}, {y:.0f}), confidence={self.confidence:.2f})"


class Recognizer:
    """Finds and names the enrolled cards in frames; holds no state between frames."""

    def __init__(self, references: ReferenceSet, settings: RecognizerSettings | None = None) -> None:
        self.references = references
        self.settings = settings or RecognizerSettings()
        descriptors = references.descriptors
        # What every enrolled face shares (layout, title bar, text box) says nothing about which
        # card it is: with enough faces to estimate it, it is taken out of both sides.
        self._mean = (
            descriptors.mean(axis=0) if len(descriptors) >= CENTRE_FROM else np.zeros_like(descriptors[0])
        )
        self._matrix = unit_rows(descriptors - self._mean)  # (cards, D)

    def recognize(self, frame: np.ndarray) -> list[Detection]:
        """The named cards in a BGR (or grey, or BGRA) 8-bit frame of any size; ValueError for
        anything else."""
        frame = as_bgr(frame)
        if min(frame.shape[:2]) < MIN_SIDE:
            return []
        detections = []
        unnamed = []
        for quad in detect.find_quads(frame, self.settings.detector):
            detection = self.identify(frame, quad)
            if detection is not None:
                detections.append(detection)
            else:
                unnamed.append(quad)
        if self.settings.detector.downscale > 1 and unnamed:
            # Only a quad larger than the cards named beside it can be two cards joined (without
            # a named card to compare, every one is looked at).
            sizes = [cv2.contourArea(d.corners) for d in detections]
            least = self.settings.closer_size * float(np.median(sizes)) if sizes else 0.0
            for quad in unnamed:
                if cv2.contourArea(quad.astype(np.float32)) >= least:
                    detections += self._closer_look(frame, quad)
        return detections

    def _closer_look(self, frame: np.ndarray, quad: np.ndarray) -> list[Detection]:
        """The cards inside a quad nobody could name, found at full resolution: two cards laid
        close whose outlines joined at half size into one card-shaped quad."""
        height, width = frame.shape[:2]
        x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 4, 0)
        x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 4, (width, height))
        box = frame[y0:y1, x0:x1]
        if min(box.shape[:2]) < MIN_SIDE:
            return []
        detector = self.settings.detector
        scale = (width * height) / (box.shape[0] * box.shape[1])  # the same card sizes in pixels
        closer = replace(
            detector, downscale=1, min_area=detector.min_area * scale, max_area=detector.max_area * scale
        )
        whole = cv2.contourArea(quad.astype(np.float32))
        found = []
        for inner in detect.find_quads(box, closer):
            inner = inner + np.float32([x0, y0])
            smaller = cv2.contourArea(inner) < self.settings.closer_part * whole
            inside = cv2.pointPolygonTest(quad.astype(np.float32), inner.mean(axis=0).tolist(), False) > 0
            if smaller and inside and (detection := self.identify(frame, inner)) is not None:
                found.append(detection)
        return found

    def identify(self, frame: np.ndarray, quad: np.ndarray) -> Detection | None:
        """The card whose face lies in ``quad`` (short side first), or None when not sure.

        Upright and upside down are always tried; a quad nearly square in the frame (a card seen
        at a slant) is tried on its other side too, since its short side may be the card's long one.
        """
        starts = [quad]
        if detect.aspect_of(quad) < self.settings.square_below:
            starts.append(quad[detect.NEXT])
        best, score, margin, corners = self._best_match(frame, starts)
        if score < self.settings.min_score and score >= self.settings.second_look:
            # Close but not sure: an edge may have been found on the border's inside. Look again
            # with the quad scaled up and down a little, and with each side moved out in turn.
            starts = [variant for start in starts for variant in nudged(start, self.settings.nudge)]
            best, score, margin, corners = self._best_match(frame, starts)
        if score < self.settings.min_score or margin < self.settings.min_margin:
            return None
        confidence = min(1.0, score) * min(1.0, margin / (2 * self.settings.min_margin))
        return Detection(self.references.cards[best], corners.astype(np.float32), round(confidence, 4))

    def _best_match(
        self, frame: np.ndarray, starts: list[np.ndarray]
    ) -> tuple[int, float, float, np.ndarray]:
        """The best card over every start and turn: (index, score, lead over the next card, corners)."""
        descriptors = []
        for start in starts:
            descriptor = identify.descriptor_from_quad(frame, start)
            descriptors += [descriptor, identify.upside_down(descriptor)]
        scores = self._matrix @ unit_rows(np.stack(descriptors) - self._mean).T  # (cards, turns)
        best_turn = scores.argmax(axis=1)
        per_card = scores.max(axis=1)
        order = np.argsort(per_card)[::-1]
        best = int(order[0])
        score = float(per_card[best])
        runner_up = float(per_card[order[1]]) if len(order) > 1 else 0.0
        turn = int(best_turn[best])
        corners = starts[turn // 2][HALF_TURN if turn % 2 else SAME]
        return best, score, score - runner_up, corners


def nudged(quad: np.ndarray, amount: float) -> list[np.ndarray]:
    """The quad, scaled by 1 ± ``amount`` about its centre, and with each side in turn moved out by
    ``amount`` of the quad's size (corner order kept)."""
    centre = quad.mean(axis=0)
    variants = [quad, centre + (quad - centre) * (1 + amount), centre + (quad - centre) * (1 - amount)]
    for side in range(4):
        a, b = side, (side + 1) % 4
        outward = (quad[a] + quad[b]) / 2 - centre
        moved = quad.copy()
        moved[[a, b]] += outward * 2 * amount
        variants.append(moved)
    return variants
