"""The scenarios' own rules: victory conditions, what happens at the end of a turn or round, and the
facts only the map knows that players declare (a Hero reaching the exit, a zone cleared, the flood).

Each scenario's data names its ``victory`` and its ``rules``; the code for each is here, next to its
rulebook wording. Team games: teammates win or lose together.
"""

from __future__ import annotations

from companion.engine import Event
from companion.games.heroscape.catalog import Catalog, Scenario
from companion.games.heroscape.combat import destroy, heal, wound
from companion.games.heroscape.common import (
    acting_pool,
    fail,
    figure_label,
    living_figures,
    owned_label,
    refuse_if_trapped,
    team_of,
    who,
)
from companion.games.heroscape.glyphs import holds
from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.scoring import points_on_battlefield
from companion.games.heroscape.state import D20, EXITED, Ask, State, evolve, pop, push

SIMULTANEOUS = ("flood", "siren")
"""End-of-round questions put to each player in turn whose losses happen at the same time (Deadly Wall
of Water: 'If both players lose their last figure at the same time, then neither player wins')."""
FLOOD_CHANCE = ((3, 4), (4, 8), (5, 10))
"""(from round, floods on this or lower) for the Deadly Wall of Water (rulebook: 1-4, 1-8, then 1-10)."""
DRINK_WOUNDS_ON = 1
DRINK_HEALS_TWO_FROM = 18
"""Waters of Life: 'If a 1 is rolled, the Unique Hero receives one wound. If a 2-17 is rolled, the Unique
Hero removes one wound. If an 18-20 is rolled, the Unique Hero removes two wounds.'"""
PROTECT_THE_WATERS_KILLS = 6
"""Protect the Waters: 'Player 1 wins immediately if he destroys six figures in Player 2's Army'."""


def teams_with_figures(state: State) -> set[int]:
    return {team_of(state, s) for s in range(state.seats) if not state.sides[s].out and state.has_figures(s)}


def seats_of_team(state: State, team: int) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if team_of(state, s) == team)


def destroyed_count(state: State, seat: int) -> int:
    return sum(1 for _, unit in state.units_of(seat) for f in unit.figures if f.status == "destroyed")


def heroes(cat: Catalog, state: State, seat: int, status: str) -> int:
    return sum(
        1
        for uid, unit in state.units_of(seat)
        if cat.card(uid.card).hero
        for f in unit.figures
        if f.status == status
    )


def finish(state: State, winners: tuple[int, ...], reason: str, ev: list[Event]) -> State:
    names = " & ".join(who(state, s) for s in winners)
    text = f"{names} {'win' if len(winners) > 1 else 'wins'}: {reason}" if winners else f"No winner: {reason}"
    ev.append(Event("GameOver", text, {"winners": list(winners)}))
    return evolve(state, finished=True, winners=winners, reason=reason, phase="over", stack=(), turn=None)


