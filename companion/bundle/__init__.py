"""A game bundle: everything the platform needs to play one game, found by one registry.

A bundle is a package under ``companion/games/<game>/`` with a ``bundle.py`` that declares
``BUNDLE = GameBundle(...)``: the rules engine, the zone kinds its table understands, its button
roles, the table mapper, the card catalog, the dice, the camera mat, the TV and phone screens, the
command-line extras and the demo. The platform (table, session, web, vision, CLI) reads only these
declarations; it never names a game (docs/bundles.md is the contract).

Everything here is a shared type a game may import (DESIGN.md: a game imports the standard library,
``companion.engine``, this package and ``companion.names``). References to code are
``"module:attribute"`` strings, loaded when first used, so listing the installed games imports no
engine.

* ``companion.bundle.zones``: ``ZoneField``, ``ZoneKind``, ``Zone`` (places on the table);
* ``companion.bundle.table``: ``LivePosition``, ``Act``, ``Note``, ``ButtonRole``, ``Press``,
  ``TableMapper`` and its defaults ``BaseMapper``;
* ``companion.bundle.demo``: what a game's demo kit offers.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.bundle.demo import DemoHands, DemoKit, DemoLayout, DemoTable, TableDevice
from companion.bundle.table import (
    NO_GAME,
    PLATFORM_BUTTONS,
    Act,
    BaseMapper,
    ButtonRole,
    LivePosition,
    Note,
    Press,
    TableMapper,
    Translation,
)
from companion.bundle.zones import FieldType, Zone, ZoneError, ZoneField, ZoneKind, ZoneValue
from companion.engine import JSON, Game

__all__ = [
    "NO_GAME",
    "PLATFORM_BUTTONS",
    "Act",
    "BaseMapper",
    "ButtonRole",
    "CliCommand",
    "DemoHands",
    "DemoKit",
    "DemoLayout",
    "DemoTable",
    "FieldType",
    "GameBundle",
    "LivePosition",
    "Note",
    "Press",
    "TableDevice",
    "TableMapper",
    "Translation",
    "Zone",
    "ZoneError",
    "ZoneField",
    "ZoneKind",
    "ZoneValue",
    "load",
]


@dataclass(frozen=True)
class CliCommand:
    """A command-line extra: ``companion <name> <game> ...``.

    ``arguments`` adds the command's flags to its parser; ``run`` takes the parsed arguments and returns
    the exit status. Both are ``"module:function"`` references, imported only when the command runs or
    its parser is built.
    """

    name: str
    help: str
    arguments: str
    run: str


@dataclass(frozen=True)
class GameBundle:
    """Everything about one game the platform needs. Code references are ``"module:attribute"``."""

    name: str
    title: str
    engine: str
    """The ``Game`` subclass (constructed without arguments); its ``name`` and ``title`` are these."""
    package: str
    """The game's package, where its data and screens live."""
    zones: tuple[ZoneKind, ...] = ()
    """The places its table reads (``[[table.readers]] zone = ...``), with their fields."""
    buttons: tuple[ButtonRole, ...] = ()
    """Its own button roles (a shout), beyond ``confirm``, ``undo`` and ``next``."""
    mapper: str | None = None
    """The ``TableMapper`` class; None when the game cannot be played from readers."""
    catalog: str | None = None
    """A function returning the cards as JSON objects (``id`` and ``title`` at least), or None."""
    dice: str | None = None
    """The game's dice file (package-relative), merged into the table's dice data."""
    mat: str | None = None
    """The camera mat's layout file (package-relative TOML, docs/vision.md); None: no camera mat."""
    screens: tuple[str, ...] = ()
    """TV and phone files in the package's ``screens`` folder (``tv.js``, ``tv.css``, ``control.js``...)."""
    commands: tuple[CliCommand, ...] = ()
    demo: str | None = None
    """A function of a ``random.Random`` returning the game's ``DemoKit``."""
    notes: Mapping[str, str] = field(default_factory=dict)

    def load_engine(self, owner_data: Path | None = None) -> Game:
        """A fresh engine; with ``owner_data``, over the owner's overrides file (SetupError if unusable)."""
        engine = load(self.engine)
        return engine() if owner_data is None else engine.with_owner_data(owner_data)  # type: ignore[no-any-return]

    def load_mapper(self) -> TableMapper | None:
        return None if self.mapper is None else load(self.mapper)()  # type: ignore[no-any-return]

    def cards(self) -> list[dict[str, JSON]] | None:
        return None if self.catalog is None else list(load(self.catalog)())

    def load_demo(self, rng: random.Random) -> DemoKit | None:
        return None if self.demo is None else load(self.demo)(rng)  # type: ignore[no-any-return]

    @property
    def folder(self) -> Path:
        """The game package's folder on disk."""
        module = importlib.import_module(self.package)
        return Path(module.__file__ or "").parent

    def screen_path(self, name: str) -> Path | None:
        """A screens file of this game (None when the bundle does not list it)."""
        return self.folder / "screens" / name if name in self.screens else None

    def dice_path(self) -> Path | None:
        return None if self.dice is None else self.folder / self.dice

    def mat_path(self) -> Path | None:
        return None if self.mat is None else self.folder / self.mat

    def zone_kind(self, name: str) -> ZoneKind | None:
        return next((kind for kind in self.zones if kind.name == name), None)

    def button(self, name: str) -> ButtonRole | None:
        return next((role for role in self.buttons if role.name == name), None)

    def command(self, name: str) -> CliCommand | None:
        return next((c for c in self.commands if c.name == name), None)


def load(reference: str) -> Any:
    """The attribute a ``"module:attribute"`` reference names, importing its module."""
    module_name, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module_name), attribute)
