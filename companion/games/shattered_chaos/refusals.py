"""How the engine refuses an action: one sentence for the players, the position unchanged."""

from __future__ import annotations

from typing import NoReturn

from companion.engine import IllegalActionError, MalformedActionError


def fail(message: str) -> NoReturn:
    """The rules forbid the action in this position."""
    raise IllegalActionError(message)


def malformed(message: str) -> NoReturn:
    """The action names something that does not exist (a seat, a colour, a card)."""
    raise MalformedActionError(message)
