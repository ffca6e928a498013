"""GoDice (Particula) over Bluetooth LE: the published message formats and the face from the die's vector.

Source: Particula's GoDice SDKs (GoDicePythonAPI godice/dice.py and xyzinterpret.py, GoDiceJavaScriptAPI
godice.js). The die speaks the Nordic UART service ``6e400001-b5a3-f393-e0a9-e50e24dcca9e``: commands
are written to ``6e400002-...``, events notified on ``6e400003-...``; it advertises as
``GoDice_<id>_<colour>_<firmware>``.

Events: ``R`` a roll started; ``S`` x y z: stable after a roll (the result); ``FS``/``TS``/``MS`` x y z:
stable after a fake roll, tilted, or moved (no result); ``Bat`` level; ``Col`` colour. x, y, z are
signed bytes: the accelerometer's vector, turned into a face by the nearest published vector of the
die's shell (``godice_shells.toml``). Commands: 3 battery level, 23 dot colour.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

SERVICE = "6e400001-b5a3-f393-e0a9-e50e24dcca9e"
WRITE = "6e400002-b5a3-f393-e0a9-e50e24dcca9e"
NOTIFY = "6e400003-b5a3-f393-e0a9-e50e24dcca9e"
NAME_PREFIX = "GoDice_"
BATTERY_REQUEST = 3
COLOUR_REQUEST = 23
COLOURS = {0: "black", 1: "red", 2: "green", 3: "blue", 4: "yellow", 5: "orange"}
SHELLS_FILE = Path(__file__).with_name("godice_shells.toml")


class GoDiceMessageError(ValueError):
    """A notification that is none of the GoDice events."""


@dataclass(frozen=True)
class RollStarted:
    pass


@dataclass(frozen=True)
class Stable:
    vector: tuple[int, int, int]
    kind: str
    """"S" (a real roll's result), "FS" (fake), "TS" (tilted), "MS" (moved)."""

    @property
    def is_roll(self) -> bool:
        return self.kind == "S"


@dataclass(frozen=True)
class Battery:
    percent: int


@dataclass(frozen=True)
class Colour:
    name: str


GoDiceMessage = RollStarted | Stable | Battery | Colour


def battery_request() -> bytes:
    return bytes([BATTERY_REQUEST])


def colour_request() -> bytes:
    return bytes([COLOUR_REQUEST])


def parse(data: bytes) -> GoDiceMessage:
    if data[:1] == b"R":
        return RollStarted()
    if data[:3] == b"Bat" and len(data) >= 4:
        return Battery(min(data[3], 100))
    if data[:3] == b"Col" and len(data) >= 4:
        return Colour(COLOURS.get(data[3], f"colour {data[3]}"))
    for kind in ("FS", "TS", "MS", "S"):
        if data.startswith(kind.encode()) and len(data) >= len(kind) + 3:
            raw = data[len(kind) : len(kind) + 3]
            return Stable(tuple(b - 256 if b > 127 else b for b in raw), kind)  # type: ignore[arg-type]
    raise GoDiceMessageError(f"not a GoDice event: {data.hex()}")


@dataclass(frozen=True)
class Shell:
    name: str
    vectors: dict[int, tuple[int, int, int]]
    faces: tuple[int, ...] | None

    def value(self, vector: tuple[int, int, int]) -> int:
        """The number shown on top: the body face whose published vector is nearest, through the shell."""
        face = min(self.vectors, key=lambda f: math.dist(vector, self.vectors[f]))
        return self.faces[face - 1] if self.faces else face


@cache
def shells() -> dict[str, Shell]:
    data = tomllib.loads(SHELLS_FILE.read_text())
    bodies = {
        body: {int(face): tuple(vector) for face, vector in table.items()}
        for body, table in data["vectors"].items()
    }
    return {
        name: Shell(name, bodies[spec["body"]], tuple(spec["faces"]) if "faces" in spec else None)  # type: ignore[misc]
        for name, spec in data["shells"].items()
    }


def table_face(shell: str, value: int) -> int:
    """The 1-based face the table's dice data counts: a d10's 0 is face 10, a d10x's 00 likewise."""
    if shell == "d10":
        return value or 10
    if shell == "d10x":
        return value // 10 or 10
    return value
