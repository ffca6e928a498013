"""The Chaos Marauders rules engine: ``apply(state, action) -> (state, events)``, prompts, legal actions.

The engine never draws, shuffles or rolls: the table says which card was drawn and what the Cube
showed. This module checks an action's shape, routes it to the handler of the step it answers
(flow, attacks, specials_*) and settles the position afterwards (turn end, reshuffle, game end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from companion.engine import (
    JSON,
    Action,
    Event,
    Game,
    GameResult,
    GameType,
    IllegalActionError,
    MalformedActionError,
    Player,
    PlayerId,
    Prompt,
    Roll,
    Setup,
    SetupError,
    SetupOption,
    data_digest,
)
from companion.games.chaos_marauders import (
    actors,
    attacks,
    cheating,
    corrections,
    flow,
    make_room,
    prompts,
    result,
    specials_green,
    specials_picks,
    view,
)
from companion.games.chaos_marauders.actions import (
    CODEC,
    CORRECTIONS,
    CUBE,
    FACES,
    Attack,
    Blast,
    Decline,
    Discard,
    Draw,
    ForceDiscard,
    MakeRoom,
    Pick,
    Place,
    Reorganise,
    Shout,
)
from companion.games.chaos_marauders.catalog import GAME, TITLE, CatalogError, load_catalog
from companion.games.chaos_marauders.facts import Facts, default_facts, facts_for
from companion.games.chaos_marauders.state import (
    EMPTY_BOARD,
    LINES,
    SLOTS,
    AttackOffer,
    AttackRoll,
    BilgeChoice,
    BlowbackTarget,
    BlueRolls,
    CardChoice,
    GreenRoll,
    IdolRolls,
    OdluggEats,
    OdluggRolls,
    State,
    evolve,
)

RULES_VERSION = "chaos-marauders/engine-3"
"""Bumped whenever a rule changes what a sequence of inputs leads to: snapshots taken under another
version are not trusted (the log is replayed instead). 3: a stolen Bilge attacks, every Git goes
within three spaces of a card."""

Handler = Callable[[Facts, State, Any, list[Event]], State]
"""A rules function: the position, the action it answers, the events so far -> the new position."""


class ChaosMarauders(Game[State]):
    name = GAME
    title = TITLE
    min_players = 2
    max_players = 4
    actions = CODEC
    game_type = GameType()
    """Competitive, one player acting at a time, no seat's secret kept by a phone (the active player's
    Chaos Marauders card is kept face down by the view itself until someone shouts)."""
    default_players = (
        Player("Grotsnik", "#e23b3b"),
        Player("Ugluk", "#2f7df6"),
        Player("Snagla", "#2fb84f"),
        Player("Bogrot", "#f2b01e"),
    )

    def __init__(self, facts: Facts | None = None, owner_data: str = "") -> None:
        self.facts = facts or default_facts()
        self.owner_data = owner_data
        """The :func:`data_digest` of the owner's overrides file the catalog was built with, or ""."""

    @classmethod
    def with_owner_data(cls, path: Path) -> ChaosMarauders:
        """The engine over the packaged cards with the owner's overrides file (``[[cards]]`` with an
        ``id`` and the corrected values, each with its provenance) applied."""
        try:
            catalog = load_catalog(overrides=path)
            digest = data_digest(path.read_bytes())
        except (CatalogError, OSError) as exc:
            raise SetupError(f"{cls.title} data {path}: {exc}") from None
        return cls(facts_for(catalog), digest)

    @property
    def rules_version(self) -> str:
        owner = f"+owner-{self.owner_data}" if self.owner_data else ""
        return f"{RULES_VERSION}+{self.facts.catalog.deck_size}cards{owner}"

    def new_game(self, setup: Setup) -> State:
        count = len(setup.players)
        if not self.min_players <= count <= self.max_players:
            raise SetupError(f"Chaos Marauders is for 2 to 4 players, not {count}")
        names = tuple(p.name for p in setup.players)
        if len(set(names)) != count:
            raise SetupError("every player needs a different name")
        # "the player wearing the most green clothing takes the first turn": a seat, default 0.
        first = setup.option("first_player", 0)
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < count:
            raise SetupError(f"first_player must be a seat from 0 to {count - 1}, not {first!r}")
        return State(
            names=names,
            colours=tuple(p.colour for p in setup.players),
            pile=tuple(card.copies for card in self.facts.catalog.cards),
            discard=(),
            boards=(EMPTY_BOARD,) * count,
            active=first,
            first=first,
        )

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        _check_shape(state, action)
        if state.finished:
            raise IllegalActionError("The game is over")
        f = self.facts
        ev: list[Event] = []
        state = cheating.enforce(f, state, ev)
        before = state
        if state.fresh is not None and not (
            type(action) in _KEEP_FRESH or isinstance(action, Draw | Place | Shout | ForceDiscard)
        ):
            state = evolve(state, fresh=None)  # the moment for a Git's forced discard has passed
        handler = _handler(f, state, action)
        state = handler(f, state, action, ev)
        state = flow.settle(f, before, state, ev)
        return state, tuple(ev)

    def legal_actions(self, state: State) -> Sequence[Action]:
        return prompts.legal(self.facts, state)

    def prompt(self, state: State) -> Prompt | None:
        return prompts.prompt(self.facts, state)

    def is_over(self, state: State) -> bool:
        return state.finished

    def view(self, state: State) -> dict[str, JSON]:
        return view.view(self.facts, state, self.prompt(state))

    def actor(self, state: State, action: Action) -> PlayerId | None:
        return actors.actor(state, action)

    def setup_options(self) -> tuple[SetupOption, ...]:
        return (
            SetupOption(
                "first_player",
                "First player",
                "int",
                (),
                0,
                "The seat counted from 0 (the first player listed): the one wearing the most green clothing",
                0,
                self.max_players - 1,
            ),
        )

    def result(self, state: State) -> GameResult:
        return result.result(self.facts, state)


