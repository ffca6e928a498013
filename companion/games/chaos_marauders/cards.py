"""The Chaos Marauders card catalog: card titles as immutable values, loaded from data/cards.toml.

A physical card is identified by its title's id (copies of a title are interchangeable); the deck is
the multiset of ids. Every value records where it came from (``provenance``): the rulebook, the card
reference, or ``assumed`` with a reason, so the owner of the physical game can correct it.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

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
    text: str = ""
    provenance: Mapping[str, str] = field(default_factory=dict, compare=False, hash=False)
    """Field name -> where its value came from (``"rulebook p.12"``, ``"assumed: ..."``)."""

    def __repr__(self) -> str:
        return f"Card.from_id({self.id!r})"


@dataclass(frozen=True)
class Catalog:
    """All card titles, in catalog order, with lookup by id or exact title."""

    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", _index(self.cards))

    def __iter__(self) -> Iterator[Card]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __getitem__(self, key: str) -> Card:
        """A card by id or by exact title (case-insensitive); raises UnknownCardError."""
        try:
            return self._by_key[key.casefold()]  # type: ignore[attr-defined]
        except KeyError:
            raise UnknownCardError(f"unknown card {key!r}") from None

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key.casefold() in self._by_key  # type: ignore[attr-defined]

    @property
    def deck_size(self) -> int:
        return sum(card.copies for card in self.cards)

    def deck(self) -> tuple[CardId, ...]:
        """Every physical card of a full deck, by id, in catalog order (the caller shuffles)."""
        return tuple(card.id for card in self.cards for _ in range(card.copies))


def _index(cards: tuple[Card, ...]) -> dict[str, Card]:
    index: dict[str, Card] = {}
    for card in cards:
        for key in (card.id.casefold(), card.title.casefold()):
            if key in index and index[key] is not card:
                raise ValueError(f"two cards share the id or title {key!r}")
            index[key] = card
    return index
