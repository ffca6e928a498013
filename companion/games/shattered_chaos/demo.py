"""The Shattered Chaos demo: a party of four or five playing a whole adventure at a simulated table.

The brain is the simulator's (``simulate.choose``): the narrator places enemies now and then and ends the
adventure from round 7 on, the map's answers fall at random, every other choice is one of the legal
actions (mostly attacks). The platform's demo runner throws the dice (``companion.demo_player``: each die of
the mixed throw its own colour).

:class:`DemoHands` then does each move the way the players would, on a device that speaks the real protocol
(the CLI hands in ``firmware_bridge.virtual.VirtualTable``):

* a chaos card drawn → its tag lifted off its stack's reader and laid on a free chaos card reader by the
  drawer's adventurer card (the table answers the draw);
* a chaos card for an attack → laid on the discard pile reader before the attack is declared (the table
  lays it for the coming attack; the attack declared on the phone then uses it), a step card or an armour
  card likewise; a card discarded for a chaos token → laid on the pile, and ``next`` if the table took it
  for the coming attack;
* the attack dice → the yellow, red and blue e-dice, each showing the face thrown (one mixed throw);
* the map's answers → the Adventurer button of each adventurer the enemy sees (or of the closest, of the
  tie's target, of the partner a chaos call names, of who suffers a shadow's damage); "none of them", "keep
  the throw", "no reaction", "no chaos card" → ``next``; the range die → ``next`` until the TV shows the
  reading, then ``confirm``;
* what has no physical act (a move, an interaction, a chaos call, the attack's declaration, the narrator's
  entries, the campaign box) → the control page.

After each move the tags follow the engine, as players tidy the table: the adventurer cards on their places,
the chaos cards held by their adventurers, the stacks on their readers, the discarded cards on the pile. A
physical act the table does not take up in time is entered on the control page and logged.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.bundle import DemoLayout, DemoTable, LivePosition, TableDevice
from companion.engine import JSON, Action, Roll
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.data_loading import default_catalog
from companion.games.shattered_chaos.engine import ShatteredChaos
from companion.games.shattered_chaos.simulate import choose
from companion.games.shattered_chaos.state import State
from companion.games.shattered_chaos.zones import STACKS

log = logging.getLogger(__name__)

PLAYERS = (
    {"name": "Ilsa", "colour": "#e23b3b"},
    {"name": "Torvin", "colour": "#2f7df6"},
    {"name": "Maren", "colour": "#2fb84f"},
    {"name": "Quill", "colour": "#f2b01e"},
    {"name": "Brannoc", "colour": "#9b59d0"},
)
UID_PREFIX = "5C"
"""First byte of every demo tag: the adventurer cards, then the bronze chaos cards, in catalog order."""
DICE = ((0, "sc-yellow"), (1, "sc-red"), (2, "sc-blue"), (3, "sc-yellow"), (4, "sc-red"), (5, "sc-blue"))
"""The box's two dice of each colour (VIII.7, line 2639), as e-dice: the device numbers and what they are."""
BUTTON_GAP_S = 0.12
"""Between two presses of ``next`` while the demo steps to a reading: long enough to see on the TV."""
TIMEOUT_S = 3.0
"""How long a physical act may take to be answered (the Adventurer buttons' window is 1.5 s)."""


def card_tags() -> dict[str, str]:
    """UID → card id of every physical card the demo tags (deterministic, so a restart finds them)."""
    cat = default_catalog()
    cards = [hero.id for hero in cat.adventurers] + [card.id for card in cat.bronze()]
    return {f"{UID_PREFIX}{index:06X}": card for index, card in enumerate(cards)}


@dataclass(frozen=True)
class Layout:
    """Readers: per seat its adventurer card and two chaos card places (seat-major), then the three
    stacks and the discard pile. Buttons: seat n's Adventurer button is device button n, then next and
    confirm. Dice: two of each colour."""

    seats: int = 4
    settle_ms: int = 40
    removal_ms: int = 80

    def adventurer_reader(self, seat: int) -> int:
        return 3 * seat

    def slot_readers(self, seat: int) -> tuple[int, int]:
        return 3 * seat + 1, 3 * seat + 2

    def stack_reader(self, stack: str) -> int:
        return 3 * self.seats + STACKS.index(stack)

    @property
    def discard_reader(self) -> int:
        return 3 * self.seats + len(STACKS)

    @property
    def readers(self) -> int:
        return self.discard_reader + 1

    @property
    def next_button(self) -> int:
        return self.seats

    @property
    def confirm_button(self) -> int:
        return self.seats + 1

    def table_section(self) -> dict[str, Any]:
        readers: list[dict[str, Any]] = []
        for seat in range(self.seats):
            readers.append({"reader": self.adventurer_reader(seat), "zone": "adventurer", "player": seat})
            for slot, reader in enumerate(self.slot_readers(seat)):
                readers.append({"reader": reader, "zone": "chaos", "player": seat, "slot": slot})
        readers += [{"reader": self.stack_reader(s), "zone": "stack", "stack": s} for s in STACKS]
        readers.append({"reader": self.discard_reader, "zone": "discard"})
        buttons = {str(seat): f"adventurer:{seat}" for seat in range(self.seats)}
        buttons[str(self.next_button)] = "next"
        buttons[str(self.confirm_button)] = "confirm"
        return {
            "settle_ms": self.settle_ms,
            "removal_ms": self.removal_ms,
            "readers": readers,
            "buttons": buttons,
        }

    def demo_layout(self) -> DemoLayout:
        buttons = (*range(self.seats), self.next_button, self.confirm_button)
        return DemoLayout(self.readers, buttons, DICE, self.table_section())


