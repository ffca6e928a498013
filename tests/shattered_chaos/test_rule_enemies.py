"""The enemies' decisions (VI.B, VI.C, VII.2), each rule with the line it comes from: the companion runs the
behaviour table and asks the table only what the map knows."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.state import ENEMIES, EnemyAttack, EnemyTurn

from .rules_support import (
    BASTION,
    DEADEYE,
    GAME,
    RAIDER,
    STALKER,
    apply,
    enemies,
    new,
    spend_all,
    texts,
    throw,
    with_hero,
)


def chaos(state, **tokens):
    """Sets chaos tokens by seat name: chaos(state, bastion=1)."""
    seats = {"bastion": BASTION, "deadeye": DEADEYE, "raider": RAIDER, "stalker": STALKER}
    for name, count in tokens.items():
        state = with_hero(state, seats[name], chaos=count)
    return state


def enemy_phase(*numbers, **tokens):
    """The enemy phase with these models on the board; chaos values: Bastion 3, Deadeye 2, Raider 2, Stalker 4
    with no tokens (assumed ledgers) unless given."""
    state = enemies(new(), *numbers)
    state = chaos(state, **{"bastion": 0, "deadeye": 0, "raider": 0, "stalker": 0, **tokens})
    return spend_all(state)


def test_the_enemies_act_in_ascending_model_number() -> None:
    """VII.2 line 2592: gremlin 21 before 22, 23."""
    state = enemy_phase(23, 21, 22)
    assert state.phase == ENEMIES and state.top.model == 21


def test_the_first_row_whose_first_action_can_be_performed() -> None:
    """VI.C lines 2344-2346: the uppermost action first; only if it cannot, the row below; then the rest of
    that row (line 2479). Example 2 (line 2424): no attack at range 3, no charge with 3 steps: the move."""
    state = enemy_phase(21)
    assert state.top.asking == "sight"  # attack range 3: who does it see?
    state, events = apply(state, act.Sighted(21, ()))
    assert "cannot attack (range 3, red): the next row" in texts(events)
    assert state.top.asking == "reach"
    state, events = apply(state, act.Sighted(21, ()))
    assert state.top.asking == "closest"
    state, events = apply(state, act.Closest(21, BASTION))
    assert "moves towards Bastion" in texts(events) and "up to 4 steps" in texts(events)
    assert state.top is None or state.top.model != 21  # its row had nothing more (line 2429)


def test_an_attack_targets_the_highest_chaos_it_sees_in_range() -> None:
    """VI.B.1 line 1944 and example 2 (line 2018): Thrasher 4 chaos, Deadeye 5: Deadeye is attacked."""
    state = enemy_phase(21, stalker=0, deadeye=3, bastion=1)  # Stalker 4, Deadeye 5, Bastion 4
    state, events = apply(state, act.Sighted(21, (BASTION, DEADEYE)))
    assert "Gremlin 21 attacks Deadeye (chaos 5) with red" in texts(events)
    assert isinstance(state.top, EnemyAttack) and state.top.seat == DEADEYE


def test_equal_highest_chaos_is_the_players_choice() -> None:
    """VI.B line 1858: of several with the same chaos, you decide."""
    state = enemy_phase(21, bastion=1)  # Bastion 4, Stalker 4
    state, _ = apply(state, act.Sighted(21, (BASTION, STALKER)))
    prompt = GAME.prompt(state)
    assert state.top.asking == "tie" and {c.action.adventurer for c in prompt.choices} == {BASTION, STALKER}
    assert GAME.actor(state, prompt.choices[0].action) is None  # the table's choice, no one seat's
    state, events = apply(state, act.Target(21, STALKER))
    assert "attacks Stalker" in texts(events)


def test_nobody_the_table_answered_for_is_asked_again() -> None:
    """The fewest taps: who is not seen within 3 spaces is not seen within 1 either; the highest chaos is
    listed first."""
    state = enemy_phase(21)
    assert GAME.prompt(state).kind == "enemy-sight"
    assert state.top.candidates == (STALKER, BASTION, DEADEYE, RAIDER)  # chaos 4, 3, 2, 2
    state, _ = apply(state, act.Sighted(21, (STALKER, BASTION)))
    state, _ = apply(state, throw(STALKER, "red:1"), act.DeclineReaction(STALKER))
    turn = state.top
    assert isinstance(turn, EnemyTurn) and turn.asking == "sight" and turn.candidates == (STALKER, BASTION)
    state, events = apply(state, act.Sighted(21, (STALKER,)))
    assert "attacks Stalker (chaos 4) with yellow + blue" in texts(events)


def test_nobody_of_lower_chaos_than_one_known_in_reach_is_asked_about() -> None:
    """The highest chaos is the target (line 1944): when Stalker (4 chaos) attacked from the next space, the
    reaction's attack at range 1 needs asking only about adventurers of 4 chaos or more."""
    state = enemies(new(), 21)
    for seat in range(4):
        state = with_hero(state, seat, chaos=0)
    state = with_hero(state, BASTION, chaos=1)  # 4 chaos, like Stalker's
    state, _ = apply(state, act.Attack(STALKER, 21, 1), throw(STALKER, "yellow:1", "red:1", "blue:1"))
    assert state.top.mode == "reaction" and state.top.candidates == (BASTION,)
    state, events = apply(state, act.Sighted(21, ()))
    assert "attacks Stalker (chaos 4)" in texts(events)


