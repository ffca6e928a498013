"""Sneaky Git (card reference p.8): placement, forced discards, assassination, attacks."""

from __future__ import annotations

import pytest

from companion.engine import IllegalActionError, Roll
from companion.games.chaos_marauders.actions import (
    Attack,
    Discard,
    Draw,
    ForceDiscard,
    Pick,
    Place,
    Shout,
)
from companion.games.chaos_marauders.state import (
    AttackOffer,
    CardChoice,
    Pending,
    PlaceStep,
)

from .positions import (
    CLAWS,
    CREEPS,
    DIRT,
    GAME,
    GIT,
    HAK,
    HM,
    HS,
    OM,
    OS,
    SHOTTI,
    SNOT,
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


# -------------------------------------------------------------------------------------- Sneaky Git


def git_ready():
    return position({0: [line(HS, DIRT)], 1: [line(HS, CLAWS)]})


def test_sneaky_git_goes_in_an_opponents_line_within_three_spaces() -> None:
    state, _ = play(git_ready(), Draw(0, GIT))
    with pytest.raises(IllegalActionError, match="opponent"):
        GAME.apply(state, Place(0, GIT, 0, 3))
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, GIT, 0, 5, 1))
    state, _ = play(state, Place(0, GIT, 0, 4, 1))
    assert state.boards[1][0][4] == GIT and state.owner_at(1, 0, 4) == 0
    assert GAME.view(state)["players"][1]["lines"][0]["slots"][4]["owner"] == 0
    assert state.active == 1


def test_sneaky_git_forced_discard_ends_victims_turn() -> None:
    state, _ = play(git_ready(), Draw(0, GIT), Place(0, GIT, 0, 4, 1), Draw(1, HAK))
    assert ForceDiscard(0, 0, 4) in GAME.legal_actions(state)
    state, events = play(state, ForceDiscard(0, 0, 4))
    assert "ForcedDiscard" in kinds(events)
    assert state.boards[1][0][4] is None and HAK in state.discard and GIT in state.discard
    assert state.active == 0


def test_sneaky_git_forced_discard_after_seeing_the_placement() -> None:
    state, _ = play(git_ready(), Draw(0, GIT), Place(0, GIT, 0, 4, 1), Place(1, HAK, 1, 3))
    state, _ = play(state, ForceDiscard(0, 0, 4))
    assert state.boards[1][1][3] is None and state.active == 0


def test_sneaky_git_cannot_force_a_discard_of_an_older_card() -> None:
    state, _ = play(git_ready(), Draw(0, GIT), Place(0, GIT, 0, 4, 1), Place(1, HAK, 1, 3), Draw(1, SQUAD))
    state, _ = play(state, Place(1, SQUAD, 1, 4))
    state, _ = play(state, ForceDiscard(0, 0, 4))
    assert state.boards[1][1][3] == HAK and state.boards[1][1][4] is None


def test_sneaky_git_forces_the_discard_of_the_drawn_crew_not_the_machine_it_pulled() -> None:
    # "any card he has just taken from the draw pile": the crew, not the Smasher it pulled from Grotsnik.
    state = position(
        {1: [line(HS, DIRT, GIT)], 0: [line(HS, "smasher-left", "smasher-right")]},
        active=1,
        markers=[(1, 0, 2, 0)],
    )
    state, _ = play(state, Draw(1, "smasher-crew"), Place(1, "smasher-crew", 1, 3))
    state, _ = play(state, Place(1, "smasher-left", 1, 1))
    assert state.fresh == ("smasher-crew", 1, 3)
    state, _ = play(state, ForceDiscard(0, 0, 2))
    assert state.boards[1][1][3] is None and state.boards[1][1][1] == "smasher-left"


def test_only_the_gits_owner_may_force_the_discard() -> None:
    state, _ = play(git_ready(), Draw(0, GIT), Place(0, GIT, 0, 4, 1), Draw(1, HAK))
    with pytest.raises(IllegalActionError):
        GAME.apply(state, ForceDiscard(1, 0, 4))


