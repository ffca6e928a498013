"""The table's layout as configuration: which reader (or camera zone) watches which zone, which device
button plays which role, which die of the dice data each device die is, and the timing windows.

Loaded once at the entry point from the ``[table]`` section of the settings file and passed down::

    [table]
    settle_ms = 300
    removal_ms = 400
    move_ms = 3000

    [[table.readers]]        # the zone kinds and their fields are the installed games' own
    reader = 0
    zone = "line"
    player = 0
    line = 0

    [table.buttons]          # only for buttons wired to the microcontroller
    "0" = "shout:0"

    [table.button_windows]   # a game's own button role, its gathering window overridden (ms)
    shout = 40

    [table.dice]             # which die of the dice data each device die is
    "0" = "d20"
    "1" = ["cube", "heroscape-combat"]   # one e-die: whichever the running game rolls

Whose die is which (a die that answers only its owner's rolls) is not configuration: players set it
from a phone (``companion.table.dice_owners``, kept in the table's SQLite file).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.bundle import PLATFORM_BUTTONS, ButtonRole, Zone, ZoneError, ZoneKind
from companion.engine import PlayerId
from companion.observations import ReaderId


class TableConfigError(ValueError):
    """The ``[table]`` section is malformed (unknown zone, missing field, duplicate reader)."""


ReaderZone = Zone
"""One reader (or camera zone) and the zone it watches (``companion.bundle.Zone``)."""

Kinds = Mapping[str, tuple[ZoneKind, ...]]
"""Zone kind name -> every installed game's definition of it."""
Roles = Mapping[str, tuple[ButtonRole, ...]]


