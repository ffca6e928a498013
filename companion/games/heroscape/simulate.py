"""Random complete games of HeroScape, checking the engine's invariants after every action.

A random table: every prompt is answered with one of the legal actions, now and then with a declaration
of the map (a fall, a leaving-engagement attack, a glyph, a scenario's fact); dice are thrown as they
fall (each face as often as the combat die has it). After every action: no figure on the battlefield
carries as many wounds as its Life; a destroyed figure never acts; no army breaks its point limit, the
Unique rule or the box's copies; no round passes the round limit; no more figures attack in a turn than
the card activates; the public view and the events never tell where face-down order markers lie; a game
never stalls with nothing to do before it is over; and replaying the game's actions from the start gives
the same position; a roll-off players ask for (a Line of Sight dispute, Simultaneous Special Powers)
records its winner and changes nothing else.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import Action, ActionError, Event, Player, Roll, Setup
from companion.games.heroscape.actions import Attack, Dispute, LeavingEngagement, PlaceMarkers
from companion.games.heroscape.armies import army_points
from companion.games.heroscape.catalog import default_catalog
from companion.games.heroscape.engine import HeroScape
from companion.games.heroscape.ids import FigureId
from companion.games.heroscape.odds import combat_faces
from companion.games.heroscape.prompts import declarations
from companion.games.heroscape.state import MARKERS, Ask, Contest, Side, State, evolve

EXAMPLES = 5
_JSON = json.JSONEncoder(check_circular=False)  # a view is a fresh tree: no cycle to look for
DECLARE_CHANCE = 0.12
"""How often random play declares something of the map when it may (falls, glyphs...): often enough to
try every rule, seldom enough that battles are still decided by attacks."""
DECLARE_TRIES = 6


@dataclass
class Played:
    """One random game: its setup, the actions applied, the final position and what went wrong."""

    setup: Setup
    state: State
    log: list[Action] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    capped: bool = False


def scenarios_for(players: int, only: str | None) -> list[str]:
    ids = [s.id for s in default_catalog().scenarios if players in s.players]
    if only is not None:
        if only not in ids:
            raise ValueError(f"scenario {only!r} is not for {players} players (those are: {', '.join(ids)})")
        return [only]
    return ids


def choose(game: HeroScape, state: State, rng: random.Random) -> Action | None:
    actions = list(game.legal_actions(state))
    rolls = [a for a in actions if isinstance(a, Roll)]
    if rolls:
        roll = rolls[0]
        if roll.die == "combat":
            faces = tuple(rng.choice(combat_faces()) for _ in roll.faces)
        else:
            faces = (str(rng.randint(1, 20)),)
        return Roll(roll.player, roll.die, faces)
    if rng.random() < DECLARE_CHANCE:
        # Declarations are open inputs the engine judges (a fall of any height, any glyph): a few of
        # them, tried in random order, the first the engine accepts.
        scenario = game.catalog.scenario(state.scenario)
        declared = declarations(game.catalog, state, scenario)
        for action in rng.sample(declared, min(DECLARE_TRIES, len(declared))):
            if game.is_legal(state, action):
                return action
    if not actions:
        return None
    # One kind of answer first, then one answer of it: fifty attacks must not crowd out ending the turn.
    kinds = sorted({a.kind for a in actions})
    kind = rng.choice(kinds)
    return rng.choice([a for a in actions if a.kind == kind])


def violations(
    game: HeroScape, before: State, state: State, action: Action, events: tuple[Event, ...]
) -> list[str]:
    out = []
    cat = game.catalog
    for seat in range(state.seats):
        for uid, unit in state.units_of(seat):
            life = cat.card(uid.card).life
            for n, figure in enumerate(unit.figures, start=1):
                if figure.alive and figure.wounds >= life:
                    out.append(f"{uid.figure(n).format()} alive with {figure.wounds} wounds of {life}")
        out.extend(_army_problems(game, state, seat))
    if isinstance(action, Attack | LeavingEngagement):
        actor = before.figure(FigureId.parse(action.attacker))
        if actor is None or not actor.alive:
            out.append(f"{action.attacker} acted though it is not on the battlefield")
    if state.round_limit and state.round > state.round_limit:
        out.append(f"round {state.round} passed the limit of {state.round_limit}")
    turn = state.turn
    if turn is not None and turn.attackers:
        activated = cat.card(FigureId.parse(turn.attackers[0]).unit.card).figures
        if len(set(turn.attackers)) > activated:
            out.append(f"{len(set(turn.attackers))} figures attacked on one order marker")
    if isinstance(action, PlaceMarkers) and any(m in e.text for e in events for m in action.markers):
        out.append("an event of place_markers names a card")
    top = state.top
    pointing = isinstance(top, Ask) and top.purpose == "ored"
    # The Glyph of Ored's player points at an opponent's card with markers on it: the markers' backs
    # lie on the table for all to see, so that one question names the cards that hold them.
    seen: list[str] = []
    shown = game.view(_watched(state, seen))
    _JSON.encode(shown)  # the view goes over SSE, MQTT and the API as JSON
    if seen and not pointing:
        out.append(f"the public view reads face-down markers ({', '.join(sorted(set(seen)))})")
    return out


def _army_problems(game: HeroScape, state: State, seat: int) -> list[str]:
    cat, out = game.catalog, []
    units = state.sides[seat].units
    points = army_points(cat, state.sides[seat])
    if state.limits[seat] and points > state.limits[seat]:
        out.append(f"seat {seat}'s army is {points} points over a limit of {state.limits[seat]}")
    counts = Counter(u.card for u in units)
    for card_id, count in counts.items():
        if cat.card(card_id).unique and count > 1:
            out.append(f"seat {seat} holds {count} of the Unique {card_id}")
    return out


class WatchedMarkers(tuple[str, ...]):
    """A side's order markers that note every read of a face-down one. The public view is rendered over
    them once: reading no face-down marker, it cannot depend on where they lie."""

    def __new__(cls, markers: tuple[str, ...], hidden: frozenset[int], seen: list[str], seat: int):  # noqa: ANN204
        watched = super().__new__(cls, markers)
        watched._hidden, watched._seen, watched._seat = hidden, seen, seat
        return watched

    def _read(self, indices: Iterable[int]) -> None:
        self._seen.extend(f"seat {self._seat} marker {MARKERS[i]}" for i in indices if i in self._hidden)

    def __getitem__(self, key: Any) -> Any:
        where = range(len(self))[key]
        self._read([where] if isinstance(where, int) else where)
        return super().__getitem__(key)

    def __iter__(self) -> Iterator[str]:
        self._read(range(len(self)))
        return super().__iter__()

    def __contains__(self, item: object) -> bool:
        self._read(range(len(self)))
        return super().__contains__(item)

    def __eq__(self, other: object) -> bool:
        self._read(range(len(self)))
        return super().__eq__(other)

    def __hash__(self) -> int:
        self._read(range(len(self)))
        return super().__hash__()

    def index(self, *args: Any) -> int:
        self._read(range(len(self)))
        return super().index(*args)

    def count(self, value: Any) -> int:
        self._read(range(len(self)))
        return super().count(value)


def _watched(state: State, seen: list[str]) -> State:
    """The position with every side's face-down markers watched (``seen`` collects what is read)."""
    sides = []
    for seat, side in enumerate(state.sides):
        if side.markers is None:
            sides.append(side)
            continue
        hidden = frozenset(i for i in range(len(side.markers)) if i == 3 or not side.revealed[i])
        markers = WatchedMarkers(side.markers, hidden, seen, seat)
        sides.append(Side(side.units, side.ready, markers, side.revealed, side.removed, side.out))
    return evolve(state, sides=tuple(sides))


