"""Read-only game data for screens, from the game registry: installed games with their setup options
and screens, card catalogs, dice face names. Loaded lazily and cached (parsed once per process, and
again when a game is added: the caches key on the registry's generation)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping
from pathlib import Path

from companion.dice import Dice
from companion.engine import JSON
from companion.games import UnknownGameError, bundles, find_bundle, generation

log = logging.getLogger(__name__)


def registered_games() -> tuple[dict[str, JSON], ...]:
    """Every installed game with its player counts, kind and setup options, for the new-game form."""
    return _registered_games(generation())


@functools.cache
def _registered_games(_generation: int) -> tuple[dict[str, JSON], ...]:
    out = []
    for bundle in bundles().values():
        try:
            game = bundle.load_engine()
        except Exception:  # a game still being written must not hide the others
            log.exception("the game %s cannot be loaded", bundle.name)
            continue
        out.append(
            {
                "name": bundle.name,
                "title": bundle.title,
                "min_players": game.min_players,
                "max_players": game.max_players,
                "game_type": game.game_type.to_json(),
                "options": [option.to_json() for option in game.setup_options()],
            }
        )
    return tuple(out)


def screens(kind: str) -> list[str]:
    """The games that have a screen file called ``kind`` (``"tv.js"``), for the page to include."""
    return [bundle.name for bundle in bundles().values() if kind in bundle.screens]


def card_catalog(game: str) -> tuple[dict[str, JSON], ...] | None:
    """The game's cards as JSON objects, or None when the game has no catalog.

    Raises UnknownGameError for a game that is not installed.
    """
    return _card_catalog(game, generation())


@functools.cache
def _card_catalog(game: str, _generation: int) -> tuple[dict[str, JSON], ...] | None:
    cards = find_bundle(game).cards()
    return None if cards is None else tuple(cards)


def dice_names(owner_data: Mapping[str, Path] | None = None) -> dict[str, dict[str, JSON]]:
    """Per game die id: its title and how people call each face (``{"cube": {"eye": "Orcish Eye"}}``),
    with the dice an owner corrected in the table's ``[data]`` files as the table reads them."""
    return _dice_names(generation(), tuple(sorted((owner_data or {}).items())))


@functools.cache
def _dice_names(_generation: int, owner_data: tuple[tuple[str, Path], ...]) -> dict[str, dict[str, JSON]]:
    out: dict[str, dict[str, JSON]] = {}
    for die in Dice.load(owner_data=dict(owner_data)):
        entry = {"title": die.title, "faces": {face: die.name(face) for face in dict.fromkeys(die.faces)}}
        for game_die in (die.kind, *die.answers):
            out.setdefault(game_die, entry)
    return out


__all__ = ["UnknownGameError", "card_catalog", "dice_names", "registered_games", "screens"]
