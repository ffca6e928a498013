"""The published view carries the game's typed result and its game type, and the latest change's action
as anyone may read it (also after a restart); a game that cannot state its result costs no view."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import ClassVar

from companion.engine import (
    JSON,
    Action,
    GameResult,
    GameType,
    PlayerId,
    Standing,
    ranks_by_points,
)
from companion.session import Session

from ..integration.waiting import wait_until
from .nim import Nim, NimState
from .sessionkit import new_nim, take


class ScoredNim(Nim):
    """Nim with a typed result (counters taken are points) and a secret move: how many counters a
    player took is theirs until the game is over."""

    game_type: ClassVar[GameType] = GameType(hidden_information=True)
    results = 0

    def result(self, state: NimState) -> GameResult:
        ScoredNim.results += 1
        points = [float(state.moves)] * len(state.names)
        ranks = ranks_by_points(points)
        winners = () if state.winner is None else (PlayerId(state.winner),)
        return GameResult(
            final=state.winner is not None,
            winners=winners,
            standings=tuple(
                Standing(PlayerId(s), name, 1 if s in winners else ranks[s] + 1, points[s])
                for s, name in enumerate(state.names)
            ),
            outcome="" if not winners else f"{state.names[winners[0]]} wins",
        )

    def public_action(self, action: Action) -> dict[str, JSON]:
        return {"kind": action.kind, "player": getattr(action, "player", None)}


def scored(name: str) -> ScoredNim:
    return ScoredNim()


def test_the_view_publishes_the_typed_result_and_the_game_type(make_session: Callable[..., Session]):
    session = make_session(find_game=scored)
    new_nim(session, piles=[2])
    view = session.view()
    assert view["result"]["final"] is False and [s["name"] for s in view["result"]["standings"]] == [
        "Ann",
        "Bob",
    ]
    assert view["game_type"] == {
        "cooperative": False,
        "simultaneous_moves": False,
        "hidden_information": True,
    }
    assert take(session, 0, 2).accepted
    view = session.view()
    assert view["status"] == "finished" and view["result"]["final"] and view["result"]["winners"] == [0]
    assert view["result"]["outcome"] == "Ann wins"


def test_a_device_report_reuses_the_result_of_the_position(make_session: Callable[..., Session]):
    session = make_session(find_game=scored)
    new_nim(session)
    before = ScoredNim.results
    session.report_device("table", {"state": "ready"})
    session.report_device("table", {"state": "busy"})
    busy = lambda: session.view()["devices"].get("table", {}).get("state") == "busy"  # noqa: E731
    assert wait_until(session, busy)
    assert session.view()["result"] is not None
    assert ScoredNim.results == before  # the same position: its result is not worked out again


def test_last_change_tells_the_action_as_anyone_may_read_it_also_after_a_restart(
    make_session: Callable[..., Session],
):
    session = make_session(find_game=scored)
    new_nim(session)
    assert take(session, 1, 3).accepted
    change = session.view()["last_change"]
    assert change["kind"] == "act" and change["action"] == {
        "kind": "take",
        "player": 0,
    }  # the count is secret
    session.stop()
    again = make_session(find_game=scored)
    assert again.view()["last_change"]["action"] == {"kind": "take", "player": 0}


def test_undo_and_new_games_have_no_action(make_session: Callable[..., Session]):
    from companion.session import Command

    session = make_session(find_game=scored)
    new_nim(session)
    assert session.view()["last_change"]["action"] is None
    take(session, 0, 1)
    assert session.submit(Command("undo", "test")).accepted
    assert session.view()["last_change"]["kind"] == "undo" and session.view()["last_change"]["action"] is None


def test_a_game_that_states_no_result_publishes_none_and_is_logged_once(
    make_session: Callable[..., Session], caplog
):
    session = make_session()  # plain Nim: no result of its own
    with caplog.at_level(logging.WARNING, logger="companion.session.views"):
        new_nim(session)
        take(session, 0, 1)
    assert session.view()["result"] is None and session.view()["game"]["piles"] == [2, 4, 5]
    assert [r.message for r in caplog.records].count(
        "Nim does not state its result: the view shows none"
    ) <= 1
