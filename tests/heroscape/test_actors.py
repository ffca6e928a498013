"""``Game.actor``: whose decision a HeroScape action is. The web lets a phone that plays a seat send only
that seat's actions, so the answer must name the player the rules accept the action from."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import ActionError, PlayerId
from companion.games.heroscape.actions import CorrectStatus, CorrectWounds, EndTurn
from companion.games.heroscape.simulate import choose

from .rules_support import GAME, battle
from .test_properties import setups


def first_turn():
    """Ann's (seat 0) first turn, with Sgt. Drake Alexander; Ben holds the Marro."""
    return battle(
        [["sgt-drake-alexander"], ["marro-drudge"]], [("0:sgt-drake-alexander",) * 4, ("1:marro-drudge",) * 4]
    )


@settings(max_examples=6, deadline=None)
@given(setups(), st.integers(0, 2**32))
def test_the_actor_is_the_player_the_rules_accept_the_action_from(setup, seed: int) -> None:
    """Along random games: a listed action's actor is its player, and whenever the rules accept an
    action naming some seat, the actor is that seat (no phone can pass as another seat's actor)."""
    rng = random.Random(seed)
    state = GAME.new_game(setup)
    turns = 0
    for _ in range(1500):
        legal = list(GAME.legal_actions(state))
        if not legal:
            break
        turns += state.turn is not None
        for action in rng.sample(legal, min(4, len(legal))):
            assert GAME.actor(state, action) == action.player, action  # type: ignore[attr-defined]
            for seat in range(state.seats):
                other = dataclasses.replace(action, player=PlayerId(seat))  # type: ignore[type-var]
                try:
                    GAME.apply(state, other)
                except ActionError:
                    continue
                assert GAME.actor(state, other) == seat, other
        state = GAME.apply(state, choose(GAME, state, rng))[0]
    assert turns  # the walk reached the battle's turns


def test_a_turn_is_the_turn_players_whatever_the_action_names() -> None:
    state = first_turn()
    assert state.turn is not None and state.turn.seat == 0
    assert GAME.actor(state, EndTurn(PlayerId(1))) == 0  # Ben's phone may not end Ann's turn


def test_hand_corrections_are_the_tables() -> None:
    state = first_turn()
    assert GAME.actor(state, CorrectWounds(PlayerId(1), "1:marro-drudge/1", 1)) is None
    assert GAME.actor(state, CorrectStatus(PlayerId(0), "0:sgt-drake-alexander/1", "destroyed")) is None
