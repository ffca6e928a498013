"""Enrolment from real pictures: a phone photo per card, or a scanned (or photographed) sheet of several
cards, and the check that says which enrolled cards look too alike to be told apart.

A photo's card is its largest card-shaped outline (``vision.photo``); a sheet's cards are every
outline of about the same size as the largest, taken in reading order (rows from the top, each from
the left) and named by the ids given in that order, so a sheet laid out as the list reads is enrolled
in one picture. Each face is cut out straight (its short side on top, ``FACE_SIZE``); which way up
does not matter, the recogniser reads every face both ways.

``too_alike`` compares every enrolled face with every other as the recogniser compares a card with
them (the deck's common look taken out, ``vision.recognize``): a pair scoring ``TOO_ALIKE`` or more
leaves a card of it too little lead over its twin, and the camera will leave it unnamed rather than
guess.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.photo import PhotoError, card_outlines, decode_photo, hull_quads
from vision.recognize import CENTRE_FROM, RecognizerSettings, unit_rows
from vision.references import ReferenceFace, ReferenceSet

FACE_SIZE = (250, 350)
PHOTO_SIDE = 2000
"""A photo or sheet is read at this long side (a sheet of nine cards keeps 250 px per card)."""
SAME_SIZE = 0.6
"""A sheet's cards: outlines of at least this part of the largest one's area (smaller: a symbol)."""
_SETTINGS = RecognizerSettings()
TOO_ALIKE = round(1 - _SETTINGS.min_margin / 0.9, 2)
"""A true match scores about 0.9; a twin scoring s with it trails by 0.9 × (1 − s), under the
recogniser's least lead (``min_margin``) from s ≈ 0.72."""


def upright_face(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The face inside ``quad`` warped to ``FACE_SIZE``, its short side on top."""
    quad = np.asarray(quad, np.float32)
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)
    width, height = FACE_SIZE
    target = np.float32([[0, 0], [width - 1, 0], [width - 1, height - 1], [0, height - 1]])
    warp = cv2.getPerspectiveTransform(quad, target)
    return cv2.warpPerspective(image, warp, FACE_SIZE, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def face_from_photo(data: bytes) -> np.ndarray:
    """The face of the one card a photo shows; PhotoError when no card-shaped outline is in it."""
    image = decode_photo(data, PHOTO_SIDE)
    outlines = card_outlines(image) or sorted(hull_quads(image, 1), key=_area, reverse=True)
    if not outlines:
        raise PhotoError("no card-shaped outline in the photo: lay the card on a plain table, whole in view")
    return upright_face(image, outlines[0])


def faces_from_photos(photos: Mapping[str, Path]) -> tuple[list[ReferenceFace], list[str]]:
    """One face per ``card id → photo``; the photos that gave none, each with its reason."""
    faces, problems = [], []
    for card, path in photos.items():
        try:
            faces.append(ReferenceFace(card, face_from_photo(path.read_bytes())))
        except (OSError, PhotoError) as exc:
            problems.append(f"{path.name}: {exc}")
    return faces, problems


def faces_from_sheet(data: bytes, ids: Sequence[str]) -> list[ReferenceFace]:
    """The cards of a sheet in reading order, named by ``ids``; PhotoError when the sheet does not
    show exactly that many cards."""
    image = decode_photo(data, PHOTO_SIDE)
    outlines = card_outlines(image)
    if outlines:
        largest = _area(outlines[0])
        outlines = _without_nested([q for q in outlines if _area(q) >= SAME_SIZE * largest])
    if len(outlines) != len(ids):
        raise PhotoError(
            f"the sheet shows {len(outlines)} cards, but {len(ids)} ids were given: lay the cards apart "
            "on a plain background, none touching, and name them in reading order"
        )
    return [
        ReferenceFace(card, upright_face(image, quad))
        for card, quad in zip(ids, _reading_order(outlines), strict=True)
    ]


def too_alike(references: ReferenceSet, threshold: float = TOO_ALIKE) -> list[tuple[str, str, float]]:
    """Pairs of enrolled faces the recogniser cannot tell apart, most alike first."""
    descriptors = references.descriptors
    if len(descriptors) < 2:
        return []
    mean = descriptors.mean(axis=0) if len(descriptors) >= CENTRE_FROM else np.zeros_like(descriptors[0])
    rows = unit_rows(descriptors - mean)
    upright = rows @ rows.T
    turned = rows @ unit_rows(np.stack([_turned(d) for d in descriptors]) - mean).T
    scores = np.maximum(upright, turned)
    first, second = np.triu_indices(len(rows), k=1)
    pairs = [
        (references.cards[a], references.cards[b], round(float(scores[a, b]), 3))
        for a, b in zip(first, second, strict=True)
        if scores[a, b] >= threshold
    ]
    return sorted(pairs, key=lambda pair: -pair[2])


def _turned(descriptor: np.ndarray) -> np.ndarray:
    from vision.identify import upside_down

    return upside_down(descriptor)


def _area(quad: np.ndarray) -> float:
    return float(cv2.contourArea(np.asarray(quad, np.float32)))


def _without_nested(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Outlines not lying inside a larger one (a card's art box is card-shaped too)."""
    kept: list[np.ndarray] = []
    for quad in quads:  # largest first
        centre = quad.mean(axis=0)
        if not any(
            cv2.pointPolygonTest(k.astype(np.float32), (float(centre[0]), float(centre[1])), False) >= 0
            for k in kept
        ):
            kept.append(quad)
    return kept


def _reading_order(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Rows from the top (a card whose centre is lower than half a card below a row's first starts
    the next row), each row from the left."""
    centres = sorted(((q.mean(axis=0), q) for q in quads), key=lambda item: float(item[0][1]))
    height = float(np.median([np.ptp(q[:, 1]) for q in quads]))
    rows: list[list[tuple[np.ndarray, np.ndarray]]] = []
    for centre, quad in centres:
        if rows and centre[1] - rows[-1][0][0][1] < height / 2:
            rows[-1].append((centre, quad))
        else:
            rows.append([(centre, quad)])
    return [quad for row in rows for _, quad in sorted(row, key=lambda item: float(item[0][0]))]
