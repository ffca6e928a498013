"""Whose decision an action is (``Game.actor``): the web lets a phone that plays a seat send only that
seat's actions, and the session checks it against this answer.

The active player draws and places in his own turn; a step the engine waits on (a card to place, an
attack offered, a pick, a roll) is its ``player``'s; a shout, a Sneaky Git's forced discard and a throw
of the Cube are the ``player``'s they name (the rules check each); hand corrections are the table's.
"""

from __future__ import annotations

from companion.engine import Action, PlayerId, Roll
from companion.games.chaos_marauders.actions import CORRECTIONS, ForceDiscard, Shout
from companion.games.chaos_marauders.state import State


def actor(state: State, action: Action) -> PlayerId | None:
    if isinstance(action, CORRECTIONS):
        return None  # the table is the truth: anyone may correct it
    player = getattr(action, "player", None)
    if isinstance(action, Shout | ForceDiscard | Roll):
        return PlayerId(player) if isinstance(player, int) else None
    top = state.top
    owner = state.active if top is None else getattr(top, "player", None)
    if isinstance(owner, int):
        return PlayerId(owner)
    return PlayerId(player) if isinstance(player, int) else None
