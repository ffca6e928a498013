"""Enrolment: tags offered on the control page, paired with cards, remembered across restarts."""

from __future__ import annotations

import pytest

from companion.observations import ReaderId, TagSeen, TagUid
from companion.table import EnrolmentError, Table, TagRegistry
from companion.table.registry import InvalidTagUidError, normalise_uid

from .table_fakes import FakeSession, toy_games


def put(table, clock, reader: int, uid: str) -> None:
    table.observe(TagSeen(ReaderId(reader), TagUid(uid), clock()))
    clock.advance(0.31)
    table.pump()


def test_while_enrolling_every_tag_is_offered_and_nothing_is_played(table, session, registry, clock):
    registry.enrol(TagUid("04000001"), "toy", "boss")
    table.start_enrolment()
    table.pump()
    assert session.devices["table"]["enrolment"]["active"] is True
    put(table, clock, 0, "04000001")
    put(table, clock, 3, "04000002")
    assert session.sent == [] and session.notices() == []
    pending = table.pending_tags()
    assert [(t.uid, t.card_id, t.place) for t in pending] == [
        ("04000002", None, "the discard pile"),
        ("04000001", "boss", "Grotsnik's line 1"),
    ]
    assert [p["uid"] for p in session.devices["table"]["enrolment"]["pending"]] == ["04000002", "04000001"]


def test_enrolling_an_unknown_tag_lying_on_a_line_plays_it(table, session, clock):
    put(table, clock, 1, "04AABBCC")
    assert session.sent == [] and session.notices()
    enrolled = table.enrol("04:aa:bb:cc", "Big Boss")  # by title, UID with separators
    assert (enrolled.uid, enrolled.game, enrolled.card_id) == ("04AABBCC", "toy", "boss")
    table.pump()
    [command] = session.sent
    assert dict(command.payload) == {"kind": "place", "player": 0, "card": "boss", "line": 1}
    assert session.notices() == [] and table.pending_tags() == []


def test_enrolments_persist_across_a_restart(db_path, config, clock):
    first = TagRegistry.open(db_path)
    table = Table(FakeSession(), config, first, clock=clock, games=toy_games)
    table.start_enrolment("toy")
    table.enrol("04000003", "grunt")
    first.close()

    again = TagRegistry.open(db_path)
    session = FakeSession()
    table = Table(session, config, again, clock=clock, games=toy_games)
    put(table, clock, 0, "04000003")
    assert [c.payload["card"] for c in session.sent] == ["grunt"]
    again.close()


def test_forget_removes_an_enrolment(table, registry, session, clock):
    table.enrol("04000004", "grunt")
    assert table.forget("04000004") is True
    assert table.forget("04000004") is False
    assert registry.lookup(TagUid("04000004")) is None


def test_enrolling_a_card_the_game_lacks_is_refused(table):
    with pytest.raises(EnrolmentError, match="toy has no card 'dragon'"):
        table.enrol("04000005", "dragon")


def test_enrolment_needs_a_game(table, session):
    session.current = {"seq": 0, "status": "no_game", "game": None, "notices": []}
    with pytest.raises(EnrolmentError):
        table.start_enrolment()
    with pytest.raises(EnrolmentError):
        table.enrol("04000006", "grunt")
    table.start_enrolment("toy")
    assert table.enrol("04000006", "grunt").game == "toy"
    assert [c["id"] for c in table.card_choices()] == ["grunt", "boss", "spell"]


def test_stopping_enrolment_plays_tags_again(table, session, clock, registry):
    table.start_enrolment()
    table.stop_enrolment()
    registry.enrol(TagUid("04000007"), "toy", "grunt")
    put(table, clock, 0, "04000007")
    assert len(session.sent) == 1


@pytest.mark.parametrize("text", ["", "04A", "XYZ1", "04:A1:B2:G3"])
def test_malformed_uids_are_refused(text):
    with pytest.raises(InvalidTagUidError):
        normalise_uid(text)


def test_the_registry_shares_the_sqlite_file_without_touching_other_tables(db_path):
    import sqlite3

    other = sqlite3.connect(db_path)
    other.execute("CREATE TABLE inputs (seq INTEGER PRIMARY KEY, payload TEXT)")
    other.execute("INSERT INTO inputs (payload) VALUES ('x')")
    other.commit()
    registry = TagRegistry.open(db_path)
    registry.enrol(TagUid("0401"), "toy", "grunt", at=12.5)
    assert [t.to_json() for t in registry.tags("toy")] == [
        {"uid": "0401", "game": "toy", "card_id": "grunt", "enrolled_at": 12.5}
    ]
    assert other.execute("SELECT payload FROM inputs").fetchall() == [("x",)]
    registry.close()
    other.close()
