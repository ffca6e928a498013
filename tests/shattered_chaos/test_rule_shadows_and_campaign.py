"""Shadows, death and defeat (V.A.8), the adventure's end, the final evaluation in play and the campaign log
(IX), with the lines they come from."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, Player, Setup
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.campaign import CampaignError, CampaignLog, Played
from companion.games.shattered_chaos.state import CAMPAIGN, OVER

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

CAT = GAME.catalog


def enemy_attack_on(seat: int, life: int, chaos: int = 4):
    """Gremlin 21 attacks ``seat`` with range 3 (a red die) in the enemy phase."""
    state = enemies(new(), 21)
    for other in range(4):
        state = with_hero(state, other, chaos=0)
    state = with_hero(state, seat, life=life, chaos=chaos)
    state = spend_all(state)
    state, _ = apply(state, act.Sighted(21, (seat,)))
    return state


def test_under_one_life_an_adventurer_becomes_a_shadow_and_drops_their_chaos_tokens() -> None:
    """V.A.8 lines 549-552: killed below 1 life, the model removed, its chaos tokens on the space; line 554:
    a shadow."""
    state = enemy_attack_on(DEADEYE, life=2, chaos=3)
    state, events = apply(state, throw(DEADEYE, "red:3"))
    deadeye = state.party[DEADEYE]
    assert deadeye.shadow and deadeye.life == 0 and deadeye.chaos == 0 and state.map_chaos == 3
    assert "place 3 chaos tokens on the space" in texts(events) and "next to another adventurer" in texts(
        events
    )
    assert state.top is None or state.top.mode == "phase"  # killed: no reaction (V.C line 974)


def test_a_shadows_damage_is_suffered_by_another_adventurer() -> None:
    """V.A.8 line 605: if a shadow takes damage, another single adventurer suffers it all."""
    state = enemy_attack_on(DEADEYE, life=1, chaos=0)
    state = with_hero(state, DEADEYE, shadow=True, life=0)
    state, events = apply(state, throw(DEADEYE, "red:3"))
    prompt = GAME.prompt(state)
    assert prompt.kind == "redirect" and {c.action.adventurer for c in prompt.choices} == {
        BASTION,
        RAIDER,
        STALKER,
    }
    assert GAME.actor(state, prompt.choices[0].action) is None
    life = state.party[RAIDER].life
    state, events = apply(state, act.Redirect(RAIDER))
    assert state.party[RAIDER].life == life - 3 and "Deadeye's 3 damage goes to Raider" in texts(events)


def test_a_shadow_receives_no_lives_nor_chaos_tokens_and_uses_no_skill() -> None:
    """V.A.8 line 602."""
    state = with_hero(enemies(new("Mender, Deadeye, Raider, Stalker"), 21), 0, shadow=True, life=0, chaos=0)
    state, _ = apply(state, act.Attack(0, 21, 1), throw(0, "yellow:1", "red:1", "blue:1"))
    assert (
        state.party[0].life == 0 and state.model(21).lives == 7 - 2
    )  # Mender's talent: no life for a shadow
    shadow = with_hero(new("Mender, Deadeye, Raider, Stalker"), 0, shadow=True, life=0, chaos=0)
    state, events = apply(shadow, act.ChaosCall(0))
    assert state.party[0].chaos == 0 and "no chaos token" in texts(events)
    with pytest.raises(IllegalActionError, match="shadow"):
        GAME.apply(shadow, act.ChaosStep(0, 1))
    with pytest.raises(IllegalActionError, match="shadow"):
        GAME.apply(shadow.__class__(**{**shadow.__dict__, "map_chaos": 2}), act.PickUp(0, 1))


def test_a_shadow_keeps_and_spends_its_action_tokens() -> None:
    """V.A.8 line 600: a shadow retains all tokens on his token ledger, even action tokens not yet used."""
    state = with_hero(new(), STALKER, shadow=True, life=0, chaos=0)
    state, _ = apply(state, act.Move(STALKER))
    assert state.party[STALKER].actions == 1
    state = spend_all(state)
    assert state.party[STALKER].actions == 2  # turned back in the chaos phase (VII.3.1: "i.e. shadow")


def test_every_adventurer_a_shadow_loses_the_adventure() -> None:
    """V.A.8 line 554: all shadows, the adventure is lost; IX.C line 2970: section 5, draw and keep 2."""
    state = enemy_attack_on(DEADEYE, life=1, chaos=0)
    for seat in (BASTION, RAIDER, STALKER):
        state = with_hero(state, seat, shadow=True, life=0, chaos=0)
    state, events = apply(state, throw(DEADEYE, "red:2"))
    assert state.phase == CAMPAIGN and state.outcome == "lost"
    assert "Every adventurer is a shadow" in texts(events)
    evaluation = state.evaluation
    assert (evaluation.section, evaluation.draw, evaluation.keep) == (5, 2, 2)
    result = GAME.result(state)
    assert result.winners == () and result.cooperative and not result.final


def test_the_final_evaluation_of_a_won_adventure_in_play() -> None:
    """IX.A example: round 8, Bastion 6 damage, Deadeye a shadow, Raider none, Stalker 2 lives above."""
    state = new()
    state = with_hero(state, BASTION, life=CAT.adventurer("bastion").start_life - 6)
    state = with_hero(state, DEADEYE, shadow=True, life=0, chaos=0)
    state = with_hero(state, STALKER, life=CAT.adventurer("stalker").start_life + 2)
    for _ in range(7):
        state = spend_all(state)
    assert state.round == 8
    state, events = apply(state, act.EndAdventure("won"))
    evaluation = state.evaluation
    assert (evaluation.damage, evaluation.spaces, evaluation.final_round, evaluation.section) == (13, 4, 4, 2)
    assert (evaluation.draw, evaluation.keep) == (6, 3)
    assert "compartment Adventures 1 to 3" in texts(events)
    prompt = GAME.prompt(state)
    assert prompt.kind == "campaign" and "keep 3" in prompt.text


def test_the_campaign_box_silver_and_gold_replace_bronze_of_the_same_number() -> None:
    """IX.B line 2877: silver or gold cards replace the bronze card carrying the same number."""
    state, _ = apply(new(), act.EndAdventure("won"))
    keep = state.evaluation.keep
    state, _ = apply(state, act.KeepCard("s7"), act.KeepCard("g12"))
    with pytest.raises(ValueError):
        GAME.apply(state, act.KeepCard("b3"))
    state, _ = apply(state, act.GainTalent(DEADEYE, "lives-the-life"))
    for _ in range(keep - 2):
        state, _ = apply(state, act.KeepCard("s1"))
    with pytest.raises(IllegalActionError, match="keeps"):
        GAME.apply(state, act.KeepCard("s2"))
    state, _ = apply(state, act.CloseCampaign())
    assert state.phase == OVER and GAME.is_over(state) and GAME.prompt(state) is None
    log = state.campaign.format()
    assert log.startswith("adventures: 1W") and "s7" in log and "deadeye=lives-the-life" in log
    result = GAME.result(state)
    assert result.final and result.winners == (0, 1, 2, 3) and all(s.rank == 1 for s in result.standings)
    assert (
        result.details["campaign"] == log
        and result.details["evaluation"]["section"] == state.evaluation.section
    )

    following = GAME.new_game(
        Setup(
            "shattered-chaos", tuple(Player(f"P{i}") for i in range(4)), (("adventure", 2), ("campaign", log))
        )
    )
    stack = [c for _, cards in following.stacks for c in cards]
    assert "s7" in stack and "b7" not in stack and "g12" in stack and "b12" not in stack and len(stack) == 36
    assert "lives-the-life" in following.party[DEADEYE].talents


def test_the_campaign_log_reads_what_it_writes() -> None:
    log = CampaignLog(
        (Played(1, True, 2), Played(2, False, 5)), ("s3", "g12"), (("bastion", "lives-the-life"),)
    )
    assert CampaignLog.parse(log.format(), CAT) == log
    assert CampaignLog.parse("  ADVENTURES: 1w2 ;cards: S3 ", CAT).kept == ("s3",)
    for bad in (
        "adventures: 1W9",
        "cards: b3",
        "talents: gandalf=x",
        "potions: 3",
        "adventures: 99W1",
        "x" * 5000,
    ):
        with pytest.raises(CampaignError):
            CampaignLog.parse(bad, CAT)


def test_the_adventure_ends_when_the_narrator_says_and_nothing_is_played_after() -> None:
    state, _ = apply(enemies(new(), 21), act.EndAdventure("lost"))
    assert state.phase == CAMPAIGN
    with pytest.raises(IllegalActionError, match="over"):
        GAME.apply(state, act.PlaceEnemy(22))
    state, _ = apply(state, act.CloseCampaign())
    with pytest.raises(IllegalActionError, match="over"):
        GAME.apply(state, act.CloseCampaign())
