"""``Game.actor``: whose decision a Chaos Marauders action is. The web lets a phone that plays a seat send
only that seat's actions, so the answer must name the player the rules accept the action from."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import ActionError, PlayerId
from companion.games.chaos_marauders.actions import CorrectPlace, CorrectRemove, Draw, Shout

from .positions import GAME, new_game
from .test_properties_engine import walk


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_the_actor_is_the_player_the_rules_accept_the_action_from(seed: int, players: int) -> None:
    rng = random.Random(seed)
    for state, action in walk(seed, players, 300):
        legal = [a for a in GAME.legal_actions(state) if not isinstance(a, Draw)] + [action]
        for candidate in rng.sample(legal, min(4, len(legal))):
            assert GAME.actor(state, candidate) == candidate.player, candidate  # type: ignore[attr-defined]
            for seat in range(players):
                other = dataclasses.replace(candidate, player=PlayerId(seat))  # type: ignore[type-var]
                try:
                    GAME.apply(state, other)
                except ActionError:
                    continue
                assert GAME.actor(state, other) == seat, other


def test_a_draw_is_the_active_players_and_a_shout_the_shouters() -> None:
    state = new_game(3)
    assert GAME.actor(state, Draw(PlayerId(2), "crummy-snotling-slaves")) == 0
    assert GAME.actor(state, Shout(PlayerId(2))) == 2


def test_hand_corrections_are_the_tables() -> None:
    state = new_game(2)
    assert GAME.actor(state, CorrectPlace(PlayerId(1), "crummy-snotling-slaves", 0, 0)) is None
    assert GAME.actor(state, CorrectRemove(PlayerId(0), 0, 0)) is None
