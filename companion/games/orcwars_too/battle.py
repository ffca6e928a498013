"""A battle from its start to the damage (combat parts 1 and 2.1, rulebook lines 150-212).

A battle is a record filled in step by step: :func:`need` reads what is missing next (a strategy chosen in
secret on a phone, an authority roll, a troll's stupidity...), the engine takes the input, and the record
moves on. 1.1: each side with a leader proposes a strategy in secret; both are revealed together; a side
with a shaman (when only one has one) chooses after seeing the other's; a caravan's strategy is a d3
rolled after the attacker reveals; a lonely chief may flee. The fortress table is used when the defender
fights from a fortress (not against rebels); troops come up from the caves into a fortress as a surprise
(clever against careful defence). 1.2: the leadership check (authority with the control modifiers), and
the real strategy from a d6 when it fails; troops without a leader roll the d6 at once. 2.1: one d6 per
troll for stupidity. The damage (2.2) is :mod:`companion.games.orcwars_too.tables`; what follows is
:mod:`companion.games.orcwars_too.aftermath`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine import Event
from companion.games.orcwars_too.checks import (
    control_target,
    passes,
    real_strategy,
    strategy_modifiers,
    undecided_tie,
)
from companion.games.orcwars_too.common import by_identity, fail, power, who
from companion.games.orcwars_too.counters import STRATEGIES, STRATEGY_NAMES, GameData, Kind
from companion.games.orcwars_too.state import NEUTRAL, Battle, Fighter, State, evolve, set_army
from companion.games.orcwars_too.tables import Damage, damage

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class Need:
    """What the battle waits for next, from whom.

    ``parts``: when both sides (or several leaders or trolls) roll the same die at the same moment, one
    need per roll, each from its own seat (``seats`` then lists every seat asked). The chiefs throw
    together; a roll is the part of the seat that threw it (see :func:`part_for`).
    """

    kind: str
    side: str = ""
    seats: tuple[int, ...] = ()
    die: str = ""
    subject: str = ""
    target: int = 0
    options: tuple[str, ...] = ()
    parts: tuple[Need, ...] = ()


def together(needs: list[Need]) -> Need | None:
    """The first need, with every other need of the list thrown at the same moment: the rolls of the same
    die, or the other sides' damage to assign (each chief on his own phone). None for an empty list."""
    if not needs:
        return None
    first = needs[0]
    if first.die:
        parts = [n for n in needs if n.die == first.die]
    elif first.kind == "assign":
        parts = [n for n in needs if n.kind == "assign"]
    else:
        return first
    if len(parts) == 1:
        return first
    seats = tuple(dict.fromkeys(seat for part in parts for seat in part.seats))
    return replace(first, seats=seats, parts=tuple(parts))


def part_for(need_: Need, seat: int) -> Need:
    """The part of a need for several seats that ``seat`` answers (its first); a seat not asked (a die
    entered for the table) answers the first part. A need of one part is itself."""
    if not need_.parts:
        return need_
    return next((part for part in need_.parts if part.seats[:1] == (seat,)), need_.parts[0])


# ------------------------------------------------------------------------------------------- sides


def army_side(data: GameData, state: State, leader: str) -> Fighter:
    army = state.army(leader)
    assert army is not None
    shamans = (army.shaman,) if army.shaman else ()
    return Fighter(army.owner, "army", (leader,), army.units, shamans, (leader,) if army.shaman else ())


def player_side(data: GameData, state: State, territory: str, seat: int) -> Fighter:
    """Everything of the seat's in the territory: its armies (the highest authority commands) and the
    troops left there."""
    armies = sorted(
        (a for a in state.armies_in(territory) if a.owner == seat),
        key=lambda a: (-data.counter(a.leader).authority, a.leader),
    )
    units = [u for a in armies for u in a.units]
    shamans = [a.shaman for a in armies if a.shaman]
    garrison = state.garrison(territory, seat)
    if garrison is not None:
        units += garrison.units
        shamans += [garrison.shaman] if garrison.shaman else []
    kind = "army" if armies else "garrison"
    blessed = tuple(a.leader for a in armies if a.shaman)
    return Fighter(seat, kind, tuple(a.leader for a in armies), tuple(units), tuple(shamans), blessed)


