"""Where each chip lies, and moving chips between the places of the board.

``locations`` lists every place a chip is found (the simulator's invariant: exactly one for every chip).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.games.orcwars_too.state import NEUTRAL, State, evolve, set_army, set_garrison


def locations(state: State) -> dict[str, list[str]]:
    """Chip id -> every place it lies (cup, hand, captive, army, shaman, garrison, board)."""
    found: dict[str, list[str]] = {}
    places: list[tuple[str, Iterable[str]]] = [("cup", state.cup), ("gold pile", state.caravan_pile)]
    for seat, hand in enumerate(state.hands):
        places += [(f"hand {seat}", hand.counters), (f"captive of {seat}", hand.captives)]
        places.append((f"unplaced caravan of {seat}", hand.caravans))
    for army in state.armies:
        places += [
            (f"leading in {army.territory or 'the dark'}", (army.leader,)),
            (f"army of {army.leader}", army.units),
        ]
        if army.shaman:
            places.append((f"shaman of {army.leader}", (army.shaman,)))
    for garrison in state.garrisons:
        where = f"garrison {garrison.owner} in {garrison.territory}"
        places.append((where, (*garrison.units, *((garrison.shaman,) if garrison.shaman else ()))))
    places.append(("on the board", tuple(c.chip for c in state.caravans)))
    for place, chips in places:
        for chip in chips:
            if chip in found:
                found[chip].append(place)
            else:
                found[chip] = [place]
    return found


def chips_placed(state: State) -> list[str]:
    """Every chip of every place, as often as it lies there (the quick form of ``locations``)."""
    placed = [*state.cup, *state.caravan_pile]
    for hand in state.hands:
        placed += hand.counters
        placed += hand.captives
        placed += hand.caravans
    for army in state.armies:
        placed.append(army.leader)
        placed += army.units
        if army.shaman:
            placed.append(army.shaman)
    for garrison in state.garrisons:
        placed += garrison.units
        if garrison.shaman:
            placed.append(garrison.shaman)
    placed += (c.chip for c in state.caravans)
    return placed


def gold_in_play(state: State) -> int:
    """Every gold chip: the pile, hands, armies' purses and caravans' treasuries."""
    return (
        state.gold_pile
        + sum(h.gold for h in state.hands)
        + sum(a.gold for a in state.armies)
        + sum(c.treasury for c in state.caravans)
    )


def remove_units(state: State, chips: Iterable[str]) -> State:
    """The state with these chips taken off whatever army or garrison holds them (leaders stay)."""
    gone = set(chips)
    if not gone:
        return state
    armies = tuple(
        replace(a, units=tuple(u for u in a.units if u not in gone)) if gone & set(a.units) else a
        for a in state.armies
    )
    state = evolve(state, armies=armies)
    for garrison in state.garrisons:
        if gone & set(garrison.units):
            kept = tuple(u for u in garrison.units if u not in gone)
            if not kept and garrison.shaman:
                state = evolve(state, cup=tuple(sorted((*state.cup, garrison.shaman))))  # no garrison left
            state = set_garrison(
                state, garrison.territory, garrison.owner, kept, garrison.shaman if kept else None
            )
    return state


def add_to_army(state: State, leader: str, chips: Iterable[str]) -> State:
    army = state.army(leader)
    assert army is not None
    added = tuple(chips)
    return set_army(state, replace(army, units=tuple(sorted((*army.units, *added))))) if added else state


def to_garrison(
    state: State, territory: str, owner: int, chips: Iterable[str], shaman: str | None = None
) -> State:
    """Chips (and a shaman, when the garrison has none) left in ``territory`` for ``owner``; a shaman that
    cannot stay (the garrison has one, or holds no unit) goes back to the tribe cup."""
    garrison = state.garrison(territory, owner)
    units = (*(garrison.units if garrison else ()), *chips)
    held = garrison.shaman if garrison else None
    spare = ()
    if shaman and (held or not units):
        spare, shaman = (shaman,), None
    state = set_garrison(state, territory, owner, tuple(units), held or shaman)
    return evolve(state, cup=tuple(sorted((*state.cup, *spare)))) if spare else state


def neutral_units(state: State, territory: str) -> tuple[str, ...]:
    garrison = state.garrison(territory, NEUTRAL)
    return garrison.units if garrison else ()
