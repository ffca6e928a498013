"""Loads and checks ORCWARS TOO!'s data (``data/counters.toml``, ``data/map.toml``, ``data/rules.toml``), with
the owner's overrides applied.

The owner's file uses the packaged files' sections. In a list section (``leaders``, ``troops``,
``war_machines``, ``shamans``, ``spies``, ``caravans``, ``territories``) an entry with a known ``id``
changes that entry's fields and a new ``id`` adds one; ``replace = ["troops", ...]`` drops the packaged
list of those sections first (the owner's counter mix instead of the starter one) and ``remove =
{troops = ["id"]}`` drops single entries. In a table section (``gold``, ``underground``, the rules'
sections) each key changes that value. Every value the owner gives says where it comes from
(``provenance.<key>``, or ``provenance.all`` for a whole entry). A problem is a :class:`CatalogError`
naming the entry and the field.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from companion.games.orcwars_too.counters import (
    ORCLAND,
    OUTLAND,
    STRATEGIES,
    Board,
    CaravanChip,
    Counter,
    GameData,
    Kind,
    Rules,
    SpyUse,
    Territory,
)

PACKAGE = "companion.games.orcwars_too"
FILES = ("counters.toml", "map.toml", "rules.toml")
LISTS = ("leaders", "troops", "war_machines", "shamans", "spies", "caravans", "territories")
KINDS = {
    "leaders": Kind.LEADER,
    "troops": Kind.TROOP,
    "war_machines": Kind.WAR_MACHINE,
    "shamans": Kind.SHAMAN,
    "spies": Kind.SPY,
}
FIELDS = {
    "leaders": ("name", "race", "authority", "survivability", "home"),
    "troops": ("name", "race", "power", "native", "copies"),
    "war_machines": ("name", "power", "copies"),
    "shamans": ("name", "copies"),
    "spies": ("name", "copies"),
    "caravans": ("name", "route"),
    "territories": ("name", "kind"),
}
"""The fields of each list's entries (``adjacent`` is an optional field of territories)."""
RETREAT_RULES = ("losses", "attacker", "table")
END_CONDITIONS = ("either", "same")
RUMOURS = ("attacker", "pile")
SPY_EFFECTS = ("steal-gold", "table")


class CatalogError(ValueError):
    """The game data is malformed or inconsistent (the message names the entry and the field)."""


# ----------------------------------------------------------------------------------------- loading


def _packaged() -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for name in FILES:
        text = resources.files(PACKAGE).joinpath("data", name).read_text(encoding="utf-8")
        for section, value in tomllib.loads(text).items():
            if section in merged:
                raise CatalogError(f"data/{name}: the section {section!r} is in another data file too")
            merged[section] = value
    return merged


@functools.cache
def default_data() -> GameData:
    return load_data()


def load_data(overrides: Path | None = None) -> GameData:
    """The packaged data with the owner's ``overrides`` file applied; raises CatalogError."""
    raw = _packaged()
    if overrides is not None:
        try:
            with overrides.open("rb") as fh:
                owner = tomllib.load(fh)
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise CatalogError(f"cannot read the overrides file {overrides}: {exc}") from exc
        raw = apply_overrides(raw, owner, str(overrides))
    return build(raw)


def apply_overrides(raw: Mapping[str, Any], owner: Mapping[str, Any], where: str) -> dict[str, Any]:
    """``raw`` with the owner's changes (the module's docstring says how); checks each has a provenance."""
    out = {key: value for key, value in raw.items()}
    replaced = owner.get("replace", [])
    if not isinstance(replaced, list) or any(r not in LISTS for r in replaced):
        raise CatalogError(f"{where}: replace lists sections among {', '.join(LISTS)}")
    removed = owner.get("remove", {})
    if not isinstance(removed, Mapping) or any(r not in LISTS for r in removed):
        raise CatalogError(f"{where}: remove names sections among {', '.join(LISTS)}")
    for section, value in owner.items():
        if section in ("replace", "remove"):
            continue
        if section not in raw:
            raise CatalogError(f"{where}: there is no section {section!r} to change")
        if section in LISTS:
            out[section] = _merge_list(section, [] if section in replaced else raw[section], value, where)
        else:
            out[section] = _merge_table(section, raw[section], value, where)
    for section in replaced:
        if section not in owner:
            out[section] = []
    for section, ids in removed.items():
        known = {e.get("id") for e in out[section]}
        missing = [i for i in ids if i not in known]
        if missing:
            raise CatalogError(f"{where}: remove.{section} names unknown ids {', '.join(map(str, missing))}")
        out[section] = [e for e in out[section] if e.get("id") not in ids]
    return out