def test_sneaky_git_forced_discard_breaks_a_completed_line_that_may_attack_when_completed_again() -> None:
    # Card reference: the forced discard "will make the battle line incomplete again"; rulebook, Losing
    # Cards In a Completed Battle Line: "If the player completes the battle line again in a later turn,
    # he may attack with it as normal".
    state = position(
        {0: [line(HS, SNOT)], 1: [line(HS, DIRT, GIT, HAK, HM)]}, active=1, markers=[(1, 0, 2, 0)]
    )
    assert GAME.view(state)["players"][1]["lines"][0]["complete"] is True
    state, _ = play(state, Draw(1, SQUAD))
    state, events = play(state, ForceDiscard(0, 0, 2))
    assert "ForcedDiscard" in kinds(events) and state.active == 0
    assert state.boards[1][0][:5] == (HS, DIRT, None, HAK, HM) and state.markers == ()
    assert GAME.view(state)["players"][1]["lines"][0]["complete"] is False
    state, _ = play(state, Draw(0, SHOTTI), Discard(0))
    assert state.active == 1
    state, _ = play(state, Draw(1, CLAWS), Place(1, CLAWS, 0, 2))
    assert state.top == AttackOffer(1, 0, 1)
    state, events = play(state, Attack(1, 0, 0, 0), eye(1))
    assert kinds(events) == ["AttackDeclared", "LineDefeated"]


def test_a_drawn_sneaky_git_offers_assassination_only_with_a_git_of_ones_own() -> None:
    state, _ = play(position({1: [line(HS, DIRT)]}), Draw(0, GIT))
    assert "assassinate" not in GAME.prompt(state).text
    state, _ = play(
        position({0: [line(HS, DIRT, GIT)], 1: [line(HS, DIRT)]}, markers=[(0, 0, 2, 1)]), Draw(0, GIT)
    )
    assert "assassinate a Git in your own lines" in GAME.prompt(state).text


def test_no_tribe_may_hold_a_fourth_sneaky_git() -> None:
    # Rulebook, Drawing a Fourth Duplicate: "A player cannot have four cards with the same symbol in his
    # tribe (the only exception being Blightskabb Plague Lords)"; Gits may only share a line.
    ugluk = [line(HS, GIT, GIT, DIRT), line(HS, GIT, SNOT)]
    state = position(
        {1: ugluk, 2: [line(HS, DIRT)]}, players=3, markers=[(1, 0, 1, 0), (1, 0, 2, 2), (1, 1, 1, 0)]
    )
    state, _ = play(state, Draw(0, GIT))
    with pytest.raises(IllegalActionError, match="no tribe may hold four cards with one symbol"):
        GAME.apply(state, Place(0, GIT, 0, 4, 1))
    places = [a for a in GAME.legal_actions(state) if isinstance(a, Place)]
    assert places and {a.target for a in places} == {2}


def test_a_won_sneaky_git_is_discarded_when_the_victors_tribe_holds_three() -> None:
    # A won Git must be placed if it can be; a fourth Git in the victor's tribe cannot be.
    victor = [line(HS, CLAWS, HAK, None, HM), line(OS, GIT, GIT), line(HS, GIT)]
    state = position(
        {0: victor, 1: [line(HS, GIT, SNOT)]},
        players=3,
        markers=[(0, 1, 1, 1), (0, 1, 2, 2), (0, 2, 1, 1), (1, 0, 1, 2)],
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), Roll(0, "cube", ("eye",)))
    assert isinstance(state.top, PlaceStep) and state.top.cards[0].card == GIT
    assert [a for a in GAME.legal_actions(state) if getattr(a, "card", None) == GIT] == [Discard(0, GIT)]
    state, _ = play(state, Discard(0, GIT))
    assert state.discard[-1] == GIT


