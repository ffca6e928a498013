"""Glyphs: a figure stops on one (the player says which); a permanent glyph works while a figure of that
army stands on it, a temporary one is resolved once and removed from the game.

Permanent (rulebook, Glyphs): Ulaniva (+1 attack die for unique figures attacking normally), Crevcor
(the same for common figures), Wannok (a d20 at the end of every round: 1 wounds the figure on it, 2+
lets its player make an opponent wound one of his own figures), Thorian (normal attacks on the army's
figures must come from adjacent figures), Proftaka (the figure cannot move off unless a friendly figure
is adjacent), Brandar (an artifact: the scenario says). Temporary: Nilrend (choose an opponent's unique
figure, d20 5+: its powers are negated for the game), Ored (d20 10+: remove one random order marker
from an opponent's card).
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.heroscape.catalog import Catalog
from companion.games.heroscape.combat import step_off, wound
from companion.games.heroscape.common import (
    acting_pool,
    fail,
    figure_label,
    opponents,
    refuse_if_trapped,
    unit_label,
    who,
)
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import (
    D20,
    Ask,
    GlyphInPlay,
    Side,
    State,
    evolve,
    pop,
    push,
    set_side,
    set_unit,
)

FRIEND_ADJACENT = "friend-adjacent"


def _number(n: int) -> str:
    return ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")[n] if n <= 8 else str(n)


def glyph_state(state: State, glyph: str) -> GlyphInPlay | None:
    return next((g for g in state.glyphs if g.glyph == glyph), None)


def _set(state: State, updated: GlyphInPlay) -> State:
    others = tuple(g for g in state.glyphs if g.glyph != updated.glyph)
    return evolve(state, glyphs=(*others, updated))


def stop_on_glyph(
    cat: Catalog, state: State, seat: int, fid: FigureId, glyph_id: str, ev: list[Event]
) -> State:
    if state.basic:
        fail("The Basic Game uses no glyphs")
    turn = state.turn
    if turn is None or turn.seat != seat or turn.step != "move" or state.stack:
        fail("A figure stops on a glyph while it moves on its turn, before any attack")
    if fid not in acting_pool(cat, state):
        fail(f"{fid.format()} is not moving this turn")
    if not cat.has_glyph(glyph_id):
        fail(f"There is no glyph {glyph_id!r} (known: {', '.join(g.id for g in cat.glyphs)})")
    glyph = cat.glyph(glyph_id)
    known = glyph_state(state, glyph_id)
    if known is not None and known.removed:
        fail(f"The {glyph.title} was removed from the game")
    if known is not None and known.holder is not None:
        fail(f"{glyph.title} is held by {known.holder}: one figure per glyph")
    refuse_if_trapped(cat, state, fid)
    limit = cat.scenario(state.scenario).glyph_count
    placed = sorted({g.glyph for g in state.glyphs})
    if known is None and limit and len(placed) >= limit:
        titles = ", ".join(cat.glyph(g).title for g in placed)
        fail(f"{cat.scenario(state.scenario).title} places {_number(limit)} glyphs, and {titles} are those")
    name = figure_label(cat, state, fid)
    if cat.card(fid.unit.card).spaces == 1:
        state = step_off(state, fid)  # a one-space figure stands on one glyph at a time
    ev.append(
        Event(
            "GlyphFound",
            f"{name} stops on the {glyph.title} ({glyph.power})",
            {"glyph": glyph_id, "figure": fid.format()},
        )
    )
    if glyph.permanent:
        return _set(state, GlyphInPlay(glyph_id, fid.format()))
    state = _set(state, GlyphInPlay(glyph_id, None, removed=True))  # used once, then out of the game
    if glyph_id == "nilrend":
        if not nilrend_targets(cat, state, seat):
            ev.append(Event("GlyphWasted", "No opponent has a unique figure to negate", {}))
            return state
        return push(state, Ask(seat, "nilrend", glyph_id))
    return push(state, D20(seat, "glyph", glyph_id, threshold=glyph.fails_below))


def leave_glyph(
    cat: Catalog, state: State, seat: int, glyph_id: str, conditions: frozenset[str], ev: list[Event]
) -> State:
    turn = state.turn
    if turn is None or turn.seat != seat or turn.step != "move" or state.stack:
        fail("A figure moves off a glyph while it moves on its own turn")
    held = glyph_state(state, glyph_id)
    if held is None or held.holder is None or FigureId.parse(held.holder).seat != seat:
        fail(f"No figure of {who(state, seat)} stands on that glyph")
    if glyph_id == "proftaka" and FRIEND_ADJACENT not in conditions:
        fail("The Glyph of Proftaka traps its figure: it leaves only with a friendly figure adjacent")
    ev.append(
        Event(
            "GlyphLeft",
            f"{figure_label(cat, state, FigureId.parse(held.holder))} leaves the {cat.glyph(glyph_id).title}",
            {},
        )
    )
    return _set(state, replace(held, holder=None))


def holds(state: State, seat: int, glyph_id: str) -> bool:
    held = glyph_state(state, glyph_id)
    return (
        held is not None
        and held.holder is not None
        and not held.removed
        and FigureId.parse(held.holder).seat == seat
    )


# ------------------------------------------------------------------------------------------ Nilrend


def nilrend_targets(cat: Catalog, state: State, seat: int) -> list[UnitId]:
    return [
        uid
        for other in range(state.seats)
        if opponents(state, seat, other)
        for uid, unit in state.units_of(other)
        if cat.card(uid.card).unique and unit.alive and not unit.negated
    ]


def nilrend_chosen(cat: Catalog, state: State, seat: int, option: str, ev: list[Event]) -> State:
    uid = UnitId.parse(option)
    if uid not in nilrend_targets(cat, state, seat):
        fail("Choose an opponent's unique figure that is not negated yet")
    ev.append(
        Event(
            "NegationAimed",
            f"Glyph of Nilrend: roll the d20 to negate {unit_label(cat, state, uid)} "
            "(it works on 5 or higher)",
            {},
        )
    )
    return push(
        pop(state),
        D20(seat, "glyph", "nilrend", unit=uid.format(), threshold=cat.glyph("nilrend").fails_below),
    )


# ------------------------------------------------------------------------------------------- rolls


def glyph_rolled(cat: Catalog, state: State, step: D20, value: int, ev: list[Event]) -> State:
    glyph = cat.glyph(step.source)
    state = pop(state)
    if value < step.threshold:
        ev.append(Event("GlyphFailed", f"{glyph.title}: {value}, nothing happens", {"roll": value}))
        return state
    if step.source == "nilrend":
        uid = UnitId.parse(step.unit)
        unit = state.unit(uid)
        assert unit is not None
        ev.append(
            Event(
                "Negated",
                f"Glyph of Nilrend: {value}, {unit_label(cat, state, uid)}'s special powers are "
                "negated for the game",
                {},
            )
        )
        return set_unit(state, uid, replace(unit, negated=True))
    cards = ored_targets(state, step.seat)
    if not cards:
        ev.append(Event("GlyphWasted", f"{glyph.title}: {value}, but no opponent's card holds a marker", {}))
        return state
    ev.append(
        Event(
            "OrderIntercepted",
            f"{glyph.title}: {value}, so take a random order marker from an opponent's card",
            {},
        )
    )
    return push(state, Ask(step.seat, "ored", step.source))


def ored_targets(state: State, seat: int) -> list[str]:
    """Opponents' cards holding order markers still in play this round (their backs are on the table)."""
    out = []
    for other in range(state.seats):
        side = state.sides[other]
        if not opponents(state, seat, other) or side.markers is None:
            continue
        for index, unit in enumerate(side.markers):
            live = index == 3 or not side.revealed[index]
            if live and not side.removed[index] and unit not in out:
                out.append(unit)
    return out


