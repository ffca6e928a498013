"""The demo chiefs' hands at the simulated table: every chip of the box carries a tag, and what has a
physical act is done with the chips, the buttons and the electronic dice; the rest goes from each chief's
own phone (checked by the session as his seat's).

A physical act is never repeated through a phone once the table answered it; the phone steps in only when
the table had no act for it (no reader, no such die) or did not answer in time. After every action the
hands put the chips where the engine now has them (losses off the board, an army following its leader,
gold paid and banked, a captive into the winner's hand): moves the table reads as nothing, since the engine
already holds the chips there.
"""

from __future__ import annotations

import logging
import random
import threading
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from companion.bundle import DemoTable, LivePosition, TableDevice
from companion.engine import Action, Game, Roll
from companion.games.orcwars_too import flow
from companion.games.orcwars_too.actions import (
    GOLD,
    Buy,
    Choose,
    Discard,
    Done,
    Draw,
    DrawGold,
    Levy,
    Move,
    Redraw,
    TakeBosses,
    TradeForGold,
)
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.demo_layout import Layout
from companion.games.orcwars_too.economy import ARMY, TREASURY, caravan_territory
from companion.games.orcwars_too.state import State
from companion.games.orcwars_too.table import DECLINES, levying_leader, locate

log = logging.getLogger(__name__)


