"""Names of army cards in play and of their figures, with paired parse and format.

A unit is one army card in a player's army: ``"1:marro-stingers#2"`` is seat 1's second Marro Stingers
card (the first copy needs no ``#1``: ``"0:shiori"``). A figure is one figure on a unit, counted from 1:
``"1:marro-stingers#2/3"``. Seats count from 0, as everywhere in the engine.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from companion.engine import MalformedActionError

_UNIT = re.compile(r"^(\d+):([a-z0-9][a-z0-9-]*)(?:#(\d+))?$")


@dataclass(frozen=True, order=True)
class UnitId:
    seat: int
    card: str
    copy: int = 1

    @classmethod
    def parse(cls, text: str) -> UnitId:
        return _parse_unit(text)

    def format(self) -> str:
        suffix = f"#{self.copy}" if self.copy != 1 else ""
        return f"{self.seat}:{self.card}{suffix}"

    def figure(self, number: int) -> FigureId:
        return FigureId(self, number)

    def __str__(self) -> str:
        return self.format()


@dataclass(frozen=True, order=True)
class FigureId:
    unit: UnitId
    number: int = 1

    @classmethod
    def parse(cls, text: str) -> FigureId:
        return _parse_figure(text)

    def format(self) -> str:
        return f"{self.unit.format()}/{self.number}"

    @property
    def seat(self) -> int:
        return self.unit.seat

    def __str__(self) -> str:
        return self.format()


# Names are parsed again and again (every rule reads the figures the position names): the values are
# immutable, so each text is parsed once. A malformed text raises every time (errors are not kept).


@functools.lru_cache(maxsize=4096)
def _parse_unit(text: str) -> UnitId:
    match = _UNIT.match(text)
    if match is None or (match.group(3) is not None and int(match.group(3)) < 1):
        raise MalformedActionError(f"{text!r} is not an army card in play (like 1:marro-stingers#2)")
    return UnitId(int(match.group(1)), match.group(2), int(match.group(3) or 1))


@functools.lru_cache(maxsize=4096)
def _parse_figure(text: str) -> FigureId:
    unit, slash, number = text.rpartition("/")
    if not slash:
        unit, number = text, "1"  # a hero: its card names its one figure
    if not (number.isascii() and number.isdigit()) or int(number) < 1:
        raise MalformedActionError(f"{text!r} is not a figure (like 1:marro-stingers#2/3)")
    return FigureId(_parse_unit(unit), int(number))
