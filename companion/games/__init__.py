"""Registry of rules engines, found by name (``find_game("chaos-marauders")``)."""

from __future__ import annotations

import importlib

from companion.engine import Game

# name -> "module:Class"; modules load lazily so one broken game never stops the others.
GAMES: dict[str, str] = {
    "chaos-marauders": "companion.games.chaos_marauders.engine:ChaosMarauders",
}


class UnknownGameError(ValueError):
    """No game of that name is installed."""


def find_game(name: str) -> Game:
    try:
        target = GAMES[name]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {name!r} (known: {known})") from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    return cls()
