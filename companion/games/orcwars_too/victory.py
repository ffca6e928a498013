"""Victory (rulebook lines 263-268): power (controlled lands plus manned fortresses, at least 12 minus the
number of players) and leadership (at least 5 leaders with armies in orclands). The lands and fortresses
held are also the game's own points in a result.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.orcwars_too.common import units_of
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.state import Army, Garrison, Land, State

POWER = "power"
LEADERSHIP = "leadership"


def lands(data: GameData, state: State, seat: int) -> int:
    return sum(
        1 for land in state.lands if land.controller == seat and data.board.territory(land.territory).orcland
    )


def fortresses(state: State, seat: int) -> int:
    """Fortresses with at least one of the seat's units in them (line 266)."""
    return sum(1 for land in state.lands if land.fortress and units_of(state, seat, land.territory))


def points(data: GameData, state: State, seat: int) -> int:
    return lands(data, state, seat) + fortresses(state, seat)


def power_needed(data: GameData, state: State) -> int:
    return data.rules.victory_lands - state.seats


def leaders_with_armies(data: GameData, state: State, seat: int) -> int:
    return sum(
        1
        for army in state.armies_of(seat)
        if army.units and army.territory and data.board.territory(army.territory).orcland
    )


def conditions_met(data: GameData, state: State, seat: int) -> tuple[str, ...]:
    met = []
    if points(data, state, seat) >= power_needed(data, state):
        met.append(POWER)
    if leaders_with_armies(data, state, seat) >= data.rules.victory_leaders:
        met.append(LEADERSHIP)
    return tuple(met)


@dataclass(frozen=True)
class Holdings:
    """One seat's standing in a single pass over the board (the view is drawn after every input)."""

    lands: int
    fortresses: int
    authority: int
    leaders_with_armies: int


def holdings(data: GameData, state: State) -> tuple[Holdings, ...]:
    return holdings_of(data, state.seats, state.lands, state.armies, state.garrisons)


def holdings_of(
    data: GameData,
    seats: int,
    lands: tuple[Land, ...],
    armies: tuple[Army, ...],
    garrisons: tuple[Garrison, ...],
) -> tuple[Holdings, ...]:
    """Every seat's holdings, in one pass over the board."""
    present: dict[str, set[int]] = {}
    for army in armies:
        present.setdefault(army.territory, set()).add(army.owner)
    for garrison in garrisons:
        present.setdefault(garrison.territory, set()).add(garrison.owner)
    held = [0] * seats
    forts = [0] * seats
    for land in lands:
        if land.controller is not None and data.board.territory(land.territory).orcland:
            held[land.controller] += 1
        if land.fortress:
            for seat in present.get(land.territory, ()):
                if seat >= 0:
                    forts[seat] += 1
    authority = [0] * seats
    led = [0] * seats
    for army in armies:
        authority[army.owner] += data.counter(army.leader).authority
        if army.units and army.territory and data.board.territory(army.territory).orcland:
            led[army.owner] += 1
    return tuple(Holdings(held[s], forts[s], authority[s], led[s]) for s in range(seats))
