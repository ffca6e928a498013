"""``/control``: the phone page. Answer the prompt, correct the table, undo, start and end games.

The page is a shell plus control.js, which renders the live view from ``/stream`` and posts commands to
``/control/commands``. Everything that changes the game needs a phone the table let in (see web.auth,
web.phones): by the PIN (``POST /control/pin``) or, without it, by the code the table's screen shows
when this phone asks to join (``POST /control/join``, then ``POST /control/join/code``, web.pairing).
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import BadRequest

from web import auth, catalogs, pairing, phones
from web.commands import submit_from_request

log = logging.getLogger(__name__)

bp = Blueprint("control", __name__, url_prefix="/control")


def _outside(**page: Any) -> str:
    """The page a browser the table does not trust yet sees: the PIN form, and joining by a code."""
    request_ = pairing.pairing().request_of(pairing.joiner())
    join = None
    if request_ is not None:
        join = {"seconds_left": pairing.pairing().seconds_left(request_), "tries_left": request_.tries_left}
    values: dict[str, Any] = {
        "logged_in": False,
        "games": (),
        "default_game": "",
        "default_players": [],
        "dice": {},
        "game_css": [],
        "game_js": [],
        "wrong_pin": False,
        "join": join,
        "join_error": None,
    }
    values.update(page)
    return render_template("control.html", **values)


@bp.get("/", strict_slashes=False)
def index() -> str:
    if not auth.has_cookie():
        return _outside()
    return render_template(
        "control.html",
        logged_in=True,
        games=catalogs.registered_games(),
        default_game=current_app.config["DEFAULT_GAME"],
        default_players=current_app.config["DEFAULT_PLAYERS"],
        dice=catalogs.dice_names(current_app.config["GAME_DATA"]),
        game_css=catalogs.screens("control.css"),
        game_js=catalogs.screens("control.js"),
        player_rolls=bool(current_app.config["PLAYER_ROLLS"]),
        wrong_pin=False,
        join=None,
        join_error=None,
    )


@bp.post("/pin")
def pin() -> Response | tuple[str, int]:
    """Logs this phone in with the PIN (form field ``pin``); a wrong one answers 403 with the form."""
    offered = request.form.get(auth.PIN_FIELD)
    if not isinstance(offered, str):
        raise BadRequest("send the PIN as the form field 'pin'")
    joiner = pairing.joiner()  # read before the login makes this browser's session afresh
    if auth.log_in(offered.strip()):
        if joiner is not None:  # it had asked to join, then found the PIN: its code is void
            pairing.pairing().cancel(joiner)
            pairing.tell_the_table()
        return redirect(url_for("control.index"), code=303)
    return _outside(wrong_pin=True), 403


@bp.post("/join")
def join() -> Response:
    """This phone asks to join without the PIN: the table's screen shows its code (web.pairing)."""
    if auth.has_cookie():
        return redirect(url_for("control.index"), code=303)
    asked = pairing.pairing().ask(
        pairing.joiner(create=True),
        phones.describe(request.headers.get("User-Agent", "")),
        request.remote_addr or "",
    )
    log.info("a phone (%s, %s) asks to join", asked.name, asked.address)
    pairing.tell_the_table()
    return redirect(url_for("control.index"), code=303)


@bp.post("/join/code")
def join_code() -> Response | tuple[str, int]:
    """The code the table's screen shows for this phone (form field ``code``): right, the phone is in."""
    offered = request.form.get("code")
    if not isinstance(offered, str):
        raise BadRequest("send the code as the form field 'code'")
    joiner = pairing.joiner()
    code = "".join(offered.split())  # "482 913" as the TV shows it
    right, left = pairing.pairing().redeem(joiner, code) if joiner else (False, None)
    if right:
        phones.admit()
        pairing.tell_the_table()
        return redirect(url_for("control.index"), code=303)
    pairing.tell_the_table()
    if left is None:
        error = "That code is no longer valid: ask again, and type the new code the TV shows"
    else:
        error = f"Wrong code: {left.tries_left} {'try' if left.tries_left == 1 else 'tries'} left"
    log.warning("a wrong join code from %s", request.remote_addr)
    return _outside(join_error=error), 403


@bp.post("/join/cancel")
def join_cancel() -> Response:
    pairing.pairing().cancel(pairing.joiner())
    pairing.forget_joiner()
    pairing.tell_the_table()
    return redirect(url_for("control.index"), code=303)


@bp.post("/logout")
def logout() -> Response:
    auth.log_out()
    return redirect(url_for("control.index"), code=303)


@bp.post("/commands")
@auth.require_pin
def commands() -> tuple[Response, int]:
    return submit_from_request("control")
