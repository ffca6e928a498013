"""The random-play simulator: whole games, no invariant broken, figures reported."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.engine import Action, Event
from companion.games.chaos_marauders.cards import Role
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.chaos_marauders.facts import default_facts
from companion.games.chaos_marauders.lines import line_error
from companion.games.chaos_marauders.simulate import (
    FULL_CHECK_EVERY,
    Checker,
    play,
    replay_bench,
    setup_for,
    simulate,
)
from companion.games.chaos_marauders.state import State, evolve

from .strategies import ALL_IDS, CATALOG, legal_lines


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
    for key in ("games", "games_per_second", "games_per_cpu_second", "invariant_violations", "actions"):
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


def test_invariant_check_catches_a_tribe_of_four_sneaky_gits() -> None:
    from companion.games.chaos_marauders.simulate import invariant_violations
    from companion.games.chaos_marauders.state import EMPTY_LINE, evolve

    from .positions import GAME, GIT, HS, line, position

    state = position()
    four = evolve(state, boards=(state.boards[0], (line(HS, GIT, GIT), line(HS, GIT, GIT), EMPTY_LINE)))
    assert any("seat 1: a tribe cannot hold four" in v for v in invariant_violations(GAME, four))


class Sabotaged(ChaosMarauders):
    """A ChaosMarauders whose ``apply`` breaks the position once, after its ``at``-th action."""

    def __init__(self, at: int, breaker: Callable[[State], State]) -> None:
        super().__init__()
        self.at, self.breaker, self.count = at, breaker, 0

    def apply(self, state: State, action: Action) -> tuple[State, tuple[Event, ...]]:
        state, events = super().apply(state, action)
        self.count += 1
        if self.count == self.at:
            state = self.breaker(state)
        return state, events


def _duplicate_a_card(state: State) -> State:
    card = next(c for cells in state.boards[state.active] for c in cells if c is not None)
    return evolve(state, discard=(*state.discard, card))


def _misplace_a_card(state: State) -> State:
    """Moves a card that is not a Musician to the right end of its line (cards stay conserved)."""
    f = default_facts()
    for seat, board in enumerate(state.boards):
        for li, cells in enumerate(board):
            for s, c in enumerate(cells[:-1]):
                if c is not None and f.role[c] is not Role.MUSICIAN and cells[-1] is None:
                    new = list(cells)
                    new[s], new[-1] = None, c
                    new_board = tuple(tuple(new) if i == li else x for i, x in enumerate(board))
                    boards = tuple(new_board if i == seat else b for i, b in enumerate(state.boards))
                    return evolve(state, boards=boards)
    raise AssertionError("no card to misplace")


def test_simulator_reports_a_card_duplicated_mid_game_at_that_action() -> None:
    at = 3 * FULL_CHECK_EVERY + 5  # between two full checks: the incremental check must see it
    record = play(Sabotaged(at, _duplicate_a_card), setup_for(4), random.Random(2), cap=at + 40)
    assert record.violations, "a duplicated card went unnoticed"
    assert record.violations[0].startswith(f"action {at}: "), record.violations[0]
    assert "on the table, piles and in hand" in record.violations[0]


def test_simulator_reports_an_illegal_line_made_mid_game_at_that_action() -> None:
    at = 2 * FULL_CHECK_EVERY + 7
    record = play(Sabotaged(at, _misplace_a_card), setup_for(4), random.Random(4), cap=at + 40)
    assert record.violations, "an illegal line went unnoticed"
    assert record.violations[0].startswith(f"action {at}: "), record.violations[0]
    assert "right end" in record.violations[0] or "right of the Musician" in record.violations[0]


def test_simulator_checks_every_action_when_asked_and_reports_violations_in_the_figures(monkeypatch) -> None:
    from companion.games.chaos_marauders import simulate as sim

    monkeypatch.setattr(sim, "ChaosMarauders", lambda: Sabotaged(40, _duplicate_a_card))
    figures = sim.simulate(players=3, games=1, seed=1)
    assert figures["invariant_violations"] > 0 and figures["violation_examples"]


_ANY_CELL = st.one_of(st.none(), st.sampled_from(ALL_IDS), st.just("no-such-card"))


@settings(max_examples=400, deadline=None)
@given(st.one_of(legal_lines(), st.lists(_ANY_CELL, min_size=12, max_size=12).map(tuple)))
def test_the_checkers_quick_line_verdict_is_line_errors(line: tuple) -> None:
    checker = Checker(ChaosMarauders())
    assert checker._line_legal(line) == (line_error(line, CATALOG) is None)
