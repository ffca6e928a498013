"""Whose decision an action is (``Game.actor``): the web lets a phone that plays a seat send only that
seat's actions, and the session checks it against this answer.

Every HeroScape action names its ``player``, and the rules check it: a turn's actions must be the turn
player's, an answer the asked player's, a roll the roller's, a leaving-engagement attack the engaged
opponent's ("the player who controls the opponent's figure rolls one die to attack", rulebook p. 12).
So the actor is that seat, read from the position where it is unambiguous (whose turn it is), and hand
corrections are the table's: any seat may make them.
"""

from __future__ import annotations

from companion.engine import Action, PlayerId
from companion.games.heroscape.actions import (
    Attack,
    CorrectStatus,
    CorrectWounds,
    EndTurn,
    Fall,
    LeaveGlyph,
    Moved,
    StopOnGlyph,
    UsePower,
)
from companion.games.heroscape.state import State

TURN_ACTIONS = (Attack, EndTurn, Moved, UsePower, Fall, StopOnGlyph, LeaveGlyph)
"""What only the turn player does during a turn (the rules refuse it from anyone else)."""


def actor(state: State, action: Action) -> PlayerId | None:
    if isinstance(action, CorrectWounds | CorrectStatus):
        return None  # the table is the truth: anyone may correct it
    if isinstance(action, TURN_ACTIONS) and state.turn is not None:
        return PlayerId(state.turn.seat)
    player = getattr(action, "player", None)
    return PlayerId(player) if isinstance(player, int) else None
