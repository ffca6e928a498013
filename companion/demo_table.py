"""The demo played with the hands of the players: every move becomes a physical act on a table device.

``companion.demo_player`` decides what the players do next; :class:`PhysicalPlayer` then does it the
way people at the table would, on a device that speaks the real protocol (the CLI hands in
``firmware_bridge.virtual.VirtualTable``; this module only knows the small :class:`TableDevice`
interface, so the core never imports an adapter):

* a drawn card that is then placed → its tag laid on that line's reader (the table plays ``place``,
  the engine implies the draw); if the engine asks which slot, the table's ``next`` button steps
  to that slot on the TV and ``confirm`` takes it;
* a drawn card that is discarded → tag on the discard reader; any other draw (green cards) → pad;
* a roll → the electronic die shows the face with the chosen symbol; a shout → the seat's button;
* everything without a physical act (attack, decline, pick, blast, reorganise) → the control page.

After the engine answered, the tags follow the engine's lines (cards discarded, captured or eaten
are lifted; cards moved to another line move their tag), as players tidy the table. A physical act
the table refuses, or that is not answered in time, is submitted directly and logged: the demo never
stalls on it.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from companion.demo_player import DemoDeck, next_action
from companion.dice import Dice
from companion.engine import Action, Game
from companion.games.chaos_marauders.cards import Colour
from companion.games.chaos_marauders.catalog import load_catalog
from companion.games.chaos_marauders.state import LINES, PlaceStep
from companion.session import Session
from companion.session.contract import Command
from companion.table import TagRegistry, normalise_uid

log = logging.getLogger(__name__)

GAME = "chaos-marauders"
BUTTON_GAP_S = 0.12
"""Between two presses of ``next`` while the demo steps to a slot: long enough to see on the TV."""
UID_PREFIX = 0xDE
"""First byte of every demo tag UID: the deck's tags are DE000000, DE000001, ... in catalog order."""


class TableDevice(Protocol):
    """What the demo needs of a table device (``VirtualTable`` has exactly these)."""

    def put_tag(self, reader: int, uid: str) -> None: ...

    def remove_tag(self, reader: int, uid: str | None = None) -> None: ...

    def roll(self, die: int, face: int | None = None) -> int: ...

    def press(self, button: int) -> None: ...

    def release(self, button: int) -> None: ...


@dataclass(frozen=True)
class DemoLayout:
    """Readers 0..3·seats-1 watch the lines (seat-major), then the discard pile, then the pad."""

    seats: int = 4
    settle_ms: int = 40
    removal_ms: int = 80

    def line_reader(self, seat: int, line: int) -> int:
        return seat * LINES + line

    @property
    def discard_reader(self) -> int:
        return self.seats * LINES

    @property
    def pad_reader(self) -> int:
        return self.seats * LINES + 1

    @property
    def readers(self) -> int:
        return self.seats * LINES + 2

    @property
    def next_button(self) -> int:
        return self.seats

    @property
    def confirm_button(self) -> int:
        return self.seats + 1

    @property
    def buttons(self) -> tuple[int, ...]:
        return (*range(self.seats), self.next_button, self.confirm_button)

    def table_section(self) -> dict[str, Any]:
        """The ``[table]`` settings for this layout; device button ``n`` is seat ``n``'s shout, then
        come the ``next`` and ``confirm`` buttons."""
        readers: list[dict[str, Any]] = [
            {"reader": self.line_reader(seat, line), "zone": "line", "player": seat, "line": line}
            for seat in range(self.seats)
            for line in range(LINES)
        ]
        readers.append({"reader": self.discard_reader, "zone": "discard"})
        readers.append({"reader": self.pad_reader, "zone": "pad"})
        return {
            "settle_ms": self.settle_ms,
            "removal_ms": self.removal_ms,
            "readers": readers,
            "buttons": {
                **{str(seat): f"shout:{seat}" for seat in range(self.seats)},
                str(self.next_button): "next",
                str(self.confirm_button): "confirm",
            },
        }


def deck_tags() -> dict[str, str]:
    """UID → card id for every physical copy of the deck (deterministic, so a restart finds them)."""
    tags: dict[str, str] = {}
    for card in load_catalog():
        for _ in range(card.copies):
            tags[f"{UID_PREFIX:02X}{len(tags):06X}"] = card.id
    return tags


def enrol_deck(registry: TagRegistry) -> dict[str, str]:
    """Enrols every copy's tag (idempotent) and returns UID → card id."""
    tags = deck_tags()
    for uid, card in tags.items():
        registry.enrol(normalise_uid(uid), GAME, card)
    return tags