class ShatteredChaosDemo:
    """The game's ``companion.bundle.DemoKit``."""

    players = PLAYERS
    options: Mapping[str, JSON] = {"adventure": 1, "starting": 1}

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._layout = Layout()

    def layout(self, seats: int) -> DemoLayout:
        self._layout = Layout(seats=seats)
        return self._layout.demo_layout()

    def tags(self) -> dict[str, str]:
        return card_tags()

    def next_action(self, position: LivePosition) -> Action | None:
        """What the table does next (the simulator's choice; never a roll: the runner throws the dice)."""
        game, state, prompt = position.game, position.state, position.prompt
        if not isinstance(game, ShatteredChaos) or not isinstance(state, State) or prompt is None:
            return None
        if prompt.roll is not None:
            return None
        return choose(game, state, list(game.legal_actions(state)), self._rng)

    def hands(self, table: DemoTable, device: TableDevice) -> DemoHands:
        return DemoHands(table, device, self._layout)


def kit(rng: random.Random) -> ShatteredChaosDemo:
    return ShatteredChaosDemo(rng)


class DemoHands:
    """Enacts the demo's chosen actions on the device; see the module docstring."""

    def __init__(self, table: DemoTable, device: TableDevice, layout: Layout) -> None:
        self._table = table
        self._device = device
        self._layout = layout
        self._tags = card_tags()
        self._uid = {card: uid for uid, card in self._tags.items()}
        self._where: dict[str, int] = {}
        """UID → the reader it lies on (our own record: the device is write-only to us)."""
        self._pause = threading.Event()  # never set: waited on with a timeout, for the table to settle
        self.physical = 0
        self.direct = 0

    # ----------------------------------------------------------------------------------- playing

    def enact(self, action: Action, position: LivePosition) -> None:
        """Does ``action`` (chosen in ``position``) at the table, then tidies the tags to the new state."""
        self.tidy()  # a new adventure: the cards laid out first
        done = self._physically(action, position)
        if done:
            self.physical += 1
        else:
            self.direct += 1
            self._table.submit(action.to_json())
        self.tidy()

    def _physically(self, action: Action, position: LivePosition) -> bool:
        seats = self._layout.seats
        if isinstance(action, Roll):
            return self._roll(action)
        if isinstance(action, act.DrawCard) and action.player < seats:
            return self._lay(action.card, self._free_slot(action.player))
        if isinstance(action, act.LayCard | act.StepCard):
            return self._lay(action.card, self._layout.discard_reader)
        if isinstance(action, act.ArmourCards) and len(action.cards) == 1:
            return self._lay(action.cards[0], self._layout.discard_reader)
        if isinstance(action, act.DiscardCard):
            return self._discard_for_token(action)
        if isinstance(action, act.Attack) and action.cards:
            # The cards go to the pile first (the table lays them for this attack); the phone declares it.
            state = position.state
            laid = state.party[action.player].laid if isinstance(state, State) else ()
            for card in action.cards:
                if card not in laid and not self._lay(card, self._layout.discard_reader):
                    return False
            return self._table.submit(action.to_json())
        if isinstance(action, act.Sighted):
            if not action.adventurers:
                return self._click(self._layout.next_button)
            return self._click(*(seat for seat in action.adventurers if seat < seats))
        if isinstance(action, act.Closest | act.Target) and action.adventurer < seats:
            return self._click(action.adventurer)
        if isinstance(action, act.Redirect) and action.adventurer < seats:
            return self._click(action.adventurer)
        if isinstance(action, act.Partner):  # nobody: next; else the partner's Adventurer button
            if action.partner is None:
                return self._click(self._layout.next_button)
            return action.partner < seats and self._click(action.partner)
        if isinstance(action, act.DeclineReaction | act.DeclineDraw):
            return self._click(self._layout.next_button)
        if isinstance(action, act.ChaosHit | act.ArmourCards) and not _dice_or_cards(action):
            return self._click(self._layout.next_button)
        if isinstance(action, act.Resolve):
            return self._choose_with_buttons(action)
        return False

    def _roll(self, roll: Roll) -> bool:
        asked = self._table.position().prompt
        request = asked.roll if asked is not None else None
        if request is None or len(roll.faces) != request.count:
            return False
        before = self._seq()
        for index, symbol in enumerate(roll.faces):
            found = self._table.die_face(request.die_at(index), symbol)
            if found is None:
                return False
            self._device.roll(*found)
        return self._table.wait_after(before, TIMEOUT_S)

    def _discard_for_token(self, action: act.DiscardCard) -> bool:
        if not self._lay(action.card, self._layout.discard_reader):
            return False
        state = self._table.position().state
        if isinstance(state, State) and action.card in state.party[action.player].laid:
            # The table took it for the coming attack: next says it was for a chaos token.
            return self._click(self._layout.next_button)
        return True

    def _choose_with_buttons(self, action: Action) -> bool:
        """Presses ``next`` until the TV shows the reading among the prompt's choices, then ``confirm``."""
        offered = [payload for _, payload in self._table.position().choice_payloads()]
        wanted = action.to_json()
        if wanted not in offered:
            return False
        for _ in range(offered.index(wanted) + 1):
            self._press(self._layout.next_button)
            self._pause.wait(BUTTON_GAP_S)  # the players watch the TV name each reading
        return self._click(self._layout.confirm_button)

    def _click(self, *buttons: int) -> bool:
        before = self._seq()
        for button in buttons:
            self._press(button)
        return self._table.wait_after(before, TIMEOUT_S)

    def _press(self, button: int) -> None:
        self._device.press(button)
        self._device.release(button)

    def _lay(self, card: str, reader: int | None) -> bool:
        uid = self._uid.get(card)
        if uid is None or reader is None:
            return False
        before = self._seq()
        self._move(uid, reader)
        if self._table.wait_after(before, TIMEOUT_S):
            return True
        log.info("the table did not take up %s on reader %d in time", card, reader)
        return False

    def _free_slot(self, seat: int) -> int | None:
        taken = set(self._where.values())
        return next((r for r in self._layout.slot_readers(seat) if r not in taken), None)

    # ------------------------------------------------------------------------------------ tidying

    def tidy(self) -> None:
        """Moves the tags to where the engine has the cards (the table takes these silently)."""
        state = self._table.position().state
        if not isinstance(state, State):
            return
        wanted = self._wanted(state)
        moves = [(uid, reader) for uid, reader in wanted.items() if self._where.get(uid) != reader]
        leaving = [uid for uid in self._where if uid not in wanted]
        for uid in leaving:
            self._lift(uid)
        for uid, reader in moves:
            if reader is not None:
                self._move(uid, reader)
        if moves or leaving:
            # Let the table settle these before the game moves on (it does not publish when it settled).
            self._pause.wait((self._layout.settle_ms + self._layout.removal_ms) * 1.5 / 1000 + 0.02)

    def _wanted(self, state: State) -> dict[str, int | None]:
        layout = self._layout
        out: dict[str, int | None] = {}
        for seat, hero in enumerate(state.party[: layout.seats]):
            out[self._uid[hero.card]] = layout.adventurer_reader(seat)
            slots = layout.slot_readers(seat)
            held = [self._uid[c] for c in hero.cards if c not in hero.laid and c in self._uid]
            kept = {uid: self._where[uid] for uid in held if self._where.get(uid) in slots}
            free = [r for r in slots if r not in kept.values()]
            for uid in held:
                out[uid] = kept[uid] if uid in kept else free.pop(0) if free else None
            for card in hero.laid:
                out[self._uid[card]] = layout.discard_reader
        for stack, cards in state.stacks:
            if stack in STACKS:
                out.update({self._uid[c]: layout.stack_reader(stack) for c in cards if c in self._uid})
        out.update({self._uid[c]: layout.discard_reader for c in state.discard if c in self._uid})
        return {uid: reader for uid, reader in out.items() if reader is not None}

    def clear(self) -> None:
        """Every tag off the table (a new adventure is laid out afresh)."""
        lifted = list(self._where)
        for uid in lifted:
            self._lift(uid)
        if lifted:
            self._pause.wait(self._layout.removal_ms * 1.5 / 1000 + 0.02)

    def _move(self, uid: str, reader: int) -> None:
        if uid in self._where:
            self._lift(uid)  # lifted before it is laid: a card never reads on two readers at once
        self._device.put_tag(reader, uid)
        self._where[uid] = reader

    def _lift(self, uid: str) -> None:
        self._device.remove_tag(self._where.pop(uid), uid)

    def _seq(self) -> int:
        return self._table.position().seq


def _dice_or_cards(action: act.ChaosHit | act.ArmourCards) -> Sequence[str]:
    return action.dice if isinstance(action, act.ChaosHit) else action.cards
