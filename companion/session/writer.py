"""What the writer thread does with one command: check it, log it durably, then change the game.

Every handler works out the next position *before* touching the log, writes the input and builds
the view inside one transaction, and changes the in-memory game only after the commit. So a
rejection, an engine bug or a failed write leaves both the log and the state as they were.
"""

from __future__ import annotations

import json
import logging
import pickle
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from companion.engine import JSON, ActionError, Event, Game, MalformedActionError, Setup, SetupError
from companion.session import shelf
from companion.session.contract import Command, Outcome, OutcomeError
from companion.session.resume import ResumeStats, resume
from companion.session.run import Applied, GameRun, encode_events
from companion.session.senders import refusal
from companion.session.store import EventLog
from companion.session.views import Position, PublishedView

logger = logging.getLogger(__name__)

Render = Callable[[int, Position, Mapping[str, JSON]], PublishedView]
"""Builds the published view from (seq, position, last_change); the session adds devices and notices."""


class Rejected(Exception):
    """A command the session turns down; nothing was written."""

    def __init__(self, error: OutcomeError, reason: str) -> None:
        super().__init__(reason)
        self.error: OutcomeError = error
        self.reason = reason


@dataclass(frozen=True)
class _Accepted:
    kind: str
    payload: str
    events: tuple[Event, ...]
    target: int | None = None
    public: JSON = None
    """The action as anyone may read it (``Game.public_action``), for the view's ``last_change``."""


def _dumps(value: JSON) -> str:
    return json.dumps(value, separators=(",", ":"))


_NO_SNAPSHOT = object()
"""``_commit``'s ``snapshot`` when the input makes none due (a state may be None)."""

STORAGE_FULL = "storage full: nothing was recorded"


