"""Abilities that pick a card on the table, and the shouts and threats any player may make.

- Bozlum Pigstickers: discard one purple card (or Odlugg) of an opponent, or decline.
- Venemous Creeps: take one non-purple card from an opponent and place it; the Creeps are discarded.
- A false "Chaos Marauders!" shout: the active player takes any one card of the shouter's lines.
- Sneaky Git: assassinate a Git in one's own line instead of placing the drawn one; an owner's forced
  discard of the card the victim has just drawn (the Git goes too and the victim's turn ends).
"""

from __future__ import annotations

from companion.engine import Event
from companion.games.chaos_marauders.actions import Decline, ForceDiscard, Pick, Shout
from companion.games.chaos_marauders.catalog import Ability
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.flow import fail, line_name, receive, title, who
from companion.games.chaos_marauders.state import (
    AttackOffer,
    AttackRoll,
    CardChoice,
    IdolRolls,
    Pending,
    PlaceStep,
    State,
    discard,
    evolve,
    pop,
    push,
    set_cell,
)
from companion.games.chaos_marauders.targets import steal_targets, stick_targets, take_targets


def pick(f: Facts, state: State, a: Pick, ev: list[Event]) -> State:
    top = state.top
    if isinstance(top, PlaceStep) and top.source == "draw" and top.cards[0].card in f.card:
        if f.ability[top.cards[0].card] == Ability.SNEAKY_GIT:
            return _assassinate(f, state, top, a, ev)
    if not isinstance(top, CardChoice):
        fail("No card is to be picked now")
    if a.player != top.player:
        fail(f"It is {who(state, top.player)}'s choice")
    spot = (a.target, a.line, a.slot)
    card = state.card_at(*spot)
    if card is None:
        fail(f"{who(state, a.target)}'s {line_name(a.line)} has no card in slot {a.slot + 1}")
    if top.ability == "stick":
        if spot not in stick_targets(f, state, a.player):
            fail("Bozlum Pigstickers may only discard a purple card (or Odlugg) of an opponent")
        state = discard(set_cell(pop(state), *spot, None), card)
        ev.append(
            Event("CardStuck", f"Bozlum Pigstickers discard {who(state, a.target)}'s {title(f, card)}", {})
        )
        return state
    if top.ability == "steal":
        if spot not in steal_targets(f, state, a.player):
            fail("Venemous Creeps may take any card of an opponent but a purple one")
        return _take(f, state, top, spot, card, "steal", ev)
    if a.target != top.versus:
        fail(f"Take a card from {who(state, top.versus or 0)}'s lines")
    assert top.versus is not None
    if spot not in take_targets(state, top.versus):
        fail("That is not a card of the shouter's lines")
    return _take(f, state, top, spot, card, "penalty", ev)


def _take(
    f: Facts,
    state: State,
    top: CardChoice,
    spot: tuple[int, int, int],
    card: str,
    source: str,
    ev: list[Event],
) -> State:
    owner = state.owner_at(*spot)
    state = set_cell(pop(state), *spot, None)
    if top.card is not None:
        state = discard(state, top.card)  # the Creeps are used once
    ev.append(
        Event(
            "CardTaken",
            f"{who(state, top.player)} takes {title(f, card)} from {who(state, spot[0])}",
            {"player": top.player, "from": spot[0], "card": card},
        )
    )
    if owner == top.player:
        # A Git never lies in its owner's own lines: taking it home means discarding it.
        return discard(state, card)
    # Stolen cards, and a card taken from a false shouter, may complete a line that then attacks: only
    # cards taken as a result of an attack may not (rulebook p.10; card reference: Venemous Creeps).
    return receive(f, state, top.player, (Pending(card, owner),), source, True, ev)


def decline_pick(f: Facts, state: State, a: Decline, ev: list[Event]) -> State:
    top = state.top
    assert isinstance(top, CardChoice)
    state = pop(state)
    if top.card is not None:
        state = discard(state, top.card)
    ev.append(Event("Declined", f"{who(state, a.player)} declines", {"player": a.player}))
    return state


def _assassinate(f: Facts, state: State, top: PlaceStep, a: Pick, ev: list[Event]) -> State:
    if a.player != top.player:
        fail(f"It is {who(state, top.player)}'s Sneaky Git")
    if a.target != a.player:
        fail("A Sneaky Git assassinates a Git in your own lines")
    victim = state.card_at(a.player, a.line, a.slot)
    if victim is None or f.ability[victim] != Ability.SNEAKY_GIT:
        fail(f"There is no Sneaky Git in slot {a.slot + 1} of your {line_name(a.line)}")
    state = set_cell(pop(state), a.player, a.line, a.slot, None)
    state = discard(state, victim, top.cards[0].card)
    ev.append(
        Event("GitAssassinated", f"{who(state, a.player)} assassinates a Sneaky Git", {"player": a.player})
    )
    return state


def shout_refusal(f: Facts, state: State) -> str | None:
    """Why no one may shout "Chaos Marauders!" now (None: every player but the active one may).

    A shout is open for the whole of the active player's turn (card reference: Chaos Marauders,
    "if the active player manages to finish his turn without another player noticing"). Once the
    Marauders drawn this turn were taken by a first shout, or have left his lines, a later shout is
    refused as too late: it is right, so never punished as false.
    """
    if state.first_to_complete is not None or isinstance(state.top, IdolRolls):
        return "The game is ending: no more shouts"
    if state.marauders_drawn and _marauders_spot(f, state) is None and _held_marauders(f, state) is None:
        return f"Too late: the Chaos Marauders are no longer in {who(state, state.active)}'s lines"
    return None


