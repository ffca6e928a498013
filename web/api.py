"""``/api/...``: the JSON API. Reads need no PIN; ``POST /api/commands`` does (see docs/api.md)."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import BadRequest, NotFound

from companion.session.history import UnknownGameIdError
from web import catalogs
from web.auth import require_pin
from web.commands import submit_from_request
from web.context import current_session, records

bp = Blueprint("api", __name__, url_prefix="/api")

HISTORY_DEFAULT = 50
HISTORY_MAX = 1000
GAME_ID_MAX = 2**62
"""Ids are SQLite rowids counted from 1; a larger number (SQLite's integers stop at 2^63) is no game."""


@bp.get("/view")
def view() -> Response:
    return jsonify(dict(current_session().view()))


def _int_arg(name: str, default: int | None, low: int, high: int) -> int | None:
    raw = request.args.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise BadRequest(f"'{name}' must be a whole number") from None
    if not low <= value <= high:
        raise BadRequest(f"'{name}' must be between {low} and {high}")
    return value


@bp.get("/history")
def history() -> Response:
    """The last inputs of a game (default: the current one), oldest first, reverted ones marked."""
    limit = _int_arg("limit", HISTORY_DEFAULT, 1, HISTORY_MAX)
    game_id = _int_arg("game_id", None, 1, GAME_ID_MAX)
    try:
        items = records().history(game_id=game_id, limit=limit)
    except UnknownGameIdError as exc:
        raise NotFound(str(exc)) from None
    return jsonify({"history": items})


@bp.get("/games")
def games() -> Response:
    return jsonify({"games": records().games()})


def _game_id(raw: str) -> int:
    """A game id from the URL: 400 unless a whole number, 404 when no game can have it."""
    if not raw.isascii() or not raw.isdigit():
        raise BadRequest(f"a game id is a whole number from 1, not {raw[:20]!r}")
    if len(raw) > 19 or not 1 <= int(raw) <= GAME_ID_MAX:  # int() of a huge digit string is refused
        raise NotFound(f"no game #{raw[:20]}")
    return int(raw)


@bp.get("/games/<raw_id>/export")
def export(raw_id: str) -> Response:
    game_id = _game_id(raw_id)
    try:
        lines = records().export_jsonl(game_id)
    except UnknownGameIdError as exc:
        raise NotFound(str(exc)) from None
    return Response(
        lines,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"'},
    )


@bp.get("/available-games")
def available_games() -> Response:
    return jsonify({"games": list(catalogs.registered_games())})


@bp.get("/cards/<game>")
def cards(game: str) -> Response:
    try:
        catalog = catalogs.card_catalog(game)
    except catalogs.UnknownGameError as exc:
        raise NotFound(str(exc)) from None
    if catalog is None:
        raise NotFound(f"the game {game!r} has no card catalog")
    return jsonify({"game": game, "cards": list(catalog)})


@bp.get("/dice")
def dice() -> Response:
    return jsonify({"dice": catalogs.dice_names(current_app.config["GAME_DATA"])})


@bp.post("/commands")
@require_pin
def commands() -> tuple[Response, int]:
    return submit_from_request("api")
