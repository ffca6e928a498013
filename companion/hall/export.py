"""The event as files an organiser takes home: standings and games as CSV, everything as JSON."""

from __future__ import annotations

import csv
import io

from companion.engine import JSON
from companion.hall.tournament import Tournament

STANDINGS_COLUMNS = ("rank", "player", "wins", "games", "byes", "sos", "points")
GAMES_COLUMNS = ("round", "table", "game_id", "seat", "player", "rank", "points", "won", "confirmed_by")


def _safe(value: object) -> object:
    """A cell a spreadsheet will not run: text starting with = + - @ is quoted with an apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def standings_csv(event: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(STANDINGS_COLUMNS)
    for row in event.standings():
        data = row.to_json()
        writer.writerow([_safe(data[c]) for c in STANDINGS_COLUMNS])
    return out.getvalue()


def games_csv(event: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(GAMES_COLUMNS)
    for record in sorted(event.records, key=lambda r: (r.round, r.table, r.game_id)):
        for seat, player in enumerate(record.players):
            points = record.points[seat] if seat < len(record.points) else None
            writer.writerow(
                [
                    record.round,
                    _safe(record.table),
                    record.game_id,
                    seat,
                    _safe(player),
                    record.ranks[seat] if seat < len(record.ranks) else "",
                    "" if points is None else points,
                    record.win_value(seat),
                    record.confirmed_by,
                ]
            )
    return out.getvalue()


def event_json(event: Tournament) -> dict[str, JSON]:
    """The whole event with its standings, as the hall's ``/hall/export.json`` serves it."""
    return {**event.to_json(), "standings": [row.to_json() for row in event.standings()]}
