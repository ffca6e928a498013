"""Read-only game data for screens, from the game registry: installed games with their setup options
and screens, card catalogs, dice face names. Loaded lazily and cached (parsed once per process, and
again when a game is added: the caches key on the registry's generation)."""

from __future__ import annotations

import functools
import itertools
import logging
from collections.abc import Mapping
from pathlib import Path

from companion.dice import Dice
from companion.engine import JSON, Game, Player, Setup
from companion.games import UnknownGameError, bundles, find_bundle, generation

log = logging.getLogger(__name__)


def registered_games() -> tuple[dict[str, JSON], ...]:
    """Every installed game with its kind, its setup options and the players its defaults start with,
    for the new-game form (``new_game_form``)."""
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
        out.append(new_game_form(bundle.name, bundle.title, game))
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


GENERIC_COLOURS = ("#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e", "#b05cff", "#ff8a3d", "#2ec4c4", "#e05bb5")


def offered_players(game: Game) -> list[Player]:
    """The game's own default players, else "Player 1", "Player 2"... in distinct colours."""
    own = list(game.default_players)
    for n in range(len(own), max(game.max_players, 1)):
        own.append(Player(f"Player {n + 1}", GENERIC_COLOURS[n % len(GENERIC_COLOURS)]))
    return own


def startable_counts(game: Game, players: list[Player], options: dict[str, JSON]) -> list[int]:
    """The player counts ``game.new_game`` accepts with these options (asked of the engine itself, so
    the form's defaults always start: a scenario for 2 or 3 players never gets 4)."""
    counts = []
    for count in range(max(game.min_players, 1), min(game.max_players, len(players)) + 1):
        setup = Setup(game.name, tuple(players[:count]), tuple(sorted(options.items())))
        try:
            game.check_options(setup)
            game.new_game(setup)
        except Exception:  # SetupError, or a setup an engine chokes on: not a default to offer
            continue
        counts.append(count)
    return counts


COMBINATIONS_MAX = 2000
"""Choice combinations tried per game at most (each is a few ``new_game`` calls of well under a
millisecond, once per process); a game with more lists each choice with the others at their defaults."""


def new_game_form(name: str, title: str, game: Game) -> dict[str, JSON]:
    """A game as the new-game form offers it: its options, its players (``default_players``), the player
    counts that start with the default options (``player_counts``), and ``starts``: for every
    combination of the choice options, the counts that start with it (so a 2-3 player scenario is
    never offered 4 players, and a choice that starts with no count under the other defaults is still
    offered where another choice makes it work)."""
    players = offered_players(game)
    options = game.setup_options()
    defaults = {o.name: o.default for o in options if o.default is not None}
    counts = startable_counts(game, players, defaults)
    choices = [o for o in options if o.kind == "choice" and o.choices]
    combinations = 1
    for option in choices:
        combinations *= len(option.choices)
    starts: list[dict[str, JSON]] = []
    if choices and combinations <= COMBINATIONS_MAX:
        for values in itertools.product(*([v for v, _ in o.choices] for o in choices)):
            chosen = dict(zip((o.name for o in choices), values, strict=True))
            starts.append(
                {"options": chosen, "players": startable_counts(game, players, {**defaults, **chosen})}
            )
    fields = []
    for option in options:
        field = option.to_json()
        if option.kind == "choice" and not starts:
            for choice in field["choices"]:
                choice["players"] = startable_counts(
                    game, players, {**defaults, option.name: choice["value"]}
                )
        fields.append(field)
    return {
        "name": name,
        "title": title,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "game_type": game.game_type.to_json(),
        "options": fields,
        "player_counts": counts,
        "starts": starts,
        "default_players": [p.to_json() for p in players[: counts[-1] if counts else len(players)]],
    }


__all__ = ["UnknownGameError", "card_catalog", "dice_names", "new_game_form", "registered_games", "screens"]
