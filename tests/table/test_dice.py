"""Dice faces come from data; a die read at the table answers the pending roll prompt, or is ignored."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.dice import DeviceDice, DeviceDiceError, Dice, DiceDataError, UnknownDieError, UnknownFaceError
from companion.observations import DieId, DieRolled
from companion.table import Table, TableConfig

from .table_fakes import TOY_READERS, toy_games, toy_view

NAMED = {1: ("cube", "heroscape-combat"), 2: ("heroscape-combat",), 3: ("d20",), 4: ("cube",)}
"""[table.dice] of these tests: die 1 is the Cube or the combat die, whichever the game rolls."""


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


@pytest.fixture
def config() -> TableConfig:
    return TableConfig(settle_ms=300, removal_ms=400, readers=TOY_READERS, dice=tuple(NAMED.items()))


def rolled(table, clock, face: int, die: int = 1, faces: int | None = 6) -> None:
    table.observe(DieRolled(DieId(die), face, clock(), faces))
    table.pump()


def test_a_roll_answers_the_pending_roll_prompt(table, session, clock):
    session.current = toy_view(prompt=roll_prompt())
    rolled(table, clock, 6)
    [command] = session.sent
    assert (command.kind, command.source) == ("act", "table")
    assert dict(command.payload) == {"kind": "roll", "player": 1, "die": "cube", "faces": ["mark"]}
    assert command.observation["dice"][0]["face"] == 6


def test_a_roll_nobody_asked_for_is_shown_and_ignored(table, session, clock):
    rolled(table, clock, 6, die=4)
    assert session.sent == []
    assert session.notices() == ["Cube of Devastation rolled Mark of Chaos — no roll was asked for"]


def test_a_die_standing_for_several_is_named_by_number_when_nobody_asks(table, session, clock):
    rolled(table, clock, 6, die=1)  # the Cube or the combat die: which one, nothing says
    assert session.notices() == ["Die 1 rolled face 6 — no roll was asked for"]


def test_a_die_of_the_wrong_kind_is_shown_and_ignored(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="d20", faces=[str(n) for n in range(1, 21)]))
    rolled(table, clock, 1, die=4)
    rolled(table, clock, 1, die=1)
    assert session.sent == []
    assert session.notices() == [
        "Cube of Devastation rolled Orcish Eye — the table is waiting for a twenty-sided die roll",
        "Die 1 rolled face 1 — the table is waiting for a twenty-sided die roll",
    ]


def test_several_dice_for_one_prompt_are_collected_into_one_roll(table, session, clock):
    prompt = roll_prompt(die="combat", count=3, faces=("skull", "shield", "blank"), players=(0,))
    session.current = toy_view(prompt=prompt)
    rolled(table, clock, 1, die=1)
    rolled(table, clock, 4, die=2)
    assert session.sent == []
    rolled(table, clock, 6, die=2)  # one die thrown again counts as the third
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
    rolled(table, clock, 1)
    clock.advance(2.5)
    rolled(table, clock, 2)  # 2.5 s later: still within 3 s of the previous die
    assert [c.payload["faces"] for c in session.sent] == [["skull", "skull"]]


def test_a_one_by_one_request_gets_each_die_at_once(table, session, clock):
    """The dice policy is the engine's, in the roll request: the Idol's six throws count down."""
    session.current = toy_view(prompt=roll_prompt(count=6, policy="one_by_one"))
    rolled(table, clock, 1)
    rolled(table, clock, 6)
    assert [c.payload["faces"] for c in session.sent] == [["eye"], ["mark"]]


DIGITS = [str(n) for n in range(1, 21)]


def test_a_roll_asked_of_several_players_goes_to_the_first_still_waiting(table, session, clock):
    """Co-operative and simultaneous games ask several players at once (everyone rolls the Cube)."""
    session.current = toy_view(prompt=roll_prompt(players=(1, 0)))
    rolled(table, clock, 1, die=4)
    session.current = toy_view(prompt=roll_prompt(players=(0,)))  # the engine shrank the prompt
    rolled(table, clock, 6, die=4)
    assert [(c.payload["player"], c.payload["faces"]) for c in session.sent] == [(1, ["eye"]), (0, ["mark"])]


def test_dice_given_to_players_roll_for_them_when_several_throw_at_once(table, session, clock):
    """Whose die is whose comes from the phones (DiceOwners); which die it is from [table.dice]."""
    table.assign_die(7, 0)
    table.assign_die(8, 1)
    session.current = toy_view(prompt=roll_prompt(die="d6", count=2, faces=DIGITS[:6], players=(0, 1)))
    rolled(table, clock, 3, die=8)  # seat 1's dice and seat 0's, thrown at the same time
    rolled(table, clock, 5, die=7)
    rolled(table, clock, 4, die=8)
    rolled(table, clock, 2, die=7)
    rolls = sorted((c.payload["player"], c.payload["faces"]) for c in session.sent)
    assert rolls == [(0, ["5", "2"]), (1, ["3", "4"])]


def test_a_die_nobody_owns_goes_to_the_player_asked_who_has_no_die_of_their_own(table, session, clock):
    table.assign_die(7, 0)
    session.current = toy_view(prompt=roll_prompt(players=(0, 1)))
    rolled(table, clock, 6, die=9)  # nobody's die: seat 0 has a die of its own, so it is seat 1's roll
    assert [(c.payload["player"], c.payload["faces"]) for c in session.sent] == [(1, ["mark"])]
    table.assign_die(8, 1)
    rolled(table, clock, 1, die=9)  # now both asked have their own die: whose is this one?
    assert len(session.sent) == 1
    assert "each has a die of their own: whose is this one?" in session.notices()[-1]


def test_different_dice_thrown_together_are_one_roll_in_the_request_s_order(table, session, clock):
    """A mixed throw (Shattered Chaos: yellow, red, blue): each die fills the slot its kind answers."""
    prompt = roll_prompt(die="attack", count=2, faces=DIGITS[:8], mixed=("d6", "d8"), players=(0,))
    session.current = toy_view(prompt=prompt)
    rolled(table, clock, 7, die=5, faces=8)
    rolled(table, clock, 2, die=5, faces=8)  # a second d8: the roll has no room for it
    rolled(table, clock, 4, die=6, faces=6)
    [command] = session.sent
    assert dict(command.payload) == {"kind": "roll", "player": 0, "die": "attack", "faces": ["4", "7"]}
    assert any("still needs: six-sided die" in text for text in session.notices())
    assert [d["kind"] for d in command.observation["dice"]] == ["d8", "d6"]


def test_one_electronic_die_standing_for_several_fills_the_slot_a_mixed_throw_still_needs(
    session, registry, clock
):
    """[table.dice] "1" = ["cube", "heroscape-combat"] in a throw of both: read as the one still missing."""
    config = TableConfig(readers=TOY_READERS, dice=((1, ("cube", "heroscape-combat")),))
    table = Table(session, config, registry, clock=clock, games=toy_games)
    faces = ("eye", "mark", "skull", "shield", "blank")
    session.current = toy_view(
        prompt=roll_prompt(die="mixed", count=2, faces=faces, mixed=("cube", "combat"), players=(0,))
    )
    rolled(table, clock, 6)  # the Cube's slot first
    rolled(table, clock, 1)  # then the same e-die is the combat die
    [command] = session.sent
    assert command.payload["faces"] == ["mark", "skull"]


def test_dice_not_all_read_within_the_window_are_not_submitted(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="combat", count=2, faces=("skull", "shield", "blank")))
    rolled(table, clock, 1)
    clock.advance(3.01)
    table.pump()
    assert session.sent == []
    assert session.notices() == ["Only 1 of 2 dice were read in time: roll all 2 again"]


# --- device dice are numbers; which die they are is table data (issue 16.9) ----------------------


def test_one_electronic_die_answers_whichever_game_die_it_is_named_for(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="combat", faces=("skull", "shield", "blank")))
    rolled(table, clock, 6, die=1)  # [table.dice] "1" = ["cube", "heroscape-combat"]
    session.current = toy_view(prompt=roll_prompt())
    rolled(table, clock, 6, die=1)
    assert [(c.payload["die"], c.payload["faces"]) for c in session.sent] == [
        ("combat", ["blank"]),
        ("cube", ["mark"]),
    ]
    assert [c.observation["dice"][0]["kind"] for c in session.sent] == ["heroscape-combat", "cube"]


@pytest.fixture
def unnamed(session, registry, clock) -> Table:
    """An older settings file: no [table.dice]."""
    return Table(session, TableConfig(readers=TOY_READERS), registry, clock=clock, games=toy_games)


def test_without_table_dice_a_die_answers_the_roll_asked_for_when_its_faces_match(unnamed, session, clock):
    session.current = toy_view(prompt=roll_prompt())
    rolled(unnamed, clock, 6, die=0, faces=6)  # a six-faced die while the Cube is asked for: the Cube
    session.current = toy_view(prompt=roll_prompt(die="d20", faces=[str(n) for n in range(1, 21)]))
    rolled(unnamed, clock, 6, die=0, faces=6)  # ... but it cannot be the d20
    rolled(unnamed, clock, 17, die=5, faces=20)
    assert [c.payload["faces"] for c in session.sent] == [["mark"], ["17"]]
    assert session.notices() == [
        "Die 0 rolled face 6 — the table is waiting for a twenty-sided die roll",
    ]


def test_a_die_no_data_describes_says_how_to_name_it(unnamed, session, clock):
    session.current = toy_view(prompt=roll_prompt())
    rolled(unnamed, clock, 3, die=7, faces=7)
    assert session.sent == []
    assert session.notices() == [
        "A die could not be read: die 7 has 7 faces and no die of the dice data has as many: name it in"
        ' [table.dice] (e.g. "7" = "d7") or describe it in a dice file'
    ]


def test_a_die_named_for_another_face_count_is_refused(table, session, clock):
    session.current = toy_view(prompt=roll_prompt(die="d20", faces=[str(n) for n in range(1, 21)]))
    rolled(table, clock, 5, die=3, faces=6)  # [table.dice] says d20, the device says six faces
    assert session.sent == []
    assert session.notices() == [
        "A die could not be read: die 3 has 6 faces but [table.dice] names it the twenty-sided die (20 faces)"
    ]


def test_table_dice_must_name_dice_the_data_describes(dice):
    with pytest.raises(DeviceDiceError, match="die 2 is 'shattered-yellow', which is not one of d20, d6"):
        DeviceDice(dice, {2: ("shattered-yellow",)})


SHATTERED_LIKE = {
    "dice": {
        "yellow": {
            "title": "yellow attack die",
            "faces": ["1", ["1", "vortex"], "2", ["2", "vortex"], "3", "3+vortex"],
            "answers": ["yellow"],
            "names": {"vortex": "Vortex"},
            "provenance": {"faces": "assumed: a test die, not the game's"},
        },
        "d3": {
            "title": "d3 (a six-sided die read 1-1-2-2-3-3)",
            "faces": [1, 1, 2, 2, 3, 3],
            "sides": 6,
            "answers": ["d3"],
            "provenance": {"faces": "assumed: a test die"},
        },
    }
}


def test_a_face_may_show_several_symbols_and_a_die_may_read_a_number_twice():
    data = Dice.from_mapping(SHATTERED_LIKE)
    yellow, d3 = data["yellow"], data["d3"]
    assert yellow.faces == ("1", "1+vortex", "2", "2+vortex", "3", "3+vortex")
    assert yellow.symbols(4) == ("2", "vortex") and yellow.name("3+vortex") == "3 + Vortex"
    assert (d3.sides, d3.symbol(4)) == (6, "2")
    reading = DeviceDice(data, {0: ("yellow",)}).read(0, 6, 6, "yellow")
    assert (reading.symbol, reading.said) == ("3+vortex", "yellow attack die rolled 3 + Vortex")


def test_a_game_die_declared_in_data_answers_rolls_without_any_protocol_change(session, registry, clock):
    """A new game's die is a dice file and a [table.dice] line: the device still sends (die, face)."""
    data = Dice.from_mapping(SHATTERED_LIKE)
    config = TableConfig(readers=TOY_READERS, dice=((2, ("yellow",)),))
    table = Table(session, config, registry, dice=data, clock=clock, games=toy_games)
    session.current = toy_view(
        prompt=roll_prompt(die="yellow", faces=Dice.from_mapping(SHATTERED_LIKE)["yellow"].faces)
    )
    rolled(table, clock, 4, die=2, faces=6)
    [command] = session.sent
    assert dict(command.payload)["faces"] == ["2+vortex"]


@pytest.mark.parametrize(
    ("face", "problem"),
    [([], "a face is a symbol or a list"), (["a+b"], "a face is a symbol or a list"), (True, "a face")],
)
def test_bad_faces_are_refused(face, problem):
    entry = {"faces": ["x", face], "provenance": {"faces": "assumed"}}
    with pytest.raises(DiceDataError, match=problem):
        Dice.from_mapping({"dice": {"odd": entry}})


def test_sides_must_agree_with_the_faces_listed():
    entry = {"faces": ["1", "2"], "sides": 3, "provenance": {"faces": "assumed"}}
    with pytest.raises(DiceDataError, match="sides = 3 but 2 faces"):
        Dice.from_mapping({"dice": {"odd": entry}})
