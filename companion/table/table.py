"""The table: observations in, game commands out.

Adapter threads call :meth:`Table.observe`, which only enqueues. One worker thread (or the caller
of :meth:`Table.pump`, in tests) owns all the table's state: it feeds tag readings to the settle
tracker, routes dice and buttons, and submits commands to the session one at a time. Time comes
from an injected clock, so tests step a :class:`~companion.table.clock.ManualClock` instead of
sleeping.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.bundle import Act, LivePosition, Note, Press, Translation
from companion.dice import Dice
from companion.engine import JSON, PlayerId
from companion.observations import (
    ButtonPressed,
    CardGone,
    CardSighted,
    DieRolled,
    Observation,
    TagGone,
    TagSeen,
    TagUid,
)
from companion.session.contract import Command, Outcome, SessionPort
from companion.table import buttons
from companion.table.camera import CameraPath
from companion.table.clock import Clock, monotonic
from companion.table.config import TableConfig, role_of
from companion.table.decisions import Clear, Decision, Offer, Play, Post, Reading, Tell
from companion.table.dice_owners import DiceOwners
from companion.table.enrolment import Enrolment, PendingTag
from companion.table.latency import LatencyStats
from companion.table.mappers import (
    GameMapper,
    TableGame,
    UnknownCardChoiceError,
    UnknownGameMapperError,
    find_table_game,
    resolve_card,
)
from companion.table.notices import NoticeBoard
from companion.table.placements import Placements
from companion.table.plays import Lifts
from companion.table.registry import EnrolledTag, TagRegistry, normalise_uid
from companion.table.rolls import RollCollector
from companion.table.settle import SettleTracker

log = logging.getLogger(__name__)

DEVICE_NAME = "table"
ONE_OFF = "once:"
"""Key prefix of notices that expire on their own."""
CURSOR = "cursor"
"""Key of the notice naming the choice the next button shows (one at a time, gone once answered)."""


class EnrolmentError(ValueError):
    """An enrolment request the table cannot carry out (no game chosen, unknown card)."""


@dataclass(frozen=True)
class _Reconsider:
    """Sent to the worker after an enrolment: a tag lying on a reader may now mean a card."""

    uid: TagUid


@dataclass(frozen=True)
class _Report:
    """Sent to the worker when enrolment state changed outside it."""


_STOP = object()


class Table:
    def __init__(
        self,
        session: SessionPort,
        config: TableConfig,
        registry: TagRegistry,
        *,
        dice: Dice | None = None,
        clock: Clock = monotonic,
        games: Callable[[str], TableGame] = find_table_game,
        owners: DiceOwners | None = None,
    ) -> None:
        self._session = session
        self._config = config
        self._registry = registry
        self._clock = clock
        self._find_game = games
        self._games: dict[str, TableGame | None] = {}
        self._games_lock = threading.Lock()  # enrolment requests look games up from web threads
        self._dirty = False
        self._queue: queue.Queue[Any] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._rejected: list[Callable[[Outcome], None]] = []
        self.enrolment = Enrolment()
        self.notices = NoticeBoard()
        self.latency = LatencyStats()
        """Settle window's end (or button/die arrival) to the command handed to the session."""
        self.round_trip = LatencyStats()
        """The same, up to the session's answer (the input durable and the view published)."""
        self._tracker = SettleTracker(config.settle_ms / 1000, config.removal_ms / 1000)
        self._rolls = RollCollector(
            dice if dice is not None else Dice.load(), config.roll_window_ms / 1000, dict(config.dice)
        )
        self._presses = buttons.Gathering()
        self._cursor = buttons.ChoiceCursor()
        lifts = Lifts()
        self._lifts = lifts
        self._placements = Placements(config, self._tracker, registry.lookup, lifts)
        self._camera = CameraPath(config, lifts)
        self.owners = owners if owners is not None else DiceOwners()
        """Which die belongs to which seat (``assign_die``, from the control page)."""

    # ------------------------------------------------------------------------------ adapters' side

    def observe(self, observation: Observation) -> None:
        """Thread-safe; returns at once. Called from serial, GPIO and camera threads."""
        self._queue.put(observation)

    def on_rejected(self, callback: Callable[[Outcome], None]) -> None:
        """``callback(outcome)`` after the session refused a table command (the buzzer beeps)."""
        self._rejected.append(callback)

    # ----------------------------------------------------------------------------------- running

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the table is already running")
        self.game_for(self._session.position().game_name)  # load the card data now, not on the first card
        self._report()
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        if self._thread is None:
            return
        self._queue.put(_STOP)
        self._thread.join(timeout)
        self._thread = None

    def pump(self) -> None:
        """Handles everything queued and everything due at the clock's now, on the calling thread.

        For tests and single-threaded tools; the worker thread, when started, does this itself.
        """
        if self._thread is not None:
            raise RuntimeError("the table's worker is running: it pumps by itself")
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            self._step(item)
        self._poll(self._clock())
        self._flush_report()

    def _run(self) -> None:
        while True:
            deadline = self._next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - self._clock())
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = None
            if item is _STOP:
                return
            try:
                if item is not None:
                    self._step(item)
                self._poll(self._clock())
                self._flush_report()
            except Exception:  # one bad reading must not stop the table: log it and carry on
                log.exception("table worker failed on %r", item)

    def _step(self, item: Any) -> None:
        at = getattr(item, "at", None)
        if at is not None:
            # Settle first whatever fell due before this observation happened, so a queue drained
            # late (pump, a busy worker) decides exactly as one drained in real time.
            self._poll(min(at, self._clock()))
        self._handle(item)

    def _handle(self, item: Any) -> None:
        if isinstance(item, TagSeen):
            self._tracker.seen(item.reader, TagUid(item.uid), item.at)
        elif isinstance(item, TagGone):
            self._tracker.gone(item.reader, TagUid(item.uid), item.at)
        elif isinstance(item, DieRolled):
            arrived = self._clock()
            owners = {die: PlayerId(seat) for die, seat in self.owners.all().items()}
            position = self._session.position()
            rolled = self._rolls.rolled(item, position, arrived, owners.get(item.die), set(owners.values()))
            self.dispatch(rolled, arrived)
        elif isinstance(item, ButtonPressed):
            self._pressed(item)
        elif isinstance(item, CardSighted):
            self.carry_out(self._camera.sighted(item, self._reading()))
        elif isinstance(item, CardGone):
            self.carry_out(self._camera.gone(item, self._clock(), self._reading()))
        elif isinstance(item, _Reconsider):
            self.carry_out(self._placements.reconsider(item.uid, self._clock(), self._reading()))
        elif isinstance(item, _Report):
            self.changed()
        else:
            log.warning("the table cannot handle %r", item)

    def _poll(self, now: float) -> None:
        for settled in self._tracker.due(now):
            self.carry_out(self._placements.settled(settled, now, self._reading()))
        self.dispatch(self._rolls.due(now), now)
        for role, presses in self._presses.due(now):
            self._game_pressed(role, presses, now)
        if self._lifts.next_deadline() is not None:
            self.carry_out(self._lifts.recheck(now, self._reading()))
        if self.notices.text(CURSOR) is not None and self._cursor.shown(self._session.position()) is None:
            self.notices.clear(CURSOR)  # the game moved on: the choice shown is no longer on offer
        self.notices.expire(now)

    def _next_deadline(self) -> float | None:
        deadlines = [
            self._tracker.next_deadline(),
            self._rolls.next_deadline(),
            self._presses.next_deadline(),
            self.notices.next_expiry(),
            self._lifts.next_deadline(),
        ]
        return min((d for d in deadlines if d is not None), default=None)

    def _reading(self) -> Reading:
        position = self._session.position()
        return Reading(position, self.game_for(position.game_name), self.enrolment.active, self.game_for)

    def carry_out(self, decisions: list[Decision]) -> None:
        """Does what the table's pure parts decided, in order."""
        for decision in decisions:
            if isinstance(decision, Play):
                self.dispatch(decision.translation, decision.since)
            elif isinstance(decision, Post):
                self.notices.post(decision.key, decision.text, decision.level)
            elif isinstance(decision, Clear):
                self.notices.clear(decision.key)
            elif isinstance(decision, Tell):
                self.note(decision.text, decision.level)
            elif isinstance(decision, Offer):
                self.enrolment.offer(decision.tag)
                self.changed()

    # ----------------------------------------------------------------------------------- buttons

    def _pressed(self, press: ButtonPressed) -> None:
        now = self._clock()
        name = self._config.button_role(str(press.button))
        role_name, seat = role_of(name)
        if name == "undo":
            self.submit(Command(kind="undo", source=press.source), "Undo", now)
        elif name == "confirm":
            self.notices.clear(CURSOR)
            self.dispatch(buttons.confirm(self._session.position(), self._cursor), now, source=press.source)
        elif name == "next":
            position = self._session.position()
            game = self.game_for(position.game_name)
            move_on = game.mapper.next_action(position) if game else Note("No game is running")
            # No move-on action now: step through the prompt's choices instead (confirm takes one).
            shown = self._cursor.step(position) if game and isinstance(move_on, Note) else None
            if shown is None:
                self.dispatch(move_on, now, source=press.source)
            else:
                self.notices.post(CURSOR, shown, "info", expires_at=now + self._config.notice_s)
        else:
            game = self.game_for(self._session.position().game_name)
            role = game.button(role_name) if game is not None else None
            if role is None or role.per_seat != (seat is not None):
                what = "No game is running" if game is None else f"{game.title} has no {name!r} button"
                self.note(what, level="info", now=now)
                return
            window = self._config.window_ms(role) / 1000
            gathered = self._presses.pressed(role.name, window, Press(seat, press.at, press.source), now)
            if gathered is not None:
                self._game_pressed(role.name, gathered, now)

    def _game_pressed(self, role_name: str, presses: list[Press], now: float) -> None:
        """Presses of a game's button role (gathered over its window, earliest first) to its mapper."""
        position = self._session.position()
        game = self.game_for(position.game_name)
        role = game.button(role_name) if game is not None else None
        if game is None or role is None or not presses:
            self.note(f"No game is running that has a {role_name!r} button", level="info", now=now)
            return
        translation = game.mapper.pressed(role, presses, position)
        if isinstance(translation, Act) and translation.observation is None:
            translation = translation.with_observation(buttons.press_observation(role_name, presses))
        self.dispatch(translation, now, source=presses[0].source)

    # ------------------------------------------------------------------------ commands, notices

    def game_for(self, game: str | None) -> TableGame | None:
        """The table's view of the game called ``game`` (None: none, or the table cannot read it)."""
        if game is None:
            return None
        with self._games_lock:
            if game not in self._games:
                try:
                    self._games[game] = self._find_game(game)
                except UnknownGameMapperError:
                    self._games[game] = None
            return self._games[game]

    def mapper_for(self, game: str | None) -> GameMapper | None:
        found = self.game_for(game)
        return found.mapper if found is not None else None

    def dispatch(self, translation: Translation, since: float, source: str = "table") -> Outcome | None:
        """Carries out a mapper's answer: submit an action, or show a note."""
        if isinstance(translation, Act):
            if translation.note:
                self.note(translation.note, level="info", now=since)
            outcome = None
            act: Act | None = translation
            while act is not None:
                command = Command(kind="act", source=source, payload=act.payload, observation=act.observation)
                outcome = self.submit(command, act.summary, since)
                act = act.then if outcome.accepted else None
                since = self._clock()  # a follow-up's latency starts when the first was answered
            return outcome
        if isinstance(translation, Note):
            self.note(translation.text, translation.level, since)
        return None

    def submit(self, command: Command, summary: str, since: float) -> Outcome:
        """Hands one command to the session and waits for its answer; a refusal becomes a notice."""
        self.latency.record(self._clock() - since)
        outcome = self._session.submit(command)
        self.round_trip.record(self._clock() - since)
        if not outcome.accepted:
            self.note(f"{summary}: refused — {outcome.reason or outcome.error}", now=self._clock())
            for callback in self._rejected:
                callback(outcome)
        return outcome

    def note(self, text: str, level: str = "warning", now: float | None = None) -> None:
        """A one-off notice that disappears after ``notice_s``."""
        now = self._clock() if now is None else now
        self.notices.post(ONE_OFF + text, text, level, expires_at=now + self._config.notice_s)

    def changed(self) -> None:
        """The status the session shows (enrolment offers) changed: report it after this step."""
        self._dirty = True

    def _flush_report(self) -> None:
        if self.notices.changed or self._dirty:
            self._report()

    def _report(self) -> None:
        self.notices.changed = self._dirty = False
        shown = self._cursor.shown(self._session.position()) if self.notices.text(CURSOR) else None
        status: dict[str, JSON] = {
            "state": "ready",
            "readers": len(self._config.readers),
            "enrolment": self.enrolment.to_json(),
            "notices": self.notices.to_json(),
            # The choice the next button shows: the TV outlines its slot on the board.
            # index and count: "choice 2 of 9", which the TV shows beside the label.
            "choice": None
            if shown is None
            else {"label": shown[0], "action": shown[1], **self._cursor.place()},
            "dice_owners": {str(die): seat for die, seat in self.owners.all().items()},
        }
        self._session.report_device(DEVICE_NAME, status)

    # ---------------------------------------------------------------- enrolment (control page API)

    def start_enrolment(self, game: str | None = None) -> None:
        """From now on every tag put on a reader is offered for enrolment and nothing is played."""
        game = game or self._session.position().game_name or self.enrolment.game
        if game is None:
            raise EnrolmentError("choose the game whose cards you are enrolling")
        if self.mapper_for(game) is None:
            raise EnrolmentError(f"the table cannot read cards of {game!r}")
        self.enrolment.start(game)
        self._queue.put(_Report())

    def stop_enrolment(self) -> None:
        self.enrolment.stop()
        self._queue.put(_Report())

    def pending_tags(self) -> list[PendingTag]:
        return self.enrolment.pending()

    def card_choices(self, game: str | None = None) -> list[dict[str, str]]:
        """The cards a tag can be enrolled as: ``[{"id", "title"}]`` in catalog order."""
        mapper = self.mapper_for(game or self.enrolment.game or self._session.position().game_name)
        if mapper is None:
            return []
        return [{"id": card, "title": mapper.card_title(card)} for card in mapper.card_ids()]

    def enrol(self, uid: str, card_id: str, game: str | None = None) -> EnrolledTag:
        """Pairs a tag with a card (durable on return); a tag lying on a line is then played."""
        tag_uid = normalise_uid(uid)
        game = game or self.enrolment.game or self._session.position().game_name
        mapper = self.mapper_for(game)
        if game is None or mapper is None:
            raise EnrolmentError("no game chosen for enrolment: start enrolment for a game first")
        try:
            card = resolve_card(mapper, card_id, game)
        except UnknownCardChoiceError as exc:
            raise EnrolmentError(str(exc)) from None
        enrolled = self._registry.enrol(tag_uid, game, card)
        self.enrolment.withdraw(tag_uid)
        self._queue.put(_Reconsider(tag_uid))
        return enrolled

    def assign_die(self, die: int, seat: int | None) -> None:
        """The die belongs to ``seat`` from now on (None: to nobody); DiceOwnerError when out of range."""
        self.owners.assign(die, seat)
        self._queue.put(_Report())

    def forget(self, uid: str) -> bool:
        tag_uid = normalise_uid(uid)
        self.enrolment.withdraw(tag_uid)
        self._queue.put(_Report())
        return self._registry.forget(tag_uid)

    # ------------------------------------------------------------------------------------ reading

    @property
    def config(self) -> TableConfig:
        return self._config

    def position(self) -> LivePosition:
        """The engine's values behind the session's current published view."""
        return self._session.position()

    def figures(self) -> dict[str, JSON]:
        """Latency figures (milliseconds), settle window excluded."""
        return {"to_submit": self.latency.summary(), "to_outcome": self.round_trip.summary()}
