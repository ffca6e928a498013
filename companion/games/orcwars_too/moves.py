"""B3, the board: moving (a lonely leader through enemy land, into battle on entering enemy land, claiming
the land and native troops on arrival), and the caves beneath the Broken Lands (rulebook lines 45-57,
65-71, 115).

The board is the players': a move names where a leader goes, and the companion checks what it can (the
adjacency when the owner entered it, who is there, what the leader did this turn).
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too import battle as battles
from companion.games.orcwars_too.checks import control_target, is_small, survivability_target
from companion.games.orcwars_too.common import (
    check_territory,
    claim_control,
    enemies_in,
    fail,
    friendly,
    hostile_in,
    leader_of,
    names,
    tidy,
    to_cup,
    troops,
    who,
)
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.places import add_to_army, remove_units
from companion.games.orcwars_too.state import (
    NEUTRAL,
    State,
    Step,
    drop_army,
    evolve,
    pop,
    push,
    set_army,
)

NO_BATTLE = "no battle"


def seat_target(seat: int) -> str:
    return f"seat:{seat}"


def move(data: GameData, state: State, seat: int, leader: str, to: str, via: str, ev: list[Event]) -> State:
    army = leader_of(data, state, leader, seat)
    check_territory(data, to)
    if army.moved:
        fail(f"{data.name(leader)} has moved this turn")
    if to == army.territory:
        fail(f"{data.name(leader)} is in {data.board.name(to)} already")
    if via:
        check_territory(data, via)
        if army.units:
            fail(
                "An army moves one territory a turn; only a leader without units may go "
                f"by {data.board.name(via)}"
            )
        if data.rules.lonely_leader_moves < 2 or via in (to, army.territory):
            fail("A lonely leader moves through one territory to another")
        if not data.board.adjacent(army.territory, via) or not data.board.adjacent(via, to):
            fail(
                f"{data.board.name(via)} does not lead from {data.board.name(army.territory)} "
                f"to {data.board.name(to)}"
            )
    elif not data.board.adjacent(army.territory, to):
        fail(f"{data.board.name(to)} does not border {data.board.name(army.territory)}")
    state = set_army(state, replace(army, moved=True))
    ev.append(
        Event(
            "Moved",
            f"{data.name(leader)} moves to {data.board.name(to)}"
            + (f" by {data.board.name(via)}" if via else ""),
            {"leader": leader},
        )
    )
    controller = state.land(via).controller if via else None
    if via and controller not in (None, seat) and enemies_in(state, via, seat):
        assert controller is not None
        return push(
            state,
            Step("pass", controller, leader=leader, territory=via, subject=to, options=("allow", "refuse")),
        )
    return arrive(data, state, leader, to, ev)


def arrive(
    data: GameData, state: State, leader: str, territory: str, ev: list[Event], underground: bool = False
) -> State:
    """The army stands in ``territory``: battle if enemies are there (line 65), else it claims the land."""
    army = state.army(leader)
    assert army is not None
    state = tidy(data, set_army(state, replace(army, territory=territory)), ev)
    seat = army.owner
    land = state.land(territory)
    if underground and land.fortress and hostile_in(state, territory, seat):
        foes = enemies_in(state, territory, seat)
        defender = (
            battles.player_side(data, state, territory, foes[0])
            if foes
            else battles.neutral_side(state, territory)
        )
        return battles.start(
            data, state, territory, battles.army_side(data, state, leader), defender, "surprise", ev, leader
        )
    return engage(data, state, leader, ev, ask=True)


def engage(data: GameData, state: State, leader: str, ev: list[Event], ask: bool) -> State:
    """Enemies where the army stands: a battle in an orcland; in an outland one if either side wants it."""
    army = state.army(leader)
    if army is None or not army.territory:
        return state
    foes = enemies_in(state, army.territory, army.owner)
    if foes and data.board.territory(army.territory).orcland:
        defender = battles.player_side(data, state, army.territory, foes[0])
        return battles.start(
            data, state, army.territory, battles.army_side(data, state, leader), defender, "enter", ev, leader
        )
    if foes and ask:
        options = (*(seat_target(f) for f in foes), NO_BATTLE) if not army.attacked else (NO_BATTLE,)
        return push(
            state, Step("engage", army.owner, leader=leader, territory=army.territory, options=options)
        )
    return after_arrival(data, state, leader, ev)


def after_arrival(data: GameData, state: State, leader: str, ev: list[Event]) -> State:
    """No battle (or it is over): the land is claimed, and troops native to the leader held by others are
    claimed (line 69): their controller checks to keep them; troops left without a leader come over."""
    army = state.army(leader)
    if army is None or not army.territory:
        return state
    here, seat, home = army.territory, army.owner, data.counter(leader).native
    state = claim_control(data, state, here, seat, ev)
    for other in state.armies_in(here):
        if other.owner in (seat, NEUTRAL):
            continue
        # Kobolds and goblins are never taken from their own native leader (line 69).
        keeps_small = data.counter(other.leader).native == home
        natives = tuple(
            u
            for u in troops(data, other.units)
            if data.counter(u).native == home and not (keeps_small and is_small(data, data.counter(u).race))
        )
        if natives:
            in_fortress = state.land(here).fortress > 0
            target = control_target(data, other.leader, other.units, in_fortress).value
            state = push(
                state,
                Step(
                    "check",
                    other.owner,
                    leader=other.leader,
                    subject="keep",
                    target=target,
                    data=natives,
                    options=(leader,),
                ),
            )
    for garrison in state.garrisons_in(here):
        if garrison.owner in (seat, NEUTRAL):
            continue
        natives = tuple(u for u in troops(data, garrison.units) if data.counter(u).native == home)
        if natives:
            ev.append(
                Event(
                    "NativesJoin",
                    f"{names(data, natives)} go over to their native leader {data.name(leader)}",
                    {},
                )
            )
            state = add_to_army(remove_units(state, natives), leader, natives)
    return tidy(data, state, ev)


def answered(data: GameData, state: State, step: Step, option: str, ev: list[Event]) -> State:
    """The answer to a move's question (let a leader pass, attack him, fight on entering an outland)."""
    if option not in step.options:
        fail(f"Choose one of: {', '.join(step.options)}")
    state = pop(state)
    if step.purpose == "pass":
        if option == "allow":
            ev.append(Event("PassAllowed", f"{who(state, step.seat)} lets {data.name(step.leader)} pass", {}))
            return arrive(data, state, step.leader, step.subject, ev)
        army = state.army(step.leader)
        assert army is not None
        target = survivability_target(data, step.leader, army.shaman is not None, False).value
        ev.append(
            Event(
                "PassRefused",
                f"{who(state, step.seat)} refuses: {data.name(step.leader)} must slip through",
                {},
            )
        )
        return push(state, replace(step, purpose="pass-check", seat=army.owner, target=target, options=()))
    if step.purpose == "pass-attack":
        if option == "let pass":
            return arrive(data, state, step.leader, step.subject, ev)
        army = state.army(step.leader)
        assert army is not None
        state = set_army(state, replace(army, territory=step.territory))
        attacker = battles.player_side(data, state, step.territory, step.seat)
        return battles.start(
            data, state, step.territory, attacker, battles.army_side(data, state, step.leader), "pass", ev
        )
    if step.purpose == "engage":
        if option != NO_BATTLE:
            foe = int(option.split(":")[1])
            defender = battles.player_side(data, state, step.territory, foe)
            return battles.start(
                data,
                state,
                step.territory,
                battles.army_side(data, state, step.leader),
                defender,
                "enter",
                ev,
                step.leader,
            )
        foes = [f for f in enemies_in(state, step.territory, state.army(step.leader).owner)]  # type: ignore[union-attr]
        asked = [f for f in foes if f not in step.rolls]
        if asked:
            return push(
                state,
                Step(
                    "engage-enemy",
                    asked[0],
                    leader=step.leader,
                    territory=step.territory,
                    options=("fight", NO_BATTLE),
                    rolls=(*step.rolls, asked[0]),
                ),
            )
        return after_arrival(data, state, step.leader, ev)
    # "engage-enemy": an enemy in the outland wants the battle, or lets the newcomer be.
    if option == "fight":
        defender = battles.player_side(data, state, step.territory, step.seat)
        return battles.start(
            data,
            state,
            step.territory,
            battles.army_side(data, state, step.leader),
            defender,
            "enter",
            ev,
            step.leader,
        )
    foes = enemies_in(state, step.territory, state.army(step.leader).owner)  # type: ignore[union-attr]
    asked = [f for f in foes if f not in step.rolls]
    if asked:
        return push(state, replace(step, seat=asked[0], rolls=(*step.rolls, asked[0])))
    return after_arrival(data, state, step.leader, ev)


