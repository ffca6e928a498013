"""C, the trading phase (rulebook lines 85-87, 135): chiefs whose leaders stand in adjacent territories trade
chips of their hands and gold any way they agree; a captured leader may be traded (the one who receives
him takes him into his hand), else he is executed at the end of the phase.

An offer is secret until accepted: only the two chiefs see what it holds.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too.common import fail, gold, names, who
from companion.games.orcwars_too.counters import GameData
from companion.games.orcwars_too.state import TRADING, Hand, Offer, State, evolve, set_hand


def partners(data: GameData, state: State, seat: int) -> tuple[int, ...]:
    """Chiefs the seat may trade with: each has a leader on the board, side by side (the same or adjacent
    territories, when the owner entered the board's adjacency)."""
    mine = [a.territory for a in state.armies_of(seat) if a.territory]
    out = []
    for other in range(state.seats):
        if other == seat:
            continue
        theirs = [a.territory for a in state.armies_of(other) if a.territory]
        if any(m == t or data.board.adjacent(m, t) for m in mine for t in theirs):
            out.append(other)
    return tuple(out)


def offer(
    data: GameData,
    state: State,
    seat: int,
    partner: int,
    give: tuple[str, ...],
    give_gold: int,
    take: tuple[str, ...],
    take_gold: int,
    ev: list[Event],
) -> State:
    if state.step != TRADING or state.finished:
        fail("Trades are made in the trading phase")
    if seat in state.traded:
        fail(f"{who(state, seat)} is done trading this turn")
    if state.offer is not None:
        fail(f"{who(state, state.offer.partner)} has an offer to answer first")
    if partner not in partners(data, state, seat):
        fail(f"{who(state, seat)} has no leader beside one of {who(state, partner)}'s")
    if partner in state.traded:
        fail(f"{who(state, partner)} is done trading this turn")
    hand = state.hands[seat]
    if give_gold < 0 or take_gold < 0 or give_gold > hand.gold or take_gold > state.hands[partner].gold:
        fail("Gold offered or asked must be held")
    _check_held(data, state, seat, give)
    if len(set(take)) != len(take) or any(not data.has_counter(c) for c in take):
        fail("Ask for chips by their ids, each once")
    if not (give or give_gold or take or take_gold):
        fail("An offer gives or asks for something")
    ev.append(
        Event("TradeOffered", f"{who(state, seat)} offers {who(state, partner)} a trade", {"seat": seat})
    )
    return evolve(state, offer=Offer(seat, partner, give, give_gold, take, take_gold))


def _check_held(data: GameData, state: State, seat: int, chips: tuple[str, ...]) -> None:
    hand = state.hands[seat]
    if len(set(chips)) != len(chips) or any(c not in (*hand.counters, *hand.captives) for c in chips):
        fail(f"{who(state, seat)} does not hold all of that")


def answer(data: GameData, state: State, seat: int, accept: bool, ev: list[Event]) -> State:
    pending = state.offer
    if pending is None or pending.partner != seat:
        fail(f"No offer waits for {who(state, seat)}'s answer")
    state = evolve(state, offer=None)
    if not accept:
        ev.append(
            Event("TradeDeclined", f"{who(state, seat)} declines {who(state, pending.seat)}'s offer", {})
        )
        return state
    _check_held(data, state, seat, pending.take)
    if state.hands[seat].gold < pending.take_gold or state.hands[pending.seat].gold < pending.give_gold:
        fail("The gold asked for is no longer there")
    captives = [c for c in pending.give if c in state.hands[pending.seat].captives]
    captives += [c for c in pending.take if c in state.hands[seat].captives]
    state = _hand_over(state, pending.seat, seat, pending.give, pending.give_gold)
    state = _hand_over(state, seat, pending.seat, pending.take, pending.take_gold)
    said = f"{who(state, pending.seat)} and {who(state, seat)} trade"
    if captives:
        said += f" (the captive {names(data, captives)} changes hands)"
    paid = pending.give_gold + pending.take_gold
    ev.append(Event("Traded", said + (f", {gold(paid)} with it" if paid else ""), {}))
    return state


def _hand_over(state: State, giver: int, taker: int, chips: tuple[str, ...], gold: int) -> State:
    """Chips and gold from one hand to another; a captive becomes an ordinary chip of the taker's hand."""
    source = state.hands[giver]
    target = state.hands[taker]
    source = Hand(
        counters=tuple(c for c in source.counters if c not in chips),
        gold=source.gold - gold,
        caravans=source.caravans,
        captives=tuple(c for c in source.captives if c not in chips),
    )
    target = replace(target, counters=(*target.counters, *chips), gold=target.gold + gold)
    return set_hand(set_hand(state, giver, source), taker, target)


def trading_done(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    if seat in state.traded:
        fail(f"{who(state, seat)} is done trading")
    if state.offer is not None and seat in (state.offer.seat, state.offer.partner):
        fail("An offer waits for its answer")
    ev.append(Event("DoneTrading", f"{who(state, seat)} is done trading", {"seat": seat}))
    return evolve(state, traded=tuple(sorted((*state.traded, seat))))
