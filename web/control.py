"""``/control``: the phone page. Answer the prompt, correct the table, undo, start and end games.

The page is a shell plus control.js, which renders the live view from ``/stream`` and posts commands to
``/control/commands``. Everything that changes the game needs the table's PIN (see web.auth).
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, redirect, render_template, request, url_for
from werkzeug.exceptions import BadRequest

from web import auth, catalogs
from web.commands import submit_from_request

bp = Blueprint("control", __name__, url_prefix="/control")


@bp.get("/", strict_slashes=False)
def index() -> str:
    return render_template(
        "control.html",
        logged_in=auth.has_cookie(),
        games=catalogs.registered_games(),
        default_game=current_app.config["DEFAULT_GAME"],
        default_players=current_app.config["DEFAULT_PLAYERS"],
        dice=catalogs.dice_names(),
        game_css=catalogs.screens("control.css"),
        game_js=catalogs.screens("control.js"),
        wrong_pin=False,
    )


@bp.post("/pin")
def pin() -> Response | tuple[str, int]:
    """Logs this phone in with the PIN (form field ``pin``); a wrong one answers 403 with the form."""
    offered = request.form.get(auth.PIN_FIELD)
    if not isinstance(offered, str):
        raise BadRequest("send the PIN as the form field 'pin'")
    if auth.log_in(offered.strip()):
        return redirect(url_for("control.index"), code=303)
    page = render_template(
        "control.html",
        logged_in=False,
        games=(),
        default_game="",
        default_players=[],
        dice={},
        game_css=[],
        game_js=[],
        wrong_pin=True,
    )
    return page, 403


@bp.post("/logout")
def logout() -> Response:
    auth.log_out()
    return redirect(url_for("control.index"), code=303)


@bp.post("/commands")
@auth.require_pin
def commands() -> tuple[Response, int]:
    return submit_from_request("control")
