"""The zones of a calibration mat: each seat's rows of card places, the shared zones, and the markers.

A game's mat is data in its own bundle (``GameBundle.mat``: a TOML file in the game's package, every
value with its provenance); this module lays any such file out for a number of players, in
millimetres on the mat (origin top-left, x right, y down). The format (docs/vision.md, "The mat"):

* ``[card]`` the card's size; ``[spacing]`` the gaps; ``[mat]`` the marker border;
* ``[[seat_zones]]``: what every seat has, in a block per seat, one below the other: ``rows`` rows of
  the game's zone kind ``zone``, numbered by the zone field ``row_field`` (a battle line's ``line``),
  each ``slots`` cards long (with ``[camera] slots = true`` each place is a zone of its own, its
  number the field ``slot_field``). ``seat_field`` names the kind's seat field (``player``);
* ``[[shared_zones]]``: the zones of nobody (a discard pile, a territory of a map: ``values`` gives
  the fields it carries, ``{territory = "north"}``), in a row below the seats' blocks.

Zone names are what a table's ``[[table.readers]] camera = "..."`` entries name (``zone_name``):
``p0-line1`` (seat 0's row 1 of ``line``), ``p2-hand`` (a single row), a shared zone's own name.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


class LayoutError(ValueError):
    """A mat layout file is missing, malformed, or does not seat that many players."""


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle on the mat, in millimetres."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def contains(self, x: float, y: float) -> bool:
        return self.x <= x < self.x + self.w and self.y <= y < self.y + self.h


@dataclass(frozen=True)
class MatZone:
    """One zone of the mat and what a table layout maps it to."""

    name: str
    label: str
    area: Rect
    slots: tuple[Rect, ...]
    """Card-sized outlines inside the zone, left to right (one for a pile)."""
    kind: str
    """The game's zone kind (``"line"``, ``"discard"``): what ``[[table.readers]] zone`` says."""
    values: tuple[tuple[str, int | str], ...] = ()
    """The zone's field values as the table's entry carries them (``player``, ``line``)."""
    slot_field: str | None = None
    """The field numbering its places, when each place may be a zone of its own."""

    def value(self, name: str) -> int | str | None:
        return next((value for key, value in self.values if key == name), None)

    def reader_entry(self, slot: int | None = None) -> dict[str, Any]:
        """This zone (or one ``slot`` of it) as a ``[[table.readers]]`` entry of the settings."""
        entry: dict[str, Any] = {"camera": self.slot_name(slot), "zone": self.kind, **dict(self.values)}
        if slot is not None and self.slot_field is not None:
            entry[self.slot_field] = slot
        return entry

    def slot_name(self, slot: int | None) -> str:
        """The name of one of its slots as a zone of its own (``p0-line1-slot3``); its own name for None."""
        return self.name if slot is None else f"{self.name}-slot{slot}"

    def slot_at(self, x: float) -> int | None:
        """The slot a point at ``x`` mm lies over (the nearest one; None for a one-card pile)."""
        if len(self.slots) < 2 or self.slot_field is None:
            return None
        return min(range(len(self.slots)), key=lambda i: abs(self.slots[i].centre[0] - x))


@dataclass(frozen=True)
class Marker:
    """An ArUco marker printed on the mat: its id and its square (corners clockwise from top-left)."""

    id: int
    square: Rect

    def corners(self) -> tuple[tuple[float, float], ...]:
        s = self.square
        return ((s.x, s.y), (s.x + s.w, s.y), (s.x + s.w, s.y + s.h), (s.x, s.y + s.h))


