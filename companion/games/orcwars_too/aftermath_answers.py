"""The answers a battle's aftermath takes (combat 2.2 and 3): the damage assigned, its rolls (surrender,
survival, the leaders' survivability, the caves, regeneration, the trolls' new master) and its choices
(who retreats when the table decides, where to), and the line that ends it. What they mean is
:mod:`companion.games.orcwars_too.aftermath`."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too.aftermath import (
    NO_RETREAT,
    fate,
    lost_power,
)
from companion.games.orcwars_too.battle import SIDES, Need, describe
from companion.games.orcwars_too.checks import passes
from companion.games.orcwars_too.common import fail
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.state import Battle, Fighter, State, evolve


def set_side(battle: Battle, name: str, side: Fighter) -> Battle:
    return replace(battle, attacker=side) if name == "attacker" else replace(battle, defender=side)


def assign(
    data: GameData, state: State, need_: Need, damage: tuple[tuple[str, int], ...], keep: str, ev: list[Event]
) -> State:
    battle = state.battle
    assert battle is not None
    side = battle.side(need_.side)
    units = set(need_.options)
    given: dict[str, int] = {}
    for unit, amount in damage:
        if unit not in units:
            fail(f"{data.name(unit) if data.has_counter(unit) else unit!r} does not fight on this side")
        if unit in given:
            fail(f"{data.name(unit)} is named twice")
        if not 0 <= amount <= data.counter(unit).power:
            fail(f"{data.name(unit)} has power {data.counter(unit).power}: no more damage than that")
        given[unit] = amount
    if sum(given.values()) != need_.target:
        fail(f"Assign all {need_.target} damage (this assigns {sum(given.values())})")
    if keep and given.get(keep, 0) <= 0:
        fail("The unit that rolls to survive must be one that took damage")
    side = replace(side, assigned=tuple(sorted((u, d) for u, d in given.items() if d > 0)), survivor=keep)
    hit = [f"{data.name(u)} {d}" for u, d in sorted(given.items()) if d > 0]
    ev.append(
        Event(
            "DamageAssigned",
            f"{describe(data, state, side)} takes {need_.target}: {', '.join(hit)}"
            + (f"; {data.name(keep)} rolls to survive" if keep else ""),
            {"side": need_.side},
        )
    )
    return evolve(state, battle=set_side(battle, need_.side, side))


def rolled(data: GameData, state: State, need_: Need, face: int, ev: list[Event]) -> State:
    battle = state.battle
    assert battle is not None
    side = battle.side(need_.side) if need_.side else None
    if need_.kind == "surrender" and side is not None:
        gives_up = face <= need_.target
        verdict = "the troops surrender" if gives_up else "they fight to the last"
        ev.append(
            Event(
                "Surrender",
                f"{_capital(describe(data, state, side))}: the damage exceeds its power; {face}, {verdict}",
                {},
            )
        )
        battle = set_side(battle, need_.side, replace(side, surrender_roll=face))
    elif need_.kind == "survival" and side is not None:
        lives = face <= need_.target
        ev.append(
            Event(
                "Survival",
                f"{data.name(need_.subject)} rolls {face}: {'survives' if lives else 'destroyed'}",
                {},
            )
        )
        battle = set_side(battle, need_.side, replace(side, survival_roll=face))
    elif need_.kind == "fate" and side is not None:
        battle = set_side(battle, need_.side, replace(side, fates=(*side.fates, (need_.subject, face))))
        outcome = fate(data, battle, need_.side, need_.subject)
        said = {"escaped": "escapes and must retreat", "captured": "is captured", "killed": "is killed"}[
            outcome
        ]
        ev.append(
            Event(
                "LeaderFate",
                f"{data.name(need_.subject)}: survivability {face} against {need_.target}, {said}",
                {},
            )
        )
    elif need_.kind == "caves":
        battle = replace(battle, retreat_rolls=(face,))
        ev.append(Event("Caves", f"The defenders flee into the caves: d20 {face}", {}))
    elif need_.kind == "regeneration" and side is not None:
        back = face >= need_.target
        ev.append(
            Event(
                "Regeneration",
                f"{data.name(need_.subject)} rolls {face}: {'regenerates!' if back else 'stays dead'}",
                {},
            )
        )
        battle = set_side(
            battle, need_.side, replace(side, regeneration=(*side.regeneration, (need_.subject, face)))
        )
    elif need_.kind == "trolls":
        ok = passes(data, face, need_.target)
        said = "take" if ok else "will not follow"
        ev.append(
            Event(
                "TrollsClaimed",
                f"{data.name(need_.subject)} rolls {face} against {need_.target}: the trolls {said} him",
                {},
            )
        )
        battle = replace(battle, troll_check=face)
    return evolve(state, battle=battle)


def chose(data: GameData, state: State, need_: Need, option: str, ev: list[Event]) -> State:
    battle = state.battle
    assert battle is not None
    if option not in need_.options:
        fail(f"Choose one of: {', '.join(need_.options)}")
    if need_.kind == "loser":
        ev.append(Event("LoserChosen", f"The table says the {option} retreats", {}))
        return evolve(state, battle=replace(battle, loser=option))
    place = "" if option == NO_RETREAT else option
    where = data.board.name(place) if place else "nowhere: no free territory borders"
    if need_.kind == "retreat":
        ev.append(
            Event(
                "RetreatChosen", f"{describe(data, state, battle.side(need_.side))} retreats to {where}", {}
            )
        )
        return evolve(state, battle=replace(battle, retreat_to=place))
    ev.append(Event("EscapeChosen", f"{data.name(need_.subject)} escapes to {where}", {}))
    return evolve(state, battle=replace(battle, escapes=(*battle.escapes, (need_.subject, place))))


def report(data: GameData, state: State, battle: Battle) -> str:
    """One line for the end of the battle."""
    lost = [
        f"{describe(data, state, battle.side(n))} lost {lost_power(data, battle, n)} power" for n in SIDES
    ]
    loser = battle.loser
    if loser in SIDES:
        side = battle.side(loser)
        outcome = (
            f"{describe(data, state, side)} {'give' if side.kind in ('rebels', 'neutral') else 'gives'} way"
        )
    else:
        outcome = "nobody is left standing"
    return f"The battle ends: {'; '.join(lost)}; {outcome}"


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
