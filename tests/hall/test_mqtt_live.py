"""A table and a hall through a real Mosquitto on a free loopback port: every event arrives once, in
order, across a lost broker; the last will; credentials and the ACL; hostile publishers."""

from __future__ import annotations

import json
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from companion.cli.bench_hall import CutProxy
from companion.hall.broker_files import acl_file, password_file
from companion.hall.state import HallState
from companion.session import Command, Session
from mqtt_link.address import Broker
from mqtt_link.broker import EmbeddedBroker
from mqtt_link.publisher import PublisherConfig, TablePublisher
from mqtt_link.subscriber import HallSubscriber
from mqtt_link.watermark import mark_path
from tests.session.nim import setup_json

from .hallkit import find_result_nim, wait_until

pytestmark = pytest.mark.mosquitto


def play(session: Session, moves: int) -> int:
    seq = 0
    for _ in range(moves):
        position = session.position()
        action = position.game.legal_actions(position.state)[0]
        outcome = session.submit(Command("act", "test", position.game.format_action(action)))
        assert outcome.accepted, outcome
        seq = int(outcome.seq)
    return seq


class Table:
    def __init__(self, db: Path, url: str, loop, table: str = "t1", **credentials) -> None:
        self.session = Session(db, find_result_nim)
        self.session.start()
        broker = Broker.from_url(url, credentials.get("username"), credentials.get("password"))
        self.publisher = TablePublisher(
            self.session, PublisherConfig(broker, "club", table, f"Table {table}"), loop
        )

    def start(self) -> Table:
        self.publisher.start()
        return self

    def stop(self) -> None:
        self.publisher.stop()
        self.session.stop()


def hall(url: str, loop, **credentials) -> tuple[HallState, HallSubscriber]:
    state = HallState()
    taken: list[tuple[str, int]] = []
    state.event_listeners.append(lambda table, body: taken.append((table, body["seq"])))
    state.taken = taken  # type: ignore[attr-defined]
    broker = Broker.from_url(url, credentials.get("username"), credentials.get("password"))
    subscriber = HallSubscriber(state, broker, "club", loop).start()
    wait_until(lambda: subscriber.online, what="the hall's subscription")
    return state, subscriber


def test_every_input_reaches_the_hall_once_and_in_order_with_its_view_and_status(broker, loop, tmp_path):
    state, subscriber = hall(broker.url, loop)
    table = Table(tmp_path / "t1.db", broker.url, loop).start()
    try:
        table.session.submit(Command("new_game", "test", setup_json(players=2)))
        last = play(table.session, 5)
        wait_until(lambda: state.table("t1") is not None and state.table("t1").seq == last, what="the events")
        assert state.taken == [("t1", seq) for seq in range(1, last + 1)]
        wait_until(lambda: state.tiles()[0]["players"] != [] and state.view_json("t1") is not None)
        tile = state.tiles()[0]
        assert tile["online"] and tile["name"] == "Table t1" and tile["game"] == "nim"
        assert json.loads(state.view_json("t1"))["seq"] == last
        wait_until(lambda: table.publisher.acked == last, what="the broker's acknowledgements")
    finally:
        table.stop()
        subscriber.stop()
    # Saved at most once a second while publishing, and when the publisher stops.
    assert json.loads(mark_path(tmp_path / "t1.db").read_text())["acked"] == last


def test_a_table_that_loses_the_broker_plays_on_and_forwards_everything_after(broker, loop, tmp_path):
    state, subscriber = hall(broker.url, loop)
    table = Table(tmp_path / "t1.db", broker.url, loop).start()
    try:
        table.session.submit(Command("new_game", "test", setup_json(piles=[9, 9, 9], players=2)))
        play(table.session, 2)
        wait_until(lambda: table.publisher.acked == 3)
        broker.stop()
        wait_until(lambda: not table.publisher.link.connected, what="the table noticing")
        last = play(table.session, 4)  # the game goes on without the broker
        assert table.publisher.acked == 3
        broker.start()
        wait_until(lambda: state.table("t1").seq == last, timeout=20, what="the stored events")
        assert sorted(state.taken) == [("t1", seq) for seq in range(1, last + 1)]
        assert len(state.taken) == len(set(state.taken))
    finally:
        table.stop()
        subscriber.stop()


