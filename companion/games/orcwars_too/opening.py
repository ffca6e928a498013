"""The opening: a new game's checks, the setup (1-2 bosses, units drawn to six, units traded for gold one
for one, caravans drawn placed at once) and the roll for who starts (rulebook lines 6-9, 31)."""

from __future__ import annotations

from dataclasses import replace

from companion.engine import Event, Setup, SetupError
from companion.games.orcwars_too.common import (
    fail,
    names,
    plural,
    to_cup,
    who,
)
from companion.games.orcwars_too.counters import GameData, Kind
from companion.games.orcwars_too.economy import (
    SETUP_HAND,
    gold_step,
)
from companion.games.orcwars_too.state import (
    ROLLOFF,
    SETUP,
    TURN,
    Hand,
    RollOff,
    SetupSeat,
    State,
    evolve,
    push,
    set_hand,
)
from companion.games.orcwars_too.turns import begin_turn, draws_owed, play_from

MAX_TURN_LIMIT = 99


def new_game(data: GameData, setup: Setup) -> State:
    count = len(setup.players)
    rules = data.rules
    if not rules.min_players <= count <= rules.max_players:
        raise SetupError(
            f"ORCWARS TOO! is for {rules.min_players} to {rules.max_players} players, not {count}"
        )
    names_ = tuple(p.name for p in setup.players)
    if len(set(names_)) != count:
        raise SetupError("every player needs a different name")
    known = {"turn_limit"}
    unknown = set(dict(setup.options)) - known
    if unknown:
        raise SetupError(f"unknown options: {', '.join(sorted(unknown))} (known: turn_limit)")
    limit = setup.option("turn_limit", 0)
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= MAX_TURN_LIMIT:
        raise SetupError(f"turn_limit must be a whole number from 0 (none) to {MAX_TURN_LIMIT}")
    return State(
        names=names_,
        colours=tuple(p.colour for p in setup.players),
        turn_limit=limit,
        setups=tuple(SetupSeat() for _ in range(count)),
        cup=tuple(sorted(c.id for c in data.counters)),
        gold_pile=data.gold_chips,
        caravan_pile=tuple(sorted(c.id for c in data.caravans)),
        hands=tuple(Hand() for _ in range(count)),
    )


def take_bosses(data: GameData, state: State, seat: int, leaders: tuple[str, ...], ev: list[Event]) -> State:
    low, high = data.rules.bosses
    hand = state.hands[seat]
    # At the table the bosses are laid on the hand one at a time: a second may follow the first as long as
    # nothing was drawn yet (the hand holds the first boss alone).
    more = state.phase == SETUP and state.setups[seat].stage == "draw" and _only_bosses(data, hand.counters)
    if state.phase != SETUP or (state.setups[seat].stage != "bosses" and not more):
        fail("Bosses are taken once, at the start of the game")
    taken = len(hand.counters) if more else 0
    if not low <= taken + len(leaders) <= high or len(set(leaders)) != len(leaders):
        fail(f"Take {low} to {high} different leaders as bosses")
    for leader in leaders:
        if (
            not data.has_counter(leader)
            or data.counter(leader).kind is not Kind.LEADER
            or leader not in state.cup
        ):
            fail(
                f"{data.name(leader) if data.has_counter(leader) else repr(leader)} "
                "is no leader left in the tribe cup"
            )
    state = set_hand(state, seat, replace(hand, counters=(*hand.counters, *leaders)))
    state = evolve(state, cup=tuple(c for c in state.cup if c not in leaders))
    ev.append(
        Event(
            "Bosses",
            f"{who(state, seat)} takes {names(data, leaders)} as "
            + ("a boss" if len(leaders) == 1 else "bosses"),
            {"seat": seat},
        )
    )
    return _set_stage(state, seat, "draw")


def _only_bosses(data: GameData, hand: tuple[str, ...]) -> bool:
    """The hand holds the bosses taken and nothing drawn: leaders only, fewer than the most bosses."""
    return (
        bool(hand)
        and len(hand) < data.rules.bosses[1]
        and all(data.counter(c).kind is Kind.LEADER for c in hand)
    )


def _set_stage(state: State, seat: int, stage: str) -> State:
    setups = list(state.setups)
    setups[seat] = SetupSeat(stage)
    return evolve(state, setups=tuple(setups))


def trade_for_gold(
    data: GameData, state: State, seat: int, counters: tuple[str, ...], ev: list[Event]
) -> State:
    if (
        state.phase != SETUP
        or state.setups[seat].stage not in ("draw", "trade")
        or draws_owed(data, state, seat)
    ):
        fail("Units are traded for gold in the setup, once the hand is drawn")
    hand = state.hands[seat]
    if not counters or len(set(counters)) != len(counters) or any(c not in hand.counters for c in counters):
        fail(f"Name chips of {who(state, seat)}'s hand to trade")
    state = set_hand(
        state, seat, replace(hand, counters=tuple(c for c in hand.counters if c not in counters))
    )
    state = to_cup(state, counters)
    ev.append(
        Event(
            "TradedForGold",
            f"{who(state, seat)} trades {plural(len(counters), 'unit')} for gold",
            {"seat": seat},
        )
    )
    return push(_set_stage(state, seat, "trade"), gold_step(seat, len(counters), SETUP_HAND))


def setup_done(data: GameData, state: State, seat: int, ev: list[Event]) -> State:
    if state.setups[seat].stage == "ready":
        fail(f"{who(state, seat)} is ready")
    if state.setups[seat].stage == "bosses" or draws_owed(data, state, seat) or state.stack:
        fail(f"{who(state, seat)} takes bosses and draws to {data.rules.setup_units} first")
    ev.append(Event("Ready", f"{who(state, seat)} is ready", {"seat": seat}))
    state = _set_stage(state, seat, "ready")
    if all(s.stage == "ready" for s in state.setups):
        ev.append(Event("RollForFirst", "Everyone rolls a d6: the highest starts the game", {}))
        return evolve(state, phase=ROLLOFF, rolloff=RollOff("start", tuple(range(state.seats))))
    return state


def rolled_off(data: GameData, state: State, roller: int, face: int, ev: list[Event]) -> State:
    """A d6 of the roll for who goes first: every contender throws at once, each his own die (a die
    entered for the table by someone not rolling counts for the first still to roll)."""
    rolloff = state.rolloff
    assert rolloff is not None
    seat = roller if roller in rolloff.waiting else rolloff.waiting[0]
    rolloff = replace(rolloff, rolls=(*rolloff.rolls, (seat, face)))
    ev.append(Event("RolledOff", f"{who(state, seat)} rolls {face}", {"seat": seat, "roll": face}))
    if rolloff.waiting:
        return evolve(state, rolloff=rolloff)
    best = max(r for _, r in rolloff.rolls)
    tied = tuple(s for s, r in rolloff.rolls if r == best)
    if len(tied) > 1:
        ev.append(Event("RollOffTied", f"{' and '.join(who(state, s) for s in tied)} tie and roll again", {}))
        return evolve(state, rolloff=RollOff(rolloff.purpose, tied))
    first = tied[0]
    ev.append(Event("FirstPlayer", f"{who(state, first)} goes first", {"seat": first}))
    state = evolve(state, rolloff=None, phase=TURN)
    if rolloff.purpose == "start":
        state = begin_turn(data, state, ev)
    return play_from(data, state, first, ev)
