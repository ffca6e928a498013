"""Fixtures for the session tests: sessions over a fresh log, playing Nim."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.session import Session

from .nim import find_nim
from .sessionkit import StepClock


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "table.db"


@pytest.fixture
def make_session(db_path: Path) -> Iterator[Callable[..., Session]]:
    """Starts sessions on the test's log (Nim, a stepping clock); every one is stopped at the end."""
    started: list[Session] = []

    def make(**kwargs: object) -> Session:
        kwargs.setdefault("clock", StepClock())
        kwargs.setdefault("find_game", find_nim)
        session = Session(db_path, **kwargs)  # type: ignore[arg-type]
        session.start()
        started.append(session)
        return session

    yield make
    for session in started:
        session.stop()


@pytest.fixture
def session(make_session: Callable[..., Session]) -> Session:
    return make_session(snapshot_every=5)
