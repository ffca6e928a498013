"""Battle-line questions the turn engine asks on its hot path: where may this card go, is this line
complete, what is its Attack Value.

These are the rulebook's placement rules (p.7) and completion rule (p.9) over one line of twelve slots:
- no two cards with the same symbol in a line (Plague Lords and Sneaky Gits excepted);
- at most one Standard and one Musician per line; nothing left of a Standard or right of a Musician;
  only a Standard on the leftmost slot and only a Musician on the rightmost one;
- complete: a Standard, a Musician to its right, at least four cards, no gap between them.
"""

from __future__ import annotations

from companion.games.chaos_marauders import lines
from companion.games.chaos_marauders.cards import CardId, Role
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.state import SLOTS, Board, Cells

NEAR = 3
"""Sneaky Git and an Idol given to an opponent go within three spaces of another card."""


def slot_error(f: Facts, cells: Cells, card: CardId, slot: int) -> str | None:
    """Why ``card`` may not go on ``slot`` of this line (a sentence), or None when it may."""
    if cells[slot] is not None:
        return f"slot {slot + 1} already holds a card"
    role = f.role[card]
    if slot == 0 and role is not Role.STANDARD:
        return "only a Standard may stand at the left end of a battle line"
    if slot == SLOTS - 1 and role is not Role.MUSICIAN:
        return "only a Musician may stand at the right end of a battle line"
    symbol = f.symbol[card]
    dup_ok = f.line_duplicates[card]
    for i, other in enumerate(cells):
        if other is None:
            continue
        other_role = f.role[other]
        if other_role is Role.STANDARD:
            if role is Role.STANDARD:
                return "this battle line already has a Standard"
            if i > slot:
                return "no card may stand to the left of a Standard"
        elif other_role is Role.MUSICIAN:
            if role is Role.MUSICIAN:
                return "this battle line already has a Musician"
            if i < slot:
                return "no card may stand to the right of a Musician"
        if role is Role.STANDARD and i < slot:
            return "a Standard must stand left of every card in its line"
        if role is Role.MUSICIAN and i > slot:
            return "a Musician must stand right of every card in its line"
        if symbol is not None and not dup_ok and f.symbol[other] == symbol:
            return "this battle line already holds a card with this symbol"
    return None


def legal_slots(f: Facts, cells: Cells, card: CardId, near: bool = False) -> list[int]:
    """Every slot of this line ``card`` may take; ``near``: within three spaces of another card.

    One pass over the line (the hot path of ``legal_actions``), agreeing with :func:`slot_error`.
    """
    role = f.role[card]
    symbol = f.symbol[card]
    dup_ok = f.line_duplicates[card]
    lo = 0 if role is Role.STANDARD else 1
    hi = SLOTS - 1 if role is Role.MUSICIAN else SLOTS - 2
    first = last = -1
    for i, other in enumerate(cells):
        if other is None:
            continue
        if first < 0:
            first = i
        last = i
        other_role = f.role[other]
        if other_role is Role.STANDARD:
            if role is Role.STANDARD:
                return []
            lo = max(lo, i + 1)
        elif other_role is Role.MUSICIAN:
            if role is Role.MUSICIAN:
                return []
            hi = min(hi, i - 1)
        if symbol is not None and not dup_ok and f.symbol[other] == symbol:
            return []
    if first >= 0:
        if role is Role.STANDARD:
            hi = min(hi, first - 1)
        elif role is Role.MUSICIAN:
            lo = max(lo, last + 1)
    return [s for s in range(lo, hi + 1) if cells[s] is None and (not near or is_near(cells, s))]


def is_near(cells: Cells, slot: int) -> bool:
    lo, hi = max(0, slot - NEAR), min(SLOTS, slot + NEAR + 1)
    return any(cells[i] is not None for i in range(lo, hi) if i != slot)


def is_complete(f: Facts, cells: Cells) -> bool:
    return lines.is_complete(cells, f.catalog)


def complete_lines(f: Facts, board: Board) -> int:
    return sum(1 for cells in board if is_complete(f, cells))


def count_ability(f: Facts, board: Board, ability: Ability) -> int:
    return sum(1 for cells in board for c in cells if c is not None and f.ability[c] == ability)


def line_has(f: Facts, cells: Cells, ability: Ability) -> bool:
    return any(c is not None and f.ability[c] == ability for c in cells)


def board_has(f: Facts, board: Board, ability: Ability) -> bool:
    return any(line_has(f, cells, ability) for cells in board)


def attack_value(f: Facts, cells: Cells, plague_lords: int) -> int:
    """The line's Attack Value (lines.py: Plague Lords 2 per Plague Lord in the tribe, a complete war
    machine counts its rating once, loose machine cards nothing)."""
    return lines.attack_value(cells, f.catalog, plague_lords)


def tribe_attack(f: Facts, board: Board, line: int) -> int:
    return attack_value(f, board[line], count_ability(f, board, Ability.PLAGUE_LORDS))


def fearless(f: Facts, cells: Cells) -> bool:
    """May this line attack a line holding Odlugg (card reference p.10)?"""
    for card in cells:
        if card is not None and (f.ability[card] in _FEARLESS or card == CLAWS_OF_MALAL):
            return True
    return lines.has_complete_war_machine(cells, f.catalog)


CLAWS_OF_MALAL = "claws-of-malal"
# Plain troops otherwise, so the catalog gives them no ability id: matched by card id.
_FEARLESS = frozenset({Ability.PLAGUE_LORDS, Ability.CHAOS_MARAUDERS, Ability.SHAMAN})


def symbol_in_board(f: Facts, board: Board, card: CardId) -> bool:
    """Does the tribe already hold a card with this card's symbol (a turn-ending duplicate)?"""
    symbol = f.symbol[card]
    if symbol is None:
        return False
    symbols = f.symbol
    for cells in board:
        for c in cells:
            if c is not None and symbols[c] == symbol:
                return True
    return False


def reading_order(board: Board) -> list[tuple[int, int]]:
    """(line, slot) of every card, top line first, left to right, gaps skipped (Dagromm's count)."""
    return [(li, s) for li, cells in enumerate(board) for s, c in enumerate(cells) if c is not None]


def illegal_duplicates(f: Facts, cells: Cells) -> list[int]:
    """Slots of cards sharing a symbol they may not share in one line (a Cheatin' Git's line)."""
    seen: dict[str, int] = {}
    bad: list[int] = []
    for slot, card in enumerate(cells):
        if card is None or f.line_duplicates[card]:
            continue
        symbol = f.symbol[card]
        if symbol is None:
            continue
        if symbol in seen:
            if seen[symbol] not in bad:
                bad.append(seen[symbol])
            bad.append(slot)
        else:
            seen[symbol] = slot
    return bad
