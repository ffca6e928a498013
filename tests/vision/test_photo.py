"""``vision.photo``: an upload's header read before decoding, a hand-held photo's card named."""

from __future__ import annotations

import random
import struct

import cv2
import numpy as np
import pytest

from vision.photo import MAX_BYTES, PhotoError, PhotoScanner, decode_photo, image_size
from vision.photo_bench import measure, photo_bytes
from vision.references import ReferenceSet
from vision.synth import card_faces, card_names


def test_the_size_is_read_from_the_header_of_a_jpeg_and_a_png():
    image = np.zeros((37, 91, 3), np.uint8)
    for suffix, kind in ((".jpg", "jpeg"), (".png", "png")):
        ok, data = cv2.imencode(suffix, image)
        assert ok and image_size(data.tobytes()) == (kind, 91, 37)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"GIF89a" + bytes(50), "not a photo"),
        (b"\xff\xd8\xff\xe0\x00\x10JFIF", "ends before"),
        (b"\xff\xd8" + bytes(10), "damaged"),
        (
            b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 60_000, 60_000),
            "too large",
        ),
        (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 8, 8), "too small"),
        (b"\xff" * (MAX_BYTES + 1), "larger than"),
    ],
)
def test_what_cannot_be_a_photo_is_refused_before_it_is_decoded(data, reason):
    with pytest.raises(PhotoError, match=reason):
        decode_photo(data)


def test_a_large_jpeg_is_decoded_shrunk():
    ok, data = cv2.imencode(".jpg", np.full((3000, 4000, 3), 128, np.uint8))
    assert ok and max(decode_photo(data.tobytes()).shape[:2]) == 1280


def test_hand_held_photos_are_named_and_a_table_without_a_card_is_not():
    rng = random.Random(7)
    faces = card_faces(card_names(30, rng), rng)
    figures = measure(faces, rng, photos=16, empty=4)
    assert figures["misnamed"] == 0 and figures["false_positives_on_empty"] == 0
    assert figures["named"] >= 14 and figures["top4"] >= 15


def test_a_card_filling_the_photo_is_read_from_the_whole_photo():
    rng = random.Random(8)
    faces = card_faces(card_names(20, rng), rng)
    scanner = PhotoScanner(ReferenceSet.from_faces(faces))
    close = cv2.resize(faces[3].image, (600, 840), interpolation=cv2.INTER_LINEAR)
    scan = scanner.scan(decode_photo(cv2.imencode(".jpg", close)[1].tobytes()))
    assert scan.best == faces[3].card and scan.sure
    assert photo_bytes(None, rng)[:2] == b"\xff\xd8"


def test_a_game_without_enrolled_faces_says_how_to_enrol_them(tmp_path):
    from vision.phone_scans import PhotoScans

    scans = PhotoScans(lambda game: tmp_path / f"{game}.npz")
    with pytest.raises(LookupError, match="companion vision enrol --game orcs"):
        scans(b"\xff\xd8", "orcs")


def test_the_served_scanner_reads_the_faces_enrolled_beside_the_event_log(tmp_path):
    from companion.cli.serve import photo_scanner
    from companion.settings import load_settings, references_path

    settings = load_settings(None).with_overrides(db=tmp_path / "table.sqlite3")
    scanner = photo_scanner(settings)
    rng = random.Random(12)
    faces = card_faces(card_names(12, rng), rng)
    photo = photo_bytes(faces[2].image, rng)
    with pytest.raises(LookupError, match="no card faces are enrolled for orcs"):
        scanner(photo, "orcs")
    path = references_path(settings.db, "orcs")
    path.parent.mkdir(parents=True)
    ReferenceSet.from_faces(faces).save(path)
    found = scanner(photo, "orcs")
    assert found["cards"][0]["card"] == faces[2].card and found["sure"]
