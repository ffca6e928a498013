"""``/games/<game>/<file>``: a game's own TV and phone screens (its bundle's ``screens`` folder).

The TV and control pages include every installed game's screens; each registers a renderer for its
game with ``TableTV.register`` / ``TableControl.register``, and the page uses the one of the game
being played. Only the files a bundle lists are served.
"""

from __future__ import annotations

from flask import Blueprint, Response, send_file
from werkzeug.exceptions import NotFound

from companion.games import bundles

bp = Blueprint("screens", __name__)

MAX_AGE = 300
"""Seconds a TV may cache a game's screen files (a restart after an update is seen within minutes)."""


@bp.get("/games/<game>/<name>")
def asset(game: str, name: str) -> Response:
    bundle = bundles().get(game)
    path = bundle.screen_path(name) if bundle is not None else None
    if path is None or not path.is_file():
        raise NotFound(f"no screen file {name!r} for the game {game!r}")
    return send_file(path, max_age=MAX_AGE)
