"""Hand corrections of the table (control page): correct_place / correct_remove."""

from __future__ import annotations

import json

import pytest

from companion.engine import IllegalActionError, MalformedActionError
from companion.games.chaos_marauders.actions import (
    CODEC,
    CorrectPlace,
    CorrectRemove,
    Decline,
    Draw,
    Place,
)
from companion.games.chaos_marauders.simulate import invariant_violations
from companion.games.chaos_marauders.state import AttackOffer, GreenRoll, PlaceStep

from .positions import (
    CLAWS,
    CM,
    CREEPS,
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
    SHOTTI,
    SNOT,
    SQUAD,
    kinds,
    line,
    new_game,
    play,
    position,
)


def pile_count(state, card: str) -> int:
    return state.pile[GAME.facts.index[card]]


def test_correct_place_from_the_pile_conserves_cards_and_says_so() -> None:
    state = new_game()
    before = pile_count(state, PIG)
    state, events = play(state, CorrectPlace(0, PIG, 1, 3))
    assert state.boards[0][1][3] == PIG
    assert pile_count(state, PIG) == before - 1
    assert [e.text for e in events] == ["Correction: Bozlum Pigstickers put in Grotsnik's line 2, slot 4"]
    assert events[0].kind == "CardCorrected"
    assert invariant_violations(GAME, state) == []


def test_correct_place_from_the_discard_pile_takes_the_topmost_copy() -> None:
    state = position(discard=(PIG, SNOT, PIG, DIRT))
    state, _ = play(state, CorrectPlace(1, PIG, 0, 2, source="discard"))
    assert state.boards[1][0][2] == PIG
    assert state.discard[-3:] == (PIG, SNOT, DIRT)
    with pytest.raises(IllegalActionError, match="No Hak Veinthrob's Volunteers is in the discard pile"):
        GAME.apply(state, CorrectPlace(1, HAK, 0, 4, source="discard"))


def test_correct_remove_moves_the_card_to_the_discard_pile() -> None:
    state = position({1: [line(HS, DIRT, HAK)]})
    state, events = play(state, CorrectRemove(1, 0, 1))
    assert state.boards[1][0][:3] == (HS, None, HAK)
    assert state.discard[-1] == DIRT
    assert (
        events[0].text
        == "Correction: Grivziz Dirtballs taken from Ugluk's line 1, slot 2 to the discard pile"
    )


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (CorrectPlace(0, HM, 1, 0), "only a Standard may stand at the left end"),
        (CorrectPlace(0, SNOT, 0, 11), "only a Musician may stand at the right end"),
        (CorrectPlace(0, SNOT, 0, 1), "slot 2 already holds Grivziz Dirtballs"),
        (CorrectPlace(0, OS, 1, 0), "No Orc Regimental Standard is left in the draw pile"),
        (CorrectPlace(0, CREEPS, 1, 4), "Venemous Creeps is never laid in a battle line"),
        (CorrectPlace(0, GIT, 1, 4), "Say which player owns this Sneaky Git"),
        (CorrectPlace(0, GIT, 1, 4, owner=0), "A Sneaky Git goes in an opponent's battle line"),
        (CorrectPlace(0, SNOT, 1, 4, owner=1), "Only a Sneaky Git has an owner"),
        (CorrectRemove(0, 2, 5), "Grotsnik's line 3, slot 6 holds no card"),
    ],
)
def test_illegal_corrections_are_refused_with_a_message(action, message) -> None:
    state = position({0: [line(HS, DIRT, HAK)]}, pile={SNOT: 2, HM: 1, CREEPS: 1, GIT: 1})
    with pytest.raises(IllegalActionError, match=message):
        GAME.apply(state, action)


def test_a_correction_names_the_line_in_its_refusal() -> None:
    state = position({0: [line(HS, DIRT, HAK)]})
    with pytest.raises(IllegalActionError) as err:
        GAME.apply(state, CorrectPlace(0, OS, 0, 5))
    assert str(err.value) == (
        "Orc Regimental Standard cannot go in Grotsnik's line 1, slot 6: "
        "this battle line already has a Standard"
    )