def test_a_restarted_table_publishes_again_only_what_the_broker_did_not_acknowledge(broker, loop, tmp_path):
    state, subscriber = hall(broker.url, loop)
    table = Table(tmp_path / "t1.db", broker.url, loop).start()
    table.session.submit(Command("new_game", "test", setup_json(piles=[9, 9, 9], players=2)))
    first = play(table.session, 3)
    wait_until(lambda: table.publisher.acked == first)
    table.stop()
    mark = json.loads(mark_path(tmp_path / "t1.db").read_text())
    assert mark["acked"] == first
    # Played with the publisher stopped (the Pi's broker link down across a restart): kept in the log.
    offline = Session(tmp_path / "t1.db", find_result_nim)
    offline.start()
    more = play(offline, 2)
    offline.stop()
    again = Table(tmp_path / "t1.db", broker.url, loop).start()
    try:
        wait_until(lambda: state.table("t1").seq == more, what="the inputs played while away")
        assert state.duplicates == 0, "nothing the broker had acknowledged was sent again"
        assert sorted(state.taken) == [("t1", seq) for seq in range(1, more + 1)]
    finally:
        again.stop()
        subscriber.stop()


def test_a_table_cut_off_is_offline_for_the_hall_through_its_last_will(broker, loop, tmp_path):
    proxy = CutProxy(broker.port)
    state, subscriber = hall(broker.url, loop)
    table = Table(tmp_path / "t1.db", f"mqtt://127.0.0.1:{proxy.port}", loop).start()
    try:
        wait_until(lambda: state.table("t1") is not None and state.table("t1").online)
        proxy.cut(3.0)
        wait_until(lambda: not state.table("t1").online, what="the last will")
        assert state.table("t1").reason == "connection lost"
        wait_until(lambda: state.table("t1").online, timeout=15, what="the table's return")
    finally:
        table.stop()
        subscriber.stop()
        proxy.close()


def test_a_finished_game_publishes_its_result_and_its_confirmations(broker, loop, tmp_path):
    from companion.hall.confirm import confirmation_note

    state, subscriber = hall(broker.url, loop)
    table = Table(tmp_path / "t1.db", broker.url, loop).start()
    try:
        table.session.submit(Command("new_game", "test", setup_json(piles=[1], players=2)))
        play(table.session, 1)
        wait_until(
            lambda: (
                state.table("t1") is not None
                and state.table("t1").result is not None
                and state.table("t1").result["result"]["final"]
            )
        )
        body = state.table("t1").result
        assert body["confirmed_by"] == [] and not body["confirmed"]
        for seat, name in enumerate(("Ann", "Bob")):
            note = confirmation_note(body["game_id"], seat, name, body["digest"], "Ann wins")
            assert table.session.submit(Command("note", "control", note)).accepted
        wait_until(lambda: state.table("t1").result["confirmed"], what="the confirmed result")
        assert state.tiles()[0]["result"]["confirmed_by"] == [0, 1]
    finally:
        table.stop()
        subscriber.stop()


def test_a_table_that_joins_with_a_resumed_game_publishes_that_game_from_its_start(broker, loop, tmp_path):
    offline = Session(tmp_path / "t1.db", find_result_nim)
    offline.start()
    assert offline.submit(Command("new_game", "test", setup_json(piles=[9, 9, 9], players=2))).accepted
    play(offline, 2)
    first = offline.view()["game_id"]
    assert offline.submit(Command("new_game", "test", setup_json(piles=[9], players=2))).accepted
    play(offline, 1)
    assert offline.submit(Command("resume", "test", {"game_id": first})).accepted
    last = int(offline.view()["seq"])
    offline.stop()
    state, subscriber = hall(broker.url, loop)
    table = Table(tmp_path / "t1.db", broker.url, loop).start()
    try:
        assert table.session.view()["game_id"] == first  # the resumed game is the game at the table
        wait_until(lambda: state.table("t1") is not None and state.table("t1").seq == last, what="the events")
        # From the resumed game's first input (the newest game started later), set_aside and resume too.
        assert sorted(state.taken) == [("t1", seq) for seq in range(1, last + 1)]
        kinds = [e["kind"] for e in state.table("t1").recent]
        assert "resume" in kinds and "set_aside" in kinds and state.refused == 0
    finally:
        table.stop()
        subscriber.stop()


