"""The Chaos Marauders demo: four players drawing, placing and rolling with their own hands.

The brain (:meth:`ChaosMaraudersDemo.next_action`) answers the engine's prompt the way a table would:
a draw takes the top card of a physical deck the players keep shuffled (titles come up as often as
they have copies), and any other prompt picks one of its choices at random, preferring to build lines
and to attack, because that is what makes a demo worth watching. Dice are thrown by the platform's
demo runner (``companion.demo_player``), which knows the physical faces.

:class:`PhysicalPlayer` then does each move the way people at the table would, on a device that
speaks the real protocol (the CLI hands in ``firmware_bridge.virtual.VirtualTable``; this module only
knows ``companion.bundle.TableDevice``):

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
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.bundle import DemoLayout, DemoTable, LivePosition, TableDevice
from companion.engine import Action, Game
from companion.games.chaos_marauders.cards import Colour
from companion.games.chaos_marauders.catalog import load_catalog
from companion.games.chaos_marauders.state import LINES, PlaceStep, State

log = logging.getLogger(__name__)

BUTTON_GAP_S = 0.12
"""Between two presses of ``next`` while the demo steps to a slot: long enough to see on the TV."""
THROW_GAP_S = 0.4
"""Between the throws of one prompt (the Idol's six): the table reads each throw on the TV as it comes."""
UID_PREFIX = 0xDE
"""First byte of every demo tag UID: the deck's tags are DE000000, DE000001, ... in catalog order."""
PLAYERS = (
    {"name": "Grotsnik", "colour": "#e23b3b"},
    {"name": "Ugluk", "colour": "#2f7df6"},
    {"name": "Snagla", "colour": "#2fb84f"},
    {"name": "Bogrot", "colour": "#f2b01e"},
)
# Choice weights by action kind: players rarely throw a card away or let an attack pass.
KIND_WEIGHTS: Mapping[str, float] = {"place": 10.0, "attack": 6.0, "pick": 4.0, "blast": 4.0, "decline": 1.0}
DEFAULT_WEIGHT = 1.0


class DemoDeck:
    """The draw pile as a physical, shuffled stack of cards that the simulated table draws from."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._cards: list[str] = []

    def draw(self, pile: Mapping[str, int]) -> str:
        """The top card; reshuffles first when the engine's pile (a count per title) is not ours.

        The piles part ways when the discard pile is shuffled back in, or a person undid or drew a
        card by hand: the engine's pile is the truth, so the stack is rebuilt from it.
        """
        wanted = Counter({card: n for card, n in pile.items() if n > 0})
        if Counter(self._cards) != wanted:
            self._cards = [card for card, n in wanted.items() for _ in range(n)]
            self._rng.shuffle(self._cards)
        if not self._cards:
            raise ValueError("the draw pile is empty")
        return self._cards.pop()


def pile_counts(state: State) -> dict[str, int]:
    """Copies left per card id in the draw pile (``State.pile`` counts by catalog order)."""
    ids = [card.id for card in load_catalog()]
    return dict(zip(ids, state.pile, strict=True))


def weighted_choice(actions: Sequence[Action], rng: random.Random) -> Action:
    weights = [KIND_WEIGHTS.get(a.kind, DEFAULT_WEIGHT) for a in actions]
    return rng.choices(list(actions), weights=weights, k=1)[0]


class ChaosMaraudersDemo:
    """The game's ``companion.bundle.DemoKit``."""

    players = PLAYERS
    options: Mapping[str, Any] = {}

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self.deck = DemoDeck(rng)
        self._layout = Layout()

    def layout(self, seats: int) -> DemoLayout:
        self._layout = Layout(seats=seats)
        return self._layout.demo_layout()

    def tags(self) -> dict[str, str]:
        return deck_tags()

    def next_action(self, position: LivePosition) -> Action | None:
        """What the players do next (never a roll: the runner throws dice); None when over."""
        game, prompt = position.game, position.prompt
        if game is None or prompt is None or prompt.roll is not None:
            return None
        if prompt.choices:
            return weighted_choice([c.action for c in prompt.choices], self._rng)
        if prompt.kind == "draw":
            card = self.deck.draw(pile_counts(position.state))
            return game.parse_action({"kind": "draw", "player": prompt.players[0], "card": card})
        # An open prompt this player does not know: any legal answer from someone it waits for.
        waiting = set(prompt.players)
        legal = [a for a in game.legal_actions(position.state) if getattr(a, "player", None) in waiting]
        return weighted_choice(legal, self._rng) if legal else None

    def hands(self, table: DemoTable, device: TableDevice) -> PhysicalPlayer:
        return PhysicalPlayer(table, device, self._layout, self)


def kit(rng: random.Random) -> ChaosMaraudersDemo:
    return ChaosMaraudersDemo(rng)


@dataclass(frozen=True)
class Layout:
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

    def demo_layout(self) -> DemoLayout:
        return DemoLayout(self.readers, self.buttons, ((0, "cube"), (1, "d20")), self.table_section())

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


class PhysicalPlayer:
    """Enacts the demo's chosen actions on the device; see the module docstring."""

    def __init__(
        self, table: DemoTable, device: TableDevice, layout: Layout, brain: ChaosMaraudersDemo
    ) -> None:
        self._table = table
        self._device = device
        self._layout = layout
        self._brain = brain
        """Asked what follows a draw (so the card is laid where it will be played)."""
        self._timeout = 2.0
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
        self.late = 0
        """Of the direct ones, those the table did not take up in time."""

    # ----------------------------------------------------------------------------------- playing

    def enact(self, action: Action, position: LivePosition) -> None:
        """Does ``action`` (chosen in ``position``) at the table, then tidies the tags to the new state."""
        game = _game(position)
        payload = game.format_action(action)
        kind = payload["kind"]
        done = False
        if kind == "draw":
            done = self._draw(action, payload, position)
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

    def _draw(self, action: Action, payload: Mapping[str, Any], position: LivePosition) -> bool:
        card = str(payload["card"])
        game = _game(position)
        after, _ = game.apply(position.state, action)
        # What the player does with the card decides where it is laid: the engine is pure, so ask it.
        follow = self._brain.next_action(LivePosition(position.seq, "playing", game, after, position.setup))
        then = game.format_action(follow) if follow is not None else {}
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
        offered = [action for _, action in self._table.position().choice_payloads()]
        if dict(payload) not in offered:
            return False
        steps = offered.index(dict(payload)) + 1
        before = self._seq()
        for _ in range(steps):
            self._click(self._layout.next_button)
            self._pause.wait(BUTTON_GAP_S)  # the players watch the TV name each choice
        self._click(self._layout.confirm_button)
        return self._table.wait_after(before, self._timeout)

    def _click(self, button: int) -> None:
        self._device.press(button)
        self._device.release(button)

    def _roll(self, payload: Mapping[str, Any]) -> bool:
        asked = self._table.position().prompt
        if asked is None or not asked.players or asked.players[0] != payload["player"]:
            return False  # the table gives a die to the first player still asked: not this one
        faces = list(payload["faces"])
        for thrown, symbol in enumerate(faces):
            if thrown:
                self._pause.wait(THROW_GAP_S)
            before = self._seq()
            found = self._table.die_face(str(payload["die"]), str(symbol))
            if found is not None:
                self._device.roll(*found)
                if self._table.wait_after(before, self._timeout):
                    continue
            if thrown == 0:
                return False
            # Some throws counted already: only the rest is entered by hand, or they would count twice.
            log.debug("die throw not taken up, submitting the remaining %s directly", faces[thrown:])
            return self._table.submit({**payload, "faces": faces[thrown:]})
        return True

    def _shout(self, payload: Mapping[str, Any]) -> bool:
        seat = int(payload["player"])
        if seat >= self._layout.seats:
            return False
        before = self._seq()
        self._click(seat)
        return self._table.wait_after(before, self._timeout)

    def _put(self, card: str, reader: int, expect: Mapping[str, Any]) -> bool:
        uid = self._copy_for(card, reader)
        if uid is None:
            return False
        before = self._seq()
        self._move(uid, reader)
        if self._table.wait_after(before, self._timeout):
            return True
        log.debug("the table did not play %s in time: entered as from the control page", dict(expect))
        self.late += 1
        return False

    def _direct(self, payload: Mapping[str, Any], physical: bool) -> None:
        if physical:
            log.debug("not enacted at the table (or not taken up): submitting %s directly", dict(payload))
        self.direct += 1
        self._table.submit(payload)

    # ------------------------------------------------------------------------------------ tidying

    def tidy(self) -> None:
        """Moves the tags to where the engine now has the cards (the table takes these silently)."""
        state = self._table.position().state
        if not isinstance(state, State):
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
        state = self._table.position().state
        for step in state.stack if isinstance(state, State) else ():
            if isinstance(step, PlaceStep) and step.cards:
                return str(step.cards[0].card)
        return None

    def _placed(self, card: str) -> bool:
        """The engine took the card from the hand (False while it asks which slot)."""
        state = self._table.position().state
        return isinstance(state, State) and card not in self._pending_cards(state)

    @staticmethod
    def _pending_cards(state: Any) -> set[str]:
        return {p.card for step in state.stack if isinstance(step, PlaceStep) for p in step.cards}

    def _seq(self) -> int:
        return self._table.position().seq


def _game(position: LivePosition) -> Game:
    assert position.game is not None, "the demo acts only while a game is played"
    return position.game
