"""Activated special powers: the d20 powers (Dragon Healing, Dragon Swoop, Trample Stomp, Stinger Drain,
Marro Rebirth) and Hivelord Life Bonding's sacrifice; the turns some cards give first (Hive Mind,
Hivelord Life Bonding) are ``first_turns``. Powers that change dice live in ``combat`` (auras, special
attacks, Concentrated Will, terrain bonuses, Thorian Speed, Climb X2's falls); powers of movement only
(Flying, tunnels, Grapple Arm) need no bookkeeping beyond the falls and leaving-engagement attacks they
spare or cause.

Timing (the card's words): "before moving" only while the turn's figures have not moved; "at any point
while moving" until their movement ends; "after moving and before attacking" once they have, before any
attack; "after taking a turn" when the turn ends.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.heroscape import first_turns
from companion.games.heroscape.catalog import Catalog, Power
from companion.games.heroscape.combat import destroy, heal, wound
from companion.games.heroscape.common import (
    acting_pool,
    acting_unit,
    fail,
    figure_label,
    owned_label,
    refuse_if_trapped,
    who,
)
from companion.games.heroscape.ids import FigureId, UnitId
from companion.games.heroscape.state import D20, Ask, Figure, State, evolve, pop, push, set_figure

TARGETS = {
    "wounded-hero": "a wounded Hero",
    "any-figure": "a figure on the battlefield",
    "small-or-medium": "a small or medium figure on the battlefield",
}


def usable_power(cat: Catalog, state: State, seat: int, power_id: str, unit_text: str) -> Power:
    turn = state.turn
    if state.basic:
        fail("The Basic Game has no special powers")
    if turn is None or turn.step == "ending" or state.stack:
        fail("Powers are used during a turn, when nothing else is waiting")
    if seat != turn.seat:
        fail(f"It is {who(state, turn.seat)}'s turn")
    uid = UnitId.parse(unit_text)
    if any(p.id == power_id and p.kind == "life-bonding" for p in cat.card(uid.card).powers):
        return first_turns.bonding_power(cat, state, uid, power_id)
    acting = acting_unit(state)
    unit = state.unit(uid)
    if acting is None or uid != acting or unit is None or not unit.alive:
        fail(f"{unit_text} is not taking this turn")
    power = next((p for p in cat.card(uid.card).powers_of("d20") if p.id == power_id), None)
    if power is None:
        fail(f"{cat.card(uid.card).title} has no power {power_id!r} to use now")
    if unit.negated:
        fail(f"{cat.card(uid.card).title}'s special powers are negated")
    if power.id in turn.powers and not power.params.get("repeat"):
        fail(f"{power.name} was used this turn")
    timing = power.params["timing"]
    if timing == "before-move" and turn.step != "move":
        fail(f"{power.name} is used before moving")
    if timing == "while-moving":
        if turn.step != "move":
            fail(f"{power.name} is used while moving, and the movement has ended")
        for fid in acting_pool(cat, state):
            refuse_if_trapped(cat, state, fid)
    if timing == "after-move" and turn.attackers:
        fail(f"{power.name} is used after moving and before attacking")
    if timing == "after-turn":
        fail(f"{power.name} is used after the turn: end the turn first")
    return power


def targets(cat: Catalog, state: State, power: Power) -> list[FigureId]:
    """Figures the power may be aimed at (the map decides what is within reach: the players choose)."""
    aim = power.params["target"]
    if aim == "none":
        return []
    out = []
    for seat in range(state.seats):
        for uid, unit in state.units_of(seat):
            card = cat.card(uid.card)
            if aim == "small-or-medium" and card.size not in ("small", "medium"):
                continue
            for number in unit.living():
                figure = unit.figures[number - 1]
                if aim == "wounded-hero" and not (card.hero and figure.wounds):
                    continue
                out.append(uid.figure(number))
    return out


def use_power(
    cat: Catalog, state: State, seat: int, power_id: str, unit_text: str, target: str | None, ev: list[Event]
) -> State:
    power = usable_power(cat, state, seat, power_id, unit_text)
    if power.kind == "life-bonding":
        return first_turns.life_bonding(cat, state, seat, power, UnitId.parse(unit_text), target, ev)
    aim = FigureId.parse(target) if target else None
    if power.params["target"] == "none":
        if aim is not None:
            fail(f"{power.name} needs no target")
    elif aim is None or aim not in targets(cat, state, power):
        fail(f"{power.name} needs {TARGETS[power.params['target']]} as its target")
    turn = state.turn
    assert turn is not None
    step = "attack" if power.params["timing"] == "after-move" else turn.step
    state = evolve(state, turn=replace(turn, powers=(*turn.powers, power.id), step=step))
    on = f" on {owned_label(cat, state, aim)}" if aim is not None else ""
    ev.append(
        Event(
            "PowerUsed",
            f"{power.name}{on}: roll the d20 ({works_on(power)})",
            {"power": power.id, "target": aim.format() if aim else None},
        )
    )
    return push(
        state,
        D20(seat, "power", power.id, unit_text, aim.format() if aim else "", power.number("threshold")),
    )


def works_on(power: Power) -> str:
    """What the d20 does, in the prompt's words."""
    threshold = power.number("threshold")
    effect = power.params["effect"]
    if effect == "drain":
        return (
            f"1-{power.number('fails_to')}: a Stinger is destroyed and none attacks this turn; "
            f"{threshold} or higher: +{power.number('bonus')} attack"
        )
    if effect == "trample":
        return f"{threshold} or higher wounds it; lower, and the movement ends"
    return f"it works on {threshold} or higher"


