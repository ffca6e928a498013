"""War machine crews make room (card reference p.15): "if there are not enough open spaces, he must
discard cards to make room ... Any cards that cannot be placed are discarded." """

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError
from companion.games.chaos_marauders.actions import Discard, Draw, MakeRoom, Place
from companion.games.chaos_marauders.state import PlaceStep

from .positions import GAME, HM, HS, OM, OS, kinds, line, play, position

BLOCKED = line(HS, HM, at=10)
"""A dead line: a Standard in slot 11 and a Musician in slot 12 leave no slot for any other card."""
BLOCKED_TOO = line(OS, OM, at=10)


def _cramped_board(first_line=BLOCKED):  # type: ignore[no-untyped-def]
    return [first_line, BLOCKED_TOO, BLOCKED]


def test_crew_makes_room_for_its_machine_by_discarding_own_cards() -> None:
    state = position({0: _cramped_board(), 1: [line(HS, "smasher-left", "smasher-right")]})
    state, events = play(state, Draw(0, "smasher-crew"))
    assert kinds(events).count("MachinePulled") == 2
    legal = GAME.legal_actions(state)
    rooms = [MakeRoom(0, li, 10) for li in range(3)]  # type: ignore[arg-type]
    assert [a for a in legal if isinstance(a, MakeRoom)] == rooms
    assert not any(isinstance(a, Discard) for a in legal)
    assert "make room" in GAME.prompt(state).text  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="make room"):
        GAME.apply(state, Discard(0, "smasher-crew"))  # type: ignore[arg-type]

    state, events = play(state, MakeRoom(0, 0, 10))  # type: ignore[arg-type]
    assert kinds(events) == ["RoomMade"]
    assert "discarded Hobgoblin Standard to make room for the Smasher" in events[0].text
    assert state.boards[0][0][10] is None and state.discard[-1] == HS
    assert isinstance(state.top, PlaceStep) and len(state.top.cards) == 3
    state, _ = play(
        state,
        Place(0, "smasher-left", 0, 4),  # type: ignore[arg-type]
        Place(0, "smasher-right", 0, 5),  # type: ignore[arg-type]
        Place(0, "smasher-crew", 0, 6),  # type: ignore[arg-type]
    )
    assert state.boards[0][0][4:7] == ("smasher-left", "smasher-right", "smasher-crew")
    assert state.top is None


def test_cards_of_the_same_machine_are_never_discarded_to_make_room() -> None:
    own = line("orc-regimental-standard", "bomber-left", "orc-regimental-musician", at=9)
    state = position({0: _cramped_board(own), 1: [line(HS, "bomber-right")]})
    state, _ = play(state, Draw(0, "bomber-crew"))
    spots = [(a.line, a.slot) for a in GAME.legal_actions(state) if isinstance(a, MakeRoom)]
    assert (0, 10) not in spots and (0, 9) in spots
    with pytest.raises(IllegalActionError, match="makes no room"):
        GAME.apply(state, MakeRoom(0, 0, 10))  # type: ignore[arg-type]


def test_a_crew_in_the_placers_lines_makes_room_for_a_drawn_machine_part() -> None:
    own = line("orc-regimental-standard", "knocker-crew", "orc-regimental-musician", at=9)
    state, _ = play(position({0: _cramped_board(own)}), Draw(0, "knocker-left"))
    assert {a for a in GAME.legal_actions(state) if isinstance(a, MakeRoom)} == {
        MakeRoom(0, 0, 9),  # type: ignore[arg-type]
        MakeRoom(0, 1, 10),  # type: ignore[arg-type]
        MakeRoom(0, 2, 10),  # type: ignore[arg-type]
    }


def test_a_machine_part_without_its_crew_is_discarded_when_it_has_no_room() -> None:
    state, _ = play(position({0: _cramped_board()}), Draw(0, "chucker-left"))
    legal = GAME.legal_actions(state)
    assert Discard(0, "chucker-left") in legal  # type: ignore[arg-type]
    assert not any(isinstance(a, MakeRoom) for a in legal)
    with pytest.raises(IllegalActionError, match="makes no room"):
        GAME.apply(state, MakeRoom(0, 0, 10))  # type: ignore[arg-type]
    state, events = play(state, Discard(0, "chucker-left"))  # type: ignore[arg-type]
    assert "CardDiscarded" in kinds(events) and state.boards[0] == tuple(_cramped_board())


def test_the_crewless_boneshaker_is_discarded_when_it_has_no_room() -> None:
    state, _ = play(position({0: _cramped_board()}), Draw(0, "boneshaker-left"))
    assert not any(isinstance(a, MakeRoom) for a in GAME.legal_actions(state))


def test_no_room_is_made_while_an_open_slot_takes_the_machine_card() -> None:
    state = position({0: [BLOCKED, BLOCKED_TOO, line(HS)]})
    state, _ = play(state, Draw(0, "ockee-crew"))
    assert not any(isinstance(a, MakeRoom) for a in GAME.legal_actions(state))
    with pytest.raises(IllegalActionError, match="makes no room"):
        GAME.apply(state, MakeRoom(0, 0, 10))  # type: ignore[arg-type]


def test_only_the_placer_makes_room() -> None:
    state = position({0: _cramped_board(), 1: [line(HS, "smasher-left")]})
    state, _ = play(state, Draw(0, "smasher-crew"))
    with pytest.raises(IllegalActionError, match="Grotsnik's card"):
        GAME.apply(state, MakeRoom(1, 0, 0))  # type: ignore[arg-type]


def test_a_which_slot_question_offers_other_lines_for_a_machine_card_that_must_be_placed() -> None:
    # A card of the step was laid on line 1's reader, which has no slot for the crew's Smasher part.
    # It must be placed, so it is offered lines 2 and 3, never a discard the engine would refuse.
    from companion.games.chaos_marauders.state import Pending, evolve

    state = position({0: [BLOCKED, line(OS), line()]}, pile={"smasher-crew": 0, "smasher-left": 0})
    step = PlaceStep(0, (Pending("smasher-crew"), Pending("smasher-left")), "capture", False, hint_line=0)
    state = evolve(state, stack=(step,))
    legal = GAME.legal_actions(state)
    assert not any(isinstance(a, Discard) for a in legal)
    assert {a.line for a in legal if isinstance(a, Place) and a.card == "smasher-left"} == {1, 2}
    for action in legal:
        GAME.apply(state, action)  # every choice offered is one the engine takes
