"""Where each chip lies, and moving chips between the places of the board.

``locations`` lists every place a chip is found (the simulator's invariant: exactly one for every chip).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from companion.games.orcwars_too.state import NEUTRAL, State, evolve, set_army, set_garrison


def locations(state: State) -> dict[str, list[str]]:
    """Chip id -> every place it lies (cup, hand, captive, army, shaman, garrison, battle)."""
    found: dict[str, list[str]] = {}

    def put(chip: str, place: str) -> None:
        found.setdefault(chip, []).append(place)

    for chip in state.cup:
        put(chip, "cup")
    for chip in state.caravan_pile:
        put(chip, "gold pile")
    for seat, hand in enumerate(state.hands):
        for chip in hand.counters:
            put(chip, f"hand {seat}")
        for chip in hand.captives:
            put(chip, f"captive of {seat}")
        for chip in hand.caravans:
            put(chip, f"unplaced caravan of {seat}")
    for army in state.armies:
        put(army.leader, f"leading in {army.territory or 'the dark'}")
        for chip in army.units:
            put(chip, f"army of {army.leader}")
        if army.shaman:
            put(army.shaman, f"shaman of {army.leader}")
    for garrison in state.garrisons:
        for chip in garrison.units:
            put(chip, f"garrison {garrison.owner} in {garrison.territory}")
        if garrison.shaman:
            put(garrison.shaman, f"shaman of garrison {garrison.owner} in {garrison.territory}")
    for caravan in state.caravans:
        put(caravan.chip, "on the board")
    return found


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
