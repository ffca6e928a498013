"""Builds explicit Chaos Marauders positions for the engine tests: given lines, the rest in the pile."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from companion.engine import Action, Event, Player, Setup
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.chaos_marauders.simulate import invariant_violations
from companion.games.chaos_marauders.state import EMPTY_LINE, SLOTS, Cells, Marker, State, Step

GAME = ChaosMarauders()
F = GAME.facts
NAMES = ("Grotsnik", "Ugluk", "Skarsnik", "Gorbad")

# Short names for the cards the tests use most.
HS, HM = "hobgoblin-standard", "hobgoblin-musician"
OS, OM = "orc-regimental-standard", "orc-regimental-musician"
SNOT, DIRT, HAK, SQUAD, CLAWS = (
    "crummy-snotling-slaves",
    "grivziz-dirtballs",
    "hak-veinthrobs-volunteers",
    "spattznatts-suicide-squad",
    "claws-of-malal",
)
PIG, SHAMAN, CM, PLAGUE = (
    "bozlum-pigstickers",
    "shaman-of-aaaaaaaag",
    "chaos-marauders",
    "blightskabb-plague-lords",
)
CREEPS, RAT, DAGROMM, GIT = "venemous-creeps", "horned-rat-standard", "dagromm-flailbreath", "sneaky-git"
ODLUGG, IDOL, BILGE, SKYRR = "odlugg-spleenripper", "idol", "bilge-guttrot", "skyrrs-blowback"
SHOTTI, SPOIL = "shotti", "spoil-heap"


def line(*cards: str | None, at: int = 0) -> Cells:
    """A line holding ``cards`` from slot ``at`` on (None leaves a gap)."""
    cells: list[str | None] = list(EMPTY_LINE)
    for i, card in enumerate(cards):
        cells[at + i] = card
    assert len(cells) == SLOTS
    return tuple(cells)


def position(
    boards: Mapping[int, Sequence[Cells]] | None = None,
    *,
    players: int = 2,
    active: int = 0,
    round: int = 2,
    discard: Sequence[str] = (),
    stack: Sequence[Step] = (),
    markers: Sequence[Marker] = (),
    pile: Mapping[str, int] | None = None,
    turn_ends: bool = False,
    **extra: object,
) -> State:
    """A position with the given lines; every other card of the deck is in the draw pile unless
    ``pile`` says otherwise (then the rest goes to the discard pile), so cards are conserved."""
    boards = boards or {}
    full = [
        tuple(boards.get(seat, ())) + (EMPTY_LINE,) * (3 - len(boards.get(seat, ())))
        for seat in range(players)
    ]
    used = Counter(c for board in full for cells in board for c in cells if c is not None)
    used.update(discard)
    for step in stack:
        used.update(step.held())
    left = Counter({card.id: card.copies for card in F.catalog}) - used
    assert not (used - Counter({card.id: card.copies for card in F.catalog})), "more copies than the deck has"
    extra_discard: list[str] = []
    if pile is not None:
        for card, n in pile.items():
            assert left[card] >= n, f"not enough {card} left for the pile"
        extra_discard = sorted((left - Counter(pile)).elements())
        left = Counter(pile)
    state = State(
        names=NAMES[:players],
        colours=("#c0392b", "#2980b9", "#27ae60", "#8e44ad")[:players],
        pile=tuple(left[card] for card in F.ids),
        discard=tuple(extra_discard) + tuple(discard),
        boards=tuple(full),  # type: ignore[arg-type]
        markers=tuple(markers),
        active=active,
        round=round,
        stack=tuple(stack),
        turn_ends=turn_ends,
        **extra,  # type: ignore[arg-type]
    )
    assert invariant_violations(GAME, state) == [], invariant_violations(GAME, state)
    return state


def new_game(players: int = 2) -> State:
    return GAME.new_game(Setup("chaos-marauders", tuple(Player(n) for n in NAMES[:players])))


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Applies ``actions`` in turn, checking the invariants after each; returns all events."""
    events: list[Event] = []
    for action in actions:
        state, evs = GAME.apply(state, action)
        events.extend(evs)
        assert invariant_violations(GAME, state) == [], (action, invariant_violations(GAME, state))
    return state, events


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]
