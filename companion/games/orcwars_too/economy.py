"""Gold and caravans: drawing gold chips, caravans placed and moving, a caravan's power when first attacked,
rampage in the outlands, mines, and spies.

Rulebook lines 13-35 (caravans each turn), 75-79 and 118 (rampage and mines), 90-93 (carrying gold; a
caravan drawn with gold is kept and another chip drawn, unless a mine produced it), 140-145 (a caravan's
power and treasury). A gold draw is a step: the table draws one chip at a time and says which ("gold" or a
caravan), and the step knows where the gold goes.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too.actions import GOLD
from companion.games.orcwars_too.checks import control_target, passes, plain_target
from companion.games.orcwars_too.common import (
    fail,
    gold,
    leader_of,
    names,
    plural,
    troops,
    who,
)
from companion.games.orcwars_too.counters import GameData, Kind
from companion.games.orcwars_too.state import (
    Caravan,
    State,
    Step,
    evolve,
    pop,
    push,
    set_army,
    set_caravan,
    set_hand,
)

HAND = "hand"
SETUP_HAND = "setup"
ARMY = "army"
TREASURY = "treasury"
MINE = "mine"


def gold_step(
    seat: int, count: int, to: str, leader: str = "", subject: str = "", mine: bool = False
) -> Step:
    """``count`` gold chips to draw for ``seat`` into ``to`` (a hand, a purse, a caravan's treasury)."""
    return Step(
        "gold", seat, leader=leader, subject=subject, count=count, options=(to,), data=(MINE,) if mine else ()
    )


def draw_gold(data: GameData, state: State, step: Step, seat: int, chip: str, ev: list[Event]) -> State:
    """One chip drawn for the gold step on top of the stack."""
    to = step.options[0]
    mine = MINE in step.data
    if chip == GOLD:
        if state.gold_pile <= 0:
            fail("The gold pile is empty")
        state = evolve(state, gold_pile=state.gold_pile - 1)
        state = _gold_to(data, state, step, to, ev)
        return _next_chip(state, step, 1)
    if chip not in state.caravan_pile:
        fail(
            f"{data.name(chip)} is not in the gold pile"
            if data.has_caravan(chip)
            else f"{chip!r} is no gold chip"
        )
    state = evolve(state, caravan_pile=tuple(c for c in state.caravan_pile if c != chip))
    if to == SETUP_HAND:
        state = place_caravan(data, state, chip, ev, move=False, seat=step.seat)
    else:
        keeper = step.seat
        if to == TREASURY and data.rules.rumours_go_to == "pile":
            state = evolve(state, caravan_pile=tuple(sorted((*state.caravan_pile, chip))))
            ev.append(
                Event("Rumour", f"{data.name(chip)} was a rumour: back into the gold pile", {"chip": chip})
            )
            return _next_chip(state, step, 0)
        hand = state.hands[keeper]
        state = set_hand(state, keeper, replace(hand, caravans=(*hand.caravans, chip)))
        what = "hears a rumour of" if to == TREASURY else "draws"
        ev.append(
            Event(
                "CaravanDrawn",
                f"{who(state, keeper)} {what} the {data.name(chip)}: placed at his next B1",
                {"seat": keeper, "chip": chip},
            )
        )
    # A caravan drawn with gold is replaced by another chip, unless a mine produced it (line 93).
    return _next_chip(state, step, 1 if mine else 0)


def _next_chip(state: State, step: Step, used: int) -> State:
    left = step.count - used
    state = pop(state)
    if left > 0 and (state.gold_pile > 0 or state.caravan_pile):
        return push(state, replace(step, count=left))
    return state


def _gold_to(data: GameData, state: State, step: Step, to: str, ev: list[Event]) -> State:
    if to in (HAND, SETUP_HAND):
        hand = state.hands[step.seat]
        ev.append(Event("GoldDrawn", f"{who(state, step.seat)} draws a gold", {"seat": step.seat}))
        return set_hand(state, step.seat, replace(hand, gold=hand.gold + 1))
    if to == TREASURY:
        caravan = state.caravan(step.subject)
        assert caravan is not None
        return set_caravan(state, replace(caravan, treasury=caravan.treasury + 1))
    army = state.army(step.leader)
    if army is None:
        return evolve(state, gold_pile=state.gold_pile + 1)  # the leader fell meanwhile: the gold is lost
    ev.append(Event("GoldTaken", f"{data.name(army.leader)}'s army takes a gold", {"leader": army.leader}))
    return set_army(state, replace(army, gold=army.gold + 1))


# -------------------------------------------------------------------------------------------- caravans


def place_caravan(data: GameData, state: State, chip: str, ev: list[Event], move: bool, seat: int) -> State:
    """A caravan chip laid on its starting point (and moved one step, at B1)."""
    route = data.caravan(chip).route
    state = evolve(state, caravans=(*state.caravans, Caravan(chip, 0)))
    ev.append(
        Event(
            "CaravanPlaced",
            f"{who(state, seat)} places the {data.name(chip)} at {data.board.name(route[0])}",
            {"chip": chip, "territory": route[0]},
        )
    )
    return advance_caravan(data, state, chip, ev) if move else state


def place_caravans(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    """B1: every unplaced caravan of the seat placed and moved one step toward its destination."""
    for chip in state.hands[seat].caravans:
        hand = state.hands[seat]
        state = set_hand(state, seat, replace(hand, caravans=tuple(c for c in hand.caravans if c != chip)))
        state = place_caravan(data, state, chip, ev, move=True, seat=seat)
    return state


def caravan_territory(data: GameData, caravan: Caravan) -> str:
    return data.caravan(caravan.chip).route[caravan.step]


def advance_caravan(data: GameData, state: State, chip: str, ev: list[Event]) -> State:
    """One step toward its destination; a caravan that arrives leaves the board, its treasury with it."""
    caravan = state.caravan(chip)
    assert caravan is not None
    route = data.caravan(chip).route
    step = min(caravan.step + 1, len(route) - 1)
    if step == len(route) - 1:
        ev.append(
            Event(
                "CaravanArrived",
                f"The {data.name(chip)} reaches {data.board.name(route[-1])} and leaves the board",
                {"chip": chip},
            )
        )
        return remove_caravan(state, chip)
    ev.append(
        Event(
            "CaravanMoved",
            f"The {data.name(chip)} moves on to {data.board.name(route[step])}",
            {"chip": chip, "territory": route[step]},
        )
    )
    return set_caravan(state, replace(caravan, step=step))


def remove_caravan(state: State, chip: str) -> State:
    caravan = state.caravan(chip)
    assert caravan is not None
    return evolve(
        state,
        caravans=tuple(c for c in state.caravans if c.chip != chip),
        caravan_pile=tuple(sorted((*state.caravan_pile, chip))),
        gold_pile=state.gold_pile + caravan.treasury,
    )


def move_caravans(data: GameData, state: State, ev: list[Event]) -> State:
    """Turn step A: every caravan on the board moves one step."""
    for caravan in state.caravans:
        state = advance_caravan(data, state, caravan.chip, ev)
    return state


def caravan_power_rolled(data: GameData, state: State, step: Step, face: int, ev: list[Event]) -> State:
    """The d6 of a caravan first attacked (and the second d6 after a 6): its power and treasury."""
    table = data.rules.caravan_power
    chip = step.subject
    if not step.rolls and table[face - 1] < 0:
        ev.append(Event("CaravanPower", f"The {data.name(chip)}: {face}, roll again (power d6 - 1)", {}))
        return push(pop(state), replace(step, rolls=(face,)))
    strength = face - 1 if step.rolls else table[face - 1]
    caravan = state.caravan(chip)
    assert caravan is not None
    state = set_caravan(pop(state), replace(caravan, power=strength))
    ev.append(
        Event(
            "CaravanPower",
            f"The {data.name(chip)} has power {strength}: {plural(strength, 'gold chit')} for its treasury",
            {"chip": chip, "power": strength},
        )
    )
    # The battle (a marker step the engine starts by itself) waits beneath the treasury's draws.
    state = push(state, Step("caravan-battle", step.seat, leader=step.leader, subject=chip))
    if strength > 0:
        state = push(state, gold_step(step.seat, strength, TREASURY, step.leader, chip))
    return state


# ------------------------------------------------------------------------------------- rampage, mines


def rampage(
    data: GameData, state: State, seat: int, leader: str, with_leader: bool, ev: list[Event]
) -> State:
    army = leader_of(data, state, leader, seat)
    territory = data.board.territory(army.territory)
    if territory.orcland:
        fail(f"{data.name(leader)} is in an orcland: armies rampage in the outlands")
    if army.rampaged:
        fail(f"{data.name(leader)} has rampaged this turn")
    if not with_leader and not army.units:
        fail(f"{data.name(leader)} has no army to rampage without him")
    state = set_army(state, replace(army, rampaged=True))
    ev.append(
        Event(
            "Rampage",
            f"{data.name(leader)} {'and his army rampage' if with_leader and army.units else 'rampages'} "
            f"through {territory.name}"
            if with_leader
            else f"{data.name(leader)}'s army rampages through {territory.name}",
            {"leader": leader},
        )
    )
    # The leader's check is rolled first: the army's is pushed beneath it.
    if army.units:
        target = control_target(data, leader, army.units, False)
        state = push(
            state,
            Step("check", seat, leader=leader, subject="rampage-army", target=target.value, data=army.units),
        )
    if with_leader:
        state = push(
            state,
            Step(
                "check",
                seat,
                leader=leader,
                subject="rampage-leader",
                target=plain_target(data, leader).value,
            ),
        )
    return state


def rampage_checked(data: GameData, state: State, step: Step, roll: int, ev: list[Event]) -> State:
    ok = passes(data, roll, step.target)
    name = data.name(step.leader)
    state = pop(state)
    if step.subject == "rampage-leader":
        ev.append(
            Event("Checked", f"{name} rolls {roll} against {step.target}: {'gold!' if ok else 'nothing'}", {})
        )
        return push(state, gold_step(step.seat, 1, ARMY, step.leader)) if ok else state
    if ok:
        ev.append(Event("Checked", f"{name}'s army rolls {roll} against {step.target}: gold!", {}))
        return push(state, gold_step(step.seat, 1, ARMY, step.leader))
    army = state.army(step.leader)
    ev.append(
        Event("Checked", f"{name} rolls {roll} against {step.target}: a unit runs off with the gold", {})
    )
    if army is None or not army.units:
        return state
    return push(state, Step("runaway", step.seat, leader=step.leader, options=army.units))


def ran_away(data: GameData, state: State, step: Step, unit: str, ev: list[Event]) -> State:
    """The unit drawn at random from the army runs back to the chief's hand with the gold (line 77)."""
    army = state.army(step.leader)
    if unit not in step.options or army is None or unit not in army.units:
        fail(f"Pick one of {names(data, step.options)}")
    hand = state.hands[step.seat]
    state = set_army(pop(state), replace(army, units=tuple(u for u in army.units if u != unit)))
    state = set_hand(state, step.seat, replace(hand, counters=(*hand.counters, unit)))
    ev.append(
        Event(
            "RanAway",
            f"{data.name(unit)} runs back to {who(state, step.seat)}'s hand with the gold",
            {"unit": unit},
        )
    )
    return push(state, gold_step(step.seat, 1, HAND))


def working_mines(data: GameData, state: State, seat: int) -> list[str]:
    """Mines that produce for the seat this turn: a troop of his there now, a unit of his there all turn."""
    turn = state.current
    held = turn.held_at_start if turn is not None else ()
    out = []
    for land in state.lands:
        if (
            not land.mine
            or land.territory not in held
            or land.territory in (turn.mines_worked if turn else ())
        ):
            continue
        if own_troops_in(data, state, seat, land.territory):
            out.append(land.territory)
    return out


def own_troops_in(data: GameData, state: State, seat: int, territory: str) -> list[str]:
    found: list[str] = []
    for army in state.armies_in(territory):
        if army.owner == seat:
            found += troops(data, army.units)
    garrison = state.garrison(territory, seat)
    return found + troops(data, garrison.units if garrison else ())


def produce_mines(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    """End of B4: each working mine draws one gold chip for the chief's hand (a caravan: not replaced)."""
    mines = working_mines(data, state, seat)
    for territory in mines:
        ev.append(
            Event(
                "MineWorked", f"The mine of {data.board.name(territory)} produces for {who(state, seat)}", {}
            )
        )
        state = push(state, gold_step(seat, 1, HAND, mine=True))
    return state


def spy_used(
    data: GameData, state: State, seat: int, spy: str, use_id: str, target: int, ev: list[Event]
) -> State:
    """A spy of the hand used and discarded (line 73: the list of uses is missing; data/rules.toml)."""
    hand = state.hands[seat]
    if spy not in hand.counters or data.counter(spy).kind is not Kind.SPY:
        fail(f"{who(state, seat)} holds no spy {spy!r}")
    use = data.rules.spy_use(use_id)
    if use is None:
        fail(f"Spies can: {', '.join(u.id for u in data.rules.spy_uses)}")
    if use.effect == "steal-gold" and not (0 <= target < state.seats and target != seat):
        fail("Name the chief whose gold the spy steals")
    state = set_hand(state, seat, replace(hand, counters=tuple(c for c in hand.counters if c != spy)))
    state = evolve(state, cup=tuple(sorted((*state.cup, spy))))
    if use.effect == "steal-gold":
        victim = state.hands[target]
        taken = min(use.amount, victim.gold)
        state = set_hand(state, target, replace(victim, gold=victim.gold - taken))
        thief = state.hands[seat]
        state = set_hand(state, seat, replace(thief, gold=thief.gold + taken))
        ev.append(
            Event(
                "SpyUsed",
                f"{who(state, seat)}'s spy steals {gold(taken)} from {who(state, target)}",
                {"seat": seat, "target": target, "use": use.id},
            )
        )
        return state
    ev.append(Event("SpyUsed", f"{who(state, seat)} uses a spy: {use.label}", {"seat": seat, "use": use.id}))
    return state
