"""Raid's rules engine: pure, immutable, every prompt stated (see the package's docstring)."""

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
    GameResult,
    GameType,
    IllegalActionError,
    MalformedActionError,
    PlayerId,
    Prompt,
    Roll,
    RollRequest,
    Setup,
    SetupError,
    SetupOption,
    Standing,
)
from tests.bundles.raid.bundle import CARDS, MODELS, NAME, TERRITORIES, TITLE

PLACES = (*TERRITORIES, *(f"model {n}" for n in range(MODELS)))
CLASH = RollRequest("clash", 2, tuple(str(n) for n in range(1, 9)), dice=("d6", "d8"))
"""The party's throw: a six-sided and an eight-sided die, thrown together."""
CLEAN_RAID = 9
"""The dice showing this much or more add 2 to the round."""


@dataclass(frozen=True)
class Play(Action):
    kind: ClassVar[str] = "play"
    player: PlayerId
    card: str
    place: str


@dataclass(frozen=True)
class Ready(Action):
    """Plays no card this round."""

    kind: ClassVar[str] = "ready"
    player: PlayerId


CODEC = ActionCodec(Play, Ready, Roll)


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    colours: tuple[str, ...]
    rounds: int
    target: int
    round: int = 1
    plans: tuple[tuple[str, str] | None, ...] = ()
    """Per seat: (card, place) played this round, ("", "") for ready, None while undecided."""
    contributions: tuple[int, ...] = ()
    tally: int = 0
    finished: bool = False

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def waiting(self) -> tuple[PlayerId, ...]:
        return tuple(PlayerId(s) for s, plan in enumerate(self.plans) if plan is None)


