"""One game in memory: its effective inputs, the undo/redo stacks and cached positions. No I/O.

The position is always ``replay(effective inputs)``. Undo needs the position *before* the last
input; rather than keep every position (a long game would not fit a Pi's memory) the run keeps a
checkpoint every ``checkpoint_every`` inputs and the last few positions, and replays the short gap.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.engine import JSON, Event, Game, Setup

RECENT_POSITIONS = 16


class Applied(NamedTuple):
    """An accepted action, kept as the JSON text the log holds (parsed again only when replayed).

    A named tuple, not a dataclass: a restart builds one per input, and this is five times cheaper.
    """

    seq: int
    payload: str
    events: str
    """JSON list of ``Event.to_json()``."""

    def summary(self) -> str:
        """What the input did, in the players' words (its events), or its kind when it said nothing."""
        texts = [e["text"] for e in json.loads(self.events)]
        return "; ".join(texts) or str(json.loads(self.payload).get("kind", "action"))


def replay(game: Game, setup: Setup, payloads: Iterable[JSON], start: Any = None) -> Any:
    """The position after applying ``payloads`` (action JSON) in order, from ``start`` or a new game."""
    state = game.new_game(setup) if start is None else start
    for payload in payloads:
        state, _ = game.apply(state, game.parse_action(payload))
    return state


def encode_events(events: Iterable[Event]) -> str:
    return json.dumps([e.to_json() for e in events], separators=(",", ":"))


@dataclass
class GameRun:
    """The current game of a session. Only the writer thread touches it."""

    game: Game
    game_id: int
    setup: Setup
    initial: Any
    checkpoint_every: int
    ended: bool = False
    state: Any = None
    applied: list[Applied] = field(default_factory=list)
    redo: list[Applied] = field(default_factory=list)
    _checkpoints: dict[int, Any] = field(default_factory=dict)
    _recent: deque[tuple[int, Any]] = field(default_factory=lambda: deque(maxlen=RECENT_POSITIONS))
    _view: dict[str, JSON] | None = None
    _moves: tuple[tuple[int, int, bool], tuple[dict[str, JSON] | None, dict[str, JSON] | None]] | None = None

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = self.initial
        self._checkpoints[0] = self.initial

    @property
    def game_view(self) -> dict[str, JSON]:
        """``game.view(state)``, computed once per position (device reports republish it unchanged)."""
        if self._view is None:
            self._view = self.game.view(self.state)
        return self._view

    @property
    def finished(self) -> bool:
        return self.ended or self.game.is_over(self.state)

    @property
    def can_undo(self) -> bool:
        return not self.ended and bool(self.applied)

    @property
    def can_redo(self) -> bool:
        return not self.ended and bool(self.redo)

    def push(self, applied: Applied, state: Any, view: dict[str, JSON], *, redoing: bool = False) -> None:
        """Records an accepted action and its resulting position (a new action clears the redo stack)."""
        if redoing:
            self.redo.pop()
        else:
            self.redo.clear()
        self.applied.append(applied)
        self._set(state, view)

    def position_before_last(self) -> Any:
        """The position the last undo would return to (computed, nothing changes)."""
        return self.position_at(len(self.applied) - 1)

    def pop(self, state: Any, view: dict[str, JSON]) -> Applied:
        """Undoes the last action; ``state`` is ``position_before_last()``."""
        undone = self.applied.pop()
        self.redo.append(undone)
        self._set(state, view)
        return undone

    def position_at(self, count: int) -> Any:
        """The position after the first ``count`` effective actions."""
        if count == len(self.applied):
            return self.state
        for at, state in reversed(self._recent):
            if at == count:
                return state
        start = max(i for i in self._checkpoints if i <= count)
        state = self._checkpoints[start]
        for i in range(start, count):
            state, _ = self.game.apply(state, self.game.parse_action(json.loads(self.applied[i].payload)))
            if (i + 1) % self.checkpoint_every == 0:
                self._checkpoints[i + 1] = state
        return state

    def adopt(self, applied: list[Applied], redo: list[Applied], count: int, state: Any) -> None:
        """Resume: ``state`` is the position after ``applied[:count]`` (a snapshot); replays the rest."""
        self.redo = list(redo)
        self.applied = list(applied[:count])
        self._checkpoints[count] = state
        self.state = state
        for item in applied[count:]:
            state, _ = self.game.apply(state, self.game.parse_action(json.loads(item.payload)))
            self.applied.append(item)
            if len(self.applied) % self.checkpoint_every == 0:
                self._checkpoints[len(self.applied)] = state
            self._recent.append((len(self.applied), state))  # undo's position, without a second replay
            self.state = state
        self._view = None

    def move(self, applied: Applied, before: Any) -> dict[str, JSON]:
        """Who may take ``applied`` back or do it again (``Game.actor`` in ``before``, the position it
        was played in, and whether it is secret): the view's ``undo_move`` / ``redo_move``, so a phone
        greys out what the session would refuse it (``senders.refusal``)."""
        action = self.game.parse_action(json.loads(applied.payload))
        try:
            actor = self.game.actor(before, action)
        except Exception:  # a game that does not say: the session decides when it is asked
            actor = None
        return {"actor": actor, "secret": self.game.secret_action(action)}

    def moves(self) -> tuple[dict[str, JSON] | None, dict[str, JSON] | None]:
        """``move`` of what undo and redo would take now (None when there is nothing, or the game was
        closed), computed once per position."""
        key = (len(self.applied), len(self.redo), self.ended)
        if self._moves is None or self._moves[0] != key:
            undo = self.move(self.applied[-1], self.position_before_last()) if self.can_undo else None
            redo = self.move(self.redo[-1], self.state) if self.can_redo else None
            self._moves = (key, (undo, redo))
        return self._moves[1]

    def live(self, state: Any) -> tuple[Game, Any, Setup]:
        """What a published view carries of ``state`` for the table: (engine, state, setup)."""
        return self.game, state, self.setup

    def wants_snapshot(self) -> bool:
        return bool(self.applied) and len(self.applied) % self.checkpoint_every == 0

    def _set(self, state: Any, view: dict[str, JSON]) -> None:
        count = len(self.applied)
        # Checkpoints past the current length belong to undone actions; a redo recomputes them.
        for stale in [i for i in self._checkpoints if i > count]:
            del self._checkpoints[stale]
        while self._recent and self._recent[-1][0] >= count:
            self._recent.pop()
        self._recent.append((count, state))
        if count % self.checkpoint_every == 0:
            self._checkpoints[count] = state
        self.state = state
        self._view = view