def power_rolled(cat: Catalog, state: State, step: D20, value: int, ev: list[Event]) -> State:
    uid = UnitId.parse(step.unit)
    power = next(p for p in cat.card(uid.card).powers if p.id == step.source)
    state = pop(state)
    effect = power.params["effect"]
    if effect == "drain":
        return _drained(cat, state, step.seat, power, uid, value, ev)
    if effect == "trample":
        return _trampled(cat, state, power, uid, FigureId.parse(step.target), value, ev)
    if value < step.threshold:
        ev.append(Event("PowerFailed", f"{power.name}: {value}, nothing happens", {"roll": value}))
        return state
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


def _end_movement(state: State) -> State:
    turn = state.turn
    return evolve(state, turn=replace(turn, step="attack")) if turn is not None else state


def _trampled(
    cat: Catalog, state: State, power: Power, uid: UnitId, aim: FigureId, value: int, ev: list[Event]
) -> State:
    """Trample Stomp: below the threshold the figure is safe and the movement ends; from it, a wound,
    and the stomper moves on only if the wound destroyed the figure (its space is his)."""
    stomper = cat.card(uid.card).short
    name = owned_label(cat, state, aim)
    if value < power.number("threshold"):
        ev.append(
            Event("PowerFailed", f"{power.name}: {value}, {name} is safe; {stomper}'s movement ends", {})
        )
        return _end_movement(state)
    ev.append(Event("PowerWorked", f"{power.name}: {value}, {name} is wounded", {"roll": value}))
    state, destroyed = wound(cat, state, aim, power.number("amount", 1), ev)
    if destroyed:
        ev.append(Event("Trampled", f"{stomper} moves onto its space and moves on", {}))
        return state
    ev.append(Event("MovementEnded", f"{name} stands: {stomper}'s movement ends", {}))
    return _end_movement(state)


def _drained(
    cat: Catalog, state: State, seat: int, power: Power, uid: UnitId, value: int, ev: list[Event]
) -> State:
    """Stinger Drain: a low roll costs a Stinger (its player chooses which) and the turn's attacks; a
    high one adds to the turn's attack."""
    turn = state.turn
    assert turn is not None
    card = cat.card(uid.card)
    if value <= power.number("fails_to"):
        ev.append(
            Event(
                "PowerFailed",
                f"{power.name}: {value}, {who(state, seat)} must destroy one of his {card.title} and they "
                "cannot attack this turn",
                {"roll": value},
            )
        )
        state = evolve(state, turn=replace(turn, no_attack=True))
        victims = drain_victims(state, seat, uid.card)
        if len(victims) == 1:
            return destroy(cat, state, victims[0], ev)
        return push(state, Ask(seat, "drain-destroy", power.id, subject=uid.card)) if victims else state
    bonus = power.number("bonus") if value >= power.number("threshold") else 0
    ev.append(
        Event("PowerWorked", f"{power.name}: {value}, +{bonus} to the {card.title}' attack", {"roll": value})
    )
    return evolve(state, turn=replace(turn, attack_bonus=turn.attack_bonus + bonus)) if bonus else state


def drain_victims(state: State, seat: int, card: str) -> list[FigureId]:
    """The figures of ``card`` that ``seat`` controls, any of which Stinger Drain may cost."""
    return [uid.figure(n) for uid, unit in state.units_of(seat) if uid.card == card for n in unit.living()]


def drain_chosen(cat: Catalog, state: State, seat: int, card: str, option: str, ev: list[Event]) -> State:
    fid = FigureId.parse(option)
    if fid not in drain_victims(state, seat, card):
        fail(f"Choose one of your {cat.card(card).title} on the battlefield")
    return destroy(cat, pop(state), fid, ev)


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
