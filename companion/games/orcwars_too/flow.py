"""What the game waits for, and the steps that need nobody: a battle's automatic parts (the reveal, the
loser by the rule, the end), a caravan's battle once its treasury is drawn, the turn's own course."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too import aftermath, battle, moves, orders, outcome, turns
from companion.games.orcwars_too.battle import Need
from companion.games.orcwars_too.common import by_identity
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.state import State, evolve, pop

STEPS = 200


@by_identity()
def battle_need(data: GameData, state: State) -> Need | None:
    """What the battle under way waits for (None: no battle, or it can be finished)."""
    fight = state.battle
    if fight is None:
        return None
    found = battle.need(data, state, fight)
    if found is not None:
        return found
    return aftermath.need(data, state, fight)


def settle(data: GameData, state: State, ev: list[Event]) -> State:
    for _ in range(STEPS):
        before = state
        state = _step(data, state, ev)
        if state is before or state == before:
            return state
    return state


def _step(data: GameData, state: State, ev: list[Event]) -> State:
    if state.finished:
        return state
    top = state.top
    if top is not None:
        if top.purpose == "caravan-battle" and state.battle is None:
            return orders.fight_caravan(data, state, top, ev)
        if top.purpose == "gold" and not state.gold_pile and not state.caravan_pile:
            ev.append(Event("GoldPileEmpty", "The gold pile is empty: no gold to draw", {"seat": top.seat}))
            return pop(state)
        if top.purpose == "draw" and not state.cup:
            ev.append(Event("CupEmpty", "The tribe cup is empty: no chip to draw", {"seat": top.seat}))
            return pop(state)
        return state
    fight = state.battle
    if fight is not None:
        need = battle_need(data, state)
        if need is None:
            mover = fight.mover if fight.origin == "enter" else ""
            state = outcome.finish(data, state, ev)
            if mover:
                state = moves.engage(data, state, mover, ev, ask=False)
            return state
        if need.kind == "reveal":
            return evolve(state, battle=battle.reveal(data, state, fight, ev))
        if need.kind == "settle-loser":
            return evolve(state, battle=replace(fight, loser=need.subject))
        return state
    return turns.settle(data, state, ev)
