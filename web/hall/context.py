"""What the hall app reads, handed in by the entry point (no globals, no MQTT here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import current_app

from companion.hall.organiser import Organiser
from companion.hall.state import HallState

HALL = "companion.hall"


@dataclass(frozen=True)
class HallContext:
    hall_id: str
    state: HallState
    organiser: Organiser
    broker_url: str = ""
    connected: Callable[[], bool] = lambda: True
    """Whether the hall's own connection to the broker is up (the page says so when it is not)."""
    title: str = ""


def hall() -> HallContext:
    return current_app.extensions[HALL]  # type: ignore[no-any-return]
