"""Loads and checks the Chaos Marauders card catalog (``data/cards.toml``).

The packaged file is the default; the owner of a physical game can load a whole replacement file or a
small *overrides* file that corrects a few values (copies, attack ratings...) of the packaged one.
Either way the result is checked strictly, because a wrong catalog silently breaks every rule that
counts cards: each problem is reported as a :class:`CatalogError` naming the card and the field.
"""

from __future__ import annotations

import enum
import functools
import json
import re
import tomllib
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from companion.games.chaos_marauders.cards import Card, Catalog, Colour, Part, Role, name_key

GAME = "chaos-marauders"
TITLE = "Chaos Marauders"
"""The game's registry name and title, declared here once (bundle, engine and view read them)."""
LINE_SLOTS = 12
"""Areas on a play-sheet, so the longest possible battle line (rulebook p.3 and p.9)."""


E = TypeVar("E", bound=enum.Enum)


class Ability(enum.StrEnum):
    """Special rules the engine implements, as named by ``ability`` in the catalog."""

    PIGSTICKER = "pigsticker"
    SHAMAN = "shaman"
    CHAOS_MARAUDERS = "chaos-marauders"
    PLAGUE_LORDS = "plague-lords"
    VENEMOUS_CREEPS = "venemous-creeps"
    HORNED_RAT_STANDARD = "horned-rat-standard"
    DAGROMM = "dagromm"
    SNEAKY_GIT = "sneaky-git"
    ODLUGG = "odlugg"
    IDOL = "idol"
    BILGE_GUTTROT = "bilge-guttrot"
    SKYRRS_BLOWBACK = "skyrrs-blowback"


class CatalogError(ValueError):
    """The catalog file is unreadable or breaks a rule of the catalog format."""


_CARD_KEYS = {
    "id",
    "title",
    "colour",
    "symbol",
    "copies",
    "attack",
    "vp",
    "role",
    "machine",
    "part",
    "ability",
    "line_duplicates",
    "discarded_after_use",
    "text",
    "aliases",
    "provenance",
}
# Values every card must account for, even when absent (no symbol, no Attack Rating).
_ALWAYS_SOURCED = ("colour", "copies", "attack", "vp", "symbol")
# Values that need a source only when the card has them.
_SOURCED_WHEN_SET = (
    "role",
    "machine",
    "part",
    "ability",
    "line_duplicates",
    "discarded_after_use",
    "aliases",
)
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_PROVENANCE = re.compile(r"^(rulebook|card reference|public data|assumed)\b")


def default_path() -> Path:
    """Where the packaged catalog lives (read-only data inside the package)."""
    return Path(str(resources.files("companion.games.chaos_marauders") / "data" / "cards.toml"))


def card(key: str) -> Card:
    """The card of the packaged catalog with this id, title or alias (``repr(card)`` reads so)."""
    return load_catalog()[key]


def load_catalog(path: Path | None = None, *, overrides: Path | None = None) -> Catalog:
    """The catalog from ``path`` (default: the packaged one), with an owner's ``overrides`` applied.

    ``overrides`` is a TOML file of ``[[cards]]`` entries, each with the ``id`` of a card and only the
    values to change, plus a ``[cards.provenance]`` entry for every changed value. Raises
    CatalogError with a one-line reason.
    """
    if path is None and overrides is None:
        return _default_catalog()
    data = read_toml(path or default_path())
    if overrides is not None:
        data = apply_overrides(data, read_toml(overrides))
    return catalog_from_data(data)


