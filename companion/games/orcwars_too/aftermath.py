"""A battle from the damage to its end (combat 2.2 and 3, rulebook lines 214-260, 128-137, 147).

2.2: the damage from the table cell; a side whose damage exceeds its power surrenders its troops on a d6
of 1-2 (its war machines and leaders are destroyed anyway); otherwise its owner assigns the damage (no
unit more than its power) and names the one damaged unit that rolls a d6 to survive (d6 + damage below
its power). Neutral troops and rebels have nobody to assign for them: the strongest unit takes damage
first, and the unit with the most power to spare rolls. 3.1: each destroyed leader rolls survivability
(half, rounded down, when hacked to pieces): he escapes and must retreat, or is captured (hacked: killed,
his shaman with him). 3.2: one side retreats (data/rules.toml ``aftermath.retreat``: the reading taken for
the text's missing list) to a free territory, from a fortress through the caves. 3.3: destroyed trolls
regenerate on 5-6; the winner may take the losers' trolls with an authority check.
"""

from __future__ import annotations

from companion.games.orcwars_too.battle import (
    SIDES,
    Need,
    fighters,
    fled,
    side_power,
    stupid,
    together,
    trolls,
)
from companion.games.orcwars_too.battle import damage_of as cell_damage
from companion.games.orcwars_too.checks import control_target, survivability_target, survives
from companion.games.orcwars_too.common import by_identity, hostile_in
from companion.games.orcwars_too.counters import GameData, Kind
from companion.games.orcwars_too.state import Battle, State

LOSER_CHOICES = ("attacker", "defender")
NO_RETREAT = "none"


def other(name: str) -> str:
    return "defender" if name == "attacker" else "attacker"


def taken(data: GameData, battle: Battle, name: str) -> int:
    if fled(battle):
        return 0
    dmg = cell_damage(data, battle)
    return dmg.damage_to_attacker if name == "attacker" else dmg.damage_to_defender


def hacked(data: GameData, battle: Battle, name: str) -> bool:
    if fled(battle):
        return False
    dmg = cell_damage(data, battle)
    return dmg.attacker_hacked if name == "attacker" else dmg.defender_hacked


def overwhelmed(data: GameData, battle: Battle, name: str) -> bool:
    """The damage reaches the side's whole power: every unit taking part takes its full power."""
    side = battle.side(name)
    return side.kind != "caravan" and taken(data, battle, name) >= side_power(data, side)


def surrenders(data: GameData, battle: Battle, name: str) -> bool:
    side = battle.side(name)
    exceeds = side.kind != "caravan" and taken(data, battle, name) > side_power(data, side)
    return exceeds and 0 < side.surrender_roll <= data.rules.surrender_at_most


def allocation(data: GameData, battle: Battle, name: str) -> dict[str, int]:
    """The damage on each unit and leader of the side taking part."""
    side = battle.side(name)
    amount = taken(data, battle, name)
    if side.kind == "caravan" or amount <= 0:
        return {}
    units = fighters(data, side)
    if overwhelmed(data, battle, name):
        return {u: data.counter(u).power for u in units}
    if side.assigned is not None:
        return {u: d for u, d in side.assigned if d > 0}
    return automatic_allocation(data, units, amount)


def automatic_allocation(data: GameData, units: tuple[str, ...], amount: int) -> dict[str, int]:
    """For sides nobody commands: the strongest unit takes damage first."""
    out: dict[str, int] = {}
    for unit in sorted(units, key=lambda u: (-data.counter(u).power, u)):
        if amount <= 0:
            break
        share = min(amount, data.counter(unit).power)
        out[unit] = share
        amount -= share
    return out


def automatic_survivor(data: GameData, assigned: dict[str, int]) -> str:
    """The damaged unit with the most power to spare, if any could survive a d6."""
    hopeful = [(data.counter(u).power - d, u) for u, d in assigned.items() if data.counter(u).power - d > 1]
    return max(hopeful)[1] if hopeful else ""


def survivor(data: GameData, battle: Battle, name: str) -> str:
    side = battle.side(name)
    if overwhelmed(data, battle, name) or side.kind == "caravan":
        return ""
    if side.owner >= 0:
        return side.survivor
    return automatic_survivor(data, allocation(data, battle, name))


def survived(data: GameData, battle: Battle, name: str) -> bool:
    side = battle.side(name)
    unit = survivor(data, battle, name)
    if not unit or not side.survival_roll:
        return False
    return side.survival_roll + allocation(data, battle, name)[unit] < data.counter(unit).power


@by_identity(16)
def destroyed(data: GameData, battle: Battle, name: str) -> tuple[str, ...]:
    """Units and leaders of the side destroyed by the damage (surrendered troops are not)."""
    side = battle.side(name)
    if fled(battle) and name == "defender":
        return side.leaders
    assigned = allocation(data, battle, name)
    saved = survivor(data, battle, name) if survived(data, battle, name) else ""
    out = [u for u, d in assigned.items() if d > 0 and u != saved]
    if surrenders(data, battle, name):
        out = [u for u in out if data.counter(u).kind is not Kind.TROOP]
    return tuple(sorted(out))


