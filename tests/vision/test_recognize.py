"""The recognizer on rendered scenes, one property of the detector at a time."""

from __future__ import annotations

import functools
import math
import random

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import synth
from vision.recognize import Detection, Recognizer
from vision.references import ReferenceFace, ReferenceSet

ENROLLED = 24
SIZE = (1280, 720)


@functools.cache
def the_deck() -> list[ReferenceFace]:
    rng = random.Random(7)
    return synth.card_faces(synth.card_names(ENROLLED + 4, rng), rng)


@functools.cache
def the_recognizer() -> Recognizer:
    return Recognizer(ReferenceSet.from_faces(the_deck()[:ENROLLED]))


@pytest.fixture
def deck() -> list[ReferenceFace]:
    return the_deck()


@pytest.fixture
def recognizer() -> Recognizer:
    return the_recognizer()


def lay(deck, placements, seed=1, **kwargs):
    return synth.render_scene(deck, placements, random.Random(seed), SIZE, hard=False, **kwargs)


def corner_error(detection: Detection, truth: dict) -> float:
    return float(np.abs(detection.corners - np.array(truth["corners"], np.float32)).max())


def only_detection(detections: list[Detection]) -> Detection:
    assert len(detections) == 1, detections
    return detections[0]


def test_a_flat_card_is_found_with_its_corners(deck, recognizer):
    frame, truth = lay(deck, [synth.Placement(3, (640, 360), 0, 120)])
    detection = only_detection(recognizer.recognize(frame))
    assert detection.card == deck[3].card
    assert corner_error(detection, truth[0]) < 2.5
    assert 0.5 < detection.confidence <= 1


@settings(max_examples=25)
@given(
    angle=st.floats(0, 360),
    x=st.floats(150, 1130),
    y=st.floats(150, 570),
    width=st.floats(80, 160),
    face=st.integers(0, ENROLLED - 1),
)
def test_any_rotation_and_place_including_upside_down(angle, x, y, width, face):
    deck = the_deck()
    frame, truth = lay(deck, [synth.Placement(face, (x, y), angle, width)])
    detection = only_detection(the_recognizer().recognize(frame))
    assert detection.card == deck[face].card
    # The corners start at the face's own top-left, so an upside-down card is known as such (a
    # turn would put every corner a card's width away; a small card's outline may be a few pixels off).
    assert corner_error(detection, truth[0]) < 0.1 * width


