"""Static analysis of one battle line: where a card may go, completeness, war machines, Attack Value.

A line is a tuple of :data:`LINE_SLOTS` slots, left to right, each a card id or None (an empty area
of the play-sheet). Everything here is a pure function of the line and the catalog, written for the
simulator's speed: plain tuples and dict look-ups, no copies.

Placement (rulebook p.6, card reference Rules Summary):

* one card per symbol per line, except cards marked ``line_duplicates`` (Plague Lords, Sneaky Gits);
* one Standard and one Musician per line;
* no card to the left of a Standard nor to the right of a Musician, so a Standard needs every slot
  to its left empty and a Musician every slot to its right;
* only a Standard may occupy the extreme left area (slot 0), only a Musician the extreme right
  (slot 11): we read the Rules Summary's "extreme left end of a battle line" as the play-sheet's end
  areas, since a line's own end card is already covered by the two rules above.

A line whose Standard and Musician sit too close to hold four cards is legal but can never complete
(the rulebook warns about it and forbids nothing).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from companion.games.chaos_marauders.cards import Card, CardId, Catalog, Part, Role, UnknownCardError
from companion.games.chaos_marauders.catalog import LINE_SLOTS, Ability

Line = tuple[CardId | None, ...]
"""A battle line: LINE_SLOTS slots, left to right, each a card id or None."""

EMPTY_LINE: Line = (None,) * LINE_SLOTS
MIN_COMPLETE = 4
"""A complete line holds four to twelve cards (rulebook p.9)."""

SET_OF_THREE_VP = 70
SET_OF_TWO_VP = 60


@dataclass(frozen=True)
class MachineSet:
    """A war machine assembled in a line: its machine parts side by side, left then right.

    ``crewed`` says whether its crew card stands directly to the right of the right part. ``complete``
    says whether every card of the set is there (three cards, or the Boneshaker's two): only a
    complete set has an Attack Rating (card reference p.13).
    """

    machine: str
    slots: tuple[int, ...]
    crewed: bool
    complete: bool
    attack: int

    @property
    def size(self) -> int:
        """Cards in the assembled set: 3 with a crew, else 2."""
        return len(self.slots)

    @property
    def vp(self) -> int:
        """The chart's 70 for a set of three, 60 for a set of two (rulebook p.12).

        Card reference p.13: a player scores "if he has the two machine parts assembled in their
        proper order, and additional points if he also has the crew". So the two parts alone are the
        chart's "set of two" (60) and parts plus crew its "set of three" (70, i.e. 10 more); the
        Boneshaker, "only a two card set", scores 60 when complete.
        """
        return SET_OF_THREE_VP if self.size == 3 else SET_OF_TWO_VP


def card_count(line: Line) -> int:
    """Cards in the line (empty slots do not count)."""
    return LINE_SLOTS - line.count(None) if len(line) == LINE_SLOTS else sum(c is not None for c in line)


def placed(line: Line, slot: int, card: CardId | None) -> Line:
    """``line`` with ``slot`` set to ``card`` (None empties it)."""
    return (*line[:slot], card, *line[slot + 1 :])


def role_slot(line: Line, role: Role, catalog: Catalog) -> int | None:
    """Slot of the line's Standard or Musician, None when it has none."""
    for slot, card_id in enumerate(line):
        if card_id is not None and catalog.card(card_id).role is role:
            return slot
    return None


def placement_error(
    line: Line,
    slot: int,
    card: CardId,
    catalog: Catalog,
    *,
    ignore_symbols_of: Collection[CardId] = (),
    line_number: int | None = None,
) -> str | None:
    """Why ``card`` may not go into ``slot`` of ``line``, for the players; None when it may.

    ``ignore_symbols_of``: card ids exempt from the one-symbol-per-line rule on both sides (the
    card being placed or a card already in the line), on top of the catalog's ``line_duplicates``
    cards. ``line_number`` (1-based) only words the message ("Line 2 ..." instead of "This line ...").
    """
    where = f"Line {line_number}" if line_number is not None else "This line"
    if not 0 <= slot < len(line):
        return f"There is no slot {slot + 1} on the play-sheet (slots 1 to {len(line)})"
    if line[slot] is not None:
        return f"{where} already has a card in slot {slot + 1}"
    cards = catalog.by_id
    new = catalog.card(card)
    symbol = new.symbol
    check_symbol = symbol is not None and not new.line_duplicates and card not in ignore_symbols_of
    standard = musician = None
    # One pass over the line: the simulator asks this for every slot of every line on every draw.
    for index, other_id in enumerate(line):
        if other_id is None:
            continue
        other = cards[other_id]
        if check_symbol and other.symbol == symbol and other_id not in ignore_symbols_of:
            return f"{where} already holds a card with this symbol"
        if other.role is Role.STANDARD:
            standard = index
        elif other.role is Role.MUSICIAN:
            musician = index
    if new.role is Role.STANDARD:
        if standard is not None:
            return f"{where} already has a Standard"
        if any(other is not None for other in line[:slot]):
            return "A Standard must have no card to its left"
    elif new.role is Role.MUSICIAN:
        if musician is not None:
            return f"{where} already has a Musician"
        if any(other is not None for other in line[slot + 1 :]):
            return "A Musician must have no card to its right"
    if slot == 0 and new.role is not Role.STANDARD:
        return "Only a Standard may take the left end of a line"
    if slot == len(line) - 1 and new.role is not Role.MUSICIAN:
        return "Only a Musician may take the right end of a line"
    if standard is not None and slot < standard:
        return "No card may go to the left of the Standard"
    if musician is not None and slot > musician:
        return "No card may go to the right of the Musician"
    return None


def legal_slots(
    line: Line, card: CardId, catalog: Catalog, *, ignore_symbols_of: Collection[CardId] = ()
) -> tuple[int, ...]:
    """Every slot of ``line`` where ``card`` may be placed."""
    return tuple(
        slot
        for slot in range(len(line))
        if line[slot] is None
        and placement_error(line, slot, card, catalog, ignore_symbols_of=ignore_symbols_of) is None
    )


def within_reach(line: Line, slot: int, spaces: int = 3) -> bool:
    """True when another card lies within ``spaces`` slots of ``slot``.

    Sneaky Gits and an Idol given to an opponent "must be placed within three spaces of another card"
    (card reference: Sneaky Git, Idol); an empty line offers no such place.
    """
    low, high = max(0, slot - spaces), min(len(line), slot + spaces + 1)
    return any(line[index] is not None for index in range(low, high) if index != slot)


def line_error(line: Line, catalog: Catalog) -> str | None:
    """Why a whole line breaks the placement rules, for the players; None when it is legal.

    Checks the final position only (any order of placement that reaches a legal line is fine).
    """
    if len(line) != LINE_SLOTS:
        return f"A battle line has {LINE_SLOTS} slots, not {len(line)}"
    symbols: set[str] = set()
    standard = musician = None
    first = last = None
    for slot, card_id in enumerate(line):
        if card_id is None:
            continue
        try:
            card = catalog.card(card_id)
        except UnknownCardError:
            return f"Unknown card id {card_id!r}"
        first = slot if first is None else first
        last = slot
        if card.symbol is not None and not card.line_duplicates:
            if card.symbol in symbols:
                return f"Two cards with the symbol of {card.title} share the line"
            symbols.add(card.symbol)
        if card.role is Role.STANDARD:
            if standard is not None:
                return "The line has two Standards"
            standard = slot
        elif card.role is Role.MUSICIAN:
            if musician is not None:
                return "The line has two Musicians"
            musician = slot
    if line[0] is not None and standard != 0:
        return "Only a Standard may take the left end of a line"
    if line[-1] is not None and musician != LINE_SLOTS - 1:
        return "Only a Musician may take the right end of a line"
    if standard is not None and first != standard:
        return "A card lies to the left of the Standard"
    if musician is not None and last != musician:
        return "A card lies to the right of the Musician"
    return None


TRIBE_SYMBOL_LIMIT = 3
"""Most cards with one symbol a tribe may hold (rulebook, Drawing a Fourth Duplicate)."""


def tribe_error(lines: Iterable[Line], catalog: Catalog) -> str | None:
    """Why a tribe's three lines together break the rules, for the players; None when they do not.

    "A player cannot have four cards with the same symbol in his tribe (the only exception being
    Blightskabb Plague Lords)": one card per symbol per line keeps most cards to three, so this binds
    the cards that may share a line, Sneaky Gits.
    """
    counts: dict[str, int] = {}
    for line in lines:
        for card_id in line:
            if card_id is None:
                continue
            card = catalog.card(card_id)
            if card.symbol is None or card.ability == Ability.PLAGUE_LORDS:
                continue
            counts[card.symbol] = counts.get(card.symbol, 0) + 1
            if counts[card.symbol] > TRIBE_SYMBOL_LIMIT:
                return f"a tribe cannot hold four cards with one symbol ({card.title})"
    return None


def is_complete(line: Line, catalog: Catalog) -> bool:
    """A complete line: 4 to 12 cards with no gaps, a Standard at its left end, a Musician at its right.

    (rulebook p.9) Assumes a line that passes :func:`line_error`.
    """
    first = last = None
    count = 0
    for slot, card_id in enumerate(line):
        if card_id is not None:
            count += 1
            last = slot
            if first is None:
                first = slot
    if first is None or last is None or count < MIN_COMPLETE or last - first + 1 != count:
        return False
    cards = catalog.by_id
    return (
        cards[line[first]].role is Role.STANDARD  # type: ignore[index]
        and cards[line[last]].role is Role.MUSICIAN  # type: ignore[index]
    )


def war_machines(line: Line, catalog: Catalog) -> tuple[MachineSet, ...]:
    """The war machines properly assembled in the line, left to right.

    A set needs its left part directly followed by its right part; its crew, when the set has one,
    counts only directly to the right of the right part ("placed together in the correct order",
    card reference p.13). Loose or misordered parts form no set and score nothing.
    """
    found: list[MachineSet] = []
    cards = catalog.by_id
    last = len(line) - 1
    for slot in range(last):
        left_id = line[slot]
        if left_id is None:
            continue
        left = cards[left_id]
        machine = left.machine
        if machine is None or left.part is not Part.LEFT:
            continue
        right_id = line[slot + 1]
        if right_id is None or not _is_part(cards[right_id], machine, Part.RIGHT):
            continue
        has_crew = len(catalog.machine(machine)) == 3
        crew_id = line[slot + 2] if slot + 2 <= last else None
        crewed = has_crew and crew_id is not None and _is_part(cards[crew_id], machine, Part.CREW)
        found.append(
            MachineSet(
                machine=machine,
                slots=(slot, slot + 1, slot + 2) if crewed else (slot, slot + 1),
                crewed=crewed,
                complete=crewed or not has_crew,
                attack=left.attack or 0,
            )
        )
    return tuple(found)


def has_complete_war_machine(line: Line, catalog: Catalog) -> bool:
    """True when the line holds a complete war machine (it may then attack a line with Odlugg)."""
    return any(machine.complete for machine in war_machines(line, catalog))


def plague_lord_count(lines: Iterable[Line], catalog: Catalog) -> int:
    """Blightskabb Plague Lords in a tribe's lines (their Attack Rating depends on the tribe's total)."""
    return sum(
        1
        for line in lines
        for card_id in line
        if card_id is not None and catalog.card(card_id).ability == Ability.PLAGUE_LORDS
    )


def attack_value(line: Line, catalog: Catalog, plague_lord_count_in_tribe: int) -> int:
    """The line's Attack Value: the sum of its cards' Attack Ratings (rulebook p.4).

    * A complete war machine counts its printed rating once, not once per card (card reference p.13).
    * Loose war machine cards and incomplete sets count 0: "Each completed set has an Attack Rating,
      but only if all cards in the set are in the same battle line and placed together in the
      correct order" - so a part alone has none.
    * Each Plague Lord counts its printed 2 times the Plague Lords in the whole tribe (2/4/6/8).
    """
    total = 0
    plague_lords = 0
    machine_cards = False
    cards = catalog.by_id
    for card_id in line:
        if card_id is None:
            continue
        card = cards[card_id]
        if card.machine is not None:
            machine_cards = True
        elif card.ability == Ability.PLAGUE_LORDS:
            plague_lords += 1
            total += (card.attack or 0) * plague_lord_count_in_tribe
        elif card.attack is not None:
            total += card.attack
    if plague_lords > plague_lord_count_in_tribe:
        raise ValueError(
            f"the line holds {plague_lords} Plague Lords, the tribe only {plague_lord_count_in_tribe}"
        )
    if machine_cards:
        total += sum(machine.attack for machine in war_machines(line, catalog) if machine.complete)
    return total


def _is_part(card: Card, machine: str, part: Part) -> bool:
    return card.machine == machine and card.part is part