def test_what_the_table_said_holds_until_the_enemy_moves() -> None:
    """Sightings are kept within the row's actions; a charge moves the enemy and they are asked again."""
    state = enemy_phase(21)
    state, _ = apply(state, act.Sighted(21, ()))  # sees nobody within 3: no one within 1 either
    state, events = apply(state, act.Sighted(21, (DEADEYE,)))  # the charge: reaches Deadeye
    assert "charges Deadeye" in texts(events) and "next to Deadeye" in texts(events)
    assert state.top.asking == "sight" and state.top.sightings == ()  # it moved: asked again
    assert GAME.prompt(state).text.startswith("When it has moved, Gremlin 21 would attack (range 1")


def test_an_action_later_in_the_row_is_ignored_when_it_cannot_be_performed() -> None:
    """VI.C line 2481: nothing happens, the action is ignored. Example 1 (lines 2353-2366)."""
    state = enemy_phase(21, stalker=0)
    state, _ = apply(state, act.Sighted(21, (STALKER,)))  # range 3: Stalker
    state, _ = apply(state, throw(STALKER, "red:2"), act.DeclineReaction(STALKER))
    state, events = apply(state, act.Sighted(21, ()))  # range 1: nobody adjacent
    assert "cannot attack (range 1, yellow + blue): nothing happens" in texts(events)
    assert state.top.asking == "closest"  # the retreat: from the closest adventurer
    state, events = apply(state, act.Closest(21, STALKER))
    assert "retreats from Stalker" in texts(events) and "stays put" in texts(events)


def test_the_enemys_attack_damage_is_every_die_less_armour_and_two_vortices_stun() -> None:
    """VI.B.1: the enemy's dice are its damage (range is fixed, line 1937); Bastion +2 armour against
    enemy attacks (V.E line 1115); 2 or more vortices stun: no reaction (V.C line 982)."""
    state = enemy_phase(21, bastion=4)  # Bastion 7: the target
    state, _ = apply(state, act.Sighted(21, (BASTION,)))
    before = state.party[BASTION].life
    state, events = apply(state, throw(BASTION, "red:3v"))
    assert state.party[BASTION].life == before - 1 and "3 − 2 armour = 1 damage" in texts(events)
    assert state.top.stage == "react"
    state, _ = apply(state, act.DeclineReaction(BASTION))
    state, events = apply(state, act.Sighted(21, (BASTION,)), throw(BASTION, "yellow:2v", "blue:0vv"))
    assert "Bastion is stunned" in texts(events)
    assert not isinstance(state.top, EnemyAttack)  # stunned: no reaction to this attack


