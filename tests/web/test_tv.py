"""The TV scoreboard shell, its QR code and its static files: read-only, local, no PIN."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from web import create_app
from web.qr import lan_address

from .web_support import PIN

WEB = Path(__file__).resolve().parents[2] / "web"


@pytest.mark.parametrize("url", ["/", "/tv"])
def test_the_tv_page_is_a_shell_that_streams_the_view(client, url):
    response = client.get(url)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    for element in ('id="players"', 'id="prompt"', 'id="ticker"', 'id="banner"', 'id="final"'):
        assert element in page
    # No inline script (the CSP allows none): boot.js starts the page from this JSON block.
    found = re.search(r'<script id="tv-config" type="application/json">(.*?)</script>', page)
    assert found is not None
    config = json.loads(found.group(1))
    assert config == {
        "stream": "/stream",
        "history": "/api/history?limit=6",
        "view": "/api/view",
        "dice": "/api/dice",
        "pairing": "/tv/pairing",
    }
    assert "/static/boot.js" in page and "TableTV.start(" not in page
    assert "/tv/qr.svg" in page


def test_the_qr_code_is_an_svg_of_the_control_url(client):
    page = client.get("/tv").get_data(as_text=True)
    assert f"http://{lan_address()}/control" in page  # this machine's address, when no public URL is set
    response = client.get("/tv/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data(as_text=True).startswith("<svg")


def test_the_qr_code_follows_the_public_url(session):
    app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", "PUBLIC_URL": "http://table.local:8000/"}, session)
    client = app.test_client()
    assert "http://table.local:8000/control" in client.get("/").get_data(as_text=True)
    other = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k", "PUBLIC_URL": "http://10.0.0.9:8000"}, session)
    assert client.get("/tv/qr.svg").data != other.test_client().get("/tv/qr.svg").data


@pytest.mark.parametrize("name", ["tv.js", "live.js", "control.js", "tv.css", "common.css", "control.css"])
def test_static_files_are_served_locally(client, name):
    response = client.get(f"/static/{name}")
    assert response.status_code == 200
    assert response.data
    response.close()


def test_nothing_is_loaded_from_another_site():
    """The table may have no internet: every script, style and image comes from the Pi."""
    for path in [*WEB.glob("templates/*.html"), *WEB.glob("static/*")]:
        if path.suffix == ".ico":
            continue  # an image, not text that could name another site
        text = path.read_text()
        assert not re.search(r"""(src|href)=["']https?://""", text), path
        assert "@import url(http" not in text, path


def test_the_tv_needs_no_pin_and_changes_nothing(client, session):
    before = dict(session.view())
    assert client.get("/").status_code == 200
    assert client.get("/tv/qr.svg").status_code == 200
    assert dict(session.view()) == before


def test_the_kiosk_hides_the_cursor_over_the_scoreboard(client):
    assert 'class="tv kiosk"' in client.get("/?kiosk=1").get_data(as_text=True)
    assert 'class="tv"' in client.get("/").get_data(as_text=True)
    assert "body.tv.kiosk" in client.get("/static/tv.css").get_data(as_text=True)


def test_every_browser_gets_an_icon(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.mimetype == "image/vnd.microsoft.icon"
    data = icon.get_data()
    assert data[:4] == b"\x00\x00\x01\x00" and data[4] >= 1  # an ICO with images in it
    svg = client.get("/static/icon.svg")
    assert svg.status_code == 200 and svg.get_data(as_text=True).startswith("<svg")
    for page in ("/tv", "/control"):
        assert 'rel="icon"' in client.get(page).get_data(as_text=True)
