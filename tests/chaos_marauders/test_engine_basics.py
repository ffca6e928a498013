"""The engine's shape: setup, draws, the Place shortcut, errors, codec and view."""

from __future__ import annotations

import json
import random

import pytest

from companion.engine import IllegalActionError, MalformedActionError, Player, Roll, Setup, SetupError
from companion.games import find_game
from companion.games.chaos_marauders.actions import (
    CODEC,
    Attack,
    Blast,
    Decline,
    Discard,
    Draw,
    ForceDiscard,
    Pick,
    Place,
    Reorganise,
    Shout,
)
from companion.games.chaos_marauders.state import PlaceStep

from .positions import DIRT, GAME, HAK, HM, HS, SQUAD, line, new_game, play, position


def test_registered_under_its_name() -> None:
    assert find_game("chaos-marauders").name == "chaos-marauders"


def test_new_game_has_the_whole_deck_in_the_draw_pile_and_asks_the_first_player_to_draw() -> None:
    state = new_game(3)
    assert sum(state.pile) == 110
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.kind == "draw" and prompt.players == (0,)
    assert "Grotsnik" in prompt.text


@pytest.mark.parametrize("count", [1, 5])
def test_setup_needs_two_to_four_players(count: int) -> None:
    with pytest.raises(SetupError):
        GAME.new_game(Setup("chaos-marauders", tuple(Player(f"P{i}") for i in range(count))))


def test_draw_must_name_a_card_still_in_the_pile() -> None:
    state = position(pile={HAK: 1})
    with pytest.raises(IllegalActionError, match="No Grivziz Dirtballs is left"):
        GAME.apply(state, Draw(0, DIRT))
    state, _ = GAME.apply(state, Draw(0, HAK))
    assert isinstance(state.top, PlaceStep) and state.top.cards[0].card == HAK


def test_unknown_card_is_malformed() -> None:
    with pytest.raises(MalformedActionError):
        GAME.apply(new_game(), Draw(0, "dwarf-king"))


def test_only_the_active_player_draws() -> None:
    with pytest.raises(IllegalActionError, match="It is Grotsnik's turn"):
        GAME.apply(new_game(), Draw(1, HAK))


def test_out_of_range_line_slot_and_seat_are_malformed() -> None:
    state = new_game()
    for action in (Place(0, HAK, 3, 2), Place(0, HAK, 0, 12), Draw(7, HAK), Roll(0, "cube", ("six",))):
        with pytest.raises(MalformedActionError):
            GAME.apply(state, action)


def test_place_implies_the_draw() -> None:
    state, events = play(new_game(), Place(0, HAK, 1, 4))
    assert state.boards[0][1][4] == HAK
    assert state.pile[GAME.facts.index[HAK]] == 7
    assert [e.kind for e in events][:2] == ["CardDrawn", "CardPlaced"]


def test_place_without_slot_takes_the_only_open_slot() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM, at=7)]})
    state, _ = play(state, Place(0, SQUAD, 0, None))
    assert state.boards[0][0][10] == SQUAD


def test_place_without_slot_keeps_the_card_pending_when_several_slots_are_open() -> None:
    state, _events = play(new_game(), Place(0, HAK, 0, None))
    assert isinstance(state.top, PlaceStep) and state.top.hint_line == 0
    prompt = GAME.prompt(state)
    assert prompt is not None and "which slot" in prompt.text
    assert {c.action.line for c in prompt.choices if isinstance(c.action, Place)} == {0}  # type: ignore[attr-defined]
    state, _ = play(state, Place(0, HAK, 0, 3))
    assert state.boards[0][0][3] == HAK


def test_a_refused_action_names_the_reason_and_changes_nothing() -> None:
    state = position({0: [line(HS, DIRT)]})
    with pytest.raises(
        IllegalActionError, match="Line 1: this battle line already holds a card with this symbol"
    ):
        GAME.apply(state, Place(0, DIRT, 0, 4))
    assert state == position({0: [line(HS, DIRT)]})


@pytest.mark.parametrize(
    "action",
    [
        Draw(0, HAK),
        Place(0, HAK, 1, None),
        Place(0, "sneaky-git", 2, 3, 1),
        Discard(0),
        Attack(0, 1, 2, 0),
        Decline(1),
        Pick(0, 1, 2, 3),
        Blast(0, 1, 2),
        Reorganise(0, ((None,) * 12, (HS,) + (None,) * 11, (None,) * 12)),
        Shout(2),
        ForceDiscard(1, 0, 4),
        Roll(0, "cube", ("eye", "mark")),
    ],
)
def test_every_action_round_trips_through_json(action) -> None:
    data = json.loads(json.dumps(CODEC.format(action)))
    assert CODEC.parse(data) == action


