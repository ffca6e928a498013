"""Cheatin' Git!!! (rulebook p.12): a line found holding cards that may not share it (two cards with
one symbol, e.g. after a hand correction of the table) discards them the instant it is discovered.

The engine's own moves never build such a line, so the check runs on each board once: boards already
found clean, and lines found clean, are remembered by identity (a memo of immutable values; it never
changes a result).
"""

from __future__ import annotations

from companion.engine import Event
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.placement import illegal_duplicates
from companion.games.chaos_marauders.state import Board, Cells, State, discard, set_cell

_CLEAN: dict[int, Board] = {}
_MEMO_LIMIT = 100_000
_CLEAN_LINES: dict[int, Cells] = {}
_last_clean: list[tuple[Board, ...] | None] = [None]
"""The last tuple of boards found all clean (consecutive positions often share it)."""


def enforce(f: Facts, state: State, ev: list[Event]) -> State:
    """``state`` with every illegally duplicated card discarded (usually ``state`` itself)."""
    boards = state.boards
    last = _last_clean[0]
    if boards is last:
        return state
    if last is not None and len(last) != len(boards):
        last = None
    for seat, board in enumerate(boards):
        if (last is not None and board is last[seat]) or _CLEAN.get(id(board)) is board:
            continue
        for li, cells in enumerate(board):
            if _CLEAN_LINES.get(id(cells)) is cells:
                continue
            bad = illegal_duplicates(f, cells)
            if not bad:
                if len(_CLEAN_LINES) > _MEMO_LIMIT:
                    _CLEAN_LINES.clear()
                _CLEAN_LINES[id(cells)] = cells
                continue
            cards = [cells[s] for s in bad]
            for s in bad:
                state = set_cell(state, seat, li, s, None)
            state = discard(state, *(c for c in cards if c is not None))
            ev.append(
                Event(
                    "CheatinGit",
                    f"Cheatin' Git!!! {state.names[seat]}'s line {li + 1} held duplicates: "
                    "they are discarded",
                    {"player": seat, "line": li, "cards": cards},
                )
            )
        if len(_CLEAN) > _MEMO_LIMIT:
            _CLEAN.clear()
        _CLEAN[id(state.boards[seat])] = state.boards[seat]
    _last_clean[0] = state.boards
    return state
