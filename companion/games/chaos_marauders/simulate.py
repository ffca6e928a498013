"""Random-play simulator: whole games of random legal actions, checking the engine's invariants.

The simulator plays the table's part: it keeps a shuffled physical deck (rebuilt from the engine's
draw pile whenever the engine turns the discard pile over), draws its top card, rolls the Cube
(five Orcish Eyes and one Mark of Chaos) and otherwise picks uniformly among the legal actions.
Shouts and Sneaky Git threats are interjections: each is tried with a small probability so a random
table does not shout at every card. A cap on actions per game guards against games that stall (lines
that can never complete, everyone discarding); capped games are counted, not hidden.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain

from companion.engine import Action, Player, Setup
from companion.games.chaos_marauders import lines as line_rules
from companion.games.chaos_marauders import prompts
from companion.games.chaos_marauders.actions import EYE, MARK, Draw, ForceDiscard, Reorganise, Shout
from companion.games.chaos_marauders.cards import Role
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.chaos_marauders.placement import legal_slots
from companion.games.chaos_marauders.state import (
    EMPTY_LINE,
    SLOTS,
    AttackRoll,
    BilgeChoice,
    BlueRolls,
    Board,
    Cells,
    GreenRoll,
    IdolRolls,
    OdluggEats,
    OdluggRolls,
    PlaceStep,
    State,
    Step,
)

DEFAULT_CAP = 5000
REORGANISE = 0.3
"""Chance that a simulated player asks Bilge Guttrot for a random reorganisation."""
INTERJECT = 0.01
"""Chance per decision that a random interjection (shout, forced discard) is made when one is legal."""
ROLL_STEPS = frozenset({AttackRoll, GreenRoll, OdluggEats, BlueRolls, IdolRolls})


def invariant_violations(game: ChaosMarauders, state: State, before: State | None = None) -> list[str]:
    """Every card is somewhere exactly once, and every line (and tribe) obeys the placement rules.

    ``before``: the previous position; lines of boards it shares (unchanged) are not re-checked.
    """
    f = game.facts
    problems = []
    if not _conserved(game, state):
        problems.extend(_conservation_problems(game, state))
    for seat, board in enumerate(state.boards):
        if before is not None and before.boards[seat] is board:
            continue
        for li, cells in enumerate(board):
            error = line_rules.line_error(cells, f.catalog)
            if error:
                problems.append(f"seat {seat} line {li + 1}: {error}")
        error = line_rules.tribe_error(board, f.catalog)
        if error:
            problems.append(f"seat {seat}: {error}")
    for seat, li, s, _owner in state.markers:
        card = state.boards[seat][li][s]
        if card is None or f.ability[card] != "sneaky-git":
            problems.append(f"a Git marker at seat {seat} line {li + 1} slot {s + 1} marks no Git")
    return problems


def _conserved(game: ChaosMarauders, state: State) -> bool:
    """The fast exact check, run after every simulated action: counts per title match the deck."""
    index = game.facts.index
    counts = list(state.pile)
    if min(counts) < 0:
        return False
    for card in chain(state.discard, state.held_cards()):
        counts[index[card]] += 1
    for board in state.boards:
        for cells in board:
            for card in cells:
                if card is not None:
                    counts[index[card]] += 1
    return tuple(counts) == _deck_counts(game)


@functools.cache
def _deck_counts(game: ChaosMarauders) -> tuple[int, ...]:
    return tuple(card.copies for card in game.facts.catalog.cards)


def _conservation_problems(game: ChaosMarauders, state: State) -> list[str]:
    """What exactly is wrong, worded for a report (only computed when the fast check fails)."""
    f = game.facts
    problems = []
    seen: Counter[str] = Counter(state.discard)
    seen.update(state.held_cards())
    for board in state.boards:
        for cells in board:
            seen.update(c for c in cells if c is not None)
    for card, n in zip(f.ids, state.pile, strict=True):
        if n < 0:
            problems.append(f"negative draw pile count for {card}")
        seen[card] += n
    for card, n in seen.items():
        copies = f.card[card].copies if card in f.card else 0
        if n != copies:
            problems.append(f"{card}: {n} on the table, piles and in hand, but the deck has {copies}")
    return problems


FULL_CHECK_EVERY = 64
"""The simulator's per-action check is incremental; every this many actions (and at the end of a
game) it also runs the whole :func:`invariant_violations` from scratch."""
_BITS = 8
"""Bits per card title in a conservation code (a byte: the draw pile's code is its bytes)."""


class Checker:
    """The simulator's per-action invariant check, incremental but exact.

    Conservation: every place a card can be (draw pile, discard pile, each board, the held cards) gets
    a *code*, the sum over its cards of ``256 ** title index``, and a card count. With no negative
    pile count and 110 cards in all, no title can reach 256 copies (no carry between titles), so the
    codes' sum equals the deck's code exactly when every title has exactly its number of copies.
    Codes of boards and piles are remembered by identity (unchanged values are shared between
    immutable positions), so an action costs only what it changed. Line legality: only lines that
    are not the very same tuple as in the previous position are re-checked. Any failure falls back
    to :func:`invariant_violations`, which words the problem.
    """

    def __init__(self, game: ChaosMarauders) -> None:
        self.game = game
        f = game.facts
        self.catalog = f.catalog
        self.ability = f.ability
        self.weights = tuple(1 << (_BITS * i) for i in range(len(f.ids)))
        self.weight = dict(zip(f.ids, self.weights, strict=True))
        self.deck_code = sum(card.copies * w for card, w in zip(f.catalog.cards, self.weights, strict=True))
        self.deck_size = sum(card.copies for card in f.catalog.cards)
        self.line_info = {
            card.id: (
                card.role is Role.STANDARD,
                card.role is Role.MUSICIAN,
                None if card.line_duplicates else card.symbol,
            )
            for card in f.catalog.cards
        }
        """Per card: is it a Standard, a Musician, and the symbol it may not share in a line."""
        self.pile: tuple[int, ...] | None = None
        self.pile_code = self.pile_size = 0
        self.discard: tuple[str, ...] = ()
        self.discard_code = 0
        self.seen: list[Board | None] = [None] * game.max_players
        """The board each seat's code was last computed for, and (code, card count) of it."""
        self.codes: list[tuple[int, int]] = [(0, 0)] * game.max_players
        self.last_boards: tuple[Board, ...] | None = None
        self.stack: tuple[Step, ...] = ()
        self.stack_code = self.stack_size = 0
        self.boards_code = self.boards_size = 0

    def check(self, state: State, before: State | None, full: bool = False) -> list[str]:
        if full or before is None:
            return invariant_violations(self.game, state, before)
        try:
            conserved = self._conserved(state)
        except (KeyError, TypeError, ValueError):  # an unknown card id, a count out of range
            conserved = False
        if not conserved:
            return invariant_violations(self.game, state, before)
        problems: list[str] = []
        boards = state.boards
        boards_changed = boards is not before.boards
        if boards_changed:
            catalog = self.catalog
            for seat, (board, old) in enumerate(zip(boards, before.boards, strict=True)):
                if board is old:
                    continue
                for li, (cells, old_cells) in enumerate(zip(board, old, strict=True)):
                    if cells is not old_cells and not self._line_legal(cells):
                        error = line_rules.line_error(cells, catalog)
                        if error:
                            problems.append(f"seat {seat} line {li + 1}: {error}")
        if state.markers and (boards_changed or state.markers is not before.markers):
            ability = self.ability
            for seat, li, s, _owner in state.markers:
                card = boards[seat][li][s]
                if card is None or ability.get(card) != "sneaky-git":
                    problems.append(f"a Git marker at seat {seat} line {li + 1} slot {s + 1} marks no Git")
        return problems

    def _line_legal(self, cells: Cells) -> bool:
        """``line_error(cells) is None``, decided from per-card tuples (``line_error`` words a no)."""
        if len(cells) != SLOTS:
            return False
        info = self.line_info
        symbols: set[str] = set()
        standard = musician = first = last = -1
        for slot, card in enumerate(cells):
            if card is None:
                continue
            facts = info.get(card)
            if facts is None:
                return False
            if first < 0:
                first = slot
            last = slot
            is_standard, is_musician, symbol = facts
            if symbol is not None:
                if symbol in symbols:
                    return False
                symbols.add(symbol)
            if is_standard:
                if standard >= 0:
                    return False
                standard = slot
            elif is_musician:
                if musician >= 0:
                    return False
                musician = slot
        if first < 0:
            return True
        return (
            (cells[0] is None or standard == 0)
            and (cells[-1] is None or musician == SLOTS - 1)
            and (standard < 0 or first == standard)
            and (musician < 0 or last == musician)
        )

    def _conserved(self, state: State) -> bool:
        """The exact conservation check from the codes (raises KeyError or ValueError on nonsense;
        nothing is remembered from a position that raised)."""
        pile = state.pile
        if pile is not self.pile:
            self.pile_code = int.from_bytes(bytes(pile), "little")  # ValueError for a negative count
            self.pile_size = sum(pile)
            self.pile = pile
        weight = self.weight
        discard = state.discard
        if discard is not self.discard:
            old = self.discard
            n = len(old)
            if len(discard) >= n and discard[:n] == old:
                self.discard_code += sum(map(weight.__getitem__, discard[n:]))
            else:
                self.discard_code = sum(map(weight.__getitem__, discard))
            self.discard = discard
        boards = state.boards
        if boards is not self.last_boards:
            seen = self.seen
            codes = self.codes
            board_code = board_size = 0
            for seat, board in enumerate(boards):
                if seen[seat] is not board:
                    cards = [c for cells in board for c in cells if c is not None]
                    codes[seat] = (sum(map(weight.__getitem__, cards)), len(cards))
                    seen[seat] = board
                board_code += codes[seat][0]
                board_size += codes[seat][1]
            self.boards_code, self.boards_size = board_code, board_size
            self.last_boards = boards
        code = self.pile_code + self.discard_code + self.boards_code
        size = self.pile_size + len(discard) + self.boards_size
        stack = state.stack
        if stack:
            if stack is not self.stack:
                held = [card for step in stack for card in step.held()]
                self.stack_code = sum(map(weight.__getitem__, held))
                self.stack_size = len(held)
                self.stack = stack
            code += self.stack_code
            size += self.stack_size
        return size == self.deck_size and code == self.deck_code


@dataclass
class Table:
    """The physical side of a simulated game: the shuffled deck and the dice."""

    rng: random.Random
    deck: list[str] = field(default_factory=list)

    def sync(self, game: ChaosMarauders, state: State) -> None:
        """Rebuilds the deck from the engine's draw pile when they disagree (after a reshuffle)."""
        if len(self.deck) != sum(state.pile):
            self.deck = [card for card, n in zip(game.facts.ids, state.pile, strict=True) for _ in range(n)]
            self.rng.shuffle(self.deck)

    def face(self) -> str:
        return MARK if self.rng.randrange(6) == 0 else EYE

    def roll(self, seat: int) -> Action:
        """``seat`` rolls the Cube once (the shared Roll values of the prompts' answers)."""
        eye, mark = prompts.rolls(seat)
        return mark if self.rng.randrange(6) == 0 else eye

    def draw(self, game: ChaosMarauders, state: State) -> Action:
        """The active player draws the deck's top card."""
        self.sync(game, state)
        return prompts.draw_action(state.active, self.deck.pop())


def choose(game: ChaosMarauders, state: State, table: Table) -> Action:
    """One random legal action, drawing and rolling like a table would.

    The common steps take shortcuts that pick exactly what the full list would give for the same
    random numbers: a draw comes off the table's deck, a roll off the Cube, and a card waiting to be
    placed picks among its own placements and discard (``prompts.place_options``, the very list
    ``legal_actions`` starts with), building the whole list only when an interjection is tried.
    """
    stack = state.stack
    top = stack[-1] if stack else None
    rng = table.rng
    if top is None and not (state.fresh and rng.random() < INTERJECT) and rng.random() >= INTERJECT:
        return table.draw(game, state)
    kind = type(top)
    if kind in ROLL_STEPS:
        return table.roll(top.player)  # type: ignore[union-attr]
    if kind is OdluggRolls:
        return table.roll(next(s for s, face in enumerate(top.faces) if not face))  # type: ignore[union-attr]
    if kind is BilgeChoice and rng.random() < REORGANISE:
        layout = random_layout(game, state.boards[top.player], rng)  # type: ignore[union-attr]
        if layout is not None:
            return Reorganise(top.player, layout)  # type: ignore[arg-type, union-attr]
    if kind is PlaceStep and not state.finished:
        own = prompts.place_options(game.facts, state, top)  # type: ignore[arg-type]
        # The die first: whether an interjection is possible is asked only when one would be tried.
        if own and (rng.random() >= INTERJECT or not prompts.may_interject(game.facts, state)):
            return rng.choice(own)
        return rng.choice(game.legal_actions(state))
    actions = game.legal_actions(state)
    own = [a for a in actions if not isinstance(a, Shout | ForceDiscard)]
    if own and (len(own) == len(actions) or rng.random() >= INTERJECT):
        action = rng.choice(own)
    else:
        action = rng.choice(actions)
    if isinstance(action, Draw):
        action = table.draw(game, state)
    return action


def random_layout(game: ChaosMarauders, board: Board, rng: random.Random) -> tuple[Cells, ...] | None:
    """A random legal rearrangement of a board's cards for Bilge Guttrot (None if one try fails).

    Reorganisations are open inputs the engine does not list, so the simulated table makes its own:
    Standards first, Musicians last, everything else in random order into random legal slots.
    """
    f = game.facts
    cards = [c for cells in board for c in cells if c is not None]
    rng.shuffle(cards)
    rank = {Role.STANDARD: 0, None: 1, Role.MUSICIAN: 2}
    cards.sort(key=lambda c: rank[f.role[c]])
    lines = [list(EMPTY_LINE) for _ in range(3)]
    for card in cards:
        options = [(li, s) for li in range(3) for s in legal_slots(f, tuple(lines[li]), card)]
        if not options:
            return None
        li, s = rng.choice(options)
        lines[li][s] = card
    return tuple(tuple(cells) for cells in lines)


@dataclass(frozen=True)
class GameRecord:
    setup: Setup
    actions: tuple[Action, ...]
    final: State
    violations: tuple[str, ...]
    capped: bool


def play(
    game: ChaosMarauders, setup: Setup, rng: random.Random, cap: int = DEFAULT_CAP, check: bool = True
) -> GameRecord:
    state = game.new_game(setup)
    table = Table(rng)
    done: list[Action] = []
    violations: list[str] = []
    checker = Checker(game) if check else None
    apply = game.apply
    while not state.finished and len(done) < cap:
        action = choose(game, state, table)
        before = state
        state, _ = apply(state, action)
        done.append(action)
        if checker is not None:
            problems = checker.check(state, before, full=len(done) % FULL_CHECK_EVERY == 0)
            if problems:
                violations.extend(f"action {len(done)}: {v}" for v in problems)
    if checker is not None and len(done) % FULL_CHECK_EVERY:
        violations.extend(f"end of game: {v}" for v in invariant_violations(game, state))
    return GameRecord(setup, tuple(done), state, tuple(violations), not state.finished)


def setup_for(players: int) -> Setup:
    names = ("Grotsnik", "Ugluk", "Skarsnik", "Gorbad")
    return Setup("chaos-marauders", tuple(Player(names[i]) for i in range(players)))


@contextlib.contextmanager
def _few_collections() -> Iterator[None]:
    """The cyclic garbage collector, out of the simulator's way while it runs.

    A game allocates millions of short-lived positions, lines and events, none of them in a cycle, and
    every few hundred allocations the collector walked the youngest of them, and now and then every
    long-lived object (the catalog, the memos of line answers). The long-lived objects are frozen out
    of its sight and it runs a hundred times less often; both are restored afterwards.
    """
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(threshold[0] * 100, threshold[1], threshold[2])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def simulate(
    players: int, games: int, seed: int, cap: int = DEFAULT_CAP, check: bool = True
) -> dict[str, object]:
    """Plays ``games`` random games and returns the figures. ``seconds`` is wall-clock time;
    ``cpu_seconds`` the process's CPU time, the fairer figure on a machine other work shares."""
    game = ChaosMarauders()
    rng = random.Random(seed)
    setup = setup_for(players)
    winners: Counter[int] = Counter()
    ties = capped = total = longest = violations = 0
    examples: list[str] = []
    start, cpu_start = time.perf_counter(), time.process_time()
    with _few_collections():
        for _ in range(games):
            record = play(game, setup, rng, cap, check)
            total += len(record.actions)
            longest = max(longest, len(record.actions))
            violations += len(record.violations)
            examples.extend(record.violations[: 3 - len(examples)])
            if record.capped:
                capped += 1
                continue
            outcome = game.result(record.final)
            if outcome.tie:
                ties += 1
            for seat in outcome.winners:
                winners[seat] += 1
    seconds = time.perf_counter() - start
    cpu_seconds = time.process_time() - cpu_start
    return {
        "players": players,
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(games / cpu_seconds, 2) if cpu_seconds else None,
        "invariant_violations": violations,
        "violation_examples": examples,
        "actions": total,
        "mean_actions_per_game": round(total / games, 1) if games else 0,
        "max_actions_in_a_game": longest,
        "capped_games": capped,
        "winners_by_seat": [winners[s] for s in range(players)],
        "ties": ties,
    }


def replay_bench(actions: int = 10_000, seed: int = 0, players: int = 4) -> dict[str, object]:
    """Times folding ``apply`` over recorded games (chained until ``actions`` inputs), as the session
    does on restart. Returns the replay time in seconds and the inputs per second."""
    game = ChaosMarauders()
    rng = random.Random(seed)
    setup = setup_for(players)
    records: list[GameRecord] = []
    recorded = 0
    while recorded < actions:
        record = play(game, setup, rng, check=False)
        records.append(record)
        recorded += len(record.actions)
    start = time.perf_counter()
    replayed = 0
    for record in records:
        state = game.new_game(record.setup)
        for action in record.actions:
            if replayed == actions:
                break
            state, _ = game.apply(state, action)
            replayed += 1
        else:
            assert state == record.final
    seconds = time.perf_counter() - start
    return {
        "actions": replayed,
        "seconds": round(seconds, 3),
        "actions_per_second": round(replayed / seconds),
    }
