"""The TV's and phones' picture of an ORCWARS TOO! game: plain JSON, no secrets.

Hands are secret (the view counts their chips); a strategy chosen for a battle shows only that it is chosen
until both are revealed together. The private view gives one seat its hand, what it may still draw, its own
strategy and the trade offered to it. The battle is shown as a show: both strategies once revealed, every
roll, the table's cell and the damage it gives, what was destroyed and what survived.
"""

from __future__ import annotations

import functools
import threading
from collections import Counter as Tally
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from companion.engine import JSON, GameResult, PlayerId, Prompt, Standing, ranks_by_points
from companion.games.orcwars_too import aftermath, flow
from companion.games.orcwars_too.battle import (
    SIDES,
    Need,
    damage_of,
    describe,
    need,
    shaman_waits,
    side_power,
    stupid,
)
from companion.games.orcwars_too.checks import control_target
from companion.games.orcwars_too.common import by_identity, who
from companion.games.orcwars_too.counters import STRATEGY_NAMES, GameData
from companion.games.orcwars_too.economy import caravan_territory
from companion.games.orcwars_too.state import (
    NEUTRAL,
    STEP_NAMES,
    Army,
    Battle,
    Caravan,
    Garrison,
    Land,
    State,
)
from companion.games.orcwars_too.tables import every_cell
from companion.games.orcwars_too.turns import draws_owed, outcome
from companion.games.orcwars_too.victory import (
    Holdings,
    fortresses,
    holdings_of,
    lands,
    leaders_with_armies,
    points,
    power_needed,
)

TITLE = "ORCWARS TOO!"
UNSETTLED = ("surrender", "assign", "survival")
"""A live battle's steps before its losses are known: the TV shows no unit destroyed yet."""
STEP_ORDER = ("A", "B1", "B2", "B3", "B4", "B5", "C")


def view(data: GameData, state: State, prompt: Prompt | None) -> dict[str, JSON]:
    active = state.current.seat if state.current is not None else None
    board = _board(data, state.seats, state.lands, state.armies, state.garrisons, state.caravans)
    announced = {seat: list(met) for seat, met in state.announced}
    owed = _owed(data, state)
    rules = _rules(data)
    return {
        "game": "orcwars-too",
        "title": TITLE,
        "round": state.turn,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "phase": state.phase,
        "step": _step(state),
        "steps": _steps(state.current.step if state.current is not None else state.step),
        "order": list(state.order),
        "players": [
            _player(data, state, seat, seat == active, board, announced, owed.get(seat, 0))
            for seat in range(state.seats)
        ],
        "territories": board.territories,
        "caravans": [_caravan(data, c) for c in state.caravans],
        "gold_pile": state.gold_pile,
        "tribe_cup": len(state.cup),
        "battle": _battle(data, state, state.battle, live=True) if state.battle is not None else None,
        "last_battle": _finished_battle(data, state.last_battle, state.names) if state.last_battle else None,
        "victory": {
            "power_needed": power_needed(data, state),
            "leaders_needed": rules["leaders_needed"],
            "announced": [{"seat": s, "conditions": list(c)} for s, c in state.announced],
        },
        "rolloff": {"purpose": state.rolloff.purpose, "rolls": [list(r) for r in state.rolloff.rolls]}
        if state.rolloff is not None
        else None,
        "offer": {"seat": state.offer.seat, "partner": state.offer.partner}
        if state.offer is not None
        else None,
        "levy": {"leader": state.levy.leader, "units": list(state.levy.units)} if state.levy else None,
        "spy_uses": rules["spy_uses"],
        "fortress_ratings": rules["fortress_ratings"],
        "adjacency": rules["adjacency"],
        "prompt": prompt.to_json() if prompt else None,
        "finished": state.finished,
        "result": _result_view(data, state) if state.finished else None,
    }


def _step(state: State) -> JSON:
    if state.phase != "turn":
        return {
            "id": state.phase,
            "label": {"setup": "Setup", "rolloff": "Who goes first", "over": "Game over"}[state.phase],
        }
    step = state.current.step if state.current is not None else state.step
    return {
        "id": step,
        "label": STEP_NAMES.get(step, step),
        "seat": state.current.seat if state.current else None,
    }


