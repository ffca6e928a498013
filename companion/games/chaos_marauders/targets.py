"""Who and what an ability may aim at: pure questions over a position, shared by apply and prompts."""

from __future__ import annotations

from companion.games.chaos_marauders.cards import CardId, Colour
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.placement import (
    attack_value,
    board_has,
    count_ability,
    fearless,
    is_complete,
    line_has,
    tribe_attack,
)
from companion.games.chaos_marauders.state import EMPTY_LINE, State

# Enum members as module constants: a class attribute lookup on an Enum is slow on the hot path.
_ABILITY_HORNED_RAT_STANDARD = Ability.HORNED_RAT_STANDARD
_ABILITY_IDOL = Ability.IDOL
_ABILITY_ODLUGG = Ability.ODLUGG
_ABILITY_PLAGUE_LORDS = Ability.PLAGUE_LORDS
_ABILITY_SNEAKY_GIT = Ability.SNEAKY_GIT
_COLOUR_PURPLE = Colour.PURPLE

Spot = tuple[int, int, int]
"""(seat, line, slot) of a card on the table."""


def attack_targets(
    f: Facts, state: State, seat: int, line: int, bilge: bool = False
) -> list[tuple[int, int]]:
    """Opponents' lines that ``seat``'s line ``line`` may attack now (rulebook p.10, Horned Rat,
    Odlugg and Bilge restrictions). A normal attacker must be complete; Bilge leads any line."""
    board = state.boards[seat]
    cells = board[line]
    if not bilge and not is_complete(f, cells):
        return []
    power = tribe_attack(f, board, line)
    brave = None
    out = []
    for other in range(state.seats):
        if other == seat:
            continue
        other_board = state.boards[other]
        plague = count_ability(f, other_board, _ABILITY_PLAGUE_LORDS)
        for li, target in enumerate(other_board):
            # An empty play-sheet row holds no battle line to attack.
            if (
                target == EMPTY_LINE
                or is_complete(f, target)
                or line_has(f, target, _ABILITY_HORNED_RAT_STANDARD)
            ):
                continue
            if line_has(f, target, _ABILITY_ODLUGG):
                if brave is None:
                    brave = fearless(f, cells)
                if not brave:
                    continue
            if power > attack_value(f, target, plague):
                out.append((other, li))
    return out


def stick_targets(f: Facts, state: State, seat: int) -> list[Spot]:
    """Purple cards (and Odlugg) in opponents' lines: a Bozlum Pigsticker's victims."""
    return _opponents_cards(state, seat, f.stickable)


def steal_targets(f: Facts, state: State, seat: int) -> list[Spot]:
    """Non-purple cards in opponents' lines: what Venemous Creeps may take."""
    return _opponents_cards(state, seat, f.stealable)


def _opponents_cards(state: State, seat: int, wanted: frozenset[CardId]) -> list[Spot]:
    """Every card in the lines of ``seat``'s opponents that is one of ``wanted``, in reading order."""
    return [
        (other, li, s)
        for other in range(state.seats)
        if other != seat
        for li, cells in enumerate(state.boards[other])
        for s, c in enumerate(cells)
        if c in wanted
    ]


def take_targets(state: State, versus: int) -> list[Spot]:
    """Every card of a false shouter's lines (even protected or completed ones)."""
    return [
        (versus, li, s)
        for li, cells in enumerate(state.boards[versus])
        for s, c in enumerate(cells)
        if c is not None
    ]


def blast_targets(f: Facts, state: State, seat: int) -> list[tuple[int, int]]:
    """Opponents' lines holding cards and no Horned Rat Standard: Skyrr's Blowback's targets."""
    return [
        (other, li)
        for other in range(state.seats)
        if other != seat
        for li, cells in enumerate(state.boards[other])
        if any(c is not None for c in cells) and not line_has(f, cells, _ABILITY_HORNED_RAT_STANDARD)
    ]


def git_spots(f: Facts, state: State, seat: int) -> list[tuple[int, int]]:
    """(line, slot) of the Sneaky Gits in ``seat``'s own lines (candidates for assassination)."""
    return [
        (li, s)
        for li, cells in enumerate(state.boards[seat])
        for s, c in enumerate(cells)
        if c is not None and f.ability[c] == _ABILITY_SNEAKY_GIT
    ]


def holds_odlugg(f: Facts, state: State, seat: int) -> bool:
    return board_has(f, state.boards[seat], _ABILITY_ODLUGG)


def idol_holder(f: Facts, state: State) -> int | None:
    for seat in range(state.seats):
        if board_has(f, state.boards[seat], _ABILITY_IDOL):
            return seat
    return None
