"""Published views: full view first, every update in order, slow readers never block the writer."""

from __future__ import annotations

import copy
import json
import threading

import pytest

from companion.session import PUBLISHED_VIEW_KEYS, Command, PublishedView, Session

from .sessionkit import new_nim, take


def test_a_subscriber_gets_the_full_current_view_first(session: Session) -> None:
    new_nim(session)
    take(session, 0, 2)
    subscription = session.subscribe()
    first = subscription.get(timeout=5)
    assert isinstance(first, PublishedView)
    assert tuple(first) == PUBLISHED_VIEW_KEYS
    assert first["seq"] == 2 and first["game"]["piles"] == [1, 4, 5]
    assert subscription.get(timeout=0.01) is None  # nothing new yet


def test_then_every_accepted_input_in_order_and_no_rejection(session: Session) -> None:
    subscription = session.subscribe()
    assert subscription.get(timeout=5)["status"] == "no_game"
    new_nim(session)
    take(session, 0, 1)
    assert take(session, 0, 1, player=0).error == "illegal"
    take(session, 1, 1)
    session.submit(Command("undo", "control"))
    views = [subscription.get(timeout=5) for _ in range(4)]
    assert [(v["seq"], v["last_change"]["kind"]) for v in views] == [
        (1, "new_game"), (2, "act"), (3, "act"), (4, "undo")]  # fmt: skip
    assert views[-1]["can_redo"] and views[-1]["game"]["piles"] == [2, 4, 5]
    assert subscription.get(timeout=0.01) is None
    assert subscription.dropped == 0


def test_the_view_is_encoded_once_and_read_only(session: Session) -> None:
    new_nim(session)
    view = session.view()
    assert json.loads(view.json) == view
    assert json.loads(json.dumps(view)) == view
    with pytest.raises(TypeError):
        view["seq"] = 99
    with pytest.raises(TypeError):
        view.update(seq=99)
    changed = dict(view)
    changed["seq"] = 99
    assert view["seq"] == 1
    duplicate = copy.deepcopy(view)
    assert duplicate == view and duplicate.json == view.json


def test_a_slow_subscriber_never_blocks_the_writer(make_session) -> None:
    session = make_session(subscriber_depth=4)
    stalled = session.subscribe()  # never read while the game goes on
    live = session.subscribe()
    new_nim(session, [60])
    for _ in range(30):
        assert take(session, 0, 1).accepted
    assert stalled.dropped == 28  # 1 + 31 views, 4 kept
    kept = [stalled.get(timeout=1) for _ in range(4)]
    assert [v["seq"] for v in kept] == [28, 29, 30, 31]
    assert kept[-1] is session.view()  # the newest view is always there, complete
    assert stalled.get(timeout=0.01) is None
    assert live.dropped == 28 and live.get(timeout=1)["seq"] == 28


def test_twenty_readers_on_threads_all_see_the_final_view(session: Session) -> None:
    done = threading.Barrier(21, timeout=10)
    last_seen: list[int] = []
    lock = threading.Lock()
    subscriptions = [session.subscribe() for _ in range(20)]

    def reader(subscription) -> None:
        seqs = []
        while True:
            view = subscription.get(timeout=10)
            assert view is not None
            seqs.append(view["seq"])
            if view["seq"] == 21:
                break
        assert seqs == sorted(seqs)  # in order, possibly with gaps
        with lock:
            last_seen.append(seqs[-1])
        done.wait()

    threads = [threading.Thread(target=reader, args=(s,)) for s in subscriptions]
    for thread in threads:
        thread.start()
    new_nim(session, [40])
    for _ in range(20):
        take(session, 0, 1)
    done.wait()
    for thread in threads:
        thread.join(5)
    assert last_seen == [21] * 20


def test_closing_a_subscription_ends_it(session: Session) -> None:
    subscription = session.subscribe()
    subscription.close()
    assert subscription.closed and subscription.get(timeout=5) is None
    new_nim(session)
    assert subscription.get(timeout=0.01) is None


def test_stopping_the_session_closes_every_subscription(make_session) -> None:
    session = make_session()
    subscription = session.subscribe()
    subscription.get(timeout=5)
    waiting = threading.Event()
    result: list = []

    def wait_for_view() -> None:
        waiting.set()
        result.append(subscription.get(timeout=30))

    reader = threading.Thread(target=wait_for_view)
    reader.start()
    assert waiting.wait(5)
    session.stop()
    reader.join(5)
    assert not reader.is_alive() and result == [None] and subscription.closed


def test_a_device_report_republishes_with_its_status_and_notices(session: Session) -> None:
    new_nim(session)
    subscription = session.subscribe()
    subscription.get(timeout=5)
    session.report_device("firmware", {"state": "connected", "version": "1.2"})
    view = subscription.get(timeout=5)
    assert view["devices"] == {"firmware": {"state": "connected", "version": "1.2"}}
    assert view["seq"] == 1 and view["game"]["piles"] == [3, 4, 5]  # the game is untouched
    session.report_device(
        "readers", {"state": "connected", "notices": [{"level": "warning", "text": "unknown tag 04A1"}]}
    )
    view = subscription.get(timeout=5)
    assert view["notices"] == [{"level": "warning", "text": "unknown tag 04A1", "source": "readers"}]
    assert view["devices"]["readers"] == {"state": "connected"}
    session.report_device("readers", {"state": "connected"})  # the tag went away
    view = subscription.get(timeout=5)
    assert view["notices"] == [] and session.view() is view


def test_a_repeated_device_report_is_not_republished(session: Session) -> None:
    subscription = session.subscribe()
    subscription.get(timeout=5)
    session.report_device("gpio", {"state": "ok"})
    session.report_device("gpio", {"state": "ok"})
    session.report_device("gpio", {"state": "ok", "battery": 80})
    assert subscription.get(timeout=5)["devices"] == {"gpio": {"state": "ok"}}
    assert subscription.get(timeout=5)["devices"] == {"gpio": {"state": "ok", "battery": 80}}
    assert subscription.get(timeout=0.01) is None


def test_device_reports_from_many_threads_all_arrive(session: Session) -> None:
    threads = [
        threading.Thread(target=session.report_device, args=(f"die-{i}", {"state": "connected"}))
        for i in range(10)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    new_nim(session)  # queued behind every report, so its view carries them all
    assert sorted(session.view()["devices"]) == sorted(f"die-{i}" for i in range(10))
    assert session.view()["last_change"]["kind"] == "new_game"


def test_a_device_status_that_is_not_json_is_ignored(session: Session) -> None:
    session.report_device("camera", {"frame": object()})
    session.report_device("gpio", {"state": "ok"})
    new_nim(session)  # queued behind both reports
    assert session.view()["devices"] == {"gpio": {"state": "ok"}}
    assert session.running
