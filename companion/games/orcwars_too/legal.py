"""Candidate actions for a position: every choice of the prompt, and for open inputs a representative set
(one chip of each kind left in the tribe cup, each unit levied alone and all together, each move...).

The engine keeps those it accepts (``OrcwarsToo.legal_actions``); the simulator tries them in a random
order. Rolls are listed with every face.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable

from companion.engine import Action, PlayerId, Roll
from companion.games.orcwars_too.actions import (
    AnswerTrade,
    Attack,
    BuildFortress,
    BuildMine,
    Buy,
    Claim,
    DestroyMine,
    Discard,
    Draw,
    LeaveBehind,
    Levy,
    Move,
    OfferTrade,
    Rampage,
    Redraw,
    TakeBosses,
    TradeForGold,
    Underground,
    UseSpy,
)
from companion.games.orcwars_too.common import enemies_in, friendly, leaders_anywhere, units_of
from companion.games.orcwars_too.counters import UNIT_KINDS, GameData, Kind
from companion.games.orcwars_too.places import neutral_units
from companion.games.orcwars_too.prompts import DIE_FACES, prompt
from companion.games.orcwars_too.state import CAMPAIGN, DISCARD, REINFORCE, SETUP, TRADING, Army, State
from companion.games.orcwars_too.trading import partners
from companion.games.orcwars_too.turns import draws_owed, unit_count

Maker = Callable[[], list[Action]]


def candidates(data: GameData, state: State) -> list[Action]:
    return list(dict.fromkeys(a for make in groups(data, state) for a in make()))


def groups(data: GameData, state: State) -> list[Maker]:
    """The candidates in groups, each made only when asked for (the simulator tries a group at a time:
    most are never made): the prompt's choices by kind, the rolls, the draws, and each kind of order."""
    asked = prompt(data, state)
    if asked is None:
        return []
    by_kind: dict[str, list[Action]] = {}
    for choice in asked.choices:
        by_kind.setdefault(choice.action.kind, []).append(choice.action)
    out: list[Maker] = [functools.partial(list, actions) for actions in by_kind.values()]
    if asked.roll is not None:
        seats = asked.players or (PlayerId(0),)
        rolls: list[Action] = [
            Roll(seat, asked.roll.die, (face,)) for seat in seats for face in DIE_FACES[asked.roll.die]
        ]
        return [functools.partial(list, rolls), functools.partial(_joining, data, state)]
    out += [functools.partial(_draws, data, state, seat) for seat in asked.players]
    if asked.kind == "setup":
        out += [functools.partial(_setup, data, state, seat) for seat in asked.players]
    elif asked.kind in ("reinforce", "buy"):
        out.append(functools.partial(_reinforce, data, state, asked.players[0]))
    elif asked.kind == "campaign":
        out += _campaign(data, state, asked.players[0])
    elif asked.kind == "rampage":
        out.append(functools.partial(_rampage, data, state, asked.players[0]))
    elif asked.kind == "discard":
        out.append(functools.partial(_discard, data, state, asked.players[0]))
    elif asked.kind == "trading":
        out.append(functools.partial(_trading, data, state))
    return out


def _draws(data: GameData, state: State, seat: int) -> list[Action]:
    if not draws_owed(data, state, seat):
        return []
    return [Draw(PlayerId(seat), (chip,)) for chip in _one_of_each(data, state.cup)]


@functools.lru_cache(maxsize=64)
def _one_of_each(data: GameData, cup: tuple[str, ...]) -> tuple[str, ...]:
    """A chip of each counter type left in the cup (kept: the cup changes less often than it is asked)."""
    kinds: dict[str, str] = {}
    for chip in cup:
        kinds.setdefault(data.counter(chip).type, chip)
    return tuple(kinds.values())


@functools.lru_cache(maxsize=64)
def _leaders_in(data: GameData, cup: tuple[str, ...]) -> list[str]:
    return [c for c in cup if data.counter(c).kind is Kind.LEADER]