def test_a_finished_game_a_new_game_set_aside_still_gets_its_confirmed_result_to_the_hall(
    broker, loop, tmp_path
):
    from companion.hall.confirm import confirmation_note, result_digest

    results: list[dict] = []
    state = HallState(on_result=lambda table, body: results.append(body))
    subscriber = HallSubscriber(state, Broker.from_url(broker.url), "club", loop).start()
    wait_until(lambda: subscriber.online, what="the hall's subscription")
    table = Table(tmp_path / "t1.db", broker.url, loop).start()
    try:
        assert table.session.submit(Command("new_game", "test", setup_json(piles=[1], players=2))).accepted
        play(table.session, 1)
        finished = table.session.view()["game_id"]
        assert table.session.submit(Command("new_game", "test", setup_json(piles=[5], players=2))).accepted
        replaced = table.session.replaced_game()
        assert replaced is not None and replaced["game_id"] == finished and replaced["result"]["final"]
        digest = result_digest(finished, replaced["result"])
        for seat, name in enumerate(("Ann", "Bob")):
            note = confirmation_note(finished, seat, name, digest, "Ann wins")
            assert table.session.submit(Command("note", "control", note)).accepted

        def confirmed() -> bool:
            return any(b["game_id"] == finished and b["confirmed"] for b in results)

        wait_until(confirmed, what="the set-aside game's confirmed result")
        done = next(b for b in results if b["game_id"] == finished and b["confirmed"])
        assert done["players"] == ["Ann", "Bob"] and done["confirmed_by"] == [0, 1] and done["game"] == "nim"
        # The retained result is the game at the table's again.
        wait_until(lambda: state.table("t1").result["game_id"] == finished + 1, what="the current result")
    finally:
        table.stop()
        subscriber.stop()


def raw_client(port: int, user: str | None = None, password: str | None = None) -> tuple[mqtt.Client, list]:
    results: list = []
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{user}", protocol=mqtt.MQTTv311)
    if user:
        client.username_pw_set(user, password)
    client.on_connect = lambda c, u, f, reason, p: results.append(("connect", reason.is_failure))
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client, results


def test_the_acl_lets_a_table_write_only_its_own_topics(mosquitto, loop, tmp_path):
    passwords = {"hall": "hall-secret", "t1": "one-secret", "t2": "two-secret"}
    (tmp_path / "passwd").write_text(password_file(passwords))
    (tmp_path / "acl").write_text(acl_file("club", ["t1", "t2"]))
    with EmbeddedBroker(
        tmp_path / "b", password_file=tmp_path / "passwd", acl_file=tmp_path / "acl", binary=mosquitto
    ) as broker:
        state, subscriber = hall(broker.url, loop, username="hall", password="hall-secret")
        table = Table(tmp_path / "t1.db", broker.url, loop, username="t1", password="one-secret").start()
        attacker, _ = raw_client(broker.port, "t2", "two-secret")
        stranger, results = raw_client(broker.port, "t2", "wrong")
        try:
            wait_until(
                lambda: state.table("t1") is not None and state.table("t1").online,
                what="t1 with its password",
            )
            forged = {"table": "t1", "name": "Forged", "online": False, "log": "x", "reason": "forged"}
            attacker.publish("hall/club/tables/t1/status", json.dumps(forged), qos=1).wait_for_publish(5)
            attacker.publish("hall/club/tables/t2/status", json.dumps(forged), qos=1).wait_for_publish(5)
            wait_until(lambda: state.refused >= 1, what="the forged status on t2's own topic")
            assert "names table 't1'" in state.problems[-1]  # t2 may write its topic, not speak as t1
            assert (
                state.table("t1").online and state.table("t1").name == "Table t1"
            )  # the ACL dropped the rest
            wait_until(lambda: results != [], what="the wrong password's answer")
            assert results[0] == ("connect", True)
        finally:
            for client in (attacker, stranger):
                client.loop_stop()
                client.disconnect()
            table.stop()
            subscriber.stop()