def test_perspective_of_a_slanted_camera(deck, recognizer):
    placements = [
        synth.Placement(i, (250 + 380 * (i % 3), 200 + 300 * (i // 3)), 25 * i, 130) for i in range(6)
    ]
    frame, truth = lay(deck, placements)
    source = np.float32([[0, 0], [1280, 0], [1280, 720], [0, 720]])
    target = np.float32([[230, 40], [1050, 40], [1280, 720], [0, 720]])  # the far side shrinks by a third
    warp = cv2.getPerspectiveTransform(source, target)
    slanted = cv2.warpPerspective(frame, warp, SIZE, borderMode=cv2.BORDER_REPLICATE)
    found = {d.card: d for d in recognizer.recognize(slanted)}
    assert set(found) == {deck[i].card for i in range(6)}
    for entry in truth:
        corners = cv2.perspectiveTransform(np.array([entry["corners"]], np.float32), warp)[0]
        assert np.abs(found[entry["card"]].corners - corners).max() < 4


def test_a_lighting_gradient_across_the_table(deck, recognizer):
    placements = [synth.Placement(i, (200 + 220 * i, 360), 40 * i, 110) for i in range(5)]
    frame, _ = lay(deck, placements)
    ramp = np.linspace(0.35, 1.3, SIZE[0], dtype=np.float32)[None, :, None]
    lit = np.clip(frame * ramp, 0, 255).astype(np.uint8)
    assert {d.card for d in recognizer.recognize(lit)} == {deck[i].card for i in range(5)}


def test_blur_of_a_camera_out_of_focus(deck, recognizer):
    placements = [synth.Placement(i, (200 + 220 * i, 360), 70 * i, 110) for i in range(5)]
    frame, _ = lay(deck, placements)
    blurred = cv2.GaussianBlur(frame, (0, 0), 1.8)
    assert {d.card for d in recognizer.recognize(blurred)} == {deck[i].card for i in range(5)}


def test_a_hand_over_a_card_is_missed_never_misnamed(deck, recognizer):
    covered = 0
    for seed in range(12):
        rng = random.Random(seed)
        face = rng.randrange(ENROLLED)
        placement = synth.Placement(face, (640, 360), rng.uniform(0, 360), 130)
        frame, truth = synth.render_scene(deck, [placement], rng, SIZE, hard=False, hands=1)
        covered += truth[0]["occluded"]
        assert all(d.card == deck[face].card for d in recognizer.recognize(frame)), seed
    assert covered >= 10  # the hand really lay over the card in (nearly) every scene


def test_an_empty_table_and_other_rectangles_give_nothing(recognizer):
    rng = random.Random(5)
    for _ in range(6):
        frame, truth = synth.render_scene([], [], rng, SIZE, hard=True, distractors=3, hands=1)
        assert truth == []
        assert recognizer.recognize(frame) == []


def test_a_card_never_enrolled_gives_nothing(deck, recognizer):
    strangers = range(ENROLLED, len(deck))
    placements = [
        synth.Placement(face, (200 + 290 * n, 360), 50 * n, 120) for n, face in enumerate(strangers)
    ]
    frame, _ = lay(deck, placements)
    assert recognizer.recognize(frame) == []


def test_a_grey_frame_is_read_by_brightness_alone(deck, recognizer):
    frame, _ = lay(deck, [synth.Placement(8, (640, 360), 200, 140)])
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detections = recognizer.recognize(grey)
    assert [d.card for d in detections] in ([deck[8].card], [])  # never another card


def test_detection_centre_and_repr(deck, recognizer):
    frame, _ = lay(deck, [synth.Placement(2, (400, 300), 90, 120)])
    detection = only_detection(recognizer.recognize(frame))
    assert math.dist(detection.centre, (400, 300)) < 2
    assert deck[2].card in repr(detection)


def test_frames_of_other_kinds(deck, recognizer):
    frame, _ = lay(deck, [synth.Placement(4, (640, 360), 30, 130)])
    bgra = cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA)
    assert [d.card for d in recognizer.recognize(bgra)] == [deck[4].card]
    assert recognizer.recognize(np.zeros((10, 4000, 3), np.uint8)) == []
    assert recognizer.recognize(np.zeros((0, 0, 3), np.uint8)) == []
    for bad in (frame.astype(np.float32), np.zeros((20, 20, 2), np.uint8), [[0]]):
        with pytest.raises(ValueError, match="frame must be"):
            recognizer.recognize(bad)


@settings(max_examples=15)
@given(seed=st.integers(0, 10_000), boxes=st.integers(0, 12))
def test_noise_and_random_boxes_never_crash_nor_name_a_card(seed, boxes):
    rng = np.random.default_rng(seed)
    frame = rng.integers(0, 256, (360, 640, 3), dtype=np.uint8)
    frame = cv2.GaussianBlur(frame, (0, 0), float(rng.uniform(0.5, 6)))
    for _ in range(boxes):
        centre = (float(rng.uniform(0, 640)), float(rng.uniform(0, 360)))
        size = (float(rng.uniform(20, 200)), float(rng.uniform(20, 200)))
        box = cv2.boxPoints((centre, size, float(rng.uniform(0, 180)))).astype(np.int32)
        cv2.fillConvexPoly(frame, box, tuple(int(c) for c in rng.integers(0, 256, 3)))
    assert the_recognizer().recognize(frame) == []


def test_cards_side_by_side_joined_by_stray_lines(deck, recognizer):
    placements = [synth.Placement(face, (400 + 140 * n, 360), 0, 120) for n, face in enumerate((5, 6, 7))]
    frame, _ = lay(deck, placements)
    for x0, x1 in ((300, 342), (458, 482), (598, 622), (738, 800)):  # in the gaps: a pen line, a mat's print
        cv2.line(frame, (x0, 300), (x1, 300), (20, 20, 20), 2)
    assert sorted(d.card for d in recognizer.recognize(frame)) == sorted(
        deck[face].card for face in (5, 6, 7)
    )


def test_a_small_deck_without_centring(deck):
    small = Recognizer(ReferenceSet.from_faces(deck[:3]))  # under CENTRE_FROM faces: no mean removed
    frame, _ = lay(deck, [synth.Placement(1, (640, 360), 123, 130), synth.Placement(9, (300, 300), 10, 130)])
    assert [d.card for d in small.recognize(frame)] == [deck[1].card]  # the unenrolled one gives nothing


@pytest.mark.parametrize(("width", "gap"), [(120, 14), (84, 10), (84, 6), (120, 6)])
def test_a_line_of_cards_a_few_pixels_apart(deck, recognizer, width, gap):
    # A mat's 8 mm slot gap is about 10 px at 720p; at half size, 6 px of table between two cards
    # is gone, and the detector must look again at full resolution.
    faces = (10, 11, 12, 13, 14)
    placements = [
        synth.Placement(face, (300 + (width + gap) * n, 360), 0, width) for n, face in enumerate(faces)
    ]
    frame, _ = lay(deck, placements)
    assert sorted(d.card for d in recognizer.recognize(frame)) == sorted(deck[face].card for face in faces)


def test_half_the_deck_never_enrolled_is_never_named():
    rng = random.Random(11)
    faces = synth.card_faces(synth.card_names(40, rng), rng)
    enrolled = {face.card for face in faces[:20]}
    strangers_seen = 0
    half = Recognizer(ReferenceSet.from_faces(faces[:20]))
    for _ in range(8):
        frame, truth = synth.render_scene(faces, synth.random_placements(10, len(faces), rng), rng)
        strangers_seen += sum(entry["card"] not in enrolled for entry in truth)
        for detection in half.recognize(frame):
            under = [
                e
                for e in truth
                if cv2.pointPolygonTest(np.float32(e["corners"]), detection.centre, False) >= 0
            ]
            assert [e["card"] for e in under] == [detection.card]
    assert strangers_seen >= 20
