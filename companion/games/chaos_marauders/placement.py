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
from companion.games.chaos_marauders.state import SLOTS, Board, Cells, PlaceStep

# Enum members as module constants: a class attribute lookup on an Enum is slow on the hot path.
_ABILITY_CHAOS_MARAUDERS = Ability.CHAOS_MARAUDERS
_ABILITY_IDOL = Ability.IDOL
_ABILITY_PLAGUE_LORDS = Ability.PLAGUE_LORDS
_ABILITY_SHAMAN = Ability.SHAMAN
_ABILITY_SNEAKY_GIT = Ability.SNEAKY_GIT
_ROLE_MUSICIAN = Role.MUSICIAN
_ROLE_STANDARD = Role.STANDARD

NEAR = 3
"""Sneaky Git and an Idol given to an opponent go within three spaces of another card."""


def needs_near(f: Facts, card: CardId, placer: int, target: int) -> bool:
    """Must ``card``, placed by ``placer`` in ``target``'s lines, go within three spaces of another
    card? A Sneaky Git always, however it arrived (drawn, won, stolen, taken): "Placing a Sneaky Git
    in a battle line follows the normal rules for card placement, except the card must be placed
    within three spaces of another card" (card reference: Sneaky Git); the Idol only when it goes to
    an opponent (card reference: Idol)."""
    ability = f.ability[card]
    return ability == _ABILITY_SNEAKY_GIT or (ability == _ABILITY_IDOL and placer != target)


def slot_error(f: Facts, cells: Cells, card: CardId, slot: int) -> str | None:
    """Why ``card`` may not go on ``slot`` of this line (a sentence), or None when it may."""
    if cells[slot] is not None:
        return f"slot {slot + 1} already holds a card"
    role = f.role[card]
    if slot == 0 and role is not _ROLE_STANDARD:
        return "only a Standard may stand at the left end of a battle line"
    if slot == SLOTS - 1 and role is not _ROLE_MUSICIAN:
        return "only a Musician may stand at the right end of a battle line"
    symbol = f.symbol[card]
    dup_ok = f.line_duplicates[card]
    for i, other in enumerate(cells):
        if other is None:
            continue
        other_role = f.role[other]
        if other_role is _ROLE_STANDARD:
            if role is _ROLE_STANDARD:
                return "this battle line already has a Standard"
            if i > slot:
                return "no card may stand to the left of a Standard"
        elif other_role is _ROLE_MUSICIAN:
            if role is _ROLE_MUSICIAN:
                return "this battle line already has a Musician"
            if i < slot:
                return "no card may stand to the right of a Musician"
        if role is _ROLE_STANDARD and i < slot:
            return "a Standard must stand left of every card in its line"
        if role is _ROLE_MUSICIAN and i > slot:
            return "a Musician must stand right of every card in its line"
        if symbol is not None and not dup_ok and f.symbol[other] == symbol:
            return "this battle line already holds a card with this symbol"
    return None


_MEMO_LIMIT = 50_000


def legal_slots(f: Facts, cells: Cells, card: CardId, near: bool = False) -> list[int]:
    """Every slot of this line ``card`` may take; ``near``: within three spaces of another card.

    Agrees with :func:`slot_error`. Answers are remembered per line and card: lines are immutable
    and recur from position to position.
    """
    return list(open_slots(f, cells, card, near))


def open_slots(f: Facts, cells: Cells, card: CardId, near: bool = False) -> tuple[int, ...]:
    """:func:`legal_slots` as the remembered tuple itself (hot paths that only read it)."""
    entry = f.line_memo.get(cells)
    if entry is None:
        entry = _line_entry(f, cells)
    answers = entry[1]
    key = (card, near)
    known = answers.get(key)
    if known is None:
        known = answers[key] = tuple(_legal_slots(f, cells, card, near, entry[0]))
    return known


_Summary = tuple[int, int, int, int, frozenset[str | None]]


def _legal_slots(f: Facts, cells: Cells, card: CardId, near: bool, summary: _Summary) -> list[int]:
    role = f.role[card]
    symbol = f.symbol[card]
    last_standard, first_musician, first, last, symbols = summary
    if role is _ROLE_STANDARD:
        if last_standard >= 0:
            return []
        lo = 0
    else:
        lo = last_standard + 1 if last_standard >= 0 else 1
    if role is _ROLE_MUSICIAN:
        if first_musician >= 0:
            return []
        hi = SLOTS - 1
    else:
        hi = first_musician - 1 if first_musician >= 0 else SLOTS - 2
    if symbol is not None and not f.line_duplicates[card] and symbol in symbols:
        return []
    if first >= 0:
        if role is _ROLE_STANDARD:
            hi = min(hi, first - 1)
        elif role is _ROLE_MUSICIAN:
            lo = max(lo, last + 1)
    if near:
        return [s for s in range(lo, hi + 1) if cells[s] is None and is_near(cells, s)]
    return [s for s in range(lo, hi + 1) if cells[s] is None]


def _line_entry(f: Facts, cells: Cells) -> tuple[_Summary, dict[tuple[CardId, bool], tuple[int, ...]]]:
    """What placing into a line depends on: (last Standard's slot, first Musician's slot, first and
    last occupied slots (-1 for none), the symbols in the line), with the line's answers so far."""
    last_standard = first_musician = first = last = -1
    symbols = set()
    roles = f.role
    for i, other in enumerate(cells):
        if other is None:
            continue
        if first < 0:
            first = i
        last = i
        other_role = roles[other]
        if other_role is _ROLE_STANDARD:
            last_standard = i
        elif other_role is _ROLE_MUSICIAN and first_musician < 0:
            first_musician = i
        symbols.add(f.symbol[other])
    entry = ((last_standard, first_musician, first, last, frozenset(symbols)), {})
    memo = f.line_memo
    if len(memo) > _MEMO_LIMIT:
        memo.clear()
    memo[cells] = entry
    return entry


