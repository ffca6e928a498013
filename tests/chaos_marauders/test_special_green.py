"""Green cards: Horned Rat Standard, Dagromm, Idol, Bilge Guttrot, Skyrr's Blowback."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, Roll
from companion.games.chaos_marauders.actions import (
    Attack,
    Blast,
    Decline,
    Discard,
    Draw,
    ForceDiscard,
    Pick,
    Place,
    Reorganise,
    Shout,
)
from companion.games.chaos_marauders.state import (
    AttackOffer,
    AttackRoll,
    BilgeChoice,
    BlowbackTarget,
    GreenRoll,
    IdolRolls,
)

from .positions import (
    BILGE,
    CLAWS,
    CM,
    CREEPS,
    DAGROMM,
    DIRT,
    GAME,
    GIT,
    HAK,
    HM,
    HS,
    IDOL,
    OM,
    OS,
    PIG,
    PLAGUE,
    RAT,
    SHAMAN,
    SHOTTI,
    SKYRR,
    SNOT,
    SPOIL,
    SQUAD,
    kinds,
    line,
    play,
    position,
)


def eye(seat: int = 0, n: int = 1) -> Roll:
    return Roll(seat, "cube", ("eye",) * n)  # type: ignore[arg-type]


def mark(seat: int = 0) -> Roll:
    return Roll(seat, "cube", ("mark",))  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- Horned Rat


def test_horned_rat_standard_line_can_never_be_attacked() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(RAT, CLAWS)]}, pile={SQUAD: 2})
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    assert state.top is None  # the only opponent line is protected: no attack to offer
    assert GAME.view(state)["players"][1]["lines"][0]["protected"] is True


def test_horned_rat_standard_is_placed_as_a_standard_and_ends_the_turn() -> None:
    state, _ = play(position(), Draw(0, RAT), Place(0, RAT, 2, 0))
    assert state.boards[0][2][0] == RAT and state.active == 1


# ----------------------------------------------------------------------------------------- Dagromm


def dagromm_ready():
    return position({0: [line(HS, DIRT, HAK, SQUAD), line(OS, CLAWS, SNOT)]})


def test_dagromm_mark_on_first_roll_loses_every_third_card() -> None:
    state, _ = play(dagromm_ready(), Draw(0, DAGROMM))
    assert isinstance(state.top, GreenRoll) and GAME.prompt(state).roll is not None
    state, _events = play(state, mark())
    assert state.boards[0][0][:4] == (HS, DIRT, None, SQUAD)
    assert state.boards[0][1][:3] == (OS, None, SNOT)
    assert DAGROMM in state.discard and state.active == 1


def test_dagromm_mark_on_second_roll_loses_every_fourth_card() -> None:
    state, _ = play(dagromm_ready(), Draw(0, DAGROMM), eye(), mark())
    assert state.boards[0][0][:4] == (HS, DIRT, HAK, None)
    assert state.boards[0][1][:3] == (OS, CLAWS, SNOT)


def test_dagromm_four_eyes_lose_nothing() -> None:
    state, events = play(dagromm_ready(), Draw(0, DAGROMM), eye(), eye(), eye(), eye())
    assert "DagrommPleased" in kinds(events)
    assert state.boards == dagromm_ready().boards and state.active == 1


def test_dagromm_accepts_several_rolls_at_once_up_to_the_first_mark() -> None:
    state, _ = play(dagromm_ready(), Draw(0, DAGROMM))
    with pytest.raises(IllegalActionError, match="first Mark"):
        GAME.apply(state, Roll(0, "cube", ("mark", "eye")))
    state, _ = play(state, Roll(0, "cube", ("eye", "eye", "mark")))
    # third roll: every fifth card (CLAWS is the 6th, OS the 5th)
    assert state.boards[0][1][0] is None


def test_dagromm_mark_on_fourth_roll_loses_every_sixth_card_across_lines() -> None:
    # "the forth roll checks to see if he loses every sixth card ... counting along his first battle
    # line, then his second battle line, and so on, not counting the spaces between cards."
    state = position(
        {0: [line(HS, DIRT, HAK, SQUAD), line(OS, None, CLAWS, SNOT, PIG), line(HS, SHAMAN, SPOIL, HM)]}
    )
    state, _ = play(state, Draw(0, DAGROMM), eye(), eye(), eye())
    assert isinstance(state.top, GreenRoll) and state.top.count == 3
    state, events = play(state, mark())
    lost = next(e for e in events if e.kind == "CardsLost")
    assert lost.data["every"] == 6 and lost.data["cards"] == [CLAWS, HM]  # the 6th and 12th cards
    assert state.boards[0][0][:4] == (HS, DIRT, HAK, SQUAD)
    assert state.boards[0][1][:5] == (OS, None, None, SNOT, PIG)
    assert state.boards[0][2][:4] == (HS, SHAMAN, SPOIL, None)
    assert state.discard[-3:] == (CLAWS, HM, DAGROMM) and state.active == 1


# -------------------------------------------------------------------------------------------- Idol


def test_idol_in_an_opponents_line_goes_within_three_spaces() -> None:
    state, _ = play(position({1: [line(HS, DIRT)]}), Draw(0, IDOL))
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, IDOL, 2, 5, 1))
    state, _ = play(state, Place(0, IDOL, 0, 3, 1))
    assert state.boards[1][0][3] == IDOL


def test_idol_received_any_way_may_go_in_an_opponents_line() -> None:
    # Card reference, Idol: "When a player receives the Idol, he may either place it in one of his
    # battle lines or in a battle line belonging to an opponent": stolen or captured, not only drawn.
    state = position({0: [line(HS, DIRT)], 1: [line(HS, IDOL)], 2: [line(HS, SNOT)]}, players=3)
    state, _ = play(state, Draw(0, CREEPS), Pick(0, 1, 0, 1))
    assert Place(0, IDOL, 0, 2, 2) in GAME.legal_actions(state)
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, IDOL, 0, 6, 2))
    state, _ = play(state, Place(0, IDOL, 0, 2, 2))
    assert state.boards[2][0][2] == IDOL


def test_a_captured_idol_may_go_in_an_opponents_line() -> None:
    state = position({0: [line(HS, CLAWS, HAK, None, HM)], 1: [line(HS, IDOL, SNOT), line(OS, DIRT)]})
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), Roll(0, "cube", ("eye",)))
    assert Place(0, IDOL, 1, 2, 1) in GAME.legal_actions(state)
    state, _ = play(state, Place(0, IDOL, 1, 2, 1))
    assert state.boards[1][1][2] == IDOL


def idol_end(extra: str | None = None):
    return position(
        {
            0: [line(HS, DIRT, HAK, None, HM), line(OS, SNOT, SQUAD, OM), line(HS, CLAWS, IDOL, extra, HM)],
            1: [line(HS, CLAWS)],
        },
        pile={SQUAD: 1},
    )


def test_idol_is_rolled_six_times_at_the_end_of_the_game() -> None:
    state = idol_end(DIRT)
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    assert isinstance(state.top, IdolRolls) and not state.finished
    assert GAME.prompt(state).roll.count == 6
    state, _ = play(state, Roll(0, "cube", ("eye", "eye", "eye")), Roll(0, "cube", ("eye", "eye")))
    assert GAME.prompt(state).text == "Grotsnik: the Idol! Roll the Cube once more (any Mark of Chaos: -90)"
    state, _ = play(state, Roll(0, "cube", ("mark",)))
    assert state.finished
    assert GAME.result(state).standings[0].details["idol"] == -90


def test_each_idol_throw_is_told_as_it_comes() -> None:
    """The TV's ticker and the history tell the six throws one by one, numbered, then the verdict."""
    state, _ = play(idol_end(DIRT), Place(0, SQUAD, 0, 3))
    state, events = play(state, Roll(0, "cube", ("eye", "mark")))
    assert [e.text for e in events] == [
        "Grotsnik rolled an Orcish Eye for the Idol (1 of 6)",
        "Grotsnik rolled a Mark of Chaos for the Idol (2 of 6)",
    ]
    _, events = play(state, eye(0, 4))
    assert kinds(events) == ["IdolRolled"] * 4 + ["IdolJudged"]
    assert events[-2].data == {"player": 0, "face": "eye", "number": 6}