@functools.lru_cache(maxsize=16)
def _rules(data: GameData) -> dict[str, JSON]:
    """What the view says of the data's rules (kept: the same for every view; callers never change it)."""
    return {
        "leaders_needed": data.rules.victory_leaders,
        "spy_uses": [{"id": u.id, "label": u.label} for u in data.rules.spy_uses],
        "fortress_ratings": list(data.rules.fortress_ratings),
        "adjacency": data.board.has_adjacency,
    }


@functools.lru_cache(maxsize=16)
def _steps(now: str) -> list[JSON]:
    """The turn's steps, the one under way ``now`` (kept: callers never change it)."""
    index = STEP_ORDER.index(now) if now in STEP_ORDER else -1
    return [
        {"id": s, "label": STEP_NAMES[s], "state": "now" if i == index else "done" if i < index else "todo"}
        for i, s in enumerate(STEP_ORDER)
    ]


@functools.lru_cache(maxsize=4096)
def _counter(data: GameData, chip: str) -> dict[str, JSON]:
    """A chip as the screens show it (kept: drawn for every unit in every view; callers never change it)."""
    counter = data.counter(chip)
    return {
        "id": chip,
        "name": counter.name,
        "kind": counter.kind.value,
        "race": counter.race or None,
        "power": counter.power,
        "native": counter.native or None,
    }


@functools.lru_cache(maxsize=1024)
def _army(data: GameData, army: Army) -> dict[str, JSON]:
    """A leader and his army as the screens show them (kept, as ``_counter``)."""
    leader = data.counter(army.leader)
    units = [_counter(data, u) for u in army.units]
    return {
        "leader": army.leader,
        "name": leader.name,
        "race": leader.race,
        "authority": leader.authority,
        "survivability": leader.survivability,
        "home": leader.native,
        "territory": army.territory or None,
        "territory_name": data.board.name(army.territory) if army.territory else "lost in the dark",
        "units": units,
        "shaman": army.shaman is not None,
        "gold": army.gold,
        "power": leader.authority + sum(int(u["power"]) for u in units),  # type: ignore[call-overload]
        "moved": army.moved,
        "attacked": army.attacked,
        "levied": army.levied,
        "lost": not army.territory,
    }


@dataclass(frozen=True)
class Board:
    """The view's parts drawn from the board alone, kept by what the board holds: the board changes less
    often than the view is drawn (a draw, a roll, a strategy chosen leave it as it was). Shared between
    views: callers never change them."""

    territories: list[dict[str, JSON]]
    holdings: tuple[Holdings, ...]
    armies: tuple[list[dict[str, JSON]], ...]
    """Per seat, his leaders and their armies."""
    garrisons: tuple[list[dict[str, JSON]], ...]
    """Per seat, the troops he left behind."""


def _board(
    data: GameData,
    seats: int,
    lands: tuple[Land, ...],
    armies: tuple[Army, ...],
    garrisons: tuple[Garrison, ...],
    caravans: tuple[Caravan, ...],
) -> Board:
    """Kept by the identity of the state's parts first (an input that leaves the board as it was, a draw
    or a roll, passes the very tuples on to the next position), then by what they hold."""
    parts = (data, lands, armies, garrisons, caravans)
    key = (seats, *map(id, parts))
    found = _BOARDS.get(key)
    if found is not None:
        return found[1]
    board = _board_drawn(data, seats, lands, armies, garrisons, caravans)
    with _BOARDS_LOCK:
        while len(_BOARDS) >= 16:
            del _BOARDS[next(iter(_BOARDS))]
        _BOARDS[key] = (parts, board)  # the parts held: their ids are not reused meanwhile
    return board


_BOARDS: dict[tuple[int, ...], tuple[tuple[Any, ...], Board]] = {}
_BOARDS_LOCK = threading.Lock()


@functools.lru_cache(maxsize=256)
def _board_drawn(
    data: GameData,
    seats: int,
    lands: tuple[Land, ...],
    armies: tuple[Army, ...],
    garrisons: tuple[Garrison, ...],
    caravans: tuple[Caravan, ...],
) -> Board:
    by_seat: tuple[list[dict[str, JSON]], ...] = tuple([] for _ in range(seats))
    for army in armies:
        by_seat[army.owner].append(_army(data, army))
    left: tuple[list[dict[str, JSON]], ...] = tuple([] for _ in range(seats))
    for garrison in garrisons:
        if garrison.owner >= 0:
            left[garrison.owner].append(
                {
                    "territory": garrison.territory,
                    "territory_name": data.board.name(garrison.territory),
                    "units": [_counter(data, u) for u in garrison.units],
                }
            )
    held = holdings_of(data, seats, lands, armies, garrisons)
    return Board(_territories(data, lands, armies, garrisons, caravans), held, by_seat, left)