def is_near(cells: Cells, slot: int) -> bool:
    lo, hi = max(0, slot - NEAR), min(SLOTS, slot + NEAR + 1)
    return any(cells[i] is not None for i in range(lo, hi) if i != slot)


def is_complete(f: Facts, cells: Cells) -> bool:
    memo = f.complete_memo
    known = memo.get(cells)
    if known is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        known = memo[cells] = lines.is_complete(cells, f.catalog)
    return known


def complete_lines(f: Facts, board: Board) -> int:
    return sum(1 for cells in board if is_complete(f, cells))


def count_ability(f: Facts, board: Board, ability: Ability) -> int:
    if not board_has(f, board, ability):
        return 0  # the common answer, from the board's remembered abilities
    return sum(1 for cells in board for c in cells if c is not None and f.ability[c] == ability)


def line_abilities(f: Facts, cells: Cells) -> frozenset[str | None]:
    """The abilities of the cards in a line (None for plain cards; empty for an empty line),
    remembered per line."""
    memo = f.abilities_memo
    known = memo.get(cells)
    if known is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        abilities = f.ability
        known = memo[cells] = frozenset([abilities[c] for c in cells if c is not None])
    return known


def line_has(f: Facts, cells: Cells, ability: Ability) -> bool:
    return ability in line_abilities(f, cells)


def board_has(f: Facts, board: Board, ability: Ability) -> bool:
    memo = f.board_memo
    known = memo.get(id(board))
    if known is None or known[0] is not board:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        abilities = line_abilities(f, board[0]) | line_abilities(f, board[1]) | line_abilities(f, board[2])
        known = memo[id(board)] = (board, abilities)  # holds the board: its id stays its own
    return ability in known[1]


def attack_value(f: Facts, cells: Cells, plague_lords: int) -> int:
    """The line's Attack Value (lines.py: Plague Lords 2 per Plague Lord in the tribe, a complete war
    machine counts its rating once, loose machine cards nothing), remembered per line."""
    memo = f.attack_memo
    key = (cells, plague_lords)
    known = memo.get(key)
    if known is None:
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        known = memo[key] = lines.attack_value(cells, f.catalog, plague_lords)
    return known


def tribe_attack(f: Facts, board: Board, line: int) -> int:
    return attack_value(f, board[line], count_ability(f, board, _ABILITY_PLAGUE_LORDS))


def fearless(f: Facts, cells: Cells) -> bool:
    """May this line attack a line holding Odlugg (card reference p.10)?"""
    for card in cells:
        if card is not None and (f.ability[card] in _FEARLESS or card == CLAWS_OF_MALAL):
            return True
    return lines.has_complete_war_machine(cells, f.catalog)


CLAWS_OF_MALAL = "claws-of-malal"
# Plain troops otherwise, so the catalog gives them no ability id: matched by card id.
_FEARLESS = frozenset({_ABILITY_PLAGUE_LORDS, _ABILITY_CHAOS_MARAUDERS, _ABILITY_SHAMAN})


def tribe_full(f: Facts, board: Board, card: CardId) -> bool:
    """Does the tribe already hold three cards with ``card``'s symbol? "A player cannot have four cards
    with the same symbol in his tribe (the only exception being Blightskabb Plague Lords)" (rulebook,
    Drawing a Fourth Duplicate). One card per symbol per line keeps other cards to three already:
    this binds only cards that may share a line, Sneaky Gits."""
    if not f.line_duplicates[card] or f.ability[card] == _ABILITY_PLAGUE_LORDS:
        return False
    symbol = f.symbol[card]
    if symbol is None:
        return False
    symbols = f.symbol
    held = sum(1 for cells in board for c in cells if c is not None and symbols[c] == symbol)
    return held >= lines.TRIBE_SYMBOL_LIMIT


def gits_wait(f: Facts, top: PlaceStep, card: CardId | None) -> bool:
    """Must won Sneaky Gits be placed (or discarded) before ``card`` (None: before making room)?"""
    if top.source != "capture" or (card is not None and f.ability[card] == _ABILITY_SNEAKY_GIT):
        return False
    return any(f.ability[p.card] == _ABILITY_SNEAKY_GIT for p in top.cards)


def symbol_in_board(f: Facts, board: Board, card: CardId) -> bool:
    """Does the tribe already hold a card with this card's symbol (a turn-ending duplicate)?"""
    symbol = f.symbol[card]
    if symbol is None:
        return False
    memo = f.line_memo
    for cells in board:
        # The symbols of a line are part of what placing into it depends on (asked at every draw).
        entry = memo.get(cells) or _line_entry(f, cells)
        if symbol in entry[0][4]:
            return True
    return False


def reading_order(board: Board) -> list[tuple[int, int]]:
    """(line, slot) of every card, top line first, left to right, gaps skipped (Dagromm's count)."""
    return [(li, s) for li, cells in enumerate(board) for s, c in enumerate(cells) if c is not None]


def illegal_duplicates(f: Facts, cells: Cells) -> list[int]:
    """Slots of cards sharing a symbol they may not share in one line (a Cheatin' Git's line)."""
    symbols = list(filter(None, map(f.unshared.__getitem__, cells)))
    if len(set(symbols)) == len(symbols):
        return []  # every new line is asked: the clean answer is found without a loop per slot
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
