"""What the turn engine asks of a card, precomputed once per catalog for the hot path.

The rules ask the same few questions of every card thousands of times a game (its symbol, its role,
its colour, its ability); looking them up in plain dicts keyed by id keeps ``apply`` cheap.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from companion.games.chaos_marauders.cards import Card, CardId, Catalog, Colour, Part, Role
from companion.games.chaos_marauders.catalog import Ability, load_catalog

Cells = tuple[CardId | None, ...]


@dataclass(frozen=True)
class Facts:
    catalog: Catalog
    ids: tuple[CardId, ...]
    """Card titles in catalog order (the order of ``State.pile``)."""
    index: dict[CardId, int]
    card: dict[CardId, Card]
    colour: dict[CardId, Colour]
    symbol: dict[CardId, str | None]
    role: dict[CardId, Role | None]
    ability: dict[CardId, str | None]
    attack: dict[CardId, int]
    line_duplicates: dict[CardId, bool]
    machine: dict[CardId, str | None]
    part: dict[CardId, Part | None]
    machine_parts: dict[str, tuple[CardId, ...]]
    """Machine name -> its card ids, left part first, crew last."""
    unshared: dict[CardId | None, str | None]
    """Per card, the symbol no other card of its line may carry (None: it shares its line freely, or
    has no symbol); None for an empty slot, so a whole line maps in one pass."""
    stealable: frozenset[CardId]
    """Cards Venemous Creeps may take: every card but the purple ones (card reference: Creeps)."""
    stickable: frozenset[CardId]
    """Cards a Bozlum Pigsticker may discard: purple cards and Odlugg (card reference: Pigstickers)."""
    line_memo: dict[Cells, tuple[tuple[int, int, int, int, frozenset[str | None]], dict]] = field(
        default_factory=dict, compare=False, repr=False
    )
    complete_memo: dict[Cells, bool] = field(default_factory=dict, compare=False, repr=False)
    abilities_memo: dict[Cells, frozenset[str | None]] = field(
        default_factory=dict, compare=False, repr=False
    )
    attack_memo: dict[tuple[Cells, int], int] = field(default_factory=dict, compare=False, repr=False)
    board_memo: dict[int, tuple[tuple[Cells, ...], frozenset[str | None]]] = field(
        default_factory=dict, compare=False, repr=False
    )
    card_views: dict[tuple[CardId, int | None], dict[str, Any]] = field(
        default_factory=dict, compare=False, repr=False
    )
    tribe_scores: dict[tuple[Any, ...], dict[str, Any]] = field(
        default_factory=dict, compare=False, repr=False
    )
    provisional_scores: dict[tuple[Any, ...], Any] = field(default_factory=dict, compare=False, repr=False)
    """``placement.legal_slots``: what a line allows and its answers by (card, near); whether it is
    complete, which abilities it holds and its Attack Value, by line; a board's abilities by
    identity; for the view, each card's JSON by (card, Git owner) and each tribe's score by (board,
    first to complete, Idol rolls), and for the result each tribe's ``PlayerScore`` by the same key
    (every published view states the result: one tribe's board changes per action): memos of pure
    answers over immutable values, never part of what the facts are."""

    def has(self, card: CardId, ability: Ability) -> bool:
        return self.ability.get(card) == ability

    def is_colour(self, card: CardId, colour: Colour) -> bool:
        return self.colour[card] is colour

    def first(self, ability: Ability) -> CardId | None:
        for card_id, ab in self.ability.items():
            if ab == ability:
                return card_id
        return None


def facts_for(catalog: Catalog) -> Facts:
    cards = catalog.cards
    order = {Part.LEFT: 0, Part.RIGHT: 1, Part.CREW: 2}
    machines: dict[str, list[Card]] = {}
    for card in cards:
        if card.machine:
            machines.setdefault(card.machine, []).append(card)
    return Facts(
        catalog=catalog,
        ids=tuple(c.id for c in cards),
        index={c.id: i for i, c in enumerate(cards)},
        card={c.id: c for c in cards},
        colour={c.id: c.colour for c in cards},
        symbol={c.id: c.symbol for c in cards},
        role={c.id: c.role for c in cards},
        ability={c.id: c.ability for c in cards},
        attack={c.id: c.attack or 0 for c in cards},
        line_duplicates={c.id: c.line_duplicates for c in cards},
        machine={c.id: c.machine for c in cards},
        part={c.id: c.part for c in cards},
        machine_parts={
            name: tuple(c.id for c in sorted(parts, key=lambda c: order[c.part or Part.CREW]))
            for name, parts in machines.items()
        },
        unshared={None: None} | {c.id: None if c.line_duplicates else c.symbol for c in cards},
        stealable=frozenset(c.id for c in cards if c.colour is not Colour.PURPLE),
        stickable=frozenset(c.id for c in cards if c.colour is Colour.PURPLE or c.ability == Ability.ODLUGG),
    )


@functools.cache
def default_facts() -> Facts:
    return facts_for(load_catalog())
