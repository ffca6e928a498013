"""B3 and B4, a leader's other orders: leaving troops behind, building fortresses and mines, destroying a
mine, attacking in his territory (a chief, the neutral troops, a caravan) (rulebook lines 53, 65-67,
109-119)."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too import battle as battles
from companion.games.orcwars_too.common import (
    check_territory,
    enemies_in,
    fail,
    friendly,
    hostile_in,
    leader_of,
    names,
    tidy,
    who,
)
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.places import neutral_units, to_garrison
from companion.games.orcwars_too.state import (
    State,
    Step,
    evolve,
    pop,
    push,
    set_army,
    set_hand,
    set_land,
)

NO_BATTLE = "no battle"


def leave_behind(
    data: GameData, state: State, seat: int, leader: str, units: tuple[str, ...], ev: list[Event]
) -> State:
    army = leader_of(data, state, leader, seat)
    if not units or len(set(units)) != len(units) or any(u not in army.units for u in units):
        fail(f"Name units of {data.name(leader)}'s army to leave behind")
    if not friendly(state, army.territory, seat):
        fail(f"Troops are left behind in a territory {who(state, seat)} controls")
    state = set_army(state, replace(army, units=tuple(u for u in army.units if u not in units)))
    state = to_garrison(state, army.territory, seat, units)
    ev.append(
        Event(
            "LeftBehind",
            f"{data.name(leader)} leaves {names(data, units)} in {data.board.name(army.territory)}",
            {},
        )
    )
    return tidy(data, state, ev)


def build_fortress(
    data: GameData, state: State, seat: int, leader: str, rating: int, ev: list[Event]
) -> State:
    army = leader_of(data, state, leader, seat)
    if rating not in data.rules.fortress_ratings:
        fail(f"Fortress ratings are {', '.join(map(str, data.rules.fortress_ratings))}")
    if army.moved:
        fail(f"{data.name(leader)} has moved this turn: the builder stays put")
    if not army.units or not friendly(state, army.territory, seat):
        fail("A fortress is built in a friendly territory with an army there")
    hand = state.hands[seat]
    if hand.gold < rating:
        fail(f"A fortress of rating {rating} costs {rating} gold; {who(state, seat)} has {hand.gold}")
    land = state.land(army.territory)
    state = set_hand(state, seat, replace(hand, gold=hand.gold - rating))
    state = evolve(state, gold_pile=state.gold_pile + rating)
    state = set_army(state, replace(army, moved=True))
    replaced = f" (the old fortress of rating {land.fortress} is pulled down)" if land.fortress else ""
    ev.append(
        Event(
            "FortressBuilt",
            f"{who(state, seat)} builds a fortress of rating {rating} "
            f"in {data.board.name(army.territory)}{replaced}",
            {},
        )
    )
    return set_land(state, replace(land, fortress=rating))


def build_mine(data: GameData, state: State, seat: int, leader: str, ev: list[Event]) -> State:
    army = leader_of(data, state, leader, seat)
    land = state.land(army.territory)
    held = state.current.held_at_start if state.current is not None else ()
    if not friendly(state, army.territory, seat):
        fail("A mine is built in a friendly territory")
    if land.mine:
        fail("Only one mine is allowed per territory")
    if army.territory not in held:
        fail("A mine needs a friendly unit in the territory for the whole turn")
    ev.append(
        Event("MineBuilt", f"{who(state, seat)} builds a mine in {data.board.name(army.territory)}", {})
    )
    return set_land(state, replace(land, mine=True))


def destroy_mine(data: GameData, state: State, seat: int, territory: str, ev: list[Event]) -> State:
    from companion.games.orcwars_too.economy import own_troops_in

    check_territory(data, territory)
    land = state.land(territory)
    turn = state.current
    if not land.mine or not own_troops_in(data, state, seat, territory):
        fail(f"{who(state, seat)} has no troop at a mine in {data.board.name(territory)}")
    if turn is not None and territory in turn.mines_worked:
        fail("That mine was worked this turn")
    if turn is not None:
        state = evolve(state, current=replace(turn, mines_worked=(*turn.mines_worked, territory)))
    ev.append(
        Event(
            "MineDestroyed",
            f"{who(state, seat)}'s troops destroy the mine of {data.board.name(territory)}",
            {},
        )
    )
    return set_land(state, replace(land, mine=False))


def attack(data: GameData, state: State, seat: int, leader: str, target: str, ev: list[Event]) -> State:
    """A leader's army attacks in its territory: a chief's troops, the neutral troops, or a caravan (after
    the goblinoids are dealt with, each caravan once a turn, line 67)."""
    army = leader_of(data, state, leader, seat)
    here = army.territory
    if data.has_caravan(target):
        caravan = state.caravan(target)
        if caravan is None or data.caravan(target).route[caravan.step] != here:
            fail(f"The {data.name(target)} is not in {data.board.name(here)}")
        if hostile_in(state, here, seat):
            fail("The goblinoids here are fought first; then the caravans")
        if target in army.struck or army.retreated:
            fail(f"{data.name(leader)}'s army cannot attack the {data.name(target)} again this turn")
        ev.append(
            Event("CaravanAttacked", f"{data.name(leader)} attacks the {data.name(target)}", {"chip": target})
        )
        if caravan.power is None:
            return push(state, Step("caravan-power", seat, leader=leader, subject=target))
        return push(state, Step("caravan-battle", seat, leader=leader, subject=target))
    if army.attacked:
        fail(f"{data.name(leader)} has attacked this turn")
    if target == "neutral":
        if not neutral_units(state, here):
            fail(f"No neutral troops stand in {data.board.name(here)}")
        return battles.start(
            data,
            state,
            here,
            battles.army_side(data, state, leader),
            battles.neutral_side(state, here),
            "attack",
            ev,
        )
    foe = int(target.split(":")[1]) if target.startswith("seat:") and target[5:].isdigit() else -1
    if foe not in enemies_in(state, here, seat):
        fail(
            f"Attack a chief with troops in {data.board.name(here)} (seat:N), "
            "the neutral troops or a caravan there"
        )
    defender = battles.player_side(data, state, here, foe)
    return battles.start(data, state, here, battles.army_side(data, state, leader), defender, "attack", ev)


def fight_caravan(data: GameData, state: State, step: Step, ev: list[Event]) -> State:
    """The caravan's treasury is drawn: its battle begins (a caravan of power 0 is no more than an empty
    wagon: it is gone)."""
    from companion.games.orcwars_too.economy import remove_caravan

    state = pop(state)
    caravan = state.caravan(step.subject)
    army = state.army(step.leader)
    if caravan is None or army is None:
        return state
    if not caravan.power:
        ev.append(
            Event("CaravanEmpty", f"The {data.name(step.subject)} has nothing to guard it: it is gone", {})
        )
        return remove_caravan(state, step.subject)
    attacker = battles.army_side(data, state, step.leader)
    defender = battles.caravan_side(state, step.subject)
    return battles.start(data, state, army.territory, attacker, defender, "caravan", ev)