def pass_checked(data: GameData, state: State, step: Step, roll: int, ev: list[Event]) -> State:
    state = pop(state)
    if roll <= step.target:
        ev.append(Event("SlippedThrough", f"{data.name(step.leader)} rolls {roll}: slips through", {}))
        return arrive(data, state, step.leader, step.subject, ev)
    controller = state.land(step.territory).controller
    ev.append(
        Event(
            "Caught",
            f"{data.name(step.leader)} rolls {roll}: caught in {data.board.name(step.territory)}",
            {},
        )
    )
    if controller is None or controller == step.seat:
        return arrive(data, state, step.leader, step.subject, ev)
    return push(state, replace(step, purpose="pass-attack", seat=controller, options=("attack", "let pass")))


def underground(data: GameData, state: State, seat: int, leader: str, ev: list[Event]) -> State:
    army = leader_of(data, state, leader, seat)
    land = state.land(army.territory)
    if army.moved:
        fail(f"{data.name(leader)} has moved this turn")
    if not friendly(state, army.territory, seat) or not (land.mine or land.fortress):
        fail("Armies go underground from a friendly territory with a mine or a fortress")
    state = set_army(state, replace(army, moved=True))
    ev.append(
        Event(
            "Underground", f"{data.name(leader)}'s army goes into the caves: roll the d20", {"leader": leader}
        )
    )
    return push(state, Step("underground", seat, leader=leader, count=1))


