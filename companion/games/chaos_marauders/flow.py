"""Turn flow: drawing, placing and discarding cards, receiving cards, ending turns and the game.

Handlers take the position, the action and a list to append events to, and return the new position,
or raise IllegalActionError. Positions are immutable, so a refused action changes nothing.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import NoReturn

from companion.engine import Event, IllegalActionError, MalformedActionError
from companion.games.chaos_marauders.actions import Discard, Draw, Place
from companion.games.chaos_marauders.cards import CardId, Colour, Part
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.make_room import crew_backed, room_spots
from companion.games.chaos_marauders.placement import (
    board_has,
    gits_wait,
    is_complete,
    is_near,
    legal_slots,
    needs_near,
    open_slots,
    slot_error,
    symbol_in_board,
    tribe_full,
)
from companion.games.chaos_marauders.state import (
    AttackOffer,
    BilgeChoice,
    BlowbackTarget,
    BlueRolls,
    CardChoice,
    GreenRoll,
    IdolRolls,
    OdluggEats,
    OdluggRolls,
    Pending,
    PlaceStep,
    State,
    discard,
    evolve,
    push,
    replace_top,
    set_cell,
)
from companion.games.chaos_marauders.targets import (
    attack_targets,
    blast_targets,
    holds_odlugg,
    idol_holder,
    steal_targets,
    stick_targets,
)

# Enum members as module constants: a class attribute lookup on an Enum is slow on the hot path.
_ABILITY_BILGE_GUTTROT = Ability.BILGE_GUTTROT
_ABILITY_CHAOS_MARAUDERS = Ability.CHAOS_MARAUDERS
_ABILITY_DAGROMM = Ability.DAGROMM
_ABILITY_HORNED_RAT_STANDARD = Ability.HORNED_RAT_STANDARD
_ABILITY_IDOL = Ability.IDOL
_ABILITY_ODLUGG = Ability.ODLUGG
_ABILITY_PIGSTICKER = Ability.PIGSTICKER
_ABILITY_SHAMAN = Ability.SHAMAN
_ABILITY_SKYRRS_BLOWBACK = Ability.SKYRRS_BLOWBACK
_ABILITY_SNEAKY_GIT = Ability.SNEAKY_GIT
_ABILITY_VENEMOUS_CREEPS = Ability.VENEMOUS_CREEPS
_COLOUR_BLUE = Colour.BLUE
_COLOUR_GREEN = Colour.GREEN
_COLOUR_RED = Colour.RED
_PART_CREW = Part.CREW

MUST_PLACE = frozenset({"odlugg", "shout"})
"""Sources whose cards must be placed when they can be (Odlugg joining, spotted Chaos Marauders)."""


def must_place(f: Facts, state: State, top: PlaceStep, card: CardId) -> bool:
    """Must ``card`` of ``top`` be placed when it can be? A drawn red card (card reference p.15: "When
    a player draws a red card, he must place it [...] if able"), a crew and the machine cards it
    pulls or holds ("He must then place the cards"; make_room.py), Odlugg joining, spotted Marauders
    and a won Sneaky Git. Other cards taken after an attack may be discarded (rulebook p.10: "may
    take any remaining cards")."""
    source = top.source
    if source in MUST_PLACE:
        return True
    if f.colour[card] is _COLOUR_RED:
        return source == "draw" or crew_backed(f, state, top, card)
    return source == "capture" and f.ability[card] == _ABILITY_SNEAKY_GIT


def fail(message: str) -> NoReturn:
    raise IllegalActionError(message)


def who(state: State, seat: int) -> str:
    return state.names[seat]


def title(f: Facts, card: CardId) -> str:
    return f.card[card].title


def line_name(line: int) -> str:
    return f"line {line + 1}"


# ---------------------------------------------------------------------------------------------- draw


def draw(f: Facts, state: State, a: Draw, ev: list[Event]) -> State:
    if state.stack:
        fail("A card is already waiting: answer the prompt first")
    if a.player != state.active:
        fail(f"It is {who(state, state.active)}'s turn")
    index = f.index.get(a.card)
    if index is None:
        raise MalformedActionError(f"unknown card {a.card!r}")
    if state.pile[index] == 0:
        fail(f"No {title(f, a.card)} is left in the draw pile")
    counts = list(state.pile)
    counts[index] -= 1
    pile = tuple(counts)
    name = who(state, a.player)
    changes: dict[str, object] = {}
    if f.ability[a.card] == _ABILITY_CHAOS_MARAUDERS:
        # The active player keeps Chaos Marauders quiet until a shout: the TV must not give him away.
        ev.append(Event("CardDrawn", f"{name} drew a card", {"player": a.player}))
        changes["marauders_drawn"] = True
    else:
        ev.append(Event("CardDrawn", f"{name} drew {title(f, a.card)}", {"player": a.player, "card": a.card}))
    fresh = (a.card, -1, -1)
    if f.colour[a.card] is _COLOUR_GREEN:
        return _draw_green(f, evolve(state, pile=pile, fresh=fresh), a.player, a.card, ev)
    turn_ends = state.turn_ends
    if symbol_in_board(f, state.boards[a.player], a.card):
        turn_ends = True
        ev.append(
            Event("DuplicateDrawn", f"A duplicate: {name}'s turn ends after this card", {"player": a.player})
        )
    # The drawn card's bookkeeping rides along with the PlaceStep: one copy of the position.
    return receive(
        f,
        state,
        a.player,
        (pending(a.card),),
        "draw",
        True,
        ev,
        pile=pile,
        fresh=fresh,
        turn_ends=turn_ends,
        **changes,
    )


@functools.cache
def pending(card: CardId) -> Pending:
    """The (immutable, shared) Pending of a card with no Git owner."""
    return Pending(card)


def _draw_green(f: Facts, state: State, seat: int, card: CardId, ev: list[Event]) -> State:
    name = who(state, seat)
    if state.round == 1:
        # Green cards cannot be played in the first round: discarded unresolved, the turn goes on.
        ev.append(
            Event("GreenDiscarded", f"First round: {title(f, card)} is discarded unresolved", {"card": card})
        )
        return evolve(discard(state, card), fresh=None)
    state = evolve(state, turn_ends=True)
    ability = f.ability[card]
    if ability in (_ABILITY_HORNED_RAT_STANDARD, _ABILITY_BILGE_GUTTROT, _ABILITY_IDOL, _ABILITY_SNEAKY_GIT):
        return push(state, PlaceStep(seat, (Pending(card),), "draw", True))
    if ability == _ABILITY_VENEMOUS_CREEPS:
        if not steal_targets(f, state, seat):
            ev.append(Event("CardDiscarded", f"Venemous Creeps find nothing to steal from {name}'s foes", {}))
            return discard(state, card)
        return push(state, CardChoice(seat, "steal", card))
    if ability == _ABILITY_DAGROMM:
        return push(state, GreenRoll(seat, "dagromm", card))
    if ability == _ABILITY_SKYRRS_BLOWBACK:
        if not blast_targets(f, state, seat):
            ev.append(Event("CardDiscarded", "Skyrr's Blowback has no line to aim at", {}))
            return discard(state, card)
        return push(state, BlowbackTarget(seat, card))
    if ability == _ABILITY_ODLUGG:
        return push(state, OdluggRolls(seat, card, ("",) * state.seats))
    raise AssertionError(f"green card {card!r} has no rule")  # the catalog check forbids this


# ------------------------------------------------------------------------------------------ receive


def receive(
    f: Facts,
    state: State,
    seat: int,
    cards: tuple[Pending, ...],
    source: str,
    may_attack: bool,
    ev: list[Event],
    **changes: object,
) -> State:
    """``seat`` receives cards to place. A crew card pulls its machine parts from every other player's
    lines; Odlugg's holder first rolls for each blue card (card reference pp.10, 13). ``changes``:
    other fields of the position to change along with pushing the PlaceStep."""
    pulled: list[Pending] = []
    for p in cards:
        if f.part[p.card] is _PART_CREW:
            state = _pull_parts(f, state, seat, p.card, pulled, ev)
    if pulled:
        cards += tuple(pulled)
    step = PlaceStep(seat, cards, source, may_attack)
    state = evolve(state, stack=(*state.stack, step), **changes)
    colour = f.colour
    blues = tuple(p.card for p in cards if colour[p.card] is _COLOUR_BLUE)
    if blues and holds_odlugg(f, state, seat):
        state = push(state, BlueRolls(seat, blues))
    return state


def _pull_parts(
    f: Facts, state: State, seat: int, crew: CardId, pulled: list[Pending], ev: list[Event]
) -> State:
    """Takes the crew's machine parts from every other player's lines into ``pulled``."""
    machine = f.machine[crew]
    assert machine is not None
    for part in f.machine_parts[machine]:
        for other in range(state.seats):
            if other == seat:
                continue
            for li, cells in enumerate(state.boards[other]):
                if part not in cells:
                    continue  # most lines hold no part: looked through in C, not slot by slot
                for s, c in enumerate(cells):
                    if c != part:
                        continue
                    state = set_cell(state, other, li, s, None)
                    pulled.append(Pending(part))
                    text = f"The {machine} crew pull {title(f, part)} from {who(state, other)}'s lines"
                    ev.append(Event("MachinePulled", text, {"from": other, "to": seat, "card": part}))
    return state


# ---------------------------------------------------------------------------------------------- place


def place(f: Facts, state: State, a: Place, ev: list[Event]) -> State:
    if not state.stack:
        state = draw(f, state, Draw(a.player, a.card), ev)  # a card laid on a reader: the draw is implied
        if not isinstance(state.top, PlaceStep):
            # A green card resolved off the lines, or discarded in the first round: say which.
            if state.round == 1 and f.colour[a.card] is _COLOUR_GREEN:
                fail(f"First round: {title(f, a.card)} is discarded unresolved: lay it on the discard pile")
            fail(f"{title(f, a.card)} is not placed in a battle line: draw it on the pad")
    top = state.top
    if not isinstance(top, PlaceStep):
        fail(f"{title(f, a.card)} is not waiting to be placed" if a.card in f.card else "No card waits here")
    if a.player != top.player:
        fail(f"It is {who(state, top.player)}'s card to place")
    index = next((i for i, p in enumerate(top.cards) if p.card == a.card), -1)
    if index < 0:
        fail(f"{title(f, a.card) if a.card in f.card else a.card} is not waiting to be placed")
    pending = top.cards[index]
    ability = f.ability[a.card]
    if gits_wait(f, top, a.card):
        fail("Won Sneaky Gits are placed first")
    target = a.player if a.target is None else a.target
    drawn_git = ability == _ABILITY_SNEAKY_GIT and top.source == "draw"
    if drawn_git:
        if target == a.player:
            fail("A Sneaky Git goes in an opponent's battle line")
    elif target != a.player and ability != _ABILITY_IDOL:
        # Received any way, the Idol may go to an opponent (card reference: Idol); nothing else may.
        fail(f"{title(f, a.card)} goes in your own battle lines")
    near = needs_near(f, a.card, a.player, target)
    if tribe_full(f, state.boards[target], a.card):
        fail(
            f"{who(state, target)}'s tribe already holds three cards like {title(f, a.card)}: "
            "no tribe may hold four cards with one symbol"
        )
    cells = state.boards[target][a.line]
    slot = a.slot
    if slot is None:
        slots = legal_slots(f, cells, a.card, near)
        if not slots:
            fail(f"{title(f, a.card)} cannot go in {line_name(a.line)}")
        if len(slots) > 1:
            ev.append(
                Event("SlotAsked", f"{line_name(a.line).capitalize()} has several open slots: say which", {})
            )
            return replace_top(state, replace(top, hint_line=a.line))
        slot = slots[0]
    else:
        if slot not in open_slots(f, cells, a.card):  # slot_error's verdict, remembered per line
            error = slot_error(f, cells, a.card, slot)
            if error:
                fail(f"{line_name(a.line).capitalize()}: {error}")
        if near and not is_near(cells, slot):
            fail(f"{title(f, a.card)} must go within three spaces of another card")
    rest = top.cards[:index] + top.cards[index + 1 :]
    popped: dict[str, object] = {}
    if rest:
        state = replace_top(state, replace(top, cards=rest, hint_line=None))
    else:
        popped["stack"] = state.stack[:-1]  # popped along with the placement: one copy
    if drawn_git and holds_odlugg(f, state, target):
        ev.append(
            Event("OdluggGuards", f"Odlugg guards {who(state, target)}: roll to see if he eats the Git", {})
        )
        state = evolve(state, **popped) if popped else state
        return push(state, GreenRoll(a.player, "git-odlugg", a.card, 0, target, a.line, slot))
    owner = a.player if drawn_git else pending.owner
    return put(
        f, state, a.player, target, a.line, slot, a.card, owner, top.source, top.may_attack, ev, **popped
    )


def put(
    f: Facts,
    state: State,
    placer: int,
    seat: int,
    line: int,
    slot: int,
    card: CardId,
    owner: int | None,
    source: str,
    may_attack: bool,
    ev: list[Event],
    **changes: object,
) -> State:
    """Lays ``card`` on the table and queues what its placement sets off (attack offer, abilities).
    ``changes``: other fields to change along with the slot (the PlaceStep popped)."""
    was_complete = is_complete(f, state.boards[seat][line])
    own_draw = source == "draw" and placer == state.active and seat == placer
    marauders = own_draw and f.ability[card] == _ABILITY_CHAOS_MARAUDERS
    fresh = state.fresh
    if own_draw and fresh is not None and fresh[0] == card and fresh[1] < 0:
        # Only the card taken from the draw pile, not machine cards its crew pulled along (a Sneaky
        # Git forces the discard of "any card he has just taken from the draw pile").
        changes["fresh"] = (card, line, slot)
    if marauders:
        changes["marauders_at"] = (line, slot)
    state = set_cell(state, seat, line, slot, card, owner, **changes)
    if marauders:
        ev.append(
            Event("CardPlaced", f"{who(state, placer)} placed a card in {line_name(line)}", {"player": seat})
        )
    else:
        where = f"{who(state, seat)}'s {line_name(line)}" if seat != placer else line_name(line)
        ev.append(
            Event(
                "CardPlaced",
                f"{who(state, placer)} placed {title(f, card)} in {where}",
                {"player": seat, "line": line, "slot": slot, "card": card},
            )
        )
    # Pushed in reverse order of answering: abilities first, then the attack offer.
    ability = f.ability[card]
    sticks = ability == _ABILITY_PIGSTICKER and seat == placer and bool(stick_targets(f, state, seat))
    # A drawn Bilge Guttrot completing his own line attacks through his own choice (one attack, not
    # two). Stolen, he completes a line as any stolen card does: "If a player completes a battle line
    # with a stolen card, he may still attack" (card reference: Venemous Creeps).
    bilge_orders = ability == _ABILITY_BILGE_GUTTROT and source == "draw"
    if (
        not was_complete
        and seat == placer == state.active
        and may_attack
        and not state.attacked
        and not bilge_orders
        and is_complete(f, state.boards[seat][line])
    ):
        # A Pigsticker's discard comes first and may weaken a target enough: the offer waits below
        # it, and goes if no line can be attacked once the discard is made (_drop_idle_offer).
        if sticks or attack_targets(f, state, seat, line):
            shaman = any(c is not None and f.ability[c] == _ABILITY_SHAMAN for c in state.boards[seat][line])
            state = push(state, AttackOffer(seat, line, 2 if shaman else 1))
    if sticks:
        state = push(state, CardChoice(seat, "stick"))
    elif bilge_orders:
        state = push(state, BilgeChoice(seat, line))
    elif ability == _ABILITY_ODLUGG and source == "odlugg":
        spots = tuple(
            (li, s)
            for li, cells in enumerate(state.boards[seat])
            for s, c in enumerate(cells)
            if c is not None and (f.colour[c] is _COLOUR_BLUE or f.ability[c] == _ABILITY_SNEAKY_GIT)
        )
        if spots:
            state = push(state, OdluggEats(seat, spots))
    return state


def discard_pending(f: Facts, state: State, a: Discard, ev: list[Event]) -> State:
    top = state.top
    if isinstance(top, PlaceStep):
        if a.player != top.player:
            fail(f"It is {who(state, top.player)}'s card to place")
        index = 0 if a.card is None else next((i for i, p in enumerate(top.cards) if p.card == a.card), -1)
        if index < 0:
            fail(f"{a.card} is not waiting to be placed")
        card = top.cards[index].card
        if gits_wait(f, top, card):
            fail("Won Sneaky Gits are placed first")
        if must_place(f, state, top, card):
            board = state.boards[a.player]
            near = needs_near(f, card, a.player, a.player)
            if not tribe_full(f, board, card) and any(open_slots(f, cells, card, near) for cells in board):
                fail(f"{title(f, card)} must be placed when it can be")
            if room_spots(f, state, top, card):
                fail(f"{title(f, card)} must be placed: discard one of your own cards to make room for it")
        rest = top.cards[:index] + top.cards[index + 1 :]
        stack = (*state.stack[:-1], replace(top, cards=rest, hint_line=None)) if rest else state.stack[:-1]
        ends = state.turn_ends or (top.source == "draw" and a.player == state.active)
        state = evolve(state, stack=stack, discard=(*state.discard, card), turn_ends=ends)
        ev.append(
            Event("CardDiscarded", f"{who(state, a.player)} discarded {title(f, card)}", {"card": card})
        )
        return state
    fail("No card waits to be discarded")


# ------------------------------------------------------------------------------------- turn and game


TURN_RESET: dict[str, object] = {
    "turn_ends": False,
    "fresh": None,
    "marauders_at": None,
    "marauders_drawn": False,
    "attacked": False,
}
"""What a turn remembers about itself, forgotten when it ends (or the game does)."""


def settle(f: Facts, before: State, state: State, ev: list[Event]) -> State:
    """After every action: the game ends the moment someone has three complete lines; an emptied
    stack ends a turn that was due to end; an empty draw pile is replaced by the discard pile."""
    if state.finished or state.first_to_complete is not None:
        return state
    seats = len(state.names)
    boards = state.boards
    if boards is not before.boards:
        for k in range(seats):
            seat = (state.active + k) % seats
            board = boards[seat]
            if board is not before.boards[seat] and all(is_complete(f, cells) for cells in board):
                return finish(f, state, seat, ev)
    state = _drop_idle_offer(f, state)
    if not state.stack and state.turn_ends:
        nxt = (state.active + 1) % seats
        rnd = state.round + 1 if nxt == state.first else state.round
        spot = state.marauders_at
        if spot is not None and state.card_at(state.active, *spot) == f.first(_ABILITY_CHAOS_MARAUDERS):
            ev.append(Event("MaraudersKept", f"{who(state, state.active)} kept the Chaos Marauders!", {}))
        state = evolve(state, active=nxt, round=rnd, **TURN_RESET)
        ev.append(Event("TurnStarted", f"{who(state, nxt)}'s turn", {"player": nxt, "round": rnd}))
    if not state.stack and not any(state.pile):
        if not state.discard:
            ev.append(Event("CardsExhausted", "No card is left to draw: the game ends", {}))
            return finish(f, state, None, ev)
        counts = [0] * len(f.ids)
        for card in state.discard:
            counts[f.index[card]] += 1
        state = evolve(state, pile=tuple(counts), discard=())
        ev.append(Event("DiscardReshuffled", "Shuffle the discard pile: it is the new draw pile", {}))
    return state


def _drop_idle_offer(f: Facts, state: State) -> State:
    """``state`` without an attack offer come to the top with no line left to attack: a Pigsticker's
    completed line whose discard left every target too strong, a Shaman's second attack after the
    first took the last weaker line. (An offer is made, and kept below what is answered first, while
    an answer to come may still open or close targets.)"""
    stack = state.stack
    top = stack[-1] if stack else None
    if type(top) is AttackOffer and not attack_targets(f, state, top.player, top.line, top.bilge):
        return evolve(state, stack=stack[:-1])
    return state


def finish(f: Facts, state: State, seat: int | None, ev: list[Event]) -> State:
    """``seat`` completed three lines (None: no card left to draw): the game ends now, cards still in
    hand are discarded, and the Idol's holder rolls for it unless he has a Shaman."""
    held = state.held_cards()
    state = evolve(state, stack=(), discard=state.discard + held, first_to_complete=seat, **TURN_RESET)
    if seat is not None:
        ev.append(Event("GameEnding", f"{who(state, seat)} completed three battle lines!", {"player": seat}))
    holder = idol_holder(f, state)
    if holder is not None and not board_has(f, state.boards[holder], _ABILITY_SHAMAN):
        return push(state, IdolRolls(holder))
    return evolve(state, finished=True)