def _merge_list(section: str, packaged: list[Any], changes: Any, where: str) -> list[dict[str, Any]]:
    if not isinstance(changes, list):
        raise CatalogError(f"{where}: [[{section}]] entries, each with an id")
    entries = {e["id"]: dict(e) for e in packaged}
    for index, change in enumerate(changes):
        here = f"{where}: {section}[{index}]"
        if not isinstance(change, Mapping) or not isinstance(change.get("id"), str):
            raise CatalogError(f"{here}: names no entry (id = ...)")
        provenance = dict(change.get("provenance", {}))
        values = {k: v for k, v in change.items() if k not in ("id", "provenance")}
        entry = entries.get(change["id"])
        if entry is None:
            entry = {"id": change["id"], "provenance": {}}
            entries[change["id"]] = entry
        for key in values:
            if key not in FIELDS[section] and not (section == "territories" and key == "adjacent"):
                raise CatalogError(f"{here}: {section} have no field {key!r}")
            if key not in provenance and "all" not in provenance:
                raise CatalogError(f"{here}: say where {key} = {values[key]!r} comes from (provenance.{key})")
        entry.update(values)
        kept = {k: v for k, v in entry.get("provenance", {}).items() if k not in values or k == "all"}
        entry["provenance"] = {**kept, **provenance}
    return list(entries.values())


def _merge_table(section: str, packaged: Mapping[str, Any], changes: Any, where: str) -> dict[str, Any]:
    if not isinstance(changes, Mapping):
        raise CatalogError(f"{where}: [{section}] is a table of values")
    out = dict(packaged)
    provenance = dict(changes.get("provenance", {}))
    for key, value in changes.items():
        if key == "provenance":
            continue
        if key not in packaged:
            raise CatalogError(f"{where}: [{section}] has no value {key!r}")
        if key not in provenance:
            raise CatalogError(
                f"{where}: say where {section}.{key} = {value!r} comes from (provenance.{key})"
            )
        out[key] = value
    out["provenance"] = {**packaged.get("provenance", {}), **provenance}
    return out


# ---------------------------------------------------------------------------------------- checking


def _int(entry: Mapping[str, Any], key: str, where: str, low: int = 0, high: int = 10_000) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CatalogError(f"{where}: {key} must be a whole number from {low} to {high}, got {value!r}")
    return value


def _text(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where}: {key} must be text")
    return value


def _provenance(entry: Mapping[str, Any], keys: tuple[str, ...], where: str) -> dict[str, str]:
    given = entry.get("provenance", {})
    if not isinstance(given, Mapping):
        raise CatalogError(f"{where}: provenance is a table of texts")
    out = {str(k): str(v) for k, v in given.items()}
    for key in keys:
        if not out.get(key, out.get("all", "")).strip():
            raise CatalogError(
                f"{where}: say where its {key} comes from (provenance.{key} or provenance.all)"
            )
    return out


