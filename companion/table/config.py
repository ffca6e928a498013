"""The table's layout as configuration: which reader belongs to which zone, and the timing windows.

Loaded once at the entry point from the ``[table]`` section of the settings file and passed down::

    [table]
    settle_ms = 300
    removal_ms = 400

    [[table.readers]]
    reader = 0
    zone = "line"
    player = 0
    line = 0

    [table.buttons]          # only for buttons wired to the microcontroller
    "0" = "shout:0"
"""

from __future__ import annotations

import enum
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.engine import PlayerId
from companion.observations import ReaderId


class TableConfigError(ValueError):
    """The ``[table]`` section is malformed (unknown zone, missing player, duplicate reader)."""


class ZoneKind(enum.StrEnum):
    LINE = "line"
    """A player's battle line: a card settling here is placed into that line."""
    DISCARD = "discard"
    """The discard pile: a card settling here is discarded."""
    PAD = "pad"
    """Where special (green) cards are played and resolved."""


@dataclass(frozen=True)
class ReaderZone:
    """One reader and the zone it watches. ``line`` and ``slot`` count from 0, as the engines do."""

    reader: ReaderId
    zone: ZoneKind
    player: PlayerId | None = None
    line: int | None = None
    slot: int | None = None
    """Set when a reader watches one slot of a line; None lets the engine choose (or prompt)."""

    def label(self, player_names: Mapping[int, str] | None = None) -> str:
        """How a player names this place: "Grotsnik's line 2", "the discard pile"."""
        if self.zone is ZoneKind.LINE:
            assert self.player is not None and self.line is not None
            owner = (player_names or {}).get(self.player, f"P{self.player + 1}")
            return f"{owner}'s line {self.line + 1}"
        if self.zone is ZoneKind.DISCARD:
            return "the discard pile"
        if self.player is not None:
            owner = (player_names or {}).get(self.player, f"P{self.player + 1}")
            return f"{owner}'s play pad"
        return "the play pad"

    def to_json(self) -> dict[str, Any]:
        return {
            "reader": self.reader,
            "zone": self.zone.value,
            "player": self.player,
            "line": self.line,
            "slot": self.slot,
        }


@dataclass(frozen=True)
class TableConfig:
    settle_ms: int = 300
    """A tag must stay this long on one reader before its placement counts (slides touch neighbours)."""
    removal_ms: int = 400
    """A tag gone for less than this and back is a read flicker, not a removal."""
    roll_window_ms: int = 3000
    """Several dice gathered into one roll (HeroScape attacks): each must follow the previous within this."""
    shout_window_ms: int = 40
    """Shout presses are gathered this long after the first, then ordered by their own timestamps."""
    notice_s: float = 15.0
    """How long a one-off notice ("no roll was asked for") stays on screen."""
    readers: tuple[ReaderZone, ...] = ()
    buttons: tuple[tuple[str, str], ...] = ()
    """Device button id -> role (``"shout:0"``, ``"confirm"``, ``"undo"``, ``"next"``) for buttons
    wired to the microcontroller, which numbers them; GPIO buttons arrive already named."""

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for zone in self.readers:
            if zone.reader in seen:
                raise TableConfigError(f"reader {zone.reader} is configured twice")
            seen.add(zone.reader)
        for name in ("settle_ms", "removal_ms", "roll_window_ms", "shout_window_ms"):
            if getattr(self, name) < 0:
                raise TableConfigError(f"table.{name} cannot be negative")
        for device, role in self.buttons:
            if role not in BUTTON_ROLES and not _is_shout(role):
                raise TableConfigError(f"table.buttons: {device!r} -> {role!r} is not a button role")
        object.__setattr__(self, "_by_reader", {z.reader: z for z in self.readers})
        object.__setattr__(self, "_roles", dict(self.buttons))

    def zone_of(self, reader: ReaderId) -> ReaderZone | None:
        return self._by_reader.get(reader)  # type: ignore[attr-defined,no-any-return]

    def button_role(self, button: str) -> str:
        """The role of a device button; a button not listed is taken as already named."""
        return self._roles.get(button, button)  # type: ignore[attr-defined,no-any-return]

    @classmethod
    def from_mapping(cls, section: Mapping[str, Any]) -> TableConfig:
        """Builds the config from the ``[table]`` section (a dict as ``tomllib`` returns it)."""
        known = {
            "settle_ms",
            "removal_ms",
            "roll_window_ms",
            "shout_window_ms",
            "notice_s",
            "readers",
            "buttons",
        }
        unknown = set(section) - known
        if unknown:
            raise TableConfigError(f"unknown keys in [table]: {', '.join(sorted(unknown))}")
        readers = tuple(_reader_zone(entry, i) for i, entry in enumerate(section.get("readers", ())))
        timings = {k: section[k] for k in known - {"readers", "buttons"} if k in section}
        for key, value in timings.items():
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise TableConfigError(f"table.{key} must be a number, got {value!r}")
        buttons = section.get("buttons", {})
        if not isinstance(buttons, Mapping) or not all(isinstance(v, str) for v in buttons.values()):
            raise TableConfigError(
                'table.buttons must map device button ids to roles, e.g. {"0" = "shout:0"}'
            )
        return cls(readers=readers, buttons=tuple((str(k), v) for k, v in buttons.items()), **timings)

    @classmethod
    def load(cls, path: Path) -> TableConfig:
        """Reads the ``[table]`` section of a TOML settings file (an absent section gives defaults)."""
        with path.open("rb") as fh:
            return cls.from_mapping(tomllib.load(fh).get("table", {}))


BUTTON_ROLES = ("confirm", "undo", "next")


def _is_shout(role: str) -> bool:
    prefix, _, seat = role.partition(":")
    return prefix == "shout" and seat.isdigit()


def _reader_zone(entry: Mapping[str, Any], index: int) -> ReaderZone:
    where = f"table.readers[{index}]"
    unknown = set(entry) - {"reader", "zone", "player", "line", "slot"}
    if unknown:
        raise TableConfigError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    try:
        zone = ZoneKind(entry["zone"])
    except KeyError:
        raise TableConfigError(f"{where}: needs reader and zone") from None
    except ValueError:
        options = ", ".join(z.value for z in ZoneKind)
        raise TableConfigError(f"{where}: zone {entry['zone']!r} is not one of {options}") from None
    numbers = {}
    for key in ("reader", "player", "line", "slot"):
        value = entry.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise TableConfigError(f"{where}: {key} must be a whole number from 0, got {value!r}")
        numbers[key] = value
    if numbers["reader"] is None:
        raise TableConfigError(f"{where}: needs reader and zone")
    if zone is ZoneKind.LINE and (numbers["player"] is None or numbers["line"] is None):
        raise TableConfigError(f"{where}: a line reader needs player and line")
    if zone is not ZoneKind.LINE and (numbers["line"] is not None or numbers["slot"] is not None):
        raise TableConfigError(f"{where}: only a line reader has line and slot")
    player = PlayerId(numbers["player"]) if numbers["player"] is not None else None
    return ReaderZone(ReaderId(numbers["reader"]), zone, player, numbers["line"], numbers["slot"])
