"""Fakes for the table's tests: a session that records commands and a toy game mapper."""

from __future__ import annotations

import queue
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.bundle import Act, ButtonRole, LivePosition, Note, Press, Translation, Zone
from companion.engine import (
    Action,
    ActionCodec,
    Choice,
    DicePolicy,
    Game,
    Player,
    Prompt,
    RollRequest,
    Setup,
)
from companion.games.chaos_marauders.zones import DISCARD, LINE, PAD, SHOUT
from companion.session.contract import Command, Outcome
from companion.table.mappers import TableGame, UnknownGameMapperError

TOY_CARDS = {"grunt": "Grunt", "boss": "Big Boss", "spell": "Green Spell"}


class FakeSession:
    """Records every command; answers with scripted outcomes (accepted by default)."""

    def __init__(self, view: Mapping | None = None) -> None:
        self.commands: queue.Queue[Command] = queue.Queue()
        self.sent: list[Command] = []
        self.outcomes: list[Outcome] = []
        self.devices: dict[str, Mapping] = {}
        self.reports = 0
        self.current = dict(view) if view is not None else toy_view()
        self._lock = threading.Lock()
        self._seq = 0

    def submit(self, command: Command, timeout: float = 5.0) -> Outcome:
        with self._lock:
            self.sent.append(command)
            outcome = self.outcomes.pop(0) if self.outcomes else None
            if outcome is None:
                self._seq += 1
                outcome = Outcome(accepted=True, seq=self._seq)
        self.commands.put(command)
        return outcome

    def view(self) -> Mapping:
        with self._lock:
            return self.current

    def position(self) -> LivePosition:
        """The toy game behind ``current``: its ``game`` dict is the toy state."""
        with self._lock:
            view = self.current
        game = view.get("game")
        if not game:
            return LivePosition(int(view.get("seq", 0)), str(view.get("status", "no_game")))
        names = tuple(Player(p["name"]) for p in game.get("players", ()))
        return LivePosition(int(view["seq"]), str(view["status"]), TOY_GAME, game, Setup("toy", names))

    def report_device(self, name: str, status: Mapping) -> None:
        with self._lock:
            self.devices[name] = status
            self.reports += 1

    def notices(self) -> list[str]:
        return [n["text"] for n in self.devices.get("table", {}).get("notices", [])]


def toy_view(prompt: Mapping | None = None, lines: Sequence[Sequence[Sequence[str]]] | None = None) -> dict:
    """A published view of the toy game: two players with two lines each."""
    return {
        "seq": 1,
        "status": "playing",
        "game": {
            "game": "toy",
            "players": [
                {"seat": 0, "name": "Grotsnik", "active": True},
                {"seat": 1, "name": "Ugluk", "active": False},
            ],
            "lines": [list(map(list, p)) for p in (lines or [[[], []], [[], []]])],
            "prompt": prompt
            or {"kind": "draw", "players": [0], "text": "Grotsnik draws", "choices": [], "roll": None},
        },
        "notices": [],
    }


@dataclass(frozen=True)
class RawAction(Action):
    """An action of the toy game: whatever JSON a test put in a prompt's choice."""

    kind: ClassVar[str] = "raw"
    payload: Any

    def to_json(self) -> dict:
        return dict(self.payload)