def test_armour_cards_are_discarded_before_the_enemys_throw() -> None:
    state = with_hero(enemy_phase(21, bastion=4), BASTION, cards=("b1", "b25"))
    state, _ = apply(state, act.Sighted(21, (BASTION,)))
    prompt = GAME.prompt(state)
    assert prompt.kind == "armour" and prompt.players == (BASTION,)
    state, _ = apply(state, act.ArmourCards(BASTION, ("b1",)))
    before = state.party[BASTION].life
    state, _ = apply(state, throw(BASTION, "red:3"))
    assert state.party[BASTION].life == before - 0  # 3 − (2 + 1) armour
    assert state.party[BASTION].cards == ("b25",)


def test_the_attacked_adventurer_reacts_and_no_reaction_follows() -> None:
    """V.C: the adventurer may attack the enemy that attacked; a reaction is never followed by another
    (line 996); a reaction turns no action token."""
    state = enemy_phase(21, stalker=2)
    state, _ = apply(state, act.Sighted(21, (STALKER,)), throw(STALKER, "red:1"))
    assert GAME.prompt(state).kind == "react" and GAME.prompt(state).players == (STALKER,)
    with pytest.raises(IllegalActionError, match="the enemy that attacked"):
        GAME.apply(enemies(state, 22), act.Attack(STALKER, 22, 1))
    state, events = apply(
        state,
        act.Attack(STALKER, 21, 2),
        throw(STALKER, "yellow:1", "red:1", "blue:2"),
        act.ChaosHit(STALKER),
    )
    assert "reacts and attacks" in texts(events) and state.model(21).lives == 7 - 2
    assert state.party[STALKER].actions == 0
    turn = state.top
    assert isinstance(turn, EnemyTurn) and turn.mode == "phase" and turn.model == 21  # on with its row


def test_the_enemys_reaction_uses_its_reaction_table() -> None:
    """VI.C example 2 (line 2300): Thrasher attacks; Thrasher and Deadeye adjacent; Deadeye has more chaos:
    the enemy attacks Deadeye with its reaction."""
    state = enemies(new("Thrasher, Deadeye, Raider, Stalker"), 21)
    state = with_hero(with_hero(with_hero(state, 0, chaos=1), DEADEYE, chaos=3), STALKER, chaos=0)
    state = with_hero(state, RAIDER, chaos=0)
    state, _ = apply(state, act.Attack(0, 21, 1), throw(0, "yellow:1", "red:1", "blue:1"), act.ChaosHit(0))
    turn = state.top
    assert turn.mode == "reaction" and turn.asking == "sight"
    assert DEADEYE in turn.candidates and 0 not in turn.candidates  # Thrasher is known adjacent: not asked
    state, events = apply(state, act.Sighted(21, (DEADEYE,)))
    assert "Gremlin 21 attacks Deadeye (chaos 5) with yellow + blue" in texts(events)
    state, _ = apply(state, throw(DEADEYE, "yellow:1", "blue:1"))
    assert state.top is None  # no reaction to a reaction; the reaction column ends
    assert state.phase == "adventurers"


def test_an_enemy_killed_by_a_reaction_ends_its_turn() -> None:
    state = enemy_phase(21, 22, stalker=2)
    state, _ = apply(state, act.SetLives(21, 1))
    state, _ = apply(state, act.Sighted(21, (STALKER,)), throw(STALKER, "red:1"))
    state, _ = apply(
        state,
        act.Attack(STALKER, 21, 2),
        throw(STALKER, "yellow:1", "red:1", "blue:2"),
        act.ChaosHit(STALKER),
    )
    assert state.model(21) is None and state.top.model == 22


def test_map_answers_about_nobody_asked_are_refused() -> None:
    state = enemy_phase(21)
    with pytest.raises(IllegalActionError, match="The question is about"):
        GAME.apply(state, act.Sighted(21, (7,)))
    with pytest.raises(IllegalActionError, match="not asking which adventurer is closest"):
        GAME.apply(state, act.Closest(21, BASTION))
    with pytest.raises(IllegalActionError, match="Not now"):
        GAME.apply(state, act.Sighted(22, ()))
