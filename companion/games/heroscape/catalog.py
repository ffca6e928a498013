"""HeroScape's game data: army cards, scenarios and glyphs (``data/*.toml``), checked when loaded.

The owner of a physical game corrects values in an overrides file (a ``[[cards]]`` table per card with
its ``id`` and the fields to change, each with a ``provenance`` line); the result is checked as strictly
as the packaged data. A problem is a :class:`CatalogError` naming the card or scenario and the field.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

GAME = "heroscape"
TITLE = "HeroScape: Swarm of the Marro"
"""The game's registry name and title (bundle and engine read them; the view repeats the title)."""
SIZES = ("small", "medium", "large", "huge")
POWER_KINDS = (
    "defensive-aura",
    "flying",
    "special-attack",
    "thorian-speed",
    "movement",
    "concentrated-will",
    "disengage",
    "d20",
    "hive-mind",
    "terrain-bonus",
    "life-bonding",
    "climb",
)
D20_TIMINGS = ("before-move", "while-moving", "after-move", "after-turn")
"""When a d20 power is used (the card's words): "before moving", "at any point while moving", "after
moving and before attacking", "after taking a turn"."""
D20_TARGETS = ("wounded-hero", "any-figure", "small-or-medium", "destroyed-common-marro", "none")
D20_EFFECTS = ("heal", "wound", "revive", "trample", "drain")


class CatalogError(ValueError):
    """The game data is malformed or inconsistent (the message names the card and the field)."""


@dataclass(frozen=True)
class Power:
    """A special power: ``kind`` is the rule the engine applies, ``params`` that rule's numbers."""

    id: str
    name: str
    kind: str
    text: str
    params: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    provenance: str = ""

    def number(self, key: str, default: int = 0) -> int:
        value = self.params.get(key, default)
        return int(value)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind, "text": self.text, **self.params}


@dataclass(frozen=True)
class ArmyCard:
    id: str
    title: str
    short: str
    general: str
    species: str
    unique: bool
    hero: bool
    card_class: str
    personality: str
    size: str
    height: int
    spaces: int
    life: int
    move: int
    range: int
    attack: int
    defense: int
    points: int
    figures: int
    copies: int
    basic: Mapping[str, int]
    powers: tuple[Power, ...]
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)

    @property
    def common(self) -> bool:
        return not self.unique

    @property
    def master(self) -> Mapping[str, int]:
        """The Master Game side's move, range, attack and defense (``basic`` is the other side)."""
        return {"move": self.move, "range": self.range, "attack": self.attack, "defense": self.defense}

    def power(self, kind: str) -> Power | None:
        return next((p for p in self.powers if p.kind == kind), None)

    def powers_of(self, kind: str) -> tuple[Power, ...]:
        return tuple(p for p in self.powers if p.kind == kind)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "short": self.short,
            "general": self.general,
            "species": self.species,
            "unique": self.unique,
            "hero": self.hero,
            "class": self.card_class,
            "personality": self.personality,
            "size": self.size,
            "height": self.height,
            "spaces": self.spaces,
            "life": self.life,
            "move": self.move,
            "range": self.range,
            "attack": self.attack,
            "defense": self.defense,
            "points": self.points,
            "figures": self.figures,
            "copies": self.copies,
            "basic": dict(self.basic),
            "powers": [p.to_json() for p in self.powers],
            "provenance": dict(self.provenance),
        }


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    battlefield: str
    mode: str
    players: tuple[int, ...]
    army: str
    preset: tuple[tuple[str, ...], ...]
    points: Mapping[int, tuple[int, ...]]
    round_limit: int
    victory: str
    goal: str
    rules: tuple[str, ...] = ()
    at_limit: str = ""
    heroes_only: tuple[int, ...] = ()
    squads_only: tuple[int, ...] = ()
    forbidden: tuple[str, ...] = ()
    gifts: tuple[tuple[str, ...], ...] = ()
    teams: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    glyphs: str = ""
    glyph_count: int = 0
    """How many glyphs the scenario places (0: as its map shows, up to the box's eight)."""
    provenance: str = ""

    @property
    def basic(self) -> bool:
        return self.mode == "basic"

    def has(self, rule: str) -> bool:
        return rule in self.rules

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "battlefield": self.battlefield,
            "mode": self.mode,
            "players": list(self.players),
            "army": self.army,
            "round_limit": self.round_limit,
            "goal": self.goal,
            "glyphs": self.glyphs,
            "rules": list(self.rules),
        }


@dataclass(frozen=True)
class Glyph:
    id: str
    title: str
    power: str
    lasts: str
    text: str
    fails_below: int = 0
    """Temporary glyphs: a d20 below this does nothing."""
    provenance: str = ""

    @property
    def permanent(self) -> bool:
        return self.lasts == "permanent"