@dataclass(frozen=True)
class TableConfig:
    settle_ms: int = 300
    """A tag must stay this long on one reader before its placement counts (slides touch neighbours)."""
    removal_ms: int = 400
    """A tag gone for less than this and back is a read flicker, not a removal."""
    move_ms: int = 3000
    """A card the camera saw leave one zone and then sighted in another within this was moved there
    (it arrives with ``came_from``, as a tag moved between readers does), and a camera zone seen empty
    for longer forgets the cards buried in it. Assumed: a player carries a card across the table in a
    second or two, and the camera reports the lift ``gone_frames`` late."""
    roll_window_ms: int = 3000
    """Several dice gathered into one roll (HeroScape attacks): each must follow the previous within this."""
    notice_s: float = 15.0
    """How long a one-off notice ("no roll was asked for") stays on screen."""
    readers: tuple[ReaderZone, ...] = ()
    buttons: tuple[tuple[str, str], ...] = ()
    """Device button id -> role (``"shout:0"``, ``"confirm"``, ``"undo"``, ``"next"``) for buttons
    wired to the microcontroller, which numbers them; GPIO buttons arrive already named."""
    dice: tuple[tuple[int, tuple[str, ...]], ...] = ()
    """Device die number -> the dice data's die (or dice) it is (``companion.dice.DeviceDice``); a
    device die not listed answers a roll of any die with as many faces."""
    button_windows: tuple[tuple[str, int], ...] = ()
    """A game's button role -> its gathering window in ms, replacing the one the game declares."""

    def __post_init__(self) -> None:
        seen: set[int] = set()
        cameras: set[str] = set()
        for zone in self.readers:
            if (zone.reader is None) == (zone.camera is None):
                raise TableConfigError(f"a zone needs a reader or a camera zone, not both: {zone.to_json()}")
            if zone.camera is not None:
                if zone.camera in cameras:
                    raise TableConfigError(f"camera zone {zone.camera!r} is configured twice")
                cameras.add(zone.camera)
            elif zone.reader in seen:
                raise TableConfigError(f"reader {zone.reader} is configured twice")
            else:
                seen.add(zone.reader)  # type: ignore[arg-type]
        for name in ("settle_ms", "removal_ms", "move_ms", "roll_window_ms"):
            if getattr(self, name) < 0:
                raise TableConfigError(f"table.{name} cannot be negative")
        for role, window in self.button_windows:
            if window < 0:
                raise TableConfigError(f"table.button_windows.{role} cannot be negative")
        object.__setattr__(self, "_by_reader", {z.reader: z for z in self.readers if z.reader is not None})
        object.__setattr__(self, "_by_camera", {z.camera: z for z in self.readers if z.camera is not None})
        object.__setattr__(self, "_roles", dict(self.buttons))
        object.__setattr__(self, "_windows", dict(self.button_windows))

    def zone_of(self, reader: ReaderId) -> ReaderZone | None:
        return self._by_reader.get(reader)  # type: ignore[attr-defined,no-any-return]

    def camera_zone(self, name: str) -> ReaderZone | None:
        """The zone a camera zone of the mat is mapped to (``camera = "p0-line1"``)."""
        return self._by_camera.get(name)  # type: ignore[attr-defined,no-any-return]

    def button_role(self, button: str) -> str:
        """The role of a device button; a button not listed is taken as already named."""
        return self._roles.get(button, button)  # type: ignore[attr-defined,no-any-return]

    def window_ms(self, role: ButtonRole) -> int:
        """How long presses of ``role`` are gathered: the configured window, else the game's."""
        return int(self._windows.get(role.name, role.window_ms))  # type: ignore[attr-defined]

    @classmethod
    def from_mapping(
        cls, section: Mapping[str, Any], kinds: Kinds | None = None, roles: Roles | None = None
    ) -> TableConfig:
        """Builds the config from the ``[table]`` section (a dict as ``tomllib`` returns it).

        Zone kinds and button roles are those the installed games declare (``kinds`` and ``roles``
        replace them in tests)."""
        if kinds is None or roles is None:
            from companion.games import button_roles, zone_kinds  # the registry: read where config is

            kinds = zone_kinds() if kinds is None else kinds
            roles = button_roles() if roles is None else roles
        unknown = set(section) - KEYS
        if unknown:
            raise TableConfigError(f"unknown keys in [table]: {', '.join(sorted(unknown))}")
        entries = section.get("readers", ())
        if not isinstance(entries, list | tuple):
            raise TableConfigError("table.readers must be a list of [[table.readers]] tables")
        readers = tuple(_reader_zone(entry, i, kinds) for i, entry in enumerate(entries))
        timings = {k: section[k] for k in TIMINGS if k in section}
        for key, value in timings.items():
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise TableConfigError(f"table.{key} must be a number, got {value!r}")
        windows = _windows(section, roles)
        return cls(
            readers=readers,
            buttons=_buttons(section.get("buttons", {}), roles),
            dice=_device_dice(section.get("dice", {})),
            button_windows=tuple(windows.items()),
            **timings,
        )

    @classmethod
    def load(cls, path: Path, kinds: Kinds | None = None, roles: Roles | None = None) -> TableConfig:
        """Reads the ``[table]`` section of a TOML settings file (an absent section gives defaults)."""
        with path.open("rb") as fh:
            return cls.from_mapping(tomllib.load(fh).get("table", {}), kinds, roles)


TIMINGS = ("settle_ms", "removal_ms", "move_ms", "roll_window_ms", "notice_s")
LEGACY_WINDOW = "shout_window_ms"
"""The ``[table]`` key of the first game's shout window, still read as ``button_windows.shout``."""
KEYS = {*TIMINGS, "readers", "buttons", "button_windows", "dice", LEGACY_WINDOW}


def _device_dice(section: Any) -> tuple[tuple[int, tuple[str, ...]], ...]:
    example = 'e.g. {"0" = "d20", "1" = "d6"} (a list for a die that stands for several)'
    if not isinstance(section, Mapping):
        raise TableConfigError(f"table.dice must map device die numbers to dice, {example}")
    out = []
    for key, value in section.items():
        if isinstance(value, int) and not isinstance(value, bool):
            raise TableConfigError(
                f"table.dice: {key!r} = {value!r}: [table.dice] names which die of the dice data a device"
                f" die is, {example}; whose die it is is set from a phone (Dice on the control page)"
            )
        names = [value] if isinstance(value, str) else value
        if not str(key).isdigit() or not isinstance(names, list) or not names:
            raise TableConfigError(f"table.dice: {key!r} = {value!r}: map a die number to a die, {example}")
        if not all(isinstance(n, str) and n for n in names):
            raise TableConfigError(f"table.dice: die {key} must name dice of the dice data, {example}")
        out.append((int(key), tuple(names)))
    return tuple(out)


