"""What every ORCWARS TOO! rule asks of the position: names, who is where, friend and foe, power, control.

``tidy`` applies the rules that hold at every moment (rulebook lines 55, 57, 90-92, 123): troops without a
leader in a territory not their chief's are destroyed, a war machine without a troop to tow it is
destroyed, a lonely leader carries one gold at most, and gold reaching the chief's own land goes to his hand.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, NoReturn, TypeVar

from companion.engine import Event, IllegalActionError, MalformedActionError
from companion.games.orcwars_too.counters import GameData, Kind
from companion.games.orcwars_too.state import (
    NEUTRAL,
    Army,
    Land,
    State,
    evolve,
    set_army,
    set_garrison,
    set_hand,
    set_land,
)

F = TypeVar("F", bound=Callable[..., Any])


def by_identity(size: int = 8) -> Callable[[F], F]:
    """Remembers a pure function of (data, value, *names) for the last ``size`` values it was asked about,
    by identity: positions and battles are immutable, and one is asked the same question many times over
    (the prompt, the battle's need, a side's damage: by the engine, the view, the table). Holding the
    values keeps their ids from being reused. Hashing a whole position would cost more than the answer."""

    def wrap(function: F) -> F:
        memo: dict[tuple[Any, ...], tuple[Any, Any, Any]] = {}
        lock = threading.Lock()  # the session's writer and the web's threads ask at once

        @functools.wraps(function)
        def remembered(data: GameData, value: Any, *names: Any) -> Any:
            key = (id(data), id(value), *names)
            found = memo.get(key)
            if found is not None:
                return found[2]
            answer = function(data, value, *names)
            with lock:
                while len(memo) >= size:
                    del memo[next(iter(memo))]
                memo[key] = (data, value, answer)
            return answer

        return remembered  # type: ignore[return-value]

    return wrap


def fail(message: str) -> NoReturn:
    raise IllegalActionError(message)


def malformed(message: str) -> NoReturn:
    raise MalformedActionError(message)


def who(state: State, seat: int) -> str:
    return state.names[seat] if 0 <= seat < state.seats else "the neutral troops"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def gold(count: int) -> str:
    """Gold is counted, never pluralised: "0 gold", "3 gold"."""
    return f"{count} gold"


def names(data: GameData, ids: Iterable[str]) -> str:
    listed = [data.name(i) for i in ids]
    if not listed:
        return "nothing"
    return listed[0] if len(listed) == 1 else ", ".join(listed[:-1]) + " and " + listed[-1]


def leader_of(data: GameData, state: State, leader: str, seat: int) -> Army:
    """The seat's leader on the board, or a sentence why not."""
    if not data.has_counter(leader) or data.counter(leader).kind is not Kind.LEADER:
        fail(f"{leader!r} is no leader")
    army = state.army(leader)
    if army is None or army.owner != seat:
        fail(f"{data.name(leader)} is not a leader of {who(state, seat)}'s on the board")
    if not army.territory:
        fail(f"{data.name(leader)} is lost in the dark beneath the Broken Lands")
    return army


def check_territory(data: GameData, territory: str) -> None:
    if territory not in data.board:
        malformed(f"the board has no territory {territory!r}")


# ------------------------------------------------------------------------------------ friend and foe


def owners_in(state: State, territory: str) -> set[int]:
    """Everyone with counters in the territory (NEUTRAL for neutral troops)."""
    found = {a.owner for a in state.armies_in(territory)}
    return found | {g.owner for g in state.garrisons_in(territory)}


def enemies_in(state: State, territory: str, seat: int) -> list[int]:
    """Other chiefs with counters in the territory, its controller first."""
    others = sorted(o for o in owners_in(state, territory) if o not in (seat, NEUTRAL))
    controller = state.land(territory).controller
    return sorted(others, key=lambda o: o != controller)


def hostile_in(state: State, territory: str, seat: int) -> bool:
    """Troops there that are not the seat's: another chief's, or neutral troops."""
    return any(o != seat for o in owners_in(state, territory))


def friendly(state: State, territory: str, seat: int) -> bool:
    """The seat controls the territory (only orclands are ever controlled)."""
    return state.land(territory).controller == seat


def units_of(state: State, seat: int, territory: str) -> list[str]:
    """The seat's units in the territory: leaders, their units and left-behind troops."""
    out: list[str] = []
    for army in state.armies_in(territory):
        if army.owner == seat:
            out += [army.leader, *army.units]
    garrison = state.garrison(territory, seat)
    return out + list(garrison.units if garrison else ())


def troops(data: GameData, ids: Iterable[str]) -> list[str]:
    return [i for i in ids if data.counter(i).kind is Kind.TROOP]


def power(data: GameData, ids: Iterable[str]) -> int:
    """Total power of units (a leader's power is his authority)."""
    return sum(data.counter(i).power for i in ids)


