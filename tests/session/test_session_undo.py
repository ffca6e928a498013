"""Undo and redo: logged inputs that revert and restore actions, reproduced by a restart."""

from __future__ import annotations

import json
from pathlib import Path

from companion.engine import Setup
from companion.session import Command, Session, replay

from .nim import Nim
from .sessionkit import log_rows, new_nim, take


def undo(session: Session):
    return session.submit(Command("undo", "control"))


def redo(session: Session):
    return session.submit(Command("redo", "control"))


def effective_replay(session: Session, db_path: Path):
    """The position by replaying the log's non-reverted actions of the current game from scratch."""
    game_id = session.view()["game_id"]
    (setup,) = log_rows(db_path, f"SELECT setup FROM games WHERE id = {game_id}")
    rows = log_rows(
        db_path, f"SELECT payload FROM inputs WHERE game_id = {game_id} AND kind = 'act' AND reverted = 0"
    )
    return replay(Nim(), Setup.from_json(json.loads(setup[0])), [json.loads(p) for (p,) in rows])


def test_undo_reverts_the_last_action_and_keeps_it_in_the_history(session: Session, db_path: Path) -> None:
    new_nim(session)
    take(session, 0, 1)
    take(session, 1, 2)
    outcome = undo(session)
    assert outcome.accepted and outcome.seq == 4
    assert [e.text for e in outcome.events] == ["Undone: Bob took 2 from pile 1"]
    assert session.state.piles == (2, 4, 5) and session.state.turn == 1
    assert log_rows(db_path) == [(1, "new_game", 0, None), (2, "act", 0, None), (3, "act", 1, None),
                                 (4, "undo", 0, 3)]  # fmt: skip
    view = session.view()
    assert view["can_undo"] and view["can_redo"] and view["last_change"]["kind"] == "undo"
    assert [h["reverted"] for h in session.history()] == [False, False, True, False]


def test_undo_back_to_the_start_then_nothing_to_undo(session: Session) -> None:
    new_nim(session)
    take(session, 0, 1)
    assert undo(session).accepted
    outcome = undo(session)
    assert (outcome.accepted, outcome.error) == (False, "nothing_to_undo")
    assert session.state == Nim().new_game(Setup.from_json(session.games()[0]["setup"]))
    assert not session.view()["can_undo"]


def test_redo_restores_in_reverse_order_of_undo(session: Session, db_path: Path) -> None:
    new_nim(session)
    for pile in (0, 1, 2):
        take(session, pile, 1)
    positions = [session.state]
    undo(session)
    positions.append(session.state)
    undo(session)
    assert redo(session).accepted
    assert session.state == positions[1]
    assert redo(session).accepted
    assert session.state == positions[0]
    assert redo(session).error == "nothing_to_redo"
    assert not session.view()["can_redo"]
    assert session.state == effective_replay(session, db_path)


def test_a_new_action_clears_the_redo_stack(session: Session, db_path: Path) -> None:
    new_nim(session)
    take(session, 0, 1)
    take(session, 1, 1)
    undo(session)
    take(session, 2, 3)
    assert not session.view()["can_redo"]
    assert redo(session).error == "nothing_to_redo"
    assert session.state.piles == (2, 4, 2)
    assert session.state == effective_replay(session, db_path)


def test_undo_and_redo_survive_a_restart(make_session, db_path: Path) -> None:
    first = make_session(snapshot_every=3)
    new_nim(first, piles=[30, 30])
    for i in range(10):
        take(first, i % 2, 1 + i % 3)
    for _ in range(4):
        undo(first)
    redo(first)
    state, view = first.state, first.view()
    first.stop()

    second = make_session(snapshot_every=3)
    assert second.state == state
    assert second.view()["can_undo"] and second.view()["can_redo"]
    assert second.view()["last_change"] == view["last_change"]
    # The redo stack came back too: three actions can be redone, in order.
    for _ in range(3):
        assert redo(second).accepted
    assert redo(second).error == "nothing_to_redo"
    assert second.state.moves == 10
    assert second.state == effective_replay(second, db_path)


def test_undo_past_snapshots_and_checkpoints_matches_a_fresh_replay(make_session, db_path: Path) -> None:
    session = make_session(snapshot_every=4)
    new_nim(session, piles=[100])
    for i in range(23):
        take(session, 0, 1 + i % 3)
    session.stop()
    session = make_session(snapshot_every=4)  # memory holds only the snapshot onward now
    for expected_moves in range(22, 10, -1):
        assert undo(session).accepted
        assert session.state.moves == expected_moves
        assert session.state == effective_replay(session, db_path)
    assert log_rows(db_path, "SELECT max(seq) FROM snapshots")[0][0] < 14  # undone snapshots are gone
    for _ in range(5):
        assert redo(session).accepted
    assert session.state == effective_replay(session, db_path)