def test_a_correction_cannot_give_a_tribe_a_fourth_sneaky_git() -> None:
    state = position(
        {1: [line(HS, GIT, GIT), line(OS, GIT)]},
        players=3,
        markers=[(1, 0, 1, 0), (1, 0, 2, 2), (1, 1, 1, 0)],
    )
    with pytest.raises(IllegalActionError, match="a tribe cannot hold four cards with one symbol"):
        GAME.apply(state, CorrectPlace(1, GIT, 2, 3, owner=0))


def test_a_correction_cannot_undo_the_three_lines_that_ended_the_game() -> None:
    # Grotsnik completed three lines; the Idol's rolls are pending. A correction breaking one of his
    # lines is refused (undo is the way back), so the ending and its score stay consistent.
    ending = [line(HS, DIRT, HAK, None, HM), line(OS, SNOT, SQUAD, OM), line(HS, CLAWS, IDOL, DIRT, HM)]
    state, _ = play(position({0: ending, 1: [line(HS, CLAWS)]}, pile={SQUAD: 1}), Place(0, SQUAD, 0, 3))
    assert state.first_to_complete == 0 and not state.finished
    with pytest.raises(IllegalActionError, match="completed three battle lines and ended the game"):
        GAME.apply(state, CorrectRemove(0, 1, 1))
    play(state, CorrectRemove(1, 0, 1))  # another player's line may still be corrected


def test_malformed_corrections() -> None:
    state = new_game()
    with pytest.raises(MalformedActionError):
        GAME.apply(state, CorrectPlace(0, "no-such-card", 0, 3))
    with pytest.raises(MalformedActionError):
        GAME.apply(state, CorrectRemove(0, 0, 12))
    with pytest.raises(MalformedActionError):
        GAME.apply(state, CorrectPlace(0, GIT, 0, 3, owner=5))


def test_corrections_change_neither_the_turn_nor_the_prompt() -> None:
    state = position({0: [line(HS, DIRT)], 1: [line(OS, SNOT)]}, active=1)
    state, _ = play(state, Draw(1, HAK))  # Ugluk's drawn card waits to be placed
    prompt = GAME.prompt(state)
    stack = state.stack
    for action in (CorrectPlace(0, HAK, 0, 2), CorrectRemove(1, 0, 1), CorrectPlace(1, SQUAD, 2, 4)):
        state, events = play(state, action)
        now = GAME.prompt(state)
        assert state.active == 1 and state.stack == stack
        assert (now.kind, now.players, now.text) == (prompt.kind, prompt.players, prompt.text)
        assert kinds(events) == ["CardCorrected"]
    state, _ = play(state, Place(1, HAK, 0, 3))  # the turn goes on as before
    assert state.boards[1][0][3] == HAK


def test_corrections_keep_a_fresh_card_fresh() -> None:
    state = position({0: [line(HS, DIRT)]})
    state, _ = play(state, Draw(0, HAK))
    fresh = state.fresh
    state, _ = play(state, CorrectPlace(1, SNOT, 0, 3))
    assert state.fresh == fresh


def test_corrections_are_never_legal_actions() -> None:
    state = position({0: [line(HS, DIRT, HAK)]})
    assert not any(a.kind.startswith("correct") for a in GAME.legal_actions(state))
    assert not any(c.action.kind.startswith("correct") for c in GAME.prompt(state).choices)


def test_corrections_round_trip_through_json() -> None:
    for action in (CorrectPlace(0, GIT, 1, 4, source="discard", owner=1), CorrectRemove(1, 2, 0)):
        assert CODEC.parse(json.loads(json.dumps(CODEC.format(action)))) == action
    assert CODEC.parse(
        {"kind": "correct_place", "player": 0, "card": PIG, "line": 1, "slot": 3}
    ) == CorrectPlace(0, PIG, 1, 3, "pile")
    with pytest.raises(MalformedActionError, match="is not one of"):
        CODEC.parse(
            {"kind": "correct_place", "player": 0, "card": PIG, "line": 1, "slot": 3, "source": "hand"}
        )


def test_a_corrected_duplicate_is_a_cheatin_git() -> None:
    state = position({0: [line(HS, DIRT, HAK)]})
    state, events = play(state, CorrectPlace(0, DIRT, 0, 3))
    assert kinds(events) == ["CardCorrected", "CheatinGit"]
    assert state.boards[0][0][:4] == (HS, None, HAK, None)
    assert state.discard[-2:] == (DIRT, DIRT)
    assert invariant_violations(GAME, state) == []