def test_idol_six_eyes_are_worth_ninety() -> None:
    state, _ = play(idol_end(DIRT), Place(0, SQUAD, 0, 3), eye(0, 6))
    assert GAME.result(state).standings[0].details["idol"] == 90


def test_idol_with_a_shaman_needs_no_rolls() -> None:
    state, _ = play(idol_end(SHAMAN), Place(0, SQUAD, 0, 3))
    assert state.finished and GAME.result(state).standings[0].details["idol"] == 90


# ------------------------------------------------------------------------------------------- Bilge


def test_bilge_guttrot_reorganises_all_lines() -> None:
    state = position({0: [line(HS, DIRT, HAK), line(OS, SNOT, None, None, None, OM)]})
    state, _ = play(state, Draw(0, BILGE), Place(0, BILGE, 1, 2))
    assert isinstance(state.top, BilgeChoice)
    layout = (line(HS, DIRT, HAK, BILGE), line(OS, SNOT, OM, at=2), line())
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Reorganise(0, (line(HS, DIRT, HAK, BILGE, SHOTTI), line(OS, SNOT, OM), line())))
    state, _ = play(state, Reorganise(0, layout))
    assert state.boards[0] == layout and state.active == 1


def test_bilge_reorganisation_completing_a_line_gives_no_attack() -> None:
    state = position({0: [line(HS, DIRT, HAK), line(OM, at=11)], 1: [line(HS, SNOT)]})
    state, _ = play(state, Draw(0, BILGE), Place(0, BILGE, 0, 3))
    state, _ = play(state, Reorganise(0, (line(HS, DIRT, HAK, BILGE, OM), line(), line())))
    assert state.top is None and state.active == 1


