"""Raid's demo kit: who plays, what they plan, and hands that do it on the virtual device (cards from a
hand reader to a territory's or an enemy's reader, the ready buttons, the d6 and the d8)."""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.bundle import DemoLayout, DemoTable, LivePosition, TableDevice
from companion.engine import Action, Roll
from tests.bundles.raid.bundle import CARDS, MODELS, TERRITORIES
from tests.bundles.raid.engine import CLASH, Play, Ready, State

log = logging.getLogger(__name__)

PLAYERS = (
    {"name": "Ada", "colour": "#e23b3b"},
    {"name": "Bo", "colour": "#2f7df6"},
    {"name": "Cy", "colour": "#2fb84f"},
    {"name": "Di", "colour": "#f2b01e"},
)
SEATS = 4


def uid_of(seat: int, card: str) -> str:
    """Each player holds one copy of every card, tagged ``DA<seat><card>``."""
    return f"DA{seat:02X}{list(CARDS).index(card):04X}"


@dataclass(frozen=True)
class Layout:
    """Readers 0..seats-1 are the hands, then north, south and the enemy models; button n is seat n's
    ready button; die 0 is the d6, die 1 the d8."""

    seats: int = SEATS
    settle_ms: int = 40
    removal_ms: int = 80

    def reader_of(self, place: str) -> int:
        places = [*TERRITORIES, *(f"model {n}" for n in range(MODELS))]
        return self.seats + places.index(place)

    def table_section(self) -> dict[str, Any]:
        readers: list[dict[str, Any]] = [
            {"reader": s, "zone": "hand", "player": s} for s in range(self.seats)
        ]
        readers += [{"reader": self.reader_of(t), "zone": "territory", "territory": t} for t in TERRITORIES]
        readers += [
            {"reader": self.reader_of(f"model {n}"), "zone": "enemy", "model": n} for n in range(MODELS)
        ]
        buttons = {str(s): f"ready:{s}" for s in range(self.seats)}
        return {
            "settle_ms": self.settle_ms,
            "removal_ms": self.removal_ms,
            "readers": readers,
            "buttons": buttons,
        }

    def demo_layout(self) -> DemoLayout:
        readers = self.seats + len(TERRITORIES) + MODELS
        return DemoLayout(readers, tuple(range(self.seats)), ((0, "d6"), (1, "d8")), self.table_section())


class RaidDemo:
    players = PLAYERS
    options: Mapping[str, Any] = {"rounds": 2, "target": 6}

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._layout = Layout()

    def layout(self, seats: int) -> DemoLayout:
        self._layout = Layout(seats)
        return self._layout.demo_layout()

    def tags(self) -> dict[str, str]:
        return {uid_of(seat, card): card for seat in range(SEATS) for card in CARDS}

    def next_action(self, position: LivePosition) -> Action | None:
        prompt = position.prompt
        if prompt is None or prompt.roll is not None or not prompt.players:
            return None
        seat = prompt.players[0]
        if self._rng.random() < 0.25:
            return Ready(seat)
        places = [*TERRITORIES, *(f"model {n}" for n in range(MODELS))]
        return Play(seat, self._rng.choice(list(CARDS)), self._rng.choice(places))

    def hands(self, table: DemoTable, device: TableDevice) -> RaidHands:
        return RaidHands(table, device, self._layout)


def kit(rng: random.Random) -> RaidDemo:
    return RaidDemo(rng)


class RaidHands:
    def __init__(self, table: DemoTable, device: TableDevice, layout: Layout) -> None:
        self._table = table
        self._device = device
        self._layout = layout
        self._where: dict[str, int] = {}
        self._pause = threading.Event()  # never set: waited on with a timeout, for the table to settle
        self.physical = 0

    def enact(self, action: Action, position: LivePosition) -> None:
        before = self._table.position().seq
        done = False
        if isinstance(action, Play):
            done = self._play(action)
        elif isinstance(action, Ready) and action.player < self._layout.seats:
            self._click(action.player)
            done = self._table.wait_after(before, 2.0)
        elif isinstance(action, Roll):
            done = self._roll(action, before)
        if done:
            self.physical += 1
        else:
            log.info("not enacted at the table: submitting %s directly", action.to_json())
            self._table.submit(action.to_json())
        self._tidy()

    def _play(self, action: Play) -> bool:
        if action.player >= self._layout.seats:
            return False
        uid = uid_of(action.player, action.card)
        if self._where.get(uid) != action.player:  # the card is taken into the hand first
            self._move(uid, action.player)
            self._settle()
        before = self._table.position().seq
        self._move(uid, self._layout.reader_of(action.place))
        return self._table.wait_after(before, 2.0)

    def _roll(self, roll: Roll, before: int) -> bool:
        for index, symbol in enumerate(roll.faces):
            found = self._table.die_face(CLASH.die_at(index), symbol)
            if found is None:
                return False
            self._device.roll(*found)
        return self._table.wait_after(before, 2.0)

    def _tidy(self) -> None:
        """A new round: every card played goes back into its player's hand."""
        state = self._table.position().state
        if not isinstance(state, State) or any(plan is not None for plan in state.plans):
            return
        moved = False
        for uid, reader in list(self._where.items()):
            seat = int(uid[2:4], 16)
            if reader != seat:
                self._move(uid, seat)
                moved = True
        if moved:
            self._settle()

    def clear(self) -> None:
        for uid in list(self._where):
            self._device.remove_tag(self._where.pop(uid), uid)
        self._settle()

    def _move(self, uid: str, reader: int) -> None:
        if uid in self._where:
            self._device.remove_tag(self._where.pop(uid), uid)
        self._device.put_tag(reader, uid)
        self._where[uid] = reader

    def _click(self, button: int) -> None:
        self._device.press(button)
        self._device.release(button)

    def _settle(self) -> None:
        self._pause.wait((self._layout.settle_ms + self._layout.removal_ms) * 1.5 / 1000 + 0.02)
