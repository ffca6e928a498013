"""Roll-offs players ask for: the rulebook settles two things by the 20-sided die that the engine cannot
judge, a Line of Sight dispute ("the high roller wins the dispute") and Simultaneous Special Powers
("roll the 20-sided die to see who gets to use them first").

A player starts one from the phone naming the opponent; both roll the d20 (the one who asked first),
ties roll again as initiative does, and the winner is recorded. A roll-off waits on top of whatever the
table was doing and changes nothing else: when it is settled the game goes on exactly where it was.
"""

from __future__ import annotations

from companion.engine import Event
from companion.games.heroscape.common import fail, malformed, opponents, who
from companion.games.heroscape.state import Contest, ContestResult, State, evolve, pop, push, replace_top

TOPICS = {
    "line-of-sight": "Line of sight",
    "simultaneous-powers": "Simultaneous powers",
}
"""What players may roll off about, with the name the TV and phones give it."""


def topics(state: State) -> dict[str, str]:
    """The roll-offs this game may ask for (the Basic Game has no special powers)."""
    return {k: v for k, v in TOPICS.items() if not (state.basic and k == "simultaneous-powers")}


def can_start(state: State) -> bool:
    """Roll-offs settle things during the battle, one at a time."""
    return state.started and not state.finished and not isinstance(state.top, Contest)


def start(state: State, seat: int, opponent: int, about: str, ev: list[Event]) -> State:
    if not 0 <= opponent < state.seats:  # seats count from 0, as the action's player does
        malformed(f"dispute.opponent: there is no seat {opponent} (0 to {state.seats - 1})")
    if about not in topics(state):
        known = ", ".join(topics(state))
        fail(f"There is no roll-off about {about!r} in this game (there are: {known})")
    if not state.started or state.finished:
        fail("Roll-offs settle disputes during the battle")
    if isinstance(state.top, Contest):
        fail(f"{TOPICS[state.top.about]}: finish the roll-off under way first")
    if not opponents(state, seat, opponent):
        fail(f"{who(state, opponent)} is not {who(state, seat)}'s opponent: a roll-off is between opponents")
    for player in (seat, opponent):
        if state.sides[player].out:
            fail(f"{who(state, player)} is out of the game")
    ev.append(
        Event(
            "RollOffAsked",
            f"{TOPICS[about]}: {who(state, seat)} and {who(state, opponent)} roll the d20, "
            f"and the higher roll wins",
            {"about": about, "seats": [seat, opponent]},
        )
    )
    return push(state, Contest(about, (seat, opponent)))


def rolled(state: State, contest: Contest, seat: int, value: int, ev: list[Event]) -> State:
    """One player's d20 for the roll-off on top of the stack."""
    contest = Contest(contest.about, contest.contenders, (*contest.rolls, (seat, value)), contest.again)
    ev.append(Event("RolledOff", f"{who(state, seat)} rolls {value}", {"seat": seat, "roll": value}))
    if contest.waiting:
        return replace_top(state, contest)
    best = max(v for _, v in contest.rolls)
    tied = [s for s, v in contest.rolls if v == best]
    if len(tied) > 1:
        names = " and ".join(who(state, s) for s in tied)
        ev.append(Event("RollOffTied", f"{TOPICS[contest.about]}: {names} tie at {best} and roll again", {}))
        return replace_top(state, Contest(contest.about, contest.contenders, again=True))
    winner = tied[0]
    loser, low = next((s, v) for s, v in contest.rolls if s != winner)
    result = ContestResult(contest.about, winner, loser, (best, low), (state.round, state.turn_index))
    ev.append(
        Event(
            "RollOffWon",
            settled(state, result),
            {"about": contest.about, "winner": winner, "loser": loser, "rolls": [best, low]},
        )
    )
    return evolve(pop(state), last_contest=result)


def settled(state: State, result: ContestResult) -> str:
    """ "Line of sight: Ugluk wins 17–9" (the deciding rolls, the winner's first)."""
    high, low = result.rolls
    return f"{TOPICS[result.about]}: {who(state, result.winner)} wins {high}–{low}"
