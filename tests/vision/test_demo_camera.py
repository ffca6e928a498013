"""The camera end to end: a rendered card lying in a zone of the mat reaches the rules engine as a
placed card, through the camera service, the watcher and companion.table, wired from ``[camera]``
settings exactly as ``companion serve`` wires them; and ``companion demo --camera``'s hands playing a
game on the rendered mat."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.cli.demo import SessionTable, SimulatedTable, device_settings, dice_ids, table_section
from companion.cli.wiring import adapters
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.engine import Player, Setup
from companion.games import find_bundle
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo, Layout
from companion.session import Command, Session
from companion.settings import CameraSettings, Settings
from firmware_bridge.virtual import VirtualTable
from vision.camera_table import CameraDemo, RenderedSource, RenderedTable
from vision.references import ReferenceSet
from vision.synth import card_faces
from vision.zones import load_layout

from ..integration import waiting

GAME = "chaos-marauders"
SEATS = 2


def wait_until(session: Session, predicate: Callable[[], bool], timeout: float = 30.0) -> bool:
    """Generous: two cores shared with other test runs can starve the camera thread for seconds."""
    return waiting.wait_until(session, predicate, timeout)


def camera_inputs(session: Session) -> list[dict[str, Any]]:
    return [
        entry
        for entry in session.history(limit=1000)
        if entry["source"] == "table" and (entry["observation"] or {}).get("type") == "card_sighted"
    ]


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "table.sqlite3") as session:
        setup = Setup(GAME, (Player("Grotsnik"), Player("Ugluk")))
        outcome = session.submit(Command(kind="new_game", source="control", payload=setup.to_json()))
        assert outcome.accepted, outcome.reason
        yield session


def test_a_rendered_card_in_a_zone_reaches_the_engine_as_a_placed_card(game: Session, tmp_path: Path):
    rng = random.Random(11)
    ids = [str(card["id"]) for card in find_bundle(GAME).cards()]
    faces = card_faces(ids, rng)
    references = tmp_path / "vision" / "refs.npz"
    ReferenceSet.from_faces(faces).save(references)
    layout = load_layout(GAME, SEATS)
    table = RenderedTable(layout, {face.card: face.image for face in faces}, rng)
    settings = Settings(
        db=game.db_path,
        camera=CameraSettings(
            source="sim:", players=SEATS, references=references, settle_frames=3, gone_frames=3
        ),
        extra={"table": {"readers": layout.reader_entries()}},
    )
    with adapters(settings, game, RenderedSource(table, fps=20)) as wired:
        assert wired.camera is not None
        assert wait_until(game, lambda: game.view()["devices"].get("camera", {}).get("state") == "watching")
        card = "crummy-snotling-slaves"
        table.place("p0-line0", card)
        assert wait_until(game, lambda: len(camera_inputs(game)) == 1)
        [entry] = camera_inputs(game)
        assert entry["action"]["kind"] == "place" and entry["action"]["card"] == card
        assert entry["observation"]["zone"]["camera"] == "p0-line0"
        # The line's zone does not say which slot (as a reader watching a whole line): the engine
        # asks, and the table's buttons or the phone answer. The card is already the engine's.
        asked = "Crummy Snotling Slaves in line 1: which slot?"
        # The log is written before the view is published: wait for the published position.
        assert wait_until(game, lambda: asked in game.position().prompt.text)
        first = game.position().choice_payloads()[0][1]
        assert game.submit(Command(kind="act", source="control", payload=first)).accepted
        assert card in game.position().state.boards[0][0]
        # Lifted while the engine still has it there: the table asks for it back, the game stays.
        table.remove("p0-line0", card)
        lifted = "lifted from Grotsnik's line 1"
        assert wait_until(game, lambda: any(lifted in str(n.get("text")) for n in game.view()["notices"]))
        assert card in game.position().state.boards[0][0] and len(camera_inputs(game)) == 1


def test_a_camera_without_enrolled_faces_says_so_and_the_table_plays_on(game: Session, tmp_path: Path):
    """It waits, idle, saying why (faces may be enrolled while the table runs, or another game played)."""
    settings = Settings(db=game.db_path, camera=CameraSettings(source="sim:", players=SEATS))
    with adapters(settings, game, None) as wired:
        assert wired.camera is not None and wired.table is not None
        assert wait_until(game, lambda: game.view()["devices"].get("camera", {}).get("state") == "idle")
        status = game.view()["devices"]["camera"]
        assert "companion vision enrol --game chaos-marauders" in status["detail"]
        texts = [str(n.get("text")) for n in game.view()["notices"]]
        assert any(t.startswith("Camera: no enrolled card faces at") for t in texts)


@pytest.fixture
def device() -> Iterator[VirtualTable]:
    layout = Layout(seats=SEATS)
    table = VirtualTable(device_settings(layout.demo_layout(), Dice.load(), seed=5))
    table.start()
    yield table
    table.stop()


def test_the_demo_plays_its_cards_on_the_rendered_mat(tmp_path: Path, device: VirtualTable):
    """``companion demo --camera``'s path: readers of lines and piles become camera zones, the demo's
    hands lay faces on the mat, the camera reads them; dice and buttons stay on the device."""
    rng = random.Random(7)
    kit = ChaosMaraudersDemo(rng)
    demo_layout = kit.layout(SEATS)
    camera = CameraDemo(GAME, SEATS, kit.tags(), random.Random(3), tmp_path)
    section = camera.table_section(table_section(demo_layout))
    assert all("camera" in entry for entry in section["readers"])  # every line and pile is on the mat
    assert set(camera.zones.values()) == {zone.name for zone in camera.layout.zones}
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, serial_port=device.path, extra={"table": section}, camera=camera.settings())
    with Session(db) as session, adapters(settings, session, camera.source) as wired:
        assert wait_until(
            session, lambda: session.view()["devices"].get("firmware", {}).get("state") == "connected"
        )
        dice = dice_ids(demo_layout)
        hands = kit.hands(SessionTable(session, Dice.load(), dice), camera.device(device, wired.camera))
        demo = SimulatedTable(session, find_bundle(GAME), kit, DemoBrain(kit, rng), hands, seats=SEATS)
        demo.new_game()
        for _ in range(60):
            demo.step()
            if len(camera_inputs(session)) >= 6:
                break
        placed = camera_inputs(session)
        assert len(placed) >= 6, f"only {len(placed)} cards reached the engine through the camera"
        # Every card the engine shows on a line lies in that line's zone of the mat.
        state = session.position().state
        for seat in range(SEATS):
            for line in range(3):
                on_mat = sorted(c.card for c in camera.table.cards() if c.zone == f"p{seat}-line{line}")
                assert on_mat == sorted(c for c in state.boards[seat][line] if c is not None)


def test_with_slot_zones_the_camera_tells_the_engine_the_slot(game: Session, tmp_path: Path):
    rng = random.Random(12)
    ids = [str(card["id"]) for card in find_bundle(GAME).cards()]
    faces = card_faces(ids, rng)
    references = tmp_path / "refs.npz"
    ReferenceSet.from_faces(faces).save(references)
    layout = load_layout(GAME, SEATS)
    table = RenderedTable(layout, {face.card: face.image for face in faces}, rng, hand_frames=0)
    camera = CameraSettings("sim:", SEATS, references=references, settle_frames=2, gone_frames=2, slots=True)
    readers = layout.reader_entries(by_slot=True)
    assert len(readers) == SEATS * 3 * 12 + 2
    settings = Settings(db=game.db_path, camera=camera, extra={"table": {"readers": readers}})
    card = "crummy-snotling-slaves"
    with adapters(settings, game, RenderedSource(table, fps=20)):
        assert wait_until(game, lambda: game.view()["devices"].get("camera", {}).get("state") == "watching")
        table.place("p0-line1", card, slot=3)
        assert wait_until(game, lambda: game.position().state.boards[0][1][3] == card)
    [entry] = camera_inputs(game)
    assert entry["observation"]["zone"]["camera"] == "p0-line1-slot3" and entry["action"]["slot"] == 3


def test_a_card_moved_on_camera_means_what_a_moved_tag_means(game: Session, tmp_path: Path):
    """A card carried from a line to the discard pile reaches the engine as the discard of the card
    being placed, known to come from the line; lifting the pile's top card uncovers the one beneath,
    which is not played again, while a new card laid on the pile still is."""
    rng = random.Random(13)
    ids = [str(card["id"]) for card in find_bundle(GAME).cards()]
    faces = card_faces(ids, rng)
    references = tmp_path / "refs.npz"
    ReferenceSet.from_faces(faces).save(references)
    layout = load_layout(GAME, SEATS)
    table = RenderedTable(layout, {face.card: face.image for face in faces}, rng)
    camera = CameraSettings("sim:", SEATS, references=references, settle_frames=3, gone_frames=3)
    settings = Settings(db=game.db_path, camera=camera, extra={"table": {"readers": layout.reader_entries()}})
    first, second, third = "crummy-snotling-slaves", "hobgoblin-musician", "hobgoblin-standard"
    with adapters(settings, game, RenderedSource(table, fps=20)) as wired:
        assert wired.camera is not None
        assert wait_until(game, lambda: game.view()["devices"].get("camera", {}).get("state") == "watching")
        table.place("p0-line0", first)
        assert wait_until(game, lambda: "which slot?" in game.position().prompt.text)
        # Grotsnik thinks better of it: the card goes from his line to the discard pile.
        table.remove("p0-line0", first)
        table.place("discard", first)
        assert wait_until(game, lambda: game.position().state.discard == (first,))
        moved = camera_inputs(game)[-1]
        assert moved["action"] == {"kind": "discard", "player": 0, "card": first}
        assert moved["observation"]["came_from"] == "line"
        assert not any("lifted" in str(n.get("text")) for n in game.view()["notices"])
        # Ugluk draws a card and discards it: it lies on the first.
        table.place("discard", second)
        assert wait_until(game, lambda: game.position().state.discard == (first, second))
        before = len(camera_inputs(game))
        # The top card lifted off: the camera sees the first card again, which is not a new discard.
        table.remove("discard", second)
        lying = wired.camera.watcher.lying
        assert wait_until(game, lambda: [(t.zone, t.card) for t in lying()] == [("discard", first)])
        # Grotsnik draws and discards a card: played, and nothing was played before it.
        table.place("discard", third)
        assert wait_until(game, lambda: game.position().state.discard == (first, second, third))
        after = [(e["action"]["kind"], e["action"]["card"]) for e in camera_inputs(game)[before:]]
        assert after == [("draw", third), ("discard", third)]
