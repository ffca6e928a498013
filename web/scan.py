"""``POST /control/scan``: the phone as a scanner. A photo of a drawn card → the cards it may be.

The control page sends the photo its camera took (``<input type=file capture>``, which opens the
phone's camera over plain HTTP; shrunk on the phone to ``SCAN_SIDE`` pixels first) as the ``photo``
field of a multipart form. The answer offers the best cards of the game being played,
``{"game", "sure", "cards": [{"card", "title", "score"}], ...}``; nothing changes at the table until
the player taps one, which is an ordinary command (``/control/commands``, with its seat checks).

Hostile until checked: a trusted phone or the PIN (``web.auth``), a page of this companion's own
(``web.headers`` refuses a foreign Origin), a body of at most ``SCAN_MAX_BYTES`` (413 beyond), a
JPEG or PNG whose header is read before any decoding (400 otherwise), one photo read at a time (429
while another is read: a Pi has no core to spare for a queue). The photo is never stored.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, request
from werkzeug.exceptions import BadRequest, Conflict, TooManyRequests

from web import auth, catalogs
from web.context import current_session

Scanner = Callable[[bytes, str], dict[str, Any]]
"""A photo's bytes and the game → ``{"sure", "cards": [{"card", "score"}], ...}``; ValueError for a
photo it cannot read, LookupError when the game has no enrolled faces (``vision.phone_scans``)."""

log = logging.getLogger(__name__)
bp = Blueprint("scan", __name__, url_prefix="/control")
_EXTENSION = "companion.scanner"
_BUSY = "companion.scanner_busy"


def init_app(app: Flask, scanner: Scanner | None) -> None:
    app.extensions[_EXTENSION] = scanner
    app.extensions[_BUSY] = threading.Lock()


def available() -> bool:
    return current_app.extensions.get(_EXTENSION) is not None


@bp.before_request
def _larger_bodies() -> None:
    # A photo is larger than any command: this route alone raises the app's body limit (before the
    # PIN check reads the form).
    if request.endpoint == "scan.scan":
        request.max_content_length = int(current_app.config["SCAN_MAX_BYTES"])


@bp.post("/scan")
@auth.require_pin
def scan() -> tuple[Response, int]:
    scanner: Scanner | None = current_app.extensions.get(_EXTENSION)
    if scanner is None:
        raise Conflict("this companion has no card scanner (its camera support is not installed)")
    game = current_session().position().game_name
    if game is None:
        raise Conflict("no game is being played: start one, then photograph the card drawn")
    upload = request.files.get("photo")
    if upload is None:
        raise BadRequest("send the photo as the 'photo' field of a multipart form")
    data = upload.read(int(current_app.config["SCAN_MAX_BYTES"]) + 1)
    busy: threading.Lock = current_app.extensions[_BUSY]
    if not busy.acquire(blocking=False):
        raise TooManyRequests("another photo is being read: try again in a moment")
    try:
        found = scanner(data, game)
    except LookupError as exc:
        raise Conflict(str(exc)) from None
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    finally:
        busy.release()
    titles = {str(card["id"]): card.get("title") for card in catalogs.card_catalog(game) or ()}
    cards = [{**card, "title": titles.get(card["card"], card["card"])} for card in found["cards"]]
    log.info("phone scan for %s: %s (%s)", game, cards[0]["card"] if cards else None, found["sure"])
    return jsonify({**found, "game": game, "cards": cards}), 200
