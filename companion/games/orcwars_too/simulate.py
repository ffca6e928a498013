"""Random complete games of ORCWARS TOO!, checking the engine's invariants after every action.

A random table answers every prompt with an action the engine accepts (a group of candidates first, a
kind of order or the prompt's choices of a kind, then one of it: fifty possible moves must not crowd out
ending the turn), dice falling as they fall. After
every action: every chip lies in exactly one place (tribe cup, a hand, the board, a captive...) and none is
lost; the gold is conserved (pile, hands, purses and caravans' treasuries); no leader levies twice in one
player turn; no war machine is left without a troop; no chief's troops stand leaderless outside his land; no
lonely leader carries more gold than he may; the public view tells nothing of the hands or of a strategy
not yet revealed; a draw's events never name the chips drawn. At the end of each game, replaying its
actions gives the same position. Games end by victory or at the turn limit the simulator sets.

Speed is reported twice: games per second of wall time, and per second of this process's CPU time with
the machine's load average beside it (on a machine shared with other work the wall figure says more about
the others than about the engine).
"""

from __future__ import annotations

import functools
import os
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any

from companion.engine import Action, ActionError, Event, Player, Setup
from companion.games.orcwars_too import legal
from companion.games.orcwars_too.actions import (
    GOLD,
    ChooseStrategy,
    Discard,
    Draw,
    DrawGold,
    Levy,
    TradeForGold,
)
from companion.games.orcwars_too.battle import SIDES, shaman_waits
from companion.games.orcwars_too.counters import STRATEGY_NAMES, Kind
from companion.games.orcwars_too.engine import OrcwarsToo
from companion.games.orcwars_too.places import chips_placed, gold_in_play, locations
from companion.games.orcwars_too.state import NEUTRAL, Hand, State, evolve
from companion.games.orcwars_too.turns import draws_owed

EXAMPLES = 5
TURN_LIMIT = 6
"""Random chiefs seldom win by the rules: each simulated game ends at this turn at the latest."""
CAP = 5000
"""Most actions in one game before the simulator gives up on it."""


@dataclass
class Played:
    setup: Setup
    state: State
    log: list[Action] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    capped: bool = False
    battles: int = 0


def choose(
    game: OrcwarsToo, state: State, rng: random.Random
) -> tuple[State, Action, tuple[Event, ...]] | None:
    """A random action the engine accepts, applied: the new position, the action and its events. Chips are
    drawn as from the real cup and pile: at random, all that are owed at once."""
    drawn = _random_draw(game, state, rng)
    if drawn is not None:
        try:
            after, events = game.apply(state, drawn)
            return after, drawn, events
        except ActionError:
            pass  # not this player's draw after all: play on as any other position
    makers = legal.groups(game.data, state)  # a group of candidates at a time, made when tried
    rng.shuffle(makers)
    for make in makers:
        group = make()
        rng.shuffle(group)
        for action in group:
            try:
                after, events = game.apply(state, action)
            except ActionError:
                continue
            return after, action, events
    return None


def _random_draw(game: OrcwarsToo, state: State, rng: random.Random) -> Action | None:
    asked = game.prompt(state)
    if asked is None or not asked.players:
        return None
    seat = asked.players[0]
    if asked.kind in ("draw", "reinforce") or (asked.kind == "setup" and state.setups[seat].stage == "draw"):
        owed = draws_owed(game.data, state, seat)
        if owed and state.cup:
            return Draw(seat, tuple(rng.sample(state.cup, min(owed, len(state.cup)))))
    if asked.kind == "draw_gold":
        pile = [GOLD] * state.gold_pile + list(state.caravan_pile)
        return DrawGold(seat, rng.choice(pile)) if pile else None
    return None


def violations(
    game: OrcwarsToo, before: State, state: State, action: Action, events: tuple[Event, ...], levied: set[str]
) -> list[str]:
    data = game.data
    out: list[str] = []
    placed = chips_placed(state)
    chips = _all_chips(game)
    if len(placed) != len(chips) or not chips.issuperset(placed) or len(set(placed)) != len(chips):
        found = locations(state)  # something is amiss: say where each chip lies
        for chip in sorted(chips | set(found)):
            places = found.get(chip, [])
            if len(places) != 1:
                out.append(f"{chip} lies in {len(places)} places: {places}")
    if gold_in_play(state) != data.gold_chips:
        out.append(f"{gold_in_play(state)} gold in play, {data.gold_chips} in the box")
    opening = before.levy is None or before.levy.leader != getattr(action, "leader", None)
    if (
        isinstance(action, Levy)
        and (action.counters or action.neutrals)
        and state.army(action.leader) is not None
        and opening  # a chip joining the levy under way is the same levy
    ):
        key = f"{state.turn}:{action.player}:{action.leader}"
        if key in levied:
            out.append(f"{action.leader} levied twice in turn {state.turn}")
        levied.add(key)
    machines, troops = _machines_and_troops(game)
    for army in state.armies:
        if not machines.isdisjoint(army.units) and troops.isdisjoint(army.units):
            out.append(f"{army.leader}'s war machine has no troop to tow it")
        if not army.units and army.gold > data.rules.leader_carries:
            out.append(f"{army.leader} alone carries {army.gold} gold")
    for garrison in state.garrisons:
        if garrison.owner != NEUTRAL and state.land(garrison.territory).controller != garrison.owner:
            out.append(
                f"seat {garrison.owner}'s troops stand leaderless in {garrison.territory}, not his land"
            )
    if isinstance(action, Draw | Discard | TradeForGold):
        named = [c for c in action.counters if any(data.name(c) in e.text for e in events)]
        if named:
            out.append(f"a {action.kind} event names {named}")
    if _hidden_view(game, state) != game.view(state):
        out.append("the public view depends on what the hands hold or a strategy not yet revealed")
    if isinstance(action, ChooseStrategy) and any(_said(action.strategy) in e.text for e in events):
        shown = before.battle is not None and shaman_waits(before.battle)  # shown for the shaman's side
        if not shown and before.battle is not None and not (state.battle is None or state.battle.revealed):
            out.append("a secret strategy was told before the reveal")
    return out


