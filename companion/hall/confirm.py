"""A finished game's result is final for the hall only once the table's players confirmed it.

Each confirmation is a ``note`` in the table's event log (``ResultConfirmed``) naming the game, the
seat and the result's digest: an undo that changes the result changes its digest, so confirmations of
the old result no longer count, and an undo followed by the same move keeps them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any

from companion.engine import JSON

CONFIRMED = "ResultConfirmed"


def result_digest(game_id: int, result: Mapping[str, Any]) -> str:
    """A short fingerprint of what a result says (winners, each seat's rank and points)."""
    standings = [
        [s.get("seat"), s.get("rank"), s.get("points")]
        for s in result.get("standings") or ()
        if isinstance(s, Mapping)
    ]
    canonical = json.dumps(
        [game_id, sorted(result.get("winners") or ()), standings, bool(result.get("final"))],
        separators=(",", ":"),
    )
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def confirmation_note(game_id: int, seat: int, name: str, digest: str, outcome: str) -> dict[str, JSON]:
    """The payload of the ``note`` command that records a seat's confirmation."""
    said = f": {outcome}" if outcome else ""
    return {
        "event": CONFIRMED,
        "text": f"{name} confirmed the result{said}"[:200],
        "data": {"game_id": game_id, "seat": seat, "digest": digest},
    }


def confirmed_seats(history: Iterable[Mapping[str, Any]], game_id: int, digest: str) -> set[int]:
    """The seats whose confirmation of ``digest`` in game ``game_id`` is in ``history`` (inputs as
    ``Session.history`` gives them)."""
    seats: set[int] = set()
    for item in history:
        action = item.get("action")
        if item.get("kind") != "note" or not isinstance(action, Mapping) or action.get("event") != CONFIRMED:
            continue
        data = action.get("data")
        if not isinstance(data, Mapping) or data.get("game_id") != game_id or data.get("digest") != digest:
            continue
        seat = data.get("seat")
        if isinstance(seat, int) and not isinstance(seat, bool):
            seats.add(seat)
    return seats


def current_result(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The result of the view's game as JSON (``GameResult.to_json``): the view's own ``result`` when
    the session publishes one, else asked of the engine behind the view; None for a game that does
    not state its result (or no game)."""
    if view.get("game_id") is None:
        return None
    published = view.get("result")
    if isinstance(published, Mapping):
        return dict(published)
    live = getattr(view, "live", None)
    engine, state = getattr(live, "game", None), getattr(live, "state", None)
    if engine is None or state is None:
        return None
    try:
        return engine.result(state).to_json()  # type: ignore[no-any-return]
    except NotImplementedError:
        return None
