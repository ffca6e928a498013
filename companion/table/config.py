"""The table's layout as configuration: which reader belongs to which zone, and the timing windows.

Loaded once at the entry point from the ``[table]`` section of the settings file and passed down::

    [table]
    settle_ms = 300
    removal_ms = 400
    move_ms = 3000

    [[table.readers]]
    reader = 0
    zone = "line"
    player = 0
    line = 0

    [table.buttons]          # only for buttons wired to the microcontroller
    "0" = "shout:0"

    [table.dice]             # which die of the dice data each device die is
    "0" = "d20"
    "1" = ["cube", "heroscape-combat"]   # one e-die: whichever the running game rolls
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.bundle import ZONE_FIELDS, Zone, ZoneKind
from companion.engine import PlayerId
from companion.observations import ReaderId


class TableConfigError(ValueError):
    """The ``[table]`` section is malformed (unknown zone, missing player, duplicate reader)."""


ReaderZone = Zone
"""One reader and the zone it watches (``companion.bundle.Zone``; the kinds come from the games)."""

CAMERA_READERS = 1_000_000
"""Camera zones are numbered from here, so their cards settle like tags on readers of their own."""


@dataclass(frozen=True)
class TableConfig:
    settle_ms: int = 300
    """A tag must stay this long on one reader before its placement counts (slides touch neighbours)."""
    removal_ms: int = 400
    """A tag gone for less than this and back is a read flicker, not a removal."""
    move_ms: int = 3000
    """A card the camera saw leave one zone and then sighted in another within this was moved there
    (it arrives with ``came_from``, as a tag moved between readers does). Assumed: a player carries a
    card across the table in a second or two, and the camera reports the lift ``gone_frames`` late."""
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
    dice: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Device die number -> the dice data's die (or dice) it is (``companion.dice.DeviceDice``); a
    device die not listed answers a roll of any die with as many faces."""

    def __post_init__(self) -> None:
        seen: set[int] = set()
        cameras: set[str] = set()
        for zone in self.readers:
            if zone.camera is not None:
                if zone.camera in cameras:
                    raise TableConfigError(f"camera zone {zone.camera!r} is configured twice")
                cameras.add(zone.camera)
            elif zone.reader in seen:
                raise TableConfigError(f"reader {zone.reader} is configured twice")
            seen.add(zone.reader)
        for name in ("settle_ms", "removal_ms", "move_ms", "roll_window_ms", "shout_window_ms"):
            if getattr(self, name) < 0:
                raise TableConfigError(f"table.{name} cannot be negative")
        for device, role in self.buttons:
            if role not in BUTTON_ROLES and not _is_shout(role):
                raise TableConfigError(f"table.buttons: {device!r} -> {role!r} is not a button role")
        object.__setattr__(self, "_by_reader", {z.reader: z for z in self.readers})
        object.__setattr__(self, "_by_camera", {z.camera: z for z in self.readers if z.camera is not None})
        object.__setattr__(self, "_roles", dict(self.buttons))

    def zone_of(self, reader: ReaderId) -> ReaderZone | None:
        return self._by_reader.get(reader)  # type: ignore[attr-defined,no-any-return]

    def camera_zone(self, name: str) -> ReaderZone | None:
        """The zone a camera zone of the mat is mapped to (``camera = "p0-line1"``)."""
        return self._by_camera.get(name)  # type: ignore[attr-defined,no-any-return]

    def button_role(self, button: str) -> str:
        """The role of a device button; a button not listed is taken as already named."""
        return self._roles.get(button, button)  # type: ignore[attr-defined,no-any-return]

    @classmethod
    def from_mapping(
        cls, section: Mapping[str, Any], kinds: Mapping[str, ZoneKind] | None = None
    ) -> TableConfig:
        """Builds the config from the ``[table]`` section (a dict as ``tomllib`` returns it).

        Zone kinds are those the installed games define (``kinds`` replaces them in tests)."""
        if kinds is None:
            from companion.games import zone_kinds  # the registry: only loaded where config is read

            kinds = zone_kinds()
        known = {
            "settle_ms",
            "removal_ms",
            "move_ms",
            "roll_window_ms",
            "shout_window_ms",
            "notice_s",
            "readers",
            "buttons",
            "dice",
        }
        unknown = set(section) - known
        if unknown:
            raise TableConfigError(f"unknown keys in [table]: {', '.join(sorted(unknown))}")
        entries = section.get("readers", ())
        if not isinstance(entries, list | tuple):
            raise TableConfigError("table.readers must be a list of [[table.readers]] tables")
        readers = tuple(_reader_zone(entry, i, kinds) for i, entry in enumerate(entries))
        timings = {k: section[k] for k in known - {"readers", "buttons", "dice"} if k in section}
        for key, value in timings.items():
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise TableConfigError(f"table.{key} must be a number, got {value!r}")
        buttons = section.get("buttons", {})
        if not isinstance(buttons, Mapping) or not all(isinstance(v, str) for v in buttons.values()):
            raise TableConfigError(
                'table.buttons must map device button ids to roles, e.g. {"0" = "shout:0"}'
            )
        return cls(
            readers=readers,
            buttons=tuple((str(k), v) for k, v in buttons.items()),
            dice=_device_dice(section.get("dice", {})),
            **timings,
        )

    @classmethod
    def load(cls, path: Path, kinds: Mapping[str, ZoneKind] | None = None) -> TableConfig:
        """Reads the ``[table]`` section of a TOML settings file (an absent section gives defaults)."""
        with path.open("rb") as fh:
            return cls.from_mapping(tomllib.load(fh).get("table", {}), kinds)