def test_a_corrected_git_keeps_its_owner_and_loses_the_marker_when_removed() -> None:
    state = position({1: [line(OS, SNOT)]})
    state, _ = play(state, CorrectPlace(1, GIT, 0, 3, owner=0))
    assert state.owner_at(1, 0, 3) == 0
    state, _ = play(state, CorrectRemove(1, 0, 3))
    assert state.markers == () and state.discard[-1] == GIT


def test_removing_from_a_complete_line_lets_it_attack_when_completed_again() -> None:
    # Grotsnik's complete line loses a card by hand; completing it again in his turn offers an attack.
    state = position({0: [line(HS, DIRT, HAK, SQUAD, HM)], 1: [line(HS, CLAWS, SNOT, SHOTTI)]})
    assert GAME.view(state)["players"][0]["lines"][0]["complete"]
    state, _ = play(state, CorrectRemove(0, 0, 3))
    assert not GAME.view(state)["players"][0]["lines"][0]["complete"]
    assert state.top is None  # the correction offers no attack
    state, _ = play(state, Place(0, SQUAD, 0, 3))
    assert isinstance(state.top, AttackOffer) and state.top.line == 0
    state, _ = play(state, Decline(0))


def test_a_correction_completing_a_line_offers_no_attack() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, CLAWS, SNOT, SHOTTI)]})
    state, _ = play(state, CorrectPlace(0, SQUAD, 0, 3))
    assert GAME.view(state)["players"][0]["lines"][0]["complete"] and state.top is None


def test_the_slot_kept_for_a_git_under_odlugg_is_not_filled_by_hand() -> None:
    state = position(
        {1: [line(OS, SNOT)]}, stack=(GreenRoll(0, "git-odlugg", GIT, 0, 1, 0, 3),), turn_ends=True
    )
    with pytest.raises(IllegalActionError, match="kept for the Sneaky Git"):
        GAME.apply(state, CorrectPlace(1, HAK, 0, 3))


def test_a_correction_completing_three_lines_ends_the_game() -> None:
    # The rules end the game the moment a player has three complete lines, however they came about.
    lines = [line(HS, DIRT, HAK, SQUAD, HM), line(OS, DIRT, HAK, SQUAD, OM), line(HS, SNOT, CLAWS, None, HM)]
    state = position({0: lines}, active=1)
    state, events = play(state, CorrectPlace(0, SQUAD, 2, 3))
    assert "GameEnding" in kinds(events) and state.first_to_complete == 0


def test_place_step_untouched_by_a_removal_elsewhere() -> None:
    state = position({1: [line(OS, SNOT, HAK)]}, active=0)
    state, _ = play(state, Draw(0, DIRT))
    assert isinstance(state.top, PlaceStep)
    state, _ = play(state, CorrectRemove(1, 0, 2))
    assert isinstance(state.top, PlaceStep) and state.top.cards[0].card == DIRT


def test_the_view_lists_the_draw_pile_and_discard_pile_cards() -> None:
    state = position({0: [line(HS, DIRT, HAK)]}, pile={SNOT: 2, PIG: 1}, discard=(GIT,))
    view = GAME.view(state)
    assert view["draw_pile_cards"] == {SNOT: 2, PIG: 1}
    assert view["draw_pile"] == 3
    assert view["discard_pile"]["cards"][GIT] == 4  # all four copies: none is in the pile
    assert sum(view["discard_pile"]["cards"].values()) == view["discard_pile"]["count"]


def test_corrections_do_not_give_the_chaos_marauders_away_on_the_tv() -> None:
    state = position({0: [line(HS, DIRT, CM)]}, marauders_at=(0, 2))
    with pytest.raises(IllegalActionError, match=r"slot 3 already holds a card$"):
        GAME.apply(state, CorrectPlace(0, HAK, 0, 2))
    state, events = play(state, CorrectRemove(0, 0, 2))
    assert events[0].text == "Correction: a card taken from Grotsnik's line 1, slot 3 to the discard pile"
    assert "card" not in events[0].data and state.marauders_at is None
    state, events = play(state, CorrectPlace(1, CM, 1, 4, source="discard"))
    assert events[0].text == "Correction: a card put in Ugluk's line 2, slot 5"
