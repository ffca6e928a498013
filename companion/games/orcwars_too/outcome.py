"""A battle's end carried out on the board: the losses, the leaders' fates, the retreat, the shamans, the
surrendered troops, the trolls, the caravan's gold, the castle (rulebook lines 128-147, 212, 237-260).

Everything here is decided already (the battle record holds every roll and choice); this module only
moves the chips where the decisions send them, then the battle becomes the last battle (the TV's show).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.engine import Event
from companion.games.orcwars_too import aftermath as after
from companion.games.orcwars_too.aftermath_answers import report
from companion.games.orcwars_too.battle import SIDES, damage_of, describe
from companion.games.orcwars_too.checks import passes
from companion.games.orcwars_too.common import (
    claim_control,
    friendly,
    hostile_in,
    lose_control,
    names,
    tidy,
    to_cup,
    who,
)
from companion.games.orcwars_too.counters import GameData, Kind
from companion.games.orcwars_too.economy import advance_caravan, remove_caravan
from companion.games.orcwars_too.places import add_to_army, remove_units, to_garrison
from companion.games.orcwars_too.state import (
    NEUTRAL,
    Army,
    Battle,
    State,
    drop_army,
    evolve,
    set_army,
    set_caravan,
    set_garrison,
    set_hand,
    set_land,
)


@dataclass
class Spoils:
    """What the battle frees on its way to being placed: chips briefly off the board while finish works."""

    orphans: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in SIDES})
    """Units whose leader fell, by side."""
    escaped: dict[str, list[Army]] = field(default_factory=lambda: {name: [] for name in SIDES})
    """Leaders who escaped, by side: alone, with the gold they carry and what they did this turn."""
    shamans: list[str] = field(default_factory=list)
    """Shamans following the one true leader (line 128)."""
    surrendered: list[str] = field(default_factory=list)


def finish(data: GameData, state: State, ev: list[Event]) -> State:
    battle = state.battle
    assert battle is not None and battle.loser
    win = after.winner(battle)
    commander = after.winning_commander(data, state, battle)
    grabs = after.trolls_for_grabs(data, state, battle)
    took = bool(
        grabs
        and commander
        and battle.troll_check
        and passes(data, battle.troll_check, troll_target(data, state))
    )
    regrown = {name: after.regenerated(data, battle, name) for name in SIDES}
    ev.append(Event("BattleEnded", report(data, state, battle), {"territory": battle.territory}))
    spoils = Spoils()
    state = remove_units(state, grabs)
    for name in SIDES:
        if battle.side(name).kind == "caravan":
            continue
        lost = [u for u in after.destroyed(data, battle, name) if data.counter(u).kind is not Kind.LEADER]
        given_up = list(after.surrendered(data, battle, name))
        state = remove_units(state, lost + given_up)
        state = to_cup(state, [u for u in lost if u not in regrown[name] and u not in grabs])
        spoils.surrendered += given_up
        state = _fallen(data, state, battle, name, spoils, ev)
    if battle.loser in SIDES:
        state = _retreat(data, state, battle, spoils, ev)
    for name in SIDES:
        if name != battle.loser:
            state = _regroup(
                data, state, battle, name, spoils.orphans[name], commander if name == win else ""
            )
            state = _escapes(data, state, battle, spoils.escaped[name], ev)
    state = _receive(
        data, state, battle, commander, spoils.surrendered, "the surrendered troops", ev, _keeper(battle)
    )
    for name in SIDES:
        back = tuple(t for t in regrown[name] if t not in grabs)
        owner = battle.side(name).owner
        keeper = owner if owner == NEUTRAL or friendly(state, battle.territory, owner) else None
        carrier = _carrier(state, battle, name)
        if carrier or keeper is not None:
            state = _receive(data, state, battle, carrier, back, "the regenerated trolls", ev, keeper)
        else:
            state = _stray_trolls(data, state, battle, back, ev)
    if took:
        state = _receive(data, state, battle, commander, grabs, "the trolls", ev, None)
    else:
        state = _stray_trolls(data, state, battle, grabs, ev)
    state = _place_shamans(data, state, battle, commander, spoils.shamans, ev)
    state = _caravan(data, state, battle, commander, ev)
    state = _castle(data, state, battle, ev)
    if battle.attacker.kind == "rebels" and battle.loser == "defender":
        state = lose_control(data, state, battle.territory, ev)  # the rebels hold the land (line 63)
    state = tidy(data, state, ev)
    if win and battle.side(win).owner >= 0:
        state = claim_control(data, state, battle.territory, battle.side(win).owner, ev)
    shown = () if after.fled(battle) else tuple(damage_of(data, battle).working().items())
    return evolve(state, battle=None, last_battle=battle, last_damage=shown)


def troll_target(data: GameData, state: State) -> int:
    battle = state.battle
    assert battle is not None
    found = after.need(data, state, replace(battle, troll_check=0))
    return found.target if found is not None and found.kind == "trolls" else 0


def _fallen(
    data: GameData, state: State, battle: Battle, name: str, spoils: Spoils, ev: list[Event]
) -> State:
    """Destroyed leaders escape, are captured or are killed (lines 135-137); their units are left behind."""
    foe = battle.side(after.other(name))
    for leader in after.fallen_leaders(data, battle, name):
        army = state.army(leader)
        if army is None:
            continue
        outcome = after.fate(data, battle, name, leader)
        spoils.orphans[name] += army.units
        state = drop_army(state, leader)
        gold = min(army.gold, data.rules.leader_carries) if outcome == "escaped" else 0
        state = evolve(state, gold_pile=state.gold_pile + army.gold - gold)
        if army.shaman and outcome == "killed":
            state = to_cup(state, [army.shaman])  # hacked to pieces: his shaman dies with him (line 137)
        elif army.shaman:
            spoils.shamans.append(army.shaman)
        if outcome == "escaped":
            spoils.escaped[name].append(replace(army, units=(), shaman=None, gold=gold, retreated=True))
        elif outcome == "captured" and foe.owner >= 0:
            hand = state.hands[foe.owner]
            state = set_hand(state, foe.owner, replace(hand, captives=(*hand.captives, leader)))
            ev.append(
                Event("LeaderCaptured", f"{who(state, foe.owner)} holds {data.name(leader)} captive", {})
            )
        else:
            what = "executed by the caravan's guards" if foe.kind == "caravan" else "dead"
            if outcome == "captured":
                ev.append(Event("LeaderExecuted", f"{data.name(leader)} is {what}", {}))
            state = to_cup(state, [leader])
    return state


def _retreat(data: GameData, state: State, battle: Battle, spoils: Spoils, ev: list[Event]) -> State:
    """The losers leave the field (lines 71, 115, 253): led armies to the chosen territory or through the
    caves, taking every unit of their side along; troops without a leader, rebels and neutral troops that
    must retreat are destroyed; a caravan moves on (handled with its gold)."""
    name = battle.loser
    side = battle.side(name)
    if side.kind == "caravan":
        return state
    here = battle.territory
    standing = [x for x in side.leaders if state.army(x) is not None]
    garrison = state.garrison(here, side.owner)
    loose = list(spoils.orphans[name])
    if garrison is not None:
        # Only the troops that fought with the side retreat with it (an attacking army's chief may keep
        # other troops there, apart from the battle).
        taken = [u for u in garrison.units if u in side.units]
        loose += taken
        kept = tuple(u for u in garrison.units if u not in taken)
        if garrison.shaman and garrison.shaman in side.shamans:
            spoils.shamans.append(garrison.shaman)
            state = set_garrison(state, here, side.owner, kept, None)
        else:
            state = remove_units(state, taken)
    if not standing:
        if loose:
            ev.append(
                Event("Routed", f"{names(data, loose)} cannot retreat without a leader and are destroyed", {})
            )
        state = to_cup(state, loose)
        return _place_escaped(data, state, spoils.escaped[name], _destination(data, state, battle), ev)
    state = add_to_army(state, standing[0], loose)
    destination = _destination(data, state, battle)
    for leader in standing:
        army = state.army(leader)
        assert army is not None
        if army.shaman:
            spoils.shamans.append(army.shaman)  # 'I follow the one true leader!' (line 128)
            army = replace(army, shaman=None)
        state = _move_off(data, state, army, destination, ev)
    return _place_escaped(data, state, spoils.escaped[name], destination, ev)


def _destination(data: GameData, state: State, battle: Battle) -> str | None:
    """Where the losers go: a territory, "" (destroyed), or None (lost in the dark)."""
    if battle.retreat_rolls:
        face = battle.retreat_rolls[0]
        board = data.board
        if face == board.destroyed_underground or face > len(board.underground) + 1:
            return ""
        if face == board.lost_in_the_dark:
            return None
        place = board.underground[face - 1]
        # From a fortress through the caves, with no reroll; hostile troops there destroy them (line 115).
        return "" if hostile_in(state, place, battle.side(battle.loser).owner) else place
    return battle.retreat_to or ""


def _move_off(data: GameData, state: State, army: Army, destination: str | None, ev: list[Event]) -> State:
    if destination == "":
        ev.append(
            Event(
                "ArmyDestroyed",
                f"{data.name(army.leader)}'s army has nowhere to go: destroyed, and the leader killed",
                {"leader": army.leader},
            )
        )
        state = drop_army(state, army.leader)
        state = evolve(state, gold_pile=state.gold_pile + army.gold)
        return to_cup(state, [army.leader, *army.units])
    place = destination or ""
    said = f"retreats to {data.board.name(place)}" if place else "is lost in the dark of the caves"
    ev.append(
        Event("Retreated", f"{data.name(army.leader)}'s army {said}", {"leader": army.leader, "to": place})
    )
    return set_army(state, replace(army, territory=place, attacked=True, retreated=True))


def _place_escaped(
    data: GameData, state: State, escaped: list[Army], destination: str | None, ev: list[Event]
) -> State:
    for army in escaped:
        if destination == "":
            ev.append(Event("LeaderKilled", f"{data.name(army.leader)} finds no way out and is killed", {}))
            state = to_cup(evolve(state, gold_pile=state.gold_pile + army.gold), [army.leader])
            continue
        state = evolve(state, armies=(*state.armies, replace(army, territory=destination or "")))
    return state


def _escapes(data: GameData, state: State, battle: Battle, escaped: list[Army], ev: list[Event]) -> State:
    """Leaders of a side that held the field (or of both, when nobody did) escape alone (line 249)."""
    chosen = dict(battle.escapes)
    for army in escaped:
        state = _place_escaped(data, state, [army], chosen.get(army.leader, ""), ev)
    return state


def _regroup(
    data: GameData, state: State, battle: Battle, name: str, orphans: list[str], commander: str
) -> State:
    """Units of a fallen leader on the side that stays join its commander, or stay as left-behind troops."""
    if not orphans:
        return state
    side = battle.side(name)
    carrier = commander or next((x for x in side.leaders if state.army(x) is not None), "")
    if carrier:
        return add_to_army(state, carrier, orphans)
    return to_garrison(state, battle.territory, side.owner, orphans)


def _carrier(state: State, battle: Battle, name: str) -> str:
    """A leader of the side still on the field, if any."""
    for leader in battle.side(name).leaders:
        army = state.army(leader)
        if army is not None and army.territory == battle.territory:
            return leader
    return ""


def _keeper(battle: Battle) -> int | None:
    """Whose left-behind troops surrendered troops join when the winner has no leader to take them."""
    win = after.winner(battle)
    if not win:
        return None
    side = battle.side(win)
    return side.owner if side.kind in ("neutral", "rebels", "garrison") else None


def _receive(
    data: GameData,
    state: State,
    battle: Battle,
    leader: str,
    chips: list[str] | tuple[str, ...],
    what: str,
    ev: list[Event],
    keeper: int | None,
) -> State:
    """Chips joining a side: its leader's army; else troops of ``keeper``'s left in the territory; else the
    tribe cup."""
    if not chips:
        return state
    army = state.army(leader) if leader else None
    if army is not None:
        ev.append(Event("Joined", f"{what.capitalize()} ({names(data, chips)}) join {data.name(leader)}", {}))
        return add_to_army(state, leader, chips)
    if keeper is not None:
        where = data.board.name(battle.territory)
        ev.append(Event("Joined", f"{what.capitalize()} ({names(data, chips)}) stay in {where}", {}))
        return to_garrison(state, battle.territory, keeper, chips)
    ev.append(Event("ToCup", f"{what.capitalize()} ({names(data, chips)}) go back to the tribe cup", {}))
    return to_cup(state, chips)


def _stray_trolls(
    data: GameData, state: State, battle: Battle, trolls: tuple[str, ...], ev: list[Event]
) -> State:
    """Trolls nobody takes: to the tribe cup, but neutral in their native land (line 260)."""
    home = [t for t in trolls if data.counter(t).native == battle.territory]
    away = [t for t in trolls if t not in home]
    if home:
        ev.append(Event("TrollsStay", f"{names(data, home)} stay neutral in their native land", {}))
        state = to_garrison(state, battle.territory, NEUTRAL, home)
    if away:
        ev.append(Event("TrollsWander", f"{names(data, away)} wander back to the tribe cup", {}))
        state = to_cup(state, away)
    return state


def _place_shamans(
    data: GameData, state: State, battle: Battle, commander: str, shamans: list[str], ev: list[Event]
) -> State:
    """Shamans of leaders forced to retreat, captured or killed follow the winner (line 128): into an army
    of his without a shaman, else his hand; rebels or neutral troops keep them; otherwise the tribe cup."""
    win = after.winner(battle)
    for shaman in shamans:
        side = battle.side(win) if win else None
        armies = [state.army(x) for x in ((commander,) if commander else ()) + (side.leaders if side else ())]
        free = next((a for a in armies if a is not None and a.shaman is None and a.territory), None)
        if free is not None:
            state = set_army(state, replace(free, shaman=shaman))
            ev.append(
                Event("ShamanFollows", f"A shaman follows the one true leader: {data.name(free.leader)}", {})
            )
        elif side is not None and side.owner >= 0:
            hand = state.hands[side.owner]
            state = set_hand(state, side.owner, replace(hand, counters=(*hand.counters, shaman)))
            ev.append(Event("ShamanFollows", f"A shaman follows {who(state, side.owner)}", {}))
        elif side is not None and side.kind in ("rebels", "neutral"):
            state = to_garrison(state, battle.territory, NEUTRAL, (), shaman)
            ev.append(Event("ShamanFollows", f"A shaman stays with {describe(data, state, side)}", {}))
        else:
            state = to_cup(state, [shaman])
    return state


def _caravan(data: GameData, state: State, battle: Battle, commander: str, ev: list[Event]) -> State:
    """A caravan's destroyed power is gold: the winner's when the caravan gives way, lost when it wins
    (line 147); a caravan that gives way moves on one step."""
    side = battle.defender
    if side.kind != "caravan":
        return state
    caravan = state.caravan(side.caravan)
    if caravan is None:
        return state
    loss = after.caravan_loss(data, battle)
    taken = min(loss, caravan.treasury)
    caravan = replace(caravan, power=(caravan.power or 0) - loss, treasury=caravan.treasury - taken)
    state = set_caravan(state, caravan)
    attacker = state.army(battle.attacker.leaders[0]) if battle.attacker.leaders else None
    if attacker is not None:
        state = set_army(state, replace(attacker, struck=(*attacker.struck, side.caravan)))
        attacker = state.army(attacker.leader)
    if battle.loser == "defender" and attacker is not None and attacker.territory == battle.territory:
        ev.append(Event("CaravanLooted", f"{data.name(attacker.leader)} loots {taken} gold", {"gold": taken}))
        state = set_army(state, replace(attacker, gold=attacker.gold + taken))
    else:
        state = evolve(state, gold_pile=state.gold_pile + taken)
    if (caravan.power or 0) <= 0:
        ev.append(Event("CaravanDestroyed", f"The {data.name(side.caravan)} is destroyed", {}))
        return remove_caravan(state, side.caravan)
    if battle.loser == "defender":
        return advance_caravan(data, state, side.caravan, ev)
    return state


def _castle(data: GameData, state: State, battle: Battle, ev: list[Event]) -> State:
    if not battle.fortress or after.fled(battle) or not damage_of(data, battle).castle_destroyed:
        return state
    land = state.land(battle.territory)
    ev.append(
        Event("CastleDestroyed", f"The fortress of {data.board.name(battle.territory)} is destroyed", {})
    )
    return set_land(state, replace(land, fortress=0))
