"""The position of a Chaos Marauders game as immutable values.

The companion never knows the order of the physical deck, so the draw pile is a multiset (a count per
card title, in catalog order). Each player has three battle lines of twelve slots; a slot holds a card
id or None. Sneaky Git control markers live beside the lines as ``markers`` (seat, line, slot, owner)
because only Gits carry them. What the turn waits for is a stack of *steps*: the top step is the
current question (place this card, attack or not, roll the Cube, ...); an empty stack means the active
player draws. Every step that holds cards off the table (a drawn card, a captured card, a green card
being resolved) says so through ``held()``, so card conservation can be checked at any moment.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import evolver
from companion.games.chaos_marauders.cards import CardId

LINES = 3
SLOTS = 12

Cells = tuple[CardId | None, ...]
"""One battle line: twelve slots, left to right."""
Board = tuple[Cells, Cells, Cells]
"""A player's three battle lines, top to bottom."""
Marker = tuple[int, int, int, int]
"""A Sneaky Git control marker: (seat of the line's player, line, slot, seat of the Git's owner)."""

EMPTY_LINE: Cells = (None,) * SLOTS
EMPTY_BOARD: Board = (EMPTY_LINE, EMPTY_LINE, EMPTY_LINE)


# ---------------------------------------------------------------------------------------------- steps


@dataclass(frozen=True, slots=True)
class Pending:
    """A card waiting to be placed; ``owner`` is the Git owner's seat for a won Sneaky Git."""

    card: CardId
    owner: int | None = None


@dataclass(frozen=True, slots=True)
class PlaceStep:
    """``player`` must place (or discard) each card of ``cards``.

    ``source`` says where the cards came from: "draw", "capture", "steal", "pull", "shout",
    "penalty", "odlugg". ``may_attack``: a line these cards complete may attack (only cards the active
    player drew or stole in his own turn). ``hint_line``: the table put the card on this line's reader
    without saying which slot.
    """

    player: int
    cards: tuple[Pending, ...]
    source: str
    may_attack: bool
    hint_line: int | None = None

    def held(self) -> tuple[CardId, ...]:
        return tuple(p.card for p in self.cards)


