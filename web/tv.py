"""``/`` and ``/tv``: the read-only scoreboard for the TV. The server sends the shell; tv.js draws
each published view it receives from ``/stream``."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request, url_for

from web import catalogs
from web.qr import qr_svg

bp = Blueprint("tv", __name__)


def control_url() -> str:
    """What the QR code opens: the configured public URL, else the host the TV itself used."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for("control.index")


@bp.get("/")
@bp.get("/tv")
def index() -> str:
    return render_template(
        "tv.html",
        control_url=control_url(),
        game_css=catalogs.screens("tv.css"),
        game_js=catalogs.screens("tv.js"),
    )


@bp.get("/tv/qr.svg")
def qr() -> Response:
    response = Response(qr_svg(control_url()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response