class PhysicalPlayer:
    """Enacts the demo player's chosen actions on the device; see the module docstring."""

    def __init__(
        self,
        session: Session,
        game: Game,
        device: TableDevice,
        layout: DemoLayout,
        dice_ids: Mapping[str, int],
        rng: random.Random,
        *,
        answer_timeout: float = 2.0,
    ) -> None:
        self._session = session
        self._game = game
        self._device = device
        self._layout = layout
        self._dice_ids = dict(dice_ids)
        """Die kind ("cube", "d20") → the device's die id, from its capabilities."""
        self._rng = rng
        self._dice = Dice.load()
        self._timeout = answer_timeout
        self._tags = deck_tags()
        self._where: dict[str, int] = {}
        """UID → reader it lies on (our own record of the table: the device is write-only to us)."""
        self._last: dict[str, int] = {}
        """UID → reader it was last laid on (the table remembers that too)."""
        self._green = {card.id for card in load_catalog() if card.colour is Colour.GREEN}
        self._pause = threading.Event()  # never set: waited on with a timeout (see ``tidy``)
        self.physical = 0
        self.direct = 0
        """Counts of actions enacted at the table and submitted directly (for logs and tests)."""

    # ----------------------------------------------------------------------------------- playing

    def enact(self, action: Action, state: Any, deck: DemoDeck) -> None:
        """Does ``action`` (chosen in ``state``) at the table, then tidies the tags to the new state."""
        payload = self._game.format_action(action)
        kind = payload["kind"]
        done = False
        if kind == "draw":
            done = self._draw(action, payload, state, deck)
        elif kind in ("place", "discard"):
            done = self._lay(payload)
        elif kind == "roll":
            done = self._roll(payload)
        elif kind == "shout":
            done = self._shout(payload)
        if done:
            self.physical += 1
        else:
            self._direct(payload, physical=kind in ("draw", "place", "discard", "roll", "shout"))
        self.tidy()

    def _draw(self, action: Action, payload: Mapping[str, Any], state: Any, deck: DemoDeck) -> bool:
        card = str(payload["card"])
        after, _ = self._game.apply(state, action)
        # What the player does with the card decides where it is laid: the engine is pure, so ask it.
        follow = next_action(self._game, after, deck, self._rng, self._dice)
        then = self._game.format_action(follow) if follow is not None else {}
        if card not in self._green and then.get("kind") in ("place", "discard") and then.get("card") == card:
            return self._lay(then)
        return self._put(card, self._layout.pad_reader, expect=payload)

    def _lay(self, payload: Mapping[str, Any]) -> bool:
        card = str(payload["card"]) if payload.get("card") else self._pending_card()
        if card is None:
            return False
        if payload["kind"] == "discard":
            return self._put(card, self._layout.discard_reader, expect=payload)
        owner = payload.get("target")
        seat = int(owner) if owner is not None else int(payload["player"])
        before = self._seq()
        if not self._put(card, self._layout.line_reader(seat, int(payload["line"])), expect=payload):
            return False
        if self._placed(card):
            return True
        # The table placed it with no slot and the engine asks which one: the buttons answer.
        return self._seq() > before and self._choose_with_buttons(payload)

    def _choose_with_buttons(self, payload: Mapping[str, Any]) -> bool:
        """Presses ``next`` until the TV shows ``payload`` among the prompt's choices, then ``confirm``."""
        asked = self._game.prompt(self._session.state)
        offered = [self._game.format_action(c.action) for c in (asked.choices if asked else ())]
        if dict(payload) not in offered:
            return False
        steps = offered.index(dict(payload)) + 1
        before = self._seq()
        for _ in range(steps):
            self._click(self._layout.next_button)
            self._pause.wait(BUTTON_GAP_S)  # the players watch the TV name each choice
        self._click(self._layout.confirm_button)
        return self._wait_seq(before)

    def _click(self, button: int) -> None:
        self._device.press(button)
        self._device.release(button)

    def _roll(self, payload: Mapping[str, Any]) -> bool:
        asked = self._game.prompt(self._session.state)
        die = next((d for d in self._dice if d.answers_die(str(payload["die"]))), None)
        if asked is None or len(asked.players) != 1 or die is None or die.kind not in self._dice_ids:
            return False  # several players to roll at once, or no such die: left to the control page
        faces = list(payload["faces"])
        for thrown, symbol in enumerate(faces):
            before = self._seq()
            if symbol in die.faces:
                self._device.roll(self._dice_ids[die.kind], die.faces.index(symbol) + 1)
                if self._wait_seq(before):
                    continue
            if thrown == 0:
                return False
            # Some throws counted already: only the rest is entered by hand, or they would count twice.
            log.info("die throw not taken up, submitting the remaining %s directly", faces[thrown:])
            return self._submit({**payload, "faces": faces[thrown:]})
        return True

    def _shout(self, payload: Mapping[str, Any]) -> bool:
        seat = int(payload["player"])
        if seat >= self._layout.seats:
            return False
        before = self._seq()
        self._click(seat)
        return self._wait_seq(before)

    def _put(self, card: str, reader: int, expect: Mapping[str, Any]) -> bool:
        uid = self._copy_for(card, reader)
        if uid is None:
            return False
        before = self._seq()
        self._move(uid, reader)
        if self._wait_seq(before):
            return True
        log.info("the table did not play %s in time", dict(expect))
        return False

    def _direct(self, payload: Mapping[str, Any], physical: bool) -> None:
        if physical:
            log.info("not enacted at the table (or not taken up): submitting %s directly", dict(payload))
        self.direct += 1
        self._submit(payload)

    def _submit(self, payload: Mapping[str, Any]) -> bool:
        outcome = self._session.submit(Command(kind="act", source="control", payload=dict(payload)))
        if not outcome.accepted:
            # Someone at the control page got there first: the next step reads the new position.
            log.info("demo action %s refused: %s", dict(payload), outcome.reason)
        return outcome.accepted

    # ------------------------------------------------------------------------------------ tidying

    def tidy(self) -> None:
        """Moves the tags to where the engine now has the cards (the table takes these silently)."""
        state = self._session.state
        if state is None:
            return
        layout = self._layout
        wanted: dict[int, Counter[str]] = {}
        for seat, board in enumerate(state.boards[: layout.seats]):
            for line, cells in enumerate(board):
                wanted[layout.line_reader(seat, line)] = Counter(c for c in cells if c is not None)
        # The pad keeps a card still waiting to be placed; the discard reader the discard pile.
        wanted[layout.pad_reader] = Counter(self._pending_cards(state))
        wanted[layout.discard_reader] = Counter(state.discard)
        moved = False
        leaving: list[str] = []
        for uid, reader in list(self._where.items()):
            keep = wanted.get(reader, Counter())
            if keep[self._tags[uid]] > 0:
                keep[self._tags[uid]] -= 1
            else:
                leaving.append(uid)
        for uid in leaving:
            moved = True
            pile = wanted[layout.discard_reader]
            if pile[self._tags[uid]] > 0 and self._where[uid] != layout.discard_reader:
                # A rule discarded it: players put it on the discard pile, where the table takes it
                # silently and from then on knows the card comes from the pile, not from a line.
                pile[self._tags[uid]] -= 1
                self._move(uid, layout.discard_reader)
            else:
                self._lift(uid)
        for reader, missing in wanted.items():
            if reader in (layout.pad_reader, layout.discard_reader):
                continue  # nobody lays a card there to tidy up
            for card, count in missing.items():
                for _ in range(count):
                    uid = self._copy_for(card, reader)
                    if uid is not None:
                        self._move(uid, reader)
                        moved = True
        if moved:
            # Let the table settle these before the game moves on: a tag settling on a line after a
            # rule took the card away again would be read as a new placement. The table does not
            # publish when it settled, so this is a timed wait of both windows and a margin.
            self._pause.wait((layout.settle_ms + layout.removal_ms) * 1.5 / 1000 + 0.02)

    def clear(self) -> None:
        """Every tag off the table (a new game starts with the deck in hand)."""
        lifted = list(self._where)
        for uid in lifted:
            self._lift(uid)
        if lifted:
            # A tag laid back on the same reader within the removal window would read as a flicker.
            self._pause.wait(self._layout.removal_ms * 1.5 / 1000 + 0.02)

    # ------------------------------------------------------------------------------------ helpers

    def _copy_for(self, card: str, reader: int) -> str | None:
        """The copy to lay on ``reader``: the one on the pad (just drawn), else one in hand, else one
        from the discard pile; None when every copy already lies elsewhere.

        For the discard pile, a copy in hand that lay there before comes first and one last laid on a
        line or the pad comes last: the table remembers where a tag lay (a card from a line to the pile
        is a rule's discard), and takes a never-seen copy of the pile's top card as already discarded.
        """
        copies = [uid for uid in self._copies(card) if self._where.get(uid) != reader]
        if reader == self._layout.discard_reader:
            rank = {reader: 0, None: 1}
            copies.sort(key=lambda uid: rank.get(self._last.get(uid), 2))
        for place in (self._layout.pad_reader, None, self._layout.discard_reader):
            for uid in copies:
                if self._where.get(uid) == place:
                    return uid
        return None

    def _copies(self, card: str) -> Iterator[str]:
        return (uid for uid, c in self._tags.items() if c == card)

    def _move(self, uid: str, reader: int) -> None:
        if uid in self._where:
            self._lift(uid)  # lifted before it is laid: a card never reads on two readers at once
        self._device.put_tag(reader, uid)
        self._where[uid] = self._last[uid] = reader

    def _lift(self, uid: str) -> None:
        self._device.remove_tag(self._where.pop(uid), uid)

    def _pending_card(self) -> str | None:
        state = self._session.state
        for step in state.stack if state is not None else ():
            if isinstance(step, PlaceStep) and step.cards:
                return str(step.cards[0].card)
        return None

    def _placed(self, card: str) -> bool:
        """The engine took the card from the hand (False while it asks which slot)."""
        state = self._session.state
        return state is not None and card not in self._pending_cards(state)

    @staticmethod
    def _pending_cards(state: Any) -> set[str]:
        return {p.card for step in state.stack if isinstance(step, PlaceStep) for p in step.cards}

    def _seq(self) -> int:
        return int(self._session.view()["seq"])  # type: ignore[arg-type]

    def _wait_seq(self, before: int) -> bool:
        """Waits (bounded) until the session accepted an input after ``before``."""
        subscription = self._session.subscribe()
        deadline = time.monotonic() + self._timeout
        try:
            while self._seq() <= before and time.monotonic() < deadline:
                subscription.get(timeout=0.05)  # wakes on every published view
            return self._seq() > before
        finally:
            subscription.close()
