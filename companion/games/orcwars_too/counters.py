"""ORCWARS TOO!'s game data as immutable values: the counters, the board, the rules' numbers and readings.

Loaded and checked by :mod:`companion.games.orcwars_too.catalog`. Every physical chip is one
:class:`Counter` with its own id (``red-orcs#2`` is the second Red Orcs chip): the engine knows where
each chip lies, so no chip is ever in two places.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from companion.engine import JSON

ASSUMED = "assumed — invented starter value, owner to replace from the physical counters"
"""How the starter data marks a value the rules text does not give (the owner replaces it)."""

STRATEGIES = ("charge", "careful", "clever")
"""Mindless charge, careful advance (careful defence in a fortress), clever strategy (rulebook 1.1)."""
STRATEGY_NAMES = {
    "charge": "Mindless Charge",
    "careful": "Careful Advance",
    "clever": "Clever Strategy",
    "flee": "Flee",
}
FORTRESS_STRATEGY_NAMES = {**STRATEGY_NAMES, "careful": "Careful Defence"}

ORCLAND = "orcland"
OUTLAND = "outland"


class Kind(enum.StrEnum):
    LEADER = "leader"
    TROOP = "troop"
    WAR_MACHINE = "war-machine"
    SHAMAN = "shaman"
    SPY = "spy"


UNIT_KINDS = (Kind.LEADER, Kind.TROOP, Kind.WAR_MACHINE)
"""'unit = troop, leader or war machine chip' (rulebook line 3): what fights, and what a hand limit counts."""


@dataclass(frozen=True)
class Counter:
    """One chip of the tribe cup."""

    id: str
    """The chip: the counter's type id, with ``#n`` for the n-th copy of a type with several."""
    type: str
    kind: Kind
    name: str
    race: str = ""
    power: int = 0
    """A troop's or war machine's power; a leader's authority (rulebook line 1: the power of a leader)."""
    survivability: int = 0
    native: str = ""
    """The territory a troop is native to, a leader's home territory; "" for the others."""
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def unit(self) -> bool:
        return self.kind in UNIT_KINDS

    @property
    def authority(self) -> int:
        return self.power if self.kind is Kind.LEADER else 0

    def __repr__(self) -> str:
        return f"Counter({self.id!r})"

    def to_json(self) -> dict[str, JSON]:
        return {
            "id": self.id,
            "type": self.type,
            "kind": self.kind.value,
            "title": self.name,
            "race": self.race or None,
            "power": self.power if self.kind in (Kind.TROOP, Kind.WAR_MACHINE) else None,
            "authority": self.authority if self.kind is Kind.LEADER else None,
            "survivability": self.survivability if self.kind is Kind.LEADER else None,
            "native": self.native or None,
            "provenance": dict(self.provenance),
        }


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    kind: str
    """"orcland" (may be controlled) or "outland" (never controlled; armies rampage there)."""
    adjacent: tuple[str, ...] | None = None
    """Its neighbours, when the owner entered the board's adjacency; None: the players' word is taken."""
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def orcland(self) -> bool:
        return self.kind == ORCLAND


@dataclass(frozen=True)
class CaravanChip:
    """A caravan chip of the gold pile: where it starts and the steps to its destination."""

    id: str
    name: str
    route: tuple[str, ...]
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class SpyUse:
    id: str
    label: str
    effect: str
    """"steal-gold" (the engine moves the gold) or "table" (recorded; the players apply it)."""
    amount: int = 0


@dataclass(frozen=True)
class Rules:
    """The house rules' numbers and the readings taken (data/rules.toml)."""

    min_players: int
    max_players: int
    setup_units: int
    bosses: tuple[int, int]
    free_draws: int
    extra_draws: int
    extra_cost: int
    redraws: int
    redraw_size: int
    hand_limit: int
    lonely_leader_moves: int
    army_moves: int
    authority_die: str
    always_fails: int
    survivability_die: str
    shaman_bonus: int
    leader_carries: int
    fortress_ratings: tuple[int, ...]
    caravan_power: tuple[int, ...]
    """Power by the d6's face (index face - 1); -1: roll a d6 again, power is that minus 1."""
    caravan_strategy: tuple[str, ...]
    """Strategy by the d3's face (index face - 1)."""
    rumours_go_to: str
    charge_at_most: int
    careful_at_most: int
    big_races: tuple[str, ...]
    small_races: tuple[str, ...]
    fortress_bonus: int
    stupidity: Mapping[str, int]
    surrender_at_most: int
    regenerates_at_least: int
    retreat: str
    victory_lands: int
    victory_leaders: int
    end_condition: str
    spy_uses: tuple[SpyUse, ...]
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    def spy_use(self, use_id: str) -> SpyUse | None:
        return next((u for u in self.spy_uses if u.id == use_id), None)