def held_territories(state: State, seat: int) -> tuple[str, ...]:
    places = {a.territory for a in state.armies_of(seat) if a.territory}
    places |= {g.territory for g in state.garrisons if g.owner == seat}
    return tuple(sorted(places))


def authority_in_play(data: GameData, state: State, seat: int) -> int:
    """The sum of the authority of the seat's leaders on the board (rulebook line 31; hands are secret)."""
    return sum(data.counter(a.leader).authority for a in state.armies_of(seat))


def leaders_anywhere(data: GameData, state: State, seat: int) -> bool:
    in_hand = any(data.counter(c).kind is Kind.LEADER for c in state.hands[seat].counters)
    return bool(state.armies_of(seat)) or in_hand


# -------------------------------------------------------------------------------------------- control


def claim_control(data: GameData, state: State, territory: str, seat: int, ev: list[Event]) -> State:
    """A leader of the seat in an orcland without hostile troops takes control of it (rulebook line 57)."""
    if territory not in data.board or not data.board.territory(territory).orcland:
        return state
    if not any(a.owner == seat for a in state.armies_in(territory)) or hostile_in(state, territory, seat):
        return state
    land = state.land(territory)
    if land.controller == seat:
        return state
    ev.append(
        Event(
            "LandClaimed",
            f"{who(state, seat)} controls {data.board.name(territory)}",
            {"seat": seat, "territory": territory},
        )
    )
    return set_land(state, replace(land, controller=seat))


def lose_control(data: GameData, state: State, territory: str, ev: list[Event]) -> State:
    land = state.land(territory)
    if land.controller is None:
        return state
    ev.append(Event("LandNeutral", f"{data.board.name(territory)} becomes neutral", {"territory": territory}))
    return set_land(state, Land(territory, None, land.fortress, land.mine))


def to_cup(state: State, ids: Iterable[str]) -> State:
    return evolve(state, cup=tuple(sorted((*state.cup, *ids))))


def tidy(data: GameData, state: State, ev: list[Event]) -> State:
    """The rules that hold at every moment (see the module's docstring)."""
    for garrison in state.garrisons:
        if garrison.owner != NEUTRAL and not friendly(state, garrison.territory, garrison.owner):
            lost = [*garrison.units, *([garrison.shaman] if garrison.shaman else [])]
            ev.append(
                Event(
                    "LeaderlessDestroyed",
                    f"{who(state, garrison.owner)}'s {names(data, garrison.units)} without a leader in "
                    f"{data.board.name(garrison.territory)} are destroyed",
                    {"seat": garrison.owner, "territory": garrison.territory},
                )
            )
            state = set_garrison(state, garrison.territory, garrison.owner, (), None)
            state = to_cup(state, lost)
    for garrison in state.garrisons:
        if data.machines.isdisjoint(garrison.units):
            continue
        machines = [u for u in garrison.units if u in data.machines]
        if machines and not troops(data, garrison.units):
            ev.append(_untowed(data, state, garrison.owner, machines))
            rest = tuple(u for u in garrison.units if u not in machines)
            state = set_garrison(state, garrison.territory, garrison.owner, rest, garrison.shaman)
            state = to_cup(state, machines)
    for army in state.armies:
        if not army.gold and data.machines.isdisjoint(army.units):
            continue  # nothing to tow, no gold to carry: nothing to tidy
        machines = [u for u in army.units if u in data.machines]
        if machines and not troops(data, army.units):
            ev.append(_untowed(data, state, army.owner, machines))
            army = replace(army, units=tuple(u for u in army.units if u not in machines))
            state = set_army(to_cup(state, machines), army)
        cap = data.rules.leader_carries if not army.units else None
        if cap is not None and army.gold > cap:
            ev.append(
                Event(
                    "GoldDropped",
                    f"{data.name(army.leader)} carries {gold(cap)} at most: the rest goes back to the pile",
                    {"leader": army.leader},
                )
            )
            state = evolve(state, gold_pile=state.gold_pile + army.gold - cap)
            army = replace(army, gold=cap)
            state = set_army(state, army)
        if army.gold and army.territory and friendly(state, army.territory, army.owner):
            hand = state.hands[army.owner]
            ev.append(
                Event(
                    "GoldBanked",
                    f"{data.name(army.leader)} brings {gold(army.gold)} home to {who(state, army.owner)}",
                    {"seat": army.owner, "gold": army.gold},
                )
            )
            state = set_hand(state, army.owner, replace(hand, gold=hand.gold + army.gold))
            state = set_army(state, replace(army, gold=0))
    return state


def _untowed(data: GameData, state: State, owner: int, machines: list[str]) -> Event:
    return Event(
        "WarMachineLost",
        f"{who(state, owner)}'s {names(data, machines)} has no troop to tow it and is destroyed",
        {"seat": owner},
    )
