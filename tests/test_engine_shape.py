"""The shared engine shape: action codec, prompts, setups."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass, replace
from typing import ClassVar, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.engine import (
    Action,
    ActionCodec,
    Choice,
    DicePolicy,
    GameResult,
    IllegalActionError,
    MalformedActionError,
    Player,
    PlayerId,
    Prompt,
    Roll,
    RollRequest,
    Setup,
    SetupError,
    SetupOption,
    Standing,
    evolver,
    ranks_by_points,
)


class Side(enum.StrEnum):
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True)
class Place(Action):
    kind: ClassVar[str] = "place"
    player: PlayerId
    card: str
    line: int
    slot: int | None = None


@dataclass(frozen=True)
class Choose(Action):
    kind: ClassVar[str] = "choose"
    player: PlayerId
    side: Side
    mode: Literal["attack", "decline"]
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class Mark(Action):
    kind: ClassVar[str] = "mark"
    player: PlayerId
    pair: tuple[str, int]


CODEC = ActionCodec(Place, Choose, Mark, Roll)


def test_malformed_and_illegal_errors_are_distinct_value_errors() -> None:
    assert issubclass(MalformedActionError, ValueError)
    assert issubclass(IllegalActionError, ValueError)
    assert not issubclass(MalformedActionError, IllegalActionError)
    assert not issubclass(IllegalActionError, MalformedActionError)


def test_codec_round_trips_an_action_with_defaults() -> None:
    action = Place(PlayerId(1), "sneaky-git", 2)
    data = CODEC.format(action)
    assert data == {"kind": "place", "player": 1, "card": "sneaky-git", "line": 2, "slot": None}
    assert CODEC.parse(data) == action
    assert CODEC.parse({"kind": "place", "player": 1, "card": "sneaky-git", "line": 2}) == action


def test_codec_parses_enums_literals_and_tuples() -> None:
    data = {"kind": "choose", "player": 0, "side": "left", "mode": "attack", "cards": ["a", "b"]}
    assert CODEC.parse(data) == Choose(PlayerId(0), Side.LEFT, "attack", ("a", "b"))
    assert CODEC.format(CODEC.parse(data)) == data


def test_codec_parses_fixed_length_tuples_item_by_item() -> None:
    """Each item of a fixed-length tuple is coerced to its own type (HeroScape's four order markers)."""
    assert CODEC.parse({"kind": "mark", "player": 0, "pair": ["x", 3]}) == Mark(PlayerId(0), ("x", 3))
    with pytest.raises(MalformedActionError, match=r"pair\[1\]"):
        CODEC.parse({"kind": "mark", "player": 0, "pair": ["x", "y"]})
    with pytest.raises(MalformedActionError, match="expected 2 items"):
        CODEC.parse({"kind": "mark", "player": 0, "pair": ["x"]})


def test_roll_is_a_shared_action() -> None:
    roll = Roll(PlayerId(2), "cube", ("eye", "mark"))
    assert CODEC.parse(roll.to_json()) == roll


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("place", "JSON object"),
        ({"player": 1}, "unknown action kind"),
        ({"kind": "fly"}, "unknown action kind 'fly'"),
        ({"kind": "place", "player": 1, "card": "x"}, "needs the field 'line'"),
        ({"kind": "place", "player": "1", "card": "x", "line": 0}, "whole number"),
        ({"kind": "place", "player": True, "card": "x", "line": 0}, "whole number"),
        ({"kind": "place", "player": 1, "card": 3, "line": 0}, "text"),
        ({"kind": "place", "player": 1, "card": "x", "line": 0, "colour": "red"}, "unknown fields: colour"),
        ({"kind": "choose", "player": 0, "side": "up", "mode": "attack"}, "not one of"),
        ({"kind": "choose", "player": 0, "side": "left", "mode": "flee"}, "not one of"),
        ({"kind": "choose", "player": 0, "side": "left", "mode": "attack", "cards": "ab"}, "list"),
        ({"kind": "roll", "player": 0, "die": "cube", "faces": [1]}, "text"),
    ],
)
def test_codec_rejects_malformed_actions_with_a_message(data: object, message: str) -> None:
    with pytest.raises(MalformedActionError, match=message):
        CODEC.parse(data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@given(st.dictionaries(st.sampled_from(["kind", "player", "card", "line", "slot", "side", "x"]), json_values))
def test_codec_never_raises_anything_but_malformed(data: dict) -> None:
    if "kind" not in data:
        data["kind"] = "place"
    try:
        action = CODEC.parse(data)
    except MalformedActionError:
        return
    assert CODEC.parse(CODEC.format(action)) == action


def test_two_action_classes_cannot_share_a_kind() -> None:
    with pytest.raises(ValueError, match="share the kind"):
        ActionCodec(Place, Place)


def test_prompt_to_json_names_players_choices_and_dice() -> None:
    prompt = Prompt(
        kind="roll",
        players=(PlayerId(0), PlayerId(2)),
        text="Everyone: roll the Cube!",
        choices=(Choice("Orcish Eye", Roll(PlayerId(0), "cube", ("eye",))),),
        roll=RollRequest("cube", 1, ("eye", "mark")),
    )
    assert prompt.to_json() == {
        "kind": "roll",
        "players": [0, 2],
        "text": "Everyone: roll the Cube!",
        "choices": [
            {"label": "Orcish Eye", "action": {"kind": "roll", "player": 0, "die": "cube", "faces": ["eye"]}}
        ],
        "roll": {
            "die": "cube",
            "count": 1,
            "faces": ["eye", "mark"],
            "policy": "together",
            "dice": [],
            "anyone": False,
        },
    }


def test_setup_round_trips_and_rejects_garbage() -> None:
    setup = Setup("chaos-marauders", (Player("Grotsnik", "#c0392b"), Player("Ugluk")), (("seed", 3),))
    assert Setup.from_json(setup.to_json()) == setup
    assert setup.option("seed") == 3
    assert setup.option("missing", 7) == 7
    with pytest.raises(SetupError):
        Setup.from_json({"game": "chaos-marauders"})
    with pytest.raises(SetupError):
        Setup.from_json({"game": "chaos-marauders", "players": [3]})


def test_a_roll_request_of_different_dice_names_each_die_and_is_thrown_together() -> None:
    mixed = RollRequest("attack", 3, ("1", "2", "vortex"), dice=("yellow", "red", "blue"))
    assert [mixed.die_at(i) for i in range(3)] == ["yellow", "red", "blue"]
    assert RollRequest("cube", 2, ("eye",)).die_at(1) == "cube"
    with pytest.raises(ValueError, match="count 3"):
        RollRequest("attack", 2, ("1",), dice=("yellow", "red", "blue"))
    with pytest.raises(ValueError, match="thrown together"):
        RollRequest("attack", 2, ("1",), DicePolicy.ONE_BY_ONE, ("yellow", "red"))


def test_teammates_winning_together_is_no_tie_and_a_result_round_trips() -> None:
    standings = tuple(
        Standing(PlayerId(seat), name, 1 if seat in (0, 2) else 3, points, team=seat % 2)
        for seat, (name, points) in enumerate([("A", 40.0), ("B", 10.0), ("C", 30.0), ("D", 0.0)])
    )
    teams = GameResult(True, (PlayerId(0), PlayerId(2)), standings, outcome="A & C win")
    assert not teams.tie
    loners = GameResult(True, (PlayerId(0), PlayerId(2)), tuple(replace(s, team=None) for s in standings))
    assert loners.tie
    assert GameResult.from_json(teams.to_json()) == teams
    assert ranks_by_points([40, 10, 30, 30]) == (1, 4, 2, 2)
    assert ranks_by_points([3, 1], higher_is_better=False) == (2, 1)


def test_a_co_operative_result_carries_its_summary_and_how_a_next_game_carries_on() -> None:
    standings = tuple(Standing(PlayerId(seat), name, 1) for seat, name in enumerate("AB"))
    result = GameResult(
        True,
        (PlayerId(0), PlayerId(1)),
        standings,
        outcome="Adventure 1 won in round 8",
        cooperative=True,
        summary=("13 damage suffered: the marker moves 4 spaces", "Campaign log: adventures: 1W2"),
        follow_on={"adventure": 2, "adventurers": ["bastion", "deadeye"], "campaign": "adventures: 1W2"},
    )
    data = result.to_json()
    assert data["summary"] == list(result.summary) and data["follow_on"]["adventure"] == 2
    assert GameResult.from_json(json.loads(json.dumps(data))) == result
    bare = GameResult.from_json({"final": False})  # a result from before these keys
    assert bare.summary == () and bare.follow_on == {}
    odd = GameResult.from_json({"final": True, "summary": "not a list", "follow_on": [1, 2]})
    assert odd.summary == () and odd.follow_on == {}


def test_a_per_seat_setup_option_offers_one_choice_per_player() -> None:
    option = SetupOption(
        "adventurers", "Adventurers", "per_seat", (("bastion", "Bastion"), ("deadeye", "Deadeye"))
    )
    shown = option.to_json()
    assert shown["kind"] == "per_seat" and shown["default"] is None
    assert shown["choices"] == [
        {"value": "bastion", "label": "Bastion"},
        {"value": "deadeye", "label": "Deadeye"},
    ]


@dataclass(frozen=True)
class Position:
    round: int
    names: tuple[str, ...] = ()


def test_evolver_replaces_fields_like_replace_and_refuses_a_name_that_is_not_one() -> None:
    evolve = evolver(Position)
    before = Position(3, ("Ann", "Ben"))
    after = evolve(before, round=4)
    assert after == replace(before, round=4) and before == Position(3, ("Ann", "Ben"))
    assert hash(after) == hash(Position(4, ("Ann", "Ben")))
    with pytest.raises(TypeError, match="Position has no field rund"):
        evolve(before, rund=4)
