"""``POST /control/scan``: a phone's photo of a drawn card names it, and is checked as an attacker's
upload would be (too large, not an image, a made-up size, no PIN, another site, another seat)."""

from __future__ import annotations

import random
import struct
import zlib
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.games import find_bundle
from companion.session import Session
from vision.phone_scans import PhotoScans
from vision.photo_bench import photo_bytes
from vision.references import ReferenceFace, ReferenceSet
from vision.synth import card_faces
from web import create_app

from .web_support import PIN, new_game_body

GAME = "chaos-marauders"


@pytest.fixture(scope="module")
def deck() -> dict[str, object]:
    ids = [str(card["id"]) for card in find_bundle(GAME).cards() or ()]
    faces = card_faces(ids, random.Random(5))
    return {face.card: face.image for face in faces}


@pytest.fixture
def scanning(tmp_path: Path, deck) -> Flask:
    faces = tmp_path / "faces.npz"
    ReferenceSet.from_faces(ReferenceFace(card, image) for card, image in deck.items()).save(faces)
    session = Session(tmp_path / "table.sqlite3")
    session.start()
    app = create_app(
        {"TABLE_PIN": PIN, "SECRET_KEY": "test-secret", "TESTING": True, "SCAN_MAX_BYTES": 600_000},
        session,
        scanner=PhotoScans(lambda game: faces if game == GAME else tmp_path / "none.npz"),
    )
    app.extensions["test.session"] = session
    yield app
    session.stop()


def phone(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert client.post("/control/pin", data={"pin": PIN}).status_code == 303
    return client


def playing(app: Flask) -> FlaskClient:
    client = phone(app)
    assert client.post("/control/commands", json=new_game_body()).status_code == 200
    return client


def upload(client: FlaskClient, data: bytes, **headers: str):
    from io import BytesIO

    return client.post(
        "/control/scan",
        data={"photo": (BytesIO(data), "card.jpg")},
        content_type="multipart/form-data",
        headers=headers,
    )


def events(app: Flask) -> int:
    return len(app.extensions["test.session"].history())


def test_a_photo_of_the_drawn_card_offers_it_first_with_its_title_and_changes_nothing(scanning, deck):
    client = playing(scanning)
    before = events(scanning)
    rng = random.Random(11)
    named = 0
    for card in list(deck)[:6]:
        answer = upload(client, photo_bytes(deck[card], rng), Origin="http://localhost")
        assert answer.status_code == 200, answer.json
        body = answer.json
        assert body["game"] == GAME and 1 <= len(body["cards"]) <= 4
        assert all(entry["title"] and entry["card"] in deck for entry in body["cards"])
        named += body["sure"] and body["cards"][0]["card"] == card
        assert not body["sure"] or body["cards"][0]["card"] == card  # never sure of a wrong card
    assert named >= 5
    assert events(scanning) == before


def test_what_is_not_a_readable_photo_is_refused_with_a_reason(scanning, deck):
    client = playing(scanning)
    before = events(scanning)
    png_header = b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + struct.pack(">II", 100_000, 100_000)
    png_bomb = png_header + b"\x08\x02\x00\x00\x00" + zlib.compress(b"\x00" * 1000)
    jpeg = photo_bytes(next(iter(deck.values())), random.Random(1))
    cases = {
        b"#!/bin/sh\nrm -rf /\n": "not a photo",
        b"GIF89a" + b"\x00" * 100: "not a photo",
        png_bomb: "too large",
        jpeg[:400]: "",  # cut short
        b"\xff\xd8" + b"\x00" * 64: "damaged",
        b"": "not a photo",
    }
    for data, reason in cases.items():
        answer = upload(client, data)
        assert answer.status_code == 400, (data[:20], answer.json)
        assert reason in answer.json["reason"]
    assert upload(client, b"\xff" * 700_000).status_code == 413
    missing = client.post("/control/scan", data={"other": "x"}, content_type="multipart/form-data")
    assert missing.status_code == 400 and "photo" in missing.json["reason"]
    assert events(scanning) == before


def test_only_a_trusted_phone_or_the_pin_from_the_companions_own_page_may_scan(scanning, deck):
    playing(scanning)
    jpeg = photo_bytes(next(iter(deck.values())), random.Random(2))
    stranger = scanning.test_client()
    assert upload(stranger, jpeg).status_code == 403
    assert upload(stranger, jpeg, **{"X-Table-Pin": "0000"}).status_code == 403
    assert upload(stranger, jpeg, **{"X-Table-Pin": PIN}).status_code == 200  # a script: no Origin
    trusted = phone(scanning)
    answer = upload(trusted, jpeg, Origin="http://evil.example")
    assert answer.status_code == 403 and "another site" in answer.json["reason"]


def test_a_phone_holding_another_seat_reads_the_card_but_cannot_take_that_seats_draw(scanning, deck):
    client = playing(scanning)
    ugluk = phone(scanning)
    assert ugluk.post("/control/seat", json={"seat": 1}).json["seat"] == 1
    card = "crummy-snotling-slaves"
    answer = upload(ugluk, photo_bytes(deck[card], random.Random(3)))
    assert answer.status_code == 200
    before = events(scanning)
    draw = {"kind": "act", "payload": {"kind": "draw", "player": 0, "card": answer.json["cards"][0]["card"]}}
    refused = ugluk.post("/control/commands", json=draw)
    assert refused.status_code >= 400 and not refused.json["accepted"]
    assert events(scanning) == before
    assert client.get("/control").status_code == 200


def test_one_photo_at_a_time_no_game_and_no_faces_are_told(scanning, deck, tmp_path):
    client = phone(scanning)
    jpeg = photo_bytes(next(iter(deck.values())), random.Random(4))
    answer = upload(client, jpeg)
    assert answer.status_code == 409 and "no game" in answer.json["reason"]
    client.post("/control/commands", json=new_game_body())
    busy = scanning.extensions["companion.scanner_busy"]
    busy.acquire()
    try:
        assert upload(client, jpeg).status_code == 429
    finally:
        busy.release()
    assert upload(client, jpeg).status_code == 200


def test_the_control_page_offers_the_scanner_only_when_the_companion_has_one(scanning):
    page = phone(scanning).get("/control").get_data(as_text=True)
    assert '"scan": "/control/scan"' in page and "scan.js" in page
    plain = create_app(
        {"TABLE_PIN": PIN, "SECRET_KEY": "s", "TESTING": True}, scanning.extensions["test.session"]
    )
    assert '"scan": null' in phone(plain).get("/control").get_data(as_text=True)
    assert upload(phone(plain), b"\xff\xd8").status_code == 409