def caves_rolled(data: GameData, state: State, step: Step, face: int, ev: list[Event]) -> State:
    """The caves' d20 (line 51): 20 destroys the army, 19 loses it in the dark, else a place (one reroll)."""
    state = pop(state)
    board = data.board
    army = state.army(step.leader)
    assert army is not None
    if face == board.destroyed_underground:
        ev.append(Event("CaveDeath", f"20: {data.name(step.leader)}'s army is destroyed in a messy way", {}))
        state = evolve(drop_army(state, step.leader), gold_pile=state.gold_pile + army.gold)
        return to_cup(state, [army.leader, *army.units, *([army.shaman] if army.shaman else [])])
    if face == board.lost_in_the_dark:
        ev.append(Event("LostInTheDark", f"19: {data.name(step.leader)}'s army is lost in the dark", {}))
        return set_army(state, replace(army, territory=""))
    place = board.underground[face - 1]
    if step.count > 0:
        ev.append(Event("CaveExit", f"{face}: the caves lead to {board.name(place)}", {}))
        return push(
            state, Step("surface", step.seat, leader=step.leader, territory=place, options=("keep", "reroll"))
        )
    ev.append(
        Event("CaveExit", f"{face}: {data.name(step.leader)}'s army comes up in {board.name(place)}", {})
    )
    return arrive(data, state, step.leader, place, ev, underground=True)


def surfaced(data: GameData, state: State, step: Step, option: str, ev: list[Event]) -> State:
    if option not in step.options:
        fail("Keep the place, or roll again (once)")
    state = pop(state)
    if option == "reroll":
        return push(state, Step("underground", step.seat, leader=step.leader, count=0))
    ev.append(
        Event(
            "CaveExit", f"{data.name(step.leader)}'s army comes up in {data.board.name(step.territory)}", {}
        )
    )
    return arrive(data, state, step.leader, step.territory, ev, underground=True)


def lost_armies(state: State, seat: int) -> tuple[str, ...]:
    return tuple(a.leader for a in state.armies_of(seat) if not a.territory)