def storage_problem(exc: BaseException) -> str | None:
    """The players' words for an event log that cannot be written (disk full, disk failing), or None
    when ``exc`` is something else (a bug)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if not isinstance(exc, sqlite3.Error) or code is None:
        return None
    if code & 0xFF == sqlite3.SQLITE_FULL:
        return STORAGE_FULL
    if code & 0xFF == sqlite3.SQLITE_IOERR:
        return f"storage failed ({exc}): nothing was recorded"
    return None


def _with_action(change: dict[str, JSON] | None, run: GameRun | None) -> dict[str, JSON] | None:
    """The resumed last change with its action as anyone may read it (as a live change has it)."""
    if change is None:
        return None
    action = None
    last = run.applied[-1] if run is not None and run.applied else None
    if change.get("kind") == "act" and run is not None and last is not None and last.seq == change.get("seq"):
        try:
            action = run.game.public_action(run.game.parse_action(json.loads(last.payload)))
        except (ActionError, ValueError):
            action = None  # an input the rules no longer read: the events still tell it
    return {**change, "action": action}


class Writer:
    """The session's game and log. Used by one thread at a time (start, then the writer thread)."""

    def __init__(
        self, log: EventLog, find_game: Callable[[str], Game], clock: Callable[[], float], snapshot_every: int
    ) -> None:
        self.log = log
        self.find_game = find_game
        self.clock = clock
        self.snapshot_every = snapshot_every
        self.run: GameRun | None = None
        self.seq = 0
        self.last_change: dict[str, JSON] | None = None
        self.notices: list[dict[str, JSON]] = []
        self.storage_problem: str | None = None
        """Why the last write failed (disk full); cleared by the next write that succeeds."""
        self._snapshot_due = False
        self._snapshot_saved = False
        """Whether the last ``_commit`` wrote the snapshot it was given."""

    def resume(self) -> ResumeStats:
        result = resume(self.log, self.find_game, self.snapshot_every)
        self.run, self.seq, self.last_change = (
            result.run,
            result.seq,
            _with_action(result.last_change, result.run),
        )
        self.notices = [{"level": "warning", "text": text, "source": "session"} for text in result.problems]
        # A long replay at start means the snapshots are missing or stale: write a fresh one.
        self._snapshot_due = result.stats.replayed >= self.snapshot_every
        return result.stats

    def position(self) -> Position:
        run = self.run
        if run is None:
            return Position()
        return Position(
            game_id=run.game_id,
            status="finished" if run.finished else "playing",
            game=run.game_view,
            can_undo=run.can_undo,
            can_redo=run.can_redo,
            engine=run.game,
            state=run.state,
            setup=run.setup,
            undo_move=run.moves()[0],
            redo_move=run.moves()[1],
        )

    def handle(self, command: Command, render: Render) -> tuple[Outcome, PublishedView | None]:
        """Answers one command; never raises (an unexpected error is logged and becomes a rejection)."""
        try:
            # Checked before anything else, so a bad observation cannot fail inside the transaction.
            _dumps(None if command.observation is None else dict(command.observation))
        except (TypeError, ValueError) as exc:
            reason = f"the observation is not JSON: {exc}"
            return Outcome(accepted=False, error="malformed", reason=reason), None
        handlers = {
            "act": self._act,
            "undo": self._undo,
            "redo": self._redo,
            "new_game": self._new_game,
            "end_game": self._end_game,
            "resume": self._resume,
            "note": self._note,
        }
        try:
            handler = handlers.get(command.kind)
            if handler is None:
                raise Rejected("malformed", f"unknown command {command.kind!r}")
            return handler(command, render)
        except Rejected as rejected:
            return Outcome(accepted=False, error=rejected.error, reason=rejected.reason), None
        except sqlite3.Error as exc:
            problem = storage_problem(exc)
            if problem is None:
                logger.exception(
                    "command %s from %s failed; nothing was changed", command.kind, command.source
                )
                return Outcome(accepted=False, error="internal", reason=f"internal error: {exc}"), None
            if self.storage_problem is None:  # one line when it starts, not one per command
                logger.error(
                    "the event log %s cannot be written (%s): commands are refused until it can",
                    self.log.path,
                    exc,
                )
            self.storage_problem = problem
            return Outcome(accepted=False, error="storage", reason=problem), None
        except Exception as exc:
            logger.exception("command %s from %s failed; nothing was changed", command.kind, command.source)
            return Outcome(accepted=False, error="internal", reason=f"internal error: {exc}"), None

    # -- the commands -------------------------------------------------------------------------

    def _act(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        run = self._playing()
        try:
            action = run.game.parse_action(command.payload)
            self._may(command, run, run.state, action, "do that")
            state, events = run.game.apply(run.state, action)
        except MalformedActionError as exc:
            raise Rejected("malformed", str(exc)) from exc
        except ActionError as exc:  # IllegalActionError, or an engine's own refusal
            raise Rejected("illegal", str(exc)) from exc
        view = run.game.view(state)
        public = run.game.public_action(action)
        accepted = _Accepted("act", _dumps(run.game.format_action(action)), tuple(events), public=public)
        undo = run.move(Applied(0, accepted.payload, "[]"), run.state)
        position = Position(
            run.game_id, self._status(run, state), view, True, False, *run.live(state), undo_move=undo
        )
        # The snapshot this input makes due goes into the input's own transaction: one fsync for both.
        # Written after the answer instead, its fsync held up the next command (1 in 100, the p99).
        due = (len(run.applied) + 1) % run.checkpoint_every == 0
        outcome, published, applied = self._commit(
            run.game_id, run, command, accepted, position, render, snapshot=state if due else _NO_SNAPSHOT
        )
        run.push(applied, state, view)
        self._snapshot_due = run.wants_snapshot() and not self._snapshot_saved
        return outcome, published

    def _undo(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        run = self._playing()
        if not run.applied:
            raise Rejected("nothing_to_undo", "there is nothing to undo")
        target = run.applied[-1]
        state = run.position_before_last()
        self._may(command, run, state, run.game.parse_action(json.loads(target.payload)), "undo that")
        view = run.game.view(state)
        events = (Event("InputUndone", f"Undone: {target.summary()}", {"seq": target.seq}),)
        accepted = _Accepted("undo", "{}", events, target.seq)
        earlier = None
        if len(run.applied) > 1:
            earlier = run.move(run.applied[-2], run.position_at(len(run.applied) - 2))
        position = Position(
            run.game_id,
            self._status(run, state),
            view,
            len(run.applied) > 1,
            True,
            *run.live(state),
            undo_move=earlier,
            redo_move=run.move(target, state),
        )

        def revert() -> None:
            self.log.set_reverted(target.seq, True)
            self.log.drop_snapshots_from(run.game_id, target.seq)

        outcome, published, _ = self._commit(run.game_id, run, command, accepted, position, render, revert)
        run.pop(state, view)
        return outcome, published

    def _redo(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        run = self._playing()
        if not run.redo:
            raise Rejected("nothing_to_redo", "there is nothing to redo")
        target = run.redo[-1]
        self._may(command, run, run.state, run.game.parse_action(json.loads(target.payload)), "redo that")
        try:
            state, _ = run.game.apply(run.state, run.game.parse_action(json.loads(target.payload)))
        except ActionError as exc:
            raise Rejected("illegal", f"cannot redo: {exc}") from exc
        view = run.game.view(state)
        events = (Event("InputRedone", f"Redone: {target.summary()}", {"seq": target.seq}),)
        accepted = _Accepted("redo", "{}", events, target.seq)
        position = Position(
            run.game_id,
            self._status(run, state),
            view,
            True,
            len(run.redo) > 1,
            *run.live(state),
            undo_move=run.move(target, run.state),
            redo_move=run.move(run.redo[-2], state) if len(run.redo) > 1 else None,
        )

        def restore() -> None:
            self.log.set_reverted(target.seq, False)

        outcome, published, _ = self._commit(run.game_id, run, command, accepted, position, render, restore)
        run.push(target, state, view, redoing=True)
        self._snapshot_due = run.wants_snapshot()
        return outcome, published

    def _new_game(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        try:
            setup = Setup.from_json(command.payload)
            game = self.find_game(setup.game)
            game.check_options(setup)
            initial = game.new_game(setup)
        except (SetupError, LookupError, ValueError) as exc:
            # find_game raises UnknownGameError (a ValueError); engines raise SetupError.
            raise Rejected("setup", str(exc)) from exc
        now = self.clock()
        previous = self.run
        names = ", ".join(p.name for p in setup.players)
        events = (Event("GameStarted", f"New game of {game.title}: {names}", {"game": game.name}),)
        view = game.view(initial)
        rules = game.rules_version
        # Restart problems belong to the game being closed: the new game's first view drops them.
        old_notices, self.notices = self.notices, []
        try:
            with self._recording():
                game_id = self.log.add_game(game.name, _dumps(setup.to_json()), rules, now)
                if previous is not None and not previous.ended:
                    shelf.set_aside(self.log, previous, command.source, now, game_id)
                run = GameRun(game, game_id, setup, initial, self.snapshot_every)
                position = Position(
                    game_id, self._status(run, initial), view, False, False, *run.live(initial)
                )
                accepted = _Accepted("new_game", _dumps(setup.to_json()), events)
                seq, change, published = self._write(game_id, run, command, accepted, position, render, now)
        except BaseException:
            self.notices = old_notices
            raise
        self.run, self.seq, self.last_change = run, seq, change
        return Outcome(accepted=True, seq=seq, events=events), published

    def _resume(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        """Makes a game that a new game (or another resume) set aside the current game again, at the
        position it was left in; the game being played, if any, is set aside in its turn."""
        previous = self.run
        try:
            run, problems = shelf.take_back(
                self.log, self.find_game, command.payload.get("game_id"), previous, self.snapshot_every
            )
        except shelf.NotResumable as exc:
            raise Rejected(exc.error, exc.reason) from exc
        now = self.clock()
        events = (shelf.resumed_event(run),)
        accepted = _Accepted("resume", _dumps({"game_id": run.game_id}), events)
        undo, redo = run.moves()
        position = Position(
            run.game_id,
            self._status(run, run.state),
            run.game_view,
            run.can_undo,
            run.can_redo,
            *run.live(run.state),
            undo_move=undo,
            redo_move=redo,
        )
        old_notices = self.notices
        self.notices = [{"level": "warning", "text": text, "source": "session"} for text in problems]
        try:
            with self._recording():
                if previous is not None and not previous.ended:
                    shelf.set_aside(self.log, previous, command.source, now, run.game_id)
                self.log.reopen_game(run.game_id)
                seq, change, published = self._write(
                    run.game_id, run, command, accepted, position, render, now
                )
        except BaseException:
            self.notices = old_notices
            raise
        self.run, self.seq, self.last_change = run, seq, change
        logger.info("game #%s (%s) resumed: %s actions", run.game_id, run.game.title, len(run.applied))
        return Outcome(accepted=True, seq=seq, events=events), published

    def _end_game(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        run = self._playing()
        events = (Event("GameEnded", f"The game of {run.game.title} was closed", {}),)
        accepted = _Accepted("end_game", "{}", events)
        position = Position(run.game_id, "finished", run.game_view, False, False, *run.live(run.state))

        def close() -> None:
            self.log.end_game(run.game_id, self.clock())

        outcome, published, _ = self._commit(run.game_id, run, command, accepted, position, render, close)
        run.ended = True
        return outcome, published

    def _note(self, command: Command, render: Render) -> tuple[Outcome, PublishedView]:
        """A record that changes nothing in the game (a seat taken over): stored, shown, never replayed."""
        run = self._playing()
        payload = command.payload
        text, kind, data = payload.get("text"), payload.get("event"), payload.get("data") or {}
        if (
            not isinstance(text, str)
            or not text
            or not isinstance(kind, str)
            or not isinstance(data, Mapping)
        ):
            raise Rejected("malformed", 'a note is {"event": "Kind", "text": "a sentence", "data": {...}}')
        events = (Event(kind, text, dict(data)),)
        accepted = _Accepted("note", _dumps(dict(payload)), events)
        position = Position(
            run.game_id,
            self._status(run, run.state),
            run.game_view,
            run.can_undo,
            run.can_redo,
            *run.live(run.state),
            undo_move=run.moves()[0],
            redo_move=run.moves()[1],
        )
        outcome, published, _ = self._commit(run.game_id, run, command, accepted, position, render)
        return outcome, published

    # -- helpers ------------------------------------------------------------------------------

    @staticmethod
    def _may(command: Command, run: GameRun, state: Any, action: Any, doing: str) -> None:
        """Rejects a phone's command for a seat it does not play (``senders.refusal``)."""
        names = [p.name for p in run.setup.players]
        reason = refusal(run.game, state, action, command.sender, names, doing)
        if reason is not None:
            raise Rejected("forbidden", reason)

    def _playing(self) -> GameRun:
        if self.run is None:
            raise Rejected("no_game", "no game is running; start a new game")
        if self.run.ended:
            raise Rejected("no_game", "this game was closed; start a new game")
        return self.run

    @staticmethod
    def _status(run: GameRun, state: Any) -> Any:
        return "finished" if run.game.is_over(state) else "playing"

    def _commit(
        self,
        game_id: int,
        run: GameRun,
        command: Command,
        accepted: _Accepted,
        position: Position,
        render: Render,
        also: Callable[[], None] = lambda: None,
        snapshot: Any = _NO_SNAPSHOT,
    ) -> tuple[Outcome, PublishedView, Applied]:
        """Writes the input (and ``also``, and a snapshot of the position it leads to when one is
        given) in one transaction."""
        now = self.clock()
        self._snapshot_saved = False
        with self._recording():
            also()
            seq, change, published = self._write(game_id, run, command, accepted, position, render, now)
            if snapshot is not _NO_SNAPSHOT:
                self._snapshot_saved = self._snapshot_within(run, seq, snapshot)
        self.seq, self.last_change = seq, change
        applied = Applied(seq, accepted.payload, encode_events(accepted.events))
        return Outcome(accepted=True, seq=seq, events=accepted.events), published, applied

    @contextmanager
    def _recording(self) -> Iterator[None]:
        """The transaction of an accepted command. A storage problem is cleared while it runs, so the
        view it renders drops the notice, and is back if the write fails."""
        previous, self.storage_problem = self.storage_problem, None
        try:
            with self.log.transaction():
                yield
        except BaseException:
            self.storage_problem = previous
            raise
        if previous is not None:
            logger.info("the event log %s is written again: commands are recorded", self.log.path)

    def _write(
        self,
        game_id: int,
        run: GameRun,
        command: Command,
        accepted: _Accepted,
        position: Position,
        render: Render,
        now: float,
    ) -> tuple[int, dict[str, JSON], PublishedView]:
        """Inside a transaction: appends the input and renders the view it leads to."""
        seq = self.log.add_input(
            game_id=game_id,
            at=now,
            source=command.source,
            kind=accepted.kind,
            payload=accepted.payload,
            observation=None if command.observation is None else _dumps(dict(command.observation)),
            rules_version=run.game.rules_version,
            events=encode_events(accepted.events),
            target=accepted.target,
        )
        change: dict[str, JSON] = {
            "seq": seq,
            "source": command.source,
            "kind": accepted.kind,
            "events": [e.to_json() for e in accepted.events],
            "action": accepted.public,
        }
        return seq, change, render(seq, position, change)

    def _snapshot_within(self, run: GameRun, seq: int, state: Any) -> bool:
        """Inside the input's transaction: a snapshot of ``state`` at ``seq`` under a savepoint, so a
        snapshot that fails (a state that does not pickle, a full disk) is rolled back alone and only
        costs speed; False then (``snapshot_if_due`` tries again after the answer)."""
        try:
            blob = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            logger.exception("snapshot of game %s failed; resume will replay more", run.game_id)
            return False
        conn = self.log.conn
        conn.execute("SAVEPOINT snapshot")
        try:
            self.log.save_snapshot(run.game_id, seq, run.game.rules_version, blob)
        except sqlite3.Error as exc:
            conn.execute("ROLLBACK TO snapshot")
            conn.execute("RELEASE snapshot")
            logger.warning("snapshot of game %s skipped (%s); resume will replay more", run.game_id, exc)
            return False
        conn.execute("RELEASE snapshot")
        return True

    def snapshot_if_due(self) -> None:
        """Writes a snapshot after every ``snapshot_every`` effective actions; a failure only costs speed."""
        run = self.run
        if not self._snapshot_due or run is None or not run.applied:
            return
        self._snapshot_due = False
        try:
            blob = pickle.dumps(run.state, protocol=pickle.HIGHEST_PROTOCOL)
            with self.log.transaction():
                self.log.save_snapshot(run.game_id, run.applied[-1].seq, run.game.rules_version, blob)
        except Exception as exc:
            problem = storage_problem(exc)
            if problem is None:
                logger.exception("snapshot of game %s failed; resume will replay more", run.game_id)
            else:  # the input before it is safe; only the restart gets slower
                logger.warning("snapshot of game %s skipped (%s); resume will replay more", run.game_id, exc)