def _owed(data: GameData, state: State) -> dict[int, int]:
    """Who draws chips now, and how many: everyone in the setup, else the one a draw is asked of."""
    if state.phase == "setup":
        seats: Iterable[int] = range(state.seats)
    else:
        asked = state.top.seat if state.top is not None else state.current.seat if state.current else None
        seats = () if asked is None else (asked,)
    return {seat: draws_owed(data, state, seat) for seat in seats}


def _player(
    data: GameData,
    state: State,
    seat: int,
    active: bool,
    board: Board,
    announced: dict[int, list[str]],
    owed: int,
) -> dict[str, JSON]:
    hand = state.hands[seat]
    held = board.holdings[seat]
    return {
        "seat": seat,
        "name": state.names[seat],
        "colour": state.colours[seat],
        "active": active,
        "score": {"total": held.lands + held.fortresses, "lands": held.lands, "fortresses": held.fortresses},
        "gold": hand.gold,
        "hand": len(hand.counters),
        "hand_units": sum(map(data.units.__contains__, hand.counters)),
        "unplaced_caravans": [data.name(c) for c in hand.caravans],
        "captives": [{"id": c, "name": data.name(c)} for c in hand.captives],
        "authority": held.authority,
        "leaders_with_armies": held.leaders_with_armies,
        "armies": board.armies[seat],
        "garrisons": board.garrisons[seat],
        "setup": state.setups[seat].stage if state.phase == "setup" else None,
        "draws_owed": owed,
        "done_trading": seat in state.traded,
        "announced": announced.get(seat, []),
    }


def _territories(
    data: GameData,
    lands_: tuple[Land, ...],
    armies_: tuple[Army, ...],
    garrisons: tuple[Garrison, ...],
    caravans_: tuple[Caravan, ...],
) -> list[dict[str, JSON]]:
    """Every territory with what lies on it."""
    lands = {land.territory: land for land in lands_}
    armies: dict[str, list[str]] = {}
    for army in armies_:
        armies.setdefault(army.territory, []).append(army.leader)
    neutral = {g.territory: g.units for g in garrisons if g.owner == NEUTRAL}
    caravans: dict[str, list[str]] = {}
    for caravan in caravans_:
        caravans.setdefault(caravan_territory(data, caravan), []).append(caravan.chip)
    out = []
    for info in data.board:
        land = lands.get(info.id)
        out.append(
            {
                **_territory_facts(data, info.id),
                "controller": land.controller if land else None,
                "fortress": land.fortress if land else 0,
                "mine": land.mine if land else False,
                "armies": armies.get(info.id, []),
                "neutral": [_counter(data, u) for u in neutral.get(info.id, ())],
                "caravans": caravans.get(info.id, []),
            }
        )
    return out


@functools.lru_cache(maxsize=256)
def _territory_facts(data: GameData, territory: str) -> dict[str, JSON]:
    info = data.board.territory(territory)
    return {
        "id": info.id,
        "name": info.name,
        "kind": info.kind,
        "adjacent": list(info.adjacent) if info.adjacent is not None else None,
    }


@functools.lru_cache(maxsize=256)
def _caravan(data: GameData, caravan: Caravan) -> dict[str, JSON]:
    """A caravan on the board (kept by what it is: callers never change it)."""
    chip = caravan.chip
    route = data.caravan(chip).route
    return {
        "chip": chip,
        "name": data.name(chip),
        "territory": route[caravan.step],
        "territory_name": data.board.name(route[caravan.step]),
        "destination": data.board.name(route[-1]),
        "steps_left": len(route) - 1 - caravan.step,
        "power": caravan.power,
        "treasury": caravan.treasury,
    }


# ---------------------------------------------------------------------------------------------- battle


@by_identity(16)
def _finished_battle(data: GameData, fight: Battle, names: tuple[str, ...]) -> JSON:
    """A battle that is over depends on nothing but itself and the players' names: drawn once (the TV shows
    it until the next battle, every view). Callers must not change the dict."""
    return _battle(data, State(names=names, colours=()), fight, live=False)


