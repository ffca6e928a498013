"""Dice faces come from data; a die read at the table answers the pending roll prompt, or is ignored."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.dice import Dice, DiceDataError, UnknownDieError, UnknownFaceError
from companion.observations import DieId, DieRolled

from .table_fakes import toy_view


@pytest.fixture(scope="module")
def dice() -> Dice:
    return Dice.load()


def test_the_cube_of_devastation_has_five_eyes_and_one_mark(dice):
    cube = dice["cube"]
    assert Counter(cube.faces) == {"eye": 5, "mark": 1}
    assert cube.name("mark") == "Mark of Chaos" and cube.name("eye") == "Orcish Eye"
    assert cube.provenance["faces"].startswith("rulebook")


def test_the_heroscape_combat_die_has_three_skulls_two_shields_one_blank(dice):
    assert Counter(dice["heroscape-combat"].faces) == {"skull": 3, "shield": 2, "blank": 1}
    assert dice["heroscape-combat"].answers_die("combat")


def test_numbered_dice_show_their_face_index(dice):
    assert [dice.symbol("d20", face) for face in (1, 20)] == ["1", "20"]
    assert dice.symbol("d6", 4) == "4"


def test_unknown_dice_and_faces_are_errors(dice):
    with pytest.raises(UnknownDieError):
        dice["d100"]
    with pytest.raises(UnknownFaceError):
        dice.symbol("cube", 7)
    with pytest.raises(UnknownFaceError):
        dice.symbol("cube", 0)


def test_dice_data_must_say_where_faces_come_from():
    with pytest.raises(DiceDataError, match="provenance"):
        Dice.from_mapping({"dice": {"coin": {"faces": ["heads", "tails"]}}})


def roll_prompt(die: str = "cube", count: int = 1, faces=("eye", "mark"), players=(1,)) -> dict:
    return {
        "kind": "attack_roll",
        "players": list(players),
        "text": "Ugluk rolls the Cube",
        "choices": [],
        "roll": {"die": die, "count": count, "faces": list(faces)},
    }


def rolled(table, clock, kind: str, face: int, die: int = 1) -> None:
    table.observe(DieRolled(DieId(die), kind, face, clock()))
    table.pump()


def test_a_roll_answers_the_pending_roll_prompt(table, session, clock):
    session.current = toy_view(prompt=roll_prompt())
    rolled(table, clock, "cube", 6)
    [command] = session.sent
    assert (command.kind, command.source) == ("act", "table")
    assert dict(command.payload) == {"kind": "roll", "player": 1, "die": "cube", "faces": ["mark"]}
    assert command.observation["dice"][0]["face"] == 6


def test_a_roll_nobody_asked_for_is_shown_and_ignored(table, session, clock):
    rolled(table, clock, "cube", 6)
    assert session.sent == []
    assert session.notices() == ["Cube of Devastation rolled Mark of Chaos — no roll was asked for"]


def test_a_die_of_the_wrong_kind_is_shown_and_ignored(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="d20", faces=[str(n) for n in range(1, 21)]))
    rolled(table, clock, "cube", 1)
    assert session.sent == []
    assert session.notices() == [
        "Cube of Devastation rolled Orcish Eye — the table is waiting for a twenty-sided die roll"
    ]


def test_several_dice_for_one_prompt_are_collected_into_one_roll(table, session, clock):
    prompt = roll_prompt(die="combat", count=3, faces=("skull", "shield", "blank"), players=(0,))
    session.current = toy_view(prompt=prompt)
    rolled(table, clock, "heroscape-combat", 1, die=1)
    rolled(table, clock, "heroscape-combat", 4, die=2)
    assert session.sent == []
    rolled(table, clock, "heroscape-combat", 6, die=2)  # one die thrown again counts as the third
    [command] = session.sent
    assert dict(command.payload) == {
        "kind": "roll",
        "player": 0,
        "die": "combat",
        "faces": ["skull", "shield", "blank"],
    }
    assert [d["face"] for d in command.observation["dice"]] == [1, 4, 6]


def test_the_window_runs_from_the_latest_die(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="combat", count=2, faces=("skull", "shield", "blank")))
    rolled(table, clock, "heroscape-combat", 1)
    clock.advance(2.5)
    rolled(table, clock, "heroscape-combat", 2)  # 2.5 s later: still within 3 s of the previous die
    assert [c.payload["faces"] for c in session.sent] == [["skull", "skull"]]


def test_games_that_count_rolls_down_get_each_die_at_once(session, config, registry, clock):
    from companion.table import Table

    from .table_fakes import ToyMapper

    mapper = ToyMapper()
    mapper.rolls_one_at_a_time = True
    table = Table(session, config, registry, clock=clock, mappers=lambda game: mapper)
    session.current = toy_view(prompt=roll_prompt(count=6))
    rolled(table, clock, "cube", 1)
    rolled(table, clock, "cube", 6)
    assert [c.payload["faces"] for c in session.sent] == [["eye"], ["mark"]]


def test_dice_not_all_read_within_the_window_are_not_submitted(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="combat", count=2, faces=("skull", "shield", "blank")))
    rolled(table, clock, "heroscape-combat", 1)
    clock.advance(3.01)
    table.pump()
    assert session.sent == []
    assert session.notices() == ["Only 1 of 2 dice were read in time: roll all 2 again"]
