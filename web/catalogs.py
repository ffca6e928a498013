"""Read-only game data for screens: registered games, card catalogs, dice face names.

Loaded lazily and cached: the catalog and dice files are parsed once per process.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import importlib
from typing import Any

from companion.dice import Dice
from companion.engine import JSON
from companion.games import GAMES, UnknownGameError, find_game


@functools.cache
def registered_games() -> tuple[dict[str, JSON], ...]:
    """Every installed game with its player counts, for the new-game picker."""
    out = []
    for name in GAMES:
        try:
            game = find_game(name)
        except (ImportError, AttributeError):  # a game still being written must not hide the others
            continue
        out.append(
            {
                "name": name,
                "title": game.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
            }
        )
    return tuple(out)


@functools.cache
def card_catalog(game: str) -> tuple[dict[str, JSON], ...] | None:
    """The game's card catalog as JSON objects, or None when the game has no catalog module.

    Raises UnknownGameError for a game that is not registered.
    """
    if game not in GAMES:
        raise UnknownGameError(f"unknown game {game!r}")
    package = GAMES[game].partition(":")[0].rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.catalog")
    except ModuleNotFoundError:
        return None
    load = getattr(module, "load_catalog", None)
    if load is None:
        return None
    return tuple(_card_json(card) for card in load())


@functools.cache
def dice_names() -> dict[str, dict[str, JSON]]:
    """Per game die id: its title and how people call each face (``{"cube": {"eye": "Orcish Eye"}}``)."""
    out: dict[str, dict[str, JSON]] = {}
    for die in Dice.load():
        entry = {"title": die.title, "faces": {face: die.name(face) for face in dict.fromkeys(die.faces)}}
        for game_die in (die.kind, *die.answers):
            out.setdefault(game_die, entry)
    return out


def _card_json(card: Any) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for f in dataclasses.fields(card):
        value = getattr(card, f.name)
        if isinstance(value, enum.Enum):
            value = value.value
        elif f.name == "provenance":
            value = dict(value)
        out[f.name] = value
    return out
