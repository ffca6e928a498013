"""Enrolment from phone photos and from a sheet of cards, and the too-alike check."""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.games import find_bundle
from vision.enrol_photos import face_from_photo, faces_from_sheet, too_alike
from vision.photo import PhotoError, PhotoScanner, decode_photo
from vision.photo_bench import photo_bytes
from vision.references import ReferenceFace, ReferenceSet
from vision.synth import card_faces, card_names, twin_faces

GAME = "chaos-marauders"


def sheet(faces: list[np.ndarray], columns: int, rng: random.Random) -> bytes:
    """A scanned sheet: the faces laid apart in rows on a light background, each a little turned."""
    width, height, gap = 300, 420, 60
    rows = -(-len(faces) // columns)
    page = np.full((rows * (height + gap) + gap, columns * (width + gap) + gap, 3), 225, np.float32)
    for index, face in enumerate(faces):
        row, column = divmod(index, columns)
        centre = (gap + column * (width + gap) + width / 2, gap + row * (height + gap) + height / 2)
        turn = cv2.getRotationMatrix2D(
            (face.shape[1] / 2, face.shape[0] / 2), rng.uniform(-4, 4), width / face.shape[1]
        )
        turn[:, 2] += np.float32(centre) - np.float32([face.shape[1] / 2, face.shape[0] / 2])
        laid = cv2.warpAffine(face, turn, page.shape[1::-1])
        mask = cv2.warpAffine(np.full(face.shape[:2], 1, np.float32), turn, page.shape[1::-1])[..., None]
        page = page * (1 - mask) + laid * mask
    page += np.random.default_rng(rng.randrange(2**32)).normal(0, 3, page.shape)
    return cv2.imencode(".jpg", np.clip(page, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 88])[
        1
    ].tobytes()


def test_a_sheet_of_cards_is_enrolled_in_reading_order_and_each_face_is_the_cards():
    rng = random.Random(4)
    faces = card_faces(card_names(20, rng), rng)
    laid = faces[:7]
    enrolled = faces_from_sheet(sheet([f.image for f in laid], 3, rng), [f.card for f in laid])
    clean = ReferenceSet.from_faces(faces)
    scanner = PhotoScanner(clean)
    for face in enrolled:
        close = cv2.imencode(".jpg", face.image)[1].tobytes()
        scan = scanner.scan(decode_photo(close))
        assert scan.best == face.card and scan.sure
    with pytest.raises(PhotoError, match="shows 7 cards, but 6 ids"):
        faces_from_sheet(sheet([f.image for f in laid], 3, rng), [f.card for f in laid[:6]])


def test_a_face_enrolled_from_a_phone_photo_names_the_card_in_other_photos():
    rng = random.Random(6)
    faces = card_faces(card_names(20, rng), rng)
    from_photos = [ReferenceFace(f.card, face_from_photo(photo_bytes(f.image, rng))) for f in faces]
    scanner = PhotoScanner(ReferenceSet.from_faces(from_photos))
    named = sum(scanner.scan(decode_photo(photo_bytes(f.image, rng))).best == f.card for f in faces)
    assert named >= 18
    with pytest.raises(PhotoError, match="no card-shaped outline"):
        face_from_photo(cv2.imencode(".jpg", np.full((600, 800, 3), 120, np.uint8))[1].tobytes())


def test_cards_printed_alike_are_reported_and_distinct_ones_are_not():
    rng = random.Random(2)
    ids = card_names(16, rng)
    twins = twin_faces(ids[:4], rng) + card_faces(ids[4:], rng)
    pairs = too_alike(ReferenceSet.from_faces(twins))
    assert {(a, b) for a, b, _ in pairs} == {(ids[0], ids[1]), (ids[2], ids[3])}
    assert too_alike(ReferenceSet.from_faces(card_faces(ids, rng))) == []


def test_the_enrol_command_adds_a_sheet_to_the_faces_already_enrolled(tmp_path: Path, capsys):
    ids = [str(card["id"]) for card in find_bundle(GAME).cards() or ()][:8]
    rng = random.Random(9)
    faces = card_faces(ids, rng)
    out = tmp_path / "faces.npz"
    ReferenceSet.from_faces(faces[:5]).save(out)
    (tmp_path / "sheet.jpg").write_bytes(sheet([f.image for f in faces[5:]], 3, rng))
    argv = ["vision", "enrol", "--game", GAME, "--out", str(out), "--db", str(tmp_path / "t.sqlite3")]
    assert main([*argv, "--sheet", str(tmp_path / "sheet.jpg"), "--cards", ",".join(ids[5:])]) == 0
    said = capsys.readouterr().out
    assert "found 3 cards in the sheet" in said and "enrolled 8 of" in said
    assert set(ReferenceSet.load(out).cards) == set(ids)
    assert main([*argv, "--sheet", str(tmp_path / "sheet.jpg"), "--cards", "no-such-card"]) == 2
    assert "does not have: no-such-card" in capsys.readouterr().err
    assert main([*argv, "--sheet", str(tmp_path / "sheet.jpg")]) == 2
