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

from companion.bundle import GameBundle, ZoneKind
from companion.engine import Game

log = logging.getLogger(__name__)


class UnknownGameError(ValueError):
    """No game of that name is installed."""


@functools.cache
def bundles() -> dict[str, GameBundle]:
    """Every installed game's bundle by name, in name order."""
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
    return dict(sorted(found.items()))


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


@functools.cache
def zone_kinds() -> dict[str, ZoneKind]:
    """Every zone kind any installed game defines, by name. Two games may share a kind only when they
    define it alike (a table's discard reader serves every card game)."""
    kinds: dict[str, ZoneKind] = {}
    for bundle in bundles().values():
        for kind in bundle.zones:
            known = kinds.setdefault(kind.name, kind)
            if known != kind:
                raise RuntimeError(
                    f"the zone kind {kind.name!r} of {bundle.name} differs from another game's: "
                    "rename one of them"
                )
    return kinds


def games_with_zone(kind: str) -> tuple[str, ...]:
    return tuple(b.name for b in bundles().values() if any(z.name == kind for z in b.zones))
