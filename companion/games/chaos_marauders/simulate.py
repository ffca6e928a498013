"""Random-play simulator: whole games of random legal actions, checking the engine's invariants.

The simulator plays the table's part: it keeps a shuffled physical deck (rebuilt from the engine's
draw pile whenever the engine turns the discard pile over), draws its top card, rolls the Cube
(five Orcish Eyes and one Mark of Chaos) and otherwise picks uniformly among the legal actions.
Shouts and Sneaky Git threats are interjections: each is tried with a small probability so a random
table does not shout at every card. A cap on actions per game guards against games that stall (lines
that can never complete, everyone discarding); capped games are counted, not hidden.
"""

from __future__ import annotations

import functools
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain

from companion.engine import Action, Player, Roll, Setup
from companion.games.chaos_marauders import lines as line_rules
from companion.games.chaos_marauders.actions import CUBE, EYE, MARK, Draw, ForceDiscard, Reorganise, Shout
from companion.games.chaos_marauders.cards import Role
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.chaos_marauders.placement import legal_slots
from companion.games.chaos_marauders.state import (
    EMPTY_LINE,
    AttackRoll,
    BilgeChoice,
    BlueRolls,
    Board,
    Cells,
    GreenRoll,
    IdolRolls,
    OdluggEats,
    OdluggRolls,
    State,
)
from companion.games.chaos_marauders.view import result

DEFAULT_CAP = 5000
REORGANISE = 0.3
"""Chance that a simulated player asks Bilge Guttrot for a random reorganisation."""
INTERJECT = 0.01
"""Chance per decision that a random interjection (shout, forced discard) is made when one is legal."""
ROLL_STEPS = (AttackRoll, GreenRoll, OdluggEats, BlueRolls, IdolRolls)


def invariant_violations(game: ChaosMarauders, state: State, before: State | None = None) -> list[str]:
    """Every card is somewhere exactly once, and every line obeys the placement rules.

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


def choose(game: ChaosMarauders, state: State, table: Table) -> Action:
    """One random legal action, drawing and rolling like a table would."""
    top = state.top
    rng = table.rng
    if top is None and not (state.fresh and rng.random() < INTERJECT) and rng.random() >= INTERJECT:
        table.sync(game, state)
        return Draw(state.active, table.deck.pop())  # type: ignore[arg-type]
    if isinstance(top, ROLL_STEPS):
        return Roll(top.player, CUBE, (table.face(),))  # type: ignore[arg-type]
    if isinstance(top, OdluggRolls):
        seat = next(s for s, face in enumerate(top.faces) if not face)
        return Roll(seat, CUBE, (table.face(),))  # type: ignore[arg-type]
    if isinstance(top, BilgeChoice) and rng.random() < REORGANISE:
        layout = random_layout(game, state.boards[top.player], rng)
        if layout is not None:
            return Reorganise(top.player, layout)  # type: ignore[arg-type]
    actions = game.legal_actions(state)
    own = [a for a in actions if not isinstance(a, Shout | ForceDiscard)]
    if own and (len(own) == len(actions) or rng.random() >= INTERJECT):
        action = rng.choice(own)
    else:
        action = rng.choice(actions)
    if isinstance(action, Draw):
        table.sync(game, state)
        action = Draw(state.active, table.deck.pop())  # type: ignore[arg-type]
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
    while not state.finished and len(done) < cap:
        action = choose(game, state, table)
        before = state
        state, _ = game.apply(state, action)
        done.append(action)
        if check:
            violations.extend(f"action {len(done)}: {v}" for v in invariant_violations(game, state, before))
    return GameRecord(setup, tuple(done), state, tuple(violations), not state.finished)


def setup_for(players: int) -> Setup:
    names = ("Grotsnik", "Ugluk", "Skarsnik", "Gorbad")
    return Setup("chaos-marauders", tuple(Player(names[i]) for i in range(players)))


def simulate(
    players: int, games: int, seed: int, cap: int = DEFAULT_CAP, check: bool = True
) -> dict[str, object]:
    game = ChaosMarauders()
    rng = random.Random(seed)
    setup = setup_for(players)
    winners: Counter[int] = Counter()
    ties = capped = total = longest = violations = 0
    examples: list[str] = []
    start = time.perf_counter()
    for _ in range(games):
        record = play(game, setup, rng, cap, check)
        total += len(record.actions)
        longest = max(longest, len(record.actions))
        violations += len(record.violations)
        examples.extend(record.violations[: 3 - len(examples)])
        if record.capped:
            capped += 1
            continue
        outcome = result(game.facts, record.final)
        if outcome["tie"]:
            ties += 1
        for seat in outcome["winners"]:  # type: ignore[attr-defined]
            winners[seat] += 1
    seconds = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
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