def _setup(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    if state.phase != SETUP:
        return []
    stage = state.setups[seat].stage
    if stage == "bosses":
        leaders = _leaders_in(data, state.cup)
        out: list[Action] = [TakeBosses(player, (leader,)) for leader in leaders]
        out += [TakeBosses(player, (a, b)) for a, b in itertools.pairwise(leaders)]
        return out
    if draws_owed(data, state, seat):
        return []
    units = [c for c in state.hands[seat].counters if data.counter(c).kind is not Kind.LEADER]
    return [TradeForGold(player, (chip,)) for chip in units]  # ready: the prompt's choice


def _reinforce(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    turn = state.current
    if turn is None or turn.step != REINFORCE:
        return []
    out: list[Action] = []  # going on: the prompt's choice
    if not leaders_anywhere(data, state, seat):
        out.append(Redraw(player))
    if not turn.free_left and state.hands[seat].gold >= data.rules.extra_cost:
        out.append(Buy(player))
    return out


def _campaign(data: GameData, state: State, seat: int) -> list[Maker]:
    """A leader's orders, a group per kind (being done with them is the prompt's choice)."""
    turn = state.current
    if turn is None or turn.step != CAMPAIGN:
        return []
    armies = [a for a in state.armies_of(seat) if a.territory]
    kinds = (
        _levies,
        _attacks,
        _moves,
        _leavings,
        _claims,
        _mines,
        _spies,
    )
    return [functools.partial(kind, data, state, seat, armies) for kind in kinds]


def _levies(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    player = PlayerId(seat)
    hand = state.hands[seat].counters
    out: list[Action] = []
    for leader in (c for c in hand if data.counter(c).kind is Kind.LEADER):
        home = data.counter(leader).native
        natives = tuple(
            c for c in hand if data.counter(c).native == home and data.counter(c).kind is Kind.TROOP
        )
        out += [Levy(player, leader), Levy(player, leader, natives)]
    levied = tuple(c for c in hand if data.counter(c).kind in (Kind.TROOP, Kind.WAR_MACHINE, Kind.SHAMAN))
    out += _joining(data, state)
    for army in armies:
        leader, here = army.leader, army.territory
        if (
            friendly(state, here, seat)
            and not army.levied
            and (not army.arrived or here == data.counter(leader).native)
        ):
            out += [Levy(player, leader, (chip,)) for chip in levied]
            troops = tuple(c for c in levied if data.counter(c).kind is Kind.TROOP)
            if troops:
                out.append(Levy(player, leader, troops))
            if neutral_units(state, here):
                out.append(Levy(player, leader, (), True))
    return out


def _attacks(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    player = PlayerId(seat)
    out: list[Action] = []
    for army in armies:
        leader, here = army.leader, army.territory
        if neutral_units(state, here):
            out.append(Attack(player, leader, "neutral"))
        out += [Attack(player, leader, f"seat:{foe}") for foe in enemies_in(state, here, seat)]
        out += [
            Attack(player, leader, c.chip)
            for c in state.caravans
            if data.caravan(c.chip).route[c.step] == here
        ]
    return out


def _moves(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    """Moves, the caves and fortresses (the builder does not move that turn)."""
    player = PlayerId(seat)
    gold = state.hands[seat].gold
    out: list[Action] = []
    for army in armies:
        if army.moved:
            continue
        leader, here = army.leader, army.territory
        out += [Move(player, leader, territory) for territory in data.board.neighbours(here)]
        if friendly(state, here, seat):
            land = state.land(here)
            if land.mine or land.fortress:
                out.append(Underground(player, leader))
            if army.units:
                out += [BuildFortress(player, leader, r) for r in data.rules.fortress_ratings if r <= gold]
    return out


def _leavings(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    player = PlayerId(seat)
    out: list[Action] = []
    for army in armies:
        if army.units and friendly(state, army.territory, seat):
            out += [
                LeaveBehind(player, army.leader, (army.units[0],)),
                LeaveBehind(player, army.leader, army.units),
            ]
    return out


def _claims(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    return [Claim(PlayerId(seat), army.leader) for army in armies]


def _mines(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    turn = state.current
    held = turn.held_at_start if turn is not None else ()
    return [
        BuildMine(PlayerId(seat), army.leader)
        for army in armies
        if friendly(state, army.territory, seat)
        and not state.land(army.territory).mine
        and army.territory in held
    ]


def _spies(data: GameData, state: State, seat: int, armies: list[Army]) -> list[Action]:
    player = PlayerId(seat)
    out: list[Action] = []
    for spy in (c for c in state.hands[seat].counters if data.counter(c).kind is Kind.SPY):
        for use in data.rules.spy_uses:
            out += [UseSpy(player, spy, use.id, other) for other in range(state.seats) if other != seat]
    return out


def _joining(data: GameData, state: State) -> list[Action]:
    """A chip more laid beside the leader whose levy is under way."""
    levy = state.levy
    army = state.army(levy.leader) if levy is not None else None
    if army is None:
        return []
    hand = state.hands[army.owner].counters
    kinds = (Kind.TROOP, Kind.WAR_MACHINE, Kind.SHAMAN)
    return [Levy(PlayerId(army.owner), army.leader, (c,)) for c in hand if data.counter(c).kind in kinds]


def _rampage(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    out: list[Action] = []  # done: the prompt's choice
    held = state.current.held_at_start if state.current is not None else ()
    for army in state.armies_of(seat):
        if army.territory and not data.board.territory(army.territory).orcland and not army.rampaged:
            out.append(Rampage(player, army.leader, True))
            if army.units:
                out.append(Rampage(player, army.leader, False))
        here = army.territory
        if here and friendly(state, here, seat) and not state.land(here).mine and here in held:
            out.append(BuildMine(player, army.leader))
    for land in state.lands:
        if land.mine and units_of(state, seat, land.territory):
            out.append(DestroyMine(player, land.territory))
    return out


def _discard(data: GameData, state: State, seat: int) -> list[Action]:
    turn = state.current
    hand = state.hands[seat]
    if turn is None or turn.step != DISCARD:
        return []
    over = unit_count(data, hand) - data.rules.hand_limit
    units = [c for c in hand.counters if data.counter(c).kind in UNIT_KINDS]
    if over <= 0:
        return []
    return [Discard(PlayerId(seat), tuple(units[:over])), Discard(PlayerId(seat), tuple(units[-over:]))]


def _trading(data: GameData, state: State) -> list[Action]:
    out: list[Action] = []
    if state.step != TRADING:
        return out
    if state.offer is not None:
        return [AnswerTrade(PlayerId(state.offer.partner), yes) for yes in (True, False)]
    for seat in range(state.seats):
        if seat in state.traded:
            continue
        hand = state.hands[seat]
        for partner in (p for p in partners(data, state, seat) if p not in state.traded):
            if hand.gold:
                out.append(OfferTrade(PlayerId(seat), PlayerId(partner), give_gold=1))
            for chip in hand.captives:
                out.append(
                    OfferTrade(
                        PlayerId(seat),
                        PlayerId(partner),
                        give=(chip,),
                        take_gold=min(1, state.hands[partner].gold),
                    )
                )
    return out
