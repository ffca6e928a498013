"""The phone as a scanner in a real Chromium: a photo chosen in the draw form's camera input is
shrunk on the phone, read by the server, and its card offered first, one tap to confirm."""

from __future__ import annotations

import random

import pytest

from companion.games import find_bundle
from vision.phone_scans import PhotoScans
from vision.photo_bench import photo_bytes
from vision.references import ReferenceSet
from vision.synth import card_faces

from .browser_support import PIN

pytestmark = pytest.mark.browser

TIMEOUT_MS = 15_000


def test_a_photographed_card_is_offered_first_with_the_next_likely_beside_it(
    browser, table, tmp_path, artifacts
):
    ids = [str(card["id"]) for card in find_bundle("chaos-marauders").cards() or ()]
    faces = card_faces(ids, random.Random(5))
    ReferenceSet.from_faces(faces).save(tmp_path / "faces.npz")
    table.stop()
    table.scanner = PhotoScans(lambda game: tmp_path / "faces.npz")
    table.start()
    table.new_game()
    card = "claws-of-malal"
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(photo_bytes(next(f.image for f in faces if f.card == card), random.Random(21)))

    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True)
    page = context.new_page()
    page.goto(f"{table.url}/control")
    page.fill("#pin", PIN)
    page.click("button[type=submit]")
    page.wait_for_selector("#c-scan", timeout=TIMEOUT_MS)
    assert page.locator("#c-scan-photo").get_attribute("capture") == "environment"
    page.set_input_files("#c-scan-photo", str(photo))
    offered = page.locator(f'#c-offer .cm-offered[data-card="{card}"]')
    offered.wait_for(timeout=TIMEOUT_MS)
    assert page.locator("#c-offer .cm-offered-other").count() >= 1  # the next most likely beside it
    assert "read the card drawn" in page.locator("#c-offer").inner_text()
    page.screenshot(path=str(artifacts / "control-scan-offer.png"))
    offered.click()
    page.wait_for_function(
        "document.getElementById('c-msg').textContent.startsWith('Done')", timeout=TIMEOUT_MS
    )
    assert table.session is not None
    assert table.session.history()[-1]["action"] == {"kind": "draw", "player": 0, "card": card}
    context.close()
