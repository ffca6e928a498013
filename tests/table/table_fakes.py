"""Fakes for the table's tests: a session that records commands and a toy game mapper."""

from __future__ import annotations

import queue
import threading
from collections.abc import Mapping, Sequence

from companion.session.contract import Command, Outcome
from companion.table.config import ReaderZone, ZoneKind
from companion.table.mappers import Act, Note, Translation

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


class ToyMapper:
    """A game mapper for a toy game whose view lists each player's lines as lists of card ids."""

    game = "toy"
    rolls_one_at_a_time = False

    def __init__(self) -> None:
        self.came_from: list[ZoneKind | None] = []

    def card_title(self, card_id: str) -> str:
        return TOY_CARDS[card_id]

    def card_ids(self) -> Sequence[str]:
        return list(TOY_CARDS)

    def shown_title(self, card_id: str) -> str:
        return TOY_CARDS[card_id]

    def cards_in(self, zone: ReaderZone, view: Mapping) -> Sequence[str] | None:
        if zone.zone is not ZoneKind.LINE:
            return None
        return view["game"]["lines"][zone.player][zone.line]

    def placed(
        self, zone: ReaderZone, card_id: str, view: Mapping, came_from: ZoneKind | None
    ) -> Translation:
        self.came_from.append(came_from)
        player = view["game"]["prompt"]["players"][0]
        if zone.zone is ZoneKind.LINE:
            return Act(
                {"kind": "place", "player": player, "card": card_id, "line": zone.line}, f"{card_id} placed"
            )
        if zone.zone is ZoneKind.DISCARD:
            return Act({"kind": "discard", "player": player, "card": card_id}, f"{card_id} discarded")
        return Act({"kind": "draw", "player": player, "card": card_id}, f"{card_id} drawn")

    def lifted(self, zone: ReaderZone, card_id: str, view: Mapping) -> Translation:
        return Note(f"{TOY_CARDS[card_id]} lifted from {zone.label()}")

    def shout(self, player: int, view: Mapping) -> Translation:
        return Act({"kind": "shout", "player": player}, "shout")

    def next_action(self, view: Mapping) -> Translation:
        """Declines when the prompt offers it, like the real mappers; otherwise there is no move-on."""
        for choice in view["game"]["prompt"].get("choices") or ():
            if choice["action"].get("kind") == "decline":
                return Act(choice["action"], "decline")
        return Note("Nothing to decline now")


def toy_mappers(game: str) -> ToyMapper:
    from companion.table.mappers import UnknownGameMapperError

    if game != "toy":
        raise UnknownGameMapperError(game)
    return ToyMapper()


TOY_READERS = (
    ReaderZone(0, ZoneKind.LINE, 0, 0),
    ReaderZone(1, ZoneKind.LINE, 0, 1),
    ReaderZone(2, ZoneKind.LINE, 1, 0),
    ReaderZone(3, ZoneKind.DISCARD),
    ReaderZone(4, ZoneKind.PAD),
)