def _marauders_spot(f: Facts, state: State) -> tuple[int, int] | None:
    """Where the Chaos Marauders drawn this turn stand in the active player's lines, if they do."""
    spot = state.marauders_at
    if spot is None:
        return None
    card = state.card_at(state.active, *spot)
    return spot if card is not None and f.ability[card] == Ability.CHAOS_MARAUDERS else None


def _held_marauders(f: Facts, state: State) -> int | None:
    """The stack index of the active player's just-drawn Chaos Marauders, still waiting to be placed."""
    for index, step in enumerate(state.stack):
        if (
            isinstance(step, PlaceStep)
            and step.source == "draw"
            and step.player == state.active
            and f.ability[step.cards[0].card] == Ability.CHAOS_MARAUDERS
        ):
            return index
    return None


def shout(f: Facts, state: State, a: Shout, ev: list[Event]) -> State:
    if a.player == state.active:
        fail("The active player cannot shout Chaos Marauders")
    refusal = shout_refusal(f, state)
    if refusal:
        fail(refusal)
    if state.marauders_drawn:
        spot = _marauders_spot(f, state)
        if spot is not None:
            card = state.card_at(state.active, *spot)
            assert card is not None
            # Taken, the Marauders are no longer his just-drawn card: no Git can force their discard.
            fresh = None if state.fresh is not None and state.fresh[0] == card else state.fresh
            state = evolve(set_cell(state, state.active, *spot, None), marauders_at=None, fresh=fresh)
            state = _call_off_attacks(state, spot[0], ev)
            return _spotted(f, state, a, card, ev)
        index = _held_marauders(f, state)
        assert index is not None  # shout_refusal said so
        # Drawn and not placed yet: the shout takes the card from the active player's hand.
        step = state.stack[index]
        stack = state.stack[:index] + state.stack[index + 1 :]
        return _spotted(f, evolve(state, stack=stack, fresh=None), a, step.held()[0], ev)
    ev.append(
        Event(
            "FalseShout",
            f"False shout! {who(state, state.active)} may take a card from {who(state, a.player)}",
            {"player": a.player},
        )
    )
    if not take_targets(state, a.player):
        return state
    return push(state, CardChoice(state.active, "take", versus=a.player))


def _call_off_attacks(state: State, line: int, ev: list[Event]) -> State:
    """The shout broke ``line`` of the active player: no longer complete, it cannot attack. An attack
    already declared is called off, and as a declared attack does, ends the turn (a Bilge-led
    attack needs no complete line and goes on)."""
    active = state.active

    def broken(step: object) -> bool:
        return (
            isinstance(step, AttackOffer | AttackRoll)
            and step.player == active
            and step.line == line
            and not step.bilge
        )

    dropped = [step for step in state.stack if broken(step)]
    if not dropped:
        return state
    kept = tuple(step for step in state.stack if not broken(step))
    declared = any(isinstance(step, AttackRoll) for step in dropped)
    ev.append(
        Event(
            "AttackCalledOff",
            f"{who(state, active)}'s {line_name(line)} is no longer complete: its attack is off",
            {"player": active, "line": line},
        )
    )
    return evolve(state, stack=kept, turn_ends=state.turn_ends or declared)


def _from_a_shout(step: object) -> bool:
    """A step a shout set off: the spotter placing the Marauders, the false shouter's penalty."""
    if isinstance(step, PlaceStep):
        return step.source in ("shout", "penalty")
    return isinstance(step, CardChoice) and step.ability == "take"


def _spotted(f: Facts, state: State, a: Shout, card: str, ev: list[Event]) -> State:
    text = f"{who(state, a.player)} spotted the Chaos Marauders and takes them!"
    ev.append(Event("MaraudersSpotted", text, {"player": a.player, "from": state.active}))
    return receive(f, state, a.player, (Pending(card),), "shout", False, ev)


def force_discard(f: Facts, state: State, a: ForceDiscard, ev: list[Event]) -> State:
    fresh = state.fresh
    if fresh is None:
        fail(f"{who(state, state.active)} has no freshly drawn card to discard")
    victim = state.active
    git = state.card_at(victim, a.line, a.slot)
    if (
        git is None
        or f.ability[git] != Ability.SNEAKY_GIT
        or state.owner_at(victim, a.line, a.slot) != a.player
    ):
        fail(f"You have no Sneaky Git in slot {a.slot + 1} of {who(state, victim)}'s {line_name(a.line)}")
    card, line, slot = fresh
    if line >= 0 and state.card_at(victim, line, slot) == card:
        state = set_cell(state, victim, line, slot, None)
        lost: tuple[str, ...] = (card,)
    else:
        lost = ()
    # Whatever the fresh card set off goes with it, cards still held to the discard pile. What a shout
    # set off stays: the spotter's Marauders to place, a false shouter's penalty.
    kept = tuple(step for step in state.stack if _from_a_shout(step))
    held = [card for step in state.stack if not _from_a_shout(step) for card in step.held()]
    state = set_cell(state, victim, a.line, a.slot, None)
    state = discard(state, *lost, *held, git)
    # Chaos Marauders placed earlier this turn stay hidden until the turn ends; only a discarded
    # fresh Marauders card is forgotten.
    hidden = None if f.ability[card] == Ability.CHAOS_MARAUDERS else state.marauders_at
    state = evolve(state, stack=kept, fresh=None, turn_ends=True, marauders_at=hidden)
    ev.append(
        Event(
            "ForcedDiscard",
            f"{who(state, a.player)}'s Sneaky Git strikes: {who(state, victim)} discards {title(f, card)} "
            "and the turn ends",
            {"player": a.player, "victim": victim, "card": card},
        )
    )
    return state
