"""Swiss pairings for the next round: players of about the same standing meet, and nobody meets a
player they already met (at any table of any earlier round).

Tables hold ``seats`` players (at least ``min_seats``; a 2-player game pairs, a 4-player game seats
four together). When the players cannot be seated in tables of allowed sizes (an odd number in a
2-player game), the lowest-ranked player who has not had a bye gets one (it counts as a win). The
search walks the standings top down and backtracks, so it finds a seating without rematches whenever
one exists within its step budget; otherwise ``PairingError`` says so and the organiser decides.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

STEP_BUDGET = 200_000
"""Search steps before giving up (a round of 100 players needs a few hundred when pairings exist)."""


class PairingError(ValueError):
    """No seating of the next round avoids every rematch (or the search ran out of steps)."""


@dataclass(frozen=True)
class Pairings:
    tables: tuple[tuple[str, ...], ...]
    """Each table's players, best-ranked table first."""
    bye: str | None = None


def table_sizes(players: int, seats: int, min_seats: int) -> tuple[int, ...] | None:
    """The fewest tables of ``min_seats`` to ``seats`` players that seat exactly ``players``, as equal
    as can be (largest first); None when no such split exists."""
    if players == 0:
        return ()
    for tables in range(math.ceil(players / seats), players // min_seats + 1):
        base, extra = divmod(players, tables)
        if min_seats <= base and base + (1 if extra else 0) <= seats:
            return tuple([base + 1] * extra + [base] * (tables - extra))
    return None


class _Search:
    def __init__(self, met: Mapping[str, set[str]]) -> None:
        self.met = met
        self.steps = 0

    def fresh(self, player: str, others: Sequence[str]) -> bool:
        seen = self.met.get(player, set())
        return not any(other in seen for other in others)

    def seat(self, left: list[str], sizes: Sequence[int]) -> list[tuple[str, ...]] | None:
        """Tables for ``left`` (in standings order) of ``sizes``; None when none avoids rematches."""
        if not left:
            return []
        self.steps += 1
        if self.steps > STEP_BUDGET:
            raise PairingError("the pairing search ran out of steps: too few fresh opponents are left")
        first, rest = left[0], left[1:]
        for group in self._companions(first, rest, sizes[0] - 1, ()):
            remaining = [p for p in rest if p not in group]
            tables = self.seat(remaining, sizes[1:])
            if tables is not None:
                return [(first, *group), *tables]
        return None

    def _companions(
        self, first: str, pool: list[str], count: int, chosen: tuple[str, ...]
    ) -> Iterator[tuple[str, ...]]:
        """Groups of ``count`` players from ``pool`` (nearest in the standings first) who have met
        neither ``first`` nor each other."""
        if count == 0:
            yield chosen
            return
        for index, candidate in enumerate(pool):
            if self.fresh(candidate, (first, *chosen)):
                yield from self._companions(first, pool[index + 1 :], count - 1, (*chosen, candidate))


def swiss_pairings(
    order: Sequence[str],
    met: Mapping[str, set[str]],
    seats: int = 2,
    min_seats: int = 2,
    had_bye: set[str] | frozenset[str] = frozenset(),
) -> Pairings:
    """The next round for the players in ``order`` (the standings, best first); ``met[p]`` is everyone
    ``p`` already sat with. Raises PairingError when no seating avoids a rematch."""
    if seats < 2 or not 1 <= min_seats <= seats:
        raise ValueError("a table seats at least 2, and min_seats is between 1 and seats")
    if len(set(order)) != len(order):
        raise ValueError("a player is listed twice")
    search = _Search(met)
    players = list(order)
    sizes = table_sizes(len(players), seats, min_seats)
    if sizes is not None:
        tables = search.seat(players, sizes)
        if tables is not None:
            return Pairings(tuple(tables))
        raise PairingError("every seating of this round would repeat a game already played")
    sizes = table_sizes(len(players) - 1, seats, min_seats)
    if sizes is None:
        raise PairingError(f"{len(players)} players cannot be seated at tables of {min_seats} to {seats}")
    # The bye goes to the lowest-ranked player who has not had one (then to anyone, lowest first).
    candidates = [p for p in reversed(players) if p not in had_bye] + [
        p for p in reversed(players) if p in had_bye
    ]
    for bye in candidates:
        tables = search.seat([p for p in players if p != bye], sizes)
        if tables is not None:
            return Pairings(tuple(tables), bye)
    raise PairingError("every seating of this round would repeat a game already played")
