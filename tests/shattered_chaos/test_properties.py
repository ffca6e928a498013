"""Invariants over random play (hypothesis): random adventures keep every ledger within bounds, every legal
action applies, every action survives the codec, and hostile input is refused without changing anything."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import ActionError
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.simulate import choose, play, random_setup
from companion.games.shattered_chaos.state import OVER

from .rules_support import GAME

seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_random_adventures_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    played = play(GAME, random_setup(GAME, rng, None), rng, cap=4000)
    assert played.violations == []
    assert played.state.phase == OVER and not played.capped


def random_positions(seed: int, count: int) -> list:
    """Positions met along a random adventure."""
    rng = random.Random(seed)
    state = GAME.new_game(random_setup(GAME, rng, None))
    positions = [state]
    for _ in range(count * 8):
        legal = list(GAME.legal_actions(state))
        action = choose(GAME, state, legal, rng)
        if action is None:
            break
        state, _ = GAME.apply(state, action)
        positions.append(state)
    return rng.sample(positions, min(count, len(positions)))


@settings(max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_every_legal_action_applies_and_survives_the_codec(seed: int) -> None:
    rng = random.Random(seed)
    for state in random_positions(seed, 6):
        legal = list(GAME.legal_actions(state))
        for action in rng.sample(legal, min(25, len(legal))):
            data = json.loads(json.dumps(GAME.format_action(action)))
            assert GAME.parse_action(data) == action
            GAME.apply(state, action)  # raises if a "legal" action is refused


field_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.text(max_size=12),
    st.lists(st.one_of(st.integers(-5, 40), st.text(max_size=6)), max_size=4),
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 50),
    kind=st.sampled_from(act.CODEC.kinds),
    fields=st.dictionaries(
        st.sampled_from(
            [
                "player",
                "model",
                "distance",
                "cards",
                "destruction",
                "dice",
                "range_die",
                "vortices",
                "card",
                "adventurers",
                "adventurer",
                "partner",
                "tokens",
                "steps",
                "lives",
                "life",
                "outcome",
                "stack",
                "condition",
                "talent",
                "die",
                "faces",
            ]
        ),
        field_values,
        max_size=5,
    ),
)
def test_hostile_input_is_refused_and_changes_nothing(seed: int, kind: str, fields: dict) -> None:
    state = random_positions(seed, 1)[0]
    before = GAME.view(state)
    try:
        action = GAME.parse_action({"kind": kind, **fields})
    except ActionError:
        return
    try:
        GAME.apply(state, action)
    except ActionError:
        pass
    assert GAME.view(state) == before  # states are immutable: a refusal leaves the position as it was
