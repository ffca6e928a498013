"""``/favicon.ico``: the companion's icon (a die), which every browser asks for whatever the page says.
Served by the table's app and the hall's app alike (both pages extend ``base.html``, which names it)."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, current_app, send_from_directory

bp = Blueprint("icon", __name__)


@bp.get("/favicon.ico")
def favicon() -> Response:
    response = send_from_directory(Path(current_app.static_folder or "static"), "favicon.ico", max_age=86400)
    response.mimetype = "image/vnd.microsoft.icon"
    return response
