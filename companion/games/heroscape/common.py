"""Small rules helpers every HeroScape module shares: names for people, sides and teams, the figures
that may act this turn."""

from __future__ import annotations

from typing import NoReturn

from companion.engine import IllegalActionError, MalformedActionError
from companion.games.heroscape.catalog import ArmyCard, Catalog
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import State, Unit


def fail(message: str) -> NoReturn:
    raise IllegalActionError(message)


def malformed(message: str) -> NoReturn:
    raise MalformedActionError(message)


def unit_id(text: str) -> UnitId:
    return UnitId.parse(text)


def figure_id(text: str) -> FigureId:
    return FigureId.parse(text)


def card_of(cat: Catalog, uid: UnitId) -> ArmyCard:
    return cat.card(uid.card)


def who(state: State, seat: int) -> str:
    return state.names[seat] if 0 <= seat < state.seats else f"P{seat + 1}"


def unit_label(cat: Catalog, state: State, uid: UnitId) -> str:
    """How people name an army card in play: "Marro Stingers" or, with two, "Marro Stingers (2)"."""
    card = cat.card(uid.card)
    if card.unique or uid.seat >= state.seats:
        return card.title  # an army holds one of a Unique card
    twins = sum(1 for u in state.sides[uid.seat].units if u.card == uid.card)
    return f"{card.title} ({uid.copy})" if twins > 1 else card.title


def figure_label(cat: Catalog, state: State, fid: FigureId) -> str:
    """ "Shiori", "Stingers 2" (figures of a squad counted across its cards: the second card's are 4-6)."""
    card = cat.card(fid.unit.card)
    if card.hero:
        return card.short
    return f"{card.short} {(fid.unit.copy - 1) * card.figures + fid.number}"


def owned_label(cat: Catalog, state: State, fid: FigureId) -> str:
    return f"{who(state, fid.seat)}'s {figure_label(cat, state, fid)}"


def team_of(state: State, seat: int) -> int:
    return state.teams[seat] if seat < len(state.teams) else seat


def opponents(state: State, a: int, b: int) -> bool:
    """Different teams (teammates are not opponents)."""
    return team_of(state, a) != team_of(state, b)


def living_figures(state: State, seat: int) -> list[FigureId]:
    out = []
    for uid, unit in state.units_of(seat):
        out.extend(uid.figure(n) for n in unit.living())
    return out


def all_living(state: State) -> list[FigureId]:
    out: list[FigureId] = []
    for seat in range(state.seats):
        out.extend(living_figures(state, seat))
    return out


def power_active(cat: Catalog, unit: Unit, kind: str) -> bool:
    """The unit's card has a power of this kind and no Negation Marker lies on it."""
    return not unit.negated and cat.card(unit.card).power(kind) is not None


def acting_unit(state: State) -> UnitId | None:
    """The army card the turn's figures come from (a Hive Mind squad while it takes its turn)."""
    turn = state.turn
    if turn is None:
        return None
    return unit_id(turn.first or turn.unit)


def acting_pool(cat: Catalog, state: State) -> list[FigureId]:
    """The figures that may act this turn: the turn card's living figures; for a common card of which
    the army holds several, any of that card's figures (an order marker on either activates them)."""
    uid = acting_unit(state)
    if uid is None:
        return []
    card = cat.card(uid.card)
    if card.unique:
        unit = state.unit(uid)
        return [uid.figure(n) for n in unit.living()] if unit is not None else []
    return [
        other.figure(n)
        for other, unit in state.units_of(uid.seat)
        if other.card == uid.card
        for n in unit.living()
    ]


def markers_left(state: State, seat: int, unit: str) -> int:
    """Unrevealed order markers still lying on ``unit`` this round (X included)."""
    side = state.sides[seat]
    if side.markers is None:
        return 0
    count = 0
    for index, placed in enumerate(side.markers):
        if placed != unit or side.removed[index]:
            continue
        if index == 3 or not side.revealed[index]:
            count += 1
    return count


def trapped(state: State, fid: FigureId) -> bool:
    """``fid`` stands on the Glyph of Proftaka: it cannot move until it leaves it (with a friend adjacent)."""
    me = fid.format()
    return any(g.glyph == "proftaka" and g.holder == me and not g.removed for g in state.glyphs)


def refuse_if_trapped(cat: Catalog, state: State, fid: FigureId) -> None:
    if trapped(state, fid):
        fail(
            f"{figure_label(cat, state, fid)} is trapped on the Glyph of Proftaka: it moves off it only with "
            "a friendly figure adjacent (declare that it leaves the glyph first)"
        )
