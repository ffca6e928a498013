"""The session with the real Chaos Marauders engine: a whole game, restart, undo/redo, rejections."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.engine import Setup
from companion.games import find_game
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.chaos_marauders.simulate import Table, choose, setup_for
from companion.session import Command, Session, replay

from .sessionkit import log_rows


def setup_json(players: int) -> dict:
    return setup_for(players).to_json()


def play_moves(session: Session, table: Table, moves: int) -> int:
    """Plays up to ``moves`` random legal actions as a table would; returns how many were accepted."""
    game = ChaosMarauders()
    done = 0
    for _ in range(moves):
        if session.view()["status"] != "playing":
            break
        action = choose(game, session.state, table)
        outcome = session.submit(Command("act", "table", game.format_action(action)))
        assert outcome.accepted, (action, outcome)
        done += 1
    return done


def effective_state(db_path: Path):
    (setup,) = log_rows(db_path, "SELECT setup FROM games ORDER BY id DESC LIMIT 1")
    rows = log_rows(
        db_path,
        "SELECT payload FROM inputs WHERE kind = 'act' AND reverted = 0"
        " AND game_id = (SELECT max(id) FROM games) ORDER BY seq",
    )
    return replay(ChaosMarauders(), Setup.from_json(json.loads(setup[0])), [json.loads(p) for (p,) in rows])


@pytest.fixture
def make_cm(make_session):
    return lambda **kw: make_session(find_game=find_game, **kw)


def test_a_whole_game_plays_to_its_end_and_resumes_identically(make_cm, db_path: Path) -> None:
    session = make_cm(snapshot_every=10)
    assert session.submit(Command("new_game", "control", setup_json(3))).accepted
    played = play_moves(session, Table(random.Random(4)), 2000)
    view = session.view()
    assert view["status"] == "finished" and view["game"]["finished"] and view["result"]["final"]
    assert played > 20
    state = session.state
    session.stop()

    resumed = make_cm(snapshot_every=10)
    assert resumed.state == state == effective_state(db_path)
    assert resumed.resume_stats.replayed < 10  # a pickled Chaos Marauders snapshot was used
    assert resumed.view().json == view.json


def test_undo_redo_and_restart_mid_game(make_cm, db_path: Path) -> None:
    session = make_cm(snapshot_every=4)
    session.submit(Command("new_game", "control", setup_json(2)))
    table = Table(random.Random(11))
    play_moves(session, table, 15)
    positions = [session.state]
    for _ in range(6):
        assert session.submit(Command("undo", "control")).accepted
        positions.append(session.state)
    assert session.state == effective_state(db_path)
    assert session.submit(Command("redo", "control")).accepted
    assert session.state == positions[-2]
    session.stop()

    resumed = make_cm(snapshot_every=4)
    assert resumed.state == positions[-2]
    for expected in reversed(positions[:-2]):
        assert resumed.submit(Command("redo", "control")).accepted
        assert resumed.state == expected
    assert resumed.submit(Command("redo", "control")).error == "nothing_to_redo"


def test_malformed_and_illegal_chaos_marauders_actions(make_cm, db_path: Path) -> None:
    session = make_cm()
    session.submit(Command("new_game", "control", setup_json(2)))
    before = log_rows(db_path)
    malformed = session.submit(Command("act", "table", {"kind": "draw", "player": 0}))
    assert (malformed.accepted, malformed.error) == (False, "malformed")
    assert "card" in (malformed.reason or "")
    wrong_seat = 1 - session.state.active
    illegal = session.submit(Command("act", "table", {"kind": "draw", "player": wrong_seat, "card": "x"}))
    assert (illegal.accepted, illegal.error) == (False, "illegal")
    assert log_rows(db_path) == before


def test_a_bad_chaos_marauders_setup_is_refused(make_cm) -> None:
    session = make_cm()
    outcome = session.submit(Command("new_game", "control", setup_json(1)))
    assert (outcome.accepted, outcome.error) == (False, "setup")
