"""Reading the session's published view: the bits the table needs (game name, prompt, player names)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.engine import JSON


def game_view(view: Mapping[str, JSON]) -> Mapping[str, JSON] | None:
    game = view.get("game")
    return game if isinstance(game, Mapping) else None


def game_name(view: Mapping[str, JSON]) -> str | None:
    """The running game's registry name, or None when no game is being played."""
    game = game_view(view)
    if game is None or view.get("status") != "playing":
        return None
    name = game.get("game")
    return name if isinstance(name, str) else None


def prompt(view: Mapping[str, JSON]) -> Mapping[str, Any] | None:
    game = game_view(view)
    found = game.get("prompt") if game is not None else None
    return found if isinstance(found, Mapping) else None


def player_names(view: Mapping[str, JSON]) -> dict[int, str]:
    game = game_view(view)
    names: dict[int, str] = {}
    for index, player in enumerate((game or {}).get("players") or ()):
        if isinstance(player, Mapping):
            names[int(player.get("seat", index))] = str(player.get("name", f"P{index + 1}"))
    return names


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
    current = prompt(view)
    return tuple(int(p) for p in (current or {}).get("players") or ())
