"""Commands through the writer: act, malformed vs illegal, new and end game, serialization, failures."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from companion.engine import Action, Event, Game, Setup
from companion.session import Command, Session, replay

from .nim import Nim, NimState, Take, find_nim, setup_json
from .sessionkit import log_rows, new_nim, take, take_json


def test_an_accepted_action_is_logged_and_changes_the_state(session: Session, db_path: Path) -> None:
    new_nim(session)
    outcome = take(session, pile=1, count=2)
    assert outcome.accepted and outcome.seq == 2 and outcome.error is None
    assert [e.text for e in outcome.events] == ["Ann took 2 from pile 1"]
    assert session.state.piles == (3, 2, 5)
    assert log_rows(db_path) == [(1, "new_game", 0, None), (2, "act", 0, None)]
    view = session.view()
    assert view["seq"] == 2 and view["status"] == "playing" and view["game"]["piles"] == [3, 2, 5]
    assert view["last_change"]["kind"] == "act" and view["can_undo"] and not view["can_redo"]


def test_the_stored_action_is_the_engines_canonical_json(session: Session, db_path: Path) -> None:
    new_nim(session)
    assert take(session, 0, 1).accepted
    assert log_rows(db_path, "SELECT payload FROM inputs WHERE kind = 'act'") == [
        ('{"kind":"take","player":0,"pile":0,"count":1}',)
    ]


@pytest.mark.parametrize(
    ("payload", "error", "reason"),
    [
        ({"kind": "grab"}, "malformed", "unknown action kind 'grab'"),
        ({"kind": "take", "player": 0, "pile": 0}, "malformed", "needs the field 'count'"),
        ({"kind": "take", "player": "0", "pile": 0, "count": 1}, "malformed", "whole number"),
        (take_json(0, 1, player=1), "illegal", "it is Ann's turn"),
        (take_json(7, 1, player=0), "illegal", "there is no pile 7"),
        (take_json(0, 4, player=0), "illegal", "cannot take 4 from pile 0"),
    ],
)
def test_rejections_say_why_and_change_nothing(
    session: Session, db_path: Path, payload: dict, error: str, reason: str
) -> None:
    new_nim(session)
    before_state, before_view, before_log = session.state, session.view(), log_rows(db_path)
    outcome = session.submit(Command("act", "test", payload))
    assert not outcome.accepted and outcome.seq is None
    assert outcome.error == error
    assert reason in (outcome.reason or "")
    assert session.state is before_state
    assert session.view() is before_view
    assert log_rows(db_path) == before_log


def test_acting_without_a_game_is_no_game(session: Session, db_path: Path) -> None:
    outcome = take(session, 0, 1, player=0)
    assert (outcome.accepted, outcome.error) == (False, "no_game")
    assert session.submit(Command("undo", "test")).error == "no_game"
    assert session.submit(Command("end_game", "test")).error == "no_game"
    assert log_rows(db_path) == []


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"game": "chess", "players": [{"name": "A"}, {"name": "B"}]}, "unknown game 'chess'"),
        ({"game": "nim"}, "list of players"),
        (setup_json(players=1), "2 to 4 players"),
        ({**setup_json(), "options": {"piles": [0]}}, "positive"),
    ],
)
def test_a_bad_setup_is_refused(session: Session, db_path: Path, payload: dict, reason: str) -> None:
    outcome = session.submit(Command("new_game", "control", payload))
    assert (outcome.accepted, outcome.error) == (False, "setup")
    assert reason in (outcome.reason or "")
    assert session.games() == [] and log_rows(db_path) == []


def test_a_new_game_sets_the_previous_one_aside(session: Session, db_path: Path) -> None:
    first = new_nim(session)
    take(session, 0, 1)
    second = new_nim(session, piles=[2])
    assert second.seq == first.seq + 3  # the act, the first game's set_aside, the new game
    assert log_rows(db_path, "SELECT seq, game_id, kind, payload FROM inputs WHERE kind = 'set_aside'") == [
        (3, 1, "set_aside", '{"finished":false,"by":2}')
    ]
    games = session.games()
    assert [(g["id"], g["ended"] is not None, g["status"], g["resumable"]) for g in games] == [
        (1, True, "set_aside", True),
        (2, False, "playing", False),
    ]
    assert session.state.piles == (2,)
    view = session.view()
    assert view["game_id"] == 2 and view["status"] == "playing" and not view["can_undo"]


def test_end_game_closes_the_game_and_the_view_shows_it_finished(session: Session) -> None:
    new_nim(session)
    take(session, 0, 1)
    outcome = session.submit(Command("end_game", "control"))
    assert outcome.accepted and [e.kind for e in outcome.events] == ["GameEnded"]
    view = session.view()
    assert view["status"] == "finished" and view["game"]["piles"] == [2, 4, 5]
    assert not view["can_undo"] and not view["can_redo"]
    assert session.games()[0]["ended"] is not None
    assert take(session, 0, 1).error == "no_game"
    assert session.submit(Command("undo", "test")).error == "no_game"
    assert session.submit(Command("end_game", "test")).error == "no_game"


def test_a_game_won_by_the_rules_is_finished_but_can_be_undone(session: Session) -> None:
    new_nim(session, piles=[2])
    assert take(session, 0, 2).accepted
    view = session.view()
    assert view["status"] == "finished" and view["game"]["result"] == {"winners": [0], "tie": False}
    assert view["can_undo"]
    assert take(session, 0, 1).error == "illegal"
    assert session.submit(Command("undo", "test")).accepted
    assert session.view()["status"] == "playing"


def test_concurrent_submitters_are_serialized_by_the_one_writer(make_session, db_path: Path) -> None:
    session = make_session(snapshot_every=7)
    new_nim(session, piles=[400])
    threads, results = [], []
    lock = threading.Lock()

    def player(seat: int) -> None:
        # Each thread only ever takes for its own seat: half of the attempts are out of turn.
        for _ in range(60):
            outcome = take(session, 0, 1, player=seat)
            with lock:
                results.append((seat, outcome))

    for seat in (0, 1):
        threads.append(threading.Thread(target=player, args=(seat,)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    accepted = [(seat, o.seq) for seat, o in results if o.accepted]
    assert all(o.error == "illegal" for _, o in results if not o.accepted)
    seqs = sorted(seq for _, seq in accepted)
    assert seqs == list(range(2, 2 + len(accepted)))  # no gaps, no duplicates
    # In seq order the seats alternate, as only a serialized writer can guarantee.
    by_seq = dict((seq, seat) for seat, seq in accepted)
    assert [by_seq[s] for s in seqs] == [i % 2 for i in range(len(seqs))]
    payloads = log_rows(db_path, "SELECT payload FROM inputs WHERE kind = 'act' ORDER BY seq")
    expected = replay(Nim(), Setup.from_json(setup_json([400])), [json.loads(p) for (p,) in payloads])
    assert session.state == expected
    assert session.state.piles == (400 - len(accepted),)


class Fragile(Nim):
    """Nim with an engine bug: taking exactly 2 from pile 2 crashes."""

    def apply(self, state: NimState, action: Action) -> tuple[NimState, tuple[Event, ...]]:
        if isinstance(action, Take) and (action.pile, action.count) == (2, 2):
            raise RuntimeError("engine bug")
        return super().apply(state, action)


class BadView(Nim):
    """Nim whose view cannot be encoded once pile 0 holds 2 counters."""

    def view(self, state: NimState) -> dict:
        view = super().view(state)
        if state.piles[0] == 2:
            view["oops"] = object()
        return view


@pytest.mark.parametrize("engine", [Fragile, BadView])
def test_an_engine_failure_is_rejected_and_the_writer_lives_on(
    make_session, db_path: Path, engine: type[Game]
) -> None:
    session = make_session(find_game=lambda name: engine())
    new_nim(session)
    before_log, before_state = log_rows(db_path), session.state
    bad = take(session, 2, 2) if engine is Fragile else take(session, 0, 1)
    assert (bad.accepted, bad.error) == (False, "internal")
    assert log_rows(db_path) == before_log and session.state is before_state
    assert session.running
    assert take(session, 1, 1).accepted
    assert session.state.piles == (3, 3, 5)


def test_unknown_command_kind_is_malformed(session: Session) -> None:
    outcome = session.submit(Command("shuffle", "test"))  # type: ignore[arg-type]
    assert (outcome.accepted, outcome.error) == (False, "malformed")


def test_submit_to_a_stopped_session_is_unavailable(db_path: Path) -> None:
    session = Session(db_path, find_nim)
    assert session.submit(Command("new_game", "test", setup_json())).error == "unavailable"
    session.start()
    session.stop()
    assert session.submit(Command("new_game", "test", setup_json())).error == "unavailable"


def test_a_command_not_taken_in_time_is_withdrawn(session: Session, db_path: Path) -> None:
    new_nim(session)
    gate, entered = threading.Event(), threading.Event()
    original = session._writer.handle

    def blocked_handle(command, render):
        entered.set()
        gate.wait(10)
        return original(command, render)

    session._writer.handle = blocked_handle  # the writer is stuck on a first command
    first: list = []
    blocker = threading.Thread(target=lambda: first.append(take(session, 0, 1)))
    blocker.start()
    assert entered.wait(5)
    late = session.submit(Command("act", "test", take_json(1, 1, player=1)), timeout=0.05)
    assert (late.accepted, late.error) == (False, "unavailable")
    gate.set()
    blocker.join(10)
    assert first[0].accepted
    session._writer.handle = original
    assert take(session, 2, 1).accepted  # the writer is still in order after the withdrawn command
    assert [row[1] for row in log_rows(db_path)] == ["new_game", "act", "act"]
    assert session.state.piles == (2, 4, 4)


def test_a_second_session_cannot_write_the_same_log(session: Session, db_path: Path) -> None:
    with pytest.raises(RuntimeError, match="another session"):
        Session(db_path, find_nim).start()


def test_the_observation_is_stored_with_the_input(session: Session, db_path: Path) -> None:
    new_nim(session)
    seen = {"reader": 3, "uid": "04A1B2"}
    assert session.submit(Command("act", "table", take_json(0, 1, 0), observation=seen)).accepted
    (entry,) = [h for h in session.history() if h["kind"] == "act"]
    assert entry["observation"] == seen and entry["source"] == "table"


def test_an_observation_that_is_not_json_is_malformed(session: Session, db_path: Path) -> None:
    new_nim(session)
    outcome = session.submit(Command("act", "table", take_json(0, 1, 0), observation={"at": object()}))
    assert (outcome.accepted, outcome.error) == (False, "malformed")
    assert [row[1] for row in log_rows(db_path)] == ["new_game"]


def test_an_action_that_is_not_an_object_is_malformed(session: Session) -> None:
    new_nim(session)
    outcome = session.submit(Command("act", "api", ["take"]))  # type: ignore[arg-type]
    assert (outcome.accepted, outcome.error) == (False, "malformed")


def test_start_twice_is_an_error_and_stop_twice_is_harmless(session: Session) -> None:
    with pytest.raises(RuntimeError, match="already running"):
        session.start()
    session.stop()
    session.stop()
    assert not session.running


def test_the_constructor_does_no_io(tmp_path: Path) -> None:
    Session(tmp_path / "deep" / "table.db", find_nim)
    assert list(tmp_path.iterdir()) == []
