"""The random-play simulator (``companion simulate heroscape``): complete games of every scenario with
no invariant broken, and the command's JSON figures."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.games.heroscape.simulate import simulate


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_of_every_scenario_finish_with_no_invariant_broken(players: int) -> None:
    games = 11 if players == 2 else 3  # every scenario for the player count once
    figures = simulate(players, games=games, seed=players)
    assert figures["invariant_violations"] == 0, figures["violation_examples"]
    assert figures["capped_games"] == 0
    assert figures["finished_games"] == figures["games"]
    assert sum(figures["wins_by_seat"]) >= 1


def test_an_unknown_scenario_for_the_player_count_is_refused() -> None:
    with pytest.raises(ValueError, match="not for 4 players"):
        simulate(4, games=1, seed=0, scenario="a-long-wait")


def test_the_command_prints_its_figures_as_json() -> None:
    command = [
        sys.executable,
        "-m",
        "companion",
        "simulate",
        "heroscape",
        "--games",
        "2",
        "--seed",
        "1",
        "--json",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["games"] == 2 and figures["invariant_violations"] == 0
    named = {"seconds", "games_per_second", "actions", "rolloffs", "capped_games", "wins_by_seat"}
    assert named <= set(figures)


def test_the_command_refuses_a_player_count_in_one_line() -> None:
    command = [sys.executable, "-m", "companion", "simulate", "heroscape", "--players", "5"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0


def test_a_view_that_reads_a_face_down_marker_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    """The simulator renders the public view over watched markers: reading a face-down one, even
    without showing it, is reported; reading a revealed one is not."""
    from companion.games.heroscape import view as view_module
    from companion.games.heroscape.actions import EndTurn
    from companion.games.heroscape.simulate import violations

    from .rules_support import GAME, battle

    state = battle([["raelin"], ["tor-kul-na"]], [("0:raelin",) * 4, ("1:tor-kul-na",) * 4])
    action = EndTurn(0)
    assert violations(GAME, state, state, action, ()) == []
    honest = view_module.view

    def peeking(*args: object) -> dict[str, object]:
        shown = honest(*args)  # type: ignore[arg-type]
        markers = args[1].sides[0].markers  # type: ignore[attr-defined]
        shown["first"] = markers[0]  # revealed: turn 1 is under way
        shown["peek"] = markers[2] == "0:raelin"  # face down: a leak even as a yes or no
        return shown

    monkeypatch.setattr(view_module, "view", peeking)
    found = violations(GAME, state, state, action, ())
    assert found == ["the public view reads face-down markers (seat 0 marker 3)"]


def test_the_figures_say_how_much_cpu_the_games_took() -> None:
    figures = simulate(2, games=1, seed=3)
    assert figures["cpu_seconds"] > 0 and figures["games_per_cpu_second"] > 0
