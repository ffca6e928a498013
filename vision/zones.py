"""The zones of a calibration mat: each player's lines and slots, the shared piles, and the markers.

A game's mat is data (``vision/data/<game>.toml``, every value with its provenance); this module
lays it out for a number of players, in millimetres on the mat (origin top-left, x right, y down).
Zone names are what a table's ``[[table.readers]] camera = "..."`` entries name (``zone_name``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"


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
    player: int | None = None
    line: int | None = None

    def reader_entry(self, slot: int | None = None) -> dict[str, Any]:
        """This zone (or one ``slot`` of it) as a ``[[table.readers]]`` entry of the settings."""
        entry: dict[str, Any] = {"camera": self.slot_name(slot), "zone": self.kind}
        if self.player is not None:
            entry["player"] = self.player
        if self.line is not None:
            entry["line"] = self.line
        if slot is not None:
            entry["slot"] = slot
        return entry

    def slot_name(self, slot: int | None) -> str:
        """The name of one of its slots as a zone of its own (``p0-line1-slot3``); its own name for None."""
        return self.name if slot is None else f"{self.name}-slot{slot}"

    def slot_at(self, x: float) -> int | None:
        """The slot a point at ``x`` mm lies over (the nearest one; None for a one-card pile)."""
        if len(self.slots) < 2:
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
        slot of a line it lies over (``p0-line1-slot3``), so the engine is told the slot."""
        zone = self.zone_at(x, y)
        if zone is None:
            return None
        return zone.slot_name(zone.slot_at(x) if by_slot else None)

    def reader_entries(self, by_slot: bool = False) -> list[dict[str, Any]]:
        """Every zone as a ``[[table.readers]]`` entry: the camera half of a table's settings; with
        ``by_slot``, every slot of a line as an entry of its own."""
        entries = []
        for zone in self.zones:
            slots = range(len(zone.slots)) if by_slot and len(zone.slots) > 1 else (None,)
            entries.extend(zone.reader_entry(slot) for slot in slots)
        return entries


def zone_name(kind: str, player: int | None = None, line: int | None = None) -> str:
    """A zone's name on the mat: ``p0-line1``, ``discard``, ``p2-pad`` (seats and lines from 0)."""
    place = kind if line is None else f"{kind}{line}"
    return place if player is None else f"p{player}-{place}"


def layout_path(game: str) -> Path:
    return DATA / f"{game}.toml"


def load_layout(game: str, players: int, path: Path | None = None) -> MatLayout:
    """The mat of ``game`` for ``players`` (LayoutError with a sentence when it cannot be made)."""
    source = path or layout_path(game)
    try:
        data = tomllib.loads(source.read_text())
    except FileNotFoundError:
        known = ", ".join(sorted(p.stem for p in DATA.glob("*.toml")))
        raise LayoutError(f"no mat layout for {game!r} (mats: {known})") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise LayoutError(f"{source}: {exc}") from None
    try:
        return build_layout(data, players)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, LayoutError):
            raise
        raise LayoutError(f"{source}: malformed mat layout ({exc!r})") from None


def build_layout(data: Mapping[str, Any], players: int) -> MatLayout:
    """Lays the mat out: the players' blocks of lines one below the other, then the row of piles,
    all inside a margin that holds the markers."""
    low, high = int(data["min_players"]), int(data["max_players"])
    if not low <= players <= high:
        raise LayoutError(f"the {data['game']} mat seats {low} to {high} players, not {players}")
    card_w, card_h = float(data["card"]["width_mm"]), float(data["card"]["height_mm"])
    lines, mat = data["lines"], data["mat"]
    gap, label = float(lines["slot_gap_mm"]), float(lines["label_mm"])
    margin, marker = float(mat["margin_mm"]), float(mat["marker_mm"])
    slots, per_player = int(lines["slots"]), int(lines["per_player"])
    line_w = slots * (card_w + gap) + gap
    line_h = label + card_h + 2 * gap
    zones: list[MatZone] = []
    y = margin
    for seat in range(players):
        for line in range(per_player):
            area = Rect(margin, y, line_w, line_h)
            cells = tuple(
                Rect(margin + gap + i * (card_w + gap), y + label + gap, card_w, card_h) for i in range(slots)
            )
            kind = str(lines["zone"])
            title = f"P{seat + 1} line {line + 1}"
            zones.append(MatZone(zone_name(kind, seat, line), title, area, cells, kind, seat, line))
            y += line_h + float(lines["line_gap_mm"])
        y += float(lines["player_gap_mm"])
    pile_w = card_w + 2 * gap
    for index, pile in enumerate(data.get("piles", ())):
        area = Rect(margin + index * (pile_w + 4 * gap), y, pile_w + 2 * gap, line_h)
        cell = Rect(area.x + 2 * gap, y + label + gap, card_w, card_h)
        zones.append(MatZone(str(pile["name"]), str(pile["label"]), area, (cell,), str(pile["zone"])))
    width = line_w + 2 * margin
    height = y + line_h + margin
    return MatLayout(
        game=str(data["game"]),
        players=players,
        width_mm=width,
        height_mm=height,
        card_mm=(card_w, card_h),
        zones=tuple(zones),
        markers=_markers(width, height, margin, marker),
        dictionary=str(mat["aruco_dictionary"]),
    )


def _markers(width: float, height: float, margin: float, size: float) -> tuple[Marker, ...]:
    """Four corners, then the middles of the edges (two per long edge): any few seen give the
    homography, so a hand or a cup over some of them does not lose the mat."""
    inset = (margin - size) / 2
    xs = (inset, width / 2 - size / 2, width - inset - size)
    ys = (inset, height / 3 - size / 2, 2 * height / 3 - size / 2, height - inset - size)
    spots = [(x, y) for y in ys for x in xs if y in (ys[0], ys[-1]) or x != xs[1]]
    return tuple(Marker(i, Rect(x, y, size, size)) for i, (x, y) in enumerate(spots))