def surrendered(data: GameData, battle: Battle, name: str) -> tuple[str, ...]:
    if not surrenders(data, battle, name):
        return ()
    return tuple(u for u in fighters(data, battle.side(name)) if data.counter(u).kind is Kind.TROOP)


def caravan_loss(data: GameData, battle: Battle) -> int:
    side = battle.defender
    return min(taken(data, battle, "defender"), side.caravan_power) if side.kind == "caravan" else 0


def fallen_leaders(data: GameData, battle: Battle, name: str) -> tuple[str, ...]:
    side = battle.side(name)
    gone = set(destroyed(data, battle, name))
    return tuple(leader for leader in side.leaders if leader in gone)


def fate(data: GameData, battle: Battle, name: str, leader: str) -> str:
    """ "escaped", "captured" or "killed" once the leader's survivability was rolled; "" before."""
    side = battle.side(name)
    roll = dict(side.fates).get(leader, 0)
    if not roll:
        return ""
    if survives(roll, fate_target(data, battle, name, leader)):
        return "escaped"
    return "killed" if hacked(data, battle, name) else "captured"


def fate_target(data: GameData, battle: Battle, name: str, leader: str) -> int:
    shaman = leader in battle.side(name).blessed
    return survivability_target(data, leader, shaman, hacked(data, battle, name)).value


def standing(data: GameData, state: State, battle: Battle, name: str) -> bool:
    """Something of the side still holds the field (escaped leaders must retreat: they do not)."""
    side = battle.side(name)
    if side.kind == "caravan":
        return side.caravan_power - caravan_loss(data, battle) > 0
    gone = set(destroyed(data, battle, name)) | set(surrendered(data, battle, name))
    return any(u not in gone for u in fighters(data, side))


def lost_power(data: GameData, battle: Battle, name: str) -> int:
    side = battle.side(name)
    if side.kind == "caravan":
        return caravan_loss(data, battle)
    gone = (*destroyed(data, battle, name), *surrendered(data, battle, name))
    return sum(data.counter(u).power for u in gone)


def settled_loser(data: GameData, state: State, battle: Battle) -> str:
    """The side that retreats, by what stands and the rule chosen; "" when the table must say."""
    if battle.loser:
        return battle.loser
    attacker, defender = (standing(data, state, battle, n) for n in SIDES)
    if fled(battle):
        return "defender"
    if not attacker and not defender:
        return "none"
    if not attacker or not defender:
        return "attacker" if not attacker else "defender"
    rule = data.rules.retreat
    if rule == "attacker":
        return "attacker"
    if rule == "table":
        return ""
    return (
        "defender"
        if lost_power(data, battle, "defender") > lost_power(data, battle, "attacker")
        else "attacker"
    )


def winner(battle: Battle) -> str:
    return {"attacker": "defender", "defender": "attacker"}.get(battle.loser, "")


def escaped_leaders(data: GameData, state: State, battle: Battle, name: str) -> tuple[str, ...]:
    return tuple(
        leader
        for leader in fallen_leaders(data, battle, name)
        if fate(data, battle, name, leader) == "escaped"
    )


def retreat_options(data: GameData, state: State, battle: Battle, seat: int) -> tuple[str, ...]:
    """Free territories the side may retreat to; "none" where none borders (the army is destroyed)."""
    here = battle.territory
    free = tuple(
        t.id
        for t in data.board
        if t.id != here and data.board.adjacent(here, t.id) and not hostile_in(state, t.id, seat)
    )
    if data.board.has_adjacency and free:
        return free
    return (*free, NO_RETREAT)


def retreating_leaders(data: GameData, state: State, battle: Battle) -> tuple[str, ...]:
    """The losers' leaders that leave the field together: those standing, and those escaped."""
    if battle.loser not in SIDES:
        return ()
    side = battle.side(battle.loser)
    gone = set(fallen_leaders(data, battle, battle.loser))
    return tuple(x for x in side.leaders if x not in gone) + escaped_leaders(
        data, state, battle, battle.loser
    )


def destroyed_trolls(data: GameData, battle: Battle, name: str) -> tuple[str, ...]:
    lost = set(destroyed(data, battle, name))
    return tuple(t for t in trolls(data, battle.side(name)) if t in lost)


def regenerated(data: GameData, battle: Battle, name: str) -> tuple[str, ...]:
    rolls = dict(battle.side(name).regeneration)
    return tuple(
        t for t in destroyed_trolls(data, battle, name) if rolls.get(t, 0) >= data.rules.regenerates_at_least
    )


def wiped_out(data: GameData, state: State, battle: Battle, name: str) -> bool:
    """No leader of the side is left on the field or in retreat, and no unit of it stands."""
    return not standing(data, state, battle, name) and not escaped_leaders(data, state, battle, name)


