"""The HeroScape demo: players draft armies, place order markers, attack and roll, by themselves.

The brain answers every prompt but dice (the platform throws those) with a legal action, the way a
keen table would: draft the cards that fit, spread the order markers, attack whenever a figure can,
end the turn when every figure has attacked. The hands do at the table what has a physical act: an
army card laid on its player's army reader, the electronic dice, the next button ("done moving",
"end the turn", "decline"); the rest (markers, attack declarations, answers) goes through the control
page as the phones would send it.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Mapping
from typing import Any

from companion.bundle import DemoLayout, DemoTable, LivePosition, TableDevice
from companion.engine import Action, PlayerId
from companion.games.heroscape.actions import (
    AddCard,
    ArmyReady,
    Attack,
    Declare,
    Decline,
    EndTurn,
    LoseMarker,
    Moved,
    RemoveCard,
    UsePower,
)
from companion.games.heroscape.catalog import default_catalog
from companion.games.heroscape.engine import HeroScape
from companion.games.heroscape.prompts import rolloffs
from companion.games.heroscape.state import Ask, State

log = logging.getLogger(__name__)

PLAYERS = (
    {"name": "Ana", "colour": "#e23b3b"},
    {"name": "Ben", "colour": "#2f7df6"},
    {"name": "Cal", "colour": "#2fb84f"},
    {"name": "Dee", "colour": "#f2b01e"},
)
UID_PREFIX = 0xE5
"""First byte of every demo army card tag: E5000000, E5000001, ... in catalog order."""
ATTACK_CHANCE = 0.85
HEIGHT_CHANCE = 0.2
ROLLOFF_CHANCE = 0.03
"""Now and then the players dispute a line of sight (or simultaneous powers) and roll off for it."""


def card_tags() -> dict[str, str]:
    """UID -> card id for every army card in the box (deterministic: a restart finds them again)."""
    tags: dict[str, str] = {}
    for card in default_catalog().cards:
        for _ in range(card.copies):
            tags[f"{UID_PREFIX:02X}{len(tags):06X}"] = card.id
    return tags


class HeroScapeDemo:
    """The game's ``companion.bundle.DemoKit``."""

    players = PLAYERS

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._seats = len(PLAYERS)
        """The seats ``layout`` was last asked for; without a layout (``--no-device``) the scenario is
        Rogue Hive, which any demo table (two to four) can play."""
        self._game = HeroScape()

    @property
    def options(self) -> Mapping[str, Any]:
        scenario = "deadly-wall-of-water" if self._seats in (2, 3) else "rogue-hive"
        return {"scenario": scenario, "army": "draft"}

    def layout(self, seats: int) -> DemoLayout:
        self._seats = seats
        readers = [{"reader": seat, "zone": "army", "player": seat} for seat in range(seats)]
        table = {
            "settle_ms": 40,
            "removal_ms": 80,
            "readers": readers,
            "buttons": {str(seats): "next", str(seats + 1): "confirm"},
        }
        return DemoLayout(seats, (seats, seats + 1), ((0, "heroscape-combat"), (1, "d20")), table)

    def tags(self) -> dict[str, str]:
        return card_tags()

    def next_action(self, position: LivePosition) -> Action | None:
        prompt, state = position.prompt, position.state
        if prompt is None or prompt.roll is not None or not isinstance(state, State):
            return None
        legal = list(self._game.legal_actions(state))
        if not legal:
            return None
        kind = prompt.kind
        if kind == "lose-marker":
            return self._lost_marker(state)
        if kind in ("draft", "army"):
            return self._army(state, legal)
        if kind == "turn":
            disputes = [a for a in rolloffs(state) if state.turn and a.player == state.turn.seat]
            if disputes and self._rng.random() < ROLLOFF_CHANCE:
                return self._rng.choice(disputes)  # the d20s then come from the e-dice
            return self._turn(legal)
        if kind == "flood":
            return self._flood(state, legal)
        keep = [a for a in legal if not isinstance(a, Decline)]
        return self._rng.choice(keep if keep and self._rng.random() < 0.8 else legal)

    def _army(self, state: State, legal: list[Action]) -> Action:
        adds = [a for a in legal if isinstance(a, AddCard)]
        ready = [a for a in legal if isinstance(a, ArmyReady)]
        if adds and (not ready or self._rng.random() < 0.9):
            return self._rng.choice(adds)
        return ready[0] if ready else legal[0]

    def _turn(self, legal: list[Action]) -> Action:
        for kind in (UsePower, Moved):
            found = [a for a in legal if isinstance(a, kind)]
            if found and (kind is Moved or self._rng.random() < 0.5):
                return self._rng.choice(found)
        attacks = [a for a in legal if isinstance(a, Attack)]
        if attacks and self._rng.random() < ATTACK_CHANCE:
            attack = self._rng.choice(attacks)
            if attack.special is None and self._rng.random() < HEIGHT_CHANCE:
                height = self._rng.choice(("attacker", "defender"))
                return Attack(
                    attack.player, attack.attacker, attack.defender, None, height, attack.conditions
                )
            return attack
        return next(a for a in legal if isinstance(a, EndTurn))

    def _flood(self, state: State, legal: list[Action]) -> Action:
        ask = state.top
        assert isinstance(ask, Ask)
        mine = [f for uid, unit in state.units_of(ask.seat) for f in (uid.figure(n) for n in unit.living())]
        if mine and self._rng.random() < 0.3:
            return Declare(PlayerId(ask.seat), "flooded", (self._rng.choice(mine).format(),))
        return legal[0]

    def _lost_marker(self, state: State) -> Action | None:
        ask = state.top
        assert isinstance(ask, Ask)
        side = state.sides[ask.seat]
        for index, unit in enumerate(side.markers or ()):
            if unit == ask.subject and not side.removed[index] and (index == 3 or not side.revealed[index]):
                return LoseMarker(PlayerId(ask.seat), "123X"[index])  # type: ignore[arg-type]
        return None

    def hands(self, table: DemoTable, device: TableDevice) -> HeroScapeHands:
        return HeroScapeHands(table, device, self._seats)