def _battle(data: GameData, state: State, fight: Battle | None, live: bool) -> JSON:
    if fight is None:
        return None
    asked = flow.battle_need(data, state) if live else None
    computed = fight.revealed and not aftermath.fled(fight) and (not live or need(data, state, fight) is None)
    return _battle_drawn(data, fight, state.names, asked, computed, live)


@by_identity(16)
def _battle_drawn(
    data: GameData, fight: Battle, names: tuple[str, ...], asked: Need | None, computed: bool, live: bool
) -> JSON:
    """A battle as the TV shows it: kept (an input that leaves the battle as it was, a draw of gold, asks
    for it again); callers never change it."""
    state = State(names=names, colours=())  # the sides are told by their chiefs' names
    settled = not live or (asked is not None and asked.kind not in UNSETTLED)
    working = damage_of(data, fight).working() if computed else None
    return {
        "territory": fight.territory,
        "territory_name": data.board.name(fight.territory),
        "origin": fight.origin,
        "table": "fortress" if fight.fortress else "field",
        "fortress": fight.fortress,
        "war_machine": fight.war_machine,
        "revealed": fight.revealed,
        "shaman_waits": shaman_waits(fight) or None,
        "stage": asked.kind if asked is not None else ("over" if not live else "ending"),
        "waiting_for": [int(s) for s in asked.seats] if asked is not None else [],
        "waiting_side": asked.side or None if asked is not None else None,
        "attacker": _side(data, state, fight, "attacker", computed, settled),
        "defender": _side(data, state, fight, "defender", computed, settled),
        "damage": working,
        "chart": _chart(data, fight) if live and not fight.revealed else None,
        "loser": fight.loser or None,
        "retreat_to": data.board.name(fight.retreat_to) if fight.retreat_to else None,
    }


def _chart(data: GameData, fight: Battle) -> JSON:
    """While the strategies are being chosen: the damage each pair would give at the sides' powers now
    (before any troll's stupidity or failed leadership changes them): public, as the powers are."""
    attacker, defender = side_power(data, fight.attacker), side_power(data, fight.defender)
    return every_cell(attacker, defender, fight.fortress, fight.war_machine)


def _side(
    data: GameData, state: State, fight: Battle, name: str, computed: bool, settled: bool
) -> dict[str, JSON]:
    """One side of a battle. Damage shows once assigned (a chief's own assignment, or the rule's for
    troops nobody commands), losses once the survival roll is in."""
    side = fight.side(name)
    other_first = shaman_waits(fight) and shaman_waits(fight) != name and side.proposed
    shown = side.proposed if (fight.revealed or other_first) else ""
    standing_aside = set(stupid(data, side)) if side.real else set()
    waiting = (
        computed
        and side.owner >= 0
        and side.assigned is None
        and not aftermath.overwhelmed(data, fight, name)
    )
    assigned = aftermath.allocation(data, fight, name) if computed and not (waiting and not settled) else {}
    gone = set(aftermath.destroyed(data, fight, name)) if computed and settled else set()
    given_up = set(aftermath.surrendered(data, fight, name)) if computed and settled else set()
    rolls = dict(side.stupidity)
    fates = dict(side.fates)
    regrown = dict(side.regeneration)
    leaders = []
    for leader in side.leaders:
        fate = aftermath.fate(data, fight, name, leader) if leader in fates else ""
        leaders.append(
            {
                "id": leader,
                "name": data.name(leader),
                "authority": data.counter(leader).authority,
                "survivability": data.counter(leader).survivability,
                "damage": assigned.get(leader, 0),
                "destroyed": leader in gone,
                "fate": fate or None,
                "fate_roll": fates.get(leader),
            }
        )
    units = [
        {
            **_counter(data, u),
            "stupid": u in standing_aside,
            "stupidity_roll": rolls.get(u),
            "damage": assigned.get(u, 0),
            "destroyed": u in gone,
            "surrendered": u in given_up,
            "regeneration_roll": regrown.get(u),
        }
        for u in side.units
    ]
    authority_target = None
    if side.leaders and side.owner >= 0 and side.kind == "army":
        in_fortress = name == "defender" and fight.fortress > 0
        authority_target = control_target(data, side.leaders[0], side.units, in_fortress).value
    return {
        "name": describe(data, state, side),
        "owner": side.owner if side.owner != NEUTRAL else None,
        "kind": side.kind,
        "leaders": leaders,
        "units": units,
        "shamans": len(side.shamans),
        "caravan": data.name(side.caravan) if side.caravan else None,
        "power": side_power(data, side),
        "chosen": bool(side.proposed),
        "proposed": shown or None,
        "proposed_name": STRATEGY_NAMES.get(shown) if shown else None,
        "authority_roll": side.authority_roll or None,
        "authority_target": authority_target,
        "strategy_roll": side.strategy_roll or None,
        "real": side.real or None,
        "real_name": _strategy_name(fight, name, side.real),
        "surrender_roll": side.surrender_roll or None,
        "survivor": data.name(side.survivor) if side.survivor else None,
        "survival_roll": side.survival_roll or None,
        "lost_power": aftermath.lost_power(data, fight, name) if computed and settled else None,
    }