@dataclass(frozen=True, slots=True)
class AttackOffer:
    """``player``'s line ``line`` may attack (``attacks_left``: 2 with a Shaman); ``bilge``: Bilge leads."""

    player: int
    line: int
    attacks_left: int
    bilge: bool = False

    def held(self) -> tuple[CardId, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """The attacker rolls the Cube for ``player``'s line ``line`` against ``target``'s ``target_line``."""

    player: int
    line: int
    target: int
    target_line: int
    attacks_left: int
    bilge: bool = False

    def held(self) -> tuple[CardId, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class CardChoice:
    """``player`` picks a card on the table for an ability (``ability``: "stick", "steal", "take"),
    or declines. ``card`` is the green card being resolved (held until done), if any;
    ``versus`` narrows the choice to one opponent (a false shout's shouter)."""

    player: int
    ability: str
    card: CardId | None = None
    versus: int | None = None

    def held(self) -> tuple[CardId, ...]:
        return (self.card,) if self.card else ()


@dataclass(frozen=True, slots=True)
class GreenRoll:
    """A green card's Cube rolls: "dagromm" (``count`` rolls made so), "blowback" (against
    ``target``/``target_line``), "git-odlugg" (a Git to place at ``target``/``target_line``/``slot``)."""

    player: int
    ability: str
    card: CardId
    count: int = 0
    target: int = -1
    target_line: int = -1
    slot: int = -1

    def held(self) -> tuple[CardId, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class BlowbackTarget:
    """``player`` drew Skyrr's Blowback: choose an opponent's line or decline."""

    player: int
    card: CardId

    def held(self) -> tuple[CardId, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class OdluggRolls:
    """Everyone rolls when Odlugg is drawn; ``faces`` per seat ("" while awaited)."""

    drawer: int
    card: CardId
    faces: tuple[str, ...]

    def held(self) -> tuple[CardId, ...]:
        return (self.card,)


@dataclass(frozen=True, slots=True)
class OdluggEats:
    """``player`` (Odlugg's holder) rolls once per card at ``spots`` (line, slot); a Mark eats it."""

    player: int
    spots: tuple[tuple[int, int], ...]

    def held(self) -> tuple[CardId, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class BlueRolls:
    """Odlugg's holder ``player`` rolls for each blue card of the PlaceStep below before placing it."""

    player: int
    cards: tuple[CardId, ...]

    def held(self) -> tuple[CardId, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class BilgeChoice:
    """Bilge Guttrot joined ``player``'s line ``line``: reorganise, lead an attack, or neither."""

    player: int
    line: int

    def held(self) -> tuple[CardId, ...]:
        return ()


@dataclass(frozen=True, slots=True)
class IdolRolls:
    """End of game: the Idol's holder rolls six times; ``faces`` so far."""

    player: int
    faces: tuple[str, ...] = ()

    def held(self) -> tuple[CardId, ...]:
        return ()


Step = (
    PlaceStep
    | AttackOffer
    | AttackRoll
    | CardChoice
    | GreenRoll
    | BlowbackTarget
    | OdluggRolls
    | OdluggEats
    | BlueRolls
    | BilgeChoice
    | IdolRolls
)


# ---------------------------------------------------------------------------------------------- state


@dataclass(frozen=True)
class State:
    """A whole game position. Equal positions compare equal (replay is checked against snapshots)."""

    names: tuple[str, ...]
    colours: tuple[str, ...]
    pile: tuple[int, ...]
    """Draw pile: copies left per card title, in catalog order."""
    discard: tuple[CardId, ...]
    """Discard pile, bottom first (the last item is the top card)."""
    boards: tuple[Board, ...]
    markers: tuple[Marker, ...] = ()
    active: int = 0
    round: int = 1
    first: int = 0
    """The seat that took the first turn (a round ends when play comes back to it)."""
    stack: tuple[Step, ...] = ()
    turn_ends: bool = False
    """The current turn ends as soon as the stack is empty (a turn-ending card was drawn, an attack)."""
    fresh: tuple[CardId, int, int] | None = None
    """The card the active player just drew: (card, line, slot) once placed, (card, -1, -1) while held.
    A Sneaky Git's owner may force its discard while it is fresh."""
    marauders_at: tuple[int, int] | None = None
    """(line, slot) where the active player placed Chaos Marauders this turn: a shout takes it."""
    attacked: bool = False
    """The active player declared an attack this turn: no later completion offers another (the turn
    ends once it is resolved; a Shaman's second attack is offered by the first)."""
    marauders_drawn: bool = False
    """The active player drew Chaos Marauders this turn: a shout is right, never false, even once the
    card was taken by an earlier shout or has left his lines (card reference: Chaos Marauders)."""
    first_to_complete: int | None = None
    finished: bool = False
    idol_faces: tuple[str, ...] | None = None
    """The end-of-game Idol rolls, once made."""

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def top(self) -> Step | None:
        return self.stack[-1] if self.stack else None

    def card_at(self, seat: int, line: int, slot: int) -> CardId | None:
        return self.boards[seat][line][slot]

    def owner_at(self, seat: int, line: int, slot: int) -> int | None:
        for s, li, sl, owner in self.markers:
            if s == seat and li == line and sl == slot:
                return owner
        return None

    def held_cards(self) -> tuple[CardId, ...]:
        """Cards off the table and off the piles: pending placement or being resolved."""
        out: list[CardId] = []
        for step in self.stack:
            out.extend(step.held())
        return tuple(out)


# ------------------------------------------------------------------------------------ board editing


evolve = evolver(State)


def set_cell(
    state: State,
    seat: int,
    line: int,
    slot: int,
    card: CardId | None,
    owner: int | None = None,
    **changes: object,
) -> State:
    """``state`` with one slot changed; keeps the Git markers in step with the slot's card.
    ``changes``: other fields to change in the same step (one copy of the state instead of two)."""
    boards = list(state.boards)
    board = list(boards[seat])
    cells = list(board[line])
    cells[slot] = card
    board[line] = tuple(cells)
    boards[seat] = tuple(board)  # type: ignore[call-overload]
    markers = state.markers
    if markers and any(m[0] == seat and m[1] == line and m[2] == slot for m in markers):
        markers = tuple(m for m in markers if not (m[0] == seat and m[1] == line and m[2] == slot))
    if owner is not None:
        markers = (*markers, (seat, line, slot, owner))
    return evolve(state, boards=tuple(boards), markers=markers, **changes)  # type: ignore[arg-type]


def clear_line(state: State, seat: int, line: int) -> State:
    board = state.boards[seat]
    new_board = tuple(EMPTY_LINE if i == line else c for i, c in enumerate(board))
    boards = (*state.boards[:seat], new_board, *state.boards[seat + 1 :])
    markers = tuple(m for m in state.markers if not (m[0] == seat and m[1] == line))
    return evolve(state, boards=boards, markers=markers)  # type: ignore[arg-type]


def set_board(state: State, seat: int, board: Board, markers: tuple[Marker, ...]) -> State:
    """Replaces a whole board and the markers on it (Bilge's reorganisation)."""
    boards = (*state.boards[:seat], board, *state.boards[seat + 1 :])
    kept = tuple(m for m in state.markers if m[0] != seat)
    return evolve(state, boards=boards, markers=kept + markers)


def discard(state: State, *cards: CardId) -> State:
    return evolve(state, discard=state.discard + cards) if cards else state


def push(state: State, *steps: Step) -> State:
    """Steps are pushed in the order given: the last one is answered first."""
    return evolve(state, stack=state.stack + steps)


def pop(state: State) -> State:
    return evolve(state, stack=state.stack[:-1])


def replace_top(state: State, step: Step) -> State:
    return evolve(state, stack=(*state.stack[:-1], step))


def occupied(cells: Cells) -> list[tuple[int, CardId]]:
    return [(i, c) for i, c in enumerate(cells) if c is not None]
