"""Positions for Shattered Chaos rule tests: a party, enemies on the board, and actions applied in turn."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.engine import Action, Event, Player, Roll, Setup
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.engine import ShatteredChaos
from companion.games.shattered_chaos.state import Hero, State, set_hero

GAME = ShatteredChaos()
PARTY = "Bastion, Deadeye, Raider, Stalker"
BASTION, DEADEYE, RAIDER, STALKER = 0, 1, 2, 3


def new(party: str = PARTY, adventure: int = 1, **options: Any) -> State:
    names = [n.strip() for n in party.split(",")]
    setup = Setup(
        "shattered-chaos",
        tuple(Player(f"P{i + 1}") for i in range(len(names))),
        (("adventure", adventure), ("adventurers", party), *options.items()),
    )
    return GAME.new_game(setup)


def apply(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """The position after every action in turn, and every event told."""
    told: list[Event] = []
    for action in actions:
        state, events = GAME.apply(state, action)
        told.extend(events)
    return state, told


def texts(events: list[Event]) -> str:
    return "\n".join(e.text for e in events)


def with_hero(state: State, seat: int, **changes: Any) -> State:
    return set_hero(state, seat, replace(state.party[seat], **changes))


def throw(seat: int, *faces: str) -> Roll:
    return Roll(seat, act.ATTACK_DIE, faces)


def enemies(state: State, *numbers: int) -> State:
    state, _ = apply(state, *(act.PlaceEnemy(n) for n in numbers))
    return state


def spend_all(state: State, but: tuple[int, ...] = ()) -> State:
    """Every adventurer moves until their action tokens are spent (except the seats in ``but``)."""
    for seat, hero in enumerate(state.party):
        if seat in but:
            continue
        for _ in range(hero.actions):
            state, _ = GAME.apply(state, act.Move(seat))
    return state


def hero(state: State, seat: int) -> Hero:
    return state.party[seat]
