"""The synthetic faces and scenes the tests, the bench and the demo use."""

from __future__ import annotations

import json
import random

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import synth


def test_faces_are_distinct_and_reproducible():
    names = synth.card_names(8, random.Random(1))
    assert len(set(names)) == 8
    first = synth.card_faces(names, random.Random(2))
    again = synth.card_faces(names, random.Random(2))
    assert all(np.array_equal(a.image, b.image) for a, b in zip(first, again, strict=True))
    assert all(face.image.shape == (350, 250, 3) for face in first)
    assert len({face.image.tobytes() for face in first}) == 8


def test_a_face_can_be_any_size():
    face = synth.draw_face("gob", random.Random(1), (126, 176))
    assert face.shape == (176, 126, 3)


@settings(max_examples=20)
@given(angle=st.floats(0, 360), width=st.floats(60, 200))
def test_truth_corners_are_where_the_face_was_drawn(angle, width):
    rng = random.Random(4)
    faces = synth.card_faces(["a"], rng)
    placement = synth.Placement(0, (640, 360), angle, width)
    frame, truth = synth.render_scene(faces, [placement], rng, hard=False)
    corners = np.array(truth[0]["corners"], np.float32)
    height = width * 350 / 250
    assert abs(cv2.contourArea(corners) - width * height) < 0.01 * width * height
    assert np.allclose(corners.mean(axis=0), (640, 360), atol=0.2)
    # warping the frame back through the truth gives the face again
    source = np.float32([[0, 0], [250, 0], [250, 350], [0, 350]])
    back = cv2.warpPerspective(frame, cv2.getPerspectiveTransform(corners, source), (250, 350))
    small = (50, 70)
    drawn = cv2.resize(back, small, interpolation=cv2.INTER_AREA).astype(float)
    face = cv2.resize(faces[0].image, small, interpolation=cv2.INTER_AREA).astype(float)
    assert np.corrcoef(drawn.ravel(), face.ravel())[0, 1] > 0.9


def test_placements_do_not_overlap():
    rng = random.Random(5)
    placements = synth.random_placements(12, 3, rng)
    assert len(placements) >= 8
    masks = []
    for placement in placements:
        mask = np.zeros((720, 1280), np.uint8)
        cv2.fillConvexPoly(mask, synth.placement_corners(placement, (250, 350)).astype(np.int32), 1)
        masks.append(mask)
    assert np.sum(masks, axis=0).max() == 1


def test_a_hand_marks_the_card_it_covers_as_occluded():
    rng = random.Random(6)
    faces = synth.card_faces(["a", "b"], rng)
    placements = [synth.Placement(0, (300, 360), 0, 120), synth.Placement(1, (1000, 360), 0, 120)]
    occluded = [
        synth.render_scene(faces, placements, random.Random(seed), hard=False, hands=1)[1]
        for seed in range(6)
    ]
    assert all(any(entry["occluded"] for entry in truth) for truth in occluded)
    clear = synth.render_scene(faces, placements, rng, hard=False, hands=0)[1]
    assert not any(entry["occluded"] for entry in clear)


def test_the_benchmark_set_on_disk(tmp_path):
    synth.write_benchmark_set(tmp_path / "refs", tmp_path / "scenes", cards=6, scenes=5, empty=2, seed=3)
    assert len(list((tmp_path / "refs").glob("*.png"))) == 6
    truth = json.loads((tmp_path / "scenes" / synth.TRUTH_FILE).read_text())
    assert sorted(truth) == sorted(p.name for p in (tmp_path / "scenes").glob("*.jpg"))
    assert [truth[name] for name in sorted(truth)[:2]] == [[], []]
    enrolled = {p.stem for p in (tmp_path / "refs").glob("*.png")}
    cards = [entry for name in sorted(truth)[2:] for entry in truth[name]]
    assert cards and all(entry["card"] in enrolled for entry in cards)
    frame = cv2.imread(str(tmp_path / "scenes" / sorted(truth)[0]))
    assert frame.shape == (720, 1280, 3)
