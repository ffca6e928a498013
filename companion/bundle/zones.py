"""Zones: the places on a table that a reader or a camera zone watches, as each game declares them.

A game declares its zone kinds (``ZoneKind``) and the fields a configured zone of each kind carries
(``ZoneField``): Chaos Marauders' battle line has a ``player`` and a ``line`` (and may have a
``slot``), HeroScape's army cards a ``player``, a map game's territory a ``territory`` name, a
co-operative game's enemy card a ``model`` number. The table's ``[[table.readers]]`` entries are
checked against these declarations, and a mapper reads a configured zone's values by field name.

Field types: ``seat`` (a seat from 0; people read the player's name), ``number`` (from 0; people read
it from 1: "line 2"), ``name`` (a word of the game's own, such as a territory's id; read as it is).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.engine import JSON, PlayerId

FieldType = Literal["seat", "number", "name"]
FIELD_TYPES: tuple[FieldType, ...] = ("seat", "number", "name")
ZoneValue = int | str
"""A field's value: a seat or a number (from 0), or a name."""


class ZoneError(ValueError):
    """A zone's values do not fit its kind: a field missing, unknown, of the wrong type or too large."""


@dataclass(frozen=True)
class ZoneField:
    """One value a configured zone of a kind carries (a key of its ``[[table.readers]]`` entry)."""

    name: str
    type: FieldType = "number"
    required: bool = True
    maximum: int | None = None
    """The largest value a ``number`` or ``seat`` may take (from 0): three lines -> 2; None: no limit."""
    title: str = ""
    """How people call the field in messages ("enemy model"); default: its name."""

    def __post_init__(self) -> None:
        if self.type not in FIELD_TYPES:
            raise ValueError(f"zone field {self.name!r}: type must be one of {', '.join(FIELD_TYPES)}")
        if not self.name.isidentifier() or self.name in RESERVED:
            raise ValueError(f"{self.name!r} cannot name a zone field (reserved: {', '.join(RESERVED)})")

    @classmethod
    def seat(cls, name: str = "player", *, required: bool = True, title: str = "") -> ZoneField:
        """A seat (from 0): whose place this is. Labels show the player's name (``{owner}``)."""
        return cls(name, "seat", required, None, title)

    @classmethod
    def number(
        cls, name: str, *, required: bool = True, maximum: int | None = None, title: str = ""
    ) -> ZoneField:
        """A number from 0 (a line, a slot, an enemy model); labels show it from 1."""
        return cls(name, "number", required, maximum, title)

    @classmethod
    def named(cls, name: str, *, required: bool = True, title: str = "") -> ZoneField:
        """A name of the game's own (a territory's id); labels show it as it is."""
        return cls(name, "name", required, None, title)

    @property
    def called(self) -> str:
        return self.title or self.name

    def parse(self, value: Any) -> ZoneValue:
        """The value checked for this field; ZoneError with a sentence otherwise."""
        if self.type == "name":
            if not isinstance(value, str) or not value.strip():
                raise ZoneError(f"{self.called} must be a name, got {value!r}")
            return value.strip()
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ZoneError(f"{self.called} must be a whole number from 0, got {value!r}")
        if self.maximum is not None and value > self.maximum:
            raise ZoneError(f"{self.called} is at most {self.maximum} (counted from 0), got {value}")
        return value

    def shown(self, value: ZoneValue | None, names: Mapping[int, str]) -> str:
        """The value as people read it: a player's name, a number from 1, a name."""
        if value is None:
            return ""
        if self.type == "seat" and isinstance(value, int):
            return names.get(value, f"P{value + 1}")
        if self.type == "number" and isinstance(value, int):
            return str(value + 1)
        return str(value)


RESERVED = ("reader", "camera", "zone", "owner", "kind")
"""Keys of a ``[[table.readers]]`` entry (and of a label) that no field may take."""