_KEEP_FRESH = frozenset({Draw, Place, MakeRoom, Shout, ForceDiscard, *CORRECTIONS})
"""Actions during which a just-drawn card stays fresh (open to a Git's forced discard)."""


_SHAPE_FIELDS: dict[type, tuple[tuple[str, ...], tuple[str, ...], bool, bool]] = {}
"""Per action class: its seat fields, its line fields, whether it has a slot and whether it carries
more to check (the faces of a Roll, the layout of a Reorganise); the shape check's ``getattr`` of
absent fields was a large part of a cheap action's cost."""


def _shape_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], bool, bool]:
    known = _SHAPE_FIELDS.get(cls)
    if known is None:
        names = set(getattr(cls, "__dataclass_fields__", ()))
        more = issubclass(cls, Roll | Reorganise)
        if not names:  # not a dataclass: look for every field on each action
            return ("player", "target"), ("line", "target_line"), True, more
        known = _SHAPE_FIELDS[cls] = (
            tuple(n for n in ("player", "target") if n in names),
            tuple(n for n in ("line", "target_line") if n in names),
            "slot" in names,
            more,
        )
    return known


def _check_shape(state: State, a: Action) -> None:
    """MalformedActionError for what no position could accept: unknown seats, lines, slots, faces."""
    seats = len(state.names)
    seat_fields, line_fields, has_slot, more = _shape_fields(type(a))
    for name in seat_fields:
        seat = getattr(a, name, None)
        if seat is not None and not 0 <= seat < seats:
            raise MalformedActionError(f"{a.kind}.{name}: there is no seat {seat} (0 to {seats - 1})")
    for name in line_fields:
        line = getattr(a, name, None)
        if line is not None and not 0 <= line < LINES:
            raise MalformedActionError(f"{a.kind}.{name}: lines are 0 to {LINES - 1}, not {line}")
    if has_slot:
        slot = getattr(a, "slot", None)
        if slot is not None and not 0 <= slot < SLOTS:
            raise MalformedActionError(f"{a.kind}.slot: slots are 0 to {SLOTS - 1}, not {slot}")
    if not more:
        return
    if isinstance(a, Roll):
        if not a.faces or any(face not in FACES for face in a.faces):
            raise MalformedActionError(f"roll.faces: each face is 'eye' or 'mark', got {list(a.faces)}")
    if isinstance(a, Reorganise) and (len(a.lines) != LINES or any(len(cells) != SLOTS for cells in a.lines)):
        raise MalformedActionError(f"reorganise.lines: {LINES} lines of {SLOTS} slots each")


