"""Whether a phone may do what its command asks: the seat it plays against ``Game.actor`` (DESIGN.md,
Secrets). Asked by the writer thread in the position the command meets, so the answer cannot go stale.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.engine import Action, Game, Roll
from companion.session.contract import Sender


def refusal(
    game: Game,
    state: Any,
    action: Action,
    sender: Sender | None,
    names: Sequence[str],
    doing: str = "do that",
) -> str | None:
    """Why ``sender`` may not ``doing`` (send, undo, redo) ``action`` in ``state``; None when it may.

    ``names`` are the players' names by seat, for the sentence.
    """
    if sender is None:
        return None  # the table itself, or its owner with the PIN

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"

    secret = game.secret_action(action)
    try:
        actor = game.actor(state, action)
    except NotImplementedError:
        if sender.seat is None and not secret:
            return None
        return f"{game.title} does not say whose move this is: only a shared phone can {doing}"
    if sender.seat is None:
        rolls_are_shared = isinstance(action, Roll) and not sender.rolls  # players' phones enter none
        if not secret and (actor is None or actor not in sender.held or rolls_are_shared):
            return None
        if not secret:
            return f"{name(actor)} plays on their own phone: only it can {doing} (or take the seat over)"
        owner = f"{name(actor)}'s phone" if actor is not None else "the phone of the seat it belongs to"
        return f"this is secret: only {owner} can {doing} (choose your seat on your own phone)"
    if isinstance(action, Roll) and not sender.rolls and doing == "do that":
        return "at this table the dice are entered by the table or a shared phone, not a player's own phone"
    if actor == sender.seat or (actor is None and not secret):
        return None
    who = f"{name(actor)}'s phone" if actor is not None else "a shared phone"
    return f"only {who} can {doing}: this phone plays {name(sender.seat)}"
