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


def roll_prompt(
    die: str = "cube", count: int = 1, faces=("eye", "mark"), players=(1,), policy="together", mixed=()
) -> dict:
    return {
        "kind": "attack_roll",
        "players": list(players),
        "text": "Ugluk rolls the Cube",
        "choices": [],
        "roll": {"die": die, "count": count, "faces": list(faces), "policy": policy, "dice": list(mixed)},
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


def test_a_one_by_one_request_gets_each_die_at_once(table, session, clock):
    """The dice policy is the engine's, in the roll request: the Idol's six throws count down."""
    session.current = toy_view(prompt=roll_prompt(count=6, policy="one_by_one"))
    rolled(table, clock, "cube", 1)
    rolled(table, clock, "cube", 6)
    assert [c.payload["faces"] for c in session.sent] == [["eye"], ["mark"]]


DIGITS = [str(n) for n in range(1, 21)]


def test_a_roll_asked_of_several_players_goes_to_the_first_still_waiting(table, session, clock):
    """Co-operative and simultaneous games ask several players at once (everyone rolls the Cube)."""
    session.current = toy_view(prompt=roll_prompt(players=(1, 0)))
    rolled(table, clock, "cube", 1)
    session.current = toy_view(prompt=roll_prompt(players=(0,)))  # the engine shrank the prompt
    rolled(table, clock, "cube", 6)
    assert [(c.payload["player"], c.payload["faces"]) for c in session.sent] == [(1, ["eye"]), (0, ["mark"])]


def test_a_die_the_layout_gives_a_seat_rolls_for_that_seat(session, registry, clock):
    from companion.table import Table, TableConfig

    from .table_fakes import toy_games

    config = TableConfig(die_seats=((7, 0), (8, 1)))
    table = Table(session, config, registry, clock=clock, games=toy_games)
    session.current = toy_view(prompt=roll_prompt(die="d6", count=2, faces=DIGITS[:6], players=(0, 1)))
    rolled(table, clock, "d6", 3, die=8)  # seat 1's dice and seat 0's, thrown at the same time
    rolled(table, clock, "d6", 5, die=7)
    rolled(table, clock, "d6", 4, die=8)
    rolled(table, clock, "d6", 2, die=7)
    rolls = sorted((c.payload["player"], c.payload["faces"]) for c in session.sent)
    assert rolls == [(0, ["5", "2"]), (1, ["3", "4"])]


def test_different_dice_thrown_together_are_one_roll_in_the_request_s_order(table, session, clock):
    """A mixed throw (Shattered Chaos: yellow, red, blue): each die fills the slot its kind answers."""
    prompt = roll_prompt(die="attack", count=2, faces=DIGITS[:8], mixed=("d6", "d8"), players=(0,))
    session.current = toy_view(prompt=prompt)
    rolled(table, clock, "d8", 7)
    rolled(table, clock, "d8", 2)  # a second d8: the roll has no room for it
    rolled(table, clock, "d6", 4)
    [command] = session.sent
    assert dict(command.payload) == {"kind": "roll", "player": 0, "die": "attack", "faces": ["4", "7"]}
    assert any("still needs: six-sided die" in text for text in session.notices())


def test_dice_not_all_read_within_the_window_are_not_submitted(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="combat", count=2, faces=("skull", "shield", "blank")))
    rolled(table, clock, "heroscape-combat", 1)
    clock.advance(3.01)
    table.pump()
    assert session.sent == []
    assert session.notices() == ["Only 1 of 2 dice were read in time: roll all 2 again"]
