"""The hall's web app: every table as a live tile, each table's read-only TV relayed from the broker,
and the event's standings, pairings and exports; the organiser's changes need the hall's PIN.

``create_hall_app(config, hall)`` is the only way in: the entry point (``companion hall``) builds the
hall's state, its organiser and its MQTT subscriber, and hands them here in a ``HallContext``. The
app never touches MQTT: it reads ``companion.hall.state`` as the TV page reads the session.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

from web import headers, icon, screens, stream
from web.auth import PinGuard
from web.hall import organise, pages
from web.hall.context import HALL, HallContext

WEB = Path(__file__).resolve().parent.parent
log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "HALL_PIN": None,  # required: the organiser's PIN (printed at start)
    "SECRET_KEY": None,  # signs the organiser's cookie; None: a random one per start
    "SSE_KEEPALIVE": 15.0,
    "SSE_RETRY_MS": 2000,
    "SSE_MAX_STREAMS": 24,  # hall pages and relayed TVs streaming at once (each holds a thread)
    "HALL_MIN_INTERVAL": 0.25,  # seconds between two hall snapshots sent to one page
    "MAX_CONTENT_LENGTH": 64 * 1024,
    "JSON_MAX_DEPTH": 32,
    "TEXT_MAX_CHARS": 2000,  # a list of players is one text
    "PIN_MAX_FAILURES": 5,
    "PIN_LOCKOUT_SECONDS": 30.0,
    "PIN_TABLE_MAX_FAILURES": 20,
    "PIN_TABLE_WINDOW_SECONDS": 600.0,
    "TV_FRAME_ANCESTORS": None,
    "PUBLIC_URL": None,
    "SESSION_COOKIE_SAMESITE": "Strict",
    "SESSION_COOKIE_HTTPONLY": True,
}


def create_hall_app(config: Mapping[str, Any], hall: HallContext) -> Flask:
    app = Flask(__name__, static_folder=str(WEB / "static"), template_folder=str(WEB / "templates"))
    app.config.update(DEFAULTS)
    app.config.update({key: value for key, value in config.items() if value is not None})
    if not app.config["HALL_PIN"]:
        raise ValueError("the hall needs a PIN")
    if not app.config["SECRET_KEY"]:
        import secrets

        app.config["SECRET_KEY"] = secrets.token_hex(32)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions[HALL] = hall
    app.extensions[organise.GUARD] = PinGuard(
        str(app.config["HALL_PIN"]),
        max_failures=int(app.config["PIN_MAX_FAILURES"]),
        lockout_seconds=float(app.config["PIN_LOCKOUT_SECONDS"]),
        table_max_failures=int(app.config["PIN_TABLE_MAX_FAILURES"]),
        table_window_seconds=float(app.config["PIN_TABLE_WINDOW_SECONDS"]),
    )
    stream.init_app(app)
    headers.init_app(app)
    app.register_blueprint(pages.bp)
    app.register_blueprint(organise.bp)
    app.register_blueprint(screens.bp)
    app.register_blueprint(icon.bp)
    app.register_error_handler(HTTPException, _error)
    app.register_error_handler(Exception, _unexpected)
    return app


def _error(exc: HTTPException) -> tuple[Response | str, int]:
    """JSON for the page's scripts and for tools, a short page for a person's browser."""
    status = exc.code or 500
    reason = exc.description or exc.name or "error"
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    if (request.method != "GET" and request.path != "/hall/login") or best == "application/json":
        name = (exc.name or "error").lower().replace(" ", "_")
        return jsonify({"ok": False, "error": name, "reason": reason}), status
    return render_template("hall_error.html", status=status, reason=reason), status


def _unexpected(exc: Exception) -> tuple[Response | str, int]:
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _error(InternalServerError("the hall hit a bug; nothing was changed"))


__all__ = ["HallContext", "create_hall_app"]
