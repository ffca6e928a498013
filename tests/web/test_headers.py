"""Security headers on every answer, no inline script or style for the CSP to forbid, Origin checked on
every state-changing request, and a QR code that never carries a host a request made up (issue 15.4)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from companion.session import Session
from web import create_app
from web.qr import lan_address

from .web_support import PIN, new_game_body

PAGES = ["/", "/tv", "/control", "/api/view", "/static/tv.js", "/tv/qr.svg", "/nowhere"]


@pytest.mark.parametrize("url", PAGES)
def test_every_answer_carries_the_security_headers(client, url):
    headers = client.get(url).headers
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "style-src 'self'" in csp and "default-src 'none'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert "frame-ancestors 'none'" in csp and headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"


def test_the_tv_page_may_be_framed_by_the_hall_it_names(tmp_path):
    with Session(tmp_path / "t.sqlite3") as session:
        config = {"TABLE_PIN": PIN, "TESTING": True, "TV_FRAME_ANCESTORS": "http://hall.local:8080"}
        client = create_app(config, session).test_client()
        tv = client.get("/tv").headers
        assert "frame-ancestors http://hall.local:8080" in tv["Content-Security-Policy"]
        assert "X-Frame-Options" not in tv
        assert client.get("/control").headers["X-Frame-Options"] == "DENY"  # never the phones' page


def test_a_phones_answers_are_never_cached(logged_in):
    for url in ("/control", "/control/seat", "/control/phones"):
        assert logged_in.get(url).headers["Cache-Control"] == "no-store", url


class Inline(HTMLParser):
    """Finds what a CSP without 'unsafe-inline' blocks: inline scripts, handlers, style elements and
    attributes. A JSON data block (``type="application/json"``) is data, not a script."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "style":
            self.found.append("<style>")
        for name in attributes:
            if name == "style" or name.startswith("on"):
                self.found.append(f"{tag} {name}=")
        if tag == "script":
            self._script = attributes

    def handle_data(self, data):
        if self._script is not None and data.strip():
            if self._script.get("src") is None and self._script.get("type") != "application/json":
                self.found.append(f"inline script: {data.strip()[:40]}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = None


@pytest.mark.parametrize("url", ["/", "/tv", "/control", "/nowhere"])
def test_no_page_has_inline_script_or_style(logged_in, url):
    logged_in.post("/control/commands", json=new_game_body())
    parser = Inline()
    parser.feed(logged_in.get(url).get_data(as_text=True))
    assert parser.found == []
    outside = Inline()
    outside.feed(logged_in.application.test_client().get("/control").get_data(as_text=True))
    assert outside.found == []  # the PIN and join forms too


def test_a_post_from_another_sites_page_is_refused_before_anything_reads_it(logged_in, session):
    for origin in ("http://evil.example", "null", "http://localhost:8001", "https://localhost"):
        answer = logged_in.post("/control/commands", json=new_game_body(), headers={"Origin": origin})
        assert answer.status_code == 403 and "another site" in answer.json["reason"], origin
    cross = logged_in.post(
        "/control/commands", json=new_game_body(), headers={"Sec-Fetch-Site": "cross-site"}
    )
    assert cross.status_code == 403
    form = logged_in.application.test_client().post(
        "/control/pin", data={"pin": PIN}, headers={"Origin": "http://evil.example"}
    )
    assert form.status_code == 403
    assert session.games() == []


def test_the_pages_own_posts_and_scripts_pass(logged_in, session):
    own = logged_in.post(
        "/control/commands",
        json=new_game_body(),
        headers={"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"},
    )
    assert own.status_code == 200
    script = logged_in.application.test_client().post(
        "/api/commands", json={"kind": "end_game"}, headers={"X-Table-Pin": PIN}
    )
    assert script.status_code == 200  # no Origin: not a browser page, the PIN decides


def test_a_made_up_host_never_reaches_the_qr_code(client):
    forged = {"Host": "evil.example:8000"}
    page = client.get("/tv", headers=forged).get_data(as_text=True)
    assert "evil.example" not in page
    assert f"http://{lan_address()}/control" in page
    assert b"evil" not in client.get("/tv/qr.svg", headers=forged).data
    assert client.get("/tv/qr.svg", headers=forged).data == client.get("/tv/qr.svg").data


def test_static_files_and_templates_hold_no_inline_handlers():
    from pathlib import Path

    web = Path(__file__).resolve().parents[2] / "web"
    for path in [*web.glob("templates/*.html"), *web.glob("static/*.js")]:
        text = path.read_text()
        assert not re.search(r"""\son[a-z]+=["']""", text), path
        assert "innerHTML" not in text and 'setAttribute("style"' not in text, path
