"""A Chaos Marauders game's result in the platform's one typed form (``companion.engine.GameResult``).

The same conversion serves the engine (``ChaosMarauders.result``: the game being played, or over)
and ``companion score`` (a finished table from a layout file): seats ranked by their Victory Points,
the top total winning (rulebook: "the player with the most Victory Points is the winner"), each
seat's breakdown (lines, bonuses, booty, the Idol) as its details.
"""

from __future__ import annotations

from companion.engine import GameResult, PlayerId, Standing, ranks_by_points
from companion.games.chaos_marauders.facts import Facts
from companion.games.chaos_marauders.scoring import (
    IdolRollsError,
    PlayerScore,
    TableScore,
    Tribe,
    score_table,
    score_tribe,
)
from companion.games.chaos_marauders.state import State
from companion.games.chaos_marauders.targets import idol_holder

POINTS = "VP"
"""Victory Points (rulebook, Victory Point Chart)."""


def table_result(table: TableScore, final: bool = True) -> GameResult:
    """The typed result of a scored table (seats in order)."""
    totals = [player.total for player in table.players]
    ranks = ranks_by_points(totals)
    standings = tuple(
        Standing(
            seat=PlayerId(seat),
            name=player.name,
            rank=ranks[seat],
            points=player.total,
            details={k: v for k, v in player.to_json().items() if k not in ("name", "total")},
        )
        for seat, player in enumerate(table.players)
    )
    winners = tuple(PlayerId(seat) for seat in table.winners)
    return GameResult(
        final=final,
        winners=winners,
        standings=standings,
        points_label=POINTS,
        outcome=_outcome(table, final),
    )


def _outcome(table: TableScore, final: bool) -> str:
    names = [table.players[seat].name for seat in table.winners]
    best = table.players[table.winners[0]].total if table.winners else 0
    if not final:
        return f"{' & '.join(names)} {'lead' if len(names) > 1 else 'leads'} with {best} {POINTS}"
    if len(names) > 1:
        return f"A tie: {' & '.join(names)} with {best} {POINTS} each"
    return f"{names[0]} wins with {best} {POINTS}"


def result(f: Facts, state: State) -> GameResult:
    """The game's result: final once it is over, else the standings if it ended now (an Idol still
    awaiting its rolls counts nothing yet)."""
    tribes = [Tribe(state.names[s], tuple(state.boards[s])) for s in range(state.seats)]
    holder = idol_holder(f, state)
    rolls = state.idol_faces if state.idol_faces is not None else None
    if state.finished:
        table = score_table(
            tribes,
            f.catalog,
            first_to_complete=state.first_to_complete,
            idol_rolls={holder: rolls} if holder is not None and rolls is not None else None,
        )
        return table_result(table, final=True)
    scores = tuple(
        provisional_score(f, tribe, state.first_to_complete == seat, rolls if holder == seat else None)
        for seat, tribe in enumerate(tribes)
    )
    best = max(score.total for score in scores)
    winners = tuple(seat for seat, score in enumerate(scores) if score.total == best)
    return table_result(TableScore(scores, winners), final=False)


_MEMO_LIMIT = 256
"""Tribes remembered: a view needs the current boards (and undo the last few), never old games."""


def provisional_score(f: Facts, tribe: Tribe, first: bool, rolls: tuple[str, ...] | None) -> PlayerScore:
    """A tribe's breakdown as if the game ended now: an Idol whose six rolls are not all in scores 0.
    Remembered by what decides it (``Facts.provisional_scores``)."""
    key = (tribe, first, rolls)
    score = f.provisional_scores.get(key)
    if score is None:
        if len(f.provisional_scores) > _MEMO_LIMIT:
            f.provisional_scores.clear()
        score = f.provisional_scores[key] = _provisional_score(f, tribe, first, rolls)
    return score  # type: ignore[no-any-return]


def _provisional_score(f: Facts, tribe: Tribe, first: bool, rolls: tuple[str, ...] | None) -> PlayerScore:
    try:
        return score_tribe(tribe, f.catalog, first_to_complete=first, idol_rolls=rolls)
    except IdolRollsError:
        score = score_tribe(tribe, f.catalog, first_to_complete=first, idol_rolls=("eye",) * 6)
        return PlayerScore(score.name, score.lines, 0, score.first_to_complete)