BUTTON_ROLES = ("confirm", "undo", "next")


def _device_dice(section: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
    example = 'e.g. {"0" = "d20", "1" = ["cube", "heroscape-combat"]}'
    if not isinstance(section, Mapping):
        raise TableConfigError(f"table.dice must map device die numbers to dice, {example}")
    out = []
    for key, value in section.items():
        names = [value] if isinstance(value, str) else value
        if not str(key).isdigit() or not isinstance(names, list) or not names:
            raise TableConfigError(f"table.dice: {key!r} = {value!r}: map a die number to a die, {example}")
        if not all(isinstance(n, str) and n for n in names):
            raise TableConfigError(f"table.dice: die {key} must name dice of the dice data, {example}")
        out.append((int(key), tuple(names)))
    return tuple(out)


def _is_shout(role: str) -> bool:
    prefix, _, seat = role.partition(":")
    return prefix == "shout" and seat.isdigit()


def _reader_zone(entry: Any, index: int, kinds: Mapping[str, ZoneKind]) -> ReaderZone:
    where = f"table.readers[{index}]"
    if not isinstance(entry, Mapping):
        raise TableConfigError(f"{where}: must be a table with reader (or camera) and zone")
    unknown = set(entry) - {"reader", "camera", "zone", *ZONE_FIELDS}
    if unknown:
        raise TableConfigError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
    if "zone" not in entry or ("reader" in entry) == ("camera" in entry):
        raise TableConfigError(f"{where}: needs reader and zone (or camera and zone, for a zone of the mat)")
    kind = kinds.get(entry["zone"]) if isinstance(entry["zone"], str) else None
    if kind is None:
        options = ", ".join(kinds)
        raise TableConfigError(f"{where}: zone {entry['zone']!r} is not one of {options}")
    camera = entry.get("camera")
    if camera is not None and (not isinstance(camera, str) or not camera.strip()):
        raise TableConfigError(f"{where}: camera must name a zone of the mat, got {camera!r}")
    numbers = {}
    for key in ("reader", *ZONE_FIELDS):
        value = entry.get(key)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise TableConfigError(f"{where}: {key} must be a whole number from 0, got {value!r}")
        numbers[key] = value
    missing = [key for key in kind.needs if numbers[key] is None]
    if missing:
        raise TableConfigError(
            f"{where}: a {kind.name} reader needs {' and '.join(kind.needs)} ({', '.join(missing)} missing)"
        )
    fields = (*kind.needs, *kind.allows)
    extra = [key for key in ZONE_FIELDS if numbers[key] is not None and key not in fields]
    if extra:
        raise TableConfigError(f"{where}: a {kind.name} reader has no {' or '.join(extra)}")
    player = PlayerId(numbers["player"]) if numbers["player"] is not None else None
    reader = numbers["reader"] if camera is None else CAMERA_READERS + index
    return ReaderZone(ReaderId(reader), kind, player, numbers["line"], numbers["slot"], camera)
