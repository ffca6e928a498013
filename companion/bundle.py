"""A game bundle: everything the platform needs to play one game, found by one registry.

A bundle is a package under ``companion/games/<game>/`` with a ``bundle.py`` that declares
``BUNDLE = GameBundle(...)``: the rules engine, the zone kinds its table understands, the table
mapper, the card catalog, the dice, the TV and phone screens, the command-line extras and the demo.
The platform (table, session, web, CLI) reads only these declarations; it never names a game.

Everything here is a shared type a game may import (DESIGN.md: a game imports the standard library,
``companion.engine`` and this module). References to code are ``"module:attribute"`` strings, loaded
when first used, so listing the installed games imports no engine.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from companion.engine import JSON, Game, PlayerId, Prompt, Setup

# ----------------------------------------------------------------------------------------- zones


@dataclass(frozen=True)
class ZoneKind:
    """A kind of place on the table a reader (or a camera zone) can watch, as a game defines it.

    ``needs`` and ``allows`` name the zone fields (``player``, ``line``, ``slot``) a configured zone
    of this kind must have and may have. ``label`` is how players name such a place; it may use
    ``{owner}`` (the player's name) and ``{line}`` / ``{slot}`` (counted from 1 for people);
    ``shared_label`` names a zone of this kind that belongs to no player.
    """

    name: str
    title: str
    needs: tuple[str, ...] = ()
    allows: tuple[str, ...] = ()
    label: str = ""
    shared_label: str = ""

    def describe(self, zone: Zone, names: Mapping[int, str] | None = None) -> str:
        owner = None
        if zone.player is not None:
            owner = (names or {}).get(zone.player, f"P{zone.player + 1}")
        template = self.label or self.title
        if owner is None and self.shared_label:
            template = self.shared_label
        return template.format(
            owner=owner,
            line=None if zone.line is None else zone.line + 1,
            slot=None if zone.slot is None else zone.slot + 1,
        )


ZONE_FIELDS = ("player", "line", "slot")


@dataclass(frozen=True)
class Zone:
    """One reader (or camera zone) and the place it watches. ``line`` and ``slot`` count from 0."""

    reader: int
    kind: ZoneKind
    player: PlayerId | None = None
    line: int | None = None
    slot: int | None = None
    camera: str | None = None
    """The camera zone's name on the mat, for a zone watched by the camera instead of a reader."""

    @property
    def zone(self) -> str:
        """The kind's name (``"line"``): what mappers compare."""
        return self.kind.name

    def label(self, player_names: Mapping[int, str] | None = None) -> str:
        """How a player names this place: "Grotsnik's line 2", "the discard pile"."""
        return self.kind.describe(self, player_names)

    def to_json(self) -> dict[str, JSON]:
        return {
            "reader": self.reader,
            "zone": self.kind.name,
            "player": self.player,
            "line": self.line,
            "slot": self.slot,
            "camera": self.camera,
        }


# ------------------------------------------------------------------------------------- positions


@dataclass(frozen=True)
class LivePosition:
    """The game as the table reads it: the engine, its immutable state and the prompt, at ``seq``.

    Published with every view (never encoded): a mapper reads the engine's own values, not the TV's
    picture of them. ``state`` is whatever the game's engine keeps; only that game's code reads it.
    """

    seq: int = 0
    status: str = "no_game"
    """"no_game", "playing" or "finished", as the published view says."""
    game: Game | None = None
    state: Any = None
    setup: Setup | None = None

    @functools.cached_property
    def prompt(self) -> Prompt | None:
        """What the engine waits for; None when no game is being played."""
        if self.game is None or self.status != "playing":
            return None
        return self.game.prompt(self.state)

    @property
    def playing(self) -> bool:
        return self.game is not None and self.status == "playing"

    @property
    def game_name(self) -> str | None:
        """The registry name of the game being played (None when none is, or it is over)."""
        return self.game.name if self.playing and self.game is not None else None

    @functools.cached_property
    def names(self) -> dict[int, str]:
        """Seat -> player name."""
        players = self.setup.players if self.setup is not None else ()
        return {seat: player.name for seat, player in enumerate(players)}

    def name(self, seat: int) -> str:
        return self.names.get(seat, f"P{seat + 1}")

    def choice_payloads(self) -> list[tuple[str, dict[str, JSON]]]:
        """The prompt's choices as (label, action JSON)."""
        prompt, game = self.prompt, self.game
        if prompt is None or game is None:
            return []
        return [(c.label, game.format_action(c.action)) for c in prompt.choices]


NO_GAME = LivePosition()


# ---------------------------------------------------------------------------- table translations


@dataclass(frozen=True)
class Act:
    """Submit this action (the game's action JSON) to the session."""

    payload: Mapping[str, JSON]
    summary: str
    """What the table did, for notices when the engine refuses: "Bozlum Pigstickers on line 2"."""
    observation: Mapping[str, JSON] | None = None
    """What the table saw, stored with the input; the table fills it in for tag readings."""
    then: Act | None = None
    """A follow-up submitted only if this one is accepted (a card drawn, then discarded at once)."""

    def with_observation(self, observation: Mapping[str, JSON]) -> Act:
        """This act and its follow-ups, all recording ``observation``."""
        then = self.then.with_observation(observation) if self.then else None
        return Act(self.payload, self.summary, observation, then)


@dataclass(frozen=True)
class Note:
    """Do not act; tell the players this instead."""

    text: str
    level: str = "warning"


Translation = Act | Note | None
"""None: the reading needs nothing (a card lifted that the engine already moved away)."""


class TableMapper(Protocol):
    """What a card, a die or a button at the table means for one game, read from the engine's state."""

    rolls_one_at_a_time: bool
    """The engine takes a several-dice prompt one result at a time (the prompt counts down), so each
    die read is submitted at once; else the table gathers ``count`` results into one roll."""

    def card_title(self, card_id: str) -> str:
        """The printed title; raises KeyError for a card the game does not have."""

    def card_ids(self) -> Sequence[str]:
        """Every card id, for the enrolment picker."""

    def shown_title(self, card_id: str) -> str:
        """What notices on the TV may call the card (a card the rules keep secret stays "a card")."""

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        """Card ids the engine holds in that zone (None when the zone holds no cards the engine tracks)."""

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: str | None) -> Translation:
        """A card settled on a zone. ``came_from``: the zone kind the table last saw this tag settle in
        (None: not since the table started), which tells a card leaving play from a fresh draw."""

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        """A card left a zone for longer than the removal window."""

    def shout(self, player: PlayerId, position: LivePosition) -> Translation:
        """A player pressed their shout button first."""

    def next_action(self, position: LivePosition) -> Translation:
        """The "next" button: move play on (decline an optional effect, end a turn) where the game can."""


