"""Random complete adventures of Shattered Chaos, checking the engine's invariants after every action.

A random table: a random adventure and party; the narrator places enemies now and then and ends the
adventure at a random point after a few rounds (the narrator cards decide that at a real table); every
other prompt is answered with one of the legal actions, the map's answers (who an enemy sees, who is
closest) at random, and the dice thrown as they fall (each face of a die as often as it has it).

After every action: every ledger within its bounds (lives 1 to the maximum, a shadow at 0 with no chaos
tokens; 0 to 4 chaos tokens; action tokens 0 to 2; at most two chaos cards); every chaos card of the
party's stack in exactly one place (a stack, a hand, the discard pile); every enemy model alive and on the
board once; no action token left in the enemy phase; a prompt and a legal action whenever the adventure is
not over, every prompted choice among the legal actions; every action through the codec unchanged; the view
JSON-able. At the end: a won adventure lists every seat as a winner and a lost one none, the evaluation
matches the party, and replaying the actions from the start gives the same position.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion.engine import Action, Player, Roll, Setup
from companion.games.shattered_chaos import actions as act
from companion.games.shattered_chaos.engine import ShatteredChaos
from companion.games.shattered_chaos.state import CAMPAIGN, ENEMIES, OVER, EnemyTurn, State

EXAMPLES = 5
LAST_ROUND = 10
FIRST_END = 7
END_CHANCE = 0.05
"""From round 7 (most adventures take 7 to 9 rounds, IV.2), how likely the random narrator ends the adventure
whenever the table is free."""
"""A random table ends its adventure by this round at the latest (a real one has the narrator cards)."""
SEEN = 0.15
"""How likely random play says an enemy sees an adventurer it asks about."""
NEAR = 3
"""Random attacks are mostly on enemies this close (the players walk up to them first)."""
VIEW_EVERY = 7
"""The view is checked JSON-able every few actions (and at the end): enough to meet every kind of step."""
WEIGHTS = {
    "attack": 8.0,
    "move": 2.0,
    "chaos_call": 1.5,
    "interact": 0.5,
    "chaos_step": 0.5,
    "talent_step": 0.5,
    "step_card": 0.3,
    "pick_up": 1.0,
    "destroy": 0.5,
    "discard_card": 0.1,
    "lay_card": 0.3,
}
"""How often random play picks each kind of adventurer action when it may: mostly attacks, so that
adventures are fought, seldom a discard, so that chaos cards get used."""


@dataclass
class Played:
    setup: Setup
    state: State
    log: list[Action] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    capped: bool = False
    questions: int = 0


def random_setup(game: ShatteredChaos, rng: random.Random, adventurers: int | None) -> Setup:
    cat = game.catalog
    count = adventurers or rng.choice(cat.rules.adventurers)
    party = rng.sample([a.name for a in cat.adventurers], count)
    options = (
        ("adventure", rng.choice(cat.adventures).number),
        ("adventurers", party),
        ("starting", rng.randint(1, count)),
    )
    return Setup(game.name, tuple(Player(f"P{i + 1}") for i in range(count)), options)


def choose(game: ShatteredChaos, state: State, legal: list[Action], rng: random.Random) -> Action | None:
    if not legal:
        return None
    rolls = [a for a in legal if isinstance(a, Roll)]
    if rolls:
        faces = tuple(
            rng.choice(game.catalog.die(game.catalog.face(f).colour).symbols) for f in rolls[0].faces
        )
        return Roll(rolls[0].player, rolls[0].die, faces)
    narrator = _narrator(game, state, legal, rng)
    if narrator is not None:
        return narrator
    sighted = [a for a in legal if isinstance(a, act.Sighted)]
    if sighted:  # the map: each adventurer in sight now and then, as on a board where the party spreads out
        widest = max(sighted, key=lambda a: len(a.adventurers))
        return act.Sighted(widest.model, tuple(s for s in widest.adventurers if rng.random() < SEEN))
    answers = [a for a in legal if a.kind not in _TABLE and a.kind not in WEIGHTS]
    if answers:
        return rng.choice(answers)
    mine = [a for a in legal if a.kind in WEIGHTS]
    if mine:
        kinds = sorted({a.kind for a in mine})
        kind = rng.choices(kinds, [WEIGHTS[k] for k in kinds])[0]
        picked = [a for a in mine if a.kind == kind]
        near = [a for a in picked if isinstance(a, act.Attack) and a.distance <= NEAR]
        return rng.choice(near if near and rng.random() < 0.8 else picked)
    return rng.choice(legal)


_TABLE = {
    "place_enemy",
    "remove_enemy",
    "set_lives",
    "place_chaos",
    "end_adventure",
    "read_narrator",
    "keep_card",
    "close_campaign",
}


def _narrator(game: ShatteredChaos, state: State, legal: list[Action], rng: random.Random) -> Action | None:
    if state.phase == OVER:
        return None
    if any(isinstance(a, act.CloseCampaign) for a in legal):
        keep = [a for a in legal if isinstance(a, act.KeepCard)]
        return rng.choice(keep) if keep and rng.random() < 0.7 else act.CloseCampaign()
    if state.steps:
        return None
    if state.round > LAST_ROUND or (state.round >= FIRST_END and rng.random() < END_CHANCE):
        return act.EndAdventure("won" if rng.random() < 0.7 else "lost")
    if len(state.models) < 3 and rng.random() < 0.25:
        wanted = set(game.catalog.adventure(state.adventure).enemies)
        place = [
            a
            for a in legal
            if isinstance(a, act.PlaceEnemy) and game.catalog.enemy_of_model(a.model).id in wanted
        ]
        if place:
            return rng.choice(place)
    if state.map_chaos < 2 and rng.random() < 0.02:
        return act.PlaceChaos(2)
    return None


def violations(
    game: ShatteredChaos, state: State, action: Action, legal: list[Action], stack: Counter[str]
) -> list[str]:
    cat, rules, out = game.catalog, game.catalog.rules, []
    for seat, hero in enumerate(state.party):
        card = cat.adventurer(hero.card)
        who = f"{card.name} (seat {seat})"
        if hero.shadow and (hero.life != 0 or hero.chaos):
            out.append(f"{who} is a shadow with {hero.life} lives and {hero.chaos} chaos tokens")
        if not hero.shadow and not 1 <= hero.life <= card.max_life:
            out.append(f"{who} has {hero.life} lives of at most {card.max_life}")
        if not 0 <= hero.chaos <= rules.ledger_tokens:
            out.append(f"{who} has {hero.chaos} chaos tokens")
        if not 0 <= hero.actions <= rules.action_tokens:
            out.append(f"{who} has {hero.actions} action tokens")
        if len(hero.cards) > rules.hand_size:
            out.append(f"{who} holds {len(hero.cards)} chaos cards")
        if not set(hero.laid) <= set(hero.cards) or len(set(hero.laid)) != len(hero.laid):
            out.append(f"{who} laid chaos cards it does not hold: {hero.laid}")
        if state.phase == ENEMIES and hero.actions:
            out.append(f"{who} kept an action token into the enemy phase")
    everywhere: Counter[str] = Counter(c for _, cards in state.stacks for c in cards)
    everywhere.update(c for h in state.party for c in h.cards)
    everywhere.update(state.discard)
    if state.phase not in (CAMPAIGN, OVER) and everywhere != stack:
        out.append("a chaos card is lost or doubled between the stacks, the hands and the discard pile")
    numbers = [m.number for m in state.models]
    if len(set(numbers)) != len(numbers) or set(numbers) & {n for _, n in state.graveyard}:
        out.append(f"an enemy model is on the board twice, or also in the graveyard: {numbers}")
    for model in state.models:
        if not 1 <= model.lives <= cat.enemy(model.enemy).lives[state.seats]:
            out.append(f"enemy {model.number} has {model.lives} lives")
    if state.map_chaos < 0:
        out.append("fewer than no chaos tokens on the map")
    top = state.top
    if isinstance(top, EnemyTurn) and top.asking and not top.candidates:
        out.append(f"enemy {top.model} asks about nobody")
    if action.to_json() != act.CODEC.parse(action.to_json()).to_json():
        out.append(f"{action.kind} does not survive the codec")
    if state.phase != OVER:
        prompt = game.prompt(state)
        allowed = set(legal)
        if prompt is None or not allowed:
            out.append(f"stalled in the {state.phase} phase with nothing to do")
        elif any(c.action not in allowed for c in prompt.choices):
            out.append(f"a choice of the prompt {prompt.kind!r} is not a legal action")
    return out


def play(game: ShatteredChaos, setup: Setup, rng: random.Random, cap: int = 20000) -> Played:
    """One random adventure from ``setup``, every invariant checked after every action."""
    state = game.new_game(setup)
    played = Played(setup, state)
    legal = list(game.legal_actions(state))
    stack = Counter(state.campaign.stack(game.catalog))
    for index in range(cap):
        action = choose(game, state, legal, rng)
        if action is None:
            if state.phase != OVER:
                played.violations.append(f"stalled with nothing to do: {game.prompt(state)}")
            break
        state, events = game.apply(state, action)
        legal = list(game.legal_actions(state))
        played.log.append(action)
        played.questions += isinstance(action, act.Sighted | act.Closest | act.Target)
        played.violations.extend(violations(game, state, action, legal, stack))
        if any(not e.text for e in events):
            played.violations.append(f"{action.kind} told an event without a sentence")
        if index % VIEW_EVERY == 0:
            json.dumps(game.view(state))
    else:
        played.capped = True
    played.state = state
    json.dumps(game.view(state))
    result = game.result(state)
    if state.phase == OVER:
        winners = set(result.winners)
        if state.outcome == "won" and winners != set(range(state.seats)):
            played.violations.append("a won adventure does not list every seat as a winner")
        if state.outcome == "lost" and winners:
            played.violations.append("a lost adventure lists winners")
        evaluation = state.evaluation
        if evaluation is None or [m.name for m in evaluation.members] != [
            game.catalog.adventurer(h.card).name for h in state.party
        ]:
            played.violations.append("the final evaluation does not match the party")
    replayed = game.new_game(setup)
    for action in played.log:
        replayed, _ = game.apply(replayed, action)
    if replayed != state:
        played.violations.append(f"replaying {len(played.log)} actions gave another position")
    return played


def simulate(games: int, seed: int, adventurers: int | None = None, cap: int = 20000) -> dict[str, Any]:
    game = ShatteredChaos()
    rng = random.Random(seed)
    started, cpu = time.perf_counter(), time.process_time()
    total = capped = finished = won = questions = rounds = 0
    found: list[str] = []
    for index in range(games):
        setup = random_setup(game, rng, adventurers)
        played = play(game, setup, rng, cap)
        total += len(played.log)
        capped += played.capped
        finished += played.state.phase == OVER
        won += played.state.outcome == "won"
        questions += played.questions
        rounds += played.state.round
        found.extend(f"game {index}: {v}" for v in played.violations)
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu
    return {
        "games": games,
        "seed": seed,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(games / cpu_seconds, 2) if cpu_seconds else None,
        "actions": total,
        "map_questions": questions,
        "rounds": rounds,
        "finished_games": finished,
        "won_games": won,
        "invariant_violations": len(found),
        "violation_examples": found[:EXAMPLES],
        "capped_games": capped,
    }
