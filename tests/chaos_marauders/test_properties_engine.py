"""Invariants over random walks: cards are conserved, lines stay legal, apply is pure and total."""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import ActionError, IllegalActionError, Roll
from companion.games.chaos_marauders import lines as line_rules
from companion.games.chaos_marauders.actions import Draw, Place
from companion.games.chaos_marauders.placement import legal_slots
from companion.games.chaos_marauders.simulate import Table, choose, invariant_violations

from .positions import GAME, F, new_game
from .strategies import legal_lines


def walk(seed: int, players: int, steps: int):
    """Positions of one random game, with the action taken from each."""
    rng = random.Random(seed)
    table = Table(rng)
    state = new_game(players)
    for _ in range(steps):
        if state.finished:
            return
        action = choose(GAME, state, table)
        yield state, action
        state, _ = GAME.apply(state, action)


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_every_legal_action_applies_and_keeps_cards_and_lines_sound(seed: int, players: int) -> None:
    for state, action in walk(seed, players, 400):
        frozen = copy.deepcopy(state)
        for legal in GAME.legal_actions(state):
            if isinstance(legal, Draw):
                continue  # draws are checked by the walk itself (one per title would be slow here)
            after, _ = GAME.apply(state, legal)
            assert invariant_violations(GAME, after) == [], (legal, invariant_violations(GAME, after))
        assert state == frozen  # apply never mutates its input
        after, _ = GAME.apply(state, action)
        assert invariant_violations(GAME, after) == []


@settings(max_examples=25)
@given(seed=st.integers(0, 2**32), junk=st.integers(0, 10_000))
def test_illegal_actions_raise_and_leave_the_state_unchanged(seed: int, junk: int) -> None:
    rng = random.Random(junk)
    refused = 0
    for state, _ in walk(seed, 3, 200):
        seat = rng.randrange(state.seats)
        card = rng.choice(F.ids)
        candidates = [
            Place(seat, card, rng.randrange(3), rng.randrange(12)),  # type: ignore[arg-type]
            Draw(seat, card),  # type: ignore[arg-type]
            Roll(seat, "cube", ("eye",)),  # type: ignore[arg-type]
        ]
        for action in candidates:
            before = pickle.dumps(state)
            try:
                GAME.apply(state, action)
            except ActionError:
                refused += 1
            assert pickle.dumps(state) == before
    assert refused > 0


@settings(max_examples=40)
@given(seed=st.integers(0, 2**32))
def test_legal_actions_are_exactly_the_accepted_placements(seed: int) -> None:
    """For a pending card, every slot is legal iff it is listed (legality as data)."""
    for state, _ in walk(seed, 2, 150):
        top = state.top
        if top is None or type(top).__name__ != "PlaceStep" or top.source != "draw":
            continue
        card = top.cards[0].card
        if F.ability[card] in ("sneaky-git", "idol"):
            continue
        listed = {(a.line, a.slot) for a in GAME.legal_actions(state) if isinstance(a, Place)}
        for li in range(3):
            for slot in range(12):
                try:
                    GAME.apply(state, Place(top.player, card, li, slot))  # type: ignore[arg-type]
                    accepted = True
                except IllegalActionError:
                    accepted = False
                assert accepted == ((li, slot) in listed), (card, li, slot)


@settings(max_examples=300)
@given(line=legal_lines(), card=st.sampled_from(F.ids))
def test_fast_legal_slots_agree_with_the_line_rules(line: tuple, card: str) -> None:
    assert tuple(legal_slots(F, line, card)) == line_rules.legal_slots(line, card, F.catalog)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_states_pickle_and_compare_equal(players: int) -> None:
    for state, _ in walk(players, players, 100):
        assert pickle.loads(pickle.dumps(state)) == state


def _any_action(rng: random.Random, seats: int):
    """A well-formed action of any kind with random fields (mostly illegal where it is tried)."""
    from companion.games.chaos_marauders.actions import (
        Attack,
        Blast,
        Decline,
        Discard,
        ForceDiscard,
        Pick,
        Reorganise,
        Shout,
    )

    p, t = rng.randrange(seats), rng.randrange(seats)
    card = rng.choice([*F.ids, "nonsense"])
    li, s = rng.randrange(3), rng.randrange(12)
    faces = tuple(rng.choice(["eye", "mark"]) for _ in range(rng.randrange(1, 7)))
    layout = tuple(tuple(rng.choice([None, None, card]) for _ in range(12)) for _ in range(3))
    return rng.choice(
        [
            Draw(p, card),
            Place(p, card, li, rng.choice([None, s]), rng.choice([None, t])),
            Discard(p, rng.choice([None, card])),
            Attack(p, li, t, rng.randrange(3)),
            Decline(p),
            Pick(p, t, li, s),
            Blast(p, t, li),
            Shout(p),
            ForceDiscard(p, li, s),
            Roll(p, "cube", faces),
            Reorganise(p, layout),
        ]
    )


@settings(max_examples=15)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_any_well_formed_action_applies_or_is_refused_with_an_action_error(seed: int, players: int) -> None:
    rng = random.Random(seed)
    for state, _ in walk(seed, players, 300):
        for _ in range(3):
            action = _any_action(rng, players)
            try:
                after, _ = GAME.apply(state, action)
            except ActionError:
                continue
            assert invariant_violations(GAME, after) == [], (action, invariant_violations(GAME, after))