def build(raw: Mapping[str, Any]) -> GameData:
    """Checks the merged data and builds its values."""
    territories = tuple(_territory(e) for e in raw.get("territories", ()))
    ids = [t.id for t in territories]
    if len(set(ids)) != len(ids):
        raise CatalogError("two territories share an id")
    if not any(t.orcland for t in territories):
        raise CatalogError("the board needs orclands: only they are ever controlled")
    known = set(ids)
    adjacency = [t for t in territories if t.adjacent is not None]
    if adjacency and len(adjacency) != len(territories):
        raise CatalogError("give adjacent for every territory or for none")
    for t in adjacency:
        for other in t.adjacent or ():
            if other not in known:
                raise CatalogError(f"territory {t.id!r}: adjacent names unknown territory {other!r}")
            if t.id not in (next(x for x in territories if x.id == other).adjacent or ()):
                raise CatalogError(f"territory {t.id!r} borders {other!r}, but not the other way round")
    counters: list[Counter] = []
    for section, kind in KINDS.items():
        for entry in raw.get(section, ()):
            counters.extend(_counters(section, kind, entry, known))
    chips = [c.id for c in counters]
    if len(set(chips)) != len(chips):
        raise CatalogError("two counters share an id (ids and their #copies must differ)")
    if not any(c.kind is Kind.LEADER for c in counters):
        raise CatalogError("the tribe cup needs leaders")
    caravans = tuple(_caravan(e, known) for e in raw.get("caravans", ()))
    if len({c.id for c in caravans} | set(chips)) != len(caravans) + len(chips):
        raise CatalogError("a caravan shares its id with another chip")
    if "gold" in {c.id for c in caravans} | set(chips):
        raise CatalogError('"gold" names the plain gold chips: no counter or caravan may take that id')
    gold = raw.get("gold", {})
    origin = _provenance(gold, ("chips",), "gold")
    board = _board(raw.get("underground", {}), territories, known)
    rules = _rules(raw)
    where = {"gold": origin.get("chips") or origin.get("all", "")}
    return GameData(tuple(counters), caravans, _int(gold, "chips", "gold", 1), board, rules, where)


def _territory(entry: Mapping[str, Any]) -> Territory:
    where = f"territory {entry.get('id')!r}"
    kind = entry.get("kind")
    if kind not in (ORCLAND, OUTLAND):
        raise CatalogError(f"{where}: kind must be {ORCLAND} or {OUTLAND}, got {kind!r}")
    adjacent = entry.get("adjacent")
    if adjacent is not None and (
        not isinstance(adjacent, list) or not all(isinstance(a, str) for a in adjacent)
    ):
        raise CatalogError(f"{where}: adjacent lists territory ids")
    keys = ("name", "kind") + (("adjacent",) if adjacent is not None else ())
    return Territory(
        id=_text(entry, "id", where),
        name=_text(entry, "name", where),
        kind=kind,
        adjacent=None if adjacent is None else tuple(adjacent),
        provenance=_provenance(entry, keys, where),
    )


def _counters(section: str, kind: Kind, entry: Mapping[str, Any], territories: set[str]) -> list[Counter]:
    where = f"{section[:-1].replace('_', ' ')} {entry.get('id')!r}"
    type_id = _text(entry, "id", where)
    if "#" in type_id:
        raise CatalogError(f"{where}: an id may not contain '#' (it numbers the copies)")
    provenance = _provenance(entry, FIELDS[section], where)
    name = _text(entry, "name", where)
    race, power, survivability, native = "", 0, 0, ""
    if kind is Kind.LEADER:
        race = _text(entry, "race", where)
        power = _int(entry, "authority", where, 1, 8)
        survivability = _int(entry, "survivability", where, 1, 20)
        native = _text(entry, "home", where)
    elif kind is Kind.TROOP:
        race = _text(entry, "race", where)
        power = _int(entry, "power", where, 1, 99)
        native = _text(entry, "native", where)
    elif kind is Kind.WAR_MACHINE:
        power = _int(entry, "power", where, 1, 99)
    if native and native not in territories:
        raise CatalogError(
            f"{where}: its {'home' if kind is Kind.LEADER else 'native'} {native!r} is no territory"
        )
    copies = 1 if kind is Kind.LEADER else _int(entry, "copies", where, 1, 99)
    ids = [type_id] if copies == 1 else [f"{type_id}#{n}" for n in range(1, copies + 1)]
    return [
        Counter(chip, type_id, kind, name, race.lower(), power, survivability, native, provenance)
        for chip in ids
    ]


