"""Turns a card gives another card first, before its own turn: the Marro Hive's Hive Mind ("After
revealing an order marker on this Army Card, you may take a turn with any small or medium Common Marro
Squad you control before taking a turn with Marro Hive") and the Marrden Nagrubs' Hivelord Life Bonding
("Before taking a turn with Marrden Nagrubs, you may first take a turn with any Hivelord you control.
Before moving the chosen Hivelord, you may destroy one adjacent Marrden Nagrub you control ... remove 1
wound marker from the chosen Hivelord's Army Card").

When the revealed card has such a power, its player is asked which card takes the first turn (or none);
that card's turn runs as any turn (``Turn.first``), and ending it starts the revealed card's own turn.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.heroscape.catalog import Catalog, Power
from companion.games.heroscape.combat import destroy, heal
from companion.games.heroscape.common import fail, figure_label, unit_label, who
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import State, evolve, pop

KINDS = ("hive-mind", "life-bonding")
"""Power kinds that give a first turn; each is also the kind of the question asked."""


def offers(cat: Catalog, state: State) -> list[tuple[Power, UnitId]]:
    """(power, card) pairs the turn's revealed card may send first, while nothing went first yet."""
    turn = state.turn
    if turn is None or turn.first is not None or turn.first_offered or turn.marker < 0:
        return []
    own = state.unit(UnitId.parse(turn.unit))
    if own is None or own.negated:
        return []
    out = []
    for power in cat.card(own.card).powers:
        if power.kind not in KINDS:
            continue
        for uid, unit in state.units_of(turn.seat):
            card = cat.card(uid.card)
            if not unit.alive or uid.format() == turn.unit:
                continue
            if power.kind == "hive-mind":
                sizes = tuple(power.params.get("sizes", ("small", "medium")))
                species = str(power.params.get("species", "Marro"))
                fits = card.common and not card.hero and card.size in sizes and card.species == species
            else:
                fits = card.card_class == power.params["class"]
            if fits:
                out.append((power, uid))
    return out


def option(power: Power, uid: UnitId) -> str:
    """The choice's answer: "hive-mind:1:marro-stingers", "hivelord-life-bonding:1:tor-kul-na"."""
    return f"{power.id}:{uid.format()}"


def choose_first(cat: Catalog, state: State, seat: int, answer: str, ev: list[Event]) -> State:
    chosen = {option(p, uid): (p, uid) for p, uid in offers(cat, state)}
    if answer not in chosen:
        fail("Choose one of the cards offered, or decline")
    power, uid = chosen[answer]
    turn = state.turn
    assert turn is not None
    own = unit_label(cat, state, UnitId.parse(turn.unit))
    ev.append(
        Event(
            "FirstTurn",
            f"{power.name}: {who(state, seat)}'s {unit_label(cat, state, uid)} takes a turn before {own}",
            {"unit": uid.format(), "power": power.id},
        )
    )
    first = replace(turn, first=uid.format(), first_power=power.id, first_offered=True, step="move")
    return evolve(pop(state), turn=first)


def declined(state: State) -> State:
    turn = state.turn
    state = pop(state)
    return evolve(state, turn=replace(turn, first_offered=True)) if turn is not None else state


def power_of(cat: Catalog, state: State) -> Power | None:
    """The power that gave the first turn now being taken."""
    turn = state.turn
    if turn is None or turn.first is None:
        return None
    card = cat.card(UnitId.parse(turn.unit).card)
    return next((p for p in card.powers if p.id == turn.first_power), None)


# ------------------------------------------------------------------------ Hivelord Life Bonding


def bonding_power(cat: Catalog, state: State, uid: UnitId, power_id: str) -> Power:
    """The Life Bonding power of ``uid`` if it may be used now: on the Hivelord's first turn it gave,
    before the Hivelord moves, once."""
    turn = state.turn
    assert turn is not None
    power = next(p for p in cat.card(uid.card).powers if p.id == power_id)
    if turn.first is None or turn.first_power != power.id or turn.unit != uid.format():
        fail(f"{power.name} is used on the Hivelord's turn that {cat.card(uid.card).title} give first")
    unit = state.unit(uid)
    if unit is None or unit.negated:
        fail(f"{cat.card(uid.card).title}'s special powers are negated")
    if power.id in turn.powers:
        fail(f"{power.name} was used this turn")
    if turn.step != "move":
        fail(f"{power.name} is used before moving the Hivelord")
    return power


def bonding_targets(state: State, seat: int, card: str) -> list[FigureId]:
    """The figures of ``card`` (any copy) ``seat`` may destroy for Life Bonding (adjacency: declared)."""
    return [uid.figure(n) for uid, unit in state.units_of(seat) if uid.card == card for n in unit.living()]


def life_bonding(
    cat: Catalog, state: State, seat: int, power: Power, uid: UnitId, target: str | None, ev: list[Event]
) -> State:
    """Destroys the chosen adjacent Nagrub and removes wounds from the Hivelord taking the turn."""
    aim = FigureId.parse(target) if target else None
    title = cat.card(uid.card).title
    if aim is None or aim not in bonding_targets(state, seat, uid.card):
        fail(f"{power.name} destroys one of your {title} adjacent to the Hivelord: name it")
    turn = state.turn
    assert turn is not None and turn.first is not None
    hivelord = UnitId.parse(turn.first).figure(1)
    ev.append(
        Event(
            "PowerUsed",
            f"{power.name}: {who(state, seat)} destroys {figure_label(cat, state, aim)} beside "
            f"{figure_label(cat, state, hivelord)}",
            {"power": power.id, "target": aim.format()},
        )
    )
    state = evolve(state, turn=replace(turn, powers=(*turn.powers, power.id)))
    state = destroy(cat, state, aim, ev)
    return heal(cat, state, hivelord, power.number("heals", 1), ev)
