"""``/`` and ``/tv``: the read-only scoreboard for the TV. The server sends the shell; tv.js draws
each published view it receives from ``/stream``."""

from __future__ import annotations

import ipaddress

from flask import Blueprint, Response, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import Forbidden

from web import catalogs, pairing, phones
from web.qr import lan_address, qr_svg

bp = Blueprint("tv", __name__)


def control_url() -> str:
    """What the QR code opens: the configured public URL, else this machine's LAN address and the port
    the server listens on. Never the request's Host header: a request naming another host must not put
    that host into the code the whole table scans."""
    base = current_app.config.get("PUBLIC_URL")
    if not base:
        port = request.environ.get("SERVER_PORT") or "80"
        base = f"http://{lan_address()}" + ("" if port == "80" else f":{port}")
    return str(base).rstrip("/") + url_for("control.index")


def trusted_display() -> bool:
    """A screen that may show join codes: the kiosk browser on this machine (``PAIR_LOCAL_DISPLAY``),
    or a browser the table let in (a TV browser logged in once, a phone)."""
    if phones.current() is not None:
        return True
    if not current_app.config["PAIR_LOCAL_DISPLAY"]:
        return False
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False


@bp.get("/")
@bp.get("/tv")
def index() -> str:
    return render_template(
        "tv.html",
        control_url=control_url(),
        config={
            "stream": url_for("stream.stream"),
            "history": url_for("api.history", limit=6),
            "view": url_for("api.view"),
            "dice": url_for("api.dice"),
            "pairing": url_for("tv.joining"),
        },
        game_css=catalogs.screens("tv.css"),
        game_js=catalogs.screens("tv.js"),
    )


@bp.get("/tv/qr.svg")
def qr() -> Response:
    response = Response(qr_svg(control_url()), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/tv/pairing")
def joining() -> Response:
    """The phones asking to join, with their codes: for a trusted display only (403 elsewhere: the
    public view says only that a phone asks)."""
    if not trusted_display():
        raise Forbidden("join codes show only on the table's own screen and on phones already in")
    response = jsonify({"joining": pairing.waiting_json()})
    response.headers["Cache-Control"] = "no-store"
    return response