def _caravan(entry: Mapping[str, Any], territories: set[str]) -> CaravanChip:
    where = f"caravan {entry.get('id')!r}"
    route = entry.get("route")
    if not isinstance(route, list) or len(route) < 2 or not all(r in territories for r in route):
        raise CatalogError(f"{where}: route lists at least two territories of the board, start first")
    return CaravanChip(
        id=_text(entry, "id", where),
        name=_text(entry, "name", where),
        route=tuple(route),
        provenance=_provenance(entry, FIELDS["caravans"], where),
    )


def _board(entry: Mapping[str, Any], territories: tuple[Territory, ...], known: set[str]) -> Board:
    where = "underground"
    _provenance(entry, ("table", "lost_in_the_dark", "destroyed"), where)
    lost = _int(entry, "lost_in_the_dark", where, 2, 100)
    destroyed = _int(entry, "destroyed", where, 2, 100)
    table = entry.get("table")
    if not isinstance(table, list) or any(t not in known for t in table):
        raise CatalogError(f"{where}: table lists territories of the board")
    if len(table) != min(lost, destroyed) - 1:
        raise CatalogError(
            f"{where}: table names a territory for each face from 1 to {min(lost, destroyed) - 1}"
        )
    return Board(territories, tuple(table), lost, destroyed)


def _section(raw: Mapping[str, Any], name: str, keys: tuple[str, ...]) -> Mapping[str, Any]:
    section = raw.get(name)
    if not isinstance(section, Mapping):
        raise CatalogError(f"[{name}] is missing")
    _provenance(section, keys, f"[{name}]")
    return section


def _choice(section: Mapping[str, Any], key: str, choices: tuple[str, ...], where: str) -> str:
    value = section.get(key)
    if value not in choices:
        raise CatalogError(f"[{where}] {key} must be one of {', '.join(choices)}, got {value!r}")
    return str(value)


