"""The one registry of games: every package here with a ``bundle.py`` is a game (``find_bundle(name)``).

Adding a game is adding its package; nothing else in the platform names it. Bundles are declarations
(``companion.bundle.GameBundle``), cheap to import; engines, mappers and data load when first used, so
one broken game never stops the others from being listed or played.
"""

from __future__ import annotations

import functools
import importlib
import logging
import pkgutil
from collections.abc import Callable, Mapping
from pathlib import Path

from companion.bundle import ButtonRole, GameBundle, ZoneKind
from companion.engine import Game

log = logging.getLogger(__name__)


class UnknownGameError(ValueError):
    """No game of that name is installed."""


_EXTRA: dict[str, GameBundle] = {}
"""Bundles added from outside this package (``add_bundle``): a plugin's game, a test's game."""
_generation = 0


@functools.cache
def _found() -> dict[str, GameBundle]:
    found: dict[str, GameBundle] = {}
    for package in sorted(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg):
        try:
            bundle = importlib.import_module(f"{__name__}.{package}.bundle").BUNDLE
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{package}.bundle":
                log.exception("the game package %s cannot be loaded", package)
            continue  # a package without a bundle is not a game (yet)
        except Exception:
            log.exception("the game package %s cannot be loaded", package)
            continue
        if bundle.name in found:
            raise RuntimeError(f"two game packages are both called {bundle.name!r}")
        found[bundle.name] = bundle
    return found


def bundles() -> dict[str, GameBundle]:
    """Every installed game's bundle by name, in name order (a fresh dict: change it freely)."""
    found = dict(_found())
    for name, bundle in _EXTRA.items():
        if name in found:
            raise RuntimeError(f"two game packages are both called {name!r}")
        found[name] = bundle
    return dict(sorted(found.items()))


def add_bundle(bundle: GameBundle) -> None:
    """Installs a game whose package lives elsewhere (a plugin, a test's game): listed, played and
    served like the games of this package from now on (``remove_bundle`` takes it out again)."""
    global _generation
    if bundle.name in _found() or _EXTRA.get(bundle.name, bundle) != bundle:
        raise RuntimeError(f"a game called {bundle.name!r} is already installed")
    _EXTRA[bundle.name] = bundle
    _generation += 1


def remove_bundle(name: str) -> None:
    global _generation
    if _EXTRA.pop(name, None) is not None:
        _generation += 1


def generation() -> int:
    """Changes whenever a game is added or removed: caches of what the games declare key on it."""
    return _generation


def names() -> tuple[str, ...]:
    return tuple(bundles())


def find_bundle(name: str) -> GameBundle:
    try:
        return bundles()[name]
    except KeyError:
        known = ", ".join(bundles()) or "none"
        raise UnknownGameError(f"unknown game {name!r} (known: {known})") from None


def find_game(name: str, owner_data: Path | None = None) -> Game:
    """A fresh engine of the game called ``name`` (over the owner's data file, if given); raises
    UnknownGameError, or SetupError for an unusable data file."""
    return find_bundle(name).load_engine(owner_data)


def game_finder(owner_data: Mapping[str, Path]) -> Callable[[str], Game]:
    """``find_game`` for a table whose owner corrected some games' data (settings: ``[data]``)."""
    return lambda name: find_game(name, owner_data.get(name))


def zone_kinds() -> dict[str, tuple[ZoneKind, ...]]:
    """Every zone kind any installed game defines, by name: each game's own definition (two games may
    both have a ``hand`` with different fields; a configured reader serves each game it fits)."""
    kinds: dict[str, list[ZoneKind]] = {}
    for bundle in bundles().values():
        for kind in bundle.zones:
            known = kinds.setdefault(kind.name, [])
            if kind not in known:
                known.append(kind)
    return {name: tuple(found) for name, found in kinds.items()}


def button_roles() -> dict[str, tuple[ButtonRole, ...]]:
    """Every button role any installed game defines, by name (``[table.buttons]`` is checked against them)."""
    roles: dict[str, list[ButtonRole]] = {}
    for bundle in bundles().values():
        for role in bundle.buttons:
            known = roles.setdefault(role.name, [])
            if role not in known:
                known.append(role)
    return {name: tuple(found) for name, found in roles.items()}


def games_with_zone(kind: str) -> tuple[str, ...]:
    return tuple(b.name for b in bundles().values() if any(z.name == kind for z in b.zones))
