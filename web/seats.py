"""``/control/seat`` and ``/control/private``: which seat a phone plays, and what only that seat may see.

Some games keep secrets from the table (order markers laid face down). A phone claims a
seat of the current game; from then on it may read that seat's private view and send that seat's
secret actions, and no other phone may. A seat can be taken over (a phone's battery dies), but the TV
says so, so nobody peeks unseen. Claims live in memory: after a restart each phone claims again.

The phone's claim rides in its signed session cookie as a random token; the server maps tokens to
(game, seat). A request that carries the table's PIN itself (a script, the API) may send any action.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request, session
from werkzeug.exceptions import BadRequest, Conflict, Forbidden

from companion.engine import JSON, ActionError, PlayerId
from companion.session.contract import Command
from web import auth
from web.commands import json_body
from web.context import current_session

bp = Blueprint("seats", __name__, url_prefix="/control")

_SEATS = "companion.seats"
_TOKEN = "phone"
DEVICE = "phones"
"""The name under which the view's ``devices`` shows which seats have a phone."""


class Seats:
    """Which phone (token) plays which seat of which game. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._holders: dict[tuple[int, int], str] = {}

    def claim(self, game_id: int, seat: int, token: str, take_over: bool) -> bool:
        """Gives ``seat`` to ``token`` (dropping its other seat of that game); True when it took the seat
        from another phone. Raises Conflict when another phone holds it and ``take_over`` is false."""
        with self._lock:
            holder = self._holders.get((game_id, seat))
            if holder not in (None, token) and not take_over:
                raise Conflict("another phone plays this seat: take it over only if that phone is gone")
            for key in [k for k, t in self._holders.items() if t == token and k[0] == game_id]:
                del self._holders[key]
            self._holders[(game_id, seat)] = token
            return holder not in (None, token)

    def release(self, game_id: int, token: str) -> None:
        with self._lock:
            for key in [k for k, t in self._holders.items() if t == token and k[0] == game_id]:
                del self._holders[key]

    def seat_of(self, game_id: int, token: str | None) -> int | None:
        with self._lock:
            return next((s for (g, s), t in self._holders.items() if g == game_id and t == token), None)

    def held(self, game_id: int) -> list[int]:
        with self._lock:
            return sorted(s for (g, s) in self._holders if g == game_id)


def init_app(app: Flask) -> None:
    app.extensions[_SEATS] = Seats()


def seats() -> Seats:
    return current_app.extensions[_SEATS]  # type: ignore[no-any-return]


def _token(create: bool = False) -> str | None:
    token = session.get(_TOKEN)
    if not isinstance(token, str) and create:
        token = session[_TOKEN] = secrets.token_urlsafe(16)
    return token if isinstance(token, str) else None


def _current() -> tuple[int, int, Any]:
    """(game id, seats, position) of the game being played; Conflict when none is."""
    view = current_session().view()
    position = current_session().position()
    game_id = view.get("game_id")
    if not isinstance(game_id, int) or position.game is None or position.setup is None:
        raise Conflict("no game is being played: start one first")
    return game_id, len(position.setup.players), position


def phone_seat() -> int | None:
    """The seat this phone plays in the current game, if it claimed one."""
    game_id = current_session().view().get("game_id")
    return seats().seat_of(game_id, _token()) if isinstance(game_id, int) else None


def _report(game_id: int, notice: str | None = None) -> None:
    status: dict[str, JSON] = {"state": "ready", "seats": [int(s) for s in seats().held(game_id)]}
    if notice:
        status["notices"] = [{"level": "warning", "text": notice}]
    current_session().report_device(DEVICE, status)


def _state() -> dict[str, JSON]:
    game_id = current_session().view().get("game_id")
    held = seats().held(game_id) if isinstance(game_id, int) else []
    return {"game_id": game_id, "seat": phone_seat(), "held": [int(s) for s in held]}


@bp.get("/seat")
@auth.require_pin
def show() -> Response:
    return jsonify(_state())


@bp.post("/seat")
@auth.require_pin
def claim() -> Response:
    body = json_body()
    if not isinstance(body, Mapping):
        raise BadRequest('send {"seat": 0} to play seat 1, or {"seat": null} to leave your seat')
    game_id, count, position = _current()
    seat, take_over = body.get("seat"), body.get("take_over", False)
    token = _token(create=True)
    assert token is not None
    if seat is None:
        seats().release(game_id, token)
        _report(game_id)
        return jsonify(_state())
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < count:
        raise BadRequest(f"seat must be a number from 0 to {count - 1}")
    if not isinstance(take_over, bool):
        raise BadRequest("take_over must be true or false")
    taken = seats().claim(game_id, seat, token, take_over)
    _report(game_id, f"{position.name(seat)}'s seat was taken over by another phone" if taken else None)
    return jsonify(_state())


@bp.get("/private")
@auth.require_pin
def private() -> Response:
    """What only this phone's seat may see (``Game.private_view``); 403 without a claimed seat."""
    _, _, position = _current()
    seat = phone_seat()
    if seat is None:
        raise Forbidden("claim your seat on this phone first")
    return jsonify({"seat": seat, "private": position.game.private_view(position.state, PlayerId(seat))})


def check_secret(command: Command) -> None:
    """A secret action (``Game.secret_action``) from a phone must be its own seat's; 403 otherwise.

    Requests carrying the PIN themselves (scripts, the API) are the table owner's and pass.
    """
    if command.kind != "act" or request.headers.get(auth.PIN_HEADER) is not None:
        return
    position = current_session().position()
    game = position.game
    if game is None:
        return
    try:
        action = game.parse_action(command.payload)
    except ActionError:
        return  # the session answers a malformed action with the reason
    if not game.secret_action(action):
        return
    seat = phone_seat()
    player = getattr(action, "player", None)
    if seat is None:
        raise Forbidden("this is secret: claim your seat on this phone first")
    if player != seat:
        raise Forbidden(f"only {position.name(int(player or 0))}'s phone can do that")