def neutral_side(state: State, territory: str, kind: str = "neutral") -> Fighter:
    garrison = state.garrison(territory, NEUTRAL)
    assert garrison is not None
    shamans = (garrison.shaman,) if garrison.shaman else ()
    return Fighter(NEUTRAL, kind, (), garrison.units, shamans)


def caravan_side(state: State, chip: str) -> Fighter:
    caravan = state.caravan(chip)
    assert caravan is not None and caravan.power is not None
    return Fighter(NEUTRAL, "caravan", caravan=chip, caravan_power=caravan.power)


def describe(data: GameData, state: State, side: Fighter) -> str:
    if side.kind == "caravan":
        return f"the {data.name(side.caravan)}"
    if side.kind == "rebels":
        return "the rebels"
    if side.kind == "neutral":
        return "the neutral troops"
    if side.leaders:
        return f"{who(state, side.owner)}'s {data.name(side.leaders[0])}"
    return f"{who(state, side.owner)}'s troops"


def start(
    data: GameData,
    state: State,
    territory: str,
    attacker: Fighter,
    defender: Fighter,
    origin: str,
    ev: list[Event],
    mover: str = "",
) -> State:
    land = state.land(territory)
    fortress = land.fortress if origin != "rebels" and defender.kind != "caravan" else 0
    machines = [data.counter(u).power for u in attacker.units if data.counter(u).kind is Kind.WAR_MACHINE]
    battle = Battle(
        territory,
        attacker,
        defender,
        origin=origin,
        fortress=fortress,
        war_machine=max(machines, default=0) if fortress else 0,
        mover=mover,
    )
    if origin == "surprise":
        battle = replace(
            battle,
            revealed=True,
            attacker=replace(attacker, real="clever"),
            defender=replace(defender, real="careful"),
        )
    for leader in attacker.leaders[:1]:
        army = state.army(leader)
        if army is not None and origin in ("attack", "enter", "surprise"):
            state = set_army(state, replace(army, attacked=True))
    where = data.board.name(territory)
    text = f"Battle in {where}: {describe(data, state, attacker)} ({side_power(data, attacker)}) against "
    text += f"{describe(data, state, defender)} ({side_power(data, defender)})"
    if fortress:
        text += f" in a fortress of rating {fortress}"
    if origin == "surprise":
        text += ": a surprise from the caves (clever strategy against careful defence)"
    ev.append(Event("BattleBegun", text, {"territory": territory, "origin": origin}))
    return evolve(state, battle=battle)


# ------------------------------------------------------------------------------------------ powers


def stupid(data: GameData, side: Fighter) -> tuple[str, ...]:
    return tuple(troll for troll, roll in side.stupidity if roll <= data.rules.stupidity.get(side.real, 0))


def fighters(data: GameData, side: Fighter) -> tuple[str, ...]:
    """Units and leaders taking part (stupid trolls stand aside)."""
    out = stupid(data, side)
    return tuple(u for u in (*side.leaders, *side.units) if u not in out)


def side_power(data: GameData, side: Fighter) -> int:
    if side.kind == "caravan":
        return side.caravan_power
    return power(data, fighters(data, side))


def trolls(data: GameData, side: Fighter) -> tuple[str, ...]:
    return tuple(
        u for u in side.units if data.counter(u).kind is Kind.TROOP and data.counter(u).race == "troll"
    )


def proposes(side: Fighter) -> bool:
    return side.kind == "army" and side.owner >= 0


def lonely(side: Fighter) -> bool:
    return side.kind == "army" and not side.units


def strategy_options(side: Fighter, defender: bool) -> tuple[str, ...]:
    return (*STRATEGIES, "flee") if defender and lonely(side) else STRATEGIES


@by_identity(32)
def damage_of(data: GameData, battle: Battle) -> Damage:
    """Step 2.2 for the battle's powers and real strategies (the same battle asks often: kept)."""
    return damage(
        side_power(data, battle.attacker),
        battle.attacker.real,
        side_power(data, battle.defender),
        battle.defender.real,
        battle.fortress,
        battle.war_machine,
    )


def fled(battle: Battle) -> bool:
    return battle.defender.proposed == "flee"


# -------------------------------------------------------------------------------------------- needs


