"""A simulated table: picks what the players would do next, so a game plays itself for the demo.

``next_action(game, state, deck, rng)`` is the whole brain. It answers the engine's prompt the way a
table would: a draw takes the top card of a physical deck the player keeps shuffled (so titles come up
as often as they have copies), a roll throws the real die's faces (the Cube: five Orcish Eyes, one
Mark of Chaos), and any other prompt picks one of its choices at random, preferring to build lines
and to attack, because that is what makes a demo worth watching.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.dice import Dice
from companion.engine import Action, Game, Prompt, Roll

# Choice weights by action kind: players rarely throw a card away or let an attack pass.
KIND_WEIGHTS: Mapping[str, float] = {"place": 10.0, "attack": 6.0, "pick": 4.0, "blast": 4.0, "decline": 1.0}
DEFAULT_WEIGHT = 1.0


class DemoDeck:
    """The draw pile as a physical, shuffled stack of cards that the simulated table draws from."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._cards: list[str] = []

    def draw(self, pile: Mapping[str, int]) -> str:
        """The top card; reshuffles first when the engine's pile (a count per title) is not ours.

        The piles part ways when the discard pile is shuffled back in, or a person undid or drew a
        card by hand: the engine's pile is the truth, so the stack is rebuilt from it.
        """
        wanted = Counter({card: n for card, n in pile.items() if n > 0})
        if Counter(self._cards) != wanted:
            self._cards = [card for card, n in wanted.items() for _ in range(n)]
            self._rng.shuffle(self._cards)
        if not self._cards:
            raise ValueError("the draw pile is empty")
        return self._cards.pop()


def pile_counts(game: Game, state: Any) -> dict[str, int]:
    """Copies left per card title in the draw pile (Chaos Marauders' ``State.pile`` by catalog order)."""
    ids: Sequence[str] = game.facts.ids  # type: ignore[attr-defined]
    return dict(zip(ids, state.pile, strict=True))


def roll(prompt: Prompt, dice: Dice, rng: random.Random) -> Roll:
    """Throws the die the prompt asks for, once per die, for the first player it waits for."""
    request = prompt.roll
    assert request is not None
    faces = request.faces
    for die in dice:
        if die.answers_die(request.die):
            faces = die.faces  # the physical die: a face per side, so Eyes come up five times in six
            break
    thrown = tuple(rng.choice(faces) for _ in range(request.count))
    return Roll(prompt.players[0], request.die, thrown)  # type: ignore[arg-type]


def weighted_choice(actions: Sequence[Action], rng: random.Random) -> Action:
    weights = [KIND_WEIGHTS.get(a.kind, DEFAULT_WEIGHT) for a in actions]
    return rng.choices(list(actions), weights=weights, k=1)[0]


def next_action(
    game: Game, state: Any, deck: DemoDeck, rng: random.Random, dice: Dice | None = None
) -> Action | None:
    """What the simulated table does next in ``state``; None when the game is over."""
    prompt = game.prompt(state)
    if prompt is None:
        return None
    if prompt.roll is not None:
        return roll(prompt, dice or Dice.load(), rng)
    if prompt.choices:
        return weighted_choice([c.action for c in prompt.choices], rng)
    if prompt.kind == "draw":
        card = deck.draw(pile_counts(game, state))
        return game.parse_action({"kind": "draw", "player": prompt.players[0], "card": card})
    # An open prompt this player does not know: any legal answer from someone it waits for.
    waiting = set(prompt.players)
    legal = [a for a in game.legal_actions(state) if getattr(a, "player", None) in waiting]
    return weighted_choice(legal, rng) if legal else None
