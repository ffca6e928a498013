"""The demo's log reads as a story: a move the simulated table enters as from the control page is
a debug line, counted and told once per game, never an INFO line per move."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from companion.cli.demo import SimulatedTable
from companion.demo_player import DemoBrain
from companion.games import find_bundle
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo, Layout, PhysicalPlayer


class Submitted:
    """A DemoTable that takes every move entered directly."""

    def __init__(self) -> None:
        self.moves: list[dict[str, Any]] = []

    def submit(self, payload: dict[str, Any]) -> bool:
        self.moves.append(dict(payload))
        return True


def test_a_move_not_made_at_the_table_is_a_debug_line_and_counted(caplog: pytest.LogCaptureFixture) -> None:
    kit = ChaosMaraudersDemo(random.Random(1))
    table = Submitted()
    hands = PhysicalPlayer(table, object(), Layout(), kit)  # type: ignore[arg-type]
    with caplog.at_level(logging.INFO):
        hands._direct({"kind": "roll", "player": 1, "die": "cube", "faces": ["eye"]}, physical=True)
    assert table.moves and hands.direct == 1
    assert [r for r in caplog.records if r.levelno >= logging.INFO] == []


def test_the_end_of_a_demo_game_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    kit = ChaosMaraudersDemo(random.Random(1))
    hands = PhysicalPlayer(Submitted(), object(), Layout(), kit)  # type: ignore[arg-type]
    hands.physical, hands.direct, hands.late = 420, 12, 3
    demo = SimulatedTable(
        object(), find_bundle("chaos-marauders"), kit, DemoBrain(kit, random.Random(1)), hands
    )
    with caplog.at_level(logging.INFO, logger="companion.cli.demo"):
        demo._tell_game_over()
    (line,) = [r.getMessage() for r in caplog.records]
    assert line == (
        "the demo's game is over: 420 moves made at the table, 12 entered as from the control page"
        " (3 the table did not take up in time); the next one starts in 30 s"
    )
