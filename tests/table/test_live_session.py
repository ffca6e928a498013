"""The table against the real Session and the Chaos Marauders engine (a temp SQLite file)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest

from companion.engine import Player, Setup
from companion.games.chaos_marauders.zones import DISCARD, LINE, PAD
from companion.observations import DieId, DieRolled, ReaderId, TagGone, TagSeen, TagUid
from companion.session import Command, Session
from companion.table import ManualClock, Table, TableConfig, TagRegistry

READERS = (
    LINE.zone(reader=ReaderId(0), player=0, line=0, slot=1),
    LINE.zone(reader=ReaderId(1), player=0, line=1),
    DISCARD.zone(reader=ReaderId(5)),
    PAD.zone(reader=ReaderId(6)),
)


class Live:
    def __init__(self, db: Path) -> None:
        self.db = db
        self.clock = ManualClock()
        self.session = Session(db)
        self.session.start()
        self.feed = self.session.subscribe()
        setup = Setup("chaos-marauders", (Player("Grotsnik"), Player("Ugluk")))
        outcome = self.session.submit(Command(kind="new_game", source="control", payload=setup.to_json()))
        assert outcome.accepted, outcome.reason
        self.registry = TagRegistry.open(db)
        config = TableConfig(readers=READERS, dice=((1, ("cube",)),))  # [table.dice] "1" = "cube"
        self.table = Table(self.session, config, self.registry, clock=self.clock)

    def put(self, reader: int, uid: str) -> None:
        self.table.observe(TagSeen(ReaderId(reader), TagUid(uid), self.clock()))
        self.clock.advance(0.31)
        self.table.pump()

    def lift(self, reader: int, uid: str) -> None:
        self.table.observe(TagGone(ReaderId(reader), TagUid(uid), self.clock()))
        self.clock.advance(0.41)
        self.table.pump()

    def wait_for(self, check: Callable[[Mapping], bool]) -> Mapping:
        """The first published view passing ``check`` (device reports are published asynchronously)."""
        while True:
            view = self.feed.get(timeout=5)
            assert view is not None, "no matching view was published"
            if check(view):
                return view

    def close(self) -> None:
        self.feed.close()
        self.session.stop()
        self.registry.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    world = Live(tmp_path / "table.sqlite3")
    yield world
    world.close()


def line(view: Mapping, seat: int, index: int) -> list:
    return view["game"]["players"][seat]["lines"][index]["slots"]


def test_a_card_on_a_line_reader_is_drawn_and_placed_by_the_engine(live):
    live.registry.enrol(TagUid("04000001"), "chaos-marauders", "crummy-snotling-slaves")
    live.put(0, "04000001")
    view = live.session.view()
    assert line(view, 0, 0)[1]["id"] == "crummy-snotling-slaves"
    assert view["last_change"]["source"] == "table"
    [stored] = [h for h in live.session.history() if h.get("source") == "table"]
    assert "04000001" in str(stored)  # the observation is kept with the input


def test_a_line_reader_without_a_slot_leaves_the_slot_to_the_engine(live):
    live.registry.enrol(TagUid("04000002"), "chaos-marauders", "crummy-snotling-slaves")
    live.put(1, "04000002")
    prompt = live.session.view()["game"]["prompt"]
    assert prompt["kind"] == "place" and "line 2" in prompt["text"]


def test_lifting_a_placed_card_warns_until_it_is_put_back(live):
    live.registry.enrol(TagUid("04000003"), "chaos-marauders", "crummy-snotling-slaves")
    live.put(0, "04000003")
    seq = live.session.view()["seq"]
    live.lift(0, "04000003")
    warning = (
        "Crummy Snotling Slaves lifted from Grotsnik's line 1 — put it back or correct it on the control page"
    )
    live.wait_for(lambda v: warning in [n["text"] for n in v["notices"]])
    live.put(0, "04000003")
    view = live.wait_for(lambda v: not v["notices"])
    assert view["seq"] == seq  # putting it back changed nothing in the game


def test_a_card_laid_straight_on_the_discard_pile_is_drawn_then_discarded(live):
    live.registry.enrol(TagUid("04000004"), "chaos-marauders", "crummy-snotling-slaves")
    live.put(5, "04000004")
    view = live.session.view()
    assert view["game"]["discard_pile"]["top"]["id"] == "crummy-snotling-slaves"
    assert view["game"]["active"] == 1  # discarding the drawn card ended Grotsnik's turn


def test_an_unknown_tag_reaches_the_tv_as_a_notice(live):
    live.put(0, "04A1B2C3")
    text = "Unknown card tag 04A1B2C3 on Grotsnik's line 1: enrol it on the control page"
    view = live.wait_for(lambda v: any(n["text"] == text for n in v["notices"]))
    assert view["seq"] == 1  # only the new game: nothing was played
    live.table.enrol("04A1B2C3", "Crummy Snotling Slaves")
    live.table.pump()
    view = live.wait_for(lambda v: not v["notices"] and v["seq"] == 2)
    assert line(view, 0, 0)[1]["id"] == "crummy-snotling-slaves"


def test_an_unprompted_cube_roll_is_shown_and_not_played(live):
    live.table.observe(DieRolled(DieId(1), 6, live.clock(), faces=6))
    live.table.pump()
    text = "Cube of Devastation rolled Mark of Chaos — no roll was asked for"
    view = live.wait_for(lambda v: any(n["text"] == text for n in v["notices"]))
    assert view["seq"] == 1


def test_the_chaos_marauders_card_stays_secret_in_notices(live):
    live.registry.enrol(TagUid("04000005"), "chaos-marauders", "chaos-marauders")
    live.put(0, "04000005")
    assert line(live.session.view(), 0, 0)[1]["id"] == "hidden"
    live.lift(0, "04000005")
    view = live.wait_for(lambda v: v["notices"])
    assert [n["text"] for n in view["notices"]] == [
        "A card lifted from Grotsnik's line 1 — put it back or correct it on the control page"
    ]


# Ugluk (seat 1) completes line 1 while Grotsnik has a card to attack: the engine offers an attack.
ATTACK_READY = (
    {"kind": "place", "player": 0, "card": "grivziz-dirtballs", "line": 0, "slot": 5},
    {"kind": "draw", "player": 0, "card": "claws-of-malal"},
    {"kind": "discard", "player": 0, "card": "claws-of-malal"},
    {"kind": "place", "player": 1, "card": "orc-regimental-standard", "line": 0, "slot": 0},
    {"kind": "place", "player": 1, "card": "hak-veinthrobs-volunteers", "line": 0, "slot": 1},
    {"kind": "place", "player": 1, "card": "spattznatts-suicide-squad", "line": 0, "slot": 2},
    {"kind": "place", "player": 1, "card": "claws-of-malal", "line": 0, "slot": 3},
    {"kind": "place", "player": 1, "card": "orc-regimental-musician", "line": 0, "slot": 4},
)


def play(live: Live, *actions: dict) -> None:
    for action in actions:
        outcome = live.session.submit(Command(kind="act", source="control", payload=action))
        assert outcome.accepted, outcome.reason


def test_the_cube_answers_the_attack_roll_and_the_defeated_card_leaves_quietly(live):
    live.registry.enrol(TagUid("04000010"), "chaos-marauders", "grivziz-dirtballs")
    live.put(0, "04000010")  # Grotsnik's line 1, slot 2
    play(live, *ATTACK_READY[1:], {"kind": "attack", "player": 1, "line": 0, "target": 0, "target_line": 0})
    prompt = live.session.view()["game"]["prompt"]
    assert (prompt["roll"]["die"], prompt["players"]) == ("cube", [1])
    seq = live.session.view()["seq"]
    live.table.observe(DieRolled(DieId(1), 2, live.clock(), faces=6))  # face 2: an Orcish Eye
    live.table.pump()
    view = live.session.view()
    assert view["seq"] == seq + 1 and view["last_change"]["source"] == "table"
    assert view["last_change"]["events"][0]["kind"] == "LineDefeated"
    # The defeated card is lifted and laid on the discard pile: the engine expected both.
    live.lift(0, "04000010")
    live.put(5, "04000010")
    assert live.session.view()["seq"] == seq + 1
    assert live.table.notices.to_json() == []


def test_the_next_button_declines_the_attack(live):
    from companion.observations import ButtonId, ButtonPressed

    play(live, *ATTACK_READY)
    assert live.session.view()["game"]["prompt"]["kind"] == "attack"
    live.table.observe(ButtonPressed(ButtonId("next"), live.clock()))
    live.table.pump()
    view = live.session.view()
    assert view["last_change"]["source"] == "gpio"
    assert view["game"]["prompt"]["kind"] != "attack"


def test_next_and_confirm_answer_which_slot_without_a_phone(live):
    from companion.observations import ButtonId, ButtonPressed

    def press(name: str) -> None:
        live.table.observe(ButtonPressed(ButtonId(name), live.clock()))
        live.table.pump()

    live.registry.enrol(TagUid("04000020"), "chaos-marauders", "crummy-snotling-slaves")
    live.put(1, "04000020")  # line 2's reader has no slot: the engine asks which
    choices = live.session.view()["game"]["prompt"]["choices"]
    assert len(choices) > 2
    press("confirm")
    assert "press next to step through them" in live.table.notices.to_json()[-1]["text"]
    press("next")
    press("next")
    shown = f"Next button: {choices[1]['label']} (choice 2 of {len(choices)}). Press Confirm to take it"
    assert live.table.notices.to_json()[-1]["text"] == shown
    seq = live.session.view()["seq"]
    press("confirm")
    view = live.session.view()
    assert view["seq"] == seq + 1 and view["last_change"]["source"] == "gpio"
    assert line(view, 0, 1)[choices[1]["action"]["slot"]]["id"] == "crummy-snotling-slaves"