def role_of(name: str) -> tuple[str, PlayerId | None]:
    """A button's role and seat from its name: ``"shout:2"`` -> ("shout", 2), ``"next"`` -> ("next", None)."""
    role, colon, seat = name.partition(":")
    if colon and seat.isdigit():
        return role, PlayerId(int(seat))
    return name, None


def _buttons(buttons: Any, roles: Roles) -> tuple[tuple[str, str], ...]:
    if not isinstance(buttons, Mapping) or not all(isinstance(v, str) for v in buttons.values()):
        raise TableConfigError('table.buttons must map device button ids to roles, e.g. {"0" = "next"}')
    for device, name in buttons.items():
        role, seat = role_of(name)
        platform = role in PLATFORM_BUTTONS and seat is None
        if not platform and not any(r.per_seat == (seat is not None) for r in roles.get(role, ())):
            games = [f"{r.name}:<seat>" if r.per_seat else r.name for known in roles.values() for r in known]
            raise TableConfigError(
                f"table.buttons: {device!r} -> {name!r} is not a button role "
                f"(roles: {', '.join([*PLATFORM_BUTTONS, *games])})"
            )
    return tuple((str(k), v) for k, v in buttons.items())


def _windows(section: Mapping[str, Any], roles: Roles) -> dict[str, int]:
    windows = section.get("button_windows", {})
    if not isinstance(windows, Mapping):
        raise TableConfigError("table.button_windows must map a game's button roles to milliseconds")
    out: dict[str, int] = {}
    if LEGACY_WINDOW in section:
        windows = {"shout": section[LEGACY_WINDOW], **windows}
    for role, window in windows.items():
        if role not in roles:
            raise TableConfigError(f"table.button_windows: no installed game has a {role!r} button")
        if not isinstance(window, int) or isinstance(window, bool):
            raise TableConfigError(f"table.button_windows.{role} must be whole milliseconds, got {window!r}")
        out[str(role)] = window
    return out


def _reader_zone(entry: Any, index: int, kinds: Kinds) -> ReaderZone:
    where = f"table.readers[{index}]"
    if not isinstance(entry, Mapping):
        raise TableConfigError(f"{where}: must be a table with reader (or camera) and zone")
    if "zone" not in entry or ("reader" in entry) == ("camera" in entry):
        raise TableConfigError(f"{where}: needs reader and zone (or camera and zone, for a zone of the mat)")
    definitions = kinds.get(entry["zone"], ()) if isinstance(entry["zone"], str) else ()
    if not definitions:
        raise TableConfigError(f"{where}: zone {entry['zone']!r} is not one of {', '.join(kinds)}")
    reader, camera = entry.get("reader"), entry.get("camera")
    if camera is not None and (not isinstance(camera, str) or not camera.strip()):
        raise TableConfigError(f"{where}: camera must name a zone of the mat, got {camera!r}")
    if "reader" in entry and (not isinstance(reader, int) or isinstance(reader, bool) or reader < 0):
        raise TableConfigError(f"{where}: reader must be a whole number from 0, got {reader!r}")
    values = {k: v for k, v in entry.items() if k not in ("reader", "camera", "zone")}
    problems = []
    for kind in definitions:  # the first game's definition the entry fits (a reader serves them all)
        try:
            return kind.zone(reader=None if reader is None else ReaderId(reader), camera=camera, **values)
        except ZoneError as exc:
            problems.append(str(exc))
    raise TableConfigError(f"{where}: {' / '.join(dict.fromkeys(problems))}")
