"""B3, raising troops: levying from the hand (and a leader himself, at home), claiming troops left behind
and neutral troops native to the leader, and the authority checks of control that may turn new troops
into rebels (rulebook lines 53, 59-63, 69, 95-106, 123, 128)."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too import battle as battles
from companion.games.orcwars_too.checks import control_target, passes
from companion.games.orcwars_too.common import (
    claim_control,
    enemies_in,
    fail,
    friendly,
    leader_of,
    names,
    power,
    to_cup,
    troops,
    who,
)
from companion.games.orcwars_too.counters import GameData, Kind
from companion.games.orcwars_too.places import add_to_army, neutral_units, remove_units, to_garrison
from companion.games.orcwars_too.state import (
    NEUTRAL,
    Army,
    OpenLevy,
    State,
    Step,
    evolve,
    pop,
    push,
    set_army,
    set_garrison,
    set_hand,
)

NO_BATTLE = "no battle"


def levy(
    data: GameData,
    state: State,
    seat: int,
    leader: str,
    counters: tuple[str, ...],
    neutrals: bool,
    ev: list[Event],
) -> State:
    """A leader levies chips of the hand (with himself when he is in the hand: at his home) and, with
    ``neutrals``, all the neutral troops of his territory together (line 61).

    A levy stays open while the chief lays its chips beside the leader (``State.levy``): another levy of
    the same leader before anything else happens joins it, and its units not native to him share one
    authority check (the check waiting to be rolled takes them in)."""
    if not data.has_counter(leader) or data.counter(leader).kind is not Kind.LEADER:
        fail(f"{leader!r} is no leader")
    joining = state.levy if state.levy is not None and state.levy.leader == leader else None
    lead = data.counter(leader)
    hand = state.hands[seat]
    army = state.army(leader)
    placing = army is None
    if placing:
        if leader not in hand.counters:
            fail(f"{lead.name} is neither in {who(state, seat)}'s hand nor on the board")
        territory = lead.native
        if enemies_in(state, territory, seat):
            fail(f"{lead.name}'s home, {data.board.name(territory)}, is held by another chief's troops")
    else:
        army = leader_of(data, state, leader, seat)
        territory = army.territory
        if army.levied and joining is None:
            fail(f"{lead.name} has levied this turn")
        if army.arrived and territory != lead.native:
            fail(
                f"{lead.name} was levied this turn: he levies only in his home, "
                f"{data.board.name(lead.native)}"
            )
        if not friendly(state, territory, seat):
            fail(f"Units are levied in a territory {who(state, seat)} controls, or with their leader")
        if not counters and not neutrals:
            fail("Name the units to levy")
    chips = _levy_chips(data, state, seat, army, counters)
    found_neutrals = neutral_units(state, territory) if neutrals else ()
    if neutrals and not found_neutrals:
        fail(f"No neutral troops stand in {data.board.name(territory)}")
    cost = sum(data.counter(c).power for c in chips if data.counter(c).kind is Kind.WAR_MACHINE)
    if cost > hand.gold:
        fail(f"The war machines cost {cost} gold; {who(state, seat)} has {hand.gold}")
    pending = state.top if joining is not None and _levy_check(state.top, leader) else None
    taken = set(chips) | ({leader} if placing else set())
    state = set_hand(
        state,
        seat,
        replace(hand, counters=tuple(c for c in hand.counters if c not in taken), gold=hand.gold - cost),
    )
    state = evolve(state, gold_pile=state.gold_pile + cost)
    before = joining.before if joining else power(data, (leader, *(army.units if army else ())))
    if placing:
        army = Army(leader, seat, territory, arrived=True)
        state = evolve(state, armies=(*state.armies, army))
    assert army is not None
    shaman = next((c for c in chips if data.counter(c).kind is Kind.SHAMAN), None)
    units = tuple(c for c in chips if c != shaman) + found_neutrals
    if found_neutrals:
        garrison = state.garrison(territory, NEUTRAL)
        if garrison is not None and garrison.shaman and not shaman and not army.shaman:
            shaman = garrison.shaman
        elif garrison is not None and garrison.shaman:
            state = to_cup(state, [garrison.shaman])
        state = set_garrison(state, territory, NEUTRAL, (), None)
    army = replace(army, units=tuple(sorted((*army.units, *units))), shaman=army.shaman or shaman)
    army = replace(army, levied=army.levied or bool(units or shaman))
    state = set_army(state, army)
    if (
        units
        and any(data.counter(u).kind is Kind.WAR_MACHINE for u in army.units)
        and not troops(data, army.units)
    ):
        fail("A war machine needs a troop to tow it (no leader may)")
    levied = [*units, *([shaman] if shaman else [])]
    what = f"{lead.name} is levied at {data.board.name(territory)}" if placing else f"{lead.name} levies"
    ev.append(
        Event(
            "Levied",
            f"{who(state, seat)}: {what}"
            + (f" with {names(data, levied)}" if placing and levied else "")
            + ("" if placing else f" {names(data, levied)}"),
            {"seat": seat, "leader": leader, "units": list(levied)},
        )
    )
    state = claim_control(data, state, territory, seat, ev)
    levied_units = (*joining.units, *units) if joining else units
    state = evolve(state, levy=OpenLevy(leader, levied_units, before))
    foreign = (
        *(pending.data if pending else ()),
        *(u for u in units if data.counter(u).native != lead.native),
    )
    if pending is not None:
        state = pop(state)  # the check waiting to be rolled takes in the new units
    if foreign:
        in_fortress = state.land(territory).fortress > 0
        target = control_target(data, leader, army.units, in_fortress, levied_units, before)
        state = push(
            state,
            Step(
                "check",
                seat,
                leader=leader,
                territory=territory,
                subject="levy",
                target=target.value,
                data=tuple(foreign),
            ),
        )
    return state


def _levy_check(step: Step | None, leader: str) -> bool:
    """The step is the authority check of ``leader``'s levy, not yet rolled."""
    return step is not None and step.purpose == "check" and step.subject == "levy" and step.leader == leader


