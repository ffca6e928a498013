"""``/control/seat`` and ``/control/private``: which seat a phone plays, and what only that seat may see.

A phone claims a seat of the current game; from then on it may read that seat's private view and it
acts for that seat alone (the session checks every command it sends against ``Game.actor``, see
web.acting). A phone with no seat is a shared phone: it acts for every seat but sends no secret. A
seat can be taken over (a phone's battery dies): the event log records it (a ``note``), the server log
says which phone took it, and the TV shows it for the rest of the round, so nobody peeks unseen.
Claims are kept with the trusted phones (web.trust): a restart keeps every phone in its seat.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify
from werkzeug.exceptions import BadRequest, Conflict, Forbidden, ServiceUnavailable

from companion.engine import JSON, PlayerId
from companion.session.contract import Command, SessionPort
from web import auth, limits, phones
from web.context import current_session
from web.trust import Phone, TakeOver, TrustStore

log = logging.getLogger(__name__)

bp = Blueprint("seats", __name__, url_prefix="/control")

DEVICE = "phones"
"""The name under which the view's ``devices`` shows which seats have a phone."""
_WATCH = "companion.takeover_watch"


def _current() -> tuple[int, int, Any]:
    """(game id, seats, position) of the game being played; Conflict when none is."""
    view = current_session().view()
    position = current_session().position()
    game_id = view.get("game_id")
    if not isinstance(game_id, int) or position.game is None or position.setup is None:
        raise Conflict("no game is being played: start one first")
    if view.get("status") != "playing":
        raise Conflict("this game is over: start a new one to choose a seat")
    return game_id, len(position.setup.players), position


def phone_seat() -> int | None:
    """The seat this phone plays in the current game, if it claimed one."""
    phone = phones.current()
    game_id = current_session().view().get("game_id")
    if phone is None or not isinstance(game_id, int):
        return None
    return phones.store().seat_of(game_id, phone.id)


def _state() -> dict[str, JSON]:
    game_id = current_session().view().get("game_id")
    held = sorted(phones.store().holders(game_id)) if isinstance(game_id, int) else []
    return {"game_id": game_id, "seat": phone_seat(), "held": held}


def round_of(view: Mapping[str, JSON]) -> int | None:
    """The round the game's view says it is in (every game's view may carry ``round``), or None."""
    game = view.get("game")
    found = game.get("round") if isinstance(game, Mapping) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _lasts(takeover: TakeOver, view: Mapping[str, JSON]) -> bool:
    """A take-over is shown while its game is played and its round lasts (a game without rounds: while
    the game is played)."""
    if view.get("game_id") != takeover.game_id or view.get("status") != "playing":
        return False
    return takeover.round is None or round_of(view) == takeover.round


class TakeOverNotices:
    """Keeps the TV's take-over notices up for the rest of their round: a thread follows the published
    views while a notice is up (only then), and drops each notice when its round or game ends."""

    def __init__(self, store: TrustStore, session: SessionPort) -> None:
        self._store = store
        self._session = session
        self._lock = threading.Lock()
        self._watcher: threading.Thread | None = None

    def report(self, view: Mapping[str, JSON]) -> list[TakeOver]:
        """Tells the table which seats have a phone and which take-overs still show; the live ones."""
        live = self._store.keep_takeovers(lambda t: _lasts(t, view))
        game_id = view.get("game_id")
        held = sorted(self._store.holders(game_id)) if isinstance(game_id, int) else []
        status: dict[str, JSON] = {"state": "ready", "seats": held}
        if live:
            status["notices"] = [{"level": "warning", "text": t.text} for t in live]
        self._session.report_device(DEVICE, status)
        return live

    def watch(self) -> None:
        """Starts following the views, unless already following."""
        with self._lock:
            if self._watcher is not None and self._watcher.is_alive():
                return
            self._watcher = threading.Thread(target=self._follow, name="takeover-notices", daemon=True)
            self._watcher.start()

    def _follow(self) -> None:
        feed = self._session.subscribe()
        try:
            while (view := feed.get(timeout=60)) is not None or not feed.closed:
                if view is not None and not self.report(view):
                    return
        finally:
            feed.close()
            with self._lock:
                self._watcher = None


def init_app(app: Flask) -> None:
    session = app.extensions["companion.session"]
    notices = TakeOverNotices(phones.store_of(app), session)
    app.extensions[_WATCH] = notices
    view = session.view()
    game_id = view.get("game_id")
    seated = isinstance(game_id, int) and bool(phones.store_of(app).holders(game_id))
    if (seated or phones.store_of(app).takeovers()) and notices.report(view):
        notices.watch()  # a take-over of a round still going on before the restart


def _notices() -> TakeOverNotices:
    return current_app.extensions[_WATCH]  # type: ignore[no-any-return]


@bp.get("/seat")
@auth.require_pin
def show() -> Response:
    return jsonify(_state())


def _take_over(game_id: int, seat: int, position: Any, holder: str, by: Phone) -> None:
    """Records that ``by`` takes ``seat`` from the phone ``holder``: the event log first (refused, the
    seat stays where it is), then the server log and the TV's notice for the rest of the round."""
    name = position.name(seat)
    still_in = phones.store().phone(holder) is not None
    text = (
        f"{name}'s seat was taken over by another phone"
        if still_in
        else f"{name}'s seat moved to another phone (its phone was logged out)"
    )
    view = current_session().view()
    round_number = round_of(view)
    note = {"event": "SeatTakenOver", "text": text, "data": {"seat": seat, "round": round_number}}
    try:
        outcome = current_session().submit(Command("note", "control", note))
    except TimeoutError:
        raise ServiceUnavailable("the game is busy; try again") from None
    if not outcome.accepted:
        raise Conflict(f"the take-over was not recorded, so the seat stays: {outcome.reason}")
    phones.store().add_takeover(TakeOver(game_id, seat, round_number, time.time(), text))
    log.warning(
        "game %s: seat %d (%s) taken over by phone %s (%s, %s) from phone %s",
        game_id,
        seat,
        name,
        by.id,
        by.name,
        by.address,
        holder,
    )


@bp.post("/seat")
@auth.require_pin
def claim() -> Response:
    body = limits.read_json()
    if not isinstance(body, Mapping):
        raise BadRequest('send {"seat": 0} to play seat 1, or {"seat": null} to leave your seat')
    phone = auth.caller().phone
    if phone is None:
        raise BadRequest("seats are for phones: log in on /control first (the PIN header plays no seat)")
    game_id, count, position = _current()
    seat, take_over = body.get("seat"), body.get("take_over", False)
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < count):
        raise BadRequest(f"seat must be a number from 0 to {count - 1}")
    if not isinstance(take_over, bool):
        raise BadRequest("take_over must be true or false")
    holder = phones.store().holders(game_id).get(seat) if seat is not None else None
    if holder is not None and holder != phone.id:
        if not take_over:
            raise Conflict("another phone plays this seat: take it over only if that phone is gone")
        _take_over(game_id, seat, position, holder, phone)  # type: ignore[arg-type]
    phones.store().hold(game_id, seat, phone.id)
    if _notices().report(current_session().view()):
        _notices().watch()
    return jsonify(_state())


@bp.get("/private")
@auth.require_pin
def private() -> Response:
    """What only this phone's seat may see (``Game.private_view``); 403 without a claimed seat."""
    _, _, position = _current()
    seat = phone_seat()
    if seat is None:
        raise Forbidden("claim your seat on this phone first")
    response = jsonify({"seat": seat, "private": position.game.private_view(position.state, PlayerId(seat))})
    response.headers["Cache-Control"] = "no-store"
    return response
