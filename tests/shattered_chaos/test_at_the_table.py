"""Shattered Chaos played at a table through the real table and session: chaos cards drawn by laying their
tags by an adventurer's card, a card laid on the discard pile for the coming attack, the yellow, red and
blue e-dice as one mixed throw, the Adventurer buttons and ``next`` answering the enemy's questions; then
its demo on the virtual device, every move it can make at the table made there."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.cli.demo import SessionTable, SimulatedTable, device_settings, dice_ids, table_section
from companion.cli.wiring import adapters
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.games import find_bundle
from companion.games.shattered_chaos.demo import DICE, Layout, card_tags
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
from companion.settings import Settings
from companion.table import ManualClock, Table, TableConfig, TagRegistry, normalise_uid
from tests.integration.waiting import wait_until

PLAYERS = [{"name": n} for n in ("Ana", "Ben", "Cy", "Di")]
SETUP = {
    "game": "shattered-chaos",
    "players": PLAYERS,
    "options": {"adventurers": ["bastion", "deadeye", "raider", "stalker"]},
}
BASTION, DEADEYE, RAIDER, STALKER = range(4)
UID = {card: uid for uid, card in card_tags().items()}


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    with Session(tmp_path / "table.sqlite3") as real:
        assert real.submit(Command("new_game", "control", SETUP)).accepted
        yield real


class Hands:
    """Readings at the table, with a clock stepped past the settle and removal windows after each."""

    def __init__(self, table: Table, clock: ManualClock) -> None:
        self.table, self.clock = table, clock

    def step(self) -> None:
        self.clock.advance(0.05)
        self.table.pump()

    def lay(self, reader: int, card: str) -> None:
        self.table.observe(TagSeen(ReaderId(reader), TagUid(UID[card]), self.clock()))
        self.step()

    def lift(self, reader: int, card: str) -> None:
        self.table.observe(TagGone(ReaderId(reader), TagUid(UID[card]), self.clock()))
        self.step()
        self.step()

    def press(self, name: str) -> None:
        self.table.observe(ButtonPressed(ButtonId(name), self.clock(), "firmware"))
        self.step()

    def roll(self, die: int, face: int) -> None:
        self.table.observe(DieRolled(DieId(die), face, self.clock(), 6))
        self.step()


def act(session: Session, **payload: object) -> None:
    outcome = session.submit(Command("act", "control", dict(payload)))
    assert outcome.accepted, outcome.reason


def last(session: Session) -> dict:
    return session.history(limit=1)[-1]


def face(die: str, symbol: str) -> int:
    return Dice.load()[die].faces.index(symbol) + 1


def test_a_round_read_from_cards_dice_and_buttons(session: Session, tmp_path: Path) -> None:
    layout = Layout(seats=4, settle_ms=20, removal_ms=30)
    registry = TagRegistry.open(tmp_path / "table.sqlite3")
    for uid, card in card_tags().items():
        registry.enrol(normalise_uid(uid), "shattered-chaos", card)
    clock = ManualClock()
    config = TableConfig.from_mapping(table_section(layout.demo_layout()))
    table = Table(session, config, registry, clock=clock)
    hands = Hands(table, clock)
    # The table laid out: the adventurer cards and the stacks are read, nothing is played.
    for seat, hero in enumerate(("bastion", "deadeye", "raider", "stalker")):
        hands.lay(layout.adventurer_reader(seat), hero)
    state = session.position().state
    for stack, cards in state.stacks:
        for card in cards:
            hands.lay(layout.stack_reader(stack), card)
    hands.step()
    assert last(session)["action"] is None or last(session)["kind"] == "new_game"
    assert table.notices.to_json() == []

    # Deadeye calls on CHAOS: the flexible card she lifts off its stack and lays by her card is her draw.
    act(session, kind="place_enemy", model=21)
    act(session, kind="chaos_call", player=DEADEYE)
    hands.lift(layout.stack_reader("flexible"), "b25")
    assert any("Deadeye draws Bronze 25" in n["text"] for n in table.notices.to_json())
    hands.lay(layout.slot_readers(DEADEYE)[0], "b25")
    assert last(session)["action"] == {"kind": "draw_card", "player": DEADEYE, "card": "b25"}
    assert last(session)["observation"]["came_from"] == "stack"
    hands.press("next")  # she names nobody to draw
    assert last(session)["action"] == {"kind": "partner", "player": DEADEYE, "partner": None}

    # She lifts the card and lays it on the discard pile: it goes with the attack she declares next.
    hands.lift(layout.slot_readers(DEADEYE)[0], "b25")
    hands.lay(layout.discard_reader, "b25")
    assert last(session)["action"] == {"kind": "lay_card", "player": DEADEYE, "card": "b25"}
    act(session, kind="attack", player=DEADEYE, model=21, distance=8, cards=[], destruction=False)
    assert session.position().state.top.cards == ("b25",)

    # The throw: three e-dice named in [table.dice]; a second yellow is refused, red and blue missing.
    hands.roll(0, face("sc-yellow", "yellow:3"))
    hands.roll(3, face("sc-yellow", "yellow:1"))
    assert any(
        "roll still needs: red attack die, blue attack die" in n["text"] for n in table.notices.to_json()
    )
    hands.roll(2, face("sc-blue", "blue:4"))
    hands.roll(1, face("sc-red", "red:2v"))
    throw = last(session)
    assert throw["action"] == {
        "kind": "roll",
        "player": DEADEYE,
        "die": "sc-attack",
        "faces": ["yellow:3", "red:2v", "blue:4"],
    }
    assert [d["kind"] for d in throw["observation"]["dice"]] == ["sc-yellow", "sc-blue", "sc-red"]
    hands.press("next")  # keep the throw (a chaos hit is open to her)
    assert last(session)["action"] == {"kind": "chaos_hit", "player": DEADEYE, "dice": []}
    # Only blue 4 reaches 8 with her +2 talent and the card's +2: the reading is taken; gremlin 21 reacts
    # and asks what only the map knows. The Adventurer buttons answer, gathered in their window.
    assert "(range blue 8 for 8)" in str(last(session)["events"])
    state = session.position().state
    assert session.position().prompt.kind.startswith("enemy-")
    asked = state.top.candidates
    hands.press(f"adventurer:{asked[-1]}")
    hands.press(f"adventurer:{asked[0]}")
    clock.advance(2.0)  # the Adventurer buttons' window closes
    table.pump()
    answer = last(session)
    assert answer["action"]["kind"] in ("sighted", "closest")
    assert answer["observation"]["presses"][0]["player"] == asked[-1]
    registry.close()


def test_the_demo_plays_at_the_virtual_table(tmp_path: Path) -> None:
    from firmware_bridge.virtual import VirtualTable

    rng = random.Random(11)
    bundle = find_bundle("shattered-chaos")
    kit = bundle.load_demo(rng)
    assert kit is not None
    demo_layout = kit.layout(4)
    assert demo_layout.dice == DICE
    dice = Dice.load()
    device = VirtualTable(device_settings(demo_layout, dice, seed=5))
    port = device.start()
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, serial_port=port, extra={"table": table_section(demo_layout)})
    try:
        with Session(db) as session, adapters(settings, session):
            registry = TagRegistry.open(db)
            for uid, card in kit.tags().items():
                registry.enrol(normalise_uid(uid), "shattered-chaos", card)
            registry.close()
            assert wait_until(
                session, lambda: session.view()["devices"].get("firmware", {}).get("state") == "connected", 10
            )
            hands = kit.hands(SessionTable(session, dice, dice_ids(demo_layout)), device)
            demo = SimulatedTable(session, bundle, kit, DemoBrain(kit, rng, dice), hands, seats=4)
            demo.new_game()
            for _ in range(70):
                demo.step()
            made = {
                (e["source"], e["action"]["kind"]) for e in session.history(limit=200) if e["kind"] == "act"
            }
    finally:
        device.stop()
    # The table read the draws, the throws and the cards laid; the buttons answered the map.
    assert {("table", "draw_card"), ("table", "roll")} <= made, made
    assert {kind for source, kind in made if source == "firmware"} & {"sighted", "closest", "chaos_hit"}, made
    assert not {kind for source, kind in made if source == "control"} & {"draw_card", "roll", "sighted"}, made
    assert hands.physical > hands.direct / 2


def test_an_adventure_set_aside_resumes_with_its_laid_card_after_a_restart(tmp_path: Path) -> None:
    # A phone's "Start new game" sets the adventure aside mid-round (issue 19): resumed, after the
    # companion restarted too, it is where it was, down to the card laid for the coming attack.
    db = tmp_path / "table.sqlite3"
    with Session(db) as session:
        assert session.submit(Command("new_game", "control", SETUP)).accepted
        act(session, kind="place_enemy", model=21)
        act(session, kind="chaos_call", player=DEADEYE)
        act(session, kind="draw_card", player=DEADEYE, card="b25")
        act(session, kind="partner", player=DEADEYE, partner=None)
        act(session, kind="lay_card", player=DEADEYE, card="b25")
        before = session.view()["game"]
        other = {"game": "chaos-marauders", "players": [{"name": "Ana"}, {"name": "Ben"}]}
        assert session.submit(Command("new_game", "control", other)).accepted
        assert {g["id"]: g["status"] for g in session.games()} == {1: "set_aside", 2: "playing"}
    with Session(db) as again:
        assert again.submit(Command("resume", "control", {"game_id": 1})).accepted
        assert again.view()["game"] == before
        act(again, kind="attack", player=DEADEYE, model=21, distance=8, cards=[], destruction=False)
        assert again.position().state.top.cards == ("b25",)