def need(data: GameData, state: State, battle: Battle) -> Need | None:
    """What part 1 and 2.1 of the battle wait for; None once the damage can be worked out. Both sides'
    leadership checks (and their real strategies' d6) are thrown together, then every troll's stupidity."""
    if not battle.revealed:
        waiting = _proposing(battle)
        if waiting:
            return Need("strategy", seats=tuple(battle.side(s).owner for s in waiting), options=())
        return Need("reveal")
    if fled(battle):
        return None
    attacker, defender = battle.attacker, battle.defender
    if defender.kind == "caravan" and not defender.real:
        return Need("caravan-strategy", "defender", (attacker.owner,), die="d3")
    leadership = [found for name in SIDES if (found := _leadership(data, state, battle, name)) is not None]
    if leadership:
        return together(leadership)
    stupidity = []
    for name in SIDES:
        side = battle.side(name)
        rolled = {troll for troll, _ in side.stupidity}
        seat = _roller(battle, name)
        stupidity += [
            Need("stupidity", name, (seat,), "d6", troll, data.rules.stupidity[side.real])
            for troll in trolls(data, side)
            if troll not in rolled
        ]
    return together(stupidity)


def _roller(battle: Battle, name: str) -> int:
    """Who throws a side's dice: its owner; for troops nobody owns, the chief they fight."""
    side = battle.side(name)
    return side.owner if side.owner >= 0 else battle.side(_other(name)).owner


def _leadership(data: GameData, state: State, battle: Battle, name: str) -> Need | None:
    """Combat 1.2 for one side: its commander's check, the tie of its biggest units, the d6."""
    side = battle.side(name)
    if side.real:
        return None
    seat = _roller(battle, name)
    if side.kind == "army" and not side.authority_roll:
        target = leadership_target(data, state, battle, name)
        return Need("authority", name, (seat,), data.rules.authority_die, side.leaders[0], target)
    tie = undecided_tie(data, (*side.leaders, *side.units))
    if tie and side.owner >= 0 and not side.biggest:
        return Need("biggest", name, (side.owner,), options=tie)
    return Need("strategy-roll", name, (seat,), "d6", target=_strategy_bonus(data, battle, name))


def _other(name: str) -> str:
    return "defender" if name == "attacker" else "attacker"


def _proposing(battle: Battle) -> tuple[str, ...]:
    """The sides whose secret strategy is awaited now (a lone shaman's side waits for the other's)."""
    attacker, defender = battle.attacker, battle.defender
    both = proposes(attacker) and proposes(defender)
    shaman_a, shaman_d = bool(attacker.shamans), bool(defender.shamans)
    waiting = [n for n in SIDES if proposes(battle.side(n)) and not battle.side(n).proposed]
    if both and shaman_a != shaman_d:
        first = "defender" if shaman_a else "attacker"
        if not battle.side(first).proposed:
            return (first,)
    return tuple(waiting)


def shaman_waits(battle: Battle) -> str:
    """The side that chooses after seeing the other's strategy ("" when neither or both have a shaman)."""
    a, d = battle.attacker, battle.defender
    if proposes(a) and proposes(d) and bool(a.shamans) != bool(d.shamans):
        return "attacker" if a.shamans else "defender"
    return ""


def leadership_target(data: GameData, state: State, battle: Battle, name: str) -> int:
    side = battle.side(name)
    in_fortress = name == "defender" and battle.fortress > 0
    return control_target(data, side.leaders[0], side.units, in_fortress).value


def _strategy_bonus(data: GameData, battle: Battle, name: str) -> int:
    side = battle.side(name)
    mods = strategy_modifiers(
        data, (*side.leaders, *side.units), side.biggest, name == "defender" and battle.fortress > 0
    )
    return sum(m for _, m in mods)


# ------------------------------------------------------------------------------------------- inputs


def set_side(battle: Battle, name: str, side: Fighter) -> Battle:
    return replace(battle, attacker=side) if name == "attacker" else replace(battle, defender=side)


