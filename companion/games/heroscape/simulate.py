"""Random complete games of HeroScape, checking the engine's invariants after every action.

A random table: every prompt is answered with one of the legal actions (dice thrown as the dice fall:
each face as often as the combat die has it). After every action: no figure on the battlefield carries
as many wounds as its Life; a destroyed figure never acts again; the public view and the events never
tell where face-down order markers lie (the view of a position is the same whichever cards hold the
unrevealed markers); and replaying the game's actions from the start gives the same position.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import replace
from typing import Any

from companion.engine import Action, Player, Roll, Setup
from companion.games.heroscape.actions import PlaceMarkers
from companion.games.heroscape.catalog import default_catalog
from companion.games.heroscape.engine import HeroScape
from companion.games.heroscape.odds import combat_faces
from companion.games.heroscape.state import Side, State

EXAMPLES = 5


def scenarios_for(players: int, only: str | None) -> list[str]:
    ids = [s.id for s in default_catalog().scenarios if players in s.players]
    if only is not None:
        if only not in ids:
            raise ValueError(f"scenario {only!r} is not for {players} players (those are: {', '.join(ids)})")
        return [only]
    return ids


def choose(game: HeroScape, state: State, rng: random.Random) -> Action | None:
    actions = game.legal_actions(state)
    if not actions:
        return None
    rolls = [a for a in actions if isinstance(a, Roll)]
    if rolls:
        roll = rolls[0]
        if roll.die == "combat":
            faces = tuple(rng.choice(combat_faces()) for _ in roll.faces)
        else:
            faces = (str(rng.randint(1, 20)),)
        return Roll(roll.player, roll.die, faces)
    # Attacks and turns' ends are many; weigh toward what makes a game move on.
    return rng.choice(actions)


def violations(game: HeroScape, state: State, action: Action, events: tuple[Any, ...]) -> list[str]:
    out = []
    cat = game.catalog
    for seat in range(state.seats):
        for uid, unit in state.units_of(seat):
            life = cat.card(uid.card).life
            for n, figure in enumerate(unit.figures, start=1):
                if figure.alive and figure.wounds >= life:
                    out.append(f"{uid.figure(n).format()} alive with {figure.wounds} wounds of {life}")
    if isinstance(action, PlaceMarkers) and any(m in e.text for e in events for m in action.markers):
        out.append("an event of place_markers names a card")
    if _shuffled_view(game, state) != json.dumps(game.view(state), sort_keys=True):
        out.append("the public view depends on where face-down markers lie")
    return out


def _shuffled_view(game: HeroScape, state: State) -> str:
    """The view with every side's unrevealed markers rotated among its cards."""
    sides = []
    for seat, side in enumerate(state.sides):
        if side.markers is None:
            sides.append(side)
            continue
        units = [uid.format() for uid, _ in state.units_of(seat)]
        markers = tuple(
            m if i < 3 and side.revealed[i] else units[(units.index(m) + 1) % len(units)] if m in units else m
            for i, m in enumerate(side.markers)
        )
        sides.append(Side(side.units, side.ready, markers, side.revealed, side.removed, side.out))
    return json.dumps(game.view(replace(state, sides=tuple(sides))), sort_keys=True)


def simulate(
    players: int, games: int, seed: int, scenario: str | None = None, cap: int = 20000
) -> dict[str, Any]:
    game = HeroScape()
    rng = random.Random(seed)
    names = tuple(Player(f"P{i + 1}") for i in range(players))
    ids = scenarios_for(players, scenario)
    started = time.perf_counter()
    total = capped = 0
    found: list[str] = []
    wins = [0] * players
    for index in range(games):
        options = (("scenario", ids[index % len(ids)]), ("army", rng.choice(("draft", "premade"))))
        setup = Setup("heroscape", names, options)
        state = game.new_game(setup)
        log: list[Action] = []
        for _ in range(cap):
            action = choose(game, state, rng)
            if action is None:
                break
            state, events = game.apply(state, action)
            log.append(action)
            total += 1
            found.extend(f"game {index}: {v}" for v in violations(game, state, action, events))
        else:
            capped += 1
        replayed = game.new_game(setup)
        for action in log:
            replayed, _ = game.apply(replayed, action)
        if replayed != state:
            found.append(f"game {index}: replaying {len(log)} actions gave another position")
        for seat in state.winners:
            wins[seat] += 1
    seconds = time.perf_counter() - started
    return {
        "players": players,
        "games": games,
        "scenarios": ids,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "actions": total,
        "invariant_violations": len(found),
        "violation_examples": found[:EXAMPLES],
        "capped_games": capped,
        "wins_by_seat": wins,
    }
