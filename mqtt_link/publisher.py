"""A table's publisher: every accepted input (QoS 1, in seq order), the published view, the table's
status (online, or offline through the client's last will) and its game's result, to the hall's broker.

Store and forward from the event log itself: the publisher reads inputs from the session's log after
the highest seq it handed over, and counts a seq as delivered only when the broker acknowledged it
(PUBACK); that watermark is kept beside the log (``mqtt_link.watermark``). After a lost connection
it starts again from the watermark, so everything the broker had not acknowledged is published again,
in order, and the hall drops what it already had by (table, seq). The table plays on meanwhile: the
session never waits for the broker. At most ``WINDOW`` inputs are unacknowledged at a time.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion.engine import JSON
from companion.hall.confirm import confirmed_seats, current_result, result_digest
from companion.hall.messages import event_message, result_message, status_message
from companion.hall.topics import TableTopics, hall_id, table_id
from mqtt_link.address import Broker
from mqtt_link.loop import Link, MqttLoop
from mqtt_link.watermark import Watermark, mark_path

log = logging.getLogger(__name__)

WINDOW = 100
"""Inputs handed to the connection and not yet acknowledged, at most."""


class TableLog(Protocol):
    """What the publisher reads of the session (``companion.session.Session``)."""

    db_path: Path

    def subscribe(self, notify: Callable[[], None] | None = None) -> Any: ...

    def view(self) -> Mapping[str, JSON]: ...

    def games(self) -> list[dict[str, JSON]]: ...

    def history(self, game_id: int | None = None, limit: int = 100) -> list[dict[str, JSON]]: ...

    def inputs_after(
        self, seq: int, limit: int = 256, game_id: int | None = None
    ) -> list[dict[str, JSON]]: ...

    def replaced_game(self, game_id: int | None = None) -> dict[str, JSON] | None: ...


@dataclass(frozen=True)
class PublisherConfig:
    broker: Broker
    hall: str
    table: str
    name: str = ""

    @property
    def topics(self) -> TableTopics:
        return TableTopics(hall_id(self.hall), table_id(self.table))


def _dumps(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


class TablePublisher:
    """Publishes one session to the hall. ``start`` and ``stop`` from any thread; the rest runs on the
    MQTT loop's thread."""

    def __init__(self, session: TableLog, config: PublisherConfig, loop: MqttLoop) -> None:
        self.session = session
        self.config = config
        self.topics = config.topics
        self.loop = loop
        self.watermark = Watermark(mark_path(Path(session.db_path)))
        self.link = Link(
            loop,
            config.broker,
            f"table-{config.hall}-{config.table}",
            self,
            clean=True,
            will=self._will,
            max_inflight=WINDOW,
        )
        self._subscription: Any = None
        self._reader: Any = None
        self._scheduled = False
        self._state_scheduled = False
        self._window_full = False
        self._lock = threading.Lock()
        self._inflight: dict[int, int] = {}  # mid -> seq
        self._order: deque[int] = deque()  # seqs handed over, in order
        self._done: set[int] = set()  # of those, the ones acknowledged
        self._sent = 0
        self._view: Mapping[str, JSON] | None = None
        self._published_view: Any = None
        self._status_key: Any = None
        self._result_key: Any = None
        self._replaced_for: Any = None  # (game id, seq of a note) the replaced game was last looked up for
        self._replaced_key: Any = None
        self.on_acked: Callable[[int], None] | None = None
        """Called on the loop's thread with each new watermark (the benchmark listens)."""

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> TablePublisher:
        games = self.session.games()
        first_game = float(games[0]["created"]) if games else None  # type: ignore[arg-type]
        view = self.session.view()
        start = int(view["seq"])  # type: ignore[arg-type]
        # The game at the table: a resumed game is older than the newest game of the log.
        current = view.get("game_id")
        if current is None and games:
            current = games[-1]["id"]
        if current is not None:
            first = self.session.inputs_after(0, 1, game_id=int(current))  # type: ignore[arg-type]
            start = int(first[0]["seq"]) - 1 if first else start  # type: ignore[arg-type]
        mark = self.watermark.load(self.config.hall, self.config.table, first_game, start)
        self._sent = mark.acked
        self._reader = self.session.log_reader()  # kept open, used on the loop's thread only
        self._subscription = self.session.subscribe(self._wake)
        self.link.start()
        return self

    def stop(self) -> None:
        """A clean offline status (no last will), the watermark saved, the connection closed."""
        if self._subscription is not None:
            self._subscription.close()
        self.link.close_soon(self._goodbye)
        self.loop.call(self._reader.close)
        self.watermark.save(force=True)

    @property
    def acked(self) -> int:
        mark = self.watermark.mark
        return 0 if mark is None else mark.acked

    @property
    def log_id(self) -> str:
        mark = self.watermark.mark
        return "" if mark is None else mark.log

    # -- waking on the session's views ----------------------------------------------------------------

    def _wake(self) -> None:
        """On the session's writer thread: schedule one pump on the loop (never blocks the writer)."""
        with self._lock:
            if self._scheduled:
                return
            self._scheduled = True
        self.loop.call(self.pump)

    def pump(self) -> None:
        """Hands the new inputs to the connection and sends them at once; the view, status and result
        follow at the loop's next turn, after the inputs of every other table woken meanwhile (a hall
        of tables commits in bursts, and a view is ten times an input's size and work)."""
        with self._lock:
            self._scheduled = False
        if self._subscription is not None:
            while (view := self._subscription.get(timeout=0)) is not None:
                self._view = view
        if self._view is None:
            self._view = self.session.view()
        if not self.link.connected:
            return
        self._publish_inputs()
        self.link.flush()
        if not self._state_scheduled:
            self._state_scheduled = True
            self.loop.call(self._pump_state)

    def _pump_state(self) -> None:
        self._state_scheduled = False
        if self.link.connected and self._view is not None:
            self._publish_state()
            self.link.flush()

    def _publish_inputs(self) -> None:
        """Hands over the inputs after the last one handed over, up to the window; ``_window_full``
        says whether the window stopped it (the broker's acknowledgements then ask for more)."""
        while True:
            room = WINDOW - len(self._inflight)
            self._window_full = room <= 0
            if self._window_full:
                return
            items = self._reader.inputs_after(self._sent, room)
            for item in items:
                seq = int(item["seq"])  # type: ignore[arg-type]
                message = event_message(self.config.table, self.log_id, self.watermark.mark.since, item)  # type: ignore[union-attr]
                mid = self.link.publish(self.topics.events, _dumps(message), qos=1)
                if mid is None:
                    return  # the connection went: the reconnect starts again from the watermark
                self._inflight[mid] = seq
                self._order.append(seq)
                self._sent = seq
            if len(items) < room:
                return  # every input of the log is handed over

    def _publish_state(self) -> None:
        view = self._view
        assert view is not None
        if view is not self._published_view:
            encoded = getattr(view, "json", None) or json.dumps(view, separators=(",", ":"))
            if self.link.publish(self.topics.view, encoded.encode(), qos=1, retain=True) is not None:
                self._published_view = view
        game = view.get("game") if isinstance(view.get("game"), Mapping) else {}
        status_key = (view.get("game_id"), view.get("status"), game.get("round"), str(game.get("players")))  # type: ignore[union-attr]
        if status_key != self._status_key:
            status = status_message(self.config.table, self.config.name, self.log_id, True, view)
            if self.link.publish(self.topics.status, _dumps(status), qos=1, retain=True) is not None:
                self._status_key = status_key
        self._publish_result(view)

    def _publish_result(self, view: Mapping[str, JSON]) -> None:
        if self._publish_replaced(view):
            self._result_key = None  # the retained result is the current game's again, right after
        result = current_result(view)
        if result is None:
            return
        game_id = int(view["game_id"])  # type: ignore[arg-type]
        digest = result_digest(game_id, result)
        seats: set[int] = set()
        if result.get("final"):  # only a finished game's result is confirmed: read the notes then
            seats = confirmed_seats(self.session.history(game_id, limit=1000), game_id, digest)
        key = (game_id, digest, tuple(sorted(seats)), result.get("outcome"))
        if key == self._result_key:
            return
        message = result_message(self.config.table, self.log_id, view, result, digest, sorted(seats))
        if self.link.publish(self.topics.result, _dumps(message), qos=1, retain=True) is not None:
            self._result_key = key

    def _publish_replaced(self, view: Mapping[str, JSON]) -> bool:
        """The final result of the finished game the current game set aside (``replaced_game``), with
        the seats that confirmed it since: the phones still confirm it, and the hall records it once
        all did. Looked up when the game changes or a note (a confirmation) is written; True when a
        message went out."""
        game_id = view.get("game_id")
        change = view.get("last_change")
        note = change.get("seq") if isinstance(change, Mapping) and change.get("kind") == "note" else None
        asked = (game_id, note)
        if not isinstance(game_id, int) or (asked == self._replaced_for and self._replaced_key is not None):
            return False
        self._replaced_for = asked
        replaced = self.session.replaced_game(game_id)
        if replaced is None:
            self._replaced_key = ()
            return False
        old = int(replaced["game_id"])  # type: ignore[arg-type]
        result: Mapping[str, JSON] = replaced["result"]  # type: ignore[assignment]
        digest = result_digest(old, result)
        seats: set[int] = set()
        for inputs_of in (old, game_id):
            seats |= confirmed_seats(self.session.history(inputs_of, limit=1000), old, digest)
        key = (old, digest, tuple(sorted(seats)))
        if key == self._replaced_key:
            return False
        setup: Mapping[str, Any] = replaced.get("setup") or {}  # type: ignore[assignment]
        shown_game = {"game": replaced["game"], "players": setup.get("players") or []}
        as_shown = {"seq": view.get("seq"), "game_id": old, "game": shown_game}
        message = result_message(self.config.table, self.log_id, as_shown, result, digest, sorted(seats))
        if self.link.publish(self.topics.result, _dumps(message), qos=1, retain=True) is None:
            return False
        self._replaced_key = key
        return True

    # -- the link's handler (loop thread) ------------------------------------------------------------

    def _will(self) -> tuple[str, bytes, int, bool]:
        status = status_message(
            self.config.table, self.config.name, self.log_id, False, self._view, "connection lost"
        )
        return self.topics.status, _dumps(status), 1, True

    def _goodbye(self, link: Link) -> None:
        status = status_message(
            self.config.table, self.config.name, self.log_id, False, self._view, "stopped"
        )
        link.publish(self.topics.status, _dumps(status), qos=1, retain=True)

    def _forget_inflight(self) -> None:
        self._inflight.clear()
        self._order.clear()
        self._done.clear()
        self._sent = self.acked

    def connected(self, link: Link) -> None:
        self._forget_inflight()
        self._published_view = self._status_key = self._result_key = None  # all said again
        self._replaced_key = None
        self.loop.call(self.pump)  # right after paho's callback: the pump writes to the socket itself

    def disconnected(self, link: Link, reason: str) -> None:
        self._forget_inflight()
        self.watermark.save(force=True)

    def published(self, link: Link, mid: int) -> None:
        seq = self._inflight.pop(mid, None)
        if seq is None:
            return  # a view, status or result
        self._done.add(seq)
        acked = self.acked
        while self._order and self._order[0] in self._done:  # every seq before it is acknowledged too
            acked = self._order.popleft()
            self._done.discard(acked)
        if acked != self.acked:
            self.watermark.advance(acked)
            if self.on_acked is not None:
                self.on_acked(acked)
        # Only a window that was full needs the log read again: a new input wakes the pump itself.
        if self._window_full and len(self._inflight) < WINDOW // 2:
            self._publish_inputs()  # sent at the loop's next turn (never written from paho's callback)

    def message(self, link: Link, topic: str, payload: bytes) -> None:
        pass  # a table subscribes to nothing
