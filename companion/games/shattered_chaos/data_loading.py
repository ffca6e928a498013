"""Reads Shattered Chaos's data files and the owner's overrides into a checked :class:`Catalog`.

The overrides file (named in the table's settings, ``[data] shattered-chaos = "..."``) uses the packaged
files' own sections. An entry names what it corrects by its key (``id``, ``number``, ``section``,
``adventurers``, a die's colour) and must say where each new value comes from: ``provenance`` as one
sentence for the whole entry, or a table with one sentence per field. An entry with a new key adds to the
data (a talent the campaign revealed, a silver card, a later adventure's enemy). The result is checked as
strictly as the packaged data; a problem is a :class:`CatalogError` naming the file, entry and field.
"""

from __future__ import annotations

import copy
import functools
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from companion.games.shattered_chaos.catalog import (
    BONUSES,
    COLOURS,
    ENEMY_ACTIONS,
    SIZES,
    SKILLS,
    TARGETS,
    VALUES,
    Adventure,
    AdventurerCard,
    Catalog,
    CatalogError,
    ChaosCard,
    DamageRow,
    DamageTable,
    Die,
    EnemyAction,
    EnemyCard,
    EnemySkill,
    Face,
    Ledger,
    Rules,
    Section,
    Talent,
)

PACKAGE = "companion.games.shattered_chaos"
FILES = ("rules", "adventurers", "enemies", "chaos_cards", "evaluation", "adventures", "dice")
KEYED = {
    "ledgers": "id",
    "talents": "id",
    "adventurers": "id",
    "enemies": "id",
    "cards": "id",
    "sections": "section",
    "damage_tables": "adventurers",
    "adventures": "number",
}
"""The overridable lists of entries and the field that names an entry."""


