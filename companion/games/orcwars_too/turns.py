"""The turn (rulebook lines 11-41, 81-87): step A, then B1-B5 for each player in order (the smallest total
authority of leaders in play first), then C; and victory, announced at the start of a turn and met again at
its end (lines 262-268). The hands are secret: events say how many chips a player drew, never which.
"""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event
from companion.games.orcwars_too.common import (
    authority_in_play,
    fail,
    held_territories,
    leaders_anywhere,
    names,
    plural,
    to_cup,
    who,
)
from companion.games.orcwars_too.counters import UNIT_KINDS, GameData
from companion.games.orcwars_too.economy import (
    move_caravans,
    place_caravans,
    produce_mines,
)
from companion.games.orcwars_too.moves import lost_armies
from companion.games.orcwars_too.state import (
    CAMPAIGN,
    DISCARD,
    MOVE_CARAVANS,
    OVER,
    PLACE_CARAVANS,
    RAMPAGE,
    REINFORCE,
    ROLLOFF,
    SETUP,
    STEP_NAMES,
    TRADING,
    TURN,
    Hand,
    PlayerTurn,
    RollOff,
    State,
    Step,
    evolve,
    pop,
    push,
    set_hand,
)
from companion.games.orcwars_too.victory import conditions_met, points


def unit_count(data: GameData, hand: Hand) -> int:
    return sum(1 for c in hand.counters if c in data.units)


def draws_owed(data: GameData, state: State, seat: int) -> int:
    """Chips the seat must still draw from the tribe cup now (0: none asked)."""
    top = state.top
    if top is not None:
        return min(top.count, len(state.cup)) if top.purpose == "draw" and top.seat == seat else 0
    if state.phase == SETUP and state.setups[seat].stage == "draw":
        return max(0, data.rules.setup_units - len(state.hands[seat].counters))
    turn = state.current
    if state.phase == TURN and turn is not None and turn.seat == seat and turn.step == REINFORCE:
        return min(turn.free_left, len(state.cup))  # an empty tribe cup gives nothing more
    return 0


def chips_from_cup(data: GameData, state: State, named: tuple[str, ...]) -> tuple[str, ...]:
    """The chips drawn, each named by its id (``red-orcs#2``: a tag read) or by its counter's type
    (``red-orcs``: entered on a phone, which cannot know which copy): a type takes a copy still in the cup."""
    taken: list[str] = []
    for name in named:
        if name in state.cup and name not in taken:
            taken.append(name)
            continue
        copy = next((c for c in state.cup if data.counter(c).type == name and c not in taken), None)
        if copy is None:
            what = data.name(name) if data.has_counter(name) else name
            fail(f"No {what} is left in the tribe cup to draw")
        taken.append(copy)
    return tuple(taken)


def draw(data: GameData, state: State, seat: int, counters: tuple[str, ...], ev: list[Event]) -> State:
    """Chips drawn from the tribe cup into the hand (setup, reinforcements, a redraw, a unit bought)."""
    owed = draws_owed(data, state, seat)
    if owed <= 0:
        fail(f"{who(state, seat)} draws nothing now")
    if not counters or len(counters) > owed:
        fail(f"{who(state, seat)} draws {plural(owed, 'chip')} now")
    counters = chips_from_cup(data, state, counters)
    hand = state.hands[seat]
    state = set_hand(state, seat, replace(hand, counters=(*hand.counters, *counters)))
    state = evolve(state, cup=tuple(c for c in state.cup if c not in counters))
    ev.append(
        Event(
            "Drew",
            f"{who(state, seat)} draws {'a chip' if len(counters) == 1 else plural(len(counters), 'chip')}",
            {"seat": seat, "count": len(counters)},
        )
    )
    top = state.top
    if top is not None and top.purpose == "draw":
        left = top.count - len(counters)
        state = pop(state)
        return push(state, replace(top, count=left)) if left and state.cup else state
    turn = state.current
    if state.phase == TURN and turn is not None and turn.step == REINFORCE:
        return evolve(state, current=replace(turn, free_left=turn.free_left - len(counters), drawn=True))
    return state


def begin_turn(data: GameData, state: State, ev: list[Event]) -> State:
    """A new turn: victories announced (line 263)."""
    state = evolve(state, turn=state.turn + 1, step=MOVE_CARAVANS, current=None, traded=(), offer=None)
    announced = []
    for seat in range(state.seats):
        met = conditions_met(data, state, seat)
        if met:
            announced.append((seat, met))
            said = " and ".join(f"{c} victory" for c in met)
            ev.append(
                Event(
                    "VictoryAnnounced",
                    f"{who(state, seat)} announces {said}: hold it to the end of the turn!",
                    {"seat": seat},
                )
            )
    ev.append(Event("TurnBegun", f"Turn {state.turn}", {"turn": state.turn}))
    return evolve(state, announced=tuple(announced))