def test_other_captured_cards_wait_for_the_won_sneaky_git() -> None:
    state = position(
        {0: [line(HS, CLAWS, HAK, None, HM)], 1: [line(HS, GIT, SNOT)]}, players=3, markers=[(1, 0, 1, 2)]
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), Roll(0, "cube", ("eye",)))
    assert isinstance(state.top, PlaceStep) and state.top.cards[0].card == GIT
    with pytest.raises(IllegalActionError, match="Won Sneaky Gits are placed first"):
        GAME.apply(state, Discard(0, SNOT))


def test_a_forced_discard_leaves_a_false_shouters_penalty_pending() -> None:
    state = position(
        {0: [line(HS, DIRT, GIT)], 1: [line(HS, CLAWS)], 2: [line(OS, SNOT)]},
        players=3,
        markers=[(0, 0, 2, 1)],
    )
    state, _ = play(state, Draw(0, HAK), Shout(2))
    assert isinstance(state.top, CardChoice) and state.top.ability == "take"
    state, events = play(state, ForceDiscard(1, 0, 2))
    assert "ForcedDiscard" in kinds(events)
    assert isinstance(state.top, CardChoice) and state.top.versus == 2  # the penalty is still owed
    state, _ = play(state, Pick(0, 2, 0, 1), Place(0, SNOT, 0, 3))
    assert state.boards[0][0][3] == SNOT and state.active == 1


def test_sneaky_git_assassinates_a_git_in_ones_own_line() -> None:
    state = position({0: [line(HS, DIRT, GIT)], 1: [line(HS)]}, markers=[(0, 0, 2, 1)])
    state, _ = play(state, Draw(0, GIT))
    state, events = play(state, Pick(0, 0, 0, 2))
    assert "GitAssassinated" in kinds(events)
    assert state.boards[0][0][2] is None and state.markers == () and state.active == 1


def test_sneaky_git_completing_a_line_gives_no_attack() -> None:
    state = position({0: [line(HS)], 1: [line(HS, CLAWS, HAK, None, HM), line(OS, DIRT)]})
    state, _ = play(state, Draw(0, GIT), Place(0, GIT, 0, 3, 1))
    assert state.top is None and state.active == 1


def test_sneaky_git_completing_the_third_line_ends_the_game() -> None:
    complete = line(OS, DIRT, HAK, OM)
    state = position(
        {0: [line(HS)], 1: [line(HS, CLAWS, HAK, None, HM), complete, line(HS, SQUAD, DIRT, HM)]}
    )
    state, _ = play(state, Draw(0, GIT), Place(0, GIT, 0, 3, 1))
    assert state.finished and state.first_to_complete == 1


def test_sneaky_git_in_a_defeated_line_joins_the_victor() -> None:
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM), line(OS, CLAWS)], 1: [line(HS, SNOT, GIT)]},
        players=3,
        markers=[(1, 0, 2, 2)],
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    top = state.top
    assert isinstance(top, PlaceStep) and top.cards[0].card == GIT and top.cards[0].owner == 2
    with pytest.raises(IllegalActionError, match="Sneaky Gits are placed first"):
        GAME.apply(state, Place(0, SNOT, 1, 3))
    state, _ = play(state, Place(0, GIT, 1, 3))
    assert state.owner_at(0, 1, 3) == 2


def test_sneaky_git_won_by_its_owner_is_discarded() -> None:
    state = position({0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, SNOT, GIT)]}, markers=[(1, 0, 2, 0)])
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    assert GIT in state.discard and GIT not in [p.card for p in state.top.cards]  # type: ignore[union-attr]


def test_sneaky_git_in_a_routed_line_is_discarded() -> None:
    state = position({0: [line(HS, DIRT, GIT, None, HM)], 1: [line(HS, SNOT)]}, markers=[(0, 0, 2, 1)])
    state, _ = play(state, Place(0, CLAWS, 0, 3), Attack(0, 0, 1, 0), mark())
    assert GIT in state.discard and state.markers == ()


