"""Reading a published view: what adapters that only watch the game need (the LEDs: whose turn it is).

The table itself reads the engine's values (``companion.bundle.LivePosition``), never the view.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.engine import JSON


def game_view(view: Mapping[str, JSON]) -> Mapping[str, JSON] | None:
    game = view.get("game")
    return game if isinstance(game, Mapping) else None


def active_players(view: Mapping[str, JSON]) -> tuple[int, ...]:
    """Seats whose turn it is: the players flagged active, else the prompt's players."""
    game = game_view(view)
    if game is None or view.get("status") != "playing":
        return ()
    players = game.get("players")
    active = tuple(
        seat
        for i, p in enumerate(players if isinstance(players, list) else ())
        if isinstance(p, Mapping) and p.get("active") and (seat := _seat(p.get("seat", i))) is not None
    )
    if active:
        return active
    current = game.get("prompt")
    waiting = current.get("players") if isinstance(current, Mapping) else None
    seats = (_seat(p) for p in (waiting if isinstance(waiting, list) else ()))
    return tuple(s for s in seats if s is not None)


def _seat(value: object) -> int | None:
    """A seat as a view gives it; None for anything else (a view is read, never trusted to be whole)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