@functools.cache
def _default_catalog() -> Catalog:
    # The simulator asks for the catalog once per game: parse and check the package file only once.
    return catalog_from_data(read_toml(default_path()))


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as file:
            return tomllib.load(file)
    except OSError as exc:
        raise CatalogError(f"cannot read the catalog {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"the catalog {path} is not valid TOML: {exc}") from None


def catalog_from_toml(text: str) -> Catalog:
    """A checked catalog from TOML text in the ``cards.toml`` format."""
    try:
        return catalog_from_data(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"the catalog is not valid TOML: {exc}") from None


def catalog_to_toml(catalog: Catalog) -> str:
    """``catalog`` in the ``cards.toml`` format, so that ``catalog_from_toml`` reads it back equal."""
    out = ["[deck]", f"game = {_toml(GAME)}", f"size = {catalog.deck_size}", ""]
    for card in catalog:
        values = card.to_json()
        del values["provenance"]
        out.append("[[cards]]")
        # TOML has no null: an absent value is a left-out key; false flags are left out likewise.
        # (Compared by identity: ``0 in (None, False)`` is true, and vp = 0 must stay written.)
        kept = {key: value for key, value in values.items() if value is not None and value is not False}
        out.extend(f"{key} = {_toml(value)}" for key, value in kept.items() if value not in ("", []))
        out.append("[cards.provenance]")
        out.extend(f"{_toml(key)} = {_toml(value)}" for key, value in card.provenance.items())
        out.append("")
    return "\n".join(out)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    # A JSON string is a valid TOML basic string (same quotes and escapes).
    return json.dumps(str(value), ensure_ascii=False)


def apply_overrides(base: Mapping[str, Any], overrides: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with the values of ``overrides`` replacing those of the cards with the same id."""
    unknown_sections = set(overrides) - {"cards"}
    if unknown_sections:
        raise CatalogError(f"overrides may only hold [[cards]], not {', '.join(sorted(unknown_sections))}")
    cards = [dict(card) for card in base.get("cards", [])]
    by_id = {card.get("id"): card for card in cards}
    for entry in overrides.get("cards", []):
        card_id = entry.get("id")
        if card_id not in by_id:
            raise CatalogError(f"override for unknown card id {card_id!r}")
        card = by_id[card_id]
        sources = dict(entry.get("provenance", {}))
        for key, value in entry.items():
            if key in ("id", "provenance"):
                continue
            # An override without a source would make an owner's guess look like a printed fact.
            if key != "text" and key not in sources:
                raise CatalogError(f"card {card_id!r}: override of {key!r} needs a provenance entry")
            card[key] = value
        card["provenance"] = {**card.get("provenance", {}), **sources}
    return {**base, "cards": cards}


def catalog_from_data(data: Mapping[str, Any]) -> Catalog:
    """A checked catalog from parsed TOML data; raises CatalogError naming the first problem."""
    deck = data.get("deck")
    if not isinstance(deck, Mapping) or deck.get("game") != GAME:
        raise CatalogError(f'the catalog needs a [deck] table with game = "{GAME}"')
    size = deck.get("size")
    if not _is_int(size) or size < 1:
        raise CatalogError("[deck] size must be a positive whole number")
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise CatalogError("the catalog has no [[cards]] entries")
    cards = tuple(_card(entry, index) for index, entry in enumerate(entries, start=1))
    _check_unique(cards)
    _check_war_machines(cards)
    catalog = Catalog(cards)
    if catalog.deck_size != size:
        raise CatalogError(f"the cards' copies add up to {catalog.deck_size}, but [deck] size is {size}")
    return catalog


def _card(entry: Any, index: int) -> Card:
    if not isinstance(entry, Mapping):
        raise CatalogError(f"card #{index} is not a table")
    card_id = entry.get("id")
    where = f"card {card_id!r}" if isinstance(card_id, str) else f"card #{index}"
    unknown = set(entry) - _CARD_KEYS
    if unknown:
        raise CatalogError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    if not isinstance(card_id, str) or not _ID.match(card_id):
        raise CatalogError(f"{where}: id must be kebab-case (lower-case words joined by '-')")
    title = _text(entry, "title", where, required=True)
    copies = entry.get("copies")
    if not _is_int(copies) or copies < 1:
        raise CatalogError(f"{where}: copies must be a whole number of at least 1")
    attack = entry.get("attack")
    if attack is not None and (not _is_int(attack) or not 1 <= attack <= 10):
        raise CatalogError(f"{where}: attack must be 1 to 10 (rulebook p.4), or left out for none")
    vp = entry.get("vp", 0)
    if not _is_int(vp) or vp < 0:
        raise CatalogError(f"{where}: vp must be a whole number of at least 0")
    symbol = _text(entry, "symbol", where)
    if (symbol is None) != (copies == 1):
        raise CatalogError(f"{where}: a card has a symbol exactly when it has several copies (rulebook p.4)")
    line_duplicates = entry.get("line_duplicates", False)
    if not isinstance(line_duplicates, bool):
        raise CatalogError(f"{where}: line_duplicates must be true or false")
    discarded_after_use = entry.get("discarded_after_use", False)
    if not isinstance(discarded_after_use, bool):
        raise CatalogError(f"{where}: discarded_after_use must be true or false")
    machine = _text(entry, "machine", where)
    part = _enum(Part, entry, "part", where)
    if (machine is None) != (part is None):
        raise CatalogError(f"{where}: a war machine card needs both machine and part")
    colour = _enum(Colour, entry, "colour", where)
    if colour is None:
        raise CatalogError(f"{where}: colour is required")
    return Card(
        id=card_id,
        title=title or "",
        colour=colour,
        symbol=symbol,
        copies=copies,
        attack=attack,
        vp=vp,
        role=_enum(Role, entry, "role", where),
        machine=machine,
        part=part,
        ability=_enum(Ability, entry, "ability", where),
        line_duplicates=line_duplicates,
        discarded_after_use=discarded_after_use,
        text=_text(entry, "text", where) or "",
        aliases=_aliases(entry, where),
        provenance=_provenance(entry, where),
    )


def _aliases(entry: Mapping[str, Any], where: str) -> tuple[str, ...]:
    """Other spellings of the title (a list of non-empty texts), looked up like the title."""
    aliases = entry.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
        raise CatalogError(f"{where}: aliases must be a list of non-empty texts")
    return tuple(aliases)


def _provenance(entry: Mapping[str, Any], where: str) -> dict[str, str]:
    sources = entry.get("provenance")
    if not isinstance(sources, Mapping):
        raise CatalogError(f"{where}: missing [cards.provenance]")
    needed = [*_ALWAYS_SOURCED, *(key for key in _SOURCED_WHEN_SET if entry.get(key))]
    for key in needed:
        source = sources.get(key)
        if not isinstance(source, str) or not _PROVENANCE.match(source):
            raise CatalogError(
                f"{where}: provenance of {key!r} must start with rulebook, card reference, "
                "public data or assumed"
            )
    return {str(key): str(value) for key, value in sources.items()}


def _check_unique(cards: tuple[Card, ...]) -> None:
    seen: dict[str, str] = {}
    for card in cards:
        # Compared as looked up: two spellings that differ only in case, quotes or spacing are one.
        for key in {name_key(card.id), name_key(card.title), *map(name_key, card.aliases)}:
            if key in seen:
                raise CatalogError(
                    f"card {card.id!r}: id, title or alias {key!r} is already used by {seen[key]!r}"
                )
            seen[key] = card.id
    symbols: dict[str, str] = {}
    for card in cards:
        if card.symbol is None:
            continue
        # Duplicates share a title as well as a symbol (rulebook p.4): two titles, one symbol is a typo.
        if card.symbol in symbols:
            other = symbols[card.symbol]
            raise CatalogError(f"card {card.id!r}: symbol {card.symbol!r} is already used by {other!r}")
        symbols[card.symbol] = card.id


def _check_war_machines(cards: tuple[Card, ...]) -> None:
    machines: dict[str, list[Card]] = {}
    for card in cards:
        if card.machine is not None:
            machines.setdefault(card.machine, []).append(card)
    for name, parts in machines.items():
        kinds = sorted((card.part for card in parts), key=list(Part).index)  # type: ignore[arg-type]
        if kinds not in ([Part.LEFT, Part.RIGHT], [Part.LEFT, Part.RIGHT, Part.CREW]):
            found = ", ".join(kinds) or "none"
            raise CatalogError(
                f"war machine {name!r} needs one left and one right part and at most one crew (has {found})"
            )
        for card in parts:
            if card.colour is not Colour.RED:
                raise CatalogError(f"card {card.id!r}: war machine cards are red (card reference p.13)")
            if card.copies != 1:
                raise CatalogError(f"card {card.id!r}: each war machine card is unique (copies = 1)")
            if card.attack is None or card.attack != parts[0].attack:
                raise CatalogError(f"war machine {name!r}: every card must print the same attack rating")


def _text(entry: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> str | None:
    value = entry.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise CatalogError(f"{where}: {key} must be non-empty text")
    return value


def _enum(cls: type[E], entry: Mapping[str, Any], key: str, where: str) -> E | None:
    value = entry.get(key)
    if value is None:
        return None
    try:
        return cls(value)
    except ValueError:
        options = ", ".join(str(member.value) for member in cls)
        raise CatalogError(f"{where}: unknown {key} {value!r} (expected one of: {options})") from None


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
