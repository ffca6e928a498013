"""A small real game for the session tests: Nim (take 1 to 3 counters from one pile; last taker wins).

Deterministic, fully implements the Game ABC, and has both malformed and illegal actions to reject.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from companion.engine import (
    JSON,
    Action,
    ActionCodec,
    Choice,
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
class Take(Action):
    kind: ClassVar[str] = "take"
    player: PlayerId
    pile: int
    count: int


@dataclass(frozen=True)
class NimState:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    piles: tuple[int, ...]
    turn: int = 0
    moves: int = 0
    winner: int | None = None


class Nim(Game[NimState]):
    name: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    actions: ClassVar[ActionCodec] = ActionCodec(Take)

    version: ClassVar[str] = "nim-1"

    @property
    def rules_version(self) -> str:
        return self.version

    def setup_options(self) -> tuple[SetupOption, ...]:
        return (SetupOption("piles", "Piles", "text", (), [3, 4, 5], "Counters in each pile"),)

    def new_game(self, setup: Setup) -> NimState:
        if not self.min_players <= len(setup.players) <= self.max_players:
            raise SetupError(f"Nim needs {self.min_players} to {self.max_players} players")
        piles = setup.option("piles", [3, 4, 5])
        if not isinstance(piles, list) or not piles or not all(isinstance(p, int) and p > 0 for p in piles):
            raise SetupError("piles must be a list of positive whole numbers")
        return NimState(
            names=tuple(p.name for p in setup.players),
            colours=tuple(p.colour for p in setup.players),
            piles=tuple(piles),
        )

    def apply(self, state: NimState, action: Action) -> tuple[NimState, tuple[Event, ...]]:
        if not isinstance(action, Take):
            raise IllegalActionError(f"Nim has no {action.kind!r} action")
        if state.winner is not None:
            raise IllegalActionError("the game is over")
        if action.player != state.turn:
            raise IllegalActionError(f"it is {state.names[state.turn]}'s turn")
        if not 0 <= action.pile < len(state.piles):
            raise IllegalActionError(f"there is no pile {action.pile}")
        if not 1 <= action.count <= min(3, state.piles[action.pile]):
            raise IllegalActionError(f"cannot take {action.count} from pile {action.pile}")
        piles = list(state.piles)
        piles[action.pile] -= action.count
        done = not any(piles)
        new = replace(
            state,
            piles=tuple(piles),
            turn=(state.turn + 1) % len(state.names),
            moves=state.moves + 1,
            winner=state.turn if done else None,
        )
        name = state.names[state.turn]
        events = [Event("CountersTaken", f"{name} took {action.count} from pile {action.pile}")]
        if done:
            events.append(Event("GameWon", f"{name} wins", {"winner": state.turn}))
        return new, tuple(events)

    def legal_actions(self, state: NimState) -> Sequence[Action]:
        if state.winner is not None:
            return ()
        return tuple(
            Take(PlayerId(state.turn), pile, count)
            for pile, left in enumerate(state.piles)
            for count in range(1, min(3, left) + 1)
        )

    def prompt(self, state: NimState) -> Prompt | None:
        if state.winner is not None:
            return None
        choices = tuple(Choice(f"take {a.count} from pile {a.pile}", a) for a in self.legal_actions(state))
        name = state.names[state.turn]
        return Prompt("take", (PlayerId(state.turn),), f"{name}: take counters", choices)

    def is_over(self, state: NimState) -> bool:
        return state.winner is not None

    def actor(self, state: NimState, action: Action) -> PlayerId | None:
        return PlayerId(state.turn)  # every take is the turn player's

    def view(self, state: NimState) -> dict[str, JSON]:
        prompt = self.prompt(state)
        return {
            "game": self.name,
            "title": self.title,
            "players": [
                {"seat": i, "name": n, "colour": c, "active": i == state.turn, "score": 0}
                for i, (n, c) in enumerate(zip(state.names, state.colours, strict=True))
            ],
            "prompt": prompt.to_json() if prompt else None,
            "finished": state.winner is not None,
            "result": None if state.winner is None else {"winners": [state.winner], "tie": False},
            "piles": list(state.piles),
            "moves": state.moves,
        }


def setup_json(piles: list[int] | None = None, players: int = 2) -> dict[str, JSON]:
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    return {
        "game": "nim",
        "players": [{"name": n, "colour": "#112233"} for n in names],
        "options": {"piles": piles or [3, 4, 5]},
    }


def find_nim(name: str) -> Game:
    if name != "nim":
        raise ValueError(f"unknown game {name!r} (known: nim)")
    return Nim()
