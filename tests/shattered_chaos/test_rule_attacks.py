"""An adventurer's attack (V.B.4, V.C, V.D, V.E, V.F.2, V.G, X.5), each rule with the line it comes from."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.engine import IllegalActionError
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.state import EnemyTurn, HeroAttack

from .rules_support import (
    BASTION,
    DEADEYE,
    GAME,
    RAIDER,
    STALKER,
    apply,
    enemies,
    new,
    texts,
    throw,
    with_hero,
)


def attack_ready(party: str = "Bastion, Deadeye, Raider, Stalker", chaos: int = 0) -> object:
    """Gremlin 21 on the board; no chaos tokens (no chaos hit question) unless asked."""
    state = enemies(new(party), 21)
    for seat in range(state.seats):
        state = with_hero(state, seat, chaos=chaos)
    return state


def test_the_range_die_must_reach_the_enemy() -> None:
    """Line 826: a hit if the range die is at least as high as the enemy stands spaces away. Only blue
    reaches 3 here, so the attack reads itself: blue is the range, yellow and red the damage (line 896)."""
    state, events = apply(
        attack_ready(), act.Attack(BASTION, 21, 3), throw(BASTION, "yellow:1", "red:2", "blue:3")
    )
    assert state.model(21).lives == 7 - 3
    assert "range blue 3 for 3" in texts(events)
    assert state.party[BASTION].actions == 1  # the attack turned one action token (V.B, line 642)


def test_an_attack_that_can_reach_cannot_fail_on_purpose() -> None:
    """Line 834: with range on at least one die the attack cannot be failed on purpose."""
    state, _ = apply(
        attack_ready(), act.Attack(BASTION, 21, 2), throw(BASTION, "yellow:1", "red:3", "blue:2")
    )
    choices = GAME.prompt(state).choices
    assert {c.action.range_die for c in choices} == {"red", "blue"}
    with pytest.raises(IllegalActionError, match="not open"):
        GAME.apply(state, act.Resolve(BASTION, "yellow", 0))
    state, _ = apply(state, act.Resolve(BASTION, "blue", 0))
    assert state.model(21).lives == 7 - 4


def test_no_die_reaches_the_attack_fails_and_its_cards_are_lost() -> None:
    """Line 830: without range the attack fails; V.G line 1569: its chaos cards go without effect; no
    reaction follows a failed attack (VI.C: an enemy reacts to a successful attack, line 939)."""
    state = with_hero(attack_ready(), DEADEYE, cards=("b25",))
    state, events = apply(
        state, act.Attack(BASTION, 21, 4, ()), throw(BASTION, "yellow:1", "red:2", "blue:3")
    )
    assert "fails" in texts(events) and state.model(21).lives == 7 and not state.steps
    state = with_hero(state, BASTION, cards=("b25",))
    state, events = apply(
        state, act.Attack(BASTION, 21, 9, ("b25",)), throw(BASTION, "yellow:1", "red:1", "blue:1")
    )
    assert state.party[BASTION].cards == () and "b25" in state.discard and "lost" in texts(events)


def test_two_vortices_stun_no_reaction() -> None:
    """V.C line 982: 2 or more vortices stun; a stunned model does not react to this attack."""
    state, _ = apply(
        attack_ready(), act.Attack(BASTION, 21, 1), throw(BASTION, "yellow:1v", "red:2v", "blue:1")
    )
    assert {c.action.vortices for c in GAME.prompt(state).choices} == {2}
    state, events = apply(state, act.Resolve(BASTION, "yellow", 2))
    assert "stunned" in texts(events) and not state.steps


def test_a_successful_attack_without_stun_brings_the_enemys_reaction() -> None:
    """VI.C line 2340: an enemy attacked in the adventurer phase reacts with its reaction table."""
    state, _ = apply(
        attack_ready(), act.Attack(BASTION, 21, 1), throw(BASTION, "yellow:1", "red:1", "blue:1")
    )
    assert isinstance(state.top, EnemyTurn) and state.top.mode == "reaction"


def test_four_vortices_are_a_critical_hit_ignoring_two_armour() -> None:
    """V.D line 1019: 4 or more vortices on a successful attack: a critical hit, up to 2 armour ignored."""
    state = enemies(new(), 41)  # a troll: 2 armour (assumed data)
    state = with_hero(state, BASTION, chaos=0)
    state, _ = apply(state, act.Attack(BASTION, 41, 1), throw(BASTION, "yellow:1v", "red:2v", "blue:0vv"))
    state, events = apply(state, act.Resolve(BASTION, "yellow", 4))
    lives = GAME.catalog.enemy("troll").lives[4]
    assert state.model(41).lives == lives - 2  # 2 damage (red 2 + blue 0), no armour left
    assert "critical hit" in texts(events)


def test_deadeye_has_two_more_range() -> None:
    """V.E line 1135: +2 range in her attacks."""
    state, _ = apply(
        attack_ready(), act.Attack(DEADEYE, 21, 5), throw(DEADEYE, "yellow:1", "red:1", "blue:3")
    )
    assert state.model(21).lives == 7 - 2


def test_thrasher_has_one_more_damage() -> None:
    """V.E line 1233: +1 damage in his attacks."""
    state = attack_ready("Thrasher, Deadeye, Raider, Stalker")
    state, _ = apply(state, act.Attack(0, 21, 3), throw(0, "yellow:1", "red:2", "blue:3"))
    assert state.model(21).lives == 7 - 4


def test_mender_gains_a_life_with_a_successful_attack_up_to_her_maximum() -> None:
    """V.E line 1159: Mender receives 1 life in her attacks; V.A.8 line 544: never above the ledger's top."""
    state = with_hero(attack_ready("Mender, Deadeye, Raider, Stalker"), 0, life=5)
    state, _ = apply(state, act.Attack(0, 21, 1), throw(0, "yellow:0v", "red:2v", "blue:1"))
    state, _ = apply(state, act.Resolve(0, "blue", 2))
    assert state.party[0].life == 6
    most = GAME.catalog.adventurer("mender").max_life
    state = with_hero(state, 0, life=most)
    state, _ = apply(state, act.Attack(0, 21, 1), throw(0, "yellow:0v", "red:2v", "blue:1"))
    state, _ = apply(state, act.Resolve(0, "blue", 2))
    assert state.party[0].life == most


