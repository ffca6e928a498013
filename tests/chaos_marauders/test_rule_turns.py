"""Placement restrictions and every way a turn ends (rulebook pp.6-8)."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError
from companion.games.chaos_marauders.actions import Discard, Draw, Place
from companion.games.chaos_marauders.state import PlaceStep

from .positions import (
    CLAWS,
    DIRT,
    GAME,
    HAK,
    HM,
    HS,
    OM,
    OS,
    PLAGUE,
    SNOT,
    SQUAD,
    kinds,
    line,
    play,
    position,
)


def test_standard_only_at_left_end() -> None:
    state = position()
    with pytest.raises(IllegalActionError, match="only a Standard may stand at the left end"):
        GAME.apply(state, Place(0, HAK, 0, 0))
    play(state, Place(0, HS, 0, 0))


def test_musician_only_at_right_end() -> None:
    with pytest.raises(IllegalActionError, match="only a Musician may stand at the right end"):
        GAME.apply(position(), Place(0, HAK, 0, 11))
    play(position(), Place(0, HM, 0, 11))


def test_no_card_left_of_a_standard_or_right_of_a_musician() -> None:
    state = position({0: [line(HS, DIRT, None, HM, at=4)]})
    with pytest.raises(IllegalActionError, match="left of a Standard"):
        GAME.apply(state, Place(0, HAK, 0, 3))
    with pytest.raises(IllegalActionError, match="right of a Musician"):
        GAME.apply(state, Place(0, HAK, 0, 8))
    play(state, Place(0, HAK, 0, 6))


def test_one_standard_and_one_musician_per_line() -> None:
    state = position({0: [line(HS, DIRT, at=2)]})
    with pytest.raises(IllegalActionError, match="already has a Standard"):
        GAME.apply(state, Place(0, OS, 0, 1))


def test_two_cards_with_the_same_symbol_may_not_share_a_line() -> None:
    state = position({0: [line(HS, DIRT)]})
    with pytest.raises(IllegalActionError, match="already holds a card with this symbol"):
        GAME.apply(state, Place(0, DIRT, 0, 5))


def test_plague_lords_may_share_a_line() -> None:
    state = position({0: [line(HS, PLAGUE)]})
    state, _ = play(state, Place(0, PLAGUE, 0, 2))
    assert state.boards[0][0][:3] == (HS, PLAGUE, PLAGUE)


def test_a_plain_card_does_not_end_the_turn() -> None:
    state, _ = play(position(), Place(0, HAK, 0, 3))
    assert state.active == 0 and GAME.prompt(state).kind == "draw"


def test_duplicate_draw_is_placed_in_another_line_then_the_turn_ends() -> None:
    state = position({0: [line(HS, DIRT)]})
    state, events = play(state, Draw(0, DIRT))
    assert "DuplicateDrawn" in kinds(events)
    state, events = play(state, Place(0, DIRT, 1, 3))
    assert state.active == 1 and "TurnStarted" in kinds(events)


def test_duplicate_plague_lord_still_ends_the_turn() -> None:
    state = position({0: [line(HS, PLAGUE)]})
    state, _ = play(state, Place(0, PLAGUE, 0, 2))
    assert state.active == 1


def test_fourth_duplicate_must_be_discarded_and_ends_the_turn() -> None:
    state = position({0: [line(HS, DIRT), line(HS, DIRT), line(HS, DIRT)]})
    state, _ = play(state, Draw(0, DIRT))
    assert [c.action.kind for c in GAME.prompt(state).choices] == ["discard"]
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Place(0, DIRT, 0, 5))
    state, _ = play(state, Discard(0))
    assert state.active == 1 and state.discard[-1] == DIRT


def test_fourth_standard_is_discarded_and_ends_the_turn() -> None:
    state = position({0: [line(HS), line(OS), line(HS)]})
    state, _ = play(state, Draw(0, OS))
    assert [c.action.kind for c in GAME.prompt(state).choices] == ["discard"]
    state, _ = play(state, Discard(0))
    assert state.active == 1


def test_fourth_musician_is_discarded_and_ends_the_turn() -> None:
    state = position({0: [line(HM, at=11), line(OM, at=11), line(HM, at=11)]})
    state, _ = play(state, Draw(0, OM), Discard(0))
    assert state.active == 1


def test_declining_to_place_a_drawn_card_ends_the_turn() -> None:
    state, _ = play(position(), Draw(0, SNOT), Discard(0, SNOT))
    assert state.active == 1 and state.discard[-1] == SNOT


def test_war_machine_card_must_be_placed_if_able() -> None:
    state, _ = play(position(), Draw(0, "smasher-left"))
    with pytest.raises(IllegalActionError, match="must be placed when it can be"):
        GAME.apply(state, Discard(0))
    assert all(c.action.kind == "place" for c in GAME.prompt(state).choices)


def test_green_card_in_the_first_round_is_discarded_unresolved_and_the_turn_goes_on() -> None:
    state = position(round=1)
    state, events = play(state, Draw(0, "skyrrs-blowback"))
    assert "GreenDiscarded" in kinds(events)
    assert state.active == 0 and state.top is None and state.discard[-1] == "skyrrs-blowback"


def test_a_green_card_laid_on_a_line_in_the_first_round_is_refused_with_the_reason() -> None:
    with pytest.raises(IllegalActionError, match="First round: Horned Rat Standard is discarded unresolved"):
        GAME.apply(position(round=1), Place(0, "horned-rat-standard", 1, 0))


def test_green_card_ends_the_turn_once_resolved() -> None:
    state = position({1: [line(HS, DIRT)]}, round=2)
    state, _ = play(state, Draw(0, "horned-rat-standard"), Place(0, "horned-rat-standard", 0, 0))
    assert state.active == 1


def test_turns_pass_clockwise_and_rounds_count() -> None:
    state = position(players=3, active=2, round=1)
    state, _ = play(state, Draw(2, SNOT), Discard(2))
    assert state.active == 0 and state.round == 2


def test_empty_draw_pile_turns_the_discard_pile_over() -> None:
    state = position(pile={HAK: 1}, discard=[SQUAD])
    state, events = play(state, Place(0, HAK, 0, 4))
    assert "DiscardReshuffled" in kinds(events)
    assert state.discard == () and sum(state.pile) == 109  # all but the Volunteers just placed
    assert GAME.prompt(state).kind == "draw"


def test_legal_draws_are_one_per_card_title_in_the_pile() -> None:
    state = position(pile={HAK: 3, CLAWS: 1})
    draws = [a for a in GAME.legal_actions(state) if isinstance(a, Draw)]
    assert sorted(a.card for a in draws) == sorted([HAK, CLAWS])


def test_pending_card_prompt_lists_every_legal_slot() -> None:
    state = position({0: [line(HS, DIRT, None, HM, at=4)]})
    state, _ = play(state, Draw(0, HAK))
    assert isinstance(state.top, PlaceStep)
    places = {(c.action.line, c.action.slot) for c in GAME.prompt(state).choices if c.action.kind == "place"}
    assert (0, 6) in places and (0, 3) not in places and (0, 9) not in places
    assert len([p for p in places if p[0] == 1]) == 10  # slots 2..11 of an empty line


def test_a_card_no_slot_takes_is_prompted_as_a_discard_that_ends_the_turn() -> None:
    # Rulebook, Drawing a Fourth Duplicate: "the card must be discarded and his turn ends".
    state = position({0: [line(OS, DIRT), line(OS, HAK), line(OS, SQUAD)]})
    state, _ = play(state, Draw(0, HS))
    prompt = GAME.prompt(state)
    assert prompt.text == "Grotsnik: Hobgoblin Standard cannot be placed: discard it (your turn ends)"
    assert [c.action for c in prompt.choices] == [Discard(0, HS)]
    state, _ = play(state, Discard(0, HS))
    assert state.active == 1


def test_cheatin_git_discards_both_illegal_duplicates_when_found() -> None:
    # A hand correction left two Grivziz Dirtballs in one line: the next input discovers them.
    from companion.games.chaos_marauders.state import EMPTY_LINE

    clean = position({0: [line(HS, DIRT, HAK)]})
    board = (line(HS, DIRT, HAK, DIRT), EMPTY_LINE, EMPTY_LINE)
    counts = list(clean.pile)
    counts[GAME.facts.index[DIRT]] -= 1
    from companion.games.chaos_marauders.state import evolve

    dirty = evolve(clean, boards=(board, clean.boards[1]), pile=tuple(counts))
    state, events = play(dirty, Draw(0, SQUAD))
    assert "CheatinGit" in kinds(events)
    assert state.boards[0][0][:4] == (HS, None, HAK, None)
    assert state.discard.count(DIRT) == 2
