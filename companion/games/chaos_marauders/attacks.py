"""Attacks (rulebook p.10): choosing a target, the Cube of Devastation, defeat and rout.

Defeat (Orcish Eye): the defender's purple cards and Odlugg are discarded, a Sneaky Git owned by the
victor too; the victor takes the rest (won Gits first, still owned by their owner). Rout (Mark of
Chaos): the attacker's grey and purple cards and Sneaky Gits are discarded; the defender takes the
rest. Either way war machines are captured, never discarded, and the attack ends the turn.
"""

from __future__ import annotations

from companion.engine import Event, Roll
from companion.games.chaos_marauders.actions import EYE, Attack, Decline
from companion.games.chaos_marauders.cards import Colour
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.flow import fail, line_name, receive, who
from companion.games.chaos_marauders.placement import is_complete
from companion.games.chaos_marauders.state import (
    AttackOffer,
    AttackRoll,
    BilgeChoice,
    Pending,
    State,
    clear_line,
    discard,
    evolve,
    pop,
)
from companion.games.chaos_marauders.targets import attack_targets


def attack(f: Facts, state: State, a: Attack, ev: list[Event]) -> State:
    top = state.top
    if isinstance(top, AttackOffer):
        bilge, attacks_left = top.bilge, top.attacks_left
    elif isinstance(top, BilgeChoice):
        # A line Bilge completed attacks like any complete line, a Shaman's two attacks included.
        cells = state.boards[top.player][top.line]
        shaman = is_complete(f, cells) and any(
            c is not None and f.ability[c] == Ability.SHAMAN for c in cells
        )
        bilge, attacks_left = True, 2 if shaman else 1
    else:
        fail("No battle line may attack now")
    if a.player != top.player:
        fail(f"It is {who(state, top.player)}'s attack")
    if a.line != top.line:
        fail(f"Only {line_name(top.line)} may attack now")
    if a.target == a.player:
        fail("A battle line attacks an opponent's line")
    if (a.target, a.target_line) not in attack_targets(f, state, a.player, a.line, bilge):
        fail(
            f"{line_name(a.line).capitalize()} cannot attack "
            f"{who(state, a.target)}'s {line_name(a.target_line)}"
        )
    ev.append(
        Event(
            "AttackDeclared",
            f"{who(state, a.player)}'s {line_name(a.line)} attacks {who(state, a.target)}'s "
            f"{line_name(a.target_line)}: roll the Cube!",
            {"player": a.player, "line": a.line, "target": a.target, "target_line": a.target_line},
        )
    )
    roll = AttackRoll(a.player, a.line, a.target, a.target_line, attacks_left, bilge)
    return evolve(state, stack=(*state.stack[:-1], roll), attacked=True)


def decline_attack(f: Facts, state: State, a: Decline, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, AttackOffer)
    ev.append(Event("AttackDeclined", f"{who(state, a.player)} does not attack", {"player": a.player}))
    return pop(state)


def roll_attack(f: Facts, state: State, a: Roll, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, AttackRoll)
    state = evolve(pop(state), turn_ends=True)  # attacking ends the turn (after resolving it)
    if a.faces[0] == EYE:
        depth = len(state.stack)
        state = _defeat(f, state, top, ev)
        if top.attacks_left > 1 and is_complete(f, state.boards[top.player][top.line]):
            # The Shaman's second attack is offered once the won cards are placed (below them).
            offer = AttackOffer(top.player, top.line, top.attacks_left - 1)
            state = evolve(state, stack=(*state.stack[:depth], offer, *state.stack[depth:]))
        return state
    return _rout(f, state, top, ev)


def _defeat(f: Facts, state: State, roll: AttackRoll, ev: list[Event]) -> State:
    victor, seat, line = roll.player, roll.target, roll.target_line
    lost: list[str] = []
    gits: list[Pending] = []
    won: list[Pending] = []
    for slot, card in enumerate(state.boards[seat][line]):
        if card is None:
            continue
        ability = f.ability[card]
        if f.colour[card] is Colour.PURPLE or ability == Ability.ODLUGG:
            lost.append(card)
        elif ability == Ability.SNEAKY_GIT:
            owner = state.owner_at(seat, line, slot)
            if owner == victor or owner is None:
                lost.append(card)
            else:
                gits.append(Pending(card, owner))
        else:
            won.append(Pending(card))
    state = discard(clear_line(state, seat, line), *lost)
    ev.append(
        Event(
            "LineDefeated",
            f"Orcish Eye! {who(state, seat)}'s {line_name(line)} is defeated",
            {"player": seat, "line": line, "victor": victor, "discarded": lost},
        )
    )
    taken = tuple(gits + won)
    return receive(f, state, victor, taken, "capture", False, ev) if taken else state


def _rout(f: Facts, state: State, roll: AttackRoll, ev: list[Event]) -> State:
    seat, line, victor = roll.player, roll.line, roll.target
    lost: list[str] = []
    won: list[Pending] = []
    for card in state.boards[seat][line]:
        if card is None:
            continue
        colour = f.colour[card]
        if colour in (Colour.GREY, Colour.PURPLE) or f.ability[card] == Ability.SNEAKY_GIT:
            lost.append(card)
        else:
            won.append(Pending(card))
    state = discard(clear_line(state, seat, line), *lost)
    ev.append(
        Event(
            "LineRouted",
            f"Mark of Chaos! {who(state, seat)}'s {line_name(line)} routs",
            {"player": seat, "line": line, "victor": victor, "discarded": lost},
        )
    )
    return receive(f, state, victor, tuple(won), "capture", False, ev) if won else state