def _packaged(name: str) -> dict[str, Any]:
    text = resources.files(PACKAGE).joinpath("data", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def raw_data() -> dict[str, Any]:
    """The packaged data as one mapping of sections (bronze runs expanded into cards, dice by colour)."""
    raw: dict[str, Any] = {}
    for name in FILES:
        raw.update(copy.deepcopy(_packaged(name)))
    raw["cards"] = _expand_bronze(raw.pop("bronze", [])) + list(raw.get("cards", []))
    raw["dice"] = {key.removeprefix("sc-"): entry for key, entry in raw.get("dice", {}).items()}
    return raw


@functools.cache
def default_catalog() -> Catalog:
    return load_catalog()


def load_catalog(overrides: Path | None = None) -> Catalog:
    """The packaged data with the owner's ``overrides`` file applied; raises CatalogError."""
    raw = raw_data()
    if overrides is not None:
        apply_overrides(raw, read_overrides(overrides), str(overrides))
    return build(raw)


def read_overrides(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise CatalogError(f"cannot read the overrides file {path}: {exc}") from exc


# ------------------------------------------------------------------------------------ overrides


def apply_overrides(raw: dict[str, Any], changes: Mapping[str, Any], where: str) -> None:
    """Applies an owner's corrections to ``raw`` in place (see the module docstring)."""
    known = set(KEYED) | {"rules", "dice", "stacks", "upgrades"}
    unknown = set(changes) - known
    if unknown:
        raise CatalogError(
            f"{where}: unknown sections {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
        )
    for section, key in KEYED.items():
        for index, change in enumerate(changes.get(section, ())):
            _merge_entry(raw.setdefault(section, []), change, key, f"{where}: {section}[{index}]")
    if "rules" in changes:
        _merge_fields(raw["rules"], changes["rules"], f"{where}: rules")
    for die, change in dict(changes.get("dice", {})).items():
        # The table's die ids (sc-blue): the table reads its dice from the same entries (companion.dice).
        colour = die.removeprefix("sc-")
        if colour not in COLOURS or die == colour:
            ids = ", ".join(f"sc-{c}" for c in COLOURS)
            raise CatalogError(f"{where}: dice.{die}: the dice are named as the table names them: {ids}")
        _merge_fields(raw["dice"][colour], change, f"{where}: dice.{die}")
    for section in ("stacks", "upgrades"):
        if section in changes:
            _merge_fields(raw[section], changes[section], f"{where}: {section}")


def _merge_entry(entries: list[dict[str, Any]], change: Any, key: str, where: str) -> None:
    if not isinstance(change, Mapping) or key not in change:
        raise CatalogError(f"{where}: names no entry ({key} = ...)")
    existing = next((e for e in entries if e.get(key) == change[key]), None)
    if existing is None:
        if "provenance" not in change:
            raise CatalogError(f"{where}: a new entry says where it comes from (provenance = ...)")
        entries.append(dict(change))
        return
    _merge_fields(existing, {k: v for k, v in change.items() if k != key}, where)


def _merge_fields(entry: dict[str, Any], change: Mapping[str, Any], where: str) -> None:
    provenance = change.get("provenance")
    fields = {k: v for k, v in change.items() if k != "provenance"}
    if not fields:
        return
    if isinstance(provenance, str):
        said = dict.fromkeys(fields, provenance)
    elif isinstance(provenance, Mapping):
        said = {k: str(v) for k, v in provenance.items()}
    else:
        raise CatalogError(f"{where}: say where the new values come from (provenance = ...)")
    for name, value in fields.items():
        if name not in said:
            raise CatalogError(f"{where}: say where {name} = {value!r} comes from (provenance.{name})")
        entry[name] = value
    old = entry.get("provenance")
    if isinstance(old, Mapping):
        entry["provenance"] = {**old, **{k: said[k] for k in fields}}
    else:
        entry["provenance"] = "; ".join(dict.fromkeys(said[k] for k in fields))


def _expand_bronze(runs: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    cards = []
    for run in runs:
        first, last = _int(run, "first", "bronze run", 1), _int(run, "last", "bronze run", 1)
        for number in range(first, last + 1):
            cards.append(
                {
                    "id": f"b{number}",
                    "number": number,
                    "value": "bronze",
                    "stack": run.get("stack"),
                    "bonus": run.get("bonus"),
                    "amount": run.get("amount"),
                    "provenance": run.get("provenance", ""),
                }
            )
    return cards


# ---------------------------------------------------------------------------------------- build


def build(raw: Mapping[str, Any]) -> Catalog:
    """Checks every entry and builds the catalog."""
    rules = _rules(raw["rules"])
    stacks = tuple(k for k in raw["stacks"] if k != "provenance")
    ledgers = tuple(_ledger(e) for e in raw["ledgers"])
    talents = tuple(_talent(e) for e in raw["talents"])
    ledger_ids = {x.id for x in ledgers}
    talent_ids = {x.id for x in talents}
    adventurers = tuple(_adventurer(e, ledger_ids, talent_ids) for e in raw["adventurers"])
    dice = {colour: _die(colour, raw["dice"].get(colour)) for colour in COLOURS}
    enemies = tuple(_enemy(e, rules) for e in raw["enemies"])
    cards = tuple(_card(e, stacks) for e in raw["cards"])
    sections = tuple(sorted((_section(e) for e in raw["sections"]), key=lambda s: s.number))
    tables = {t.adventurers: t for t in (_table(e) for e in raw["damage_tables"])}
    adventures = tuple(
        sorted((_adventure(e, {x.id for x in enemies}) for e in raw["adventures"]), key=lambda a: a.number)
    )
    upgrades = raw["upgrades"]
    for value in ("silver", "gold"):
        _int(upgrades, value, "upgrades")
    _unique("ledger", [x.id for x in ledgers])
    _unique("talent", [x.id for x in talents])
    _unique("adventurer", [x.id for x in adventurers])
    _unique("adventurer name", [x.name.casefold() for x in adventurers])
    _unique("enemy", [x.id for x in enemies])
    _unique("enemy model number", [n for e in enemies for n in (*e.models, *e.elite_models)])
    _unique("chaos card", [x.id for x in cards])
    _unique("adventure", [x.number for x in adventures])
    if [s.number for s in sections] != list(range(1, len(sections) + 1)) or not sections:
        raise CatalogError("sections: the round counter's sections are numbered 1, 2, 3...")
    rounds = [r for s in sections for r in s.rounds]
    if rounds != list(range(1, len(rounds) + 1)):
        raise CatalogError("sections: the sections' rounds run 1, 2, 3... without a gap")
    for count in rules.adventurers:
        if count not in tables:
            raise CatalogError(f"damage_tables: no table for {count} adventurers")
    if len(adventurers) < max(rules.adventurers):
        raise CatalogError(f"adventurers: {max(rules.adventurers)} adventurers are needed")
    return Catalog(
        rules=rules,
        dice=dice,
        ledgers=ledgers,
        talents=talents,
        adventurers=adventurers,
        enemies=enemies,
        cards=cards,
        upgrades={"silver": upgrades["silver"], "gold": upgrades["gold"]},
        stacks=stacks,
        sections=sections,
        damage_tables=tables,
        adventures=adventures,
        upgrades_provenance=_text(upgrades, "provenance", "upgrades"),
    )


def _unique(what: str, keys: list[Any]) -> None:
    doubles = sorted({str(k) for k in keys if keys.count(k) > 1})
    if doubles:
        raise CatalogError(f"two entries share the {what} {', '.join(doubles)}")


def _int(entry: Mapping[str, Any], key: str, where: str, low: int = 0, high: int = 999) -> int:
    value = entry.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise CatalogError(f"{where}: {key} must be a whole number from {low} to {high}, got {value!r}")
    return value


def _text(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where}: {key} must be text")
    return value


def _provenance(entry: Mapping[str, Any], where: str, needed: tuple[str, ...] = ()) -> dict[str, str]:
    said = entry.get("provenance")
    if isinstance(said, str) and said.strip():
        return dict.fromkeys(needed or ("all",), said)
    if not isinstance(said, Mapping):
        raise CatalogError(f"{where}: say where its values come from (provenance)")
    missing = [k for k in needed if not str(said.get(k, "")).strip()]
    if missing:
        raise CatalogError(f"{where}: say where its {', '.join(missing)} come from (provenance.{missing[0]})")
    return {str(k): str(v) for k, v in said.items()}


def _rules(entry: Mapping[str, Any]) -> Rules:
    names = [n for n in Rules.__dataclass_fields__ if n not in ("provenance", "adventurers")]
    provenance = _provenance(entry, "rules", (*names, "adventurers"))
    counts = entry.get("adventurers")
    if (
        not isinstance(counts, list)
        or not counts
        or any(not isinstance(c, int) or not 1 <= c <= 6 for c in counts)
    ):
        raise CatalogError("rules: adventurers lists the party sizes (4, 5)")
    values = {n: _int(entry, n, "rules", 0 if n in ("start_chaos_tokens",) else 1, 99) for n in names}
    if values["start_chaos_tokens"] > values["ledger_tokens"]:
        raise CatalogError("rules: start_chaos_tokens is more than a ledger holds")
    return Rules(adventurers=tuple(sorted(set(counts))), provenance=provenance, **values)


def _ledger(entry: Mapping[str, Any]) -> Ledger:
    where = f"ledger {entry.get('id')!r}"
    values = entry.get("values")
    if (
        not isinstance(values, list)
        or not values
        or any(not isinstance(v, int) or isinstance(v, bool) for v in values)
    ):
        raise CatalogError(f"{where}: values lists the number beside each chaos token")
    return Ledger(
        id=_text(entry, "id", where),
        title=_text(entry, "title", where),
        empty=_int(entry, "empty", where),
        values=tuple(values),
        provenance=_provenance(entry, where, ("empty", "values")),
    )


def _bonus(entry: Mapping[str, Any], where: str) -> tuple[str, int]:
    bonus = entry.get("bonus")
    if bonus not in BONUSES:
        raise CatalogError(f"{where}: bonus must be one of {', '.join(BONUSES)}, got {bonus!r}")
    return str(bonus), _int(entry, "amount", where, 1, 20)


def _talent(entry: Mapping[str, Any]) -> Talent:
    where = f"talent {entry.get('id')!r}"
    bonus, amount = _bonus(entry, where)
    return Talent(
        id=_text(entry, "id", where),
        title=_text(entry, "title", where),
        bonus=bonus,
        amount=amount,
        provenance=_text(entry, "provenance", where),
    )


def _adventurer(entry: Mapping[str, Any], ledgers: set[str], talents: set[str]) -> AdventurerCard:
    where = f"adventurer {entry.get('id')!r}"
    if entry.get("ledger") not in ledgers:
        raise CatalogError(f"{where}: unknown ledger {entry.get('ledger')!r}")
    if entry.get("talent") not in talents:
        raise CatalogError(f"{where}: unknown talent {entry.get('talent')!r}")
    start, most = _int(entry, "start_life", where, 1), _int(entry, "max_life", where, 1)
    if most < start:
        raise CatalogError(f"{where}: max_life {most} is below start_life {start}")
    return AdventurerCard(
        id=_text(entry, "id", where),
        name=_text(entry, "name", where),
        motto=_text(entry, "motto", where),
        talent=entry["talent"],
        ledger=entry["ledger"],
        start_life=start,
        max_life=most,
        armour=_int(entry, "armour", where),
        provenance=_provenance(entry, where, ("talent", "ledger", "life", "armour")),
    )


def _die(colour: str, entry: Mapping[str, Any] | None) -> Die:
    where = f"dice.{colour}"
    if not isinstance(entry, Mapping) or not isinstance(entry.get("faces"), list) or not entry["faces"]:
        raise CatalogError(f"{where}: needs a list of faces")
    faces = tuple(Face.parse(str(s)) for s in entry["faces"])
    if any(f.colour != colour for f in faces):
        raise CatalogError(f"{where}: every face names the {colour} die ({colour}:eyes)")
    provenance = entry.get("provenance")
    said = provenance.get("faces") if isinstance(provenance, Mapping) else provenance
    if not isinstance(said, str) or not said.strip():
        raise CatalogError(f"{where}: say where the faces come from (provenance.faces)")
    return Die(colour, faces, said)


def _action(entry: Any, where: str, rules: Rules) -> EnemyAction:
    if not isinstance(entry, Mapping) or entry.get("kind") not in ENEMY_ACTIONS:
        raise CatalogError(f"{where}: kind must be one of {', '.join(ENEMY_ACTIONS)}")
    kind = entry["kind"]
    attacks = kind in ("attack", "special")
    dice = entry.get("dice", [])
    if not isinstance(dice, list) or any(d not in COLOURS for d in dice):
        raise CatalogError(f"{where}: dice lists colours ({', '.join(COLOURS)})")
    if any(dice.count(c) > rules.dice_of_each_colour for c in COLOURS):
        raise CatalogError(f"{where}: more dice of one colour than the box holds")
    if kind == "attack" and not dice:
        raise CatalogError(f"{where}: an attack throws dice")
    target = entry.get("target", "closest" if kind in ("move", "retreat") else "highest-chaos")
    if target not in TARGETS:
        raise CatalogError(f"{where}: target must be one of {', '.join(TARGETS)}")
    sight = entry.get("sight", kind not in ("move", "retreat"))
    if not isinstance(sight, bool):
        raise CatalogError(f"{where}: sight is true or false")
    return EnemyAction(
        kind=kind,
        range=_int(entry, "range", where, 1, 30) if attacks else 0,
        steps=0 if attacks else _int(entry, "steps", where, 1, 30),
        dice=tuple(dice),
        sight=sight,
        target=str(target),
        text=str(entry.get("text", "")),
    )


def _rows(
    entry: Mapping[str, Any], key: str, where: str, rules: Rules
) -> tuple[tuple[EnemyAction, ...], ...]:
    rows = entry.get(key)
    if not isinstance(rows, list) or not rows:
        raise CatalogError(f"{where}: {key} needs at least one row")
    out = []
    for r, row in enumerate(rows):
        actions = row.get("actions") if isinstance(row, Mapping) else None
        if not isinstance(actions, list) or not actions:
            raise CatalogError(f"{where}: {key}[{r}] lists its actions")
        out.append(tuple(_action(a, f"{where}: {key}[{r}][{c}]", rules) for c, a in enumerate(actions)))
    if not out[-1][0].always_possible:
        raise CatalogError(
            f"{where}: the last row of {key} begins with a move or a retreat "
            "(VI.C: it can always be performed)"
        )
    return tuple(out)


def _enemy(entry: Mapping[str, Any], rules: Rules) -> EnemyCard:
    where = f"enemy {entry.get('id')!r}"
    lives = entry.get("lives")
    if not isinstance(lives, Mapping):
        raise CatalogError(f"{where}: lives gives the lives for 4 and for 5 adventurers")
    parsed = {int(k): _int(lives, k, f"{where}: lives", 1) for k in lives}
    missing = [n for n in rules.adventurers if n not in parsed]
    if missing:
        raise CatalogError(f"{where}: lives for {missing[0]} adventurers missing")
    if entry.get("size") not in SIZES:
        raise CatalogError(f"{where}: size must be one of {', '.join(SIZES)}")
    models = entry.get("models", [])
    elite = entry.get("elite_models", [])
    for name, numbers in (("models", models), ("elite_models", elite)):
        if not isinstance(numbers, list) or any(not isinstance(n, int) or not 1 <= n <= 999 for n in numbers):
            raise CatalogError(f"{where}: {name} lists model numbers")
    if not models and not elite:
        raise CatalogError(f"{where}: needs model numbers")
    skills = []
    for s in entry.get("skills", []):
        skills.append(
            EnemySkill(
                _text(s, "text", f"{where}: skill"), bool(s.get("elite", False)), int(s.get("armour", 0))
            )
        )
    return EnemyCard(
        id=_text(entry, "id", where),
        name=_text(entry, "name", where),
        faction=str(entry.get("faction", "")),
        size=entry["size"],
        lives=parsed,
        armour=_int(entry, "armour", where),
        models=tuple(models),
        elite_models=tuple(elite),
        reactions=_rows(entry, "reactions", where, rules),
        phase=_rows(entry, "phase", where, rules),
        skills=tuple(skills),
        provenance=_provenance(entry, where, ("lives", "armour", "models", "reactions", "phase")),
    )


def _card(entry: Mapping[str, Any], stacks: tuple[str, ...]) -> ChaosCard:
    where = f"chaos card {entry.get('id')!r}"
    value = entry.get("value")
    if value not in VALUES:
        raise CatalogError(f"{where}: value must be one of {', '.join(VALUES)}")
    number = _int(entry, "number", where, 1)
    if entry.get("id") != f"{value[0]}{number}":
        raise CatalogError(f"{where}: a {value} card number {number} has the id {value[0]}{number}")
    if entry.get("stack") not in stacks:
        raise CatalogError(f"{where}: stack must be one of {', '.join(stacks)}")
    bonus, amount = _bonus(entry, where)
    return ChaosCard(
        entry["id"], number, value, entry["stack"], bonus, amount, _text(entry, "provenance", where)
    )


def _section(entry: Mapping[str, Any]) -> Section:
    where = f"section {entry.get('section')!r}"
    rounds = entry.get("rounds")
    if not isinstance(rounds, list) or not rounds or any(not isinstance(r, int) for r in rounds):
        raise CatalogError(f"{where}: rounds lists the round counter's spaces in it")
    return Section(
        number=_int(entry, "section", where, 1, 20),
        rounds=tuple(rounds),
        keep=_int(entry, "keep", where),
        draw=_int(entry, "draw", where),
        provenance=_provenance(entry, where, ("rounds", "cards")),
    )


def _table(entry: Mapping[str, Any]) -> DamageTable:
    where = f"damage table for {entry.get('adventurers')!r} adventurers"
    rows = entry.get("rows")
    if not isinstance(rows, list) or not rows:
        raise CatalogError(f"{where}: rows lists from-damage and spaces")
    parsed = tuple(
        DamageRow(
            start=_int(r, "from", where, -99),
            spaces=_int(r, "spaces", where, 0, 20),
            confirmed=tuple(int(c) for c in r.get("confirmed", ())),
        )
        for r in rows
    )
    if [r.start for r in parsed] != sorted({r.start for r in parsed}):
        raise CatalogError(f"{where}: the rows' from-damage rises from row to row")
    return DamageTable(_int(entry, "adventurers", where, 1, 6), parsed, _provenance(entry, where, ("rows",)))


def _adventure(entry: Mapping[str, Any], enemies: set[str]) -> Adventure:
    where = f"adventure {entry.get('number')!r}"
    skills = entry.get("skills", [])
    if not isinstance(skills, list) or any(s not in SKILLS for s in skills):
        raise CatalogError(f"{where}: skills are some of {', '.join(SKILLS)}")
    listed = entry.get("enemies", [])
    unknown = [e for e in listed if e not in enemies]
    if unknown:
        raise CatalogError(f"{where}: unknown enemy {unknown[0]!r}")
    narrator = []
    for card in entry.get("narrator", []):
        narrator.append((_text(card, "card", f"{where}: narrator"), str(card.get("text", ""))))
    if any(not c[:1].isalpha() for c, _ in narrator):
        raise CatalogError(f"{where}: a narrator card's back begins with its stack's letter (A 1.1)")
    cards = entry.get("adventure_cards", {})
    if not isinstance(cards, Mapping):
        raise CatalogError(f"{where}: adventure_cards maps a card's number to its text")
    return Adventure(
        number=_int(entry, "number", where, 1),
        title=_text(entry, "title", where),
        box=str(entry.get("box", "")),
        compartment=_text(entry, "compartment", where),
        skills=tuple(skills),
        enemies=tuple(listed),
        narrator=tuple(narrator),
        adventure_cards={str(k): str(v) for k, v in cards.items()},
        provenance=_provenance(entry, where, ("compartment", "skills")),
    )