@dataclass(frozen=True)
class ZoneKind:
    """A kind of place on the table, as a game defines it: its fields and how players name it.

    ``label`` may use ``{owner}`` (the name of the player of the first seat field) and ``{<field>}``
    for any field (seats as names, numbers from 1); ``shared_label`` names a zone of this kind that
    belongs to no player (its seat field left out).
    """

    name: str
    title: str
    fields: tuple[ZoneField, ...] = ()
    label: str = ""
    shared_label: str = ""

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"zone kind {self.name!r} declares a field twice")

    def field(self, name: str) -> ZoneField | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def needs(self) -> tuple[str, ...]:
        """The fields every configured zone of this kind must have."""
        return tuple(f.name for f in self.fields if f.required)

    @property
    def allows(self) -> tuple[str, ...]:
        """The fields a configured zone of this kind may leave out."""
        return tuple(f.name for f in self.fields if not f.required)

    @property
    def seat_field(self) -> ZoneField | None:
        """The field that says whose place it is, if any."""
        return next((f for f in self.fields if f.type == "seat"), None)

    def check(self, values: Mapping[str, Any]) -> tuple[tuple[str, ZoneValue], ...]:
        """The values checked against the fields, in field order; ZoneError naming what is wrong."""
        unknown = [key for key in values if self.field(key) is None]
        if unknown:
            has = f"has only {', '.join(f.name for f in self.fields)}" if self.fields else "has no fields"
            raise ZoneError(f"a {self.name} zone has no {' or '.join(sorted(unknown))} (it {has})")
        missing = [name for name in self.needs if values.get(name) is None]
        if missing:
            raise ZoneError(
                f"a {self.name} zone needs {' and '.join(self.needs)} ({', '.join(missing)} missing)"
            )
        return tuple((f.name, f.parse(values[f.name])) for f in self.fields if values.get(f.name) is not None)

    def zone(self, *, reader: int | None = None, camera: str | None = None, **values: Any) -> Zone:
        """A zone of this kind watched by ``reader`` (or the camera zone ``camera``), values checked."""
        return Zone(self, self.check(values), reader, camera)

    def describe(self, zone: Zone, names: Mapping[int, str] | None = None) -> str:
        names = names or {}
        shown = {f.name: f.shown(zone.get(f.name), names) for f in self.fields}
        seat = self.seat_field
        owner = shown.get(seat.name, "") if seat is not None else ""
        template = self.label or self.title
        if not owner and self.shared_label:
            template = self.shared_label
        try:
            return template.format(owner=owner, **shown)
        except (KeyError, IndexError, ValueError):
            return self.title  # a label naming a field the kind lacks: say what it is, never fail


@dataclass(frozen=True)
class Zone:
    """One configured place: its kind, its field values, and what watches it (a reader or a camera
    zone of the mat). Values are read by field name: ``zone.get("line")``, ``zone["line"]``."""

    kind: ZoneKind
    values: tuple[tuple[str, ZoneValue], ...] = ()
    reader: int | None = None
    camera: str | None = None
    """The camera zone's name on the mat, for a zone watched by the camera instead of a reader."""

    @property
    def zone(self) -> str:
        """The kind's name (``"line"``)."""
        return self.kind.name

    @property
    def player(self) -> PlayerId | None:
        """Whose place this is (the kind's seat field), None for a shared one."""
        seat = self.kind.seat_field
        value = self.get(seat.name) if seat is not None else None
        return PlayerId(value) if isinstance(value, int) else None

    def get(self, name: str, default: Any = None) -> Any:
        return next((value for key, value in self.values if key == name), default)

    def __getitem__(self, name: str) -> ZoneValue:
        for key, value in self.values:
            if key == name:
                return value
        raise KeyError(name)

    @property
    def source(self) -> str:
        """What watches it, for messages: "reader 3", "camera zone 'p0-line1'"."""
        return f"camera zone {self.camera!r}" if self.camera is not None else f"reader {self.reader}"

    def label(self, player_names: Mapping[int, str] | None = None) -> str:
        """How a player names this place: "Grotsnik's line 2", "the discard pile"."""
        return self.kind.describe(self, player_names)

    def of_kind(self, kind: ZoneKind) -> Zone | None:
        """This place as a zone of another game's ``kind`` of the same name (None if its values do
        not fit that kind): a reader serves every game that has such a place."""
        if kind == self.kind:
            return self
        if kind.name != self.kind.name:
            return None
        try:
            return Zone(kind, kind.check(dict(self.values)), self.reader, self.camera)
        except ZoneError:
            return None

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"reader": self.reader, "camera": self.camera, "zone": self.kind.name}
        for f in self.kind.fields:
            out[f.name] = self.get(f.name)
        return out


def kinds_by_name(kinds: Iterable[ZoneKind]) -> dict[str, ZoneKind]:
    return {kind.name: kind for kind in kinds}
