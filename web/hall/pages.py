"""The hall's read-only pages: the tiles and the event for everyone, each table's TV relayed from the
broker, the exports. Nothing here needs the PIN: the organiser's changes live in ``organise``."""

from __future__ import annotations

import time
from typing import Any

from flask import Blueprint, Response, current_app, render_template, request, url_for
from werkzeug.exceptions import NotFound

from companion.engine import JSON
from companion.hall.export import event_json, games_csv, standings_csv
from companion.hall.topics import TopicError, check_id
from web import catalogs
from web.hall.context import hall
from web.hall.feeds import HallFeed, SnapshotCache, TableViewFeed
from web.hall.organise import is_organiser
from web.stream import GeneratorPlace, StartedStream, events, reserve_place, streams_of

bp = Blueprint("hall", __name__)
_CACHE = "companion.hall.snapshots"


def snapshot() -> dict[str, JSON]:
    context = hall()
    event = context.organiser.event
    return {
        "seq": context.state.version,
        "hall": context.hall_id,
        "title": context.title or context.hall_id,
        "now": time.time(),
        "broker": {"url": context.broker_url, "connected": context.connected()},
        "tiles": context.state.tiles(),
        "event": None if event is None else event_json(event),
        "unmatched": list(context.organiser.unmatched),
        "problems": list(context.state.problems),
        "refused": context.state.refused,
    }


def _cache() -> SnapshotCache:
    app: Any = current_app._get_current_object()  # type: ignore[attr-defined]
    cache = app.extensions.get(_CACHE)
    if cache is None:

        def build() -> dict[str, JSON]:
            with app.app_context():
                return snapshot()

        cache = app.extensions[_CACHE] = SnapshotCache(build)
    return cache  # type: ignore[no-any-return]


def _stream(feed: Any) -> Response:
    streams = streams_of(current_app)  # type: ignore[arg-type]
    address = request.remote_addr or ""
    if not reserve_place(streams, address):  # one machine holding every place gives one up
        feed.close()
        return Response("too many streams; retrying", status=503, mimetype="text/plain")
    body = StartedStream(
        events(
            feed,
            streams,
            keepalive=float(current_app.config["SSE_KEEPALIVE"]),
            retry_ms=int(current_app.config["SSE_RETRY_MS"]),
            client_gone=request.environ.get("waitress.client_disconnected") or (lambda: False),
            place=GeneratorPlace(address),
        )
    )
    response = Response(body, mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _table(table: str) -> str:
    try:
        check_id(table)
    except TopicError:
        raise NotFound(f"no table {table[:40]!r} in this hall") from None
    if hall().state.table(table) is None:
        raise NotFound(f"no table {table!r} in this hall")
    return table


@bp.get("/")
def index() -> str:
    context = hall()
    return render_template(
        "hall.html",
        title=context.title or context.hall_id,
        organiser=is_organiser(),
        config={
            "stream": url_for("hall.stream"),
            "state": url_for("hall.state"),
            "games": [
                {"name": g["name"], "title": g["title"], "min": g["min_players"], "max": g["max_players"]}
                for g in catalogs.registered_games()
            ],
            "organiser": is_organiser(),
            "urls": {
                "event": url_for("organise.create"),
                "round": url_for("organise.next_round"),
                "confirm": url_for("organise.confirm"),
                "strike": url_for("organise.strike"),
                "clear": url_for("organise.clear"),
                "table": url_for("hall.table_tv", table="TABLE"),
            },
        },
    )


@bp.get("/hall/state")
def state() -> Response:
    return current_app.response_class(_cache().get(hall().state.version).json, mimetype="application/json")


@bp.get("/hall/stream")
def stream() -> Response:
    context = hall()
    return _stream(HallFeed(context.state, _cache(), float(current_app.config["HALL_MIN_INTERVAL"])))


@bp.get("/hall/standings.csv")
def standings_export() -> Response:
    return _csv(standings_csv, "standings")


@bp.get("/hall/games.csv")
def games_export() -> Response:
    return _csv(games_csv, "games")


def _csv(make: Any, what: str) -> Response:
    event = hall().organiser.event
    if event is None:
        raise NotFound("no event yet")
    response = Response(make(event), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{what}.csv"'
    return response


@bp.get("/hall/event.json")
def event_export() -> Response:
    event = hall().organiser.event
    if event is None:
        raise NotFound("no event yet")
    response = current_app.json.response(event_json(event))
    response.headers["Content-Disposition"] = 'attachment; filename="event.json"'
    return response


@bp.get("/hall/dice")
def dice() -> Response:
    return current_app.json.response({"dice": catalogs.dice_names()})


# -- one table's TV, relayed -------------------------------------------------------------------------


@bp.get("/tables/<table>/")
def table_tv(table: str) -> str:
    table = _table(table)
    return render_template(
        "hall_tv.html",
        table=table,
        name=hall().state.tiles_name(table),
        config={
            "stream": url_for("hall.table_stream", table=table),
            "history": url_for("hall.table_history", table=table, limit=6),
            "view": url_for("hall.table_view", table=table),
            "dice": url_for("hall.dice"),
        },
        game_css=catalogs.screens("tv.css"),
        game_js=catalogs.screens("tv.js"),
    )


@bp.get("/tables/<table>/stream")
def table_stream(table: str) -> Response:
    return _stream(TableViewFeed(hall().state, _table(table)))


@bp.get("/tables/<table>/view")
def table_view(table: str) -> Response:
    text = hall().state.view_json(_table(table))
    if text is None:
        raise NotFound("this table has published no view yet")
    return current_app.response_class(text, mimetype="application/json")


@bp.get("/tables/<table>/history")
def table_history(table: str) -> Response:
    """The table's latest events of the game its view shows, as the table's own /api/history gives
    them (a game set aside or resumed leaves the other game's events out of its TV's ticker)."""
    limit = request.args.get("limit", default=6, type=int) or 6
    state = hall().state
    shown = state.table(_table(table))
    game_id = (shown.view or {}).get("game_id") if shown is not None else None
    return current_app.json.response(
        {"history": state.recent(_table(table), max(1, min(limit, 12)), game_id=game_id)}
    )
