"""The random-play simulator: whole games, no invariant broken, figures reported."""

from __future__ import annotations

import json

from companion.cli import main
from companion.games.chaos_marauders.simulate import replay_bench, simulate


def test_simulator_plays_hundreds_of_games_without_breaking_an_invariant() -> None:
    figures = simulate(players=2, games=250, seed=7)
    assert figures["invariant_violations"] == 0, figures["violation_examples"]
    assert figures["games"] == 250
    assert figures["capped_games"] == 0
    assert sum(figures["winners_by_seat"]) >= 250


def test_simulator_four_players() -> None:
    figures = simulate(players=4, games=30, seed=3)
    assert figures["invariant_violations"] == 0, figures["violation_examples"]
    assert figures["mean_actions_per_game"] > 50


def test_simulator_is_deterministic_for_a_seed() -> None:
    a, b = simulate(3, 5, seed=11), simulate(3, 5, seed=11)
    assert a["actions"] == b["actions"] and a["winners_by_seat"] == b["winners_by_seat"]


def test_replay_folds_apply_back_to_the_same_final_positions() -> None:
    figures = replay_bench(actions=2000, seed=5, players=2)
    assert figures["actions"] == 2000 and figures["seconds"] > 0


def test_cli_prints_json_figures(capsys) -> None:
    code = main(["simulate", "chaos-marauders", "--players", "2", "--games", "3", "--seed", "1", "--json"])
    figures = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("games", "games_per_second", "invariant_violations", "actions", "mean_actions_per_game"):
        assert key in figures
    assert figures["games"] == 3 and figures["invariant_violations"] == 0


def test_invariant_check_catches_a_lost_card_and_an_illegal_line() -> None:
    from companion.games.chaos_marauders.simulate import invariant_violations
    from companion.games.chaos_marauders.state import EMPTY_LINE, evolve

    from .positions import DIRT, GAME, HS, line, position

    state = position({0: [line(HS, DIRT)]})
    lost = evolve(state, discard=state.discard[:-1] if state.discard else (), pile=(0, *state.pile[1:]))
    assert any("crummy-snotling-slaves" in v for v in invariant_violations(GAME, lost))
    illegal = evolve(state, boards=((line(DIRT, HS), EMPTY_LINE, EMPTY_LINE), state.boards[1]))
    assert any("left end" in v or "left of" in v for v in invariant_violations(GAME, illegal))
