"""A game the platform has never seen plays through it unchanged: Raid (tests/bundles/raid), a
co-operative game of simultaneous plans with zones, a button and dice of its own, installed as a
plugin's game is. It is read from tags, buttons and dice by the table, served by the web pages, read
from its own camera mat, and played by its own demo on the virtual device; nothing in session/,
table/, web/ or vision/ was written for it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.demo import SessionTable, SimulatedTable, device_settings, dice_ids, table_section
from companion.cli.wiring import adapters
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.engine import GameType
from companion.games import find_bundle
from companion.observations import (
    ButtonId,
    ButtonPressed,
    DieId,
    DieRolled,
    ReaderId,
    TagGone,
    TagSeen,
    TagUid,
)
from companion.session import Command, Session
from companion.settings import CameraSettings, Settings
from companion.table import ManualClock, Table, TableConfig, TagRegistry, normalise_uid
from tests.bundles.raid.demo import Layout, RaidDemo, uid_of

from .integration.waiting import wait_until

pytestmark = pytest.mark.usefixtures("raid_installed")

SETUP = {"game": "raid", "players": [{"name": "Ada"}, {"name": "Bo"}], "options": {"rounds": 1, "target": 4}}


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "table.sqlite3") as real:
        assert real.submit(Command("new_game", "control", SETUP)).accepted
        yield real


class Hands:
    """Readings at the table, with a clock stepped past the settle window after each."""

    def __init__(self, table: Table, clock: ManualClock) -> None:
        self.table, self.clock = table, clock

    def step(self) -> None:
        self.clock.advance(0.05)
        self.table.pump()

    def lay(self, reader: int, uid: str) -> None:
        self.table.observe(TagSeen(ReaderId(reader), TagUid(uid), self.clock()))
        self.step()

    def lift(self, reader: int, uid: str) -> None:
        self.table.observe(TagGone(ReaderId(reader), TagUid(uid), self.clock()))

    def press(self, name: str) -> None:
        self.table.observe(ButtonPressed(ButtonId(name), self.clock(), "firmware"))
        self.step()

    def roll(self, die: int, face: int, faces: int) -> None:
        self.table.observe(DieRolled(DieId(die), face, self.clock(), faces))
        self.step()


def test_raid_is_read_from_its_own_zones_buttons_and_dice_by_the_table(session: Session, tmp_path: Path):
    layout = Layout(seats=2, settle_ms=20, removal_ms=30)
    registry = TagRegistry.open(tmp_path / "table.sqlite3")
    for uid, card in RaidDemo(random.Random(0)).tags().items():
        registry.enrol(normalise_uid(uid), "raid", card)
    clock = ManualClock()
    table = Table(session, TableConfig.from_mapping(layout.table_section()), registry, clock=clock)
    hands = Hands(table, clock)
    torch = uid_of(0, "torch")
    # A card laid straight on a territory: the table cannot tell whose it is, and says so.
    hands.lay(layout.reader_of("north"), torch)
    assert any("lay it from your hand" in n["text"] for n in table.notices.to_json())
    hands.lift(layout.reader_of("north"), torch)
    hands.step()
    # From Ada's hand to the north territory: her play (came_from names her hand zone).
    hands.lay(0, torch)
    hands.lift(0, torch)
    hands.lay(layout.reader_of("north"), torch)
    last = session.history(limit=1)[-1]
    assert last["action"] == {"kind": "play", "player": 0, "card": "torch", "place": "north"}
    assert last["observation"]["came_from"] == "hand"
    assert last["observation"]["zone"] == {
        "reader": 2,
        "camera": None,
        "zone": "territory",
        "territory": "north",
    }
    # Bo's ready button, a role Raid declares.
    hands.press("ready:1")
    assert session.history(limit=1)[-1]["action"] == {"kind": "ready", "player": 1}
    # The party's throw, asked of both players at once: a d8 and a d6, in either order, one roll.
    assert session.position().prompt.players == (0, 1)
    hands.roll(1, 5, faces=8)  # no [table.dice] here: each die is read by its number of faces
    hands.roll(0, 4, faces=6)
    last = session.history(limit=1)[-1]
    assert last["action"] == {"kind": "roll", "player": 0, "die": "clash", "faces": ["4", "5"]}
    view = session.view()
    assert view["status"] == "finished" and view["game"]["tally"] == 4
    assert view["game_type"] == GameType(cooperative=True, simultaneous_moves=True).to_json()
    result = view["result"]
    assert result["final"] and result["cooperative"] and result["winners"] == [0, 1] and not result["tie"]
    assert result["outcome"] == "The party wins: 4 of 4"
    registry.close()


def test_raid_is_served_by_the_web_pages(session: Session):
    from web import create_app

    client = create_app({"TABLE_PIN": "4711", "SECRET_KEY": "s", "TESTING": True}, session).test_client()
    games = {g["name"]: g for g in client.get("/api/available-games").json["games"]}
    assert games["raid"]["game_type"]["cooperative"] and games["raid"]["max_players"] == 4
    assert "/games/raid/tv.js" in client.get("/tv").get_data(as_text=True)
    assert b'TableTV.register("raid"' in client.get("/games/raid/tv.js").data
    assert [c["id"] for c in client.get("/api/cards/raid").json["cards"]] == ["scout", "torch", "banner"]
    view = client.get("/api/view").json
    assert view["game"]["game"] == "raid" and view["result"]["cooperative"] and not view["result"]["final"]
    pin = {"X-Table-Pin": "4711"}
    answer = client.post(
        "/api/commands", json={"kind": "act", "payload": {"kind": "ready", "player": 0}}, headers=pin
    )
    assert answer.status_code == 200 and answer.json["accepted"]
    assert client.get("/api/view").json["last_change"]["action"] == {"kind": "ready", "player": 0}


def test_raid_is_read_from_its_own_camera_mat(session: Session, tmp_path: Path):
    from vision.camera_table import RenderedSource, RenderedTable
    from vision.references import ReferenceSet
    from vision.synth import card_faces
    from vision.zones import load_layout

    layout = load_layout("raid", 2)
    assert [zone.name for zone in layout.zones] == ["p0-hand", "p1-hand", "north", "south", "enemy0"]
    rng = random.Random(21)
    faces = card_faces(["scout", "torch", "banner"], rng)
    references = tmp_path / "refs.npz"
    ReferenceSet.from_faces(faces).save(references)
    table = RenderedTable(layout, {face.card: face.image for face in faces}, rng)
    camera = CameraSettings("sim:", 2, references=references, settle_frames=3, gone_frames=3)
    settings = Settings(
        db=session.db_path, camera=camera, extra={"table": {"readers": layout.reader_entries()}}
    )
    settings = settings.with_overrides(game="raid")
    with adapters(settings, session, RenderedSource(table, fps=20)) as wired:
        assert wired.camera is not None
        assert wait_until(
            session, lambda: session.view()["devices"].get("camera", {}).get("state") == "watching", 30
        )
        table.place("p1-hand", "banner")  # in Bo's hand: nothing to play
        assert wait_until(session, lambda: [t.zone for t in wired.camera.watcher.lying()] == ["p1-hand"], 30)
        table.remove("p1-hand", "banner")
        table.place("enemy0", "banner")  # carried from Bo's hand onto the enemy model
        assert wait_until(session, lambda: session.position().state.plans[1] is not None, 30)
    last = session.history(limit=1)[-1]
    assert last["action"] == {"kind": "play", "player": 1, "card": "banner", "place": "model 0"}
    assert last["observation"]["came_from"] == "hand" and last["observation"]["moved_from"][0] == "p1-hand"


def test_raid_s_demo_plays_a_whole_game_on_the_virtual_device(tmp_path: Path):
    from firmware_bridge.virtual import VirtualTable

    rng = random.Random(8)
    bundle = find_bundle("raid")
    kit = bundle.load_demo(rng)
    demo_layout = kit.layout(2)
    dice = Dice.load()
    device = VirtualTable(device_settings(demo_layout, dice, seed=3))
    port = device.start()
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, serial_port=port, extra={"table": table_section(demo_layout)})
    try:
        with Session(db) as session, adapters(settings, session) as wired:
            registry = TagRegistry.open(db)
            for uid, card in kit.tags().items():
                registry.enrol(normalise_uid(uid), "raid", card)
            registry.close()
            assert wait_until(
                session, lambda: session.view()["devices"].get("firmware", {}).get("state") == "connected", 10
            )
            assert wired.link is not None
            hands = kit.hands(SessionTable(session, dice, dice_ids(demo_layout)), device)
            demo = SimulatedTable(session, bundle, kit, DemoBrain(kit, rng), hands, seats=2)
            demo.new_game()
            for _ in range(40):
                if session.view()["status"] == "finished":
                    break
                demo.step()
            assert session.view()["status"] == "finished" and session.view()["result"]["final"]
            sources = {entry["source"] for entry in session.history(limit=100) if entry["kind"] == "act"}
            assert sources == {"table", "firmware"}, sources  # every move at the table, none by hand
            assert hands.physical >= 4
    finally:
        device.stop()
