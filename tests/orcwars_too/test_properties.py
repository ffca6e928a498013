"""Invariants over random play (hypothesis picks the table), the action codec's round trips, and the
arithmetic of the tables and checks over every value."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.engine import MalformedActionError, Player, Setup
from companion.games.orcwars_too import legal
from companion.games.orcwars_too.catalog import default_data
from companion.games.orcwars_too.checks import passes, real_strategy, survivability_target
from companion.games.orcwars_too.counters import STRATEGIES
from companion.games.orcwars_too.engine import OrcwarsToo
from companion.games.orcwars_too.simulate import play
from companion.games.orcwars_too.tables import damage

GAME = OrcwarsToo()


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 4))
def test_random_games_keep_every_invariant(seed: int, players: int) -> None:
    """Every chip in one place, the gold conserved, no leader levying twice, no untowed war machine, no
    leaderless troops abroad, the public view blind to hands and unrevealed strategies, replay exact."""
    names = tuple(Player(f"P{i}") for i in range(players))
    played = play(GAME, Setup("orcwars-too", names, (("turn_limit", 3),)), random.Random(seed))
    assert played.violations == []
    assert played.state.finished and not played.capped


def positions(seed: int, count: int = 60) -> list:
    """Positions met in one random game, every few actions."""
    names = (Player("A"), Player("B"), Player("C"))
    played = play(GAME, Setup("orcwars-too", names, (("turn_limit", 2),)), random.Random(seed))
    state = GAME.new_game(played.setup)
    out = [state]
    for index, action in enumerate(played.log):
        state, _ = GAME.apply(state, action)
        if index % max(1, len(played.log) // count) == 0:
            out.append(state)
    return out


POSITIONS = positions(11)


@settings(max_examples=80, deadline=None)
@given(index=st.integers(0, len(POSITIONS) - 1), pick=st.integers(0, 10_000))
def test_every_candidate_action_round_trips_through_the_codec(index: int, pick: int) -> None:
    state = POSITIONS[index]
    candidates = legal.candidates(GAME.data, state)
    if not candidates:
        return
    action = candidates[pick % len(candidates)]
    data = GAME.format_action(action)
    assert GAME.parse_action(json.loads(json.dumps(data))) == action
    public = GAME.public_action(action)
    if GAME.secret_action(action):
        assert set(public) <= {"kind", "player", "count", "partner"}


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


@given(
    kind=st.sampled_from(list(GAME.actions.kinds)),
    fields=st.dictionaries(
        st.sampled_from(["player", "leader", "to", "via", "counters", "damage", "strategy", "chip", "x"]),
        json_values,
    ),
)
def test_anything_a_phone_sends_is_parsed_or_refused_as_malformed(kind: str, fields: dict) -> None:
    try:
        action = GAME.parse_action({"kind": kind, **fields})
    except MalformedActionError:
        return
    assert GAME.parse_action(GAME.format_action(action)) == action


@given(
    index=st.integers(0, len(POSITIONS) - 1),
    kind=st.sampled_from(list(GAME.actions.kinds)),
    fields=st.dictionaries(
        st.sampled_from(["player", "leader", "to", "counters", "target", "option"]), json_values
    ),
)
@settings(deadline=None)
def test_a_hostile_action_changes_nothing_or_is_refused_with_a_reason(
    index: int, kind: str, fields: dict
) -> None:
    from companion.engine import ActionError

    state = POSITIONS[index]
    try:
        action = GAME.parse_action({"kind": kind, **fields})
        GAME.apply(state, action)
    except ActionError as exc:
        assert str(exc)


@given(
    attacker=st.integers(0, 60),
    defender=st.integers(0, 60),
    a=st.sampled_from(STRATEGIES),
    d=st.sampled_from(STRATEGIES),
    fortress=st.integers(0, 6),
    machine=st.integers(0, 6),
)
def test_the_damage_arithmetic(
    attacker: int, defender: int, a: str, d: str, fortress: int, machine: int
) -> None:
    result = damage(attacker, a, defender, d, fortress, machine)
    assert 0 <= result.damage_to_attacker <= defender
    assert 0 <= result.damage_to_defender <= result.raw_damage_to_defender <= attacker
    assert result.absorbed <= max(0, fortress - machine)
    assert result.castle_destroyed == (fortress > 0 and result.raw_damage_to_defender > defender + fortress)
    if d == "charge" or not fortress:
        assert result.absorbed == 0


@given(roll=st.integers(1, 8), target=st.integers(-2, 12))
def test_an_authority_check_passes_at_most_the_target_never_on_8(roll: int, target: int) -> None:
    assert passes(default_data(), roll, target) == (roll != 8 and roll <= target)


@given(total=st.integers(-2, 9))
def test_the_real_strategy_d6(total: int) -> None:
    expected = "charge" if total <= 3 else "careful" if total <= 5 else "clever"
    assert real_strategy(default_data(), total) == expected


def test_survivability_with_a_shaman_and_halved_when_hacked() -> None:
    data = default_data()
    leader = next(c.id for c in data.counters if c.survivability == 5)
    assert survivability_target(data, leader, shaman=False, hacked=False).value == 5
    assert survivability_target(data, leader, shaman=True, hacked=False).value == 6
    assert survivability_target(data, leader, shaman=True, hacked=True).value == 3  # (5 + 1) // 2
    assert survivability_target(data, leader, shaman=False, hacked=True).value == 2  # 5 // 2