def test_a_won_sneaky_git_must_be_placed_if_possible() -> None:
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM), line(OS, CLAWS)], 1: [line(HS, SNOT, GIT)]},
        players=3,
        markers=[(1, 0, 2, 2)],
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    with pytest.raises(IllegalActionError, match="must be placed"):
        GAME.apply(state, Discard(0, GIT))


def test_a_won_sneaky_git_goes_within_three_spaces_of_another_card() -> None:
    """Card reference 234-237: "Placing a Sneaky Git in a battle line follows the normal rules for card
    placement, except the card must be placed within three spaces of another card". The text names
    no way of arriving: a Git won in an attack is placed under the same rule as a drawn one, and the
    prompt lists exactly the slots the engine accepts."""
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM), line(OS, CLAWS)], 1: [line(HS, SNOT, GIT)]},
        players=3,
        markers=[(1, 0, 2, 2)],
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    assert isinstance(state.top, PlaceStep) and state.top.cards[0] == Pending(GIT, 2)
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, GIT, 1, 6))
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, GIT, 2, 4))  # an empty line: no card to stand near
    listed = [a for a in GAME.legal_actions(state) if getattr(a, "card", None) == GIT]
    assert listed == [Place(0, GIT, 1, 2), Place(0, GIT, 1, 3), Place(0, GIT, 1, 4)]
    with pytest.raises(IllegalActionError, match="must be placed"):
        GAME.apply(state, Discard(0, GIT))
    prompt = GAME.prompt(state)
    assert prompt is not None
    near = "(a Sneaky Git within three spaces of a card)"
    assert prompt.text == f"Grotsnik: place the captured Sneaky Git {near}"
    state, _ = play(state, Place(0, GIT, 1, 4))
    assert state.owner_at(0, 1, 4) == 2


def test_a_won_sneaky_git_with_no_card_within_three_spaces_is_discarded() -> None:
    """Card reference 234-237 ("within three spaces of another card") with rulebook p.10 ("any cards
    that cannot be placed are discarded"): no slot of the victor's lines is near a card, so the won Git
    cannot be placed and its discard is the one answer, offered and accepted."""
    state = position(
        {0: [line(HS, DIRT, HAK, None, HM)], 1: [line(HS, SNOT, GIT)]}, players=3, markers=[(1, 0, 2, 2)]
    )
    state, _ = play(state, Place(0, SQUAD, 0, 3), Attack(0, 0, 1, 0), eye())
    assert [a for a in GAME.legal_actions(state) if getattr(a, "card", None) == GIT] == [Discard(0, GIT)]
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, GIT, 1, 3))
    state, _ = play(state, Discard(0, GIT))
    assert state.discard[-1] == GIT and state.markers == ()


def test_a_sneaky_git_stolen_with_venemous_creeps_goes_within_three_spaces_of_another_card() -> None:
    """Card reference 234-237 for a stolen Git: placed in the thief's own lines "following the normal
    rules for placing cards" (Venemous Creeps), and as every Git "within three spaces of another
    card"; its control marker stays its owner's."""
    state = position({0: [line(HS, DIRT)], 1: [line(HS, GIT, SNOT)]}, players=3, markers=[(1, 0, 1, 2)])
    state, _ = play(state, Draw(0, CREEPS), Pick(0, 1, 0, 1))
    places = [a for a in GAME.legal_actions(state) if isinstance(a, Place)]
    assert places == [Place(0, GIT, 0, 2), Place(0, GIT, 0, 3), Place(0, GIT, 0, 4)]
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, GIT, 0, 5))
    with pytest.raises(IllegalActionError, match="three spaces"):
        GAME.apply(state, Place(0, GIT, 1, 3))
    state, _ = play(state, Place(0, GIT, 0, 4))
    assert state.owner_at(0, 0, 4) == 2 and state.active == 1