@dataclass(frozen=True)
class Catalog:
    cards: tuple[ArmyCard, ...]
    scenarios: tuple[Scenario, ...]
    glyphs: tuple[Glyph, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cards", {c.id: c for c in self.cards})
        object.__setattr__(self, "_scenarios", {s.id: s for s in self.scenarios})
        object.__setattr__(self, "_glyphs", {g.id: g for g in self.glyphs})

    def card(self, card_id: str) -> ArmyCard:
        try:
            return self._cards[card_id]  # type: ignore[attr-defined,no-any-return]
        except KeyError:
            raise KeyError(f"HeroScape has no army card {card_id!r}") from None

    def has_card(self, card_id: str) -> bool:
        return card_id in self._cards  # type: ignore[attr-defined]

    def scenario(self, scenario_id: str) -> Scenario:
        return self._scenarios[scenario_id]  # type: ignore[attr-defined,no-any-return]

    def has_scenario(self, scenario_id: str) -> bool:
        return scenario_id in self._scenarios  # type: ignore[attr-defined]

    def glyph(self, glyph_id: str) -> Glyph:
        return self._glyphs[glyph_id]  # type: ignore[attr-defined,no-any-return]

    def has_glyph(self, glyph_id: str) -> bool:
        return glyph_id in self._glyphs  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[ArmyCard]:
        return iter(self.cards)


# ---------------------------------------------------------------------------------------- loading


def _data(name: str) -> dict[str, Any]:
    text = resources.files("companion.games.heroscape").joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@functools.cache
def default_catalog() -> Catalog:
    return load_catalog()


def load_catalog(overrides: Path | None = None) -> Catalog:
    """The packaged data, with the owner's ``overrides`` file applied; raises CatalogError."""
    raw_cards = [dict(entry) for entry in _data("army_cards.toml")["cards"]]
    if overrides is not None:
        raw_cards = _apply_overrides(raw_cards, overrides)
    cards = tuple(_card(entry) for entry in raw_cards)
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise CatalogError("two army cards share an id")
    known = set(ids)
    scenarios = tuple(_scenario(entry, known) for entry in _data("scenarios.toml")["scenarios"])
    glyphs = tuple(_glyph(entry) for entry in _data("glyphs.toml")["glyphs"])
    return Catalog(cards, scenarios, glyphs)


def _apply_overrides(cards: list[dict[str, Any]], path: Path) -> list[dict[str, Any]]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"cannot read the overrides file {path}: {exc}") from exc
    by_id = {c["id"]: c for c in cards}
    for index, change in enumerate(data.get("cards", ())):
        where = f"{path}: cards[{index}]"
        if not isinstance(change, Mapping) or change.get("id") not in by_id:
            raise CatalogError(f"{where}: names no army card (id = ...)")
        card = by_id[change["id"]]
        provenance = dict(change.get("provenance", {}))
        for key, value in change.items():
            if key in ("id", "provenance"):
                continue
            if key not in card:
                raise CatalogError(f"{where}: army cards have no field {key!r}")
            if key not in provenance:
                raise CatalogError(f"{where}: say where {key} = {value!r} comes from (provenance.{key})")
            card[key] = value
        card["provenance"] = {**card.get("provenance", {}), **provenance}
    return cards


def _int(entry: Mapping[str, Any], key: str, where: str, low: int = 0) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise CatalogError(f"{where}: {key} must be a whole number from {low}, got {value!r}")
    return value


def _text(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where}: {key} must be text")
    return value


def _card(entry: Mapping[str, Any]) -> ArmyCard:
    where = f"army card {entry.get('id')!r}"
    size = entry.get("size")
    if size not in SIZES:
        raise CatalogError(f"{where}: size must be one of {', '.join(SIZES)}, got {size!r}")
    basic = entry.get("basic", {})
    if not isinstance(basic, Mapping) or set(basic) != {"move", "range", "attack", "defense"}:
        raise CatalogError(f"{where}: basic must give move, range, attack and defense")
    for key in basic:
        _int(basic, key, f"{where}: basic")
    provenance = entry.get("provenance", {})
    for key in ("stats", "copies", "facts", "basic"):
        if key not in provenance:
            raise CatalogError(f"{where}: say where its {key} come from (provenance.{key})")
    hero = entry.get("hero")
    figures = _int(entry, "figures", where, 1)
    life = _int(entry, "life", where, 1)
    if not isinstance(hero, bool) or not isinstance(entry.get("unique"), bool):
        raise CatalogError(f"{where}: unique and hero must be true or false")
    if hero and figures != 1:
        raise CatalogError(f"{where}: a Hero card shows one figure")
    if not hero and life != 1:
        raise CatalogError(f"{where}: squad figures have 1 life in this set")
    powers = tuple(_power(p, where) for p in entry.get("powers", ()))
    return ArmyCard(
        id=_text(entry, "id", where),
        title=_text(entry, "title", where),
        short=_text(entry, "short", where),
        general=_text(entry, "general", where),
        species=_text(entry, "species", where),
        unique=entry["unique"],
        hero=hero,
        card_class=_text(entry, "class", where),
        personality=_text(entry, "personality", where),
        size=size,
        height=_int(entry, "height", where, 1),
        spaces=_int(entry, "spaces", where, 1),
        life=life,
        move=_int(entry, "move", where),
        range=_int(entry, "range", where, 1),
        attack=_int(entry, "attack", where),
        defense=_int(entry, "defense", where),
        points=_int(entry, "points", where, 1),
        figures=figures,
        copies=_int(entry, "copies", where),
        basic={k: int(v) for k, v in basic.items()},
        powers=powers,
        provenance={str(k): str(v) for k, v in provenance.items()},
    )


