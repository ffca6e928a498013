"""The view the session publishes: built once per change, encoded once, shared by every reader."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

from companion.bundle import NO_GAME, LivePosition
from companion.engine import JSON, Game, Setup
from companion.session.contract import PUBLISHED_VIEW_KEYS

log = logging.getLogger(__name__)


class PublishedView(dict[str, JSON]):
    """A published view: a dict with the keys of ``PUBLISHED_VIEW_KEYS`` and ``json``, its encoding.

    One object goes to every subscriber, so top-level mutation raises TypeError; take ``dict(view)``
    (or ``copy.deepcopy``) to change a copy.
    """

    __slots__ = ("json", "live")

    def __init__(self, data: Mapping[str, JSON], live: LivePosition = NO_GAME) -> None:
        super().__init__(data)
        # Encoded here, once, on the writer thread: 20 SSE clients then send the same text.
        self.json: str = json.dumps(self, separators=(",", ":"))
        self.live = live
        """The engine's values this view was drawn from (never encoded): what the table reads."""

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a published view is shared by every subscriber; change a copy (dict(view))")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = __ior__ = _read_only  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[PublishedView], tuple[dict[str, JSON]]]:
        return (PublishedView, (dict(self),))


@dataclass(frozen=True)
class Position:
    """What the view shows of the game, worked out before the input that leads there is committed."""

    game_id: int | None = None
    status: Literal["no_game", "playing", "finished"] = "no_game"
    game: Mapping[str, JSON] | None = None
    can_undo: bool = False
    can_redo: bool = False
    engine: Game | None = None
    state: Any = None
    setup: Setup | None = None
    undo_move: Mapping[str, JSON] | None = None
    """``{"actor", "secret"}`` of the action undo would take back (``GameRun.move``), or None."""
    redo_move: Mapping[str, JSON] | None = None


def build_view(
    *,
    seq: int,
    position: Position,
    last_change: Mapping[str, JSON] | None,
    devices: Mapping[str, Mapping[str, JSON]],
    notices: Sequence[Mapping[str, JSON]],
) -> PublishedView:
    view = PublishedView(
        {
            "seq": seq,
            "game_id": position.game_id,
            "status": position.status,
            "game": position.game,
            "result": _RESULTS.of(position.engine, position.state),
            "game_type": position.engine.game_type.to_json() if position.engine is not None else None,
            "last_change": dict(last_change) if last_change else None,
            "can_undo": position.can_undo,
            "can_redo": position.can_redo,
            "undo_move": dict(position.undo_move) if position.undo_move else None,
            "redo_move": dict(position.redo_move) if position.redo_move else None,
            "devices": {name: dict(status) for name, status in devices.items()},
            "notices": [dict(n) for n in notices],
        },
        LivePosition(seq, position.status, position.engine, position.state, position.setup),
    )
    assert tuple(view) == PUBLISHED_VIEW_KEYS, "the published view's keys drifted from the contract"
    return view


class _ResultMemo:
    """``Game.result(state)`` as JSON, worked out once per position: a device report republishes the
    same position, and a game's scoring is not free. A game that cannot state its result (a bug, or
    a game still being written) publishes None and is logged once; the view is never lost for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: tuple[Game | None, Any, JSON] = (None, None, None)
        self._failed: set[str] = set()

    def of(self, engine: Game | None, state: Any) -> JSON:
        if engine is None:
            return None
        with self._lock:
            known_engine, known_state, known = self._last
            if known_engine is engine and known_state is state:
                return known
        try:
            result = engine.result(state).to_json()
        except NotImplementedError:
            result = None
            if engine.name not in self._failed:
                self._failed.add(engine.name)
                log.warning("%s does not state its result: the view shows none", engine.title)
        except Exception:
            result = None
            if engine.name not in self._failed:
                self._failed.add(engine.name)
                log.exception("%s cannot state its result: the view shows none", engine.title)
        with self._lock:
            self._last = (engine, state, result)
        return result


_RESULTS = _ResultMemo()