@functools.lru_cache(maxsize=8)
def _all_chips(game: OrcwarsToo) -> frozenset[str]:
    """Every chip of the box: counters and caravans."""
    data = game.data
    return frozenset(c.id for c in data.counters) | frozenset(c.id for c in data.caravans)


@functools.lru_cache(maxsize=8)
def _machines_and_troops(game: OrcwarsToo) -> tuple[frozenset[str], frozenset[str]]:
    counters = game.data.counters
    return (
        frozenset(c.id for c in counters if c.kind is Kind.WAR_MACHINE),
        frozenset(c.id for c in counters if c.kind is Kind.TROOP),
    )


def _said(strategy: str) -> str:
    return STRATEGY_NAMES[strategy]


def _hidden_view(game: OrcwarsToo, state: State) -> dict[str, Any]:
    """The view with the hidden chips (cup and hands) dealt again and unrevealed strategies changed."""
    # Units are dealt among units and other chips among other chips: how many units a hand holds is
    # public (a hand over ten units is discarded down at the table).
    is_unit = game.data.units.__contains__
    hidden = [c for h in state.hands for c in h.counters]
    hidden.reverse()  # dealt back to front: every chip goes to another place (and mostly another hand)
    units = [c for c in hidden if is_unit(c)]
    others = [c for c in hidden if not is_unit(c)]
    hands, u, o = [], 0, 0
    for hand in state.hands:
        count = sum(map(is_unit, hand.counters))
        rest = len(hand.counters) - count
        dealt = (*units[u : u + count], *others[o : o + rest])
        u, o = u + count, o + rest
        hands.append(Hand(dealt, hand.gold, hand.caravans, hand.captives))
    shuffled = evolve(state, hands=tuple(hands))
    fight = state.battle
    if fight is not None and not fight.revealed:
        shown = shaman_waits(fight)  # the side without a shaman shows its choice for the other to see
        for name in SIDES:
            side = fight.side(name)
            if side.proposed and not (shown and shown != name):
                other = "clever" if side.proposed != "clever" else "charge"
                fight = replace(fight, **{name: replace(side, proposed=other)})  # type: ignore[arg-type]
        shuffled = evolve(shuffled, battle=fight)
    return game.view(shuffled)


def play(game: OrcwarsToo, setup: Setup, rng: random.Random, cap: int = CAP) -> Played:
    state = game.new_game(setup)
    played = Played(setup, state)
    levied: set[str] = set()
    for _ in range(cap):
        if state.finished:
            break
        chosen = choose(game, state, rng)
        if chosen is None:
            played.violations.append(f"stalled with nothing to do: {game.prompt(state)}")
            break
        after, action, events = chosen
        played.log.append(action)
        played.battles += any(e.kind == "BattleBegun" for e in events)
        played.violations.extend(violations(game, state, after, action, events, levied))
        state = after
    else:
        played.capped = not state.finished
    played.state = state
    replayed = game.new_game(setup)
    for action in played.log:
        replayed, _ = game.apply(replayed, action)
    if replayed != state:
        played.violations.append(f"replaying {len(played.log)} actions gave another position")
    return played


def simulate(
    players: int, games: int, seed: int, turn_limit: int = TURN_LIMIT, cap: int = CAP
) -> dict[str, Any]:
    game = OrcwarsToo()
    rng = random.Random(seed)
    names = tuple(Player(f"P{i + 1}") for i in range(players))
    started = time.perf_counter()
    cpu_started = time.process_time()
    total = capped = finished = battles = 0
    found: list[str] = []
    wins = [0] * players
    for index in range(games):
        setup = Setup("orcwars-too", names, (("turn_limit", turn_limit),))
        played = play(game, setup, rng, cap)
        total += len(played.log)
        capped += played.capped
        finished += played.state.finished
        battles += played.battles
        found.extend(f"game {index}: {v}" for v in played.violations)
        for seat in played.state.winners:
            wins[seat] += 1
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "turn_limit": turn_limit,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "cpu_seconds": round(cpu, 3),
        "games_per_cpu_second": round(games / cpu, 2) if cpu else None,
        "load_average": round(os.getloadavg()[0], 2),
        "actions": total,
        "battles": battles,
        "finished_games": finished,
        "invariant_violations": len(found),
        "violation_examples": found[:EXAMPLES],
        "capped_games": capped,
        "wins_by_seat": wins,
    }
