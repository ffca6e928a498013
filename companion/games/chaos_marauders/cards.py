"""The Chaos Marauders card catalog: card titles as immutable values, loaded from data/cards.toml.

A physical card is identified by its title's id (copies of a title are interchangeable); the deck is
the multiset of ids. Every value records where it came from (``provenance``): the rulebook, the card
reference, or ``assumed`` with a reason, so the owner of the physical game can correct it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from companion.names import name_key

CardId = str


class Colour(enum.StrEnum):
    GREY = "grey"
    BLUE = "blue"
    PURPLE = "purple"
    GREEN = "green"
    RED = "red"


class Role(enum.StrEnum):
    STANDARD = "standard"
    MUSICIAN = "musician"


class Part(enum.StrEnum):
    """War machine parts, in their left-to-right order in a battle line."""

    LEFT = "left"
    RIGHT = "right"
    CREW = "crew"


class UnknownCardError(KeyError):
    """No card with that id or title is in the catalog."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown card"


@dataclass(frozen=True)
class Card:
    """One card title of the deck (all its copies)."""

    id: CardId
    title: str
    colour: Colour
    symbol: str | None
    """Symbol group: two cards with the same symbol are duplicates. None for unique cards."""
    copies: int
    attack: int | None
    """Printed Attack Rating; None when the card has none. For war machine parts: the machine's rating."""
    vp: int
    """Printed Victory Points (0 when none); the Idol's 90 is conditional and scored separately."""
    role: Role | None = None
    machine: str | None = None
    part: Part | None = None
    ability: str | None = None
    """Id of the special rule the engine applies (e.g. ``"pigsticker"``), None for plain cards."""
    line_duplicates: bool = False
    """True when several copies may share one battle line (Plague Lords, Sneaky Gits)."""
    discarded_after_use: bool = False
    """True for a card used once when drawn and then discarded: it never lies in a battle line."""
    text: str = ""
    aliases: tuple[str, ...] = ()
    """Other spellings of the title, as the rules texts print them ("Venomous Creeps")."""
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Field name -> where its value came from (``"rulebook p.12"``, ``"assumed: ..."``)."""

    def __repr__(self) -> str:
        return f"card({self.id!r})"  # catalog.card: the packaged catalog's card of that id

    def to_json(self) -> dict[str, object]:
        """The card as plain JSON-able data (enums as their names, None where a value is absent)."""
        return {
            "id": self.id,
            "title": self.title,
            "colour": self.colour.value,
            "symbol": self.symbol,
            "copies": self.copies,
            "attack": self.attack,
            "vp": self.vp,
            "role": self.role.value if self.role else None,
            "machine": self.machine,
            "part": self.part.value if self.part else None,
            "ability": self.ability,
            "line_duplicates": self.line_duplicates,
            "discarded_after_use": self.discarded_after_use,
            "text": self.text,
            "aliases": list(self.aliases),
            "provenance": dict(self.provenance),
        }


@dataclass(frozen=True)
class Catalog:
    """All card titles, in catalog order, with lookup by id, title or alias (any typographic
    spelling: :func:`name_key`)."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", _index(self.cards))
        object.__setattr__(self, "_by_id", {card.id: card for card in self.cards})
        object.__setattr__(self, "_machines", _machines(self.cards))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, key: str) -> Card:
        """A card by id, title or alias, in any case, quotes or spacing; raises UnknownCardError."""
        try:
            return self._by_key[name_key(key)]  # type: ignore[attr-defined]
        except KeyError:
            raise UnknownCardError(f"unknown card {key!r}") from None

    def card(self, card_id: CardId) -> Card:
        """A card by its exact id: the fast path for rules code (no case folding, no titles)."""
        try:
            return self._by_id[card_id]  # type: ignore[attr-defined]
        except KeyError:
            raise UnknownCardError(f"unknown card id {card_id!r}") from None

    @property
    def by_id(self) -> Mapping[CardId, Card]:
        """Cards by exact id, for hot loops that look up every slot of a line."""
        return self._by_id  # type: ignore[attr-defined,no-any-return]

    def machine(self, name: str) -> tuple[Card, ...]:
        """The cards of one war machine set in left-to-right order (left, right[, crew])."""
        try:
            return self._machines[name]  # type: ignore[attr-defined]
        except KeyError:
            raise UnknownCardError(f"unknown war machine {name!r}") from None

    @property
    def machines(self) -> tuple[str, ...]:
        """Names of the war machines, in catalog order."""
        return tuple(self._machines)  # type: ignore[attr-defined]

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and name_key(key) in self._by_key  # type: ignore[attr-defined]

    @property
    def deck_size(self) -> int:
        return sum(card.copies for card in self.cards)

    def deck(self) -> tuple[CardId, ...]:
        """Every physical card of a full deck, by id, in catalog order (the caller shuffles)."""
        return tuple(card.id for card in self.cards for _ in range(card.copies))


def _index(cards: tuple[Card, ...]) -> dict[str, Card]:
    index: dict[str, Card] = {}
    for card in cards:
        for key in map(name_key, (card.id, card.title, *card.aliases)):
            if key in index and index[key] is not card:
                raise ValueError(f"two cards share the id, title or alias {key!r}")
            index[key] = card
    return index


def _machines(cards: tuple[Card, ...]) -> dict[str, tuple[Card, ...]]:
    order = list(Part)
    sets: dict[str, list[Card]] = {}
    for card in cards:
        if card.machine is not None:
            sets.setdefault(card.machine, []).append(card)
    return {
        name: tuple(sorted(members, key=lambda c: order.index(c.part)))  # type: ignore[arg-type]
        for name, members in sets.items()
    }