class Raid(Game[State]):
    name = NAME
    title = TITLE
    min_players = 1
    max_players = 4
    actions = CODEC
    game_type = GameType(cooperative=True, simultaneous_moves=True)
    rules_version = "raid/1"

    def setup_options(self) -> tuple[SetupOption, ...]:
        return (
            SetupOption("rounds", "Rounds", "int", default=2, minimum=1, maximum=5),
            SetupOption("target", "Target", "int", default=6, minimum=1, maximum=60),
        )

    def new_game(self, setup: Setup) -> State:
        count = len(setup.players)
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"Raid is for 1 to 4 players, not {count}")
        rounds, target = setup.option("rounds", 2), setup.option("target", 6)
        if not isinstance(rounds, int) or not 1 <= rounds <= 5 or not isinstance(target, int) or target < 1:
            raise SetupError("rounds is 1 to 5 and the target a whole number from 1")
        return State(
            names=tuple(p.name for p in setup.players),
            colours=tuple(p.colour for p in setup.players),
            rounds=rounds,
            target=target,
            plans=(None,) * count,
            contributions=(0,) * count,
        )

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        if state.finished:
            raise IllegalActionError("The raid is over")
        seat = getattr(action, "player", None)
        if not isinstance(seat, int) or not 0 <= seat < state.seats:
            raise MalformedActionError(f"there is no seat {seat!r}")
        if isinstance(action, Play | Ready):
            return self._plan(state, action)
        if isinstance(action, Roll):
            return self._clash(state, action)
        raise MalformedActionError(f"Raid has no {action.kind!r}")

    def _plan(self, state: State, action: Play | Ready) -> tuple[State, tuple[Event, ...]]:
        seat = action.player
        if state.plans[seat] is not None:
            raise IllegalActionError(f"{state.names[seat]} has already planned this round")
        if isinstance(action, Play):
            if action.card not in CARDS or action.place not in PLACES:
                raise IllegalActionError(f"no {action.card!r} to play on {action.place!r}")
            plan, text = (action.card, action.place), f"{state.names[seat]} plays a card"
        else:
            plan, text = ("", ""), f"{state.names[seat]} is ready"
        plans = tuple(plan if s == seat else p for s, p in enumerate(state.plans))
        return replace(state, plans=plans), (Event("Planned", text, {"seat": seat}),)

    def _clash(self, state: State, roll: Roll) -> tuple[State, tuple[Event, ...]]:
        if state.waiting:
            raise IllegalActionError("The plans are not all laid yet")
        if roll.die != CLASH.die or len(roll.faces) != 2 or not all(f in CLASH.faces for f in roll.faces):
            raise IllegalActionError("The clash is one d6 and one d8")
        d6, d8 = (int(f) for f in roll.faces)
        if d6 > 6:
            raise IllegalActionError(f"a six-sided die shows no {d6}")
        points = [CARDS[plan[0]][1] if plan and plan[0] else 0 for plan in state.plans]
        bonus = 2 if d6 + d8 >= CLEAN_RAID else 0
        tally = state.tally + sum(points) + bonus
        contributions = tuple(c + p for c, p in zip(state.contributions, points, strict=True))
        finished = state.round >= state.rounds
        text = f"The party scores {sum(points) + bonus} ({d6} + {d8})"
        state = replace(
            state,
            tally=tally,
            contributions=contributions,
            round=state.round if finished else state.round + 1,
            plans=state.plans if finished else (None,) * state.seats,
            finished=finished,
        )
        return state, (Event("Clashed", text, {"tally": tally}),)

    def legal_actions(self, state: State) -> Sequence[Action]:
        if state.finished:
            return []
        waiting = state.waiting
        if waiting:
            out: list[Action] = [Ready(seat) for seat in waiting]
            out += [Play(seat, card, place) for seat in waiting for card in CARDS for place in PLACES]
            return out
        throws = [(str(a), str(b)) for a in range(1, 7) for b in range(1, 9)]
        return [Roll(PlayerId(seat), CLASH.die, faces) for seat in range(state.seats) for faces in throws]

    def prompt(self, state: State) -> Prompt | None:
        if state.finished:
            return None
        waiting = state.waiting
        if waiting:
            text = "Plan the raid: lay a card from your hand on a territory or an enemy, or press ready"
            return Prompt("plan", waiting, text, tuple(Choice("Ready", Ready(seat)) for seat in waiting))
        everyone = tuple(PlayerId(s) for s in range(state.seats))
        return Prompt("clash", everyone, "The party throws the clash dice", roll=CLASH)

    def is_over(self, state: State) -> bool:
        return state.finished

    def view(self, state: State) -> dict[str, JSON]:
        prompt = self.prompt(state)
        return {
            "game": NAME,
            "title": TITLE,
            "round": state.round,
            "rounds": state.rounds,
            "target": state.target,
            "tally": state.tally,
            "players": [
                {
                    "seat": seat,
                    "name": state.names[seat],
                    "colour": state.colours[seat],
                    "active": state.plans[seat] is None and not state.finished,
                    "score": {"total": state.contributions[seat]},
                    "plan": "planned" if state.plans[seat] is not None else "planning",
                }
                for seat in range(state.seats)
            ],
            "prompt": prompt.to_json() if prompt else None,
            "finished": state.finished,
        }

    def result(self, state: State) -> GameResult:
        won = state.tally >= state.target
        everyone = tuple(PlayerId(s) for s in range(state.seats))
        if state.finished:
            outcome = f"The party {'wins' if won else 'falls short'}: {state.tally} of {state.target}"
        else:
            outcome = f"The party has {state.tally} of {state.target}"
        return GameResult(
            final=state.finished,
            winners=everyone if won else (),
            standings=tuple(
                Standing(PlayerId(s), state.names[s], 1, state.contributions[s]) for s in range(state.seats)
            ),
            points_label="raid points",
            outcome=outcome,
            details={"tally": state.tally, "target": state.target},
            cooperative=True,
        )

    def actor(self, state: State, action: Action) -> PlayerId | None:
        return None if isinstance(action, Roll) else getattr(action, "player", None)
