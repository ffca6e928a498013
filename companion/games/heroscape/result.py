"""A HeroScape game's result in the platform's one typed form (``companion.engine.GameResult``).

The scenario's victory condition names the winners (``State.winners``: a whole team wins together);
the points on the battlefield (rulebook, Scoring) rank everyone else, and rank everyone while the
battle is still on (the standings if it ended now, as at the round limit: "the player or team with
the most points wins"). A battle nobody won ("the last figures fell together") ranks every seat 1
with no winner.
"""

from __future__ import annotations

from companion.engine import GameResult, PlayerId, Standing, ranks_by_points
from companion.games.heroscape.catalog import Catalog
from companion.games.heroscape.common import team_of, who
from companion.games.heroscape.scoring import points_on_battlefield
from companion.games.heroscape.state import State

POINTS = "points on the battlefield"


def result(cat: Catalog, state: State) -> GameResult:
    points = points_on_battlefield(cat, state)
    seats = range(state.seats)
    if state.finished:
        winners = tuple(PlayerId(s) for s in state.winners)
        others = [s for s in seats if s not in winners]
        below = ranks_by_points([points[s] for s in others])
        ranks = {s: 1 for s in winners} if winners else {s: 1 for s in seats}
        if winners:
            ranks.update({s: len(winners) + rank for s, rank in zip(others, below, strict=True)})
        names = " & ".join(who(state, s) for s in winners)
        verb = "win" if len(winners) > 1 else "wins"
        outcome = f"{names} {verb}: {state.reason}" if winners else f"No winner: {state.reason}"
    else:
        by_points = ranks_by_points(points)
        ranks = dict(zip(seats, by_points, strict=True))
        winners = tuple(PlayerId(s) for s in seats if ranks[s] == 1) if state.started else ()
        best = max(points, default=0.0)
        leaders = " & ".join(who(state, s) for s in winners)
        outcome = f"Most points on the battlefield: {leaders} ({best:g})" if winners else ""
    standings = tuple(
        Standing(
            seat=PlayerId(s),
            name=who(state, s),
            rank=ranks[s],
            points=points[s],
            details={"figures_standing": _figures(state, s), "out": state.sides[s].out},
            team=team_of(state, s) if len(set(state.teams)) < state.seats else None,
        )
        for s in seats
    )
    return GameResult(
        final=state.finished,
        winners=winners,
        standings=standings,
        points_label=POINTS,
        outcome=outcome,
        details={"reason": state.reason, "scenario": state.scenario},
    )


def _figures(state: State, seat: int) -> int:
    return sum(len(unit.living()) for _, unit in state.units_of(seat))