def choose_strategy(data: GameData, state: State, seat: int, strategy: str, ev: list[Event]) -> State:
    battle = state.battle
    assert battle is not None
    asked = _proposing(battle) if not battle.revealed else ()
    name = next((n for n in asked if battle.side(n).owner == seat), None)
    if name is None:
        fail(f"No strategy of {who(state, seat)}'s is awaited now")
    side = battle.side(name)
    if strategy not in strategy_options(side, name == "defender"):
        fail(
            f"{describe(data, state, side)} may choose "
            f"{', '.join(strategy_options(side, name == 'defender'))}"
        )
    battle = set_side(battle, name, replace(side, proposed=strategy))
    if shaman_waits(battle) == name:
        ev.append(
            Event("StrategyChosen", f"{who(state, seat)} chooses {_said(strategy)}, seeing the other's", {})
        )
    else:
        ev.append(
            Event("StrategyChosen", f"{who(state, seat)} has chosen a strategy in secret", {"seat": seat})
        )
    return evolve(state, battle=reveal(data, state, battle, ev))


def reveal(data: GameData, state: State, battle: Battle, ev: list[Event]) -> Battle:
    """Reveals the strategies once every side that proposes has chosen (and the shaman's side may see)."""
    if battle.revealed or _proposing(battle):
        waiting = shaman_waits(battle)
        if waiting and not battle.side(waiting).proposed and battle.side(_other(waiting)).proposed:
            other = battle.side(_other(waiting))
            ev.append(
                Event(
                    "StrategyShown",
                    f"{describe(data, state, other)} shows {_said(other.proposed)}: "
                    f"{describe(data, state, battle.side(waiting))}'s shaman lets him choose after seeing it",
                    {},
                )
            )
        return battle
    shown = [
        f"{describe(data, state, battle.side(n))}: {_said(battle.side(n).proposed)}"
        for n in SIDES
        if proposes(battle.side(n))
    ]
    if shown:
        said = "Strategies revealed together: " if len(shown) > 1 else "Strategy revealed: "
        ev.append(Event("StrategiesRevealed", said + "; ".join(shown), {}))
    return replace(battle, revealed=True)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _said(strategy: str) -> str:
    return STRATEGY_NAMES.get(strategy, strategy)


def rolled(data: GameData, state: State, need_: Need, face: int, ev: list[Event]) -> State:
    """A die for part 1 or 2.1 of the battle."""
    battle = state.battle
    assert battle is not None
    side = battle.side(need_.side)
    label = describe(data, state, side)
    if need_.kind == "caravan-strategy":
        strategy = data.rules.caravan_strategy[face - 1]
        ev.append(Event("CaravanStrategy", f"{_capital(label)}: d3 {face}, {_said(strategy)}", {}))
        side = replace(side, real=strategy)
    elif need_.kind == "authority":
        ok = passes(data, face, need_.target)
        side = replace(side, authority_roll=face, real=side.proposed if ok else "")
        verdict = (
            f"the troops obey ({_said(side.proposed)})" if ok else "the troops do as they please: roll a d6"
        )
        ev.append(
            Event("Leadership", f"{_capital(label)}: authority {face} against {need_.target}, {verdict}", {})
        )
    elif need_.kind == "strategy-roll":
        total = face + need_.target
        strategy = real_strategy(data, total)
        side = replace(side, strategy_roll=face, real=strategy)
        bonus = f" {need_.target:+d} = {total}" if need_.target else ""
        ev.append(Event("RealStrategy", f"{_capital(label)}: d6 {face}{bonus}, {_said(strategy)}", {}))
    elif need_.kind == "stupidity":
        is_stupid = face <= need_.target
        side = replace(side, stupidity=(*side.stupidity, (need_.subject, face)))
        verdict = "stupid, it stands aside" if is_stupid else "it fights"
        ev.append(Event("Stupidity", f"{data.name(need_.subject)} rolls {face}: {verdict}", {}))
    return evolve(state, battle=set_side(battle, need_.side, side))


def chose_biggest(data: GameData, state: State, need_: Need, race: str, ev: list[Event]) -> State:
    battle = state.battle
    assert battle is not None
    if race not in need_.options:
        fail(f"The biggest units tie among {', '.join(need_.options)}")
    side = replace(battle.side(need_.side), biggest=race)
    ev.append(Event("BiggestChosen", f"{who(state, side.owner)} counts the {race}s as his biggest units", {}))
    return evolve(state, battle=set_side(battle, need_.side, side))
