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
    active = tuple(
        int(p.get("seat", i))
        for i, p in enumerate(game.get("players") or ())
        if isinstance(p, Mapping) and p.get("active")
    )
    if active:
        return active
    current = game.get("prompt")
    players = current.get("players") if isinstance(current, Mapping) else None
    return tuple(int(p) for p in players or ())
