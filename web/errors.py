"""Error answers: JSON ``{"error", "reason"}`` for API and script clients, a short page for browsers.

Every failure a client can cause maps to a 4xx; a 500 means a bug in the companion and is logged.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError

log = logging.getLogger(__name__)


def wants_json() -> bool:
    if request.path.startswith(
        (
            "/api/",
            "/stream",
            "/control/commands",
            "/control/enrol",
            "/control/dice",
            "/control/seat",
            "/control/result",
            "/control/private",
            "/control/phones",
            "/control/pin/change",
            "/tv/pairing",
        )
    ):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(status: int, error: str, reason: str) -> tuple[Response, int] | tuple[str, int]:
    if wants_json():
        return jsonify({"accepted": False, "error": error, "reason": reason}), status
    return render_template("error.html", status=status, reason=reason), status


def _http_error(exc: HTTPException) -> tuple[Response, int] | tuple[str, int]:
    status = exc.code or 500
    name = (exc.name or "error").lower().replace(" ", "_")
    return error_response(status, name, exc.description or name)


def _unexpected(exc: Exception) -> tuple[Response, int] | tuple[str, int]:
    log.exception("unexpected error on %s %s", request.method, request.path)
    return _http_error(InternalServerError("the companion hit a bug; the game is unchanged"))


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(Exception, _unexpected)
