"""Candidate actions for a position: every choice of the prompt, and for open inputs a representative set
(one chip of each kind left in the tribe cup, each unit levied alone and all together, each move...).

The engine keeps those it accepts (``OrcwarsToo.legal_actions``); the simulator tries them in a random
order. Rolls are listed with every face.
"""

from __future__ import annotations

import itertools

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
    Done,
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
from companion.games.orcwars_too.state import CAMPAIGN, DISCARD, REINFORCE, SETUP, TRADING, State
from companion.games.orcwars_too.trading import partners
from companion.games.orcwars_too.turns import draws_owed, unit_count


def candidates(data: GameData, state: State) -> list[Action]:
    asked = prompt(data, state)
    if asked is None:
        return []
    out: list[Action] = [c.action for c in asked.choices]
    if asked.roll is not None:
        seat = asked.players[0] if asked.players else PlayerId(0)
        return [Roll(seat, asked.roll.die, (face,)) for face in DIE_FACES[asked.roll.die]]
    for seat in asked.players:
        out += _draws(data, state, seat)
    if asked.kind == "setup":
        for seat in asked.players:
            out += _setup(data, state, seat)
    elif asked.kind in ("reinforce", "buy"):
        out += _reinforce(data, state, asked.players[0])
    elif asked.kind == "campaign":
        out += _campaign(data, state, asked.players[0])
    elif asked.kind == "rampage":
        out += _rampage(data, state, asked.players[0])
    elif asked.kind == "discard":
        out += _discard(data, state, asked.players[0])
    elif asked.kind == "trading":
        out += _trading(data, state)
    return list(dict.fromkeys(out))


def _draws(data: GameData, state: State, seat: int) -> list[Action]:
    if not draws_owed(data, state, seat):
        return []
    kinds: dict[str, str] = {}
    for chip in state.cup:
        kinds.setdefault(data.counter(chip).type, chip)
    return [Draw(PlayerId(seat), (chip,)) for chip in kinds.values()]


def _setup(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    if state.phase != SETUP:
        return []
    stage = state.setups[seat].stage
    if stage == "bosses":
        leaders = [c for c in state.cup if data.counter(c).kind is Kind.LEADER]
        out: list[Action] = [TakeBosses(player, (leader,)) for leader in leaders]
        out += [TakeBosses(player, (a, b)) for a, b in itertools.pairwise(leaders)]
        return out
    if draws_owed(data, state, seat):
        return []
    units = [c for c in state.hands[seat].counters if data.counter(c).kind is not Kind.LEADER]
    return [TradeForGold(player, (chip,)) for chip in units] + [Done(player)]


def _reinforce(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    turn = state.current
    if turn is None or turn.step != REINFORCE:
        return []
    out: list[Action] = [Done(player)]
    if not leaders_anywhere(data, state, seat):
        out.append(Redraw(player))
    if not turn.free_left and state.hands[seat].gold >= data.rules.extra_cost:
        out.append(Buy(player))
    return out


def _campaign(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    turn = state.current
    if turn is None or turn.step != CAMPAIGN:
        return []
    hand = state.hands[seat].counters
    out: list[Action] = [Done(player)]
    for leader in (c for c in hand if data.counter(c).kind is Kind.LEADER):
        home = data.counter(leader).native
        natives = tuple(
            c for c in hand if data.counter(c).native == home and data.counter(c).kind is Kind.TROOP
        )
        out += [Levy(player, leader), Levy(player, leader, natives)]
    levied = tuple(c for c in hand if data.counter(c).kind in (Kind.TROOP, Kind.WAR_MACHINE, Kind.SHAMAN))
    gold = state.hands[seat].gold
    held = turn.held_at_start
    for army in state.armies_of(seat):
        if not army.territory:
            continue
        leader, here = army.leader, army.territory
        ours = friendly(state, here, seat)
        land = state.land(here)
        if ours and not army.levied and (not army.arrived or here == data.counter(leader).native):
            out += [Levy(player, leader, (chip,)) for chip in levied]
            troops = tuple(c for c in levied if data.counter(c).kind is Kind.TROOP)
            if troops:
                out.append(Levy(player, leader, troops))
            if neutral_units(state, here):
                out.append(Levy(player, leader, (), True))
        if neutral_units(state, here):
            out.append(Attack(player, leader, "neutral"))
        out += [Attack(player, leader, f"seat:{foe}") for foe in enemies_in(state, here, seat)]
        out += [
            Attack(player, leader, c.chip)
            for c in state.caravans
            if data.caravan(c.chip).route[c.step] == here
        ]
        if not army.moved:
            for territory in data.board:
                if data.board.adjacent(here, territory.id):
                    out.append(Move(player, leader, territory.id))
            if ours and (land.mine or land.fortress):
                out.append(Underground(player, leader))
            if ours and army.units:
                out += [BuildFortress(player, leader, r) for r in data.rules.fortress_ratings if r <= gold]
        if army.units and ours:
            out += [LeaveBehind(player, leader, (army.units[0],)), LeaveBehind(player, leader, army.units)]
        out.append(Claim(player, leader))
        if ours and not land.mine and here in held:
            out.append(BuildMine(player, leader))
    for spy in (c for c in hand if data.counter(c).kind is Kind.SPY):
        for use in data.rules.spy_uses:
            out += [UseSpy(player, spy, use.id, other) for other in range(state.seats) if other != seat]
    return out


def _rampage(data: GameData, state: State, seat: int) -> list[Action]:
    player = PlayerId(seat)
    out: list[Action] = [Done(player)]
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
