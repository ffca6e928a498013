"""The view the session publishes: built once per change, encoded once, shared by every reader."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NoReturn

from companion.bundle import NO_GAME, LivePosition
from companion.engine import JSON, Game, Setup
from companion.session.contract import PUBLISHED_VIEW_KEYS


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