@dataclass(frozen=True)
class Board:
    territories: tuple[Territory, ...]
    underground: tuple[str, ...]
    """The d20 for an underground move: face n (from 1) names the territory the army comes up in."""
    lost_in_the_dark: int
    destroyed_underground: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {t.id: t for t in self.territories})
        object.__setattr__(self, "_linked", all(t.adjacent is not None for t in self.territories))
        object.__setattr__(self, "_neighbours", {})

    def __contains__(self, territory_id: object) -> bool:
        return territory_id in self._by_id  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[Territory]:
        return iter(self.territories)

    def territory(self, territory_id: str) -> Territory:
        try:
            return self._by_id[territory_id]  # type: ignore[attr-defined,no-any-return]
        except KeyError:
            raise KeyError(f"the board has no territory {territory_id!r}") from None

    @property
    def has_adjacency(self) -> bool:
        """The owner entered every territory's neighbours (moves are then checked against them)."""
        return self._linked  # type: ignore[attr-defined,no-any-return]

    def neighbours(self, here: str) -> tuple[str, ...]:
        """The territories bordering ``here``: every other one on a board entered without adjacency."""
        found = self._neighbours.get(here)  # type: ignore[attr-defined]
        if found is None:
            found = tuple(t.id for t in self.territories if self.adjacent(here, t.id))
            self._neighbours[here] = found  # type: ignore[attr-defined]
        return found  # type: ignore[no-any-return]

    def adjacent(self, here: str, there: str) -> bool:
        """Whether ``there`` borders ``here``; always true on a board entered without adjacency."""
        if not self.has_adjacency:
            return here != there
        return there in (self.territory(here).adjacent or ())

    def name(self, territory_id: str) -> str:
        return self.territory(territory_id).name if territory_id in self else territory_id


@dataclass(frozen=True, eq=False)
class GameData:
    """Everything the engine reads of the game's data, checked as a whole when loaded. Compared (and
    hashed, for the caches of its computations) by identity: one engine, one data."""

    counters: tuple[Counter, ...]
    caravans: tuple[CaravanChip, ...]
    gold_chips: int
    board: Board
    rules: Rules
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    units: frozenset[str] = field(init=False, compare=False, hash=False, repr=False)
    """The ids of the chips that are units (a hand's limit and its public count read these)."""
    machines: frozenset[str] = field(init=False, compare=False, hash=False, repr=False)
    """The ids of the war machines (towed by a troop at every moment)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "_counters", {c.id: c for c in self.counters})
        object.__setattr__(self, "_caravans", {c.id: c for c in self.caravans})
        object.__setattr__(self, "_types", {c.type: c.name for c in self.counters})
        object.__setattr__(self, "units", frozenset(c.id for c in self.counters if c.unit))
        object.__setattr__(
            self, "machines", frozenset(c.id for c in self.counters if c.kind is Kind.WAR_MACHINE)
        )

    def counter(self, counter_id: str) -> Counter:
        try:
            return self._counters[counter_id]  # type: ignore[attr-defined,no-any-return]
        except KeyError:
            raise KeyError(f"ORCWARS TOO! has no counter {counter_id!r}") from None

    def has_counter(self, counter_id: str) -> bool:
        return counter_id in self._counters  # type: ignore[attr-defined]

    def caravan(self, caravan_id: str) -> CaravanChip:
        return self._caravans[caravan_id]  # type: ignore[attr-defined,no-any-return]

    def has_caravan(self, caravan_id: str) -> bool:
        return caravan_id in self._caravans  # type: ignore[attr-defined]

    def of_kind(self, kind: Kind) -> tuple[Counter, ...]:
        return tuple(c for c in self.counters if c.kind is kind)

    def name(self, counter_id: str) -> str:
        if counter_id in self._types:  # type: ignore[attr-defined]
            return self._types[counter_id]  # type: ignore[attr-defined,no-any-return]
        if self.has_counter(counter_id):
            return self.counter(counter_id).name
        if self.has_caravan(counter_id):
            return self.caravan(counter_id).name
        return counter_id
