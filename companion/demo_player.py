"""The simulated players of ``companion demo``, for any game: what they do next.

Dice are thrown here, the same way for every game: each die shows its physical faces as often as
the die has them (the Cube's five Orcish Eyes and one Mark of Chaos), read from the dice data.
Everything else (which card is drawn, which choice is taken) is the game's demo kit's business.
"""

from __future__ import annotations

import random
from typing import Any

from companion.bundle import DemoKit, LivePosition
from companion.dice import Dice
from companion.engine import Action, Prompt, Roll


def throw(prompt: Prompt, dice: Dice, rng: random.Random) -> Roll:
    """Throws the dice the prompt asks for (each of a mixed throw its own die), for the first player
    it waits for."""
    request = prompt.roll
    assert request is not None
    thrown = tuple(rng.choice(_faces(request.die_at(i), request.faces, dice)) for i in range(request.count))
    return Roll(prompt.players[0], request.die, thrown)


def _faces(game_die: str, accepted: tuple[str, ...], dice: Dice) -> tuple[str, ...]:
    """The physical die's faces, a face per side (the Cube's Eyes come up five times in six)."""
    for die in dice:
        if die.answers_die(game_die):
            return die.faces
    return accepted


class DemoBrain:
    """Answers every prompt of a game: dice thrown physically, the rest decided by the game's kit."""

    def __init__(self, kit: DemoKit, rng: random.Random, dice: Dice | None = None) -> None:
        self.kit = kit
        self._rng = rng
        self._dice = dice if dice is not None else Dice.load()

    def next_action(self, position: LivePosition) -> Action | None:
        """What the table does next in ``position``; None when the game is over or waits for nobody."""
        prompt = position.prompt
        if prompt is None:
            return None
        if prompt.roll is not None:
            return throw(prompt, self._dice, self._rng)
        action: Any = self.kit.next_action(position)
        return action if isinstance(action, Action) else None
