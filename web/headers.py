"""What every answer says about itself, and where a state-changing request may come from.

Headers (docs/api.md, Headers): a Content-Security-Policy that allows only the companion's own
scripts, styles, images and connections (the pages have no inline script or style, so none is
needed); ``X-Content-Type-Options: nosniff``; no framing (``frame-ancestors 'none'`` and
``X-Frame-Options: DENY``) except the TV page, which a hall page may frame when ``TV_FRAME_ANCESTORS``
names it; ``Referrer-Policy: same-origin`` (the table's addresses never leave in a Referer, and the
browser still sends its real Origin on the pages' own POSTs); ``no-store`` on the phones' pages.

Origin: a POST (or any method that changes things) from a browser must come from the companion's own
pages. A browser names the page's origin in ``Origin`` (and ``Sec-Fetch-Site``); another site's page,
a sandboxed frame (``Origin: null``) or a cross-site fetch is refused with 403 before anything reads
the request. Scripts and curl send neither header and pass on to the PIN check.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from werkzeug.exceptions import Forbidden

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
TV_ENDPOINTS = frozenset({"tv.index"})
"""Pages a hall may frame when ``TV_FRAME_ANCESTORS`` says which hall."""
PRIVATE_PREFIXES = ("/control", "/tv/pairing")
"""Answers that belong to one phone (its seat, its secrets, join codes): never kept by a cache."""


def policy(frame_ancestors: str) -> str:
    return "; ".join(
        (
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "img-src 'self'",
            "connect-src 'self'",
            "manifest-src 'self'",
            "base-uri 'none'",
            "form-action 'self'",
            f"frame-ancestors {frame_ancestors}",
        )
    )


def init_app(app: Flask) -> None:
    app.before_request(check_origin)
    app.after_request(add_headers)


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def allowed_origins() -> set[str]:
    """The companion's own origin as this request reached it, and the public URL's (a proxy in front)."""
    allowed = {_origin_of(request.host_url)}
    public = current_app.config.get("PUBLIC_URL")
    if public:
        allowed.add(_origin_of(str(public)))
    return allowed


def check_origin() -> None:
    if request.method in SAFE_METHODS:
        return
    origin = request.headers.get("Origin")
    site = request.headers.get("Sec-Fetch-Site")
    if origin is None:
        if site in ("cross-site", "same-site"):
            raise Forbidden("this request came from another site's page: refused")
        return  # not a browser page (a script, curl): the PIN decides
    if origin.lower() not in allowed_origins():
        raise Forbidden(f"this request came from another site's page ({origin[:60]}): refused")


def add_headers(response: Response) -> Response:
    headers = response.headers
    framed_by = current_app.config.get("TV_FRAME_ANCESTORS")
    if request.endpoint in TV_ENDPOINTS and framed_by:
        headers["Content-Security-Policy"] = policy(str(framed_by))
    else:
        headers["Content-Security-Policy"] = policy("'none'")
        headers["X-Frame-Options"] = "DENY"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "same-origin"
    headers["Cross-Origin-Opener-Policy"] = "same-origin"
    if request.path.startswith(PRIVATE_PREFIXES):
        headers["Cache-Control"] = "no-store"
    return response