def test_bilge_guttrot_leads_an_incomplete_line_against_a_weaker_line() -> None:
    state = position({0: [line(HS, CLAWS)], 1: [line(HS, DIRT), line(OS, CLAWS, SQUAD)]})
    state, _ = play(state, Draw(0, BILGE), Place(0, BILGE, 0, 2))
    attacks = [a for a in GAME.legal_actions(state) if isinstance(a, Attack)]
    assert attacks == [Attack(0, 0, 1, 0)]  # 8 beats 3, not 12
    state, _ = play(state, Attack(0, 0, 1, 0))
    assert isinstance(state.top, AttackRoll) and state.top.bilge
    state, _ = play(state, eye(), Discard(0))
    assert state.active == 1


def test_bilge_reorganisation_keeps_sneaky_git_owner_markers() -> None:
    # The Gits are alike but their control markers are not: they follow the Gits in reading order.
    state = position(
        {0: [line(HS, GIT, DIRT), line(OS, GIT)]}, players=3, markers=[(0, 0, 1, 1), (0, 1, 1, 2)]
    )
    state, _ = play(state, Draw(0, BILGE), Place(0, BILGE, 0, 3))
    layout = (line(HS, DIRT, BILGE, GIT), line(OS, None, None, None, GIT), line())
    state, events = play(state, Reorganise(0, layout))
    assert "LinesReorganised" in kinds(events) and state.boards[0] == layout
    assert sorted(state.markers) == [(0, 0, 3, 1), (0, 1, 4, 2)]
    assert GAME.view(state)["players"][0]["lines"][1]["slots"][4]["owner"] == 2
    state, _ = play(state, Draw(1, SNOT), Discard(1), Draw(2, SNOT), Discard(2), Draw(0, HAK))
    forced = [a for a in GAME.legal_actions(state) if isinstance(a, ForceDiscard)]
    assert forced == [ForceDiscard(1, 0, 3), ForceDiscard(2, 1, 4)]


def test_bilge_moving_the_chaos_marauders_keeps_them_the_players_own_secret() -> None:
    state = position({0: [line(HS, DIRT), line(OS, SNOT)], 1: [line(HS, HAK)]})
    state, _ = play(state, Draw(0, CM), Place(0, CM, 0, 3), Draw(0, BILGE), Place(0, BILGE, 1, 3))
    board = [list(cells) for cells in state.boards[0]]
    board[0][3], board[0][4] = None, CM
    moved, events = play(state, Reorganise(0, tuple(tuple(cells) for cells in board)))
    assert "MaraudersKept" in kinds(events)  # not lost in the move: kept to the turn's end
    assert moved.boards[0][0][4] == CM


def test_bilge_may_be_left_alone() -> None:
    state, _ = play(position(), Draw(0, BILGE), Place(0, BILGE, 0, 3), Decline(0))
    assert state.boards[0][0][3] == BILGE and state.active == 1


# ---------------------------------------------------------------------------------------- Blowback


def test_skyrrs_blowback_eye_discards_the_target_line() -> None:
    state = position({0: [line(HS, DIRT)], 1: [line(HS, CLAWS, SHOTTI)]})
    state, _ = play(state, Draw(0, SKYRR))
    assert isinstance(state.top, BlowbackTarget)
    state, _events = play(state, Blast(0, 1, 0), eye())
    assert state.boards[1][0] == line() and SHOTTI in state.discard and SKYRR in state.discard
    assert state.boards[0][0][1] == DIRT and state.active == 1


def test_skyrrs_blowback_mark_discards_all_the_drawers_lines() -> None:
    state = position({0: [line(HS, DIRT), line(OS, PLAGUE)], 1: [line(HS, CLAWS)]})
    state, _ = play(state, Draw(0, SKYRR), Blast(0, 1, 0), mark())
    assert state.boards[0] == (line(), line(), line()) and state.boards[1][0][1] == CLAWS


