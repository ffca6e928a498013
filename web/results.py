"""``/control/result``: the players confirm a finished game's result on their phones, for the hall.

A table that publishes to a hall (``HALL_CONFIRM``, set when the settings have a ``[hall]`` section)
counts a game's result in the hall's standings only once every seat confirmed it. Each confirmation is
a ``note`` in the event log (``ResultConfirmed``, with the result's digest: an undo that changes the
result voids the confirmations of the old one). A phone that plays a seat confirms for that seat; a
phone without a seat (a shared phone) for any seat no phone holds; the PIN for any seat.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable

from companion.engine import JSON
from companion.hall.confirm import confirmation_note, confirmed_seats, current_result, result_digest
from companion.session.contract import Command
from web import auth, phones
from web.context import current_session, records
from web.limits import read_json
from web.seats import phone_seat

bp = Blueprint("results", __name__, url_prefix="/control")


def _finished() -> tuple[int, dict[str, Any], str, list[str]]:
    """(game id, result, digest, player names) of the current game's final result; 409 otherwise."""
    view = current_session().view()
    game_id = view.get("game_id")
    result = current_result(view)
    if not isinstance(game_id, int) or result is None or not result.get("final"):
        raise Conflict("no finished game to confirm")
    game = view.get("game") or {}
    names = [str(p.get("name", "")) for p in game.get("players") or () if isinstance(p, dict)]  # type: ignore[union-attr]
    return game_id, result, result_digest(game_id, result), names


def _state(game_id: int, result: dict[str, Any], digest: str, names: list[str]) -> dict[str, JSON]:
    confirmed = confirmed_seats(records().history(game_id, limit=1000), game_id, digest)
    return {
        "enabled": True,
        "game_id": game_id,
        "digest": digest,
        "outcome": str(result.get("outcome", "")),
        "seats": [{"seat": s, "name": n, "confirmed": s in confirmed} for s, n in enumerate(names)],
        "confirmed": len(confirmed) >= len(names) > 0,
        "may_confirm": sorted(_may_confirm(game_id, len(names))),
    }


def _may_confirm(game_id: int, seats: int) -> set[int]:
    if auth.caller().phone is None:
        return set(range(seats))  # the PIN: the table's owner
    own = phone_seat()
    if own is not None:
        return {own}
    held = phones.store().holders(game_id)
    return {s for s in range(seats) if s not in held}


@bp.get("/result")
@auth.require_pin
def show() -> Response:
    if not current_app.config.get("HALL_CONFIRM"):
        return jsonify({"enabled": False})
    view = current_session().view()
    result = current_result(view)
    if not isinstance(view.get("game_id"), int) or result is None or not result.get("final"):
        return jsonify({"enabled": True, "game_id": view.get("game_id"), "seats": [], "may_confirm": []})
    return jsonify(_state(*_finished()))


@bp.post("/result/confirm")
@auth.require_pin
def confirm() -> Response:
    if not current_app.config.get("HALL_CONFIRM"):
        raise NotFound("this table does not publish to a hall")
    body = read_json()
    seat = body.get("seat") if isinstance(body, dict) else None
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest('send {"seat": 0}: the seat whose result this phone confirms')
    game_id, result, digest, names = _finished()
    if not 0 <= seat < len(names):
        raise BadRequest(f"this game has no seat {seat}")
    if isinstance(body.get("digest"), str) and body["digest"] != digest:
        raise Conflict("the result changed since this phone showed it: look again before confirming")
    if seat not in _may_confirm(game_id, len(names)):
        raise Forbidden(f"only {names[seat]}'s phone can confirm for {names[seat]}")
    if seat not in confirmed_seats(records().history(game_id, limit=1000), game_id, digest):
        note = confirmation_note(game_id, seat, names[seat], digest, str(result.get("outcome", "")))
        outcome = current_session().submit(Command("note", "control", note))
        if not outcome.accepted:
            raise ServiceUnavailable(f"the confirmation was not recorded: {outcome.reason}")
    return jsonify(_state(game_id, result, digest, names))
