"""Rounds: order markers, initiative, turns in order, lost turns, the round marker.

A round (rulebook, A Round of Play): everyone places markers 1, 2, 3 and X face down at once; everyone
rolls the d20 for initiative (ties for highest roll again); the winner takes each of his turns first and
play passes to the left; three turns each; then the round ends. A turn starts by revealing its marker
(the companion reveals it: that is bookkeeping); a marker on a card whose figures are all gone, or taken
by the Glyph of Ored, loses that turn. The Basic Game has no markers: the most skulls on six dice goes
first, then players alternate, each turn with a card of their choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from companion.engine import Event
from companion.games.heroscape import armies, first_turns, glyphs, powers, scenarios
from companion.games.heroscape.catalog import Catalog, Scenario
from companion.games.heroscape.common import fail, unit_label, who
from companion.games.heroscape.ids import UnitId
from companion.games.heroscape.state import (
    MARKERS,
    Ask,
    RollOff,
    Side,
    State,
    Turn,
    evolve,
    push,
    set_side,
)

TURNS_PER_ROUND = 3


def playing_seats(state: State) -> list[int]:
    """Seats still in the game with figures on the battlefield."""
    return [s for s in range(state.seats) if not state.sides[s].out and state.has_figures(s)]


def begin_round(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    sides = tuple(Side(units=s.units, ready=s.ready, out=s.out, markers=None) for s in state.sides)
    state = evolve(state, sides=sides, turn=None, turn_index=0, order=(), initiative_rolls=())
    ev.append(Event("RoundStarted", f"Round {state.round} begins", {"round": state.round}))
    if scenario.has("rogue-hive") and state.hive is not None and state.hive.alive:
        contenders = tuple(s for s in range(state.seats) if not state.sides[s].out)
        return evolve(state, phase="rolloff", rolloff=RollOff("hive", contenders))
    return evolve(state, phase="markers")


def must_place(state: State) -> list[int]:
    """Who still places order markers this round (players with figures to order)."""
    return [s for s in playing_seats(state) if state.sides[s].markers is None]


def place_markers(cat: Catalog, state: State, seat: int, markers: Sequence[str], ev: list[Event]) -> State:
    if state.phase != "markers":
        fail("Order markers are placed at the start of a round")
    if seat not in must_place(state):
        placed = state.sides[seat].markers is not None
        fail(f"{who(state, seat)} {'placed the markers already' if placed else 'has no figures to order'}")
    units = {uid.format(): unit for uid, unit in state.units_of(seat)}
    chosen = []
    for name, text in zip(MARKERS, markers, strict=True):
        uid = UnitId.parse(text)
        unit = units.get(uid.format())
        if uid.seat != seat or unit is None:
            fail(f"Marker {name}: {who(state, seat)}'s army has no {text}")
        if not unit.alive:
            fail(f"Marker {name}: every figure of {unit_label(cat, state, uid)} is gone")
        chosen.append(uid.format())
    side = state.sides[seat]
    state = set_side(
        state,
        seat,
        Side(units=side.units, ready=side.ready, out=side.out, markers=tuple(chosen)),
    )
    ev.append(Event("MarkersPlaced", f"{who(state, seat)} has placed the order markers", {"seat": seat}))
    return state


def after_markers(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    """Everyone placed: roll for initiative (or, where the scenario says so, Player 1 goes first)."""
    seats = tuple(playing_seats(state))
    if scenario.has("player-1-starts") and state.round == 1:
        order = (0, *[s for s in seats if s != 0]) if 0 in seats else seats
        first = who(state, order[0])
        ev.append(Event("FirstRoundOrder", f"Round 1: {first} goes first, with no initiative roll", {}))
        return start_turns(cat, evolve(state, order=order), ev)
    return evolve(state, phase="rolloff", rolloff=RollOff("initiative", seats))


def order_from(state: State, winner: int, seats: Sequence[int]) -> tuple[int, ...]:
    """The winner first, then to the left (seat order), only ``seats``."""
    ring = [(winner + i) % state.seats for i in range(state.seats)]
    return tuple(s for s in ring if s in seats)


def start_turns(cat: Catalog, state: State, ev: list[Event]) -> State:
    return next_turn(cat, evolve(state, phase="turns", turn=None, turn_index=0), ev)


def next_turn(cat: Catalog, state: State, ev: list[Event]) -> State:
    """Starts the next turn of the round that can be played (revealing its marker); at the end of the
    round, the round-end phase."""
    if state.basic:
        return _next_basic_turn(state)
    order = state.order
    while state.turn_index < TURNS_PER_ROUND * len(order):
        marker, seat = divmod(state.turn_index, len(order))
        seat = order[seat]
        state = evolve(state, turn_index=state.turn_index + 1)
        side = state.sides[seat]
        if side.out or side.markers is None or not state.has_figures(seat):
            continue
        if side.removed[marker]:
            ev.append(
                Event("TurnLost", f"{who(state, seat)} loses turn {marker + 1}: its marker was taken", {})
            )
            continue
        unit = side.markers[marker]
        card = state.unit(UnitId.parse(unit))
        if card is None or not card.alive:
            # The card's figures are gone: it is out of play, even when a twin common card still has
            # figures, and its marker stays face down (rulebook, Life).
            ev.append(Event("TurnLost", f"{who(state, seat)} loses turn {marker + 1}", {"seat": seat}))
            continue
        turn = Turn(seat=seat, marker=marker, unit=unit)
        revealed = tuple(True if i == marker else r for i, r in enumerate(side.revealed))
        state = set_side(
            state, seat, Side(side.units, side.ready, side.markers, revealed, side.removed, side.out)
        )
        title = unit_label(cat, state, UnitId.parse(unit))
        ev.append(
            Event(
                "TurnStarted",
                f"{who(state, seat)}'s turn {marker + 1}: {title}",
                {"seat": seat, "marker": marker + 1, "unit": unit},
            )
        )
        state = evolve(state, turn=turn, last_turn_seat=seat)
        offered = first_turns.offers(cat, state)
        if offered:
            state = push(state, Ask(seat, offered[0][0].kind, offered[0][0].id, subject=unit))
        return state
    return evolve(state, phase="round_end", turn=None)


def _next_basic_turn(state: State) -> State:
    """The Basic Game: whose turn it is (the card is chosen with ``choose_card``)."""
    order = [s for s in state.order if state.has_figures(s)]
    if not order:
        return evolve(state, turn=None)
    seat = state.order[state.turn_index % len(state.order)]
    while not state.has_figures(seat):
        state = evolve(state, turn_index=state.turn_index + 1)
        seat = state.order[state.turn_index % len(state.order)]
    return evolve(state, turn=None, last_turn_seat=seat, round=1 + state.turn_index // len(state.order))


def basic_seat(state: State) -> int:
    return state.order[state.turn_index % len(state.order)]


def choose_card(cat: Catalog, state: State, seat: int, text: str, ev: list[Event]) -> State:
    if not state.basic or state.phase != "turns" or state.turn is not None:
        fail("Cards are chosen at the start of a Basic Game turn")
    if seat != basic_seat(state):
        fail(f"It is {who(state, basic_seat(state))}'s turn")
    uid = UnitId.parse(text)
    unit = state.unit(uid)
    if uid.seat != seat or unit is None or not unit.alive:
        fail(f"{who(state, seat)} has no army card {text} with figures left")
    ev.append(
        Event("TurnStarted", f"{who(state, seat)}'s turn: {unit_label(cat, state, uid)}", {"seat": seat})
    )
    return evolve(state, turn=Turn(seat=seat, marker=-1, unit=uid.format(), step="attack"))


def end_turn(cat: Catalog, state: State, seat: int, ev: list[Event]) -> State:
    turn = state.turn
    if turn is None or turn.step == "ending":
        fail("No turn is being taken")
    if seat != turn.seat:
        fail(f"It is {who(state, turn.seat)}'s turn")
    if turn.first is not None:
        # The card that went first is done: now the revealed card's own turn.
        first, own = (unit_label(cat, state, UnitId.parse(u)) for u in (turn.first, turn.unit))
        ev.append(Event("FirstTurnEnded", f"The turn of {first} is over; now the turn of {own}", {}))
        own_turn = Turn(seat=turn.seat, marker=turn.marker, unit=turn.unit, first_offered=True)
        return evolve(state, turn=own_turn)
    ev.append(Event("TurnEnded", f"{who(state, seat)} ends the turn", {"seat": seat}))
    return evolve(
        state, turn=Turn(turn.seat, turn.marker, turn.unit, "ending", turn.attackers, turn.specials)
    )


def finish_turn(cat: Catalog, state: State, ev: list[Event]) -> State:
    """The turn and what followed it are done: on to the next one."""
    state = evolve(state, turn=None)
    if state.basic:
        return _next_basic_turn(evolve(state, turn_index=state.turn_index + 1))
    return next_turn(cat, state, ev)


def ask_each(state: State, purpose: str, seats: Sequence[int], source: str = "") -> State:
    """Asks ``seats`` one after another (the first now, the rest as the step's queue)."""
    if not seats:
        return state
    return push(state, Ask(seats[0], purpose, source, seats=tuple(seats[1:])))


# ------------------------------------------------------------------------------- the game's flow


def start_battle(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    state = evolve(state, started=True, draft=None)
    ev.append(Event("BattleBegins", f"{scenario.title}: the armies are ready", {}))
    if state.basic:
        return armies.opening_rolloff(state, "first")
    if state.army_mode == "premade":
        return armies.opening_rolloff(state, "placement")
    return begin_round(cat, state, scenario, ev)


def advance(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    """One step of the game's own progress once nothing is waiting for an answer."""
    phase = state.phase
    if phase == "army" and all(side.ready for side in state.sides):
        return start_battle(cat, state, scenario, ev)
    if phase == "draft" and state.draft is None:
        return start_battle(cat, state, scenario, ev)
    if phase == "markers" and not must_place(state):
        return after_markers(cat, state, scenario, ev)
    if phase == "turns" and state.turn is not None and state.turn.step == "ending":
        turn = state.turn
        steps: list[Ask] = list(reversed(scenarios.after_turn_steps(cat, state, scenario)))
        if powers.rebirth_offered(cat, state) is not None:
            steps.insert(0, Ask(turn.seat, "rebirth-offer", "marro-rebirth"))  # asked after the others
        return push(evolve(state, turn=replace(turn, step="after")), *steps)
    if phase == "turns" and state.turn is not None and state.turn.step == "after":
        return finish_turn(cat, state, ev)
    if phase == "round_end":
        order = list(state.order)
        steps = [
            *scenarios.round_end_steps(cat, state, scenario, order),
            *reversed(glyphs.wannok_rolls(state)),
        ]
        return push(evolve(state, phase="closing"), *steps)
    if phase == "closing":
        return close_round(cat, state, scenario, ev)
    return state


def close_round(cat: Catalog, state: State, scenario: Scenario, ev: list[Event]) -> State:
    ev.append(Event("RoundEnded", f"Round {state.round} is over", {"round": state.round}))
    if state.round_limit and state.round >= state.round_limit:
        return scenarios.at_round_limit(cat, state, scenario, ev)
    if scenario.has("rogue-hive"):
        state = evolve(state, hive_controller=None)
        for seat in range(state.seats):
            side = state.sides[seat]
            if not side.out and not state.has_figures(seat):
                ev.append(
                    Event(
                        "PlayerOut",
                        f"{who(state, seat)} has no figures left: out of the game",
                        {"seat": seat},
                    )
                )
                state = set_side(state, seat, replace(side, out=True))
    return begin_round(cat, evolve(state, round=state.round + 1), scenario, ev)