def _strategy_name(fight: Battle, name: str, strategy: str) -> str | None:
    if not strategy:
        return None
    if strategy == "careful" and name == "defender" and fight.fortress:
        return "Careful Defence"
    return STRATEGY_NAMES.get(strategy, strategy)


# ---------------------------------------------------------------------------------------- private view


def private_view(data: GameData, state: State, seat: PlayerId) -> dict[str, JSON] | None:
    """The seat's hand, what it may still draw (by counter type: a chip it does not see, in the cup or in
    another hand, so nothing tells which), its secret strategy and the trade offered to or by it."""
    if not 0 <= seat < state.seats:
        return None
    hand = state.hands[seat]
    unseen = Tally(data.counter(c).type for c in state.cup)
    for other, their in enumerate(state.hands):
        if other != seat:
            unseen.update(data.counter(c).type for c in their.counters)
    drawable = []
    for type_id, count in sorted(unseen.items()):
        sample = next(c.id for c in data.counters if c.type == type_id)
        drawable.append({**_counter(data, sample), "id": type_id, "type": type_id, "left": count})
    fight = state.battle
    mine = ""
    if fight is not None:
        mine = next(
            (fight.side(n).proposed for n in SIDES if fight.side(n).owner == seat and fight.side(n).proposed),
            "",
        )
    offer = state.offer
    return {
        "seat": seat,
        "name": who(state, seat),
        "hand": [_counter(data, c) for c in hand.counters],
        "hand_limit": data.rules.hand_limit,
        "captives": [_counter(data, c) for c in hand.captives],
        "drawable": drawable,
        "strategy": mine or None,
        "offer": {
            "seat": offer.seat,
            "partner": offer.partner,
            "give": [_counter(data, c) for c in offer.give],
            "give_gold": offer.give_gold,
            "take": [{"id": c, "name": data.name(c)} for c in offer.take],
            "take_gold": offer.take_gold,
        }
        if offer is not None and seat in (offer.seat, offer.partner)
        else None,
    }


# ----------------------------------------------------------------------------------------------- result


def _result_view(data: GameData, state: State) -> dict[str, JSON]:
    return {
        "winners": list(state.winners),
        "tie": len(state.winners) > 1,
        "reason": state.reason,
        "players": [
            {"seat": s, "name": state.names[s], "points": points(data, state, s)} for s in range(state.seats)
        ],
    }


def result(data: GameData, state: State) -> GameResult:
    """Ranks by victory (the winners first), then by lands and manned fortresses held."""
    scores = [points(data, state, s) for s in range(state.seats)]
    winners = tuple(state.winners) if state.finished else ()
    keyed = [(1 if s in winners else 0, scores[s]) for s in range(state.seats)]
    flat = [k[0] * 1000 + k[1] for k in keyed]
    ranks = ranks_by_points(flat)
    standings = tuple(
        Standing(
            PlayerId(s),
            state.names[s],
            ranks[s],
            float(scores[s]),
            {
                "lands": lands(data, state, s),
                "fortresses": fortresses(state, s),
                "leaders_with_armies": leaders_with_armies(data, state, s),
                "gold": state.hands[s].gold,
                "won": s in winners,
            },
        )
        for s in range(state.seats)
    )
    if not state.finished:
        top = tuple(PlayerId(s) for s in range(state.seats) if ranks[s] == 1)
        return GameResult(False, top, standings, "lands + fortresses", outcome="The game is under way")
    return GameResult(
        True,
        tuple(PlayerId(s) for s in winners),
        standings,
        "lands + fortresses",
        outcome=outcome(state, winners, state.reason),
        details={"reason": state.reason, "turn": state.turn},
    )