def test_skyrrs_blowback_cannot_target_a_horned_rat_line() -> None:
    state = position({1: [line(RAT, CLAWS), line(HS, DIRT)]})
    state, _ = play(state, Draw(0, SKYRR))
    with pytest.raises(IllegalActionError, match="Horned Rat"):
        GAME.apply(state, Blast(0, 1, 0))
    assert [a for a in GAME.legal_actions(state) if isinstance(a, Blast)] == [Blast(0, 1, 1)]


def test_skyrrs_blowback_may_burn_a_completed_line() -> None:
    # "he must target any one opponent's complete or incomplete battle line"
    state = position({0: [line(HS, DIRT)], 1: [line(HS, CLAWS, SHOTTI, HM), line(OS, SNOT)]})
    assert GAME.view(state)["players"][1]["lines"][0]["complete"] is True
    state, _ = play(state, Draw(0, SKYRR))
    assert [a for a in GAME.legal_actions(state) if isinstance(a, Blast)] == [Blast(0, 1, 0), Blast(0, 1, 1)]
    state, events = play(state, Blast(0, 1, 0), eye())
    assert kinds(events)[:2] == ["BlowbackAimed", "LineBlasted"]
    assert state.boards[1][0] == line() and state.boards[1][1][:2] == (OS, SNOT)
    assert state.discard[-5:] == (SKYRR, HS, CLAWS, SHOTTI, HM) and state.active == 1


def test_skyrrs_blowback_may_be_declined() -> None:
    state, _ = play(position({1: [line(HS, CLAWS)]}), Draw(0, SKYRR), Decline(0))
    assert SKYRR in state.discard and state.boards[1][0][1] == CLAWS and state.active == 1


def test_bilge_completing_his_line_gives_one_attack_through_his_choice() -> None:
    state = position({0: [line(HS, CLAWS, None, HM)], 1: [line(HS, DIRT)]})
    state, _ = play(state, Draw(0, BILGE), Place(0, BILGE, 0, 2))
    assert state.stack == (BilgeChoice(0, 0),)
    assert GAME.view(state)["players"][0]["lines"][0]["can_attack"] is True
    state, _ = play(state, Attack(0, 0, 1, 0), mark())
    assert not any(isinstance(step, AttackOffer) for step in state.stack)  # no second attack waits
    state, _ = play(state, Place(1, BILGE, 1, 4))  # the victor takes Bilge, without his orders
    assert state.top is None and state.active == 1


def test_idol_completing_ones_own_line_may_attack() -> None:
    state = position({0: [line(HS, CLAWS, None, HM)], 1: [line(HS, DIRT)]})
    state, _ = play(state, Draw(0, IDOL), Place(0, IDOL, 0, 2))
    assert isinstance(state.top, AttackOffer)


def test_dagromm_can_break_a_complete_line() -> None:
    state = position({0: [line(HS, DIRT, HAK, HM)]})
    state, _ = play(state, Draw(0, DAGROMM), mark())
    assert state.boards[0][0][:4] == (HS, DIRT, None, HM)
    assert GAME.view(state)["players"][0]["lines"][0]["complete"] is False


def test_a_bilge_guttrot_stolen_with_venemous_creeps_that_completes_a_line_may_attack() -> None:
    """Card reference 164-165 (Venemous Creeps): "If a player completes a battle line with a stolen
    card, he may still attack an opponent's battle line as normal." Bilge's own choice (386-403) comes
    with drawing him; stolen, he completes a line like any stolen card, and it attacks as normal."""
    state = position({0: [line(HS, CLAWS, None, HM)], 1: [line(HS, BILGE), line(OS, DIRT)]})
    state, _ = play(state, Draw(0, CREEPS), Pick(0, 1, 0, 1), Place(0, BILGE, 0, 2))
    assert state.stack == (AttackOffer(0, 0, 1),)
    attacks = [a for a in GAME.legal_actions(state) if isinstance(a, Attack)]
    assert attacks == [Attack(0, 0, 1, 0), Attack(0, 0, 1, 1)]  # 8 beats the lone Standard and 4
    state, events = play(state, Attack(0, 0, 1, 1), eye())
    assert "LineDefeated" in kinds(events) and state.active == 1  # the attack ended the turn


def test_a_bilge_guttrot_taken_from_a_false_shouter_that_completes_a_line_may_attack() -> None:
    """A card taken from a false shouter is a stolen card too (card reference 164-165: "with a stolen
    card, he may still attack"; only cards "taken as a result of an attack" may not)."""
    state = position({0: [line(HS, CLAWS, None, HM)], 1: [line(HS, BILGE), line(OS, DIRT)]})
    state, _ = play(state, Shout(1), Pick(0, 1, 0, 1), Place(0, BILGE, 0, 2))
    assert state.stack == (AttackOffer(0, 0, 1),)
    state, _ = play(state, Decline(0))
    assert state.active == 0 and state.top is None  # declined: the turn goes on to the draw
