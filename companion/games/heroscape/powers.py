"""Activated special powers: the d20 powers (Dragon Healing, Dragon Swoop, Marro Rebirth) and the
Marro Hive's Hive Mind. Powers that change dice live in ``combat`` (auras, special attacks, Concentrated
Will, terrain bonuses, Thorian Speed); powers of movement only (Flying, tunnels, Grapple Gun) need no
bookkeeping beyond the falls and leaving-engagement attacks they spare or cause.

Timing (the card's words): "before moving" only while the turn's figures have not moved; "after moving
and before attacking" once they have, before any attack; "after taking a turn" when the turn ends.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.heroscape.catalog import Catalog, Power
from companion.games.heroscape.combat import heal, wound
from companion.games.heroscape.common import acting_unit, fail, figure_label, owned_label, who
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import D20, Ask, Figure, State, evolve, pop, push, set_figure


def usable_power(cat: Catalog, state: State, seat: int, power_id: str, unit_text: str) -> Power:
    turn = state.turn
    if state.basic:
        fail("The Basic Game has no special powers")
    if turn is None or turn.step == "ending" or state.stack:
        fail("Powers are used during a turn, when nothing else is waiting")
    if seat != turn.seat:
        fail(f"It is {who(state, turn.seat)}'s turn")
    acting = acting_unit(state)
    uid = UnitId.parse(unit_text)
    unit = state.unit(uid)
    if acting is None or uid != acting or unit is None or not unit.alive:
        fail(f"{unit_text} is not taking this turn")
    power = next((p for p in cat.card(uid.card).powers_of("d20") if p.id == power_id), None)
    if power is None:
        fail(f"{cat.card(uid.card).title} has no power {power_id!r} to use now")
    if unit.negated:
        fail(f"{cat.card(uid.card).title}'s special powers are negated")
    if power.id in turn.powers:
        fail(f"{power.name} was used this turn")
    timing = power.params["timing"]
    if timing == "before-move" and turn.step != "move":
        fail(f"{power.name} is used before moving")
    if timing == "after-move" and turn.attackers:
        fail(f"{power.name} is used after moving and before attacking")
    if timing == "after-turn":
        fail(f"{power.name} is used after the turn: end the turn first")
    return power


def targets(cat: Catalog, state: State, power: Power) -> list[FigureId]:
    """Figures the power may be aimed at (the map decides what is within reach: the players choose)."""
    out = []
    for seat in range(state.seats):
        for uid, unit in state.units_of(seat):
            card = cat.card(uid.card)
            for number in unit.living():
                figure = unit.figures[number - 1]
                if power.params["target"] == "wounded-hero" and not (card.hero and figure.wounds):
                    continue
                out.append(uid.figure(number))
    return out


def use_power(
    cat: Catalog, state: State, seat: int, power_id: str, unit_text: str, target: str | None, ev: list[Event]
) -> State:
    power = usable_power(cat, state, seat, power_id, unit_text)
    aim = FigureId.parse(target) if target else None
    if aim is None or aim not in targets(cat, state, power):
        what = "a wounded Hero" if power.params["target"] == "wounded-hero" else "a figure on the battlefield"
        fail(f"{power.name} needs {what} as its target")
    turn = state.turn
    assert turn is not None
    step = "attack" if power.params["timing"] == "after-move" else turn.step
    state = evolve(state, turn=replace(turn, powers=(*turn.powers, power.id), step=step))
    ev.append(
        Event(
            "PowerUsed",
            f"{power.name} on {owned_label(cat, state, aim)}: "
            f"roll the d20 (it works on {power.number('threshold')} or higher)",
            {"power": power.id, "target": aim.format()},
        )
    )
    return push(state, D20(seat, "power", power.id, unit_text, aim.format(), power.number("threshold")))


def power_rolled(cat: Catalog, state: State, step: D20, value: int, ev: list[Event]) -> State:
    uid = UnitId.parse(step.unit)
    power = next(p for p in cat.card(uid.card).powers if p.id == step.source)
    state = pop(state)
    if value < step.threshold:
        ev.append(Event("PowerFailed", f"{power.name}: {value}, nothing happens", {"roll": value}))
        return state
    effect = power.params["effect"]
    ev.append(Event("PowerWorked", f"{power.name}: {value}, it works", {"roll": value}))
    if effect == "heal":
        return heal(cat, state, FigureId.parse(step.target), power.number("amount", 1), ev)
    if effect == "wound":
        state, _ = wound(cat, state, FigureId.parse(step.target), power.number("amount", 1), ev)
        return state
    cards = rebirth_cards(cat, state, step.seat)
    if len(cards) == 1:
        return revive(cat, state, step.seat, cards[0], ev)
    return push(state, Ask(step.seat, "rebirth", power.id))


# ---------------------------------------------------------------------------------- Marro Rebirth


def rebirth_cards(cat: Catalog, state: State, seat: int) -> list[str]:
    """Common Marro squad cards of ``seat`` with a destroyed figure to bring back."""
    out: list[str] = []
    for uid, unit in state.units_of(seat):
        card = cat.card(uid.card)
        if (
            card.common
            and not card.hero
            and card.species == "Marro"
            and any(not f.alive for f in unit.figures)
        ):
            if uid.card not in out:
                out.append(uid.card)
    return out


def rebirth_offered(cat: Catalog, state: State) -> Power | None:
    """Marro Rebirth, when the turn that just ended was the Hive's and there is someone to bring back."""
    turn = state.turn
    if turn is None:
        return None
    uid = UnitId.parse(turn.unit)
    unit = state.unit(uid)
    power = next((p for p in cat.card(uid.card).powers_of("d20") if p.params["timing"] == "after-turn"), None)
    if (
        unit is None
        or not unit.alive
        or unit.negated
        or power is None
        or not rebirth_cards(cat, state, turn.seat)
    ):
        return None
    return power


def revive(cat: Catalog, state: State, seat: int, card_id: str, ev: list[Event]) -> State:
    for uid, unit in sorted(state.units_of(seat), key=lambda pair: -sum(f.alive for f in pair[1].figures)):
        if uid.card != card_id:
            continue
        for number, figure in enumerate(unit.figures, start=1):
            if not figure.alive and figure.status == "destroyed":
                fid = uid.figure(number)
                state = set_figure(state, fid, Figure())
                ev.append(
                    Event(
                        "FigureReborn",
                        f"{who(state, seat)}'s {figure_label(cat, state, fid)} is reborn beside the Hive",
                        {"figure": fid.format()},
                    )
                )
                return state
    fail(f"{who(state, seat)} has no destroyed {cat.card(card_id).title} to bring back")
