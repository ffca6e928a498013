"""Resuming a game a new game set aside: nothing is lost by one tap on "Start new game"."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from companion.session import Command, Session

from .sessionkit import log_rows, new_nim, take


def resume(session: Session, game_id: object):
    return session.submit(Command("resume", "control", {"game_id": game_id}))


def test_a_set_aside_game_resumes_where_it_was_left(session: Session) -> None:
    new_nim(session)
    take(session, 0, 1)
    take(session, 1, 2)
    new_nim(session, piles=[2])
    take(session, 0, 1)
    outcome = resume(session, 1)
    assert outcome.accepted, outcome
    assert [e.text for e in outcome.events] == ["Game #1 of Nim resumed: Ann, Bob"]
    assert session.state.piles == (2, 2, 5)
    view = session.view()
    assert view["game_id"] == 1 and view["status"] == "playing"
    assert view["last_change"]["kind"] == "resume" and view["can_undo"]
    statuses = {g["id"]: (g["status"], g["ended"] is None) for g in session.games()}
    assert statuses == {1: ("playing", True), 2: ("set_aside", False)}
    assert session.submit(Command("undo", "test")).accepted  # its own last move, as before it was set aside
    assert session.state.piles == (2, 4, 5)


def test_the_resumed_game_is_still_current_after_a_restart(make_session: Callable[..., Session]) -> None:
    first = make_session()
    new_nim(first)
    take(first, 0, 1)
    new_nim(first, piles=[3])
    assert resume(first, 1).accepted
    first.stop()
    again = make_session()
    assert again.view()["game_id"] == 1 and again.state.piles == (2, 4, 5)
    assert again.view()["can_undo"]
    assert resume(again, 2).accepted  # and back: the game of three counters was set aside in its turn
    assert again.state.piles == (3,)


def test_a_game_closed_with_end_game_or_over_is_not_resumed(session: Session, db_path: Path) -> None:
    new_nim(session, piles=[2])
    take(session, 0, 2)  # Ann wins: the rules ended it
    new_nim(session)
    assert session.submit(Command("end_game", "control")).accepted
    new_nim(session)
    statuses = [g["status"] for g in session.games()]
    assert statuses == ["finished", "closed", "playing"]
    before = log_rows(db_path)
    for game_id, words in ((1, "is over"), (2, "closed with End game"), (3, "at the table already")):
        outcome = resume(session, game_id)
        assert (outcome.accepted, outcome.error) == (False, "illegal")
        assert words in (outcome.reason or "")
    assert log_rows(db_path) == before


@pytest.mark.parametrize("game_id", [99, "1", True, None, 1.0, 0, -1, 10**30])
def test_a_resume_of_no_such_game_is_refused(session: Session, game_id: object) -> None:
    new_nim(session)
    outcome = resume(session, game_id)
    assert (outcome.accepted, outcome.error) == (False, "malformed")


def test_resuming_while_a_game_is_closed_sets_nothing_aside(session: Session, db_path: Path) -> None:
    new_nim(session)
    new_nim(session, piles=[4])
    assert session.submit(Command("end_game", "control")).accepted
    assert resume(session, 1).accepted
    assert [g["status"] for g in session.games()] == ["playing", "closed"]
    assert [k for (k,) in log_rows(db_path, "SELECT kind FROM inputs ORDER BY seq")] == [
        "new_game",
        "set_aside",
        "new_game",
        "end_game",
        "resume",
    ]


def test_the_view_names_who_may_undo_and_redo(session: Session) -> None:
    new_nim(session)
    assert session.view()["undo_move"] is None
    take(session, 0, 1)  # Ann's move
    take(session, 1, 1)  # Bob's
    assert session.view()["undo_move"] == {"actor": 1, "secret": False}
    assert session.submit(Command("undo", "test")).accepted
    view = session.view()
    assert view["undo_move"] == {"actor": 0, "secret": False}
    assert view["redo_move"] == {"actor": 1, "secret": False}
    assert session.submit(Command("redo", "test")).accepted
    assert session.view()["undo_move"] == {"actor": 1, "secret": False}
    assert session.view()["redo_move"] is None
    assert session.submit(Command("end_game", "test")).accepted
    assert session.view()["undo_move"] is None


def test_the_games_whose_secrets_are_kept_are_read_once_per_game_at_the_table(
    session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hall publisher asks for inputs after every input, the pages for history on every request:
    which games keep their secrets changes only when the game at the table (or its status) changes
    (a new game or a resume sets one aside or takes one back), so a move reads nothing again."""
    from companion.session import history

    asked: list[int] = []
    real = history.set_aside_games

    def counted(path: object) -> list[tuple[int, str]]:
        asked.append(1)
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(history, "set_aside_games", counted)
    new_nim(session)
    new_nim(session, piles=[2])  # the first game is set aside, unfinished
    for _ in range(3):
        session.history(game_id=1)
        session.inputs_after(0)
    assert len(asked) == 1
    take(session, 0, 1)
    session.history(game_id=1)
    assert len(asked) == 1
    assert session._secret_keepers().keys() == {1, 2}  # the set-aside game and the one played
    new_nim(session, piles=[3])  # the second game is set aside too
    session.history(game_id=2)
    assert len(asked) == 2
    assert session._secret_keepers().keys() == {1, 2, 3}
    assert session.submit(Command("resume", "test", {"game_id": 1})).accepted
    session.history(game_id=1)
    assert len(asked) == 3
    assert session._secret_keepers().keys() == {1, 2, 3}  # game 3 is set aside now, 1 is played


def test_a_finished_game_set_aside_keeps_its_final_result_for_the_hall(
    make_session: Callable[..., Session],
) -> None:
    from tests.hall.hallkit import find_result_nim

    session = make_session(find_game=find_result_nim)
    new_nim(session, piles=[1])
    take(session, 0, 1)  # Ann takes the last counter: over
    assert session.replaced_game() is None  # nothing set aside yet
    new_nim(session, piles=[3])
    replaced = session.replaced_game()
    assert replaced is not None and replaced["game_id"] == 1 and replaced["game"] == "nim"
    assert replaced["result"]["final"] and replaced["result"]["outcome"] == "Ann wins"
    assert [p["name"] for p in replaced["setup"]["players"]] == ["Ann", "Bob"]
    assert session.replaced_game(1) is None  # game 1 set nothing aside
    assert session.submit(Command("end_game", "control")).accepted
    new_nim(session, piles=[3])  # a game closed with End game is not set aside: no result to confirm
    assert session.replaced_game() is None
    take(session, 0, 1)
    new_nim(session, piles=[3])  # set aside unfinished: resumed, not confirmed
    assert session.replaced_game() is None