def joins_levy(state: State, leader: str) -> bool:
    """A levy of ``leader`` now joins the one under way (its chips are still being laid)."""
    return state.levy is not None and state.levy.leader == leader


def _levy_chips(
    data: GameData, state: State, seat: int, army: Army | None, counters: tuple[str, ...]
) -> tuple[str, ...]:
    hand = state.hands[seat]
    if len(set(counters)) != len(counters):
        fail("A chip is named twice")
    shamans = 0
    for chip in counters:
        if chip not in hand.counters:
            fail(
                f"{data.name(chip) if data.has_counter(chip) else repr(chip)} is not in "
                f"{who(state, seat)}'s hand"
            )
        kind = data.counter(chip).kind
        if kind in (Kind.LEADER, Kind.SPY):
            fail(
                f"{data.name(chip)} is no unit a leader levies"
                + (" (a leader is levied himself)" if kind is Kind.LEADER else "")
            )
        shamans += kind is Kind.SHAMAN
    if shamans > 1 or (shamans and army is not None and army.shaman):
        fail("No leader may have two shamans")
    return tuple(counters)


def rebels(
    data: GameData, state: State, leader: str, territory: str, foreign: tuple[str, ...], ev: list[Event]
) -> State:
    """Units that would not obey attack the leader (lines 53, 63); his war machine stays his while he has a
    loyal troop (line 123)."""
    army = state.army(leader)
    if army is None:
        return state
    rising = [u for u in foreign if u in army.units]
    loyal = [u for u in army.units if u not in rising]
    if troops(data, loyal):
        rising = [u for u in rising if data.counter(u).kind is not Kind.WAR_MACHINE]
    if not rising:
        return state
    state = remove_units(state, rising)
    state = to_garrison(state, territory, NEUTRAL, rising)
    attacker = battles.Fighter(NEUTRAL, "rebels", units=tuple(sorted(rising)))
    defender = battles.army_side(data, state, leader)
    ev.append(
        Event("Rebellion", f"{names(data, rising)} will not follow {data.name(leader)}: they attack him!", {})
    )
    return battles.start(data, state, territory, attacker, defender, "rebels", ev)


def checked(data: GameData, state: State, step: Step, roll: int, ev: list[Event]) -> State:
    """An authority check of levying, claiming or keeping troops was rolled."""
    ok = passes(data, roll, step.target)
    state = pop(state)
    name = data.name(step.leader)
    if step.subject in ("levy", "claim"):
        said = "they obey" if ok else "they rebel"
        ev.append(Event("Checked", f"{name} rolls {roll} against {step.target}: {said}", {"roll": roll}))
        return state if ok else rebels(data, state, step.leader, step.territory, step.data, ev)
    # "keep": the controller keeps troops native to an arriving leader, or they go over to him (line 69).
    arriving = step.options[0]
    said = "keeps them" if ok else f"loses {names(data, step.data)} to {data.name(arriving)}"
    ev.append(Event("Checked", f"{name} rolls {roll} against {step.target}: {said}", {"roll": roll}))
    if ok or state.army(arriving) is None:
        return state
    state = remove_units(state, step.data)
    return add_to_army(state, arriving, step.data)


def claim(data: GameData, state: State, seat: int, leader: str, ev: list[Event]) -> State:
    """The leader takes his chief's troops left here, and the neutral troops native to him (line 53)."""
    army = leader_of(data, state, leader, seat)
    here, home = army.territory, data.counter(leader).native
    own = state.garrison(here, seat)
    natives = tuple(u for u in neutral_units(state, here) if data.counter(u).native == home)
    if own is None and not natives:
        fail(
            f"No troops of {who(state, seat)}'s, nor neutral troops native to {data.name(leader)}, wait here"
        )
    taken = tuple(own.units if own else ()) + natives
    shaman = own.shaman if own and own.shaman and not army.shaman else None
    if own is not None:
        state = set_garrison(state, here, seat, (), None)
        if own.shaman and not shaman:
            state = to_cup(state, [own.shaman])
    state = remove_units(state, natives)
    state = set_army(
        state, replace(army, units=tuple(sorted((*army.units, *taken))), shaman=army.shaman or shaman)
    )
    ev.append(Event("Claimed", f"{data.name(leader)} claims {names(data, taken)}", {"leader": leader}))
    foreign = tuple(u for u in (own.units if own else ()) if data.counter(u).native != home)
    if foreign:
        in_fortress = state.land(here).fortress > 0
        target = control_target(data, leader, (*army.units, *taken), in_fortress).value
        return push(
            state,
            Step("check", seat, leader=leader, territory=here, subject="claim", target=target, data=foreign),
        )
    return state
