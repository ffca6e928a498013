"""A card photographed by hand: a phone held over a drawn card, or a sheet of cards laid on a table.

``decode_photo`` turns an uploaded file into an image without trusting it: only JPEG and PNG, the
size read from the file's own header before anything is decoded (a small file can claim a huge
image), and a large JPEG decoded at a reduced scale straight away (a 48-megapixel photo never fills
a Pi's memory). ``card_outlines`` finds the card-shaped quads of a photo at any angle and distance
(edges of brightness and colour, ``vision.detect``), largest first. ``PhotoScanner.scan`` names the
card of a photo with the same descriptors as the overhead camera (``vision.identify``): every
outline found, both ways round and both turns, and the whole photo as a last resort (a photo taken
so close that the card fills it); the best few cards are returned ranked, and the best is *sure*
only when it passes the recogniser's own thresholds (``RecognizerSettings``).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision import detect, identify
from vision.recognize import CENTRE_FROM, RecognizerSettings, nudged, unit_rows
from vision.references import ReferenceSet

MAX_BYTES = 12 * 1024 * 1024
"""A phone's full-size JPEG is 2-8 MB (the control page shrinks it before sending anyway)."""
MAX_PIXELS = 120_000_000
"""What a header may claim (a 108-megapixel phone sensor); anything larger is refused undecoded."""
PNG_PIXELS = 16_000_000
"""A PNG is decoded whole (no reduced decoding): at most this many pixels (48 MB), a phone's screenshot
is a tenth of it."""
WORK_SIDE = 1280
"""The long side the photo is decoded down to (a card filling a fifth of it is still 200 px wide)."""
PHOTO_DETECTOR = detect.DetectorSettings(
    downscale=2, min_area=0.01, max_area=0.95, bridge=0, zoom_max_area=0.0, hull_fill=0.75, fill=0.85
)
"""Outlines from a hundredth of the photo (a card on a table seen from a metre) to nearly all of it;
one card, or a sheet of cards laid apart, so no cutting of joined outlines."""
OUTLINES_TRIED = 6
"""The largest outlines of a photo looked at (the card is nearly always among the largest)."""
HULL_SIDE = 640
"""The long side outlines are guessed at (``hull_quads``)."""
WHOLE = np.float32([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


class PhotoError(ValueError):
    """The upload is not a photo this can read (one sentence saying why)."""


@dataclass(frozen=True)
class Candidate:
    card: str
    score: float
    """Normalised cross-correlation with the card's enrolled face (1: the same face)."""


@dataclass(frozen=True)
class Scan:
    """What a photo shows: the best cards first, whether the first is sure, where it was found."""

    candidates: tuple[Candidate, ...]
    sure: bool
    corners: np.ndarray | None
    """(4, 2) photo pixels (of the decoded photo) of the card named, None when read from the whole."""
    outlines: int
    """Card-shaped outlines found in the photo."""

    @property
    def best(self) -> str | None:
        return self.candidates[0].card if self.candidates else None


def image_size(data: bytes) -> tuple[str, int, int]:
    """(format, width, height) from a JPEG's or PNG's header; PhotoError for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return "png", width, height
    if data.startswith(b"\xff\xd8"):
        at = 2
        while at + 4 <= len(data):
            if data[at] != 0xFF:
                raise PhotoError("the JPEG file is damaged (no marker where one was due)")
            marker = data[at + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                at += 1 if marker == 0xFF else 2  # markers without a length (and fill bytes)
                continue
            (length,) = struct.unpack(">H", data[at + 2 : at + 4])
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):  # a start of frame
                if at + 9 > len(data):
                    break
                height, width = struct.unpack(">HH", data[at + 5 : at + 9])
                return "jpeg", width, height
            at += 2 + length
        raise PhotoError("the JPEG file ends before it says how large its image is")
    raise PhotoError("not a photo: send a JPEG or PNG image")


def decode_photo(data: bytes, work_side: int = WORK_SIDE) -> np.ndarray:
    """The BGR image of an uploaded JPEG or PNG, its long side at most ``work_side``; PhotoError when
    the file is too large, not an image, damaged, or claims an absurd size."""
    if len(data) > MAX_BYTES:
        raise PhotoError(f"the photo is larger than {MAX_BYTES // (1024 * 1024)} MB")
    kind, width, height = image_size(data)
    if width < 32 or height < 32:
        raise PhotoError(f"the photo is too small to read a card from ({width} × {height} pixels)")
    if width * height > MAX_PIXELS:
        raise PhotoError(f"the photo claims {width} × {height} pixels: too large to read")
    flags = cv2.IMREAD_COLOR
    if kind == "jpeg":  # libjpeg scales by 1/2, 1/4, 1/8 as it decodes: less memory, less time
        for reduce, flag in (
            (8, cv2.IMREAD_REDUCED_COLOR_8),
            (4, cv2.IMREAD_REDUCED_COLOR_4),
            (2, cv2.IMREAD_REDUCED_COLOR_2),
        ):
            if max(width, height) / reduce >= work_side:
                flags = flag
                break
    elif width * height > PNG_PIXELS:
        raise PhotoError(f"a PNG of {width} × {height} pixels is too large to read: send a JPEG")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if image is None or image.size == 0:
        raise PhotoError("the photo could not be decoded (damaged or cut short)")
    scale = work_side / max(image.shape[:2])
    if scale < 1:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return image


def card_outlines(image: np.ndarray, settings: detect.DetectorSettings = PHOTO_DETECTOR) -> list[np.ndarray]:
    """The card-shaped quads of a photo, largest first, each (4, 2) float32 clockwise from the
    corner nearest the top-left."""
    quads = detect.find_quads(image, settings)
    return sorted(quads, key=lambda quad: -cv2.contourArea(quad.astype(np.float32)))


def hull_quads(image: np.ndarray, blobs: int = 3) -> list[np.ndarray]:
    """Four-cornered guesses at the largest outlines' shapes, for when a thumb or a shadow bends an
    outline so that ``card_outlines`` fits no card to it (or the wrong one): each outline's convex
    hull simplified to four corners at a few tolerances, and its least rotated rectangle. Wrong
    guesses cost one matrix product each and score low; the face decides."""
    scale = min(1.0, HULL_SIDE / max(image.shape[:2]))
    small = image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    edges = detect.edge_map(small, replace(PHOTO_DETECTOR, downscale=1))
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = PHOTO_DETECTOR.min_area * small.shape[0] * small.shape[1]
    largest = sorted((c for c in contours if cv2.contourArea(c) >= least), key=cv2.contourArea, reverse=True)
    guesses = []
    for contour in largest[:blobs]:
        hull = cv2.convexHull(contour)
        perimeter = cv2.arcLength(hull, True)
        for tolerance in (0.01, 0.02, 0.04, 0.07):
            corners = cv2.approxPolyDP(hull, tolerance * perimeter, True)
            if len(corners) == 4:
                guesses.append(corners.reshape(4, 2).astype(np.float32))
        guesses.append(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32))
    return [detect.clockwise(quad / np.float32(scale)) for quad in guesses]


class PhotoScanner:
    """Names the card of a hand-held photo among one game's enrolled faces."""

    def __init__(self, references: ReferenceSet, settings: RecognizerSettings | None = None) -> None:
        self.references = references
        self.settings = settings or RecognizerSettings()
        descriptors = references.descriptors
        self._mean = (
            descriptors.mean(axis=0) if len(descriptors) >= CENTRE_FROM else np.zeros_like(descriptors[0])
        )
        self._matrix = unit_rows(descriptors - self._mean)

    def scan(self, image: np.ndarray, count: int = 4) -> Scan:
        outlines = card_outlines(image)
        height, width = image.shape[:2]
        starts = outlines[:OUTLINES_TRIED] + hull_quads(image)
        starts += [variant for quad in outlines[:2] for variant in nudged(quad, self.settings.nudge)[1:]]
        per_card, where = self._scores(image, starts)
        whole_scores, _ = self._scores(image, [WHOLE * np.float32([width - 1, height - 1])])
        from_whole = whole_scores.max() > per_card.max() + self.settings.min_margin if starts else True
        if from_whole:  # the card fills the photo (or nothing card-shaped was found)
            per_card, where = whole_scores, np.full(len(whole_scores), -1)
        order = np.argsort(per_card)[::-1][:count]
        candidates = tuple(Candidate(self.references.cards[i], round(float(per_card[i]), 4)) for i in order)
        best = float(per_card[order[0]])
        runner_up = float(per_card[order[1]]) if len(order) > 1 else 0.0
        sure = best >= self.settings.min_score and best - runner_up >= self.settings.min_margin
        start = int(where[order[0]])
        corners = None if from_whole or start < 0 else starts[start]
        return Scan(candidates, sure, corners, len(outlines))

    def _scores(self, image: np.ndarray, starts: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Per enrolled card: its best score over every start (each read with either side as the
        card's short side, each upright and turned), and which start gave it."""
        if not starts:
            return np.full(len(self.references), -1.0, np.float32), np.full(len(self.references), -1)
        descriptors, owners = [], []
        for index, quad in enumerate(starts):
            for ordered in (quad, quad[detect.NEXT]):
                descriptor = identify.descriptor_from_quad(image, ordered)
                descriptors += [descriptor, identify.upside_down(descriptor)]
                owners += [index, index]
        scores = self._matrix @ unit_rows(np.stack(descriptors) - self._mean).T  # (cards, reads)
        best = scores.argmax(axis=1)
        return scores.max(axis=1), np.asarray(owners)[best]
