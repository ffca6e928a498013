"""A war machine's crew makes room for it (card reference p.15, "Red Cards – War Machines").

"Whenever a player receives a crew card [...] the player must take any war machine cards of the same
set from the battle lines of all other players [...] He must then place the cards in his own battle
lines – if there are not enough open spaces, he must discard cards to make room. [...] Any cards that
cannot be placed are discarded."

Reading: a war machine card waiting to be placed *with its crew* (the crew waits beside it or already
stands in the placer's lines) that no open slot of his lines takes may not be discarded while
discarding one of his own cards would open a slot for it. He discards such a card (``MakeRoom``),
then places the machine card. Cards of the same machine are never thrown away to make room for it.
Only when no single discard opens a slot is the machine card itself discarded. (Machine cards have no
symbol, so one freed slot between a line's ends always takes one; a second discard is never needed
where a first does not help.)
"""

from __future__ import annotations

from companion.engine import Event, IllegalActionError
from companion.games.chaos_marauders.actions import MakeRoom
from companion.games.chaos_marauders.cards import CardId, Part
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.placement import gits_wait, open_slots
from companion.games.chaos_marauders.state import PlaceStep, State, discard, set_cell

_PART_CREW = Part.CREW


def crew_backed(f: Facts, state: State, top: PlaceStep, card: CardId) -> bool:
    """Is ``card`` a war machine card whose crew waits with it or stands in its placer's lines?"""
    machine = f.machine[card]
    if machine is None:
        return False
    crew = next((c for c in f.machine_parts[machine] if f.part[c] is _PART_CREW), None)
    if crew is None:
        return False  # the Boneshaker: a two-card set with no crew to pull it
    if any(p.card == crew for p in top.cards):
        return True
    return any(crew in cells for cells in state.boards[top.player])


def room_spots(f: Facts, state: State, top: PlaceStep, card: CardId) -> list[tuple[int, int]]:
    """The placer's own cards (line, slot) whose discard would open a slot for ``card``; empty when
    ``card`` needs no room (it fits already, or no crew backs it) or no discard helps."""
    if not crew_backed(f, state, top, card):
        return []
    board = state.boards[top.player]
    if any(open_slots(f, cells, card) for cells in board):
        return []
    machine = f.machine[card]
    spots = []
    for li, cells in enumerate(board):
        for s, other in enumerate(cells):
            if other is None or f.machine[other] == machine:
                continue
            if open_slots(f, (*cells[:s], None, *cells[s + 1 :]), card):
                spots.append((li, s))
    return spots


def all_room_spots(f: Facts, state: State, top: PlaceStep) -> list[tuple[int, int]]:
    """Every spot a ``MakeRoom`` may clear now, for any card of the step, in reading order."""
    spots: set[tuple[int, int]] = set()
    for p in top.cards:
        spots.update(room_spots(f, state, top, p.card))
    return sorted(spots)


def make_room(f: Facts, state: State, a: MakeRoom, ev: list[Event]) -> State:
    top = state.top
    if not isinstance(top, PlaceStep):
        raise IllegalActionError("No war machine card waits for room")
    name = state.names[top.player]
    if a.player != top.player:
        raise IllegalActionError(f"It is {name}'s card to place")
    if gits_wait(f, top, None):
        raise IllegalActionError("Won Sneaky Gits are placed first")
    if (a.line, a.slot) not in all_room_spots(f, state, top):
        raise IllegalActionError(
            f"Line {a.line + 1}, slot {a.slot + 1}: discarding it makes no room a war machine card needs"
        )
    card = state.card_at(a.player, a.line, a.slot)
    assert card is not None  # a room spot holds a card
    machines = ", ".join(dict.fromkeys(str(f.machine[p.card]) for p in top.cards if f.machine[p.card]))
    ev.append(
        Event(
            "RoomMade",
            f"{name} discarded {f.card[card].title} to make room for the {machines}",
            {"player": a.player, "line": a.line, "slot": a.slot, "card": card},
        )
    )
    return discard(set_cell(state, a.player, a.line, a.slot, None), card)
