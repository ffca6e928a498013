"""The event log: durable before publish, snapshots on resume, history and export, restart notices."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import ClassVar

import pytest

from companion.engine import Action, Event, IllegalActionError
from companion.session import Command, Session, UnknownGameIdError

from .nim import Nim, NimState, setup_json
from .sessionkit import log_rows, new_nim, take


class CountingNim(Nim):
    """Nim that counts the actions it applies, to see how much a resume replays."""

    applied: ClassVar[int] = 0

    def apply(self, state: NimState, action: Action) -> tuple[NimState, tuple[Event, ...]]:
        CountingNim.applied += 1
        return super().apply(state, action)


class NimV2(CountingNim):
    version: ClassVar[str] = "nim-2"


def play(session: Session, moves: int, piles: list[int] | None = None) -> None:
    new_nim(session, piles or [1000])
    for i in range(moves):
        assert take(session, 0, 1 + i % 3).accepted


def test_an_input_is_durable_before_its_outcome_and_before_its_view(session: Session, db_path: Path) -> None:
    subscription = session.subscribe()
    subscription.get(timeout=5)
    missing: list[int] = []
    seen = threading.Event()

    def check_views() -> None:
        # Runs on its own thread and connection: each published seq must already be committed.
        conn = sqlite3.connect(db_path)
        for _ in range(11):
            view = subscription.get(timeout=10)
            assert view is not None
            if conn.execute("SELECT 1 FROM inputs WHERE seq = ?", (view["seq"],)).fetchone() is None:
                missing.append(view["seq"])
        conn.close()
        seen.set()

    checker = threading.Thread(target=check_views)
    checker.start()
    new_nim(session, [50])
    for _ in range(10):
        outcome = take(session, 0, 1)
        reader = sqlite3.connect(db_path)
        assert reader.execute("SELECT kind FROM inputs WHERE seq = ?", (outcome.seq,)).fetchone() == ("act",)
        reader.close()
    assert seen.wait(10)
    checker.join(5)
    assert missing == []


def test_the_log_is_wal_with_full_sync(session: Session, db_path: Path) -> None:
    assert session._writer.log.conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert session._writer.log.conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL


def test_resume_starts_from_the_newest_snapshot(make_session, db_path: Path) -> None:
    first = make_session(snapshot_every=10, find_game=lambda name: CountingNim())
    play(first, 95)
    state = first.state
    first.stop()
    assert log_rows(db_path, "SELECT count(*) FROM snapshots") == [(9,)]

    CountingNim.applied = 0
    second = make_session(snapshot_every=10, find_game=lambda name: CountingNim())
    assert second.state == state
    assert CountingNim.applied == 5
    stats = second.resume_stats
    assert (stats.inputs, stats.replayed, stats.snapshot_seq) == (95, 5, 91)


def test_a_snapshot_is_written_with_the_input_that_makes_it_due(make_session, db_path: Path) -> None:
    """One transaction (one fsync) for both: written after the answer, the snapshot's own fsync held up
    the next command."""
    session = make_session(snapshot_every=10)
    new_nim(session, [1000])
    for i in range(10):
        outcome = take(session, 0, 1)
        # Read the moment the input is answered: its snapshot is durable with it, or not due yet.
        expected = [(outcome.seq,)] if i == 9 else []
        assert log_rows(db_path, "SELECT seq FROM snapshots") == expected
    resumed_state = session.state
    session.stop()
    again = make_session(snapshot_every=10)
    assert again.state == resumed_state and again.resume_stats.replayed == 0


def test_a_snapshot_that_cannot_be_written_costs_only_speed(make_session, db_path: Path) -> None:
    session = make_session(snapshot_every=5)
    new_nim(session, [1000])
    conn = sqlite3.connect(db_path)
    refuse = "CREATE TRIGGER no_snapshots BEFORE INSERT ON snapshots BEGIN SELECT RAISE(ABORT, 'no'); END"
    conn.execute(refuse)
    conn.commit()
    conn.close()
    for _ in range(7):
        assert take(session, 0, 1).accepted  # the 5th makes a snapshot due: refused, the input is kept
    assert log_rows(db_path, "SELECT count(*) FROM inputs WHERE kind = 'act'") == [(7,)]
    assert log_rows(db_path, "SELECT count(*) FROM snapshots") == [(0,)]


def test_a_snapshot_from_other_rules_is_ignored(make_session, db_path: Path) -> None:
    first = make_session(snapshot_every=10, find_game=lambda name: CountingNim())
    play(first, 45)
    state = first.state
    first.stop()

    CountingNim.applied = 0
    second = make_session(snapshot_every=10, find_game=lambda name: NimV2())
    assert second.state == state
    assert CountingNim.applied == 45 and second.resume_stats.snapshot_seq is None
    # It wrote a snapshot under the new rules, so the next start is quick again.
    assert log_rows(db_path, "SELECT seq FROM snapshots WHERE rules_version = 'nim-2'") == [(46,)]


def test_an_unreadable_snapshot_falls_back_to_an_older_one(make_session, db_path: Path) -> None:
    first = make_session(snapshot_every=10)
    play(first, 25)
    state = first.state
    first.stop()
    conn = sqlite3.connect(db_path)
    conn.execute("UPDATE snapshots SET state = x'00ff' WHERE seq = 21")
    conn.commit()
    conn.close()
    second = make_session(snapshot_every=10)
    assert second.state == state
    assert (second.resume_stats.snapshot_seq, second.resume_stats.replayed) == (11, 15)


def test_a_restart_without_a_game_shows_no_game(make_session) -> None:
    session = make_session()
    session.stop()
    again = make_session()
    assert again.view()["status"] == "no_game" and again.view()["seq"] == 0 and again.state is None


def test_a_game_whose_engine_is_gone_resumes_as_a_notice(make_session) -> None:
    first = make_session()
    play(first, 3)
    first.stop()

    def nothing(name: str):
        raise ValueError(f"unknown game {name!r}")

    second = make_session(find_game=nothing)
    view = second.view()
    assert view["status"] == "no_game" and view["seq"] == 4
    assert [n["source"] for n in view["notices"]] == ["session"]
    assert "cannot be resumed" in view["notices"][0]["text"]
    assert second.submit(Command("new_game", "control", setup_json())).error == "setup"


class StricterNim(Nim):
    """A rules change: nobody may take 3 any more."""

    version: ClassVar[str] = "nim-strict"

    def apply(self, state: NimState, action: Action) -> tuple[NimState, tuple[Event, ...]]:
        if getattr(action, "count", 0) == 3:
            raise IllegalActionError("taking 3 is no longer allowed")
        return super().apply(state, action)


def test_an_input_the_new_rules_refuse_stops_the_replay_with_a_notice(make_session) -> None:
    first = make_session(snapshot_every=100)
    new_nim(first, [20])
    for count in (1, 2, 3, 1):
        take(first, 0, count)
    first.stop()
    second = make_session(find_game=lambda name: StricterNim())
    assert second.state.piles == (17,)
    (notice,) = second.view()["notices"]
    assert "input #4 no longer applies" in notice["text"] and notice["level"] == "warning"
    new_nim(second)
    assert second.view()["notices"] == []  # the warning was about the closed game


def test_history_lists_the_last_inputs_in_log_order(session: Session) -> None:
    play(session, 6, piles=[20])
    session.submit(Command("undo", "control"))
    history = session.history(limit=3)
    assert [(h["seq"], h["kind"], h["reverted"]) for h in history] == [(6, "act", False), (7, "act", True),
                                                                        (8, "undo", False)]  # fmt: skip
    assert history[1]["action"] == {"kind": "take", "player": 1, "pile": 0, "count": 3}
    assert history[1]["events"] == ["Bob took 3 from pile 0"]
    assert history[2]["target"] == 7 and history[2]["at"] > history[1]["at"]
    assert len(session.history(limit=1000)) == 8


def test_history_and_export_of_an_earlier_game(session: Session) -> None:
    play(session, 2, piles=[9])
    new_nim(session, [4])
    take(session, 0, 1)
    assert [h["kind"] for h in session.history(game_id=1)] == ["new_game", "act", "act", "set_aside"]
    assert [h["seq"] for h in session.history()] == [5, 6]
    lines = list(session.export_jsonl(1))
    assert all(line.endswith("\n") for line in lines)
    header, *inputs = [json.loads(line) for line in lines]
    assert header["type"] == "game" and header["id"] == 1 and header["setup"] == setup_json([9])
    assert header["ended"] is not None and header["inputs"] == 4 == len(inputs)
    assert header["status"] == "set_aside" and header["resumable"]
    assert [i["seq"] for i in inputs] == [1, 2, 3, 4] and {i["type"] for i in inputs} == {"input"}
    (set_aside,) = inputs[-1]["events"]
    assert set_aside == "Game #1 set aside for game #2: resume it from Past games on the control page"
    with pytest.raises(UnknownGameIdError):
        session.export_jsonl(99)
    with pytest.raises(UnknownGameIdError):
        session.history(game_id=99)


def test_games_lists_every_game_with_its_inputs(session: Session) -> None:
    assert session.games() == []
    play(session, 2, piles=[9])
    session.submit(Command("end_game", "control"))
    games = session.games()
    assert [(g["id"], g["game"], g["inputs"], g["rules_version"]) for g in games] == [(1, "nim", 4, "nim-1")]
    assert games[0]["created"] < games[0]["ended"]


def test_reading_the_log_before_it_exists_is_empty(db_path: Path) -> None:
    idle = Session(db_path / "nowhere.db")
    assert idle.games() == [] and idle.history() == []
    with pytest.raises(UnknownGameIdError):
        idle.export_jsonl()