def play(game: HeroScape, setup: Setup, rng: random.Random, cap: int = 20000) -> Played:
    """One random game from ``setup``, every invariant checked after every action."""
    state = game.new_game(setup)
    played = Played(setup, state)
    asked: State | None = None  # the position a roll-off was asked for in, until it is settled
    for _ in range(cap):
        action = choose(game, state, rng)
        if action is None:
            if not state.finished:
                played.violations.append(f"stalled with nothing to do: {game.prompt(state)}")
            break
        before = state
        try:
            state, events = game.apply(state, action)
        except ActionError as refused:
            # legal_actions lists what the rules allow without trying it: a refusal is a broken rule.
            played.violations.append(f"the listed action {action.kind} was refused: {refused}")
            break
        played.log.append(action)
        played.violations.extend(violations(game, before, state, action, events))
        if isinstance(action, Dispute):
            asked = before
        if asked is not None and not any(isinstance(step, Contest) for step in state.stack):
            # A roll-off records its winner and changes nothing else.
            if replace(state, last_contest=asked.last_contest) != asked:
                played.violations.append(f"a roll-off ({action.kind}) changed the game's position")
            asked = None
    else:
        played.capped = True
    played.state = state
    for card in game.catalog.cards:
        taken = sum(1 for side in state.sides for u in side.units if u.card == card.id)
        if taken > card.copies * state.sets:
            played.violations.append(f"{taken} {card.id} cards in play, the box holds {card.copies}")
    replayed = game.new_game(setup)
    for action in played.log:
        replayed, _ = game.apply(replayed, action)
    if replayed != state:
        played.violations.append(f"replaying {len(played.log)} actions gave another position")
    return played


def simulate(
    players: int, games: int, seed: int, scenario: str | None = None, cap: int = 20000
) -> dict[str, Any]:
    game = HeroScape()
    rng = random.Random(seed)
    names = tuple(Player(f"P{i + 1}") for i in range(players))
    ids = scenarios_for(players, scenario)
    started, cpu = time.perf_counter(), time.process_time()
    total = capped = rolloffs = 0
    found: list[str] = []
    wins = [0] * players
    finished = 0
    for index in range(games):
        options = (("army", rng.choice(("draft", "premade"))), ("scenario", ids[index % len(ids)]))
        played = play(game, Setup("heroscape", names, options), rng, cap)
        total += len(played.log)
        rolloffs += sum(isinstance(a, Dispute) for a in played.log)
        capped += played.capped
        finished += played.state.finished
        found.extend(f"game {index} ({ids[index % len(ids)]}): {v}" for v in played.violations)
        for seat in played.state.winners:
            wins[seat] += 1
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    return {
        "players": players,
        "games": games,
        "scenarios": ids,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        # The CPU this process used: on a machine shared with other work, the engine's own speed.
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(games / cpu_seconds, 2) if cpu_seconds else None,
        "actions": total,
        "rolloffs": rolloffs,
        "finished_games": finished,
        "invariant_violations": len(found),
        "violation_examples": found[:EXAMPLES],
        "capped_games": capped,
        "wins_by_seat": wins,
    }
