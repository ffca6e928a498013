"""Battle line rules: placement, completeness, war machines and Attack Value."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.games.chaos_marauders.catalog import LINE_SLOTS, load_catalog
from companion.games.chaos_marauders.lines import (
    EMPTY_LINE,
    Line,
    attack_value,
    card_count,
    has_complete_war_machine,
    is_complete,
    legal_slots,
    line_error,
    placed,
    placement_error,
    plague_lord_count,
    war_machines,
    within_reach,
)

from .strategies import complete_lines, legal_lines

CATALOG = load_catalog()


def error(line: Line, slot: int, card: str, **options: object) -> str | None:
    return placement_error(line, slot, card, CATALOG, **options)  # type: ignore[arg-type]


def line_of(cards: dict[int, str]) -> Line:
    return tuple(cards.get(slot) for slot in range(LINE_SLOTS))


def test_two_cards_with_same_symbol_cannot_share_a_line() -> None:
    line = line_of({3: "grivziz-dirtballs"})
    assert error(line, 5, "grivziz-dirtballs", line_number=2) == (
        "Line 2 already holds a card with this symbol"
    )
    assert error(line, 5, "claws-of-malal") is None


def test_plague_lords_may_share_a_line() -> None:
    line = line_of({3: "blightskabb-plague-lords", 4: "blightskabb-plague-lords"})
    assert error(line, 5, "blightskabb-plague-lords") is None
    assert line_error(placed(line, 5, "blightskabb-plague-lords"), CATALOG) is None


def test_several_sneaky_gits_may_share_a_line() -> None:
    line = line_of({3: "sneaky-git"})
    assert error(line, 4, "sneaky-git") is None


def test_ignored_symbols_neither_block_nor_are_blocked() -> None:
    line = line_of({3: "grivziz-dirtballs"})
    assert error(line, 5, "grivziz-dirtballs", ignore_symbols_of={"grivziz-dirtballs"}) is None


def test_a_standard_needs_nothing_to_its_left() -> None:
    line = line_of({3: "claws-of-malal"})
    assert error(line, 4, "hobgoblin-standard") == "A Standard must have no card to its left"
    assert error(line, 2, "hobgoblin-standard") is None


def test_a_musician_needs_nothing_to_its_right() -> None:
    line = line_of({3: "claws-of-malal"})
    assert error(line, 2, "orc-regimental-musician") == ("A Musician must have no card to its right")
    assert error(line, 11, "orc-regimental-musician") is None


def test_no_card_goes_left_of_a_standard_or_right_of_a_musician() -> None:
    line = line_of({2: "hobgoblin-standard", 8: "hobgoblin-musician"})
    assert error(line, 1, "claws-of-malal") == "No card may go to the left of the Standard"
    assert error(line, 9, "claws-of-malal") == "No card may go to the right of the Musician"
    assert legal_slots(line, "claws-of-malal", CATALOG) == (3, 4, 5, 6, 7)


def test_only_one_standard_and_one_musician_per_line() -> None:
    line = line_of({2: "hobgoblin-standard", 8: "hobgoblin-musician"})
    assert error(line, 0, "orc-regimental-standard", line_number=1) == ("Line 1 already has a Standard")
    assert error(line, 11, "orc-regimental-musician") == "This line already has a Musician"


def test_only_a_standard_takes_the_left_end_and_only_a_musician_the_right_end() -> None:
    assert error(EMPTY_LINE, 0, "claws-of-malal") == ("Only a Standard may take the left end of a line")
    assert error(EMPTY_LINE, 11, "hobgoblin-standard") == ("Only a Musician may take the right end of a line")
    assert error(EMPTY_LINE, 0, "horned-rat-standard") is None


def test_a_line_has_twelve_slots() -> None:
    assert error(EMPTY_LINE, 12, "claws-of-malal") == (
        "There is no slot 13 on the play-sheet (slots 1 to 12)"
    )
    assert line_error((None,) * 13, CATALOG) == "A battle line has 12 slots, not 13"


def test_a_taken_slot_cannot_take_another_card() -> None:
    line = line_of({4: "claws-of-malal"})
    assert error(line, 4, "hak-veinthrobs-volunteers") == "This line already has a card in slot 5"


@pytest.mark.parametrize(
    ("cards", "problem"),
    [
        (
            {1: "claws-of-malal", 2: "claws-of-malal"},
            "Two cards with the symbol of Claws of Malal share the line",
        ),
        ({1: "hobgoblin-standard", 2: "orc-regimental-standard"}, "The line has two Standards"),
        ({0: "claws-of-malal"}, "Only a Standard may take the left end of a line"),
        ({11: "claws-of-malal"}, "Only a Musician may take the right end of a line"),
        ({1: "claws-of-malal", 2: "hobgoblin-standard"}, "A card lies to the left of the Standard"),
        ({5: "hobgoblin-musician", 6: "claws-of-malal"}, "A card lies to the right of the Musician"),
        ({5: "no-such-card"}, "Unknown card id 'no-such-card'"),
    ],
)
def test_an_illegal_line_is_reported(cards: dict[int, str], problem: str) -> None:
    assert (line_error(line_of(cards), CATALOG) or "").startswith(problem)


COMPLETE_FIVE = line_of(
    {
        3: "hobgoblin-standard",
        4: "claws-of-malal",
        5: "crummy-snotling-slaves",
        6: "grivziz-dirtballs",
        7: "hobgoblin-musician",
    }
)


def test_a_complete_line_runs_from_a_standard_to_a_musician_without_gaps() -> None:
    assert is_complete(COMPLETE_FIVE, CATALOG)
    assert card_count(COMPLETE_FIVE) == 5
    assert not is_complete(placed(COMPLETE_FIVE, 5, None), CATALOG)


def test_a_complete_line_has_at_least_four_cards() -> None:
    three = line_of({3: "hobgoblin-standard", 4: "claws-of-malal", 5: "hobgoblin-musician"})
    four = line_of({3: "hobgoblin-standard", 4: "claws-of-malal", 5: "shotti", 6: "hobgoblin-musician"})
    assert not is_complete(three, CATALOG)
    assert is_complete(four, CATALOG)


def test_a_line_without_standard_or_musician_is_not_complete() -> None:
    assert not is_complete(placed(COMPLETE_FIVE, 7, "shotti"), CATALOG)
    assert not is_complete(placed(COMPLETE_FIVE, 3, "shotti"), CATALOG)


def test_a_crewed_war_machine_is_a_complete_set_of_three() -> None:
    line = line_of({4: "smasher-left", 5: "smasher-right", 6: "smasher-crew"})
    (machine,) = war_machines(line, CATALOG)
    assert (machine.machine, machine.slots, machine.complete, machine.vp) == ("Smasher", (4, 5, 6), True, 70)
    assert has_complete_war_machine(line, CATALOG)


def test_machine_parts_without_their_crew_are_a_set_of_two() -> None:
    line = line_of({4: "bomber-left", 5: "bomber-right", 7: "bomber-crew"})
    (machine,) = war_machines(line, CATALOG)
    assert (machine.slots, machine.complete, machine.vp) == ((4, 5), False, 60)
    assert not has_complete_war_machine(line, CATALOG)


def test_the_boneshaker_is_complete_with_its_two_cards() -> None:
    line = line_of({4: "boneshaker-left", 5: "boneshaker-right"})
    (machine,) = war_machines(line, CATALOG)
    assert (machine.complete, machine.vp) == (True, 60)
    assert attack_value(line, CATALOG, 0) == CATALOG["boneshaker-left"].attack


@pytest.mark.parametrize(
    "cards",
    [
        {4: "smasher-right", 5: "smasher-left", 6: "smasher-crew"},
        {4: "smasher-left", 6: "smasher-right", 7: "smasher-crew"},
        {4: "smasher-crew", 5: "smasher-left", 6: "smasher-right"},
        {4: "smasher-left", 5: "bomber-right"},
    ],
)
def test_misordered_or_mismatched_machine_cards_form_no_set(cards: dict[int, str]) -> None:
    sets = war_machines(line_of(cards), CATALOG)
    assert all(machine.complete is False for machine in sets)
    assert all(machine.slots != (4, 5, 6) for machine in sets)


def test_a_complete_war_machine_counts_its_attack_rating_once() -> None:
    line = line_of({4: "smasher-left", 5: "smasher-right", 6: "smasher-crew", 7: "claws-of-malal"})
    assert attack_value(line, CATALOG, 0) == 10 + CATALOG["claws-of-malal"].attack


def test_loose_war_machine_cards_have_no_attack_rating() -> None:
    line = line_of({4: "smasher-left", 5: "smasher-right", 8: "smasher-crew"})
    assert attack_value(line, CATALOG, 0) == 0


def test_attack_value_sums_the_cards_attack_ratings() -> None:
    expected = CATALOG["claws-of-malal"].attack + CATALOG["grivziz-dirtballs"].attack
    assert attack_value(COMPLETE_FIVE, CATALOG, 0) == expected


@pytest.mark.parametrize(("in_tribe", "each"), [(1, 2), (2, 4), (3, 6), (4, 8)])
def test_plague_lords_rate_two_per_plague_lord_in_the_tribe(in_tribe: int, each: int) -> None:
    line = line_of({4: "blightskabb-plague-lords"})
    assert attack_value(line, CATALOG, in_tribe) == each


def test_plague_lords_are_counted_across_the_tribe() -> None:
    lines = (line_of({4: "blightskabb-plague-lords"}), line_of({2: "blightskabb-plague-lords"}), EMPTY_LINE)
    assert plague_lord_count(lines, CATALOG) == 2


def test_a_tribe_count_below_the_line_count_is_refused() -> None:
    line = line_of({4: "blightskabb-plague-lords", 5: "blightskabb-plague-lords"})
    with pytest.raises(ValueError, match="Plague Lords"):
        attack_value(line, CATALOG, 1)


def test_a_git_or_idol_goes_within_three_spaces_of_another_card() -> None:
    line = line_of({5: "claws-of-malal"})
    assert within_reach(line, 2) and within_reach(line, 8)
    assert not within_reach(line, 1) and not within_reach(line, 9)
    assert not within_reach(EMPTY_LINE, 5)


# ---- properties -------------------------------------------------------------------------------

PLACEABLE = [card.id for card in CATALOG]


@given(legal_lines())
def test_a_line_built_by_legal_placements_is_a_legal_line(line: Line) -> None:
    assert line_error(line, CATALOG) is None


@given(legal_lines())
def test_a_complete_line_is_gapless_between_its_standard_and_musician(line: Line) -> None:
    cards = [slot for slot, card in enumerate(line) if card is not None]
    if is_complete(line, CATALOG):
        assert 4 <= len(cards) <= 12
        assert cards == list(range(cards[0], cards[-1] + 1))
        assert CATALOG.card(line[cards[0]]).role.value == "standard"  # type: ignore[arg-type,union-attr]
        assert CATALOG.card(line[cards[-1]]).role.value == "musician"  # type: ignore[arg-type,union-attr]


@given(legal_lines(), st.sampled_from(PLACEABLE))
def test_legal_slots_are_exactly_the_slots_without_a_placement_error(line: Line, card: str) -> None:
    slots = legal_slots(line, card, CATALOG)
    assert slots == tuple(slot for slot in range(LINE_SLOTS) if error(line, slot, card) is None)
    for slot in slots:
        assert line_error(placed(line, slot, card), CATALOG) is None


@given(complete_lines())
def test_a_standard_then_distinct_cards_then_a_musician_is_a_complete_legal_line(line: Line) -> None:
    assert line_error(line, CATALOG) is None
    assert is_complete(line, CATALOG)
    filled = [slot for slot, card in enumerate(line) if card is not None]
    assert not is_complete(placed(line, filled[1], None), CATALOG)
