"""Which die belongs to which player (set from a phone): an owned die answers its owner's rolls only."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.observations import DieId, DieRolled
from companion.table import DiceOwnerError, DiceOwners

from .table_fakes import toy_view


def roll_prompt(players=(1,)) -> dict:
    return {
        "kind": "attack_roll",
        "players": list(players),
        "text": "roll the Cube",
        "choices": [],
        "roll": {"die": "cube", "count": 1, "faces": ["eye", "mark"]},
    }


def rolled(table, clock, die: int, face: int = 6) -> None:
    table.observe(DieRolled(DieId(die), face, clock(), 6))
    table.pump()


def test_a_players_own_die_answers_their_roll(table, session, clock):
    table.assign_die(7, 1)
    session.current = toy_view(prompt=roll_prompt(players=(1,)))
    rolled(table, clock, 7)
    [command] = session.sent
    assert command.payload["player"] == 1


def test_another_players_die_is_a_notice_not_a_roll(table, session, clock):
    table.assign_die(7, 0)
    session.current = toy_view(prompt=roll_prompt(players=(1,)))
    rolled(table, clock, 7)
    assert session.sent == []
    assert session.notices() == [
        "Cube of Devastation rolled Mark of Chaos — that is Grotsnik's die; Ugluk is to roll"
    ]


def test_a_throw_for_the_table_takes_anyones_die(table, session, clock):
    # A co-operative game's enemy attacks Ugluk: the dice are thrown for the enemy, by whoever is at hand.
    table.assign_die(7, 0)
    prompt = roll_prompt(players=(1,))
    prompt["roll"]["anyone"] = True
    session.current = toy_view(prompt=prompt)
    rolled(table, clock, 7)
    [command] = session.sent
    assert command.payload["player"] == 1 and session.notices() == []


def test_when_several_players_roll_each_owned_die_answers_for_its_owner(table, session, clock):
    table.assign_die(7, 0)
    session.current = toy_view(prompt=roll_prompt(players=(0, 1)))
    rolled(table, clock, 7)
    [command] = session.sent
    assert command.payload["player"] == 0
    rolled(table, clock, 8)  # nobody's die: the roll of the player asked who has no die of their own
    assert [c.payload["player"] for c in session.sent] == [0, 1]


def test_an_owner_who_is_not_at_this_game_leaves_the_die_to_anyone(table, session, clock):
    table.assign_die(7, 3)  # seat 3 of an earlier, bigger game
    session.current = toy_view(prompt=roll_prompt(players=(1,)))
    rolled(table, clock, 7)
    assert [c.payload["player"] for c in session.sent] == [1]


def test_owners_are_reported_for_the_control_page(table, session, clock):
    table.assign_die(7, 1)
    table.assign_die(9, 0)
    table.assign_die(9, None)
    table.pump()
    assert session.devices["table"]["dice_owners"] == {"7": 1}


def test_owners_outlive_a_restart(tmp_path: Path):
    owners = DiceOwners.open(tmp_path / "t.sqlite3")
    owners.assign(10, 2)
    owners.close()
    again = DiceOwners.open(tmp_path / "t.sqlite3")
    assert again.owner(10) == 2 and again.all() == {10: 2}
    again.close()


@pytest.mark.parametrize(("die", "seat"), [(-1, 0), (70000, 0), (1, 16), (1, -1), (True, 0), ("1", 0)])
def test_out_of_range_numbers_are_refused(die, seat):
    with pytest.raises(DiceOwnerError):
        DiceOwners().assign(die, seat)
