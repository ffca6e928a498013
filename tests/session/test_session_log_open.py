"""A log the session cannot use (damaged, from a newer program, locked) is one clear EventLogError."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from companion.engine import Game
from companion.session import Command, EventLogError, Session
from companion.session.store import SCHEMA_VERSION

from .nim import find_nim, setup_json
from .sessionkit import take_json


def start(path: Path) -> Session:
    session = Session(path, find_nim)
    session.start()
    return session


def one_line(exc: pytest.ExceptionInfo[EventLogError]) -> str:
    text = str(exc.value)
    assert "\n" not in text and exc.value.__cause__ is None
    return text


def test_garbage_bytes_are_a_damaged_log(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    path.write_bytes(b"\x8b\x00garbage, not SQLite" * 300)
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "damaged" in one_line(exc) and str(path) in str(exc.value)
    assert path.read_bytes().startswith(b"\x8b\x00garbage")  # left exactly as it was


def test_a_log_with_damaged_pages_is_a_damaged_log(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    start(path).stop()
    raw = bytearray(path.read_bytes())
    raw[100:] = b"\xff" * (len(raw) - 100)  # header intact, every page garbage
    path.write_bytes(bytes(raw))
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "damaged" in one_line(exc)


def test_a_log_from_a_newer_program_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert f"schema {SCHEMA_VERSION + 1} is newer" in one_line(exc)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal"


def test_a_log_another_program_holds_locked_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    start(path).stop()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")  # an exclusive lock outside WAL keeps readers out
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(EventLogError) as exc:
            start(path)
        assert "lock" in one_line(exc)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    start(path).stop()  # once released, the log opens again


def test_a_second_companion_on_the_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    first = start(path)
    try:
        with pytest.raises(EventLogError) as exc:
            start(path)
        assert "another session" in one_line(exc)
    finally:
        first.stop()


def test_a_game_this_program_does_not_know_is_a_notice_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A log whose current game comes from a newer program (a game or rules this one lacks) still
    opens: the table can start a new game, and the TV says why the old one was not resumed."""
    path = tmp_path / "table.db"
    start(path).stop()
    with sqlite3.connect(path) as conn:
        conn.execute(
            "INSERT INTO games (game, setup, rules_version, created) VALUES (?, ?, ?, ?)",
            ("space-orcs", '{"game": "space-orcs", "players": [{"name": "Zog"}]}', "space-orcs/9", 1.0),
        )
    session = start(path)
    try:
        notices = [n["text"] for n in session.view()["notices"]]
        assert len(notices) == 1 and "game #1 (space-orcs) cannot be resumed" in notices[0]
        assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.INFO]
    finally:
        session.stop()


def test_an_empty_file_is_a_lost_log_refused_with_its_wal_kept(tmp_path: Path) -> None:
    """A 0-byte log (a file system that lost the file's data) must not start as if it were new: SQLite
    would take it for a new database and drop the WAL beside it, the last record of the games."""
    path = tmp_path / "table.db"
    path.write_bytes(b"")
    wal = tmp_path / "table.db-wal"
    wal.write_bytes(b"frames the lost file needed" * 100)
    with pytest.raises(EventLogError) as exc:
        start(path)
    text = one_line(exc)
    assert "empty (0 bytes)" in text and "move it aside" in text
    assert path.read_bytes() == b"" and wal.stat().st_size == 2700  # nothing touched


def test_a_log_that_lost_its_inputs_table_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    session = start(path)
    assert session.submit(Command("new_game", "test", setup_json())).accepted
    session.stop()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE inputs")
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "table 'inputs' is missing" in one_line(exc)
    with sqlite3.connect(path) as conn:  # not recreated empty: the damage stays visible
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert names == {"games", "snapshots"}
        assert conn.execute("SELECT count(*) FROM games").fetchone() == (1,)


def test_a_log_that_lost_a_column_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "table.db"
    start(path).stop()
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE inputs DROP COLUMN observation")
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "table 'inputs' lacks observation" in one_line(exc)


def test_another_programs_database_is_not_an_event_log(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(EventLogError) as exc:
        start(path)
    assert "not an event log (it holds the tables notes)" in one_line(exc)


def test_an_empty_sqlite_database_and_a_start_cut_short_become_a_new_log(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    with sqlite3.connect(empty) as conn:
        conn.execute("VACUUM")  # a valid SQLite file with no table in it
    assert empty.stat().st_size > 0
    session = start(empty)
    assert session.submit(Command("new_game", "test", setup_json())).accepted
    session.stop()
    cut = tmp_path / "cut.db"
    (tmp_path / "cut.db.new").write_bytes(b"half a log from a start that was killed")
    start(cut).stop()
    assert not (tmp_path / "cut.db.new").exists()
    with sqlite3.connect(cut) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)


def test_the_start_is_one_line_of_the_story_without_none(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="companion")
    path = tmp_path / "table.db"
    session = start(path)
    assert session.submit(Command("new_game", "test", setup_json())).accepted
    assert session.submit(Command("act", "test", take_json(0, 1, 0))).accepted
    session.stop()
    Session(path, find_nim, snapshot_every=1).__enter__().stop()  # writes a snapshot at its start
    start(path).stop()
    lines = [r.getMessage() for r in caplog.records if r.name.startswith("companion.session")]
    assert not [line for line in lines if "None" in line]
    assert lines[0] == f"new event log at {path}: no game yet" and len(lines) == 3
    assert lines[1].startswith("resumed game #1 (Nim, playing): 1 actions, 1 replayed from the start in")
    assert lines[2].startswith(
        "resumed game #1 (Nim, playing): 1 actions, 0 replayed from the snapshot at #2"
    )


def test_resume_problems_are_warnings_and_a_bug_keeps_its_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "table.db"
    session = start(path)
    assert session.submit(Command("new_game", "test", setup_json())).accepted
    session.stop()

    def broken(name: str) -> Game:
        raise KeyError("a bug in the registry")

    Session(path, broken).__enter__().stop()
    warning = [
        r for r in caplog.records if r.levelno == logging.WARNING and "cannot be resumed" in r.getMessage()
    ]
    assert len(warning) == 1 and warning[0].exc_info is not None
    assert not [r for r in caplog.records if r.levelno < logging.WARNING and r.exc_info]