def ored_chosen(cat: Catalog, state: State, seat: int, option: str, ev: list[Event]) -> State:
    if option not in ored_targets(state, seat):
        fail("Choose an opponent's card with an order marker on it")
    uid = UnitId.parse(option)
    ev.append(
        Event(
            "MarkerTaken",
            f"{who(state, seat)} takes a marker from {who(state, uid.seat)}'s {unit_label(cat, state, uid)}",
            {"unit": option},
        )
    )
    return push(pop(state), Ask(uid.seat, "lose-marker", "ored", subject=option))


def marker_lost(state: State, seat: int, marker: str, ev: list[Event]) -> State:
    """The victim says which marker was taken (secret: from their own phone)."""
    step = state.top
    assert isinstance(step, Ask) and step.purpose == "lose-marker"
    side = state.sides[seat]
    index = "123X".index(marker)
    if side.markers is None or side.markers[index] != step.subject or side.removed[index]:
        fail("That marker does not lie on that card")
    if index < 3 and side.revealed[index]:
        fail("That marker was revealed already: take a face-down one")
    removed = tuple(True if i == index else r for i, r in enumerate(side.removed))
    state = set_side(
        state, seat, Side(side.units, side.ready, side.markers, side.revealed, removed, side.out)
    )
    ev.append(Event("MarkerLost", f"{who(state, seat)} has named the marker taken", {"seat": seat}))
    return pop(state)


# ------------------------------------------------------------------------------------------ Wannok


def wannok_rolls(state: State) -> list[D20]:
    held = glyph_state(state, "wannok")
    if held is None or held.holder is None or held.removed:
        return []
    return [D20(FigureId.parse(held.holder).seat, "wannok", "wannok", target=held.holder, threshold=2)]


def wannok_rolled(cat: Catalog, state: State, step: D20, value: int, ev: list[Event]) -> State:
    state = pop(state)
    if value < step.threshold:
        ev.append(Event("WannokBites", f"Glyph of Wannok: {value}, the figure on it is wounded", {}))
        state, _ = wound(cat, state, FigureId.parse(step.target), 1, ev)
        return state
    ev.append(
        Event(
            "WannokServes",
            f"Glyph of Wannok: {value}, so {who(state, step.seat)} may choose an opponent "
            "to wound one of his figures",
            {},
        )
    )
    return push(state, Ask(step.seat, "wannok", "wannok"))


def wannok_victims(state: State, seat: int) -> list[int]:
    return [o for o in range(state.seats) if opponents(state, seat, o) and state.has_figures(o)]


def wannok_chosen(state: State, seat: int, option: str, ev: list[Event]) -> State:
    victim = int(option) if option.isdigit() else -1
    if victim not in wannok_victims(state, seat):
        fail("Choose an opponent with figures on the battlefield")
    ev.append(Event("WannokVictim", f"{who(state, victim)} must wound one of his own figures", {}))
    return push(pop(state), Ask(victim, "wannok-wound", "wannok"))
