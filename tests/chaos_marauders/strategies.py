"""Hypothesis strategies for battle lines, shared by the line and scoring tests."""

from __future__ import annotations

from hypothesis import strategies as st

from companion.games.chaos_marauders.cards import Role
from companion.games.chaos_marauders.catalog import LINE_SLOTS, load_catalog
from companion.games.chaos_marauders.lines import EMPTY_LINE, Line, placed, placement_error

CATALOG = load_catalog()
ALL_IDS = [card.id for card in CATALOG]
STANDARDS = [card.id for card in CATALOG if card.role is Role.STANDARD]
MUSICIANS = [card.id for card in CATALOG if card.role is Role.MUSICIAN]
# Middle cards with distinct symbols (or unique), so any selection of them is a legal line.
MIDDLE = [card.id for card in CATALOG if card.role is None and not card.line_duplicates]


@st.composite
def legal_lines(draw: st.DrawFn) -> Line:
    """A line built by placing random cards only where placement_error allows them."""
    line = EMPTY_LINE
    for _ in range(draw(st.integers(0, 40))):
        card = draw(st.sampled_from(ALL_IDS))
        slot = draw(st.integers(0, LINE_SLOTS - 1))
        if placement_error(line, slot, card, CATALOG) is None:
            line = placed(line, slot, card)
    return line


@st.composite
def complete_lines(draw: st.DrawFn) -> Line:
    """A complete line of 4 to 12 cards: a Standard, distinct middle cards, a Musician."""
    length = draw(st.integers(4, LINE_SLOTS))
    start = draw(st.integers(0, LINE_SLOTS - length))
    middle = draw(st.lists(st.sampled_from(MIDDLE), min_size=length - 2, max_size=length - 2, unique=True))
    cards = [draw(st.sampled_from(STANDARDS)), *middle, draw(st.sampled_from(MUSICIANS))]
    return tuple(
        cards[slot - start] if start <= slot < start + length else None for slot in range(LINE_SLOTS)
    )
