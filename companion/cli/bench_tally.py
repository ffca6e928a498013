"""Tally: a tiny endless game for benchmarks (a real game could not last 10,000 inputs).

Players take turns adding 1 to 3 points to their score; it ends only when an optional ``target``
score is reached. Rules code like any other engine: pure, immutable state, typed actions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from companion.engine import (
    JSON,
    Action,
    ActionCodec,
    Event,
    Game,
    IllegalActionError,
    PlayerId,
    Prompt,
    Setup,
    SetupError,
    SetupOption,
)


@dataclass(frozen=True)
class Score(Action):
    kind: ClassVar[str] = "score"
    player: PlayerId
    points: int


@dataclass(frozen=True)
class TallyState:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    scores: tuple[int, ...]
    target: int | None
    turn: int = 0
    last: tuple[int, ...] = ()
    """The last few points scored, so the state and view have some body like a real game's."""


class Tally(Game[TallyState]):
    name: ClassVar[str] = "tally"
    title: ClassVar[str] = "Tally"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 6
    actions: ClassVar[ActionCodec] = ActionCodec(Score)

    @property
    def rules_version(self) -> str:
        return "tally-1"

    def setup_options(self) -> tuple[SetupOption, ...]:
        return (SetupOption("target", "Points to win", "int", (), None, "None: play on", 1, None),)

    def new_game(self, setup: Setup) -> TallyState:
        if not self.min_players <= len(setup.players) <= self.max_players:
            raise SetupError(f"Tally needs {self.min_players} to {self.max_players} players")
        target = setup.option("target")
        if target is not None and (not isinstance(target, int) or target < 1):
            raise SetupError("target must be a positive whole number")
        return TallyState(
            names=tuple(p.name for p in setup.players),
            colours=tuple(p.colour for p in setup.players),
            scores=(0,) * len(setup.players),
            target=target,
        )

    def apply(self, state: TallyState, action: Action) -> tuple[TallyState, tuple[Event, ...]]:
        if not isinstance(action, Score):
            raise IllegalActionError(f"Tally has no {action.kind!r} action")
        if self.is_over(state):
            raise IllegalActionError("the game is over")
        if action.player != state.turn:
            raise IllegalActionError(f"it is {state.names[state.turn]}'s turn")
        if not 1 <= action.points <= 3:
            raise IllegalActionError("score 1, 2 or 3 points")
        scores = list(state.scores)
        scores[action.player] += action.points
        new = replace(
            state,
            scores=tuple(scores),
            turn=(state.turn + 1) % len(state.names),
            last=(*state.last[-19:], action.points),
        )
        text = f"{state.names[action.player]} scored {action.points}"
        return new, (Event("PointsScored", text, {"player": action.player, "points": action.points}),)

    def legal_actions(self, state: TallyState) -> Sequence[Action]:
        if self.is_over(state):
            return ()
        return tuple(Score(PlayerId(state.turn), points) for points in (1, 2, 3))

    def prompt(self, state: TallyState) -> Prompt | None:
        if self.is_over(state):
            return None
        return Prompt("score", (PlayerId(state.turn),), f"{state.names[state.turn]}: score 1 to 3 points")

    def is_over(self, state: TallyState) -> bool:
        return state.target is not None and max(state.scores) >= state.target

    def view(self, state: TallyState) -> dict[str, JSON]:
        prompt = self.prompt(state)
        best = max(state.scores)
        winners = [i for i, s in enumerate(state.scores) if s == best]
        return {
            "game": self.name,
            "title": self.title,
            "players": [
                {"seat": i, "name": n, "colour": c, "active": i == state.turn, "score": s}
                for i, (n, c, s) in enumerate(zip(state.names, state.colours, state.scores, strict=True))
            ],
            "prompt": prompt.to_json() if prompt else None,
            "finished": self.is_over(state),
            "result": {"winners": winners, "tie": len(winners) > 1} if self.is_over(state) else None,
            "last": list(state.last),
        }