def check_victory(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    """Ends the game when a victory condition holds now (checked after every input)."""
    if state.finished or not state.started:
        return state
    top = state.top
    if isinstance(top, Ask) and top.purpose in SIMULTANEOUS:
        return state  # everyone's losses are declared before anyone is found the last one standing
    victory = scenario.victory
    alive = teams_with_figures(state)
    if victory in ("destroy-all", "last-standing"):
        if len(alive) == 1:
            return finish(state, seats_of_team(state, alive.pop()), "the last army standing", ev)
        if not alive:
            return finish(state, (), "the last figures fell together", ev)
        return state
    p1, p2 = state.has_figures(0), state.has_figures(1)
    if victory == "spring-surprise":
        if not p1:
            return finish(state, (1,), "every figure of Player 1 is destroyed", ev)
        if not p2:
            return finish(state, (0,), "every figure of Player 2 is destroyed", ev)
    elif victory == "ominous-beginnings":
        if heroes(cat, state, 0, "destroyed"):
            return finish(state, (1,), "a Hero of Player 1 fell", ev)
        if not p2:
            return finish(state, (0,), "every figure of Player 2 is destroyed", ev)
        if not p1 and heroes(cat, state, 0, EXITED):
            return finish(state, (0,), "the Heroes made it out of the pass", ev)
    elif victory == "protect-the-waters":
        if not p1:
            return finish(state, (1,), "every figure of Player 1 is destroyed", ev)
        if destroyed_count(state, 1) >= PROTECT_THE_WATERS_KILLS:
            return finish(state, (0,), "Player 1 destroyed six figures of Player 2's army", ev)
    elif victory == "unexpected-capture":
        if destroyed_count(state, 0) >= 2:
            return finish(state, (1,), "two of Player 1's figures are destroyed", ev)
        if not p2 and heroes(cat, state, 0, "") >= 4:
            return finish(state, (0,), "Player 2's army is destroyed and four Heroes stand", ev)
    elif victory == "waters-of-life":
        if hive_destroyed(state):
            return finish(state, (0,), "the Marro Hive is destroyed", ev)
        if not p1:
            return finish(state, (1,), "every figure of Player 1 is destroyed", ev)
    return state


def hive_destroyed(state: State) -> bool:
    return any(u.card == "marro-hive" and not u.alive for side in state.sides for u in side.units)


def at_round_limit(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    """The last round is over: the scenario's rule, else the most points on the battlefield."""
    victory = scenario.victory
    if victory in ("ominous-beginnings", "unexpected-capture"):
        return finish(state, (1,), f"Player 1 did not win by the end of Round {state.round_limit}", ev)
    if victory == "waters-of-life":
        return finish(state, (1,), f"the Marro Hive survived to the end of Round {state.round_limit}", ev)
    scores = points_on_battlefield(cat, state)
    by_team: dict[int, float] = {}
    for seat, score in enumerate(scores):
        if not state.sides[seat].out:
            by_team[team_of(state, seat)] = by_team.get(team_of(state, seat), 0) + score
    best = max(by_team.values(), default=0)
    top = [t for t, v in by_team.items() if v == best]
    winners = tuple(s for t in top for s in seats_of_team(state, t))
    reason = f"the most points on the battlefield after Round {state.round_limit}"
    return finish(state, winners, reason + (" (a tie)" if len(top) > 1 else ""), ev)


# ------------------------------------------------------------------------------------ declarations


def declare(
    cat: Catalog,
    state: State,
    scenario: Scenario,
    seat: int,
    fact: str,
    figures: tuple[str, ...],
    ev: list[Event],
) -> State:
    """A fact of the map a scenario needs, declared by ``seat`` during a turn (not as an answer)."""
    if state.phase != "turns" or state.stack:
        fail("Declare that during a turn, when nothing else is waiting for an answer")
    if fact == "exited" and scenario.has("exit-zone"):
        if seat != 0:
            fail("Only Player 1's Heroes leave through the Exit Zone")
        if not figures:
            fail("Name the Heroes who reached the Exit Zone")
        for text in figures:
            fid = FigureId.parse(text)
            figure = state.figure(fid)
            if fid.seat != 0 or figure is None or not figure.alive or not cat.card(fid.unit.card).hero:
                fail(f"{text} is not one of Player 1's Heroes on the battlefield")
            if fid not in acting_pool(cat, state):
                fail(f"{figure_label(cat, state, fid)} reaches the Exit Zone by moving on its own turn")
            refuse_if_trapped(cat, state, fid)
            state = destroy(cat, state, fid, ev, status=EXITED)
        return state
    if fact == "zone" and scenario.has("zone-control"):
        if seat != 0:
            fail("Only Player 1 wins by clearing a zone")
        return finish(state, (0,), "Player 1 holds a zone alone", ev)
    if fact == "water" and scenario.has("water-spaces"):
        if seat != 1:
            fail("Only Player 2 wins by occupying the water")
        return finish(state, (1,), "Player 2 occupies four water spaces", ev)
    fail(f"{scenario.title} has no '{fact}' to declare now")


# ------------------------------------------------------------------------------- end of a turn


def after_turn_steps(cat: Catalog, state: State, scenario: Scenario) -> list[Ask]:
    """Questions when a turn ends: the Siren's Call's adjacent figures, the Waters of Life."""
    turn = state.turn
    if turn is None:
        return []
    steps = []
    if scenario.has("siren-call"):
        steps.append(Ask(turn.seat, "siren-adjacent", "siren-call"))
    if scenario.has("waters-of-life"):
        for fid in drinkers(cat, state):
            steps.append(Ask(fid.seat, "drink", "waters-of-life", subject=fid.format()))
    return steps


def drinkers(cat: Catalog, state: State) -> list[FigureId]:
    """The turn's unique Heroes (the Marro Hive included) who may drink if they stand in the water."""
    turn = state.turn
    if turn is None:
        return []
    out = []
    for uid, unit in state.units_of(turn.seat):
        card = cat.card(uid.card)
        if uid.format() == turn.unit and card.unique and card.hero:
            out.extend(uid.figure(n) for n in unit.living())
    return out


def drink_rolled(cat: Catalog, state: State, step: D20, value: int, ev: list[Event]) -> State:
    state = pop(state)
    fid = FigureId.parse(step.target)
    name = figure_label(cat, state, fid)
    if value <= DRINK_WOUNDS_ON:
        ev.append(Event("DrankBadly", f"{name} drinks from the Waters of Life: {value}, a wound", {}))
        state, _ = wound(cat, state, fid, 1, ev)
        return state
    amount = 2 if value >= DRINK_HEALS_TWO_FROM else 1
    ev.append(Event("Drank", f"{name} drinks from the Waters of Life: {value}", {}))
    return heal(cat, state, fid, amount, ev)


def adjacent_wounds(
    cat: Catalog, state: State, seat: int, figures: tuple[str, ...], ev: list[Event]
) -> State:
    """The Siren's Call: each figure that ended its turn adjacent to the infected Hive takes a wound."""
    for text in figures:
        fid = FigureId.parse(text)
        if fid.seat != seat or state.figure(fid) is None or not state.figure(fid).alive:  # type: ignore[union-attr]
            fail(f"{text} is not one of {who(state, seat)}'s figures on the battlefield")
    for text in figures:
        ev.append(
            Event(
                "SirenBite",
                f"{owned_label(cat, state, FigureId.parse(text))} ended its turn "
                "adjacent to the infected Hive",
                {},
            )
        )
        state, _ = wound(cat, state, FigureId.parse(text), 1, ev)
    return state


# ------------------------------------------------------------------------------ end of a round


def flood_chance(round_number: int) -> int:
    """The highest d20 that floods the ledge at the end of this round (0: no roll yet)."""
    chance = 0
    for start, floods in FLOOD_CHANCE:
        if round_number >= start:
            chance = floods
    return chance


def round_end_steps(cat: Catalog, state: State, scenario: Scenario, order: list[int]) -> list[D20 | Ask]:
    """What the scenario asks at the end of a round, first question last (a stack)."""
    steps: list[D20 | Ask] = []
    if scenario.has("deadly-wall"):
        if state.flooded:
            steps.extend(flood_asks(state, order))
        elif flood_chance(state.round):
            roller = state.last_turn_seat if state.last_turn_seat is not None else order[0]
            steps.append(D20(roller, "flood", "deadly-wall", threshold=flood_chance(state.round)))
    if scenario.has("siren-call"):
        seats = [s for s in order if state.has_figures(s)]
        if seats:
            steps.append(Ask(seats[0], "siren", "siren-call", seats=tuple(seats[1:])))
    return list(reversed(steps))


def flood_asks(state: State, order: list[int]) -> list[Ask]:
    """Everyone with figures declares which stand on Level 1 or in water (a Brandar holder's army is
    safe)."""
    seats = [s for s in order if state.has_figures(s) and not holds(state, s, "brandar")]
    return [Ask(seats[0], "flood", "deadly-wall", seats=tuple(seats[1:]))] if seats else []


def flood_rolled(state: State, step: D20, value: int, order: list[int], ev: list[Event]) -> State:
    state = pop(state)
    if value > step.threshold:
        ev.append(
            Event(
                "FloodHeld", f"The wall of water holds: {value} (it floods on {step.threshold} or lower)", {}
            )
        )
        return state
    ev.append(Event("Flood", f"The Deadly Wall of Water: {value}, it floods every Level 1 space!", {}))
    state = evolve(state, flooded=True)
    return push(state, *flood_asks(state, order))


def flooded(cat: Catalog, state: State, seat: int, figures: tuple[str, ...], ev: list[Event]) -> State:
    for text in figures:
        fid = FigureId.parse(text)
        figure = state.figure(fid)
        if fid.seat != seat or figure is None or not figure.alive:
            fail(f"{text} is not one of {who(state, seat)}'s figures on the battlefield")
    for text in figures:
        state = destroy(cat, state, FigureId.parse(text), ev)
    if not figures:
        ev.append(Event("FloodMissed", f"{who(state, seat)} has no figure in the flood", {}))
    return state


def siren_wound(cat: Catalog, state: State, seat: int, figures: tuple[str, ...], ev: list[Event]) -> State:
    if len(figures) > 1:
        fail("The Siren's Call wounds one figure of each player")
    if not figures:
        ev.append(Event("SirenMissed", f"{who(state, seat)} has no figure within 7 spaces of the Hive", {}))
        return state
    fid = FigureId.parse(figures[0])
    figure = state.figure(fid)
    if fid.seat != seat or figure is None or not figure.alive:
        fail(f"{figures[0]} is not one of {who(state, seat)}'s figures on the battlefield")
    ev.append(Event("SirenCall", f"The Siren's Call: {figure_label(cat, state, fid)} takes a wound", {}))
    state, _ = wound(cat, state, fid, 1, ev)
    return state


def living(state: State, seat: int) -> list[FigureId]:
    return living_figures(state, seat)
