"""Hand corrections of the table: the physical cards are the truth, the control page fixes the record.

A sensor that missed a card, or a player's slip, is corrected from a phone at any moment of the game:

- ``correct_place``: a card from the draw pile or the discard pile is put on a seat's line slot;
- ``correct_remove``: the card on a seat's line slot goes to the discard pile.

Corrections answer no prompt: they never change whose turn it is or what the table is asked, and
they are never listed as legal actions (the simulator must not play them). Every card stays counted.
A placement the rules forbid is refused, except a duplicate symbol: the rules deal with a line found
holding illegal duplicates by Cheatin' Git (cheating.py), which discards both cards at once. The
"within three spaces of another card" rule of a Sneaky Git or an Idol given to an opponent (card
reference: Sneaky Git, Idol) is not applied: it binds the moment of placing, and a Git that was placed legally
may stand alone after the cards beside it were lost; a correction records where it stands now. A card
removed from a complete line leaves it incomplete; completed again in a later turn it attacks as
normal (rulebook p.12, "Losing Cards In a Completed Battle Line"), which the turn flow already does.
Once a player's three complete lines have ended the game, a correction may not break them: undoing
the input that ended it is the way back.
"""

from __future__ import annotations

from companion.engine import Event, IllegalActionError, MalformedActionError
from companion.games.chaos_marauders import cheating
from companion.games.chaos_marauders.actions import CorrectPlace, CorrectRemove
from companion.games.chaos_marauders.cards import CardId
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.flow import line_name, title, who
from companion.games.chaos_marauders.placement import is_complete, slot_error, tribe_full
from companion.games.chaos_marauders.state import Cells, GreenRoll, State, set_cell

OFF_THE_LINES = frozenset({Ability.VENEMOUS_CREEPS, Ability.DAGROMM, Ability.SKYRRS_BLOWBACK})
"""Green cards resolved and discarded, never laid in a battle line."""


def _shown(f: Facts, card: CardId) -> str:
    """The card's title as the TV may say it: Chaos Marauders stay "a card" (the table must spot them)."""
    return "a card" if f.ability[card] == Ability.CHAOS_MARAUDERS else title(f, card)


def _where(state: State, seat: int, line: int, slot: int) -> str:
    return f"{who(state, seat)}'s {line_name(line)}, slot {slot + 1}"


def placement_error(f: Facts, cells: Cells, card: CardId, slot: int) -> tuple[str | None, bool]:
    """Why ``card`` may not go on ``slot`` by hand (None: it may) and whether it would duplicate a
    symbol of the line (allowed: Cheatin' Git discards both)."""
    if cells[slot] is not None:
        return f"slot {slot + 1} already holds {_shown(f, cells[slot])}", False
    symbol = f.symbol[card]
    duplicates = False
    if symbol is not None and not f.line_duplicates[card]:
        probe = list(cells)
        for i, other in enumerate(cells):
            if other is not None and f.symbol[other] == symbol and not f.line_duplicates[other]:
                probe[i] = None
                duplicates = True
        cells = tuple(probe)
    return slot_error(f, cells, card, slot), duplicates


