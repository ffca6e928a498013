"""Values shared by the web tests (a module, not conftest: tests import it by name)."""

from __future__ import annotations

from typing import Any

PIN = "2468"

LEGAL_PLACE = {"kind": "place", "player": 0, "card": "crummy-snotling-slaves", "line": 0, "slot": 3}
"""Legal as the first action of a game: seat 0 lays a Snotling on line 1, slot 4 (the draw is implied)."""


def new_game_body(count: int = 4) -> dict[str, Any]:
    names = ["Grotsnik", "Ugluk", "Snagla", "Bogrot"][:count]
    colours = ["#e23b3b", "#2f7df6", "#2fb84f", "#f2b01e"][:count]
    players = [{"name": n, "colour": c} for n, c in zip(names, colours, strict=True)]
    return {"kind": "new_game", "payload": {"game": "chaos-marauders", "players": players}}