@dataclass(frozen=True)
class MatLayout:
    game: str
    players: int
    width_mm: float
    height_mm: float
    card_mm: tuple[float, float]
    zones: tuple[MatZone, ...]
    markers: tuple[Marker, ...]
    dictionary: str
    """The ``cv2.aruco`` predefined dictionary the markers come from (``"DICT_4X4_50"``)."""

    def zone(self, name: str) -> MatZone:
        for zone in self.zones:
            if zone.name == name:
                return zone
        raise KeyError(name)

    def zone_at(self, x: float, y: float) -> MatZone | None:
        """The zone a point of the mat lies in (a card is in the zone its centre is in)."""
        return next((zone for zone in self.zones if zone.area.contains(x, y)), None)

    def place_at(self, x: float, y: float, by_slot: bool = False) -> str | None:
        """The camera zone's name for a card centred at (x, y): its zone, or with ``by_slot`` the
        place of a row it lies over (``p0-line1-slot3``), so the engine is told the slot."""
        zone = self.zone_at(x, y)
        if zone is None:
            return None
        return zone.slot_name(zone.slot_at(x) if by_slot else None)

    def reader_entries(self, by_slot: bool = False) -> list[dict[str, Any]]:
        """Every zone as a ``[[table.readers]]`` entry: the camera half of a table's settings; with
        ``by_slot``, every place of a row as an entry of its own."""
        entries = []
        for zone in self.zones:
            places = len(zone.slots) > 1 and zone.slot_field is not None
            slots = range(len(zone.slots)) if by_slot and places else (None,)
            entries.extend(zone.reader_entry(slot) for slot in slots)
        return entries

    def entry_zone(self, entry: Mapping[str, Any]) -> MatZone | None:
        """The zone of this mat a ``[[table.readers]]`` entry (a reader's) watches the same place as:
        the same kind and field values (a reader of a single place has no zone of the whole mat)."""
        wanted = {k: v for k, v in entry.items() if k not in ("reader", "camera")}
        for zone in self.zones:
            if {k: v for k, v in zone.reader_entry().items() if k != "camera"} == wanted:
                return zone
        return None


def zone_name(kind: str, player: int | None = None, row: int | None = None) -> str:
    """A zone's name on the mat: ``p0-line1``, ``discard``, ``p2-hand`` (seats and rows from 0)."""
    place = kind if row is None else f"{kind}{row}"
    return place if player is None else f"p{player}-{place}"


def layout_path(game: str) -> Path:
    """The mat file of an installed game's bundle (LayoutError when it has none)."""
    from companion.games import UnknownGameError, bundles, find_bundle  # the registry, read when asked

    try:
        path = find_bundle(game).mat_path()
    except UnknownGameError:
        path = None
    if path is None:
        mats = ", ".join(name for name, bundle in bundles().items() if bundle.mat is not None)
        raise LayoutError(f"no mat layout for {game!r} (mats: {mats or 'none'})")
    return path


def mat_games() -> list[str]:
    """The installed games whose bundles declare a camera mat, by name."""
    from companion.games import bundles

    return sorted(name for name, bundle in bundles().items() if bundle.mat is not None)


def load_layout(game: str, players: int, path: Path | None = None) -> MatLayout:
    """The mat of ``game`` for ``players`` (LayoutError with a sentence when it cannot be made)."""
    source = path or layout_path(game)
    try:
        data = tomllib.loads(source.read_text())
    except FileNotFoundError:
        raise LayoutError(f"no mat layout at {source}") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LayoutError(f"{source}: {exc}") from None
    try:
        return build_layout(data, players, game)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, LayoutError):
            raise
        raise LayoutError(f"{source}: malformed mat layout ({exc!r})") from None


