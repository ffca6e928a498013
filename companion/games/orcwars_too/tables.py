"""Combat step 2.2: the damage each side takes, from the two ratio tables (``data/combat.toml``).

Pure arithmetic with no rolls, shared by the engine and ``companion combat orcwars-too``. A cell of a
table gives two ratios: the damage the attacker takes as a share of the defender's power, and the damage
the defender takes as a share of the attacker's power, fractions rounded down (rulebook line 216). In a
fortress the defender's damage is reduced by the fortress rating unless the defender charges (line 232),
the attacker's one war machine negating as much of the rating as its power (line 243); the castle falls
when the damage exceeds the defender's power plus the rating (line 243).
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

from companion.engine import JSON
from companion.games.orcwars_too.counters import STRATEGIES

FIELD = "field"
FORTRESS = "fortress"
_RATIO = re.compile(r"^1:(1|2|5)(\*?)$")


class TableError(ValueError):
    """The combat tables' data is malformed."""


@dataclass(frozen=True)
class Ratio:
    """``1:n`` of the opposing power, and whether that side's leader is hacked to pieces if destroyed."""

    divisor: int
    hacked: bool

    def of(self, power: int) -> int:
        return max(0, power) // self.divisor

    def __str__(self) -> str:
        return f"1:{self.divisor}{'*' if self.hacked else ''}"

    @classmethod
    def parse(cls, text: str) -> Ratio:
        found = _RATIO.match(text.strip())
        if found is None:
            raise TableError(f"{text!r} is not a ratio (1:1, 1:2 or 1:5, with * when the leader is hacked)")
        return cls(int(found.group(1)), bool(found.group(2)))


@dataclass(frozen=True)
class Cell:
    attacker: Ratio
    """The damage the attacker takes, of the defender's power."""
    defender: Ratio
    """The damage the defender takes, of the attacker's power."""

    def __str__(self) -> str:
        return f"{self.attacker} - {self.defender}"

    @classmethod
    def parse(cls, text: str) -> Cell:
        parts = text.split(" - ")
        if len(parts) != 2:
            raise TableError(f"{text!r}: a cell is two ratios joined by ' - '")
        return cls(Ratio.parse(parts[0]), Ratio.parse(parts[1]))


@dataclass(frozen=True)
class Tables:
    """The field table and the fortress table: (attacker strategy, defender strategy) -> cell."""

    field: Mapping[tuple[str, str], Cell]
    fortress: Mapping[tuple[str, str], Cell]

    def cell(self, table: str, attacker: str, defender: str) -> Cell:
        return (self.fortress if table == FORTRESS else self.field)[(attacker, defender)]


def parse_tables(data: Mapping[str, object]) -> Tables:
    out: dict[str, dict[tuple[str, str], Cell]] = {}
    for name in (FIELD, FORTRESS):
        section = data.get(name)
        if not isinstance(section, Mapping) or not section.get("provenance"):
            raise TableError(f"[{name}] with a provenance is missing")
        cells: dict[tuple[str, str], Cell] = {}
        for attacker in STRATEGIES:
            row = section.get(attacker)
            if not isinstance(row, list) or len(row) != len(STRATEGIES):
                raise TableError(
                    f"[{name}] {attacker}: one cell per defender strategy ({', '.join(STRATEGIES)})"
                )
            for defender, text in zip(STRATEGIES, row, strict=True):
                cells[(attacker, defender)] = Cell.parse(str(text))
        out[name] = cells
    return Tables(out[FIELD], out[FORTRESS])


@functools.cache
def default_tables() -> Tables:
    text = resources.files("companion.games.orcwars_too").joinpath("data", "combat.toml").read_text("utf-8")
    return parse_tables(tomllib.loads(text))


@dataclass(frozen=True)
class Damage:
    """What step 2.2 gives: the table used, its cell, the damage each side takes, the stars, the castle."""

    table: str
    cell: Cell
    attacker_power: int
    defender_power: int
    damage_to_attacker: int
    damage_to_defender: int
    raw_damage_to_defender: int
    """Before the fortress absorbed its part."""
    absorbed: int
    attacker_hacked: bool
    defender_hacked: bool
    castle_destroyed: bool

    def to_json(self) -> dict[str, JSON]:
        """The ``companion combat`` contract's keys, then the working the TV shows."""
        return {
            "table": self.table,
            "damage_to_attacker": self.damage_to_attacker,
            "damage_to_defender": self.damage_to_defender,
            "attacker_hacked": self.attacker_hacked,
            "defender_hacked": self.defender_hacked,
            "castle_destroyed": self.castle_destroyed,
        }

    def working(self) -> dict[str, JSON]:
        return {
            **self.to_json(),
            "cell": str(self.cell),
            "attacker_ratio": str(self.cell.attacker),
            "defender_ratio": str(self.cell.defender),
            "attacker_power": self.attacker_power,
            "defender_power": self.defender_power,
            "raw_damage_to_defender": self.raw_damage_to_defender,
            "absorbed": self.absorbed,
        }


def damage(
    attacker_power: int,
    attacker_strategy: str,
    defender_power: int,
    defender_strategy: str,
    fortress: int = 0,
    war_machine: int = 0,
    tables: Tables | None = None,
) -> Damage:
    """Step 2.2 for these powers and real strategies; ``fortress`` is the defender's fortress rating (0: the
    field table), ``war_machine`` the power of the attacker's one war machine that negates it."""
    for strategy in (attacker_strategy, defender_strategy):
        if strategy not in STRATEGIES:
            raise ValueError(f"a strategy is one of {', '.join(STRATEGIES)}, not {strategy!r}")
    if min(attacker_power, defender_power, fortress, war_machine) < 0:
        raise ValueError("powers, the fortress rating and the war machine's power are never negative")
    tables = tables or default_tables()
    table = FORTRESS if fortress > 0 else FIELD
    cell = tables.cell(table, attacker_strategy, defender_strategy)
    to_attacker = cell.attacker.of(defender_power)
    raw = cell.defender.of(attacker_power)
    absorbed = 0
    if table == FORTRESS and defender_strategy != "charge":
        absorbed = min(raw, max(0, fortress - war_machine))
    return Damage(
        table=table,
        cell=cell,
        attacker_power=attacker_power,
        defender_power=defender_power,
        damage_to_attacker=to_attacker,
        damage_to_defender=raw - absorbed,
        raw_damage_to_defender=raw,
        absorbed=absorbed,
        attacker_hacked=cell.attacker.hacked,
        defender_hacked=cell.defender.hacked,
        castle_destroyed=table == FORTRESS and raw > defender_power + fortress,
    )


@functools.cache
def every_cell(attacker_power: int, defender_power: int, fortress: int = 0, war_machine: int = 0) -> JSON:
    """What step 2.2 gives for each pair of strategies at these powers: the chart the chiefs would look up
    before choosing, worked out for them (rows the attacker's strategy, in the text's order). Kept: the
    answer never changes and callers must not change it."""
    return [
        {
            "attacker": attacker,
            "defender": defender,
            **damage(attacker_power, attacker, defender_power, defender, fortress, war_machine).to_json(),
        }
        for attacker in STRATEGIES
        for defender in STRATEGIES
    ]