def order_turn(data: GameData, state: State, ev: list[Event]) -> State:
    """Turns after the first: the smallest total leader authority goes first; a tie is rolled off."""
    sums = [authority_in_play(data, state, seat) for seat in range(state.seats)]
    low = min(sums)
    tied = tuple(s for s in range(state.seats) if sums[s] == low)
    if len(tied) > 1:
        ev.append(
            Event(
                "RollForFirst", f"{' and '.join(who(state, s) for s in tied)} tie on authority: roll a d6", {}
            )
        )
        return evolve(state, phase=ROLLOFF, rolloff=RollOff("order", tied))
    return play_from(data, state, tied[0], ev)


def play_from(data: GameData, state: State, first: int, ev: list[Event]) -> State:
    """Step A, then the first player's B steps."""
    state = evolve(state, order=clockwise(state, first))
    ev.append(Event("CaravansMove", f"{STEP_NAMES[MOVE_CARAVANS]}", {}))
    state = move_caravans(data, state, ev)
    return start_player(data, state, first, ev)


def start_player(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    armies = tuple(
        replace(
            a,
            moved=False,
            attacked=False,
            levied=False,
            arrived=False,
            rampaged=False,
            struck=(),
            retreated=False,
        )
        if a.owner == seat
        else a
        for a in state.armies
    )
    state = evolve(state, armies=armies, step="B")
    turn = PlayerTurn(seat, PLACE_CARAVANS, held_at_start=held_territories(state, seat))
    ev.append(Event("PlayerTurn", f"{who(state, seat)}'s turn", {"seat": seat}))
    state = place_caravans(data, evolve(state, current=turn), seat, ev)
    return evolve(state, current=replace(turn, step=REINFORCE, free_left=data.rules.free_draws))


def done(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    """The player is done with the part of the turn the prompt names."""
    turn = state.current
    if state.step == TRADING:
        from companion.games.orcwars_too.trading import trading_done

        return trading_done(data, state, seat, ev)
    if turn is None or turn.seat != seat or state.stack or state.battle is not None:
        fail(f"It is not {who(state, seat)}'s part of the turn to end")
    if turn.step == REINFORCE:
        if draws_owed(data, state, seat):
            fail(f"Draw your {plural(turn.free_left, 'free reinforcement')} first")
        state = evolve(state, current=replace(turn, step=CAMPAIGN))
        for leader in lost_armies(state, seat):
            ev.append(
                Event(
                    "LostRoll", f"{data.name(leader)}'s army, lost in the dark: roll the d20 (no reroll)", {}
                )
            )
            state = push(state, Step("underground", seat, leader=leader, count=0))
        return state
    if turn.step == CAMPAIGN:
        return evolve(state, current=replace(turn, step=RAMPAGE))
    if turn.step == RAMPAGE:
        state = evolve(state, current=replace(turn, step=DISCARD))
        return produce_mines(data, state, seat, ev)
    fail(f"{who(state, seat)} discards down to {data.rules.hand_limit} units first")


def redraw(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    turn = state.current
    if turn is None or turn.seat != seat or turn.step != REINFORCE or state.stack:
        fail("A hand is redrawn at the start of the player's reinforcements")
    if leaders_anywhere(data, state, seat):
        fail(f"{who(state, seat)} has a leader: no redraw")
    if turn.drawn or turn.redraws >= data.rules.redraws:
        fail(f"No more redraws (at most {data.rules.redraws}, before drawing reinforcements)")
    hand = state.hands[seat]
    ev.append(
        Event(
            "Redrew",
            f"{who(state, seat)} shows a hand without leaders ({names(data, hand.counters)}) and draws anew",
            {},
        )
    )
    state = to_cup(set_hand(state, seat, replace(hand, counters=())), hand.counters)
    state = evolve(state, current=replace(turn, redraws=turn.redraws + 1))
    return push(state, Step("draw", seat, count=data.rules.redraw_size))


def buy(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    turn = state.current
    rules = data.rules
    if turn is None or turn.seat != seat or turn.step != REINFORCE or state.stack:
        fail("Units are bought with the reinforcements")
    if draws_owed(data, state, seat):
        fail("Draw the free reinforcements first")
    if not state.cup:
        fail("The tribe cup is empty")
    if turn.bought >= rules.extra_draws:
        fail(f"At most {rules.extra_draws} more units a turn")
    hand = state.hands[seat]
    if hand.gold < rules.extra_cost:
        fail(f"A unit costs {rules.extra_cost} gold; {who(state, seat)} has {hand.gold}")
    state = set_hand(state, seat, replace(hand, gold=hand.gold - rules.extra_cost))
    state = evolve(
        state, gold_pile=state.gold_pile + rules.extra_cost, current=replace(turn, bought=turn.bought + 1)
    )
    ev.append(
        Event("Bought", f"{who(state, seat)} pays {rules.extra_cost} gold for another unit", {"seat": seat})
    )
    return push(state, Step("draw", seat, count=1))


def discard(data: GameData, state: State, seat: int, counters: tuple[str, ...], ev: list[Event]) -> State:
    turn = state.current
    if turn is None or turn.seat != seat or turn.step != DISCARD or state.stack:
        fail("Hands are discarded down at B5")
    hand = state.hands[seat]
    if len(set(counters)) != len(counters) or any(c not in hand.counters for c in counters):
        fail(f"Name chips of {who(state, seat)}'s hand")
    kept = replace(hand, counters=tuple(c for c in hand.counters if c not in counters))
    # At the table the chips leave the hand one at a time: a discard may stop short of the limit (the
    # prompt stays until it is reached), never go below it.
    if (
        not counters
        or any(data.counter(c).kind not in UNIT_KINDS for c in counters)
        or unit_count(data, kept) < data.rules.hand_limit
    ):
        fail(f"Discard units down to {data.rules.hand_limit}, no further")
    ev.append(
        Event("Discarded", f"{who(state, seat)} discards {plural(len(counters), 'unit')}", {"seat": seat})
    )
    return to_cup(set_hand(state, seat, kept), counters)


def settle(data: GameData, state: State, ev: list[Event]) -> State:
    """The steps that need nobody: the end of a player's B steps, the end of the turn."""
    for _ in range(50):
        if state.finished or state.stack or state.battle is not None or state.phase != TURN:
            return state
        turn = state.current
        if state.step == TRADING:
            if state.offer is None and len(state.traded) == state.seats:
                state = end_turn(data, state, ev)
                continue
            return state
        if (
            turn is None
            or turn.step != DISCARD
            or unit_count(data, state.hands[turn.seat]) > data.rules.hand_limit
        ):
            return state
        state = next_player(data, state, ev)
    return state


def next_player(data: GameData, state: State, ev: list[Event]) -> State:
    turn = state.current
    assert turn is not None
    index = state.order.index(turn.seat)
    if index + 1 < len(state.order):
        return start_player(data, state, state.order[index + 1], ev)
    ev.append(Event("Trading", f"{STEP_NAMES[TRADING]}: chiefs with leaders side by side may trade", {}))
    return evolve(state, step=TRADING, current=None, traded=(), offer=None)


def end_turn(data: GameData, state: State, ev: list[Event]) -> State:
    for seat, hand in enumerate(state.hands):
        if hand.captives:
            ev.append(
                Event("Executed", f"{who(state, seat)} executes {names(data, hand.captives)}", {"seat": seat})
            )
            state = to_cup(set_hand(state, seat, replace(hand, captives=())), hand.captives)
    winners = []
    for seat, announced in state.announced:
        now = conditions_met(data, state, seat)
        if data.rules.end_condition == "same":
            now = tuple(c for c in now if c in announced)
        if now:
            winners.append((seat, now))
    if winners:
        # Read after "Bogrot wins: " (the result's outcome): the victory, then when.
        met_by = [" and ".join(c + " victory" for c in met) for _, met in winners]
        said = (
            met_by[0]
            if len(winners) == 1
            else " and ".join(f"{who(state, s)}'s {m}" for (s, _), m in zip(winners, met_by, strict=True))
        )
        return _over(state, tuple(s for s, _ in winners), f"{said} at the end of turn {state.turn}", ev)
    if state.turn_limit and state.turn >= state.turn_limit:
        scores = [points(data, state, s) for s in range(state.seats)]
        best = max(scores)
        top = tuple(s for s in range(state.seats) if scores[s] == best)
        reason = f"the most lands and fortresses when the turn limit ({state.turn_limit}) was reached"
        return _over(state, top, reason, ev)
    state = begin_turn(data, state, ev)
    return order_turn(data, state, ev)


def outcome(state: State, winners: tuple[int, ...], reason: str) -> str:
    """The game's last line, as the TV's title and the ticker say it: who won, and how."""
    names = " and ".join(state.names[s] for s in winners) or "Nobody"
    return f"{names} {'wins' if len(winners) == 1 else 'win'}: {reason}"


def _over(state: State, winners: tuple[int, ...], reason: str, ev: list[Event]) -> State:
    ev.append(Event("GameOver", outcome(state, winners, reason), {"winners": list(winners)}))
    return evolve(state, phase=OVER, finished=True, winners=winners, reason=reason, step="", current=None)


def correct_gold(data: GameData, state: State, seat: int, gold: int, ev: list[Event]) -> State:
    """A hand correction (the table is the truth): the gold pile gives or takes the difference."""
    hand = state.hands[seat]
    change = gold - hand.gold
    if gold < 0 or change > state.gold_pile:
        fail(
            f"The gold pile holds {state.gold_pile}: "
            f"{who(state, seat)} can have 0 to {hand.gold + state.gold_pile}"
        )
    ev.append(Event("Corrected", f"Correction: {who(state, seat)} has {gold} gold", {"seat": seat}))
    state = set_hand(state, seat, replace(hand, gold=gold))
    return evolve(state, gold_pile=state.gold_pile - change)


def clockwise(state: State, first: int) -> tuple[int, ...]:
    return tuple((first + i) % state.seats for i in range(state.seats))