class OrcwarsHands:
    def __init__(
        self,
        table: DemoTable,
        device: TableDevice,
        layout: Layout,
        tags: Mapping[str, str],
        rng: random.Random,
    ) -> None:
        self._table = table
        self._rng = rng
        self._device = device
        self._layout = layout
        self._uid = {chip: uid for uid, chip in tags.items() if chip != GOLD}
        self._gold = sorted(uid for uid, chip in tags.items() if chip == GOLD)
        self._where: dict[str, int] = {}
        """Tag -> the reader it lies on (a chip in the cup or the pile lies on none)."""
        self._pause = threading.Event()  # never set: waited on with a timeout, for the table to settle
        self._timeout = 5.0
        self.physical = 0
        self.phoned = 0

    # ---------------------------------------------------------------------------------- acting

    def enact(self, action: Any, position: LivePosition) -> None:
        game, state = position.game, position.state
        assert game is not None and isinstance(state, State)
        if self._at_the_table(action, game, state, position):
            self.physical += 1
        else:
            self.phoned += 1
            seat = game.actor(state, action)
            log.info(
                "from %s's phone: %s", position.name(seat) if seat is not None else "a phone", action.kind
            )
            self._table.submit(game.format_action(action), seat)
        self._tidy()

    def _at_the_table(self, action: Action, game: Game, state: State, position: LivePosition) -> bool:
        data: GameData = getattr(game, "data")  # noqa: B009 - the ORCWARS engine's data
        if isinstance(action, TakeBosses):
            return all(self._lay(chip, self._layout.hand_reader(action.player)) for chip in action.leaders)
        if isinstance(action, Draw):
            return all(self._lay(chip, self._layout.hand_reader(action.player)) for chip in action.counters)
        if isinstance(action, DrawGold):
            return self._draw_gold(action, data, state)
        if isinstance(action, TradeForGold | Discard) and len(action.counters) == 1:
            return self._lift(action.counters[0])
        if isinstance(action, Redraw):
            hand = state.hands[action.player].counters
            return bool(hand) and self._lift(hand[0])
        if isinstance(action, Buy) and state.cup:
            # The unit bought is drawn at once: the chip laid on the hand is both (two inputs).
            chip = self._rng.choice(state.cup)
            return self._lay(chip, self._layout.hand_reader(action.player), inputs=2)
        if isinstance(action, Levy) and not action.neutrals:
            return self._levy(action, data, state)
        if isinstance(action, Move) and not action.via:
            return self._lay(action.leader, self._layout.territory_reader(action.to))
        if isinstance(action, Choose):
            return self._choose(action, data, state, position)
        if isinstance(action, Done) and any(c.action == action for c in _choices(position)):
            return self._press(action.player)
        if isinstance(action, Roll):
            return self._roll(action)
        return False

    def _draw_gold(self, action: DrawGold, data: GameData, state: State) -> bool:
        top = state.top
        if top is None or top.purpose != "gold":
            return False
        to = top.options[0]
        reader = self._layout.hand_reader(action.player)
        if to == ARMY:
            army = state.army(top.leader)
            if army is None or not army.territory:
                return False
            reader = self._layout.territory_reader(army.territory)
        elif to == TREASURY:
            caravan = state.caravan(top.subject)
            if caravan is None:
                return False
            reader = self._layout.territory_reader(caravan_territory(data, caravan))
        if action.chip != GOLD:
            return self._lay(action.chip, reader)
        free = next((uid for uid in self._gold if uid not in self._where), None)
        return free is not None and self._put(free, reader)

    def _levy(self, action: Levy, data: GameData, state: State) -> bool:
        army = state.army(action.leader)
        if army is None:  # the leader comes out of the hand onto his home
            home = data.counter(action.leader).native
            if not self._lay(action.leader, self._layout.territory_reader(home)):
                return False
            territory = home
        else:
            territory = army.territory
            if levying_leader(data, state, action.player, territory) != action.leader:
                return False  # another leader of his stands there: the phone says which levies
        return all(self._lay(chip, self._layout.territory_reader(territory)) for chip in action.counters)

    def _choose(self, action: Choose, data: GameData, state: State, position: LivePosition) -> bool:
        need = flow.battle_need(data, state) if state.battle is not None else None
        if need is not None and need.kind in ("retreat", "escape") and action.option in data.board:
            return self._lay(need.subject, self._layout.territory_reader(action.option))
        # The next button takes the prompt's one "done", else its first decline ("no battle", "let pass").
        choices = _choices(position)
        if any(isinstance(c.action, Done) for c in choices):
            return False
        declined = next(
            (c.action for c in choices if isinstance(c.action, Choose) and c.action.option in DECLINES), None
        )
        return declined == action and self._click(self._layout.next_button)

    def _roll(self, roll: Roll) -> bool:
        faces = [self._table.die_face(roll.die, symbol) for symbol in roll.faces]
        if any(found is None for found in faces):
            return False  # the device has no such die: the phone enters the roll
        before = self._table.position().seq
        for found in faces:
            assert found is not None
            self._device.roll(*found)
        return self._table.wait_after(before, self._timeout)

    # ---------------------------------------------------------------------------- physical acts

    def _lay(self, chip: str, reader: int, inputs: int = 1) -> bool:
        """Moves the chip's tag onto ``reader`` and waits for the table to answer with ``inputs`` inputs."""
        uid = self._uid.get(chip)
        return uid is not None and self._put(uid, reader, inputs)

    def _put(self, uid: str, reader: int, inputs: int = 1) -> bool:
        before = self._table.position().seq
        self._move(uid, reader)
        return self._answered(before, inputs)

    def _lift(self, chip: str) -> bool:
        uid = self._uid.get(chip)
        if uid is None or uid not in self._where:
            return False
        before = self._table.position().seq
        self._device.remove_tag(self._where.pop(uid), uid)
        return self._answered(before)

    def _press(self, seat: int) -> bool:
        return self._click(seat)

    def _click(self, button: int) -> bool:
        before = self._table.position().seq
        self._device.press(button)
        self._device.release(button)
        return self._answered(before)

    def _answered(self, before: int, inputs: int = 1) -> bool:
        seq = before
        for _ in range(inputs):
            if not self._table.wait_after(seq, self._timeout):
                return False
            seq = self._table.position().seq
        return True

    def _move(self, uid: str, reader: int | None) -> None:
        if uid in self._where:
            self._device.remove_tag(self._where.pop(uid), uid)
        if reader is not None:
            self._device.put_tag(reader, uid)
            self._where[uid] = reader

    # ------------------------------------------------------------------------------ tidying up

    def _tidy(self) -> None:
        """Every chip where the engine now has it (see the module's docstring)."""
        position = self._table.position()
        state, game = position.state, position.game
        data = getattr(game, "data", None)
        if not isinstance(state, State) or not isinstance(data, GameData):
            return
        wanted = {uid: self._reader_of(state, data, chip) for chip, uid in self._uid.items()}
        wanted.update(self._gold_places(state, data))
        moved = [uid for uid, reader in wanted.items() if self._where.get(uid) != reader]
        for uid in moved:  # every chip off its old place first, then onto its new one
            if uid in self._where:
                self._device.remove_tag(self._where.pop(uid), uid)
        for uid in moved:
            reader = wanted[uid]
            if reader is not None:
                self._device.put_tag(reader, uid)
                self._where[uid] = reader
        if moved:
            self._settle()

    def _reader_of(self, state: State, data: GameData, chip: str) -> int | None:
        where = locate(state, chip, data)
        if where.place in ("hand", "captive"):
            return self._layout.hand_reader(where.seat)
        if where.territory and where.territory in self._layout.territories:
            return self._layout.territory_reader(where.territory)
        return None

    def _gold_places(self, state: State, data: GameData) -> dict[str, int | None]:
        """Each gold tag's reader: as many on each hand and territory as the engine counts there."""
        counts: dict[int, int] = defaultdict(int)
        for seat, hand in enumerate(state.hands):
            counts[self._layout.hand_reader(seat)] += hand.gold
        for army in state.armies:
            if army.territory:
                counts[self._layout.territory_reader(army.territory)] += army.gold
        for caravan in state.caravans:
            counts[self._layout.territory_reader(caravan_territory(data, caravan))] += caravan.treasury
        out: dict[str, int | None] = {}
        for uid in self._gold:  # gold already lying where gold is counted stays
            reader = self._where.get(uid)
            if reader is not None and counts[reader] > 0:
                counts[reader] -= 1
                out[uid] = reader
        for uid in self._gold:
            if uid not in out:
                reader = next((r for r, n in counts.items() if n > 0), None)
                if reader is not None:
                    counts[reader] -= 1
                out[uid] = reader
        return out

    def clear(self) -> None:
        for uid in list(self._where):
            self._device.remove_tag(self._where.pop(uid), uid)
        self._settle()

    def _settle(self) -> None:
        self._pause.wait((self._layout.settle_ms + self._layout.removal_ms) * 1.5 / 1000 + 0.02)


def _choices(position: LivePosition) -> list[Any]:
    prompt = position.prompt
    return list(prompt.choices) if prompt is not None else []