# ------------------------------------------------------------------------------ command line, demo


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


class TableDevice(Protocol):
    """What a demo's hands need of a table device (``firmware_bridge.virtual.VirtualTable`` has these)."""

    def put_tag(self, reader: int, uid: str) -> None: ...

    def remove_tag(self, reader: int, uid: str | None = None) -> None: ...

    def roll(self, die: int, face: int | None = None) -> int: ...

    def press(self, button: int) -> None: ...

    def release(self, button: int) -> None: ...


class DemoTable(Protocol):
    """What a demo's hands may do with the running companion (the CLI provides it)."""

    def position(self) -> LivePosition:
        """The current position (the session's latest published one)."""

    def submit(self, payload: Mapping[str, JSON]) -> bool:
        """Submits an action as if from the control page; True when accepted."""

    def wait_after(self, seq: int, timeout: float) -> bool:
        """Waits (bounded) until an input after ``seq`` was accepted; True when one was."""

    def die_face(self, die: str, symbol: str) -> tuple[int, int] | None:
        """(device die id, 1-based face) that shows ``symbol`` on a die answering ``die``, if the
        device has one."""


@dataclass(frozen=True)
class DemoLayout:
    """The simulated table a demo plays on: readers, buttons and dice of the virtual device, and the
    ``[table]`` settings that map them (a dict as the settings file would give it)."""

    readers: int
    buttons: tuple[int, ...]
    dice: tuple[tuple[int, str], ...]
    table: Mapping[str, Any]


class DemoHands(Protocol):
    """Does the chosen action the way players at the table would (cards on readers, dice, buttons);
    what has no physical act is submitted as from the control page."""

    def enact(self, action: Any, position: LivePosition) -> None: ...

    def clear(self) -> None:
        """Takes every card off the table (a new game starts)."""


class DemoKit(Protocol):
    """A game's demo, built by the bundle's ``demo`` function from a random generator: who plays, what
    they do (dice aside: the platform throws the physical dice), and with which hands."""

    players: Sequence[Mapping[str, str]]
    options: Mapping[str, JSON]
    """The setup options of the demo's games."""

    def layout(self, seats: int) -> DemoLayout: ...

    def tags(self) -> Mapping[str, str]:
        """UID -> card id of every physical card's tag (deterministic: a restart finds them again)."""

    def next_action(self, position: LivePosition) -> Any:
        """What the players do next in ``position`` (an engine Action; never a roll), or None."""

    def hands(self, table: DemoTable, device: TableDevice) -> DemoHands:
        """The players' hands on ``device``, laid out as the last ``layout`` call said."""


# ------------------------------------------------------------------------------------ the bundle


@dataclass(frozen=True)
class GameBundle:
    """Everything about one game the platform needs. Code references are ``"module:attribute"``."""

    name: str
    title: str
    engine: str
    """The ``Game`` subclass (constructed without arguments)."""
    package: str
    """The game's package, where its data and screens live."""
    zones: tuple[ZoneKind, ...] = ()
    mapper: str | None = None
    """The ``TableMapper`` class; None when the game cannot be played from readers."""
    catalog: str | None = None
    """A function returning the cards as JSON objects (``id`` and ``title`` at least), or None."""
    dice: str | None = None
    """The game's dice file (package-relative), merged into the table's dice data."""
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

    def command(self, name: str) -> CliCommand | None:
        return next((c for c in self.commands if c.name == name), None)


def load(reference: str) -> Any:
    """The attribute a ``"module:attribute"`` reference names, importing its module."""
    module_name, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module_name), attribute)