def test_raider_adds_or_takes_away_two_vortices() -> None:
    """V.E line 1189: ±2 vortices; the adventurer chooses (V.G line 1583 for the same on cards)."""
    state, _ = apply(attack_ready(), act.Attack(RAIDER, 21, 1), throw(RAIDER, "yellow:1", "red:2v", "blue:2"))
    assert {c.action.vortices for c in GAME.prompt(state).choices} == {3, 1, 0}
    state, events = apply(state, act.Resolve(RAIDER, "yellow", 0))
    assert "stunned" not in texts(events) and isinstance(state.top, EnemyTurn)  # unstunned: it reacts


def test_a_chaos_hit_throws_chosen_dice_again_once_for_a_token_each() -> None:
    """V.F.2 lines 1297-1299: up to 3 dice again, decided right after the throw, once; a token per die;
    the new throw is final even if worse."""
    state = attack_ready(chaos=2)
    state, _ = apply(state, act.Attack(BASTION, 21, 2), throw(BASTION, "yellow:1", "red:1", "blue:2"))
    assert state.top.stage == "chaos-hit"
    labels = [c.label for c in GAME.prompt(state).choices]
    assert labels[0] == "Keep the throw" and not any("yellow + red + blue" in label for label in labels)
    state, _ = apply(state, act.ChaosHit(BASTION, ("yellow", "blue")))
    assert state.party[BASTION].chaos == 0 and GAME.prompt(state).roll.count == 2
    with pytest.raises(IllegalActionError, match="throws yellow \\+ blue"):
        GAME.apply(state, throw(BASTION, "yellow:3", "red:3"))
    state, _ = apply(state, throw(BASTION, "yellow:1", "blue:1"))  # worse, and final
    assert state.model(21).lives == 7 - 2 or not isinstance(state.top, HeroAttack)


def test_a_chaos_hit_is_not_for_a_shadow() -> None:
    """V.A.8 line 602: a shadow can't use skills any longer."""
    state = with_hero(attack_ready(chaos=0), BASTION, shadow=True, life=0, chaos=0)
    state, _ = apply(state, act.Attack(BASTION, 21, 1), throw(BASTION, "yellow:1", "red:1", "blue:1"))
    assert not isinstance(state.top, HeroAttack) and state.model(21).lives == 7 - 2