class ToyGame(Game[dict]):
    """An engine whose state is the toy view's ``game`` dict: its prompt is the dict's prompt."""

    name = "toy"
    title = "Toy"
    min_players = 1
    max_players = 4
    actions = ActionCodec(RawAction)
    rules_version = "toy"

    def new_game(self, setup: Setup) -> dict:
        raise NotImplementedError

    def apply(self, state: dict, action: Action) -> tuple[dict, tuple]:
        raise NotImplementedError

    def legal_actions(self, state: dict) -> list[Action]:
        return []

    def prompt(self, state: dict) -> Prompt | None:
        asked = state.get("prompt")
        if not asked:
            return None
        roll = asked.get("roll")
        return Prompt(
            kind=asked["kind"],
            players=tuple(asked.get("players") or ()),
            text=asked.get("text", ""),
            choices=tuple(Choice(c["label"], RawAction(c["action"])) for c in asked.get("choices") or ()),
            roll=RollRequest(
                roll["die"],
                int(roll["count"]),
                tuple(roll["faces"]),
                DicePolicy(roll.get("policy", "together")),
                tuple(roll.get("dice", ())),
                bool(roll.get("anyone", False)),
            )
            if roll
            else None,
        )

    def is_over(self, state: dict) -> bool:
        return False

    def view(self, state: dict) -> dict:
        return state


TOY_GAME = ToyGame()


def raw(**payload: Any) -> RawAction:
    """A toy action: the JSON a test expects the table to submit."""
    return RawAction(payload)


class ToyMapper:
    """A game mapper for a toy game whose state lists each player's lines as lists of card ids."""

    def __init__(self) -> None:
        self.came_from: list[str | None] = []

    def card_title(self, card_id: str) -> str:
        return TOY_CARDS[card_id]

    def card_ids(self) -> Sequence[str]:
        return list(TOY_CARDS)

    def shown_title(self, card_id: str) -> str:
        return TOY_CARDS[card_id]

    def cards_in(self, zone: Zone, position: LivePosition) -> Sequence[str] | None:
        if zone.kind != LINE:
            return None
        return position.state["lines"][zone.player][zone["line"]]

    def placed(self, zone: Zone, card_id: str, position: LivePosition, came_from: Zone | None) -> Translation:
        self.came_from.append(came_from.zone if came_from is not None else None)
        player = position.prompt.players[0]
        if zone.kind == LINE:
            return Act(raw(kind="place", player=player, card=card_id, line=zone["line"]), f"{card_id} placed")
        if zone.kind == DISCARD:
            return Act(raw(kind="discard", player=player, card=card_id), f"{card_id} discarded")
        return Act(raw(kind="draw", player=player, card=card_id), f"{card_id} drawn")

    def lifted(self, zone: Zone, card_id: str, position: LivePosition) -> Translation:
        return Note(f"{TOY_CARDS[card_id]} lifted from {zone.label()}")

    def pressed(self, role: ButtonRole, presses: Sequence[Press], position: LivePosition) -> Translation:
        """The first press of the shout wins (as Chaos Marauders' mapper decides its race)."""
        winner = presses[0].seat
        return Act(raw(kind="shout", player=winner), "shout")

    def next_action(self, position: LivePosition) -> Translation:
        """Declines when the prompt offers it, like the real mappers; otherwise there is no move-on."""
        prompt = position.prompt
        for choice in prompt.choices if prompt is not None else ():
            if choice.action.kind == "raw" and choice.action.payload.get("kind") == "decline":
                return Act(choice.action, "decline")
        return Note("Nothing to decline now")


def toy_game(mapper: Any) -> TableGame:
    """The toy game as the table reads it: Chaos Marauders' zones and shout, the given mapper."""
    return TableGame("toy", "Toy", mapper, (LINE, DISCARD, PAD), (SHOUT,))


def toy_games(game: str) -> TableGame:
    if game != "toy":
        raise UnknownGameMapperError(game)
    return toy_game(ToyMapper())


def games_of(mapper: Any) -> Any:
    """A table's ``games`` finder that gives the toy game with this very mapper."""

    def find(game: str) -> TableGame:
        if game != "toy":
            raise UnknownGameMapperError(game)
        return toy_game(mapper)

    return find


TOY_READERS = (
    LINE.zone(reader=0, player=0, line=0),
    LINE.zone(reader=1, player=0, line=1),
    LINE.zone(reader=2, player=1, line=0),
    DISCARD.zone(reader=3),
    PAD.zone(reader=4),
)