def test_a_table_cannot_take_another_tables_or_the_halls_client_id(mosquitto, loop, tmp_path):
    """With its own password, t2 connected as ``table-club-t1`` (t1 went offline, the two kicked each
    other off in turn) and as ``hall-club`` (it got the hall's persistent session, queued events and
    all, and a clean start would have wiped it). Found by attacking a hall with the generated files."""
    passwords = {"hall": "hall-secret", "t1": "one-secret", "t2": "two-secret"}
    (tmp_path / "passwd").write_text(password_file(passwords))
    (tmp_path / "acl").write_text(acl_file("club", ["t1", "t2"]))
    with EmbeddedBroker(
        tmp_path / "b", password_file=tmp_path / "passwd", acl_file=tmp_path / "acl", binary=mosquitto
    ) as broker:
        state, subscriber = hall(broker.url, loop, username="hall", password="hall-secret")
        table = Table(tmp_path / "t1.db", broker.url, loop, username="t1", password="one-secret").start()
        attackers: list[mqtt.Client] = []
        try:
            wait_until(lambda: state.table("t1") is not None and state.table("t1").online, what="t1 online")
            sessions: list[bool] = []
            for client_id in ("table-club-t1", "hall-club"):
                hall_session = client_id == "hall-club"  # asks for the hall's persistent session
                attacker = mqtt.Client(
                    CallbackAPIVersion.VERSION2,
                    client_id=client_id,
                    protocol=mqtt.MQTTv311,
                    clean_session=not hall_session,
                )
                attacker.username_pw_set("t2", "two-secret")
                attacker.on_connect = lambda c, u, flags, reason, p: sessions.append(flags.session_present)
                attacker.connect("127.0.0.1", broker.port)
                attacker.loop_start()
                attackers.append(attacker)
                wait_until(lambda: len(sessions) == len(attackers), what=f"the attacker as {client_id}")
                attacker.loop_stop()
                attacker.disconnect()
            assert sessions[1] is False  # a session of its own, never the hall's
            # A message through the broker after both: whatever the connects did has reached the hall.
            attackers[-1].reconnect()
            attackers[-1].loop_start()
            status = {"table": "t2", "name": "Table t2", "online": True, "log": "x"}
            attackers[-1].publish("hall/club/tables/t2/status", json.dumps(status), qos=1).wait_for_publish(5)
            wait_until(lambda: state.table("t2") is not None, what="t2's own status")
            assert "already connected" not in broker.log.read_text()
            assert state.table("t1").online and subscriber.online
        finally:
            for attacker in attackers:
                attacker.loop_stop()
                attacker.disconnect()
            table.stop()
            subscriber.stop()


def test_hostile_messages_on_table_topics_are_refused_and_counted(broker, loop):
    state, subscriber = hall(broker.url, loop)
    client, _ = raw_client(broker.port)
    try:
        client.publish("hall/club/tables/t9/events", b"[" * 100000, qos=1).wait_for_publish(5)
        client.publish("hall/club/tables/t9/view", b"x" * 300_000, qos=1).wait_for_publish(5)
        client.publish(
            "hall/club/tables/t9/status", json.dumps({"table": "t1", "online": True}), qos=1
        ).wait_for_publish(5)
        client.publish("hall/club/tables/BAD/view", b"{}", qos=1).wait_for_publish(5)
        wait_until(lambda: state.refused >= 2, what="the refusals")
        assert state.table_ids() in ([], ["t9"])
        assert all(tile["players"] == [] for tile in state.tiles())
    finally:
        client.loop_stop()
        client.disconnect()
        subscriber.stop()