def trolls_for_grabs(data: GameData, state: State, battle: Battle) -> tuple[str, ...]:
    """Trolls the winner may try to take: the losers' regenerated trolls, and the stupid trolls of a side
    wiped out (lines 212 and 260)."""
    out: list[str] = []
    for name in SIDES:
        if name == battle.loser:
            out += regenerated(data, battle, name)
        if wiped_out(data, state, battle, name) and name != winner(battle):
            out += [t for t in stupid(data, battle.side(name)) if t in battle.side(name).units]
    return tuple(dict.fromkeys(out))


def winning_commander(data: GameData, state: State, battle: Battle) -> str:
    name = winner(battle)
    if not name:
        return ""
    side = battle.side(name)
    if side.owner < 0:
        return ""
    fallen = set(fallen_leaders(data, battle, name))
    return next((leader for leader in side.leaders if leader not in fallen), "")


def need(data: GameData, state: State, battle: Battle) -> Need | None:
    """What the battle waits for after the damage; None when it can be finished."""
    if not fled(battle):
        found = _damage_need(data, battle)
        if found is not None:
            return found
    fates = [
        Need(
            "fate",
            name,
            (battle.side(name).owner,),
            data.rules.survivability_die,
            leader,
            fate_target(data, battle, name, leader),
        )
        for name in SIDES
        for leader in fallen_leaders(data, battle, name)
        if leader not in dict(battle.side(name).fates)
    ]
    if fates:
        return together(fates)
    loser = settled_loser(data, state, battle)
    if not loser:
        seats = tuple(s.owner for s in (battle.attacker, battle.defender) if s.owner >= 0)
        return Need("loser", seats=seats, options=LOSER_CHOICES)
    if not battle.loser:
        return Need("settle-loser", subject=loser)
    found = _retreat_need(data, state, battle)
    if found is not None:
        return found
    regrowing = [
        Need("regeneration", name, (_roller(battle, name),), "d6", troll, data.rules.regenerates_at_least)
        for name in SIDES
        for troll in destroyed_trolls(data, battle, name)
        if troll not in dict(battle.side(name).regeneration)
    ]
    if regrowing:
        return together(regrowing)
    commander = winning_commander(data, state, battle)
    if commander and not battle.troll_check and trolls_for_grabs(data, state, battle):
        side = battle.side(winner(battle))
        grabs = trolls_for_grabs(data, state, battle)
        target = control_target(data, commander, (*side.units, *grabs), False).value
        return Need(
            "trolls", winner(battle), (side.owner,), data.rules.authority_die, commander, target, grabs
        )
    return None


def _roller(battle: Battle, name: str) -> int:
    side = battle.side(name)
    return side.owner if side.owner >= 0 else battle.side(other(name)).owner


def _damage_need(data: GameData, battle: Battle) -> Need | None:
    """Combat 2.2's answers, both sides at once: the surrender rolls, then the damage each chief assigns
    on his own phone, then the survival rolls."""
    surrender = []
    for name in SIDES:
        side = battle.side(name)
        if side.kind == "caravan" or side.surrender_roll:
            continue
        has_troops = any(data.counter(u).kind is Kind.TROOP for u in fighters(data, side))
        if taken(data, battle, name) > side_power(data, side) and has_troops:
            seats = (_roller(battle, name),)
            surrender.append(Need("surrender", name, seats, "d6", target=data.rules.surrender_at_most))
    if surrender:
        return together(surrender)
    assign = []
    for name in SIDES:
        side = battle.side(name)
        amount = taken(data, battle, name)
        if side.kind == "caravan" or side.owner < 0 or amount <= 0 or side.assigned is not None:
            continue
        if overwhelmed(data, battle, name):
            continue
        assign.append(Need("assign", name, (side.owner,), target=amount, options=fighters(data, side)))
    if assign:
        return together(assign)
    survival = []
    for name in SIDES:
        side = battle.side(name)
        unit = survivor(data, battle, name)
        if unit and not side.survival_roll:
            spare = data.counter(unit).power - allocation(data, battle, name)[unit] - 1
            survival.append(Need("survival", name, (_roller(battle, name),), "d6", unit, spare))
    return together(survival)


def _retreat_need(data: GameData, state: State, battle: Battle) -> Need | None:
    loser = battle.loser
    if loser in SIDES:
        side = battle.side(loser)
        leaders = retreating_leaders(data, state, battle)
        if side.kind not in ("caravan", "neutral", "rebels") and leaders and battle.retreat_to is None:
            if loser == "defender" and battle.fortress and not battle.retreat_rolls:
                return Need("caves", loser, (side.owner,), "d20")
            if not (loser == "defender" and battle.fortress):
                options = retreat_options(data, state, battle, side.owner)
                return Need("retreat", loser, (side.owner,), subject=leaders[0], options=options)
    done = {leader for leader, _ in battle.escapes}
    for name in SIDES:
        if name == loser:
            continue
        side = battle.side(name)
        for leader in escaped_leaders(data, state, battle, name):
            if leader not in done:
                options = retreat_options(data, state, battle, side.owner)
                return Need("escape", name, (side.owner,), subject=leader, options=options)
    return None
