"""The slot reader on the cases the held-out sets found hard: cards of one look told apart by where
they differ, a card lying under both of its neighbours, and the mat's markers at the frame's edge."""

from __future__ import annotations

import random
import tomllib

import cv2
import numpy as np
import pytest

from vision import identify
from vision.bench_conditions import BASE, RESOLUTION
from vision.camera_table import RenderedTable
from vision.heldout import held_out_faces
from vision.mat import MatFinder
from vision.matcher import Matcher
from vision.references import ReferenceSet, portrait
from vision.slots import SlotReader
from vision.synth import card_faces, card_names
from vision.zones import build_layout, layout_path, load_layout

GAME = "chaos-marauders"


def _seen_by_a_camera(face: np.ndarray, rng: np.random.Generator, px_per_mm: float = 0.88) -> np.ndarray:
    """A clean face as a webcam over the mat sees it: a card 63 mm wide at ``px_per_mm``, out of
    focus a little, with sensor noise, back at the face's size (the matcher samples a warp)."""
    height, width = face.shape[:2]
    small = (round(63 * px_per_mm), round(63 * px_per_mm * height / width))
    seen = cv2.resize(cv2.GaussianBlur(face, (0, 0), 1.2), small, interpolation=cv2.INTER_AREA).astype(
        np.float32
    )
    seen += rng.normal(0, 3, seen.shape)
    return cv2.resize(np.clip(seen, 0, 255).astype(np.uint8), (width, height), interpolation=cv2.INTER_LINEAR)


def test_cards_of_one_look_are_told_apart_where_they_differ_and_a_stranger_is_never_named():
    """Cards sharing a layout (a small art box over much text) score close on the coarse patch: the
    best leads by less than the usual margin, and the pair test on the coarse and fine patches
    joined names it. A card of the same look never enrolled is never named as one of them."""
    ids = [f"card-{k}" for k in range(61)]
    faces = held_out_faces(ids, random.Random(2))
    enrolled, stranger = faces[:60], faces[60]
    matcher = Matcher(ReferenceSet.from_faces(enrolled))
    rng = np.random.default_rng(5)
    named_by_pair = wrong = 0
    for index, face in enumerate([*enrolled, stranger]):
        seen = _seen_by_a_camera(portrait(face.image), rng)
        patch = identify.patch_from_face(seen)
        match = matcher.whole(patch[None])[0]
        if matcher.sure(match):
            wrong += match.index != index
            continue
        if match.score < matcher.settings.pair_min_score:
            continue
        rivals = matcher.rivals(patch, match)
        pair = matcher.pair(patch, identify.fine_cells_from_face(seen), rivals, match)
        if matcher.sure(pair):
            named_by_pair += 1
            wrong += pair.index != index  # the stranger (index 60) is wrong whatever it is named
    assert wrong == 0
    assert named_by_pair >= 3


def _overlapping_line(overlap_mm: float):
    """The game's mat for lines laid overlapping: each card place ``overlap_mm`` over the next."""
    data = tomllib.loads(layout_path(GAME).read_text())
    data["spacing"] = {**data["spacing"], "overlap_mm": overlap_mm}
    return build_layout(data, 2)


@pytest.mark.parametrize("overlap_mm", [12.0, 15.0, 17.0])
def test_a_card_under_both_of_its_neighbours_is_read_from_what_shows_between_them(overlap_mm):
    layout = _overlapping_line(overlap_mm)
    faces = card_faces(card_names(24, random.Random(7)), random.Random(8))
    references = ReferenceSet.from_faces(faces)
    table = RenderedTable(
        layout,
        {face.card: face.image for face in faces},
        random.Random(9),
        resolution=RESOLUTION,
        tilt=0.05,
        hand_frames=0,
        chain=BASE,
        supersample=3,
    )
    zone = next(zone for zone in layout.zones if len(zone.slots) > 1)
    middle, left, right = (faces[k].card for k in (4, 3, 5))
    for card, slot in ((middle, 4), (left, 3), (right, 5)):  # the middle one first: both lie over it
        table.place(zone.name, card, slot)
    frame = table.render()
    view = MatFinder(layout).find(frame)
    assert view is not None
    readings = SlotReader(layout, references).read(frame, view)
    named = {reading.card: reading.how for reading in readings}
    assert set(named) == {middle, left, right}
    assert named[middle] == "overlap"


def test_markers_a_pixel_from_the_frame_s_edge_are_used_and_markers_the_frame_cuts_are_not():
    layout = load_layout(GAME, 4)
    table = RenderedTable(
        layout, {}, random.Random(3), resolution=RESOLUTION, tilt=0.0, hand_frames=0, chain=BASE
    )
    frame = table.render()
    whole = MatFinder(layout).find(frame)
    assert whole is not None
    row = round(float(whole.corners[:, 1].max()))  # the lowest marker corners in the frame
    beside = MatFinder(layout).find(frame[: row + 2])  # their lowest corners a pixel from the edge
    cut = MatFinder(layout).find(frame[: row - 4])  # the frame's edge through them
    assert beside is not None and cut is not None
    assert beside.markers > cut.markers
    probe = np.float64(
        [[layout.width_mm * x, layout.height_mm * y] for x in (0.1, 0.5, 0.9) for y in (0.1, 0.5, 0.9)]
    )
    assert np.abs(beside.frame_points(probe) - whole.frame_points(probe)).max() < 1.0
    assert np.abs(cut.frame_points(probe) - whole.frame_points(probe)).max() < 1.5
