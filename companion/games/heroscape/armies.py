"""Gathering armies: the scenario's pre-set armies, drafting, or pre-made armies registered card by card.

Rules (rulebook, Master Game Guide, 2. Gather and Place Your Army): an army's points may not exceed the
scenario's limit; no army holds two of the same Unique card; the box holds so many copies of each card
(data: ``copies``, times the sets the table owns). Drafting: everyone rolls the d20 (ties roll again),
the highest picks one card; with two players the other then picks two, and after that each picks one in
turn; with three or more the draft snakes, the last of each pass picking two before it turns back. A
player who cannot afford any card left passes, and a pass completes that army.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from companion.engine import Event, PlayerId, Setup
from companion.games.heroscape.catalog import ArmyCard, Catalog, Scenario
from companion.games.heroscape.common import fail, who
from companion.games.heroscape.ids import UnitId
from companion.games.heroscape.state import Draft, Figure, RollOff, Side, State, Unit, evolve, set_side


def new_unit(card: ArmyCard, copy: int) -> Unit:
    return Unit(card.id, copy, tuple(Figure() for _ in range(card.figures)))


def build_units(cat: Catalog, cards: tuple[str, ...] | list[str]) -> tuple[Unit, ...]:
    counts: Counter[str] = Counter()
    units = []
    for card in cards:
        counts[card] += 1
        units.append(new_unit(cat.card(card), counts[card]))
    return tuple(units)


def army_points(cat: Catalog, side: Side) -> int:
    """The points that count against the army's limit (a scenario's gift does not)."""
    return sum(cat.card(u.card).points for u in side.units if not u.gift)


def card_problem(
    cat: Catalog, state: State, scenario: Scenario, seat: int, card_id: str, sets: int
) -> str | None:
    """Why ``seat`` may not add ``card_id`` now, or None."""
    if not cat.has_card(card_id):
        return f"HeroScape has no army card {card_id!r}"
    card = cat.card(card_id)
    side = state.sides[seat]
    if card_id in scenario.forbidden:
        return f"{card.title} may not join an army in {scenario.title}"
    if seat in scenario.heroes_only and not card.hero:
        return f"{who(state, seat)}'s army must be all Heroes in {scenario.title}"
    if seat in scenario.squads_only and card.hero:
        return f"{who(state, seat)}'s army must be all Squads in {scenario.title}"
    if card.unique and any(u.card == card_id for u in side.units):
        return f"{card.title} is Unique: one per army"
    taken = sum(1 for s in state.sides for u in s.units if u.card == card_id)
    if taken >= card.copies * sets:
        return f"every {card.title} card is already in an army"
    limit = state.limits[seat]
    if limit and army_points(cat, side) + card.points > limit:
        left = limit - army_points(cat, side)
        return f"{card.title} costs {card.points} points; {who(state, seat)} has {left} left"
    return None


def affordable(cat: Catalog, state: State, scenario: Scenario, seat: int, sets: int) -> list[str]:
    return [c.id for c in cat.cards if card_problem(cat, state, scenario, seat, c.id, sets) is None]


def add_card(
    cat: Catalog, state: State, scenario: Scenario, seat: int, card_id: str, sets: int, ev: list[Event]
) -> State:
    problem = card_problem(cat, state, scenario, seat, card_id, sets)
    if problem:
        fail(problem)
    side = state.sides[seat]
    copy = 1 + sum(1 for u in side.units if u.card == card_id)
    side = Side(units=(*side.units, new_unit(cat.card(card_id), copy)))
    points = army_points(cat, side)
    limit = f" of {state.limits[seat]}" if state.limits[seat] else ""
    title = cat.card(card_id).title
    ev.append(
        Event(
            "ArmyCardAdded",
            f"{who(state, seat)} takes {title} ({points}{limit} points)",
            {"seat": seat, "card": card_id},
        )
    )
    return set_side(state, seat, side)


def remove_card(cat: Catalog, state: State, seat: int, unit: UnitId, ev: list[Event]) -> State:
    side = state.sides[seat]
    keep = [u for u in side.units if (u.card, u.copy) != (unit.card, unit.copy)]
    if len(keep) == len(side.units) or unit.seat != seat:
        fail(f"{who(state, seat)}'s army has no {unit.format()}")
    if any(u.gift for u in side.units if (u.card, u.copy) == (unit.card, unit.copy)):
        fail(f"{cat.card(unit.card).title} is the scenario's: it stays in the army")
    # Renumber the copies that remain, so the names stay 1, 2, ... as the cards lie.
    renumbered = build_units(cat, [u.card for u in keep])
    units = tuple(replace(fresh, gift=old.gift) for fresh, old in zip(renumbered, keep, strict=True))
    ev.append(
        Event("ArmyCardRemoved", f"{who(state, seat)} puts {cat.card(unit.card).title} back", {"seat": seat})
    )
    return set_side(state, seat, Side(units=units))


# ------------------------------------------------------------------------------------------ draft


def first_pass(state: State, winner: int) -> Draft:
    ring = tuple((winner + i) % state.seats for i in range(state.seats))
    return Draft(ring, 0, 1, ring)


def picks_for(state: State, draft: Draft) -> int:
    """Cards the picker at ``draft.index`` takes: the last of a pass takes two, except in the single
    picks two players alternate after their opening (one card, then two)."""
    last = draft.index == len(draft.order) - 1
    return 2 if last and len(draft.order) > 1 else 1


def next_pass(state: State, draft: Draft) -> Draft:
    ring = draft.ring
    if state.seats == 2:
        # After the opening (one card, then two) the two players alternate single picks.
        nxt = ring[0] if len(draft.order) == 2 else ring[1 - ring.index(draft.order[0])]
        return Draft((nxt,), 0, 1, ring)
    if draft.order[-1] == ring[-1]:
        return Draft(tuple(reversed(ring))[1:], 0, 1, ring)  # back the other way, from the next seat
    return Draft(ring[1:], 0, 1, ring)


def advance(cat: Catalog, state: State, scenario: Scenario, sets: int, ev: list[Event]) -> State:
    """Moves the draft to the next player who still drafts; passes for one who can afford nothing."""
    draft = state.draft
    assert draft is not None
    for _ in range(8 * state.seats + 8):
        if all(side.ready for side in state.sides):
            return evolve(state, draft=None)
        if draft.index + 1 < len(draft.order):
            draft = Draft(draft.order, draft.index + 1, 1, draft.ring)
        else:
            draft = next_pass(state, draft)
        draft = Draft(draft.order, draft.index, picks_for(state, draft), draft.ring)
        seat = draft.order[draft.index]
        if state.sides[seat].ready:
            continue
        if not affordable(cat, state, scenario, seat, sets):
            state = pass_draft(state, seat, "cannot afford another card", ev)
            continue
        return evolve(state, draft=draft)
    return evolve(state, draft=None)


def pass_draft(state: State, seat: int, why: str, ev: list[Event]) -> State:
    ev.append(Event("ArmyComplete", f"{who(state, seat)} {why}: the army is complete", {"seat": seat}))
    side = state.sides[seat]
    return set_side(state, seat, Side(units=side.units, ready=True))


def draft_pick(
    cat: Catalog, state: State, scenario: Scenario, seat: int, card_id: str, sets: int, ev: list[Event]
) -> State:
    draft = state.draft
    assert draft is not None
    picker = draft.order[draft.index]
    if seat != picker:
        fail(f"It is {who(state, picker)}'s pick")
    state = add_card(cat, state, scenario, seat, card_id, sets, ev)
    if draft.picks > 1 and affordable(cat, state, scenario, seat, sets):
        return evolve(state, draft=Draft(draft.order, draft.index, draft.picks - 1, draft.ring))
    return advance(cat, state, scenario, sets, ev)


def start_draft(
    cat: Catalog, state: State, scenario: Scenario, winner: int, sets: int, ev: list[Event]
) -> State:
    draft = first_pass(state, winner)
    ev.append(Event("DraftStarted", f"{who(state, winner)} drafts first", {"seat": winner}))
    state = evolve(state, phase="draft", draft=draft)
    if not affordable(cat, state, scenario, winner, sets):
        state = pass_draft(state, winner, "cannot afford any card", ev)
        return advance(cat, state, scenario, sets, ev)
    return state


# ------------------------------------------------------------------------------------------ setup


def preset_sides(
    cat: Catalog, scenario: Scenario, seats: int, survivors: tuple[str, ...] | None
) -> tuple[Side, ...]:
    sides = []
    for seat in range(seats):
        cards = list(scenario.preset[seat]) if scenario.army == "preset" else []
        if survivors is not None and seat == 0:
            cards = [c for c in cards if c in survivors]
        units = build_units(cat, cards)
        gifts = tuple(replace(u, gift=True) for u in build_units(cat, gifts_of(scenario, seat)))
        sides.append(Side(units=units + gifts, ready=scenario.army == "preset"))
    return tuple(sides)


def gifts_of(scenario: Scenario, seat: int) -> tuple[str, ...]:
    return scenario.gifts[seat] if seat < len(scenario.gifts) else ()


def own_cards(state: State, scenario: Scenario, seat: int) -> list[str]:
    """The cards ``seat`` gathered itself (a scenario's gift, like Waters of Life's Hive, is not one)."""
    return [u.card for u in state.sides[seat].units if not u.gift]


def opening_rolloff(state: State, purpose: str) -> State:
    contenders = tuple(s for s in range(state.seats) if not state.sides[s].out)
    return evolve(state, phase="rolloff", rolloff=RollOff(purpose, contenders))


def players_of(setup: Setup) -> tuple[PlayerId, ...]:
    return tuple(PlayerId(i) for i in range(len(setup.players)))
