"""Odlugg Spleenripper (card reference p.10): everyone rolls, he eats booty, he scares lines."""

from __future__ import annotations

from companion.engine import Roll
from companion.games.chaos_marauders.actions import (
    Attack,
    Draw,
    Pick,
    Place,
)
from companion.games.chaos_marauders.state import (
    AttackOffer,
    BlueRolls,
    GreenRoll,
    OdluggEats,
    OdluggRolls,
    PlaceStep,
)

from .positions import (
    CLAWS,
    CREEPS,
    DIRT,
    GAME,
    GIT,
    HAK,
    HM,
    HS,
    ODLUGG,
    SHOTTI,
    SPOIL,
    SQUAD,
    kinds,
    line,
    play,
    position,
)


def eye(seat: int = 0, n: int = 1) -> Roll:
    return Roll(seat, "cube", ("eye",) * n)  # type: ignore[arg-type]


def mark(seat: int = 0) -> Roll:
    return Roll(seat, "cube", ("mark",))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------ Odlugg


def test_odlugg_joins_the_only_player_who_rolls_a_mark_and_eats_booty() -> None:
    state = position({1: [line(HS, SHOTTI)]}, players=3)
    state, _ = play(state, Draw(0, ODLUGG))
    prompt = GAME.prompt(state)
    assert isinstance(state.top, OdluggRolls) and prompt.players == (0, 1, 2)
    state, _ = play(state, eye(0), mark(1))
    assert GAME.prompt(state).players == (2,)
    state, events = play(state, eye(2))
    assert "OdluggJoins" in kinds(events)
    state, _ = play(state, Place(1, ODLUGG, 2, 4))
    assert isinstance(state.top, OdluggEats)
    state, events = play(state, mark(1))
    assert state.boards[1][0][1] is None and SHOTTI in state.discard
    assert state.active == 1  # the drawer's turn ended


def test_odlugg_walks_off_unless_exactly_one_mark() -> None:
    state, _ = play(position(players=3), Draw(0, ODLUGG), mark(0), mark(1), eye(2))
    assert ODLUGG in state.discard and state.active == 1
    state, _ = play(position(players=3), Draw(0, ODLUGG), eye(0), eye(1), eye(2))
    assert ODLUGG in state.discard


def test_odlugg_holder_rolls_for_every_blue_card_received() -> None:
    state = position({0: [line(HS, ODLUGG)]})
    state, _ = play(state, Draw(0, SPOIL))
    assert isinstance(state.top, BlueRolls)
    state, _events = play(state, mark())
    assert SPOIL in state.discard and state.active == 0 and state.top is None  # the turn goes on


def test_odlugg_holder_keeps_blue_card_on_an_eye() -> None:
    state, _ = play(position({0: [line(HS, ODLUGG)]}), Draw(0, SPOIL), eye())
    assert isinstance(state.top, PlaceStep)


def test_odlugg_line_is_attacked_only_by_fearsome_lines() -> None:
    plain = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, ODLUGG)]}, pile={SQUAD: 2})
    state, _ = play(plain, Place(0, SQUAD, 0, 3))
    assert state.top is None
    brave = position({0: [line(HS, DIRT, CLAWS, None, HM)], 1: [line(HS, ODLUGG)]}, pile={SQUAD: 2})
    state, _ = play(brave, Place(0, SQUAD, 0, 3))
    assert isinstance(state.top, AttackOffer)


def test_odlugg_is_discarded_from_a_defeated_line() -> None:
    state = position({0: [line(HS, DIRT, CLAWS, None, HM)], 1: [line(HS, ODLUGG)]}, pile={SQUAD: 2})
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    assert ODLUGG in state.discard


def test_sneaky_git_on_odluggs_holder_must_survive_a_roll() -> None:
    state = position({1: [line(HS, ODLUGG)]})
    state, _ = play(state, Draw(0, GIT), Place(0, GIT, 0, 3, 1))
    assert isinstance(state.top, GreenRoll) and state.top.ability == "git-odlugg"
    state, events = play(state, mark())
    assert "GitEaten" in kinds(events) and state.boards[1][0][3] is None and state.active == 1


def test_pigsticker_may_destroy_odlugg() -> None:
    state = position({1: [line(HS, ODLUGG)]})
    state, _ = play(state, Place(0, "bozlum-pigstickers", 0, 3), Pick(0, 1, 0, 1))
    assert ODLUGG in state.discard


def test_odlugg_holder_rolls_for_captured_booty() -> None:
    state = position({0: [line(HS, ODLUGG, CLAWS, None, HM)], 1: [line(HS, SHOTTI)]}, pile={SQUAD: 2})
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    assert isinstance(state.top, BlueRolls) and state.top.cards == (SHOTTI,)
    state, _ = play(state, mark())
    assert SHOTTI in state.discard and [p.card for p in state.top.cards] == [HS]  # type: ignore[union-attr]


def test_odlugg_holder_rolls_for_a_blue_card_stolen_with_venemous_creeps() -> None:
    # "he must roll ... whenever he receives a blue card, whether it is drawn, gained as a result of an
    # attack, or stolen with Venemous Creeps."
    state = position({0: [line(HS, ODLUGG)], 1: [line(HS, SHOTTI)]})
    state, _ = play(state, Draw(0, CREEPS), Pick(0, 1, 0, 1))
    assert isinstance(state.top, BlueRolls) and state.top.cards == (SHOTTI,)
    assert GAME.prompt(state).kind == "roll" and GAME.prompt(state).players == (0,)
    assert state.boards[1][0][1] is None
    kept, _ = play(state, eye())
    assert isinstance(kept.top, PlaceStep) and [p.card for p in kept.top.cards] == [SHOTTI]
    eaten, events = play(state, mark())
    assert kinds(events)[0] == "OdluggEats"
    assert eaten.discard[-2:] == (CREEPS, SHOTTI) and eaten.stack == ()
    assert eaten.active == 1  # the Creeps, a green card, still ends the turn


def test_odlugg_joining_a_line_eats_sneaky_gits_as_well_as_booty() -> None:
    # "rolls ... once for each blue 'booty' card and Sneaky Git card in each of his battle lines"
    state = position({0: [line(HS, DIRT, GIT, SHOTTI)], 1: [line(HS)]}, markers=[(0, 0, 2, 1)])
    state, events = play(state, Draw(0, ODLUGG), mark(0), eye(1))
    assert "OdluggJoins" in kinds(events)
    state, _ = play(state, Place(0, ODLUGG, 1, 3))
    assert state.top == OdluggEats(0, ((0, 2), (0, 3)))  # the Git and the Shotti, not the Dirtballs
    assert GAME.prompt(state).roll.count == 2  # type: ignore[union-attr]
    state, events = play(state, Roll(0, "cube", ("mark", "eye")))
    assert kinds(events).count("OdluggEats") == 1
    assert state.boards[0][0][:4] == (HS, DIRT, None, SHOTTI)
    assert state.markers == () and state.discard[-1] == GIT and state.active == 1