def correct_place(f: Facts, state: State, a: CorrectPlace, ev: list[Event]) -> State:
    card = a.card
    index = f.index.get(card)
    if index is None:
        raise MalformedActionError(f"unknown card {card!r}")
    name = title(f, card)
    if f.ability[card] in OFF_THE_LINES:
        raise IllegalActionError(f"{name} is never laid in a battle line")
    git = f.ability[card] == Ability.SNEAKY_GIT
    if git:
        if a.owner is None:
            raise IllegalActionError("Say which player owns this Sneaky Git")
        if not 0 <= a.owner < state.seats:
            raise MalformedActionError(f"correct_place.owner: there is no seat {a.owner}")
        if a.owner == a.player:
            raise IllegalActionError("A Sneaky Git goes in an opponent's battle line")
    elif a.owner is not None:
        raise IllegalActionError("Only a Sneaky Git has an owner")
    top = state.top
    if isinstance(top, GreenRoll) and top.ability == "git-odlugg":
        if (top.target, top.target_line, top.slot) == (a.player, a.line, a.slot):
            raise IllegalActionError(
                f"{_where(state, a.player, a.line, a.slot)} is kept for the Sneaky Git Odlugg may eat"
            )
    if tribe_full(f, state.boards[a.player], card):
        raise IllegalActionError(
            f"{name} cannot go in {_where(state, a.player, a.line, a.slot)}: "
            "a tribe cannot hold four cards with one symbol"
        )
    error, duplicates = placement_error(f, state.boards[a.player][a.line], card, a.slot)
    if error:
        raise IllegalActionError(f"{name} cannot go in {_where(state, a.player, a.line, a.slot)}: {error}")
    if a.source == "pile":
        if state.pile[index] == 0:
            raise IllegalActionError(f"No {name} is left in the draw pile")
        counts = list(state.pile)
        counts[index] -= 1
        changes: dict[str, object] = {"pile": tuple(counts)}
    else:
        if card not in state.discard:
            raise IllegalActionError(f"No {name} is in the discard pile")
        at = len(state.discard) - 1 - state.discard[::-1].index(card)  # the topmost copy
        changes = {"discard": state.discard[:at] + state.discard[at + 1 :]}
    state = set_cell(state, a.player, a.line, a.slot, card, a.owner if git else None, **changes)
    from_where = "draw pile" if a.source == "pile" else "discard pile"
    ev.append(
        Event(
            "CardCorrected",
            f"Correction: {_shown(f, card)} put in {_where(state, a.player, a.line, a.slot)}",
            {
                "player": a.player,
                "line": a.line,
                "slot": a.slot,
                **({} if _shown(f, card) == "a card" else {"card": card}),
                "source": a.source,
                "from": from_where,
                "change": "placed",
            },
        )
    )
    if duplicates:
        state = cheating.enforce(f, state, ev)  # found the instant it is discovered
    _keep_the_ending(f, state)
    return state


def _keep_the_ending(f: Facts, state: State) -> None:
    """The game ends the moment a player completes three lines; a correction may not undo that."""
    seat = state.first_to_complete
    if seat is not None and not all(is_complete(f, cells) for cells in state.boards[seat]):
        raise IllegalActionError(
            f"{who(state, seat)} completed three battle lines and ended the game: "
            "undo the input that ended it to change those lines"
        )


def correct_remove(f: Facts, state: State, a: CorrectRemove, ev: list[Event]) -> State:
    card = state.card_at(a.player, a.line, a.slot)
    if card is None:
        raise IllegalActionError(f"{_where(state, a.player, a.line, a.slot)} holds no card")
    changes: dict[str, object] = {"discard": (*state.discard, card)}
    if a.player == state.active:
        if state.marauders_at == (a.line, a.slot):
            changes["marauders_at"] = None
        if state.fresh is not None and state.fresh[1:] == (a.line, a.slot):
            changes["fresh"] = None  # the fresh card is gone: no Git can force its discard now
    state = set_cell(state, a.player, a.line, a.slot, None, **changes)
    _keep_the_ending(f, state)
    ev.append(
        Event(
            "CardCorrected",
            f"Correction: {_shown(f, card)} taken from {_where(state, a.player, a.line, a.slot)} "
            "to the discard pile",
            {
                "player": a.player,
                "line": a.line,
                "slot": a.slot,
                **({} if _shown(f, card) == "a card" else {"card": card}),
                "change": "removed",
            },
        )
    )
    return state


HANDLERS = {CorrectPlace: correct_place, CorrectRemove: correct_remove}

__all__ = ["HANDLERS", "OFF_THE_LINES", "correct_place", "correct_remove", "placement_error"]