def _power(entry: Mapping[str, Any], card: str) -> Power:
    where = f"{card}, power {entry.get('id')!r}"
    kind = entry.get("kind")
    if kind not in POWER_KINDS:
        raise CatalogError(f"{where}: kind must be one of {', '.join(POWER_KINDS)}, got {kind!r}")
    params = {k: v for k, v in entry.items() if k not in ("id", "name", "kind", "text", "provenance")}
    if kind == "d20":
        if params.get("timing") not in D20_TIMINGS or params.get("target") not in D20_TARGETS:
            raise CatalogError(
                f"{where}: a d20 power needs a timing ({D20_TIMINGS}) and a target ({D20_TARGETS})"
            )
        if params.get("effect") not in D20_EFFECTS:
            raise CatalogError(f"{where}: effect must be one of {', '.join(D20_EFFECTS)}")
        _int(params, "threshold", where, 1)
    if kind == "d20" and params["effect"] == "drain":
        _int(params, "fails_to", where, 1)
        _int(params, "bonus", where)
    if kind == "special-attack":
        _int(params, "range", where, 1)
        _int(params, "attack", where)
        _int(params, "uses", where)
    if kind == "life-bonding":
        _text(params, "class", where)
        _int(params, "heals", where)
    if kind == "climb":
        _int(params, "factor", where, 1)
    return Power(
        id=_text(entry, "id", where),
        name=_text(entry, "name", where),
        kind=kind,
        text=_text(entry, "text", where),
        params=params,
        provenance=_text(entry, "provenance", where),
    )


def _scenario(entry: Mapping[str, Any], cards: set[str]) -> Scenario:
    where = f"scenario {entry.get('id')!r}"
    players = tuple(int(n) for n in entry.get("players", ()))
    if not players or any(not 2 <= n <= 4 for n in players):
        raise CatalogError(f"{where}: players must list counts from 2 to 4")
    army = entry.get("army")
    if army not in ("preset", "choose"):
        raise CatalogError(f"{where}: army must be preset or choose")
    preset = tuple(tuple(str(c) for c in seat) for seat in entry.get("preset", ()))
    gifts = tuple(tuple(str(c) for c in seat) for seat in entry.get("gifts", ()))
    for card in [c for seat in (*preset, *gifts) for c in seat] + list(entry.get("forbidden", ())):
        if card not in cards:
            raise CatalogError(f"{where}: unknown army card {card!r}")
    if army == "preset" and len(preset) != max(players):
        raise CatalogError(f"{where}: a preset army for each seat")
    points = {int(k): tuple(int(p) for p in v) for k, v in entry.get("points", {}).items()}
    if army == "choose" and any(len(points.get(n, ())) != n for n in players):
        raise CatalogError(f"{where}: a point limit for each seat at each player count")
    if entry.get("mode") not in ("basic", "master"):
        raise CatalogError(f"{where}: mode must be basic or master")
    return Scenario(
        id=_text(entry, "id", where),
        title=_text(entry, "title", where),
        battlefield=_text(entry, "battlefield", where),
        mode=entry["mode"],
        players=players,
        army=army,
        preset=preset,
        points=points,
        round_limit=_int(entry, "round_limit", where),
        victory=_text(entry, "victory", where),
        goal=_text(entry, "goal", where),
        rules=tuple(entry.get("rules", ())),
        at_limit=str(entry.get("at_limit", "")),
        heroes_only=tuple(entry.get("heroes_only", ())),
        squads_only=tuple(entry.get("squads_only", ())),
        forbidden=tuple(entry.get("forbidden", ())),
        gifts=gifts,
        teams={int(k): tuple(int(t) for t in v) for k, v in entry.get("teams", {}).items()},
        glyphs=str(entry.get("glyphs", "")),
        glyph_count=int(entry.get("glyph_count", 0)),
        provenance=_text(entry, "provenance", where),
    )


def _glyph(entry: Mapping[str, Any]) -> Glyph:
    where = f"glyph {entry.get('id')!r}"
    lasts = entry.get("lasts")
    if lasts not in ("permanent", "temporary"):
        raise CatalogError(f"{where}: lasts must be permanent or temporary")
    return Glyph(
        id=_text(entry, "id", where),
        title=_text(entry, "title", where),
        power=_text(entry, "power", where),
        lasts=lasts,
        text=_text(entry, "text", where),
        fails_below=int(entry.get("fails_below", 0)),
        provenance=_text(entry, "provenance", where),
    )