def test_view_has_the_tv_keys_and_is_json() -> None:
    state, _ = play(new_game(3), Draw(0, HAK))
    view = GAME.view(state)
    json.dumps(view)
    for key in ("game", "title", "round", "active", "draw_pile", "discard_pile", "drawn_card", "players"):
        assert key in view
    assert view["drawn_card"]["id"] == HAK
    assert view["prompt"]["kind"] == "place"
    player = view["players"][0]
    assert {"seat", "name", "colour", "active", "score", "lines"} <= set(player)
    assert len(player["lines"]) == 3 and len(player["lines"][0]["slots"]) == 12
    assert {"index", "complete", "attack_value", "can_attack", "protected", "card_count"} <= set(
        player["lines"][0]
    )
    assert view["finished"] is False and "result" not in view  # the typed result is GAME.result
    assert GAME.result(state).final is False


def test_view_score_is_the_breakdown_if_the_game_ended_now() -> None:
    state = position({0: [line(HS, DIRT, HAK, HM)]})
    score = GAME.view(state)["players"][0]["score"]
    assert score["total"] == 40 and score["cards"] == 40


def test_view_memos_give_the_view_a_fresh_engine_builds() -> None:
    """The view remembers card JSON and tribe scores; a long game's views equal a cold engine's."""
    from companion.games.chaos_marauders.engine import ChaosMarauders
    from companion.games.chaos_marauders.facts import facts_for
    from companion.games.chaos_marauders.simulate import play as simulate_game
    from companion.games.chaos_marauders.simulate import setup_for

    record = simulate_game(GAME, setup_for(4), random.Random(8), check=False)
    state = GAME.new_game(record.setup)
    for i, action in enumerate(record.actions):
        state, _ = GAME.apply(state, action)
        if i % 25 == 0 or state.finished:
            cold = ChaosMarauders(facts_for(GAME.facts.catalog))
            assert json.dumps(GAME.view(state)) == json.dumps(cold.view(state))


def test_view_shows_the_green_card_being_resolved_but_hides_chaos_marauders() -> None:
    state, _ = play(position(), Draw(0, "dagromm-flailbreath"), Roll(0, "cube", ("eye",)))
    assert GAME.view(state)["drawn_card"]["id"] == "dagromm-flailbreath"
    state, _ = play(position(), Draw(0, "chaos-marauders"))
    assert GAME.view(state)["drawn_card"] == {"id": "hidden", "title": "A card", "hidden": True}


def test_the_cube_waits_for_the_right_player() -> None:
    state, _ = play(position(), Draw(0, "dagromm-flailbreath"))
    with pytest.raises(IllegalActionError, match="The Cube is waiting for Grotsnik's roll"):
        GAME.apply(state, Roll(1, "cube", ("eye",)))
    with pytest.raises(IllegalActionError, match="Not now"):
        GAME.apply(state, Draw(0, HAK))


def test_parse_action_then_apply_from_json() -> None:
    action = GAME.parse_action({"kind": "place", "player": 0, "card": HAK, "line": 1, "slot": 3})
    state, _ = play(new_game(), action)
    assert state.boards[0][1][3] == HAK
    with pytest.raises(MalformedActionError, match="unknown action kind"):
        GAME.parse_action({"kind": "fly"})


def test_the_first_player_is_a_setup_option_and_rounds_count_from_them() -> None:
    setup = Setup("chaos-marauders", (Player("A"), Player("B"), Player("C")), (("first_player", 2),))
    state = GAME.new_game(setup)
    assert state.active == 2 and GAME.prompt(state).players == (2,)
    state, _ = play(state, Draw(2, HAK), Discard(2))
    assert state.active == 0 and state.round == 1
    state, _ = play(state, Draw(0, HAK), Discard(0), Draw(1, HAK), Discard(1))
    assert state.active == 2 and state.round == 2
    with pytest.raises(SetupError):
        GAME.new_game(Setup("chaos-marauders", (Player("A"), Player("B")), (("first_player", 5),)))
