"""What the session offers its callers (web, table, adapters, CLI). Implemented by ``Session``.

Callers never touch game state: they submit commands and read views. Views are JSON-able dicts
published after the input that produced them is durable in the event log.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from companion.bundle import LivePosition
from companion.engine import JSON, Event

CommandKind = Literal["act", "undo", "redo", "new_game", "end_game", "resume", "note"]
Source = str
"""Where a command came from: "control", "api", "table", "gpio", "firmware" (a button on the
microcontroller), "demo", "cli"."""


@dataclass(frozen=True)
class Sender:
    """The phone a command came from, checked by the session against ``Game.actor`` in the very position
    the command meets (nothing can slip in between the check and the move).

    ``seat``: the seat this phone plays. It may send only actions whose actor is that seat or None (what
    any seat may do for the table: a hand correction), and undo or redo only such actions. None: a
    shared phone (a scribe), which acts for every seat but may not send, undo or redo a secret action
    (``Game.secret_action``). ``rolls``: whether a phone that plays a seat enters its own seat's dice
    (False: the table's dice or a shared phone enter every roll). ``held``: the seats phones play; a
    shared phone does not act (nor undo, nor redo) for them (rolls aside when ``rolls`` is False): leaving
    one's own seat must not turn a phone into a way to play another's (a take-over is the recorded way).

    A command without a sender comes from the table itself (readers, buttons, the CLI) or from its
    owner (a script with the table's PIN), and may do anything.
    """

    seat: int | None = None
    rolls: bool = True
    held: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Command:
    """A request to the session.

    kind "act": ``payload`` is the game action as JSON (``{"kind": "place", ...}``).
    kind "new_game": ``payload`` is a setup (``Setup.to_json()`` shape).
    kind "undo" / "redo" / "end_game": ``payload`` is empty.
    kind "resume": ``payload`` is ``{"game_id": N}``, a game a new game (or another resume) set aside
    before its end: it becomes the current game again, where it was left, and the game being played is
    set aside in its turn (resumable too).
    kind "note": a record of the current game that changes nothing in it (a seat taken over by another
    phone): ``payload`` is ``{"event": "SeatTakenOver", "text": "a sentence for the players", "data":
    {...}}``; it is stored, shown in the history and the view's ``last_change``, and never replayed,
    undone or redone.
    ``observation`` records what the table saw, if anything (stored with the input, for replay audits).
    ``sender``: the phone it came from, if any (see ``Sender``).
    """

    kind: CommandKind
    source: Source
    payload: Mapping[str, JSON] = field(default_factory=dict)
    observation: Mapping[str, JSON] | None = None
    sender: Sender | None = None


OutcomeError = Literal[
    "malformed",  # the action or payload is not well formed (MalformedActionError)
    "illegal",  # well formed, but the rules forbid it now (IllegalActionError)
    "no_game",  # no game is running (none started, or it was closed with end_game)
    "nothing_to_undo",
    "nothing_to_redo",
    "setup",  # new_game: unknown game, bad players or options (SetupError)
    "forbidden",  # the sender's phone may not do this: another seat's decision, or a secret (Sender)
    "internal",  # an unexpected error in the engine or the log; logged, nothing changed
    "storage",  # the event log cannot be written (disk full: "storage full: nothing was recorded")
    "unavailable",  # the session is not running, or did not take the command in time; nothing changed
]
"""Why a command was rejected. A rejected command never changes the state or the log."""


@dataclass(frozen=True)
class Outcome:
    """The session's answer to one command.

    Accepted: ``seq`` is the input's place in the event log (durable before this is returned).
    Rejected: ``error`` says why, ``reason`` is a sentence for the players (the engine's message).
    """

    accepted: bool
    seq: int | None = None
    events: tuple[Event, ...] = ()
    reason: str | None = None
    error: OutcomeError | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "accepted": self.accepted,
            "seq": self.seq,
            "events": [e.to_json() for e in self.events],
            "reason": self.reason,
            "error": self.error,
        }


class Subscription(Protocol):
    """A live feed of published views; the first item is the full current view.

    Items are ``companion.session.PublishedView``: a ``dict`` (so ``json.dumps`` and ``jsonify``
    take it) with the keys of ``PUBLISHED_VIEW_KEYS``, plus ``.json``, the same view already
    encoded once by the writer (send it as the SSE ``data:`` line without re-encoding). One object is
    shared by every subscriber: treat it as read-only (top-level assignment raises TypeError).

    Every view is complete, so a slow reader loses nothing but intermediate views: its queue is
    bounded and drops the oldest; ``dropped`` counts what it lost (informational). ``closed`` turns
    true after ``close()`` or when the session stops; ``get`` then returns None at once.
    """

    def get(self, timeout: float | None = None) -> Mapping[str, JSON] | None:
        """The next published view, or None on timeout (or at once when closed)."""

    @property
    def dropped(self) -> int: ...

    @property
    def closed(self) -> bool: ...

    def close(self) -> None: ...


PUBLISHED_VIEW_KEYS = (
    "seq",  # int: seq of the last accepted input of the whole log (0 before any)
    "game_id",  # int | None: the current game's id in the event log
    "status",  # "no_game" | "playing" | "finished"
    "game",  # Game.view(state) of the current game, or None
    "result",  # Game.result(state).to_json() (GameResult: final, or if it ended now), or None
    "game_type",  # the game's GameType.to_json(): {"cooperative", "simultaneous_moves", ...}, or None
    "last_change",  # {"seq", "source", "kind", "events": [Event.to_json()], "action": the public action
    # (Game.public_action) of an act, else None} of the latest input, or None
    "can_undo",  # bool
    "can_redo",  # bool
    "undo_move",  # {"actor": seat | None, "secret": bool} of what undo would take back, or None
    "redo_move",  # the same for redo
    "devices",  # {name: status dict} as reported by adapters (see report_device)
    "notices",  # [{"level": "info"|"warning", "text": str, "source": str}] e.g. an unknown tag
)
"""Keys of every view the session publishes (``view()`` and each ``Subscription`` item)."""


class SessionPort(Protocol):
    def submit(self, command: Command, timeout: float = 5.0) -> Outcome:
        """Queues the command for the writer thread and waits for its answer.

        The answer is always definite: if the writer has not taken the command within ``timeout``
        the command is withdrawn and the answer is ``error="unavailable"`` (never applied later);
        once the writer has taken it, submit waits for its outcome.
        """

    def view(self) -> Mapping[str, JSON]:
        """The current published view (a ``PublishedView``; keys: ``PUBLISHED_VIEW_KEYS``)."""

    def position(self) -> LivePosition:
        """The engine's values behind the current published view (game, state, prompt, seq): what the
        table and the phones' private views read. Immutable; safe to use from any thread."""

    def subscribe(self, notify: Callable[[], None] | None = None) -> Subscription:
        """A feed of views, the current one first; ``notify`` (optional) is called on the writer's
        thread right after each view is queued, and must not block."""

    def report_device(self, name: str, status: Mapping[str, JSON]) -> None:
        """Adapters report their device status (searching / connected / firmware / last heard).

        A status may carry ``"notices": [{"level", "text"}]`` (an unknown tag, an ambiguous reading):
        the session merges every device's notices into the view's ``notices`` and republishes.
        """
