"""Enrolled faces: from a folder, from faces, saved and loaded; clear errors for what cannot be used."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import references, synth
from vision.references import ReferenceFace, ReferenceSet


@pytest.fixture
def faces() -> list[ReferenceFace]:
    rng = random.Random(3)
    return synth.card_faces(synth.card_names(5, rng), rng)


def write_faces(folder: Path, faces: list[ReferenceFace], suffix: str = ".png") -> None:
    folder.mkdir(exist_ok=True)
    for face in faces:
        cv2.imwrite(str(folder / f"{face.card}{suffix}"), face.image)


def test_from_dir_reads_every_face_with_progress(tmp_path, faces):
    write_faces(tmp_path, faces[:3])
    write_faces(tmp_path, faces[3:], ".jpg")
    (tmp_path / "notes.txt").write_text("not a face")
    progress: list[tuple[int, int]] = []
    refs = ReferenceSet.from_dir(tmp_path, progress=lambda done, total: progress.append((done, total)))
    assert refs.cards == tuple(sorted(face.card for face in faces))
    assert progress == [(n, 5) for n in range(1, 6)]
    assert refs.descriptors.shape[0] == 5
    assert np.allclose(np.linalg.norm(refs.descriptors, axis=1), 1, atol=1e-5)


def test_each_face_is_most_like_itself(faces):
    refs = ReferenceSet.from_faces(faces)
    similarity = refs.descriptors @ refs.descriptors.T
    assert (similarity.argmax(axis=1) == np.arange(len(faces))).all()


def test_a_landscape_face_is_turned_upright(faces):
    upright = ReferenceSet.from_faces([faces[0]])
    turned = ReferenceSet.from_faces(
        [ReferenceFace("x", cv2.rotate(faces[0].image, cv2.ROTATE_90_COUNTERCLOCKWISE))]
    )
    assert float(upright.descriptors[0] @ turned.descriptors[0]) > 0.99


def test_save_and_load_round_trip(tmp_path, faces):
    refs = ReferenceSet.from_faces(faces)
    refs.save(tmp_path / "data" / "faces.npz")
    loaded = ReferenceSet.load(tmp_path / "data" / "faces.npz")
    assert loaded.cards == refs.cards
    assert np.allclose(loaded.descriptors, refs.descriptors)
    assert not list((tmp_path / "data").glob("*.partial*"))


def test_a_set_saved_by_another_descriptor_is_rebuilt(tmp_path, faces, monkeypatch):
    refs = ReferenceSet.from_faces(faces)
    monkeypatch.setattr(references, "FORMAT", "an older descriptor")
    refs.save(tmp_path / "old.npz")
    monkeypatch.undo()
    loaded = ReferenceSet.load(tmp_path / "old.npz")
    assert loaded.cards == refs.cards
    # rebuilt from the thumbnails: the same faces, a little softer
    assert (np.sum(loaded.descriptors * refs.descriptors, axis=1) > 0.95).all()


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda folder: None, "no card faces"),
        (lambda folder: (folder / "broken.png").write_bytes(b"not an image"), "not a readable image"),
        (lambda folder: folder.rmdir(), "not a folder"),
    ],
)
def test_from_dir_refuses_with_a_clear_message(tmp_path, setup, message):
    folder = tmp_path / "refs"
    folder.mkdir()
    setup(folder)
    with pytest.raises(ValueError, match=message):
        ReferenceSet.from_dir(folder)


def test_two_faces_of_one_card_are_refused(tmp_path, faces):
    write_faces(tmp_path, faces[:1])
    write_faces(tmp_path, faces[:1], ".jpg")
    with pytest.raises(ValueError, match="two faces"):
        ReferenceSet.from_dir(tmp_path)


def test_loading_something_else_is_refused(tmp_path):
    (tmp_path / "x.npz").write_bytes(b"garbage")
    with pytest.raises(ValueError, match="not a saved reference set"):
        ReferenceSet.load(tmp_path / "x.npz")
    with pytest.raises(ValueError, match="not a saved reference set"):
        ReferenceSet.load(tmp_path / "missing.npz")


def test_no_faces_is_refused():
    with pytest.raises(ValueError, match="no reference faces"):
        ReferenceSet.from_faces([])
