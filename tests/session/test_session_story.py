"""A normal run's log reads as the story of the game: one line per move in the players' words."""

from __future__ import annotations

import logging

import pytest

from companion.session import Command, Session

from .sessionkit import new_nim, take


def test_each_move_and_each_refusal_is_one_line_of_the_story(
    session: Session, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="companion.story"):
        new_nim(session)
        take(session, 0, 1)
        take(session, 0, 1, player=0)  # not Ann's turn any more
        session.submit(Command("end_game", "control"))
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.story"]
    assert lines == [
        "#1 of game 1, from test: New game of Nim: Ann, Bob",
        "#2 of game 1, from test: Ann took 1 from pile 0",
        "act from test refused: it is Bob's turn",
        "#3 of game 1, from control: The game of Nim was closed",
    ]
