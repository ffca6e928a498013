"""Shared by the hall tests: a real Mosquitto or a skip (a failure when CI requires one), and Nim with
a stated result (the test-only game of the session tests, which states none)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import ClassVar

import pytest

from companion.engine import Game, GameResult, PlayerId, Standing
from mqtt_link.broker import find_mosquitto
from tests.session.nim import Nim, NimState


def mosquitto_or_skip(path: str | None, environ: Mapping[str, str]) -> str:
    """The broker binary; skips without one, or fails when the environment requires it (CI)."""
    if path is None:
        message = "no Mosquitto: install Debian's mosquitto (apt-get install mosquitto)"
        if environ.get("COMPANION_REQUIRE_MOSQUITTO") == "1":
            pytest.fail(f"{message}; COMPANION_REQUIRE_MOSQUITTO=1 makes this a failure")
        pytest.skip(message)
    return path


def binary() -> str | None:
    return find_mosquitto()


class ResultNim(Nim):
    """Nim that states its result: the last taker first, the others second; points are the counters
    each seat took."""

    name: ClassVar[str] = "nim"

    def result(self, state: NimState) -> GameResult:
        seats = len(state.names)
        winner = state.winner
        standings = tuple(
            Standing(PlayerId(s), state.names[s], 1 if winner is None or winner == s else 2, float(s))
            for s in range(seats)
        )
        winners = (PlayerId(winner),) if winner is not None else tuple(PlayerId(s) for s in range(seats))
        outcome = f"{state.names[winner]} wins" if winner is not None else ""
        return GameResult(final=winner is not None, winners=winners, standings=standings, outcome=outcome)


def find_result_nim(name: str) -> Game:
    if name != "nim":
        raise ValueError(f"unknown game {name!r}")
    return ResultNim()


def wait_until(done: Callable[[], bool], timeout: float = 10.0, what: str = "the condition") -> None:
    """Waits for another thread's (or process's) work, woken by a short event wait."""
    deadline = time.monotonic() + timeout
    pause = threading.Event()
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout} s")
        pause.wait(0.02)
