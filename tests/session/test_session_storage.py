"""A full disk: every command is refused with one clear reason, the TV says so, the log says it once,
nothing accepted is lost, and the table carries on by itself once there is room again.

The full disk is real to SQLite: ``PRAGMA max_page_count`` makes SQLite itself fail with SQLITE_FULL,
as it does when the file system has no space left.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.session import Command, Session

from .nim import setup_json
from .sessionkit import log_rows, take_json

FULL = "storage full: nothing was recorded"


def fill_the_disk(session: Session) -> int:
    """Caps the log at its present size (SQLite then fails as on a full disk); the pages it has."""
    conn = session._writer.log.conn  # the writer's own connection: max_page_count is per connection
    pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
    conn.execute(f"PRAGMA max_page_count = {pages}")
    return pages


def make_room(session: Session) -> None:
    session._writer.log.conn.execute("PRAGMA max_page_count = 1073741823")


NEW_GAME = Command("new_game", "test", setup_json([9, 9, 9]))


def until_full(session: Session) -> object:
    """New games until one does not fit; the refusal (the same command will not fit either after it)."""
    for _ in range(2000):
        outcome = session.submit(NEW_GAME)
        if not outcome.accepted:
            return outcome
    raise AssertionError("the capped log never filled")


def test_a_full_disk_refuses_with_one_reason_and_one_log_line_then_recovers(
    make_session: Callable[..., Session], db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion.session")
    session = make_session()
    assert session.submit(Command("new_game", "test", setup_json([9, 9, 9]))).accepted
    fill_the_disk(session)
    refused = until_full(session)
    assert (refused.error, refused.reason) == ("storage", FULL)
    rows = log_rows(db_path)
    seq = session.view()["seq"]
    for _ in range(3):  # the same answer every time, nothing written, one log line in all
        outcome = session.submit(NEW_GAME)
        assert (outcome.error, outcome.reason) == ("storage", FULL)
    assert log_rows(db_path) == rows and session.view()["seq"] == seq
    assert {"level": "warning", "text": FULL, "source": "session"} in session.view()["notices"]
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert (
        len(errors) == 1
        and "cannot be written (database or disk is full)" in errors[0].getMessage()
        and not errors[0].exc_info
    )

    make_room(session)
    outcome = session.submit(Command("act", "test", take_json(0, 1, 0)))
    assert outcome.accepted and outcome.seq == seq + 1
    assert not [n for n in session.view()["notices"] if n["text"] == FULL]
    assert any("written again" in r.getMessage() for r in caplog.records)


def test_what_was_accepted_before_and_after_a_full_disk_resumes_exactly(
    make_session: Callable[..., Session], db_path: Path
) -> None:
    session = make_session()
    assert session.submit(Command("new_game", "test", setup_json([9, 9, 9]))).accepted
    assert session.submit(Command("act", "test", take_json(0, 2, 0))).accepted
    fill_the_disk(session)
    until_full(session)
    make_room(session)
    assert session.submit(Command("act", "test", take_json(1, 3, 0))).accepted  # in the last new game
    expected, seq = session.state, session.view()["seq"]
    session.stop()
    again = make_session()
    assert again.state == expected and again.view()["seq"] == seq
    assert again.submit(Command("act", "test", take_json(2, 1, 1))).accepted


def test_a_snapshot_that_does_not_fit_is_one_warning_without_a_traceback(
    make_session: Callable[..., Session], caplog: pytest.LogCaptureFixture
) -> None:
    session = make_session()
    # Thousands of piles: the state pickles to more than a page, so its snapshot needs new pages.
    assert session.submit(Command("new_game", "test", setup_json([5000] + [1] * 3000))).accepted
    fill_the_disk(session)
    for turn in range(2000):  # moves until one does not fit
        if not session.submit(Command("act", "test", take_json(0, 1, turn % 2))).accepted:
            break
    assert session.state.piles[0] < 5000  # some moves fitted: there is a position to snapshot
    writer = session._writer  # idle between commands: the test may drive it as the writer thread would
    writer._snapshot_due = True
    writer.snapshot_if_due()
    lines = [r for r in caplog.records if "snapshot of game" in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING and not lines[0].exc_info
    assert "skipped (database or disk is full)" in lines[0].getMessage()
