"""The hall's event: a league or a tournament of one game (players, rounds, pairings, results).

Immutable: every change returns a new ``Tournament`` (the hall keeps the latest and saves it as JSON).
A confirmed result joins the event when every one of its players is a player of the event (names are
matched as people type them: case, spaces and curly quotes aside); in a round with pairings it counts
for the pairing that seats the same players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from companion.engine import JSON
from companion.hall.standings import GameRecord, Row, standings
from companion.hall.swiss import Pairings, swiss_pairings
from companion.names import name_key

Format = Literal["swiss", "league"]
MAX_PLAYERS = 512


class TournamentError(ValueError):
    """A change the event refuses (a name twice, a result of players it does not know...)."""


@dataclass(frozen=True)
class Round:
    number: int
    tables: tuple[tuple[str, ...], ...]
    hall_tables: tuple[str, ...] = ()
    """The hall's table id each pairing plays at (same order as ``tables``; empty when not assigned)."""
    bye: str | None = None

    def to_json(self) -> dict[str, JSON]:
        return {
            "number": self.number,
            "tables": [list(t) for t in self.tables],
            "hall_tables": list(self.hall_tables),
            "bye": self.bye,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Round:
        return cls(
            int(data["number"]),
            tuple(tuple(str(p) for p in t) for t in data["tables"]),
            tuple(str(t) for t in data.get("hall_tables") or ()),
            None if data.get("bye") is None else str(data["bye"]),
        )


@dataclass(frozen=True)
class Tournament:
    name: str
    game: str
    players: tuple[str, ...]
    rounds_planned: int = 3
    seats: int = 2
    min_seats: int = 2
    format: Format = "swiss"
    rounds: tuple[Round, ...] = ()
    records: tuple[GameRecord, ...] = field(default=())

    @classmethod
    def create(
        cls,
        name: str,
        game: str,
        players: Sequence[str],
        rounds: int = 3,
        seats: int = 2,
        min_seats: int = 2,
        format: str = "swiss",
    ) -> Tournament:
        cleaned = [" ".join(str(p).split()) for p in players if str(p).strip()]
        if not 2 <= len(cleaned) <= MAX_PLAYERS:
            raise TournamentError(f"an event needs 2 to {MAX_PLAYERS} players")
        if any(len(p) > 32 for p in cleaned):
            raise TournamentError("a player's name is longer than 32 characters")
        keys = [name_key(p) for p in cleaned]
        if len(set(keys)) != len(keys):
            twice = next(p for p, k in zip(cleaned, keys, strict=True) if keys.count(k) > 1)
            raise TournamentError(f"{twice} is listed twice")
        if format not in ("swiss", "league"):
            raise TournamentError("the format is swiss or league")
        if not 1 <= rounds <= 30 or not 2 <= seats <= 8 or not 1 <= min_seats <= seats:
            raise TournamentError("rounds 1-30, seats 2-8 and at least 1 player at a table")
        if not name.strip() or len(name) > 80:
            raise TournamentError("the event needs a name of at most 80 characters")
        return cls(name.strip(), game, tuple(cleaned), rounds, seats, min_seats, format)  # type: ignore[arg-type]

    # -- reading ------------------------------------------------------------------------------

    @property
    def current_round(self) -> int:
        return self.rounds[-1].number if self.rounds else 0

    @property
    def byes(self) -> list[str]:
        return [r.bye for r in self.rounds if r.bye]

    def standings(self) -> list[Row]:
        return standings(self.players, self.records, self.byes)

    def met(self) -> dict[str, set[str]]:
        """Everyone each player sat with, in played games and in paired rounds."""
        met: dict[str, set[str]] = {p: set() for p in self.players}
        groups = [r.players for r in self.records] + [t for rnd in self.rounds for t in rnd.tables]
        known = {name_key(p): p for p in self.players}
        for group in groups:
            seated = [known[name_key(p)] for p in group if name_key(p) in known]
            for player in seated:
                met[player].update(o for o in seated if o != player)
        return met

    def player_named(self, name: str) -> str | None:
        key = name_key(name)
        return next((p for p in self.players if name_key(p) == key), None)

    # -- changing -----------------------------------------------------------------------------

    def next_round(self, hall_tables: Sequence[str] = ()) -> Tournament:
        """Pairs the next round (Swiss, by the standings) and assigns its tables to ``hall_tables`` in
        order (the first pairing to the first table). PairingError when no seating avoids rematches."""
        if self.format != "swiss":
            raise TournamentError("a league has no pairings: its players play whom they like")
        if len(self.rounds) >= self.rounds_planned:
            raise TournamentError(f"all {self.rounds_planned} rounds are paired")
        order = [row.player for row in self.standings()]
        pairings: Pairings = swiss_pairings(order, self.met(), self.seats, self.min_seats, set(self.byes))
        assigned = (
            tuple(hall_tables[: len(pairings.tables)]) if len(hall_tables) >= len(pairings.tables) else ()
        )
        new = Round(self.current_round + 1, pairings.tables, assigned, pairings.bye)
        return replace(self, rounds=(*self.rounds, new))

    def record(self, record: GameRecord) -> Tournament:
        """The event with ``record`` (replacing an earlier result of the same game), its names as the
        event spells them and its round found; TournamentError when it is not this event's game."""
        seated = [self.player_named(p) for p in record.players]
        unknown = [p for p, s in zip(record.players, seated, strict=True) if s is None]
        if unknown:
            raise TournamentError(f"not players of {self.name}: {', '.join(unknown)}")
        names = tuple(s for s in seated if s is not None)
        round_number = self._round_of(names, record.table)
        if self.format == "swiss" and round_number == 0:
            raise TournamentError(f"{', '.join(names)} are not paired together in round {self.current_round}")
        kept = tuple(r for r in self.records if r.key != record.key)
        if self.format == "swiss":
            kept = self._one_result_per_pairing(kept, names, round_number, record.table)
        return replace(self, records=(*kept, replace(record, players=names, round=round_number)))

    def _one_result_per_pairing(
        self, kept: tuple[GameRecord, ...], names: tuple[str, ...], round_number: int, table: str
    ) -> tuple[GameRecord, ...]:
        """A Swiss pairing has one result per round: a second game of the same players (a rematch for
        fun, or a table publishing a game it never hosted) would count twice. The first confirmed
        counts, except that the result of the table the pairing was assigned to replaces one from
        elsewhere (a table that forged it); TournamentError otherwise, for the organiser to strike."""
        wanted = sorted(name_key(n) for n in names)
        same = [
            r for r in kept if r.round == round_number and sorted(name_key(p) for p in r.players) == wanted
        ]
        if not same:
            return kept
        rnd = next(r for r in self.rounds if r.number == round_number)
        groups = [sorted(name_key(p) for p in group) for group in rnd.tables]
        assigned = rnd.hall_tables[groups.index(wanted)] if rnd.hall_tables and wanted in groups else None
        if assigned == table and all(r.table != assigned for r in same):
            return tuple(r for r in kept if r not in same)
        first = same[0]
        raise TournamentError(
            f"{', '.join(names)} have a result in round {round_number} already (table {first.table},"
            f" game #{first.game_id}): strike it to count another"
        )

    def unrecord(self, table: str, log: str, game_id: int) -> Tournament:
        return replace(self, records=tuple(r for r in self.records if r.key != (table, log, game_id)))

    def _round_of(self, names: tuple[str, ...], table: str) -> int:
        wanted = sorted(name_key(n) for n in names)
        for rnd in reversed(self.rounds):
            for group in rnd.tables:
                if sorted(name_key(p) for p in group) == wanted:
                    return rnd.number
        return self.current_round if self.format == "league" else 0

    # -- saving -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "game": self.game,
            "players": list(self.players),
            "rounds_planned": self.rounds_planned,
            "seats": self.seats,
            "min_seats": self.min_seats,
            "format": self.format,
            "rounds": [r.to_json() for r in self.rounds],
            "records": [r.to_json() for r in self.records],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Tournament:
        return cls(
            name=str(data["name"]),
            game=str(data["game"]),
            players=tuple(str(p) for p in data["players"]),
            rounds_planned=int(data.get("rounds_planned", 3)),
            seats=int(data.get("seats", 2)),
            min_seats=int(data.get("min_seats", 2)),
            format=data.get("format", "swiss"),
            rounds=tuple(Round.from_json(r) for r in data.get("rounds") or ()),
            records=tuple(GameRecord.from_json(r) for r in data.get("records") or ()),
        )


def record_from_result(table: str, body: Mapping[str, Any], confirmed_by: str = "players") -> GameRecord:
    """A ``GameRecord`` from a checked result message (``companion.hall.messages``)."""
    result = body["result"]
    standings = sorted(result["standings"], key=lambda s: s["seat"])
    return GameRecord(
        round=0,
        table=table,
        game_id=int(body["game_id"]),
        log=str(body["log"]),
        players=tuple(str(p) for p in body["players"]),
        ranks=tuple(int(s["rank"]) for s in standings),
        points=tuple(None if s.get("points") is None else float(s["points"]) for s in standings),
        winners=tuple(int(s) for s in result.get("winners") or ()),
        tie=bool(result.get("tie", False)),
        cooperative=bool(result.get("cooperative", False)),
        higher_is_better=bool(result.get("higher_is_better", True)),
        confirmed_by=confirmed_by,
        outcome=str(result.get("outcome", ""))[:200],
    )