def _rules(raw: Mapping[str, Any]) -> Rules:
    players = _section(raw, "players", ("minimum", "maximum"))
    setup = _section(raw, "setup", ("units", "bosses"))
    draws = _section(
        raw, "reinforcements", ("free", "extra", "extra_cost", "redraws", "redraw_size", "hand_limit")
    )
    movement = _section(raw, "movement", ("lonely_leader", "army"))
    authority = _section(raw, "authority", ("die", "always_fails"))
    survive = _section(raw, "survivability", ("die", "shaman_bonus"))
    carrying = _section(raw, "carrying", ("leader_carries",))
    fortress = _section(raw, "fortress", ("ratings",))
    caravan = _section(raw, "caravan", ("power", "strategy", "rumours_go_to"))
    leadership = _section(
        raw, "leadership", ("charge_at_most", "careful_at_most", "big_races", "small_races", "fortress_bonus")
    )
    stupidity = _section(raw, "stupidity", STRATEGIES)
    after = _section(raw, "aftermath", ("surrender_at_most", "regenerates_at_least", "retreat"))
    victory = _section(raw, "victory", ("lands", "leaders", "end_condition"))
    spying = _section(raw, "spying", ("uses",))
    bosses = setup.get("bosses")
    if not (isinstance(bosses, list) and len(bosses) == 2 and 1 <= bosses[0] <= bosses[1] <= 6):
        raise CatalogError("[setup] bosses = [fewest, most] leaders a player starts with")
    ratings = fortress.get("ratings")
    if not isinstance(ratings, list) or not ratings or any(not isinstance(r, int) or r < 1 for r in ratings):
        raise CatalogError("[fortress] ratings lists the fortress ratings (whole numbers from 1)")
    power = caravan.get("power")
    if not isinstance(power, list) or len(power) != 6 or any(not isinstance(p, int) or p < -1 for p in power):
        raise CatalogError("[caravan] power gives the power for each face of the d6 (-1: d6 - 1)")
    strategy = caravan.get("strategy")
    if not isinstance(strategy, list) or len(strategy) != 3 or any(s not in STRATEGIES for s in strategy):
        raise CatalogError(
            f"[caravan] strategy gives a strategy ({', '.join(STRATEGIES)}) per face of the d3"
        )
    for die_key, section in (("die", authority), ("die", survive)):
        if section.get(die_key) not in ("d6", "d8", "d10", "d12", "d20"):
            raise CatalogError(f"a check's die must be d6, d8, d10, d12 or d20, got {section.get(die_key)!r}")
    return Rules(
        min_players=_int(players, "minimum", "[players]", 2, 8),
        max_players=_int(players, "maximum", "[players]", 2, 8),
        setup_units=_int(setup, "units", "[setup]", 1, 20),
        bosses=(int(bosses[0]), int(bosses[1])),
        free_draws=_int(draws, "free", "[reinforcements]", 0, 20),
        extra_draws=_int(draws, "extra", "[reinforcements]", 0, 20),
        extra_cost=_int(draws, "extra_cost", "[reinforcements]", 0, 20),
        redraws=_int(draws, "redraws", "[reinforcements]", 0, 10),
        redraw_size=_int(draws, "redraw_size", "[reinforcements]", 1, 20),
        hand_limit=_int(draws, "hand_limit", "[reinforcements]", 1, 99),
        lonely_leader_moves=_int(movement, "lonely_leader", "[movement]", 1, 2),
        army_moves=_int(movement, "army", "[movement]", 1, 1),
        authority_die=str(authority["die"]),
        always_fails=_int(authority, "always_fails", "[authority]", 1, 20),
        survivability_die=str(survive["die"]),
        shaman_bonus=_int(survive, "shaman_bonus", "[survivability]", 0, 10),
        leader_carries=_int(carrying, "leader_carries", "[carrying]", 0, 10),
        fortress_ratings=tuple(sorted(set(ratings))),
        caravan_power=tuple(int(p) for p in power),
        caravan_strategy=tuple(str(s) for s in strategy),
        rumours_go_to=_choice(caravan, "rumours_go_to", RUMOURS, "caravan"),
        charge_at_most=_int(leadership, "charge_at_most", "[leadership]", 0, 10),
        careful_at_most=_int(leadership, "careful_at_most", "[leadership]", 0, 10),
        big_races=tuple(str(r).lower() for r in leadership.get("big_races", ())),
        small_races=tuple(str(r).lower() for r in leadership.get("small_races", ())),
        fortress_bonus=_int(leadership, "fortress_bonus", "[leadership]", 0, 5),
        stupidity={s: _int(stupidity, s, "[stupidity]", 0, 6) for s in STRATEGIES},
        surrender_at_most=_int(after, "surrender_at_most", "[aftermath]", 0, 6),
        regenerates_at_least=_int(after, "regenerates_at_least", "[aftermath]", 1, 7),
        retreat=_choice(after, "retreat", RETREAT_RULES, "aftermath"),
        victory_lands=_int(victory, "lands", "[victory]", 1, 99),
        victory_leaders=_int(victory, "leaders", "[victory]", 1, 99),
        end_condition=_choice(victory, "end_condition", END_CONDITIONS, "victory"),
        spy_uses=tuple(_spy_use(u) for u in spying.get("uses", ())),
        provenance={f"{name}.{k}": str(v) for name in raw for k, v in _rule_provenance(raw, name).items()},
    )


def _rule_provenance(raw: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    section = raw.get(name)
    if name in LISTS or not isinstance(section, Mapping):
        return {}
    provenance = section.get("provenance", {})
    return provenance if isinstance(provenance, Mapping) else {}


def _spy_use(entry: Any) -> SpyUse:
    if not isinstance(entry, Mapping):
        raise CatalogError("[spying] uses lists tables with id, label, effect and amount")
    where = f"spy use {entry.get('id')!r}"
    effect = entry.get("effect")
    if effect not in SPY_EFFECTS:
        raise CatalogError(f"{where}: effect must be one of {', '.join(SPY_EFFECTS)}")
    return SpyUse(
        id=_text(entry, "id", where),
        label=_text(entry, "label", where),
        effect=str(effect),
        amount=_int(entry, "amount", where, 0, 99),
    )
