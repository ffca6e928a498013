"""Completing lines, attacks, defeat and rout, and the end of the game (rulebook pp.9-12)."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, Roll
from companion.games.chaos_marauders.actions import Attack, Decline, Discard, Draw, Place
from companion.games.chaos_marauders.state import AttackOffer, AttackRoll, PlaceStep

from .positions import (
    CLAWS,
    DIRT,
    GAME,
    HAK,
    HM,
    HS,
    ODLUGG,
    OM,
    OS,
    SHOTTI,
    SNOT,
    SPOIL,
    SQUAD,
    kinds,
    line,
    play,
    position,
)

EYE = Roll(0, "cube", ("eye",))
MARK = Roll(0, "cube", ("mark",))


def attack_ready(defender: tuple = (HS, CLAWS, SNOT, SHOTTI), attacker: tuple = (HS, DIRT, HAK, None, HM)):
    """Grotsnik's line 1 lacks one card; Ugluk's line 1 is incomplete with an Attack Value of 6."""
    return position({0: [line(*attacker)], 1: [line(*defender)]})


def test_completing_a_line_offers_an_attack() -> None:
    state, _events = play(attack_ready(), Place(0, SQUAD, 0, 3))
    assert isinstance(state.top, AttackOffer)
    prompt = GAME.prompt(state)
    assert prompt.kind == "attack"
    assert [c.action for c in prompt.choices] == [Attack(0, 0, 1, 0), Decline(0)]


def test_attack_value_must_be_strictly_greater() -> None:
    # Attacker 0+3+4+5+0 = 12 against a defender of exactly 12: no attack.
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(OS, CLAWS, SQUAD)]})  # 1+6+5 = 12
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    assert state.top is None  # no target: no offer, the turn goes on
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Attack(0, 0, 1, 0))


def test_a_complete_line_cannot_be_attacked() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, SNOT, DIRT, HM)]})
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    assert state.top is None


def test_defeat_discards_purple_cards_and_the_attacker_takes_the_rest() -> None:
    state, _ = play(attack_ready(), Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0))
    assert isinstance(state.top, AttackRoll)
    state, events = play(state, EYE)
    assert "LineDefeated" in kinds(events)
    assert state.boards[1][0] == (None,) * 12
    assert CLAWS in state.discard
    top = state.top
    assert isinstance(top, PlaceStep) and top.player == 0 and top.source == "capture"
    assert sorted(p.card for p in top.cards) == sorted([HS, SNOT, SHOTTI])


def test_captured_cards_are_placed_or_discarded_then_the_turn_ends() -> None:
    state, _ = play(attack_ready(), Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), EYE)
    state, _ = play(state, Place(0, SHOTTI, 1, 5), Place(0, HS, 1, 0), Discard(0, SNOT))
    assert state.boards[0][1][5] == SHOTTI and state.active == 1


def test_rout_discards_grey_and_purple_cards_and_the_defender_takes_the_rest() -> None:
    state = attack_ready(attacker=(HS, DIRT, SPOIL, None, HM))
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0))
    state, events = play(state, MARK)
    assert "LineRouted" in kinds(events)
    assert state.boards[0][0] == (None,) * 12
    top = state.top
    assert isinstance(top, PlaceStep) and top.player == 1 and [p.card for p in top.cards] == [SPOIL]
    state, _ = play(state, Place(1, SPOIL, 1, 4))
    assert state.active == 1 and state.boards[1][1][4] == SPOIL


def test_attacking_ends_the_turn() -> None:
    state = attack_ready(defender=(HS, CLAWS))
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), EYE, Discard(0))
    assert state.active == 1


def test_declining_an_attack_lets_the_turn_go_on_and_forfeits_it() -> None:
    state, _events = play(attack_ready(), Place(0, SQUAD, 0, 3), Decline(0))
    assert state.active == 0 and state.top is None
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Attack(0, 0, 1, 0))


def test_declining_after_a_turn_ending_card_ends_the_turn() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM), line(HS, SQUAD)], 1: [line(HS, CLAWS)]})
    state, _ = play(state, Draw(0, SQUAD), Place(0, SQUAD, 0, 3))
    assert isinstance(state.top, AttackOffer)
    state, _ = play(state, Decline(0))
    assert state.active == 1


def test_attack_before_the_end_of_a_turn_ending_card() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM), line(HS, SQUAD)], 1: [line(HS, CLAWS)]})
    state, _ = play(state, Draw(0, SQUAD), Place(0, SQUAD, 0, 3))
    state, _ = play(state, Attack(0, 0, 1, 0), MARK)
    assert state.active == 1


def test_captured_red_cards_may_be_discarded_unless_their_crew_comes_too() -> None:
    # Rulebook p.10: the victor "may take any remaining cards"; only a *drawn* red card must be placed
    # (card reference p.15), and a crew's machine cards (the crew "must then place the cards").
    state = position(
        {0: [line(HS, CLAWS, HAK, None, HM)], 1: [line(HS, "smasher-left", SNOT), line(OS, DIRT)]}
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), Roll(0, "cube", ("eye",)))
    assert Discard(0, "smasher-left") in GAME.legal_actions(state)
    state, _ = play(state, Discard(0, "smasher-left"))
    assert "smasher-left" in state.discard


def test_a_line_completed_with_captured_cards_cannot_attack() -> None:
    state = position(
        {
            0: [line(HS, DIRT, HAK, None, HM), line(HS, SQUAD, CLAWS, None, HM)],
            1: [line(HS, SNOT, SHOTTI), line(OS, DIRT)],
        }
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), EYE)
    state, _ = play(state, Place(0, SNOT, 1, 3))  # completes line 2 with a captured card
    assert not any(isinstance(s, AttackOffer) for s in state.stack)


def test_a_line_that_lost_cards_may_attack_again_when_completed_again() -> None:
    # Line 1 is complete but lost its third card (to Dagromm, say): completing it again offers an attack.
    state = position({0: [line(HS, DIRT, None, SQUAD, HM)], 1: [line(HS, CLAWS)]})
    state, _ = play(state, Place(0, HAK, 0, 2))
    assert isinstance(state.top, AttackOffer)


def test_the_game_ends_when_a_player_completes_three_lines() -> None:
    state = position(
        {
            0: [line(HS, DIRT, HAK, None, HM), line(OS, SNOT, SQUAD, OM), line(HS, CLAWS, DIRT, HM)],
            1: [line(HS, CLAWS)],
        }
    )
    state, events = play(state, Place(0, SQUAD, 0, 3))
    assert "GameEnding" in kinds(events)
    assert state.finished and state.first_to_complete == 0 and GAME.prompt(state) is None
    result = GAME.result(state)
    assert result.final and result.winners == (0,) and result.tie is False
    assert result.standings[0].details["first_to_complete"] == 150 and result.standings[0].rank == 1
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply(state, Draw(1, HAK))


def test_a_tie_is_reported_as_a_tie() -> None:
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, DIRT, HAK, SQUAD, HM)]}, pile={SQUAD: 1}
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    # Not over yet: the standings if it ended now are a tie.
    outcome = GAME.result(state)
    assert not outcome.final and outcome.tie is True and outcome.winners == (0, 1)
    assert [s.rank for s in outcome.standings] == [1, 1]
    assert outcome.outcome == "Grotsnik & Ugluk lead with 100 VP"


def test_routed_horned_rat_standard_and_war_machine_are_captured_by_the_defender() -> None:
    state = position(
        {
            0: [line("horned-rat-standard", "knocker-left", "knocker-right", CLAWS, None, HM)],
            1: [line(HS, DIRT)],
        },
        pile={SQUAD: 2},
    )
    state, _ = play(state, Place(0, SQUAD, 0, 4), Attack(0, 0, 1, 0), MARK)
    top = state.top
    assert isinstance(top, PlaceStep) and top.player == 1
    assert sorted(p.card for p in top.cards) == ["horned-rat-standard", "knocker-left", "knocker-right"]


def test_captured_crew_pulls_its_machine_parts_from_other_players() -> None:
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, "chucker-crew")], 2: [line(HS, "chucker-left")]},
        players=3,
        pile={SQUAD: 2},
    )
    state, events = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), EYE)
    assert "MachinePulled" in kinds(events)
    assert sorted(p.card for p in state.top.cards) == ["chucker-crew", "chucker-left", HS]  # type: ignore[union-attr]
    assert state.boards[2][0][1] is None


def test_odlugg_in_a_routed_attacking_line_is_captured_by_the_defender() -> None:
    # Card reference, Odlugg: he "is discarded should he be in a defeated battle line" only; a routed
    # line loses its grey and purple cards and "the attacking player's opponent may take any remaining".
    state = position({0: [line(HS, ODLUGG, CLAWS, None, HM)], 1: [line(HS, DIRT)]})
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0))
    before = len(state.discard)
    state, events = play(state, MARK)
    assert "LineRouted" in kinds(events)
    assert sorted(state.discard[before:]) == sorted([HS, CLAWS, SQUAD, HM]) and ODLUGG not in state.discard
    top = state.top
    assert isinstance(top, PlaceStep) and top.player == 1 and top.source == "capture"
    assert [p.card for p in top.cards] == [ODLUGG]
    state, _ = play(state, Place(1, ODLUGG, 1, 3))
    assert state.boards[1][1][3] == ODLUGG and state.boards[0][0] == (None,) * 12 and state.active == 1
