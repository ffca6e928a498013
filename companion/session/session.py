"""The table session: the one writer of game state and of the event log (DESIGN.md, Session).

Callers on any thread ``submit`` commands; one writer thread takes them from a queue in order,
answers each after its input is durable, and publishes the resulting view to every subscriber.
Device reports travel the same queue, so the writer is the only code that ever builds a view.
"""

from __future__ import annotations

import json
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from companion.bundle import LivePosition
from companion.engine import JSON, ActionError, Game
from companion.session import history as history_queries
from companion.session.contract import Command, Outcome
from companion.session.feed import Feed, Subscriber
from companion.session.resume import ResumeStats
from companion.session.store import EventLog, unreadable
from companion.session.views import Position, PublishedView, build_view
from companion.session.writer import Writer

logger = logging.getLogger(__name__)
story = logging.getLogger("companion.story")
"""One INFO line per accepted input, in the players' words, and per refused command: the journal of a
normal run reads as the story of the game (filter it out with this logger's name)."""


def _default_find_game(name: str) -> Game:
    from companion.games import find_game  # engines load lazily, only when a game is played

    return find_game(name)


class _Pending:
    """A submitted command and its answer; the submitter may withdraw it until the writer takes it."""

    def __init__(self, command: Command) -> None:
        self.command = command
        self.outcome: Outcome | None = None
        self.done = threading.Event()
        self._lock = threading.Lock()
        self._state = "pending"

    def take(self) -> bool:
        with self._lock:
            if self._state != "pending":
                return False
            self._state = "taken"
            return True

    def withdraw(self) -> bool:
        with self._lock:
            if self._state != "pending":
                return False
            self._state = "withdrawn"
            return True

    def answer(self, outcome: Outcome) -> None:
        self.outcome = outcome
        self.done.set()


class _Probe:
    """Answered by the writer loop when it reaches it: proof the loop is alive (the watchdog asks)."""

    def __init__(self) -> None:
        self.answered = threading.Event()


class _DeviceReport:
    def __init__(self, name: str, status: Mapping[str, JSON]) -> None:
        self.name = name
        self.status = status


_STOP = object()


