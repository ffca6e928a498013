"""Commands from a phone carry its seat (``Sender``): the writer checks ``Game.actor`` in the position the
command meets, for actions and for what undo and redo would revert or restore. Notes record what
changes no game state (a seat taken over) and are never replayed."""

from __future__ import annotations

from pathlib import Path

from companion.session import Command, Session
from companion.session.contract import Sender

from .sessionkit import log_rows, new_nim, take_json


def phone(session: Session, kind: str, seat: int | None, payload: dict | None = None):
    return session.submit(Command(kind, "control", payload or {}, sender=Sender(seat)))


def test_a_phone_playing_a_seat_acts_only_for_that_seat(session: Session) -> None:
    new_nim(session)
    refused = phone(session, "act", 1, take_json(0, 1, 0))  # Bob's phone takes for Ann
    assert (refused.accepted, refused.error) == (False, "forbidden")
    assert refused.reason == "only Ann's phone can do that: this phone plays Bob"
    assert session.state.piles == (3, 4, 5)
    assert phone(session, "act", 0, take_json(0, 1, 0)).accepted
    # The actor is the engine's answer in the position, not the player the action names.
    assert phone(session, "act", 0, take_json(0, 1, 1)).error == "forbidden"


def test_a_shared_phone_and_the_table_act_for_every_seat(session: Session) -> None:
    new_nim(session)
    assert phone(session, "act", None, take_json(0, 1, 0)).accepted
    assert session.submit(Command("act", "table", take_json(0, 1, 1))).accepted


def test_undo_and_redo_are_the_actors_too(session: Session) -> None:
    new_nim(session)
    assert phone(session, "act", 0, take_json(0, 1, 0)).accepted  # Ann's move
    undo = phone(session, "undo", 1)
    assert undo.error == "forbidden" and undo.reason == "only Ann's phone can undo that: this phone plays Bob"
    assert phone(session, "undo", 0).accepted
    redo = phone(session, "redo", 1)
    assert redo.error == "forbidden" and "redo" in redo.reason
    assert phone(session, "redo", None).accepted
    assert session.state.piles == (2, 4, 5)


def test_a_note_is_recorded_changes_nothing_and_is_never_replayed(make_session, db_path: Path) -> None:
    session = make_session()
    new_nim(session)
    assert phone(session, "act", 0, take_json(0, 1, 0)).accepted
    before = session.view()
    text = "Bob's seat was taken over by another phone"
    note = {"event": "SeatTakenOver", "text": text, "data": {"seat": 1}}
    outcome = session.submit(Command("note", "control", note))
    assert outcome.accepted and [e.text for e in outcome.events] == [note["text"]]
    after = session.view()
    assert after["game"] == before["game"] and after["can_undo"] and after["last_change"]["kind"] == "note"
    history = session.history()
    assert history[-1]["kind"] == "note" and history[-1]["action"] == note
    assert session.submit(Command("undo", "control")).accepted  # undoes the take, not the note
    assert session.state.piles == (3, 4, 5)
    session.stop()
    again = make_session()
    assert again.state.piles == (3, 4, 5) and again.view()["can_redo"]
    assert [k for (k,) in log_rows(db_path, "SELECT kind FROM inputs ORDER BY seq")] == [
        "new_game",
        "act",
        "note",
        "undo",
    ]


def test_a_note_needs_a_game_and_a_sentence(session: Session) -> None:
    assert session.submit(Command("note", "control", {"event": "X", "text": "y"})).error == "no_game"
    new_nim(session)
    for payload in ({}, {"event": "X"}, {"event": "X", "text": ""}, {"event": 1, "text": "y"}):
        assert session.submit(Command("note", "control", payload)).error == "malformed", payload


def test_unknown_new_game_options_are_refused_by_name(session: Session) -> None:
    from .nim import setup_json

    outcome = session.submit(Command("new_game", "test", {**setup_json(), "options": {"pils": [1], "x": 1}}))
    assert outcome.error == "setup"
    assert outcome.reason == "unknown options for Nim: pils, x (known: piles)"