def test_chaos_cards_are_discarded_before_the_attack_for_their_bonus() -> None:
    """V.G example 1 (line 1629): +2 range and one life with the attack."""
    state = with_hero(attack_ready(), BASTION, cards=("b25", "b7"), life=8)
    state, _ = apply(state, act.Attack(BASTION, 21, 3, ("b25", "b7")))
    assert state.party[BASTION].cards == () and set(state.discard) == {"b25", "b7"}
    state, _ = apply(state, throw(BASTION, "yellow:1", "red:2", "blue:2"), act.Resolve(BASTION, "yellow", 0))
    assert state.party[BASTION].life == 9  # the life card on a successful attack
    assert state.model(21).lives == 7 - 4


def test_cards_that_do_not_serve_an_attack_are_refused() -> None:
    state = with_hero(attack_ready(), BASTION, cards=("b1",))  # +1 armour: against an enemy's attack
    with pytest.raises(IllegalActionError, match="not used in an attack"):
        GAME.apply(state, act.Attack(BASTION, 21, 1, ("b1",)))
    with pytest.raises(IllegalActionError, match="holds"):
        GAME.apply(state, act.Attack(BASTION, 21, 1, ("b25",)))


def test_a_wrong_throw_is_refused_and_changes_nothing() -> None:
    state, _ = apply(attack_ready(), act.Attack(BASTION, 21, 1))
    for faces in (("yellow:1", "yellow:2", "blue:1"), ("yellow:1", "red:2"), ("yellow:9", "red:1", "blue:1")):
        with pytest.raises(ValueError):
            GAME.apply(state, throw(BASTION, *faces))
    with pytest.raises(IllegalActionError, match="Bastion throws"):
        GAME.apply(state, throw(STALKER, "yellow:1", "red:1", "blue:1"))


def test_the_destruction_token_adds_two_damage_to_every_later_attack() -> None:
    """X.5 line 3082: the destroy skill costs 2 chaos tokens; line 3085: +2 damage with each attack on the
    model; line 3060: full side up under a small enemy; line 3089: one at most."""
    state = enemies(new(adventure=2), 21)
    state = with_hero(state, BASTION, chaos=3)
    state, _ = apply(state, act.Destroy(BASTION))
    assert state.party[BASTION].destruction and state.party[BASTION].chaos == 1
    with pytest.raises(IllegalActionError, match="one at most"):
        GAME.apply(state, act.Destroy(BASTION))
    state = with_hero(state, BASTION, chaos=0)
    state, _ = apply(
        state, act.Attack(BASTION, 21, 1, (), True), throw(BASTION, "yellow:1", "red:0v", "blue:0vv")
    )
    assert state.model(21).conditions[0].kind == "destruction" and not state.model(21).conditions[0].half
    assert state.model(21).lives == 7  # 0 damage: the token goes under it after the attack
    state, _ = apply(state, act.Attack(BASTION, 21, 1), throw(BASTION, "yellow:1", "red:0v", "blue:0vv"))
    assert state.model(21).lives == 7 - 2


def test_the_destroy_skill_is_not_in_the_first_adventure() -> None:
    """X line 2979: the advanced rules are not needed in the first adventure."""
    with pytest.raises(IllegalActionError, match="destroy skill"):
        GAME.apply(new(adventure=1), act.Destroy(BASTION))


def test_a_killed_enemy_goes_to_the_graveyard_and_leaves_a_chaos_token() -> None:
    """VI.A.6 line 1764: killed below 1 life, to the graveyard, a chaos token on its space (line 1767)."""
    state = attack_ready()
    state = replace(state, models=(replace(state.models[0], lives=2),))
    state, events = apply(state, act.Attack(BASTION, 21, 1), throw(BASTION, "yellow:1", "red:1", "blue:1"))
    assert state.model(21) is None and state.graveyard == (("gremlin", 21),) and state.map_chaos == 1
    assert "a chaos token on its space" in texts(events)
    with pytest.raises(IllegalActionError, match="graveyard"):
        GAME.apply(state, act.PlaceEnemy(21))


def test_a_big_enemy_leaves_three_chaos_tokens_and_counts_three() -> None:
    """X.2 line 3039: a chaos token on each of its 3 spaces; line 3042: counts as 3 killed enemies."""
    state = enemies(new(), 41)
    state = with_hero(state, BASTION, chaos=0)
    state, events = apply(state, act.SetLives(41, 0))
    assert state.map_chaos == 3 and "each of its 3 spaces" in texts(events)
    from companion.games.shattered_chaos.ledgers import graveyard_weight

    assert graveyard_weight(GAME.catalog, state) == 3
