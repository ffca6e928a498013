"""Shared helpers for the HeroScape rules tests: a game, actions written as keywords, dice by count,
and short cuts to the positions the tests start from (a battle's first turn, a chosen army)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import ActionError, Event, Player, Setup
from companion.games.heroscape.engine import HeroScape
from companion.games.heroscape.state import State

GAME = HeroScape()
CAT = GAME.catalog
NAMES = ("Ann", "Ben", "Cid", "Dee")


def setup(scenario: str, players: int = 2, **options: Any) -> Setup:
    chosen = {"scenario": scenario, **options}
    return Setup("heroscape", tuple(Player(n) for n in NAMES[:players]), tuple(sorted(chosen.items())))


def new(scenario: str, players: int = 2, **options: Any) -> State:
    return GAME.new_game(setup(scenario, players, **options))


def act(state: State, kind: str, **fields: Any) -> State:
    """Applies one action written as keywords (``act(s, "attack", player=0, attacker=...)``)."""
    state, _ = act_events(state, kind, **fields)
    return state


def act_events(state: State, kind: str, **fields: Any) -> tuple[State, tuple[Event, ...]]:
    action = GAME.parse_action({"kind": kind, **fields})
    return GAME.apply(state, action)


def refused(state: State, kind: str, **fields: Any) -> str:
    """The one-line reason the engine refuses the action (the test fails if it is accepted)."""
    with pytest.raises(ActionError) as caught:
        act(state, kind, **fields)
    message = str(caught.value)
    assert message and "\n" not in message
    return message


def faces(skulls: int = 0, shields: int = 0, blanks: int = 0) -> list[str]:
    return ["skull"] * skulls + ["shield"] * shields + ["blank"] * blanks


def combat(state: State, seat: int, skulls: int = 0, shields: int = 0, blanks: int = 0) -> State:
    return act(state, "roll", player=seat, die="combat", faces=faces(skulls, shields, blanks))


def d20(state: State, seat: int, value: int) -> State:
    return act(state, "roll", player=seat, die="d20", faces=[str(value)])


def asked_dice(state: State) -> int:
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.roll is not None, prompt
    return prompt.roll.count


def roll_asked(state: State, skulls: int = 0, shields: int = 0) -> State:
    """Answers the pending combat roll with ``skulls`` and ``shields``, the other dice blank."""
    prompt = GAME.prompt(state)
    assert prompt is not None and prompt.roll is not None and prompt.roll.die == "combat", prompt
    count = prompt.roll.count
    assert skulls + shields <= count, (skulls, shields, count)
    return combat(state, prompt.players[0], skulls, shields, count - skulls - shields)


def premade(
    armies: list[list[str]],
    scenario: str = "custom",
    placement: tuple[int, ...] | None = None,
    **options: Any,
) -> State:
    """A game whose pre-made armies are registered card by card, placed (seat 0 rolls highest), at the
    first round's order markers."""
    state = new(scenario, len(armies), army="premade", **options)
    for seat, cards in enumerate(armies):
        for card in cards:
            state = act(state, "add_card", player=seat, card=card)
        state = act(state, "army_ready", player=seat)
    rolls = placement or tuple(20 - seat for seat in range(len(armies)))
    for seat, value in enumerate(rolls):
        state = d20(state, seat, value)
    assert state.phase in ("markers", "rolloff"), state.phase  # Rogue Hive: who controls the Hive
    return state


def markers(state: State, seat: int, one: str, two: str, three: str, x: str) -> State:
    return act(state, "place_markers", player=seat, markers=[one, two, three, x])


def initiative(state: State, *rolls: int) -> State:
    """Everyone rolls for initiative in seat order (the rolls given per seat still playing)."""
    assert state.phase == "rolloff" and state.rolloff is not None and state.rolloff.purpose == "initiative"
    for seat, value in zip(state.rolloff.contenders, rolls, strict=True):
        state = d20(state, seat, value)
    return state


def battle(
    armies: list[list[str]],
    orders: list[tuple[str, str, str, str]],
    rolls: tuple[int, ...] | None = None,
    scenario: str = "custom",
    **options: Any,
) -> State:
    """Pre-made armies, everyone's markers placed, initiative rolled (seat 0 wins by default): the first
    turn of round 1."""
    state = premade(armies, scenario, **options)
    for seat, order in enumerate(orders):
        state = markers(state, seat, *order)
    return initiative(state, *(rolls or tuple(20 - seat for seat in range(len(armies)))))


def pending_kinds(state: State) -> list[str]:
    return [type(step).__name__ for step in state.stack]


def alive(state: State, figure: str) -> bool:
    found = state.figure(figure)
    assert found is not None, figure
    return found.alive


def wounds(state: State, figure: str) -> int:
    found = state.figure(figure)
    assert found is not None, figure
    return found.wounds


def first_markers(state: State, seat: int) -> tuple[str, str, str, str]:
    """All four markers on the seat's first card with figures left."""
    unit = next(uid.format() for uid, unit in state.units_of(seat) if unit.alive)
    return (unit, unit, unit, unit)


def quiet_round(state: State, rolls: tuple[int, ...] | None = None) -> State:
    """Plays out a round in which nobody moves or attacks: markers on each player's first living card,
    initiative (seat order unless ``rolls`` say otherwise), every turn ended at once. Stops at the first
    question the round's end asks (or at the next round's markers, or the end of the battle)."""
    from companion.games.heroscape.rounds import must_place

    assert state.phase == "markers", state.phase
    for seat in must_place(state):
        state = markers(state, seat, *first_markers(state, seat))
    if state.phase == "rolloff":
        contenders = state.rolloff.contenders if state.rolloff is not None else ()
        state = initiative(state, *(rolls or tuple(20 - i for i in range(len(contenders)))))
    start = state.round
    while not state.finished and state.round == start and state.turn is not None and not state.stack:
        state = act(state, "end_turn", player=state.turn.seat)
    return state
