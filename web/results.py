"""``/control/result``: the players confirm a finished game's result on their phones, for the hall.

A table that publishes to a hall (``HALL_CONFIRM``, set when the settings have a ``[hall]`` section)
counts a game's result in the hall's standings only once every seat confirmed it. Each confirmation is
a ``note`` in the event log (``ResultConfirmed``, with the result's digest: an undo that changes the
result voids the confirmations of the old one). A phone that plays a seat confirms for that seat; a
phone without a seat (a shared phone) for any seat no phone holds; the PIN for any seat.

The result confirmed is the current game's once it is final; before that, the result of the finished
game the current game set aside when it took the table (``Session.replaced_game``: the new-game form
opens by itself when a game is over, and one tap must not lose a result the hall is waiting for),
until every seat confirmed it. Its confirmations are notes of the game being played (the note names
the game it confirms), so both games' inputs are read.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from flask import Blueprint, Response, current_app, jsonify
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound, ServiceUnavailable

from companion.engine import JSON
from companion.hall.confirm import confirmation_note, confirmed_seats, current_result, result_digest
from companion.session.contract import Command
from web import auth, phones
from web.context import current_session, records
from web.limits import read_json

bp = Blueprint("results", __name__, url_prefix="/control")


class _Subject(NamedTuple):
    game_id: int
    result: dict[str, Any]
    digest: str
    names: list[str]
    read_from: tuple[int, ...]
    """The games whose inputs hold its confirmations (itself, and the game being played)."""
    replaced: bool


def _subject() -> _Subject | None:
    """The result the phones confirm: the current game's once final, else that of the finished game
    the current game replaced while a seat has not confirmed it (and, confirmed, until the next move);
    None when there is none."""
    view = current_session().view()
    game_id = view.get("game_id")
    if not isinstance(game_id, int):
        return None
    result = current_result(view)
    if result is not None and result.get("final"):
        game = view.get("game") or {}
        names = [str(p.get("name", "")) for p in game.get("players") or () if isinstance(p, dict)]  # type: ignore[union-attr]
        return _Subject(game_id, result, result_digest(game_id, result), names, (game_id,), False)
    replaced = records().replaced_game(game_id)
    if replaced is None:
        return None
    old, result = int(replaced["game_id"]), dict(replaced["result"])  # type: ignore[arg-type, call-overload]
    players = (replaced.get("setup") or {}).get("players") or ()  # type: ignore[union-attr]
    names = [str(p.get("name", "")) for p in players if isinstance(p, dict)]
    subject = _Subject(old, result, result_digest(old, result), names, (old, game_id), True)
    if len(_confirmed(subject)) < len(names):
        return subject
    # Every seat confirmed it: said until the game at the table moves on, then nothing more to do.
    change = view.get("last_change")
    return subject if isinstance(change, dict) and change.get("kind") == "note" else None


def _finished() -> _Subject:
    subject = _subject()
    if subject is None:
        raise Conflict("no finished game to confirm")
    return subject


def _confirmed(subject: _Subject) -> set[int]:
    seats: set[int] = set()
    for game_id in subject.read_from:
        seats |= confirmed_seats(records().history(game_id, limit=1000), subject.game_id, subject.digest)
    return seats


def _state(subject: _Subject) -> dict[str, JSON]:
    confirmed = _confirmed(subject)
    return {
        "enabled": True,
        "game_id": subject.game_id,
        "replaced": subject.replaced,
        "digest": subject.digest,
        "outcome": str(subject.result.get("outcome", "")),
        "seats": [{"seat": s, "name": n, "confirmed": s in confirmed} for s, n in enumerate(subject.names)],
        "confirmed": len(confirmed) >= len(subject.names) > 0,
        "may_confirm": sorted(_may_confirm(subject.game_id, len(subject.names))),
    }


def _may_confirm(game_id: int, seats: int) -> set[int]:
    """The seats this caller may confirm in game ``game_id`` (its seat claims there)."""
    if auth.caller().phone is None:
        return set(range(seats))  # the PIN: the table's owner
    phone = phones.current()
    own = phones.store().seat_of(game_id, phone.id) if phone is not None else None
    if own is not None:
        return {own}
    held = phones.store().holders(game_id)
    return {s for s in range(seats) if s not in held}


@bp.get("/result")
@auth.require_pin
def show() -> Response:
    if not current_app.config.get("HALL_CONFIRM"):
        return jsonify({"enabled": False})
    subject = _subject()
    if subject is None:
        game_id = current_session().view().get("game_id")
        return jsonify({"enabled": True, "game_id": game_id, "seats": [], "may_confirm": []})
    return jsonify(_state(subject))


@bp.post("/result/confirm")
@auth.require_pin
def confirm() -> Response:
    if not current_app.config.get("HALL_CONFIRM"):
        raise NotFound("this table does not publish to a hall")
    body = read_json()
    seat = body.get("seat") if isinstance(body, dict) else None
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise BadRequest('send {"seat": 0}: the seat whose result this phone confirms')
    subject = _finished()
    names = subject.names
    if not 0 <= seat < len(names):
        raise BadRequest(f"this game has no seat {seat}")
    if isinstance(body.get("digest"), str) and body["digest"] != subject.digest:
        raise Conflict("the result changed since this phone showed it: look again before confirming")
    if seat not in _may_confirm(subject.game_id, len(names)):
        raise Forbidden(f"only {names[seat]}'s phone can confirm for {names[seat]}")
    if seat not in _confirmed(subject):
        outcome_text = str(subject.result.get("outcome", ""))
        note = confirmation_note(subject.game_id, seat, names[seat], subject.digest, outcome_text)
        outcome = current_session().submit(Command("note", "control", note))
        if not outcome.accepted:
            raise ServiceUnavailable(f"the confirmation was not recorded: {outcome.reason}")
    return jsonify(_state(subject))
