"""Helpers for the session tests (fixtures live in conftest.py)."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path

from companion.engine import JSON
from companion.session import Command, Outcome, Session

from .nim import setup_json


class StepClock:
    """A wall clock that ticks one second per reading, so stored times are predictable."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._ticks = itertools.count()
        self._start = start

    def __call__(self) -> float:
        return self._start + next(self._ticks)


def new_nim(session: Session, piles: list[int] | None = None, players: int = 2) -> Outcome:
    outcome = session.submit(Command("new_game", "test", setup_json(piles, players)))
    assert outcome.accepted, outcome
    return outcome


def take_json(pile: int, count: int, player: int) -> dict[str, JSON]:
    return {"kind": "take", "player": player, "pile": pile, "count": count}


def take(session: Session, pile: int, count: int, player: int | None = None) -> Outcome:
    """Takes counters for ``player`` (default: whoever's turn it is)."""
    if player is None:
        player = session.state.turn
    return session.submit(Command("act", "test", take_json(pile, count, player)))


def log_rows(db_path: Path, sql: str = "SELECT seq, kind, reverted, target FROM inputs ORDER BY seq") -> list:
    conn = sqlite3.connect(db_path)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()