def build_layout(data: Mapping[str, Any], players: int, game: str = "") -> MatLayout:
    """Lays the mat out: the seats' blocks of rows one below the other, then the row of shared zones,
    all inside a margin that holds the markers."""
    data = _current_format(data)
    game = game or str(data.get("game", "the game"))
    low, high = int(data["min_players"]), int(data["max_players"])
    if not low <= players <= high:
        raise LayoutError(f"the {game} mat seats {low} to {high} players, not {players}")
    card_w, card_h = float(data["card"]["width_mm"]), float(data["card"]["height_mm"])
    spacing, mat = data["spacing"], data["mat"]
    gap, label = float(spacing["slot_gap_mm"]), float(spacing["label_mm"])
    overlap = float(spacing.get("overlap_mm", 0.0))
    if not 0 <= overlap <= card_w * 0.6:
        raise LayoutError(f"overlap_mm must be from 0 to {card_w * 0.6:g} (60 % of a card), not {overlap:g}")
    pitch = card_w + gap if overlap == 0 else card_w - overlap  # overlapping cards touch: no gap
    margin, marker = float(mat["margin_mm"]), float(mat["marker_mm"])
    row_h = label + card_h + 2 * gap

    def row_of(x: float, y: float, slots: int) -> tuple[Rect, tuple[Rect, ...]]:
        area = Rect(x, y, (slots - 1) * pitch + card_w + 2 * gap, row_h)
        cells = tuple(Rect(x + gap + i * pitch, y + label + gap, card_w, card_h) for i in range(slots))
        return area, cells

    zones: list[MatZone] = []
    widest = 0.0
    y = margin
    for seat in range(players):
        for spec in data.get("seat_zones", ()):
            kind, rows, row_field = str(spec["zone"]), int(spec.get("rows", 1)), spec.get("row_field")
            seat_field = str(spec.get("seat_field", "player"))
            for row in range(rows):
                area, cells = row_of(margin, y, int(spec.get("slots", 1)))
                numbered = row_field is not None
                values: list[tuple[str, int | str]] = [(seat_field, seat)]
                if numbered:
                    values.append((str(row_field), row))
                title = f"P{seat + 1} {spec.get('label', kind)}" + (f" {row + 1}" if numbered else "")
                name = zone_name(kind, seat, row if numbered else None)
                zones.append(MatZone(name, title, area, cells, kind, tuple(values), spec.get("slot_field")))
                widest = max(widest, area.w)
                y += row_h + float(spacing["row_gap_mm"])
        y += float(spacing["seat_gap_mm"])
    x = margin
    shared = data.get("shared_zones", ())
    for spec in shared:
        slots = int(spec.get("slots", 1))
        area, cells = row_of(x, y, slots)
        area = Rect(area.x, area.y, area.w + 2 * gap, area.h)  # a pile wants room around its card
        cells = tuple(Rect(c.x + gap, c.y, c.w, c.h) for c in cells)
        values = tuple((str(k), v) for k, v in dict(spec.get("values", {})).items())
        slot_field = spec.get("slot_field")
        zones.append(
            MatZone(str(spec["name"]), str(spec["label"]), area, cells, str(spec["zone"]), values, slot_field)
        )
        x += area.w + 2 * gap
    widest = max(widest, x - margin - 2 * gap if shared else 0.0)
    width = widest + 2 * margin
    height = (y + row_h if shared else y) + margin
    return MatLayout(
        game=game,
        players=players,
        width_mm=width,
        height_mm=height,
        card_mm=(card_w, card_h),
        zones=tuple(zones),
        markers=_markers(width, height, margin, marker),
        dictionary=str(mat["aruco_dictionary"]),
    )


def _current_format(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A mat file of the first format (``[lines]`` and ``[[piles]]``, before mats moved into the
    games' bundles) read as the current one, so an owner's own mat file keeps working."""
    if "lines" not in data:
        return data
    lines = data["lines"]
    row = {"zone": lines["zone"], "rows": lines["per_player"], "row_field": "line", "slots": lines["slots"]}
    return {
        **data,
        "spacing": {
            "slot_gap_mm": lines["slot_gap_mm"],
            "row_gap_mm": lines["line_gap_mm"],
            "seat_gap_mm": lines["player_gap_mm"],
            "label_mm": lines["label_mm"],
        },
        "seat_zones": [{**row, "slot_field": "slot", "label": "line"}],
        "shared_zones": list(data.get("piles", ())),
    }


MARKER_SPACING_MM = 250.0
"""Markers along each edge of the mat lie at most this far apart (centre to centre)."""
MARKER_IDS = 50
"""Markers the dictionary holds (``DICT_4X4_50``)."""


def _markers(width: float, height: float, margin: float, size: float) -> tuple[Marker, ...]:
    """Markers all around the margin, at most ``MARKER_SPACING_MM`` apart: any two seen give the
    homography, so a hand or a cup over some of them, or a camera that leaves an end of the mat out
    of view, does not lose the mat; and seen all over the frame, they measure its lens."""
    inset = (margin - size) / 2
    left, top = inset, inset
    right, bottom = width - inset - size, height - inset - size

    def along(start: float, end: float) -> list[float]:
        steps = max(1, math.ceil((end - start) / MARKER_SPACING_MM))
        return [start + (end - start) * i / steps for i in range(steps + 1)]

    xs, ys = along(left, right), along(top, bottom)
    spots = [(x, top) for x in xs] + [(right, y) for y in ys[1:]]
    spots += [(x, bottom) for x in reversed(xs[:-1])] + [(left, y) for y in reversed(ys[1:-1])]
    return tuple(Marker(i, Rect(x, y, size, size)) for i, (x, y) in enumerate(spots[:MARKER_IDS]))
