"""Standings of a league or tournament from its recorded games, with the usual tie-breaks:

1. **wins**: a game won alone counts 1, a first place shared with others (a tie) 1/2, a bye 1; in a
   co-operative game every player of a winning party wins;
2. **strength of schedule**: the mean, over every opponent met in every game (byes aside), of that
   opponent's win rate (wins per game played, byes aside): beating strong players counts more;
3. **the game's own points** over all games (Chaos Marauders VP, HeroScape points destroyed), more is
   better unless the game ranks fewer points higher.

Players equal on all three share a rank. Pure: the same records give the same table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.engine import JSON
from companion.names import name_key


@dataclass(frozen=True)
class GameRecord:
    """One confirmed game of the event: who sat where and how the game ranked them."""

    round: int
    """The event's round it counts for (0: played outside any round)."""
    table: str
    game_id: int
    log: str
    players: tuple[str, ...]
    """The event's players in seat order."""
    ranks: tuple[int, ...]
    points: tuple[float | None, ...]
    winners: tuple[int, ...]
    tie: bool = False
    cooperative: bool = False
    higher_is_better: bool = True
    confirmed_by: str = "players"
    """"players" (every seat confirmed on its phone) or "organiser" (on the hall page)."""
    outcome: str = ""

    @property
    def key(self) -> tuple[str, str, int]:
        """A game is one record however often its result arrives."""
        return (self.table, self.log, self.game_id)

    def win_value(self, seat: int) -> float:
        if seat not in self.winners:
            return 0.0
        return 0.5 if self.tie and not self.cooperative else 1.0

    def to_json(self) -> dict[str, JSON]:
        return {
            "round": self.round,
            "table": self.table,
            "game_id": self.game_id,
            "log": self.log,
            "players": list(self.players),
            "ranks": list(self.ranks),
            "points": list(self.points),
            "winners": list(self.winners),
            "tie": self.tie,
            "cooperative": self.cooperative,
            "higher_is_better": self.higher_is_better,
            "confirmed_by": self.confirmed_by,
            "outcome": self.outcome,
        }

    @classmethod
    def from_json(cls, data: dict[str, JSON]) -> GameRecord:
        return cls(
            round=int(data["round"]),  # type: ignore[arg-type]
            table=str(data["table"]),
            game_id=int(data["game_id"]),  # type: ignore[arg-type]
            log=str(data["log"]),
            players=tuple(str(p) for p in data["players"]),  # type: ignore[union-attr]
            ranks=tuple(int(r) for r in data["ranks"]),  # type: ignore[union-attr, arg-type]
            points=tuple(None if p is None else float(p) for p in data["points"]),  # type: ignore[union-attr, arg-type]
            winners=tuple(int(s) for s in data["winners"]),  # type: ignore[union-attr, arg-type]
            tie=bool(data.get("tie", False)),
            cooperative=bool(data.get("cooperative", False)),
            higher_is_better=bool(data.get("higher_is_better", True)),
            confirmed_by=str(data.get("confirmed_by", "players")),
            outcome=str(data.get("outcome", "")),
        )


@dataclass(frozen=True)
class Row:
    """One player's line in the standings."""

    rank: int
    player: str
    wins: float
    games: int
    byes: int
    sos: float
    points: float
    opponents: tuple[str, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, JSON]:
        return {
            "rank": self.rank,
            "player": self.player,
            "wins": self.wins,
            "games": self.games,
            "byes": self.byes,
            "sos": round(self.sos, 4),
            "points": self.points,
        }


def standings(players: Sequence[str], records: Iterable[GameRecord], byes: Iterable[str] = ()) -> list[Row]:
    """The event's table: every player, best first (see the module's docstring for the order)."""
    keys = {name_key(p): p for p in players}
    wins = {p: 0.0 for p in players}
    games = dict.fromkeys(players, 0)
    bye_count = dict.fromkeys(players, 0)
    points = {p: 0.0 for p in players}
    met: dict[str, list[str]] = {p: [] for p in players}
    higher_is_better = True
    for record in records:
        higher_is_better = record.higher_is_better
        seated = [keys.get(name_key(name)) for name in record.players]
        for seat, player in enumerate(seated):
            if player is None:
                continue  # a name the event does not know (edited since): counted for nobody
            games[player] += 1
            wins[player] += record.win_value(seat)
            value = record.points[seat] if seat < len(record.points) else None
            points[player] += value or 0.0
            met[player].extend(other for other in seated if other is not None and other != player)
    for name in byes:
        player = keys.get(name_key(name))
        if player is not None:
            bye_count[player] += 1
            wins[player] += 1.0
    rate = {
        p: (wins[p] - bye_count[p]) / games[p] if games[p] else 0.0 for p in players
    }  # byes aside: a bye says nothing about how strong a player is
    sos = {p: sum(rate[o] for o in met[p]) / len(met[p]) if met[p] else 0.0 for p in players}
    sign = 1.0 if higher_is_better else -1.0

    def order(player: str) -> tuple[float, float, float, str]:
        return (-wins[player], -round(sos[player], 9), -sign * points[player], name_key(player))

    ranked = sorted(players, key=order)
    rows: list[Row] = []
    for index, player in enumerate(ranked):
        same = rows and order(ranked[index - 1])[:3] == order(player)[:3]
        rank = rows[-1].rank if same else index + 1
        rows.append(
            Row(
                rank,
                player,
                wins[player],
                games[player],
                bye_count[player],
                sos[player],
                points[player],
                tuple(met[player]),
            )
        )
    return rows