def _handler(f: Facts, state: State, a: Action) -> Handler:
    # The two commonest answers first, by exact type (a draw, a placement): one dict lookup where the
    # isinstance chain below took up to a dozen checks.
    common = _COMMON.get((type(a), state.top is None))
    if common is not None:
        return common
    if isinstance(a, CORRECTIONS):  # hand corrections answer no prompt (corrections.py)
        return corrections.HANDLERS[type(a)]  # type: ignore[return-value]
    if isinstance(a, Shout):
        return specials_picks.shout
    if isinstance(a, ForceDiscard):
        return specials_picks.force_discard
    top = state.top
    if top is None:
        if isinstance(a, Draw):
            return flow.draw
        if isinstance(a, Place):
            return flow.place
        _refuse(f, state)
    if isinstance(a, Place):
        return flow.place
    if isinstance(a, Discard):
        return flow.discard_pending
    if isinstance(a, MakeRoom):
        return make_room.make_room
    if isinstance(a, Pick):
        return specials_picks.pick
    if isinstance(a, Attack):
        return attacks.attack
    if isinstance(a, Blast):
        return specials_green.blast
    if isinstance(a, Reorganise):
        return specials_green.reorganise
    if isinstance(a, Decline):
        return _decline_handler(state, a)
    if isinstance(a, Roll):
        return _roll_handler(state, a)
    _refuse(f, state)


_COMMON: dict[tuple[type, bool], Handler] = {
    (Draw, True): flow.draw,
    (Place, True): flow.place,
    (Place, False): flow.place,
    (Discard, False): flow.discard_pending,
    (Shout, True): specials_picks.shout,
    (Shout, False): specials_picks.shout,
}
"""(action type, the stack is empty) -> handler, for answers whose handler nothing else decides; the
same handlers :func:`_handler`'s chain picks for them."""


def _decline_handler(state: State, a: Decline) -> Handler:
    top = state.top
    owner = getattr(top, "player", None)
    declines: dict[type, Handler] = {
        AttackOffer: attacks.decline_attack,
        CardChoice: specials_picks.decline_pick,
        BlowbackTarget: specials_green.decline_blast,
        BilgeChoice: specials_green.decline_bilge,
    }
    fn = declines.get(type(top))
    if fn is None:
        raise IllegalActionError("There is nothing to decline now")
    if a.player != owner:
        raise IllegalActionError(f"It is {state.names[owner or 0]}'s choice")
    return fn


def _roll_handler(state: State, a: Roll) -> Handler:
    top = state.top
    if a.die != CUBE:
        raise IllegalActionError("Roll the Cube of Devastation")
    if isinstance(top, OdluggRolls):
        if len(a.faces) != 1:
            raise IllegalActionError("Each player rolls the Cube once for Odlugg")
        return specials_green.odlugg_roll
    owner = getattr(top, "player", None)
    rollers: dict[type, Handler] = {
        AttackRoll: attacks.roll_attack,
        GreenRoll: specials_green.roll_green,
        OdluggEats: specials_green.odlugg_eats,
        BlueRolls: specials_green.blue_rolls,
        IdolRolls: specials_green.idol_roll,
    }
    fn = rollers.get(type(top))
    if fn is None or owner is None:
        raise IllegalActionError("The Cube is not awaited now")
    if a.player != owner:
        raise IllegalActionError(f"The Cube is waiting for {state.names[owner]}'s roll")
    single = isinstance(top, AttackRoll) or (isinstance(top, GreenRoll) and top.ability != "dagromm")
    if single and len(a.faces) != 1:
        raise IllegalActionError("Roll the Cube once")
    return fn


def _refuse(f: Facts, state: State) -> NoReturn:
    p = prompts.prompt(f, state)
    raise IllegalActionError(f"Not now: {p.text}" if p else "The game is over")