class Session:
    """Implements ``companion.session.contract.SessionPort`` over a SQLite event log.

    ``find_game`` maps a game name to an engine (``companion.games.find_game`` by default; tests pass
    their own). ``clock`` gives the wall time stored with each input. Nothing happens until ``start``.
    """

    def __init__(
        self,
        db_path: str | Path,
        find_game: Callable[[str], Game] = _default_find_game,
        *,
        clock: Callable[[], float] = time.time,
        snapshot_every: int = 100,
        subscriber_depth: int = 16,
    ) -> None:
        if snapshot_every < 1:
            raise ValueError("snapshot_every must be at least 1")
        self.db_path = Path(db_path)
        self._writer = Writer(EventLog(self.db_path), find_game, clock, snapshot_every)
        self._feed = Feed(
            build_view(seq=0, position=Position(), last_change=None, devices={}, notices=[]), subscriber_depth
        )
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._devices: dict[str, dict[str, JSON]] = {}
        self._device_notices: dict[str, list[dict[str, JSON]]] = {}
        self._resume_stats = ResumeStats()
        self._keepers: tuple[tuple[Any, ...], dict[int, Game | None]] | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        """Opens the log, resumes the current game and starts the writer thread.

        Raises ``EventLogError`` (one line: damaged, newer schema, locked) when the log cannot be used.
        """
        if self._thread is not None:
            raise RuntimeError("the session is already running")
        self._writer.log.open()
        try:
            self._resume_stats = self._writer.resume()
        except sqlite3.Error as exc:  # a file whose header is sound but whose pages are not
            self._writer.log.close()
            raise unreadable(self._writer.log.path, exc) from None
        except BaseException:
            self._writer.log.close()
            raise
        logger.info("%s", self._start_story())
        self._feed.publish(self._render(self._writer.seq, self._writer.position(), self._writer.last_change))
        self._writer.snapshot_if_due()
        self._thread = threading.Thread(target=self._loop, name="session-writer", daemon=True)
        self._thread.start()

    def _start_story(self) -> str:
        """What the start found, as one line a person reads in the journal."""
        stats, run = self._resume_stats, self._writer.run
        if run is None:
            if self._writer.log.created:
                return f"new event log at {self.db_path}: no game yet"
            return f"event log {self.db_path}: no game to resume (last input #{self._writer.seq})"
        state = "finished" if run.finished else "playing"
        source = f"from the snapshot at #{stats.snapshot_seq}" if stats.snapshot_seq else "from the start"
        return (
            f"resumed game #{run.game_id} ({run.game.title}, {state}): {stats.inputs} actions,"
            f" {stats.replayed} replayed {source} in {stats.seconds:.3f} s"
        )

    def stop(self, timeout: float = 10.0) -> None:
        """Answers what is queued, stops the writer, closes the log and every subscription."""
        thread = self._thread
        if thread is None:
            return
        self._queue.put(_STOP)
        thread.join(timeout)
        if thread.is_alive():
            logger.error("the session writer did not stop within %.1f s", timeout)
            return
        self._thread = None
        self._writer.log.close()
        self._feed.close_all()

    def __enter__(self) -> Session:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def resume_stats(self) -> ResumeStats:
        """How the last ``start`` rebuilt the game (inputs replayed, snapshot used, seconds)."""
        return self._resume_stats

    @property
    def state(self) -> Any:
        """The current game state (immutable; for tests and tools), or None without a game."""
        run = self._writer.run
        return None if run is None else run.state

    # -- SessionPort --------------------------------------------------------------------------

    def submit(self, command: Command, timeout: float = 5.0) -> Outcome:
        if not self.running:
            return Outcome(accepted=False, error="unavailable", reason="the session is not running")
        pending = _Pending(command)
        self._queue.put(pending)
        if not pending.done.wait(timeout) and pending.withdraw():
            return Outcome(accepted=False, error="unavailable", reason="the session is busy; try again")
        pending.done.wait()  # taken by the writer: its answer is moments away
        assert pending.outcome is not None
        return pending.outcome

    def view(self) -> PublishedView:
        return self._feed.latest

    def position(self) -> LivePosition:
        return self._feed.latest.live

    def subscribe(self, notify: Callable[[], None] | None = None) -> Subscriber:
        """A feed of views; ``notify`` (optional) is called on the writer's thread after each view is
        queued, so one event loop can wait on many sessions' feeds (it must not block)."""
        return self._feed.subscribe(notify)

    def report_device(self, name: str, status: Mapping[str, JSON]) -> None:
        """Safe from any thread (a serial or GPIO callback): the writer merges it and republishes."""
        self._queue.put(_DeviceReport(name, dict(status)))

    def responsive(self, timeout: float) -> bool:
        """True once the writer loop took everything queued before this call, within ``timeout``
        seconds: the systemd watchdog is pinged only while this holds (``companion.sdnotify``)."""
        if not self.running:
            return False
        probe = _Probe()
        self._queue.put(probe)
        return probe.answered.wait(timeout)

    # -- reading the log (any thread) -----------------------------------------------------------

    def games(self) -> list[dict[str, JSON]]:
        """Every game of the log with its status (``history.GAME_STATUSES``): the current one is
        ``playing`` or ``finished`` (or ``closed``), a game set aside before its end is ``resumable``."""
        return history_queries.games(self.db_path, self._current_status())

    def history(self, game_id: int | None = None, limit: int = 100) -> list[dict[str, JSON]]:
        """Inputs as anyone at the table may read them: secret actions of a game still being played
        (the current one, or one set aside to be resumed) show only their public form."""
        return history_queries.history(self.db_path, game_id, limit, self._redactor())

    def export_jsonl(self, game_id: int | None = None) -> Iterator[str]:
        return history_queries.export_jsonl(self.db_path, game_id, self._redactor(), self._current_status())

    def _current_status(self) -> str:
        status = self._feed.latest["status"]
        return "finished" if status == "finished" else "playing"

    def replaced_game(self, game_id: int | None = None) -> dict[str, JSON] | None:
        """The finished game that game ``game_id`` (default: the current game) set aside, with its final
        result (``history.replaced_game``): its result can still be confirmed for a hall."""
        if game_id is None:
            current = self._feed.latest["game_id"]
            if not isinstance(current, int):
                return None
            game_id = current
        return history_queries.replaced_game(self.db_path, game_id)

    def inputs_after(self, seq: int, limit: int = 256, game_id: int | None = None) -> list[dict[str, JSON]]:
        """Inputs with a seq above ``seq`` in log order, of every game (or of ``game_id``), as the
        history shows them (secrets of the game being played in their public form): what the hall
        publisher re-reads after its watermark (store and forward from the log itself)."""
        return history_queries.inputs_after(self.db_path, seq, limit, self._redactor(), game_id)

    def log_reader(self) -> history_queries.LogReader:
        """``inputs_after`` over a connection of its own kept open (one thread at a time; ``close`` it)."""
        return history_queries.LogReader(self.db_path, self._redactor)

    def _secret_keepers(self) -> dict[int, Game | None]:
        """The games whose secrets stay kept, with their engines: the current one while it is played,
        and those set aside unfinished (they can be resumed). Read from the log again only when the
        game at the table or its status changes: only a new game or a resume sets a game aside or
        takes one back, and both change the current game. The hall publisher asks after every input,
        the pages on every history request (reading the log per input cost the publisher a third of
        its work)."""
        view = self._feed.latest
        key = (view["status"], view["game_id"])
        cached = self._keepers
        if cached is not None and cached[0] == key:
            return cached[1]
        keeping: dict[int, Game | None] = {}
        if view.live.game is not None and view["status"] == "playing":
            keeping[view["game_id"]] = view.live.game
        for game_id, name in history_queries.set_aside_games(self.db_path):
            if game_id not in keeping:
                keeping[game_id] = self._engine(name)
        self._keepers = (key, keeping)
        return keeping

    def _redactor(self) -> history_queries.Redact:
        """Hides the secrets of every game that is not over: the current one while it is played, and
        those set aside unfinished (they can be resumed). A finished or closed game keeps none."""
        keeping = self._secret_keepers()
        if not keeping:
            return lambda item: item

        def redact(item: dict[str, JSON]) -> dict[str, JSON]:
            action = item.get("action")
            game_id = item.get("game_id")
            if game_id not in keeping or item.get("kind") != "act" or not isinstance(action, dict):
                return item
            game = keeping[game_id]
            if game is None:  # no engine to tell its public form: only what every action shows
                public = {k: action[k] for k in ("kind", "player") if k in action}
            else:
                try:
                    public = game.public_action(game.parse_action(action))
                except ActionError:
                    return item
            return item if public == action else {**item, "action": public, "observation": None}

        return redact

    def _engine(self, name: str) -> Game | None:
        try:
            return self._writer.find_game(name)
        except Exception:
            return None

    # -- the writer thread --------------------------------------------------------------------

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            if item is _STOP:
                return
            try:
                if isinstance(item, _Pending):
                    self._handle(item)
                elif isinstance(item, _DeviceReport):
                    self._device(item)
                elif isinstance(item, _Probe):
                    item.answered.set()
            except Exception:
                # Never let one bad item end the only writer.
                logger.exception("the session writer failed on %r", item)
                if isinstance(item, _Pending) and not item.done.is_set():
                    item.answer(Outcome(accepted=False, error="internal", reason="internal error"))

    def _handle(self, pending: _Pending) -> None:
        if not pending.take():
            return  # the submitter gave up before we got here: never apply it behind its back
        storage_before = self._writer.storage_problem
        outcome, view = self._writer.handle(pending.command, self._render)
        if view is None and self._writer.storage_problem != storage_before:
            # Nothing was recorded, but the TV must say why commands fail (and stop saying it after).
            view = self._render(self._writer.seq, self._writer.position(), self._writer.last_change)
        if view is not None:
            self._feed.publish(view)
        self._tell(pending.command, outcome)
        pending.answer(outcome)
        self._writer.snapshot_if_due()

    def _tell(self, command: Command, outcome: Outcome) -> None:
        if outcome.accepted:
            texts = "; ".join(e.text for e in outcome.events) or command.kind.replace("_", " ")
            run = self._writer.run
            game = f" of game {run.game_id}" if run is not None else ""
            story.info("#%s%s, from %s: %s", outcome.seq, game, command.source, texts)
        elif outcome.error not in ("internal", "storage"):  # those are logged where they happen
            story.info(
                "%s from %s refused: %s", command.kind.replace("_", " "), command.source, outcome.reason
            )

    def _device(self, report: _DeviceReport) -> None:
        status = dict(report.status)
        try:
            json.dumps(status)
        except (TypeError, ValueError):
            # Kept out, or every later view would fail to encode.
            logger.warning("device %s reported a status that is not JSON: %r", report.name, status)
            return
        notices = [
            {"level": str(n.get("level", "info")), "text": str(n.get("text", "")), "source": report.name}
            for n in status.pop("notices", None) or ()
            if isinstance(n, Mapping)
        ]
        if self._devices.get(report.name) == status and self._device_notices.get(report.name, []) == notices:
            return  # a heartbeat that changes nothing is not worth a publish
        self._devices[report.name] = status
        self._device_notices[report.name] = notices
        self._feed.publish(self._render(self._writer.seq, self._writer.position(), self._writer.last_change))

    def _render(self, seq: int, position: Position, last_change: Mapping[str, JSON] | None) -> PublishedView:
        notices = list(self._writer.notices)
        if self._writer.storage_problem:
            notices.append({"level": "warning", "text": self._writer.storage_problem, "source": "session"})
        for device_notices in self._device_notices.values():
            notices.extend(device_notices)
        return build_view(
            seq=seq, position=position, last_change=last_change, devices=self._devices, notices=notices
        )