def kit(rng: random.Random) -> HeroScapeDemo:
    return HeroScapeDemo(rng)


class HeroScapeHands:
    """Army cards on the army readers, dice on the device, the next button; the rest as the phones.

    A physical act is never repeated through the control page: once a tag is laid, a die thrown or a
    button pressed, the table answers in its own time (the wait is only so the next step reads the
    new position); the phones act only where the device has no such thing (no tag left, no die).
    """

    def __init__(self, table: DemoTable, device: TableDevice, seats: int) -> None:
        self._table = table
        self._device = device
        self._next = seats
        self._tags = card_tags()
        self._where: dict[str, int] = {}
        self._pause = threading.Event()  # never set: waited on with a timeout
        self._timeout = 5.0
        self.physical = 0
        self.direct = 0

    def enact(self, action: Any, position: LivePosition) -> None:
        game = position.game
        assert game is not None
        payload = game.format_action(action)
        done = False
        if isinstance(action, AddCard):
            done = self._lay(action.card, int(action.player))
        elif isinstance(action, RemoveCard):
            done = self._lift_card(action.unit.split(":", 1)[1].split("#")[0], int(action.player))
        elif action.kind == "roll":
            done = self._roll(payload)
        elif isinstance(action, Moved | EndTurn) or (
            isinstance(action, Decline) and self._next_declines(position)
        ):
            done = self._press_next()
        if done:
            self.physical += 1
            return
        self.direct += 1
        self._table.submit(payload)

    def _lay(self, card: str, seat: int) -> bool:
        uid = next((u for u, c in self._tags.items() if c == card and u not in self._where), None)
        if uid is None:
            return False
        before = self._table.position().seq
        self._device.put_tag(seat, uid)
        self._where[uid] = seat
        self._table.wait_after(before, self._timeout)
        return True

    def _lift_card(self, card: str, seat: int) -> bool:
        uid = next((u for u, r in self._where.items() if r == seat and self._tags[u] == card), None)
        if uid is None:
            return False
        before = self._table.position().seq
        self._device.remove_tag(seat, uid)
        del self._where[uid]
        self._table.wait_after(before, self._timeout)
        return True

    def _roll(self, payload: Mapping[str, Any]) -> bool:
        faces = [self._table.die_face(str(payload["die"]), str(symbol)) for symbol in payload["faces"]]
        if any(found is None for found in faces):
            return False  # the device has no such die: the phone enters the roll
        before = self._table.position().seq
        for found in faces:
            assert found is not None
            self._device.roll(*found)
        self._table.wait_after(before, self._timeout)
        return True

    def _next_declines(self, position: LivePosition) -> bool:
        prompt = position.prompt
        return prompt is not None and any(isinstance(c.action, Decline) for c in prompt.choices)

    def _press_next(self) -> bool:
        before = self._table.position().seq
        self._device.press(self._next)
        self._device.release(self._next)
        self._table.wait_after(before, self._timeout)
        return True

    def clear(self) -> None:
        for uid, reader in list(self._where.items()):
            self._device.remove_tag(reader, uid)
        self._where.clear()
        self._pause.wait(0.15)  # the removal window passes before the next game's cards are laid
