"""The organiser's changes to the hall's event, behind the hall's PIN: the hall page itself is
read-only for everyone else (docs/hall.md, The hall page).

The PIN is checked by ``web.auth.PinGuard`` (constant time, per-address and hall-wide lockouts); a
right PIN gives this browser a signed cookie (``SameSite=Strict``, ``HttpOnly``) that names the PIN it
was given with, so a new PIN at the next start logs every browser out. Scripts may send the PIN as the
``X-Hall-Pin`` header instead. Every change also passes ``web.headers``' Origin check.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from flask import Blueprint, Response, current_app, jsonify, redirect, request, session, url_for
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, NotFound, TooManyRequests

from companion.hall.organiser import PairingError, TournamentError
from web.auth import PinGuard
from web.hall.context import hall
from web.limits import read_json

bp = Blueprint("organise", __name__, url_prefix="/hall")
GUARD = "companion.hall.pin_guard"
PIN_HEADER = "X-Hall-Pin"
_COOKIE_KEY = "hall_organiser"

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def _guard() -> PinGuard:
    return current_app.extensions[GUARD]  # type: ignore[no-any-return]


def _pin_mark() -> str:
    """What the cookie holds: a keyed digest of the PIN, never the PIN itself."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, str(current_app.config["HALL_PIN"]).encode(), hashlib.sha256).hexdigest()[:32]


def is_organiser() -> bool:
    mark = session.get(_COOKIE_KEY)
    return isinstance(mark, str) and hmac.compare_digest(mark, _pin_mark())


def _check(pin: str) -> bool:
    guard = _guard()
    address = request.remote_addr or "unknown"
    reason = guard.locked(address)
    if reason is not None:
        raise TooManyRequests(reason)
    return guard.check(pin, address)


def organiser_only(view: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        pin = request.headers.get(PIN_HEADER)
        if pin is not None:
            if not _check(pin):
                raise Forbidden("wrong hall PIN")
        elif not is_organiser():
            raise Forbidden("this needs the hall's PIN: log in on the hall page")
        return view(*args, **kwargs)

    return wrapper


@bp.post("/login")
def login() -> Any:
    pin = request.form.get("pin")
    if not isinstance(pin, str):
        raise BadRequest("send the PIN as the form field 'pin'")
    if not _check(pin.strip()):
        log.warning("a wrong hall PIN from %s", request.remote_addr)
        raise Forbidden("wrong hall PIN: it is printed where the hall was started")
    session.clear()
    session[_COOKIE_KEY] = _pin_mark()
    return redirect(url_for("hall.index"), code=303)


@bp.post("/logout")
def logout() -> Any:
    session.clear()
    return redirect(url_for("hall.index"), code=303)


def _changed(message: str = "") -> Response:
    hall().state.touch()
    return jsonify({"ok": True, "message": message})


def _body() -> dict[str, Any]:
    body = read_json()
    if not isinstance(body, dict):
        raise BadRequest("send a JSON object")
    return body


@bp.post("/event")
@organiser_only
def create() -> Response:
    body = _body()
    players = body.get("players")
    if isinstance(players, str):
        players = players.splitlines()
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise BadRequest("'players' is a list of names (or one per line)")
    try:
        event = hall().organiser.create(
            name=str(body.get("name", "")),
            game=str(body.get("game", "")),
            players=players,
            rounds=int(body.get("rounds", 3)),
            seats=int(body.get("seats", 2)),
            min_seats=int(body.get("min_seats", body.get("seats", 2))),
            format=str(body.get("format", "swiss")),
        )
    except (TournamentError, ValueError, TypeError) as exc:
        raise BadRequest(str(exc)) from None
    log.info("hall event %r of %s with %d players", event.name, event.game, len(event.players))
    return _changed(f"{event.name}: {len(event.players)} players")


@bp.post("/event/round")
@organiser_only
def next_round() -> Response:
    context = hall()
    online = [t["table"] for t in context.state.tiles() if t["online"]]
    try:
        event = context.organiser.next_round(online)
    except (TournamentError, PairingError) as exc:
        raise Conflict(str(exc)) from None
    rnd = event.rounds[-1]
    where = "" if rnd.hall_tables else f" (only {len(online)} tables online: seat them by hand)"
    return _changed(f"round {rnd.number}: {len(rnd.tables)} tables{where}")


@bp.post("/event/confirm")
@organiser_only
def confirm() -> Response:
    """The organiser confirms a table's final result (a player left before confirming)."""
    table = str(_body().get("table", ""))
    state = hall().state.table(table)
    if state is None or state.result is None:
        raise NotFound(f"no result from table {table[:40]!r}")
    if not state.result["result"].get("final"):
        raise Conflict("this game is not over")
    reason = hall().organiser.confirmed(table, state.result, by="organiser")
    if reason is not None:
        raise Conflict(reason)
    log.info("the organiser confirmed table %s's game %s", table, state.result.get("game_id"))
    return _changed("recorded")


@bp.post("/event/strike")
@organiser_only
def strike() -> Response:
    body = _body()
    try:
        hall().organiser.strike(str(body["table"]), str(body["log"]), int(body["game_id"]))
    except (KeyError, ValueError, TypeError):
        raise BadRequest("send the record's table, log and game_id") from None
    except TournamentError as exc:
        raise Conflict(str(exc)) from None
    return _changed("struck")


@bp.post("/event/clear")
@organiser_only
def clear() -> Response:
    hall().organiser.clear()
    return _changed("cleared")
