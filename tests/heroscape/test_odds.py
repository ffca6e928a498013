"""Exact attack odds (issue 9, point 5): ``companion odds heroscape --attack A --defense D --json``."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from companion.games.heroscape.odds import combat_faces, odds, wound_distribution


def enumerate_wounds(attack: int, defense: int) -> list[Fraction]:
    """Every way the dice can fall, counted one by one (the slow, obvious way)."""
    faces = combat_faces()
    out = [Fraction(0)] * (attack + 1)
    total = len(faces) ** (attack + defense)
    for throw in itertools.product(faces, repeat=attack + defense):
        skulls = throw[:attack].count("skull")
        shields = throw[attack:].count("shield")
        out[max(0, skulls - shields)] += Fraction(1, total)
    return out


def test_two_against_four() -> None:
    """Issue 9: 2 attack dice against 4 defence dice wound at least once 24.69 % of the time."""
    assert round(odds(2, 4)["p_at_least_one"] * 100, 2) == 24.69


def test_four_against_five() -> None:
    """Issue 9: 4 against 5: 46.3 %."""
    assert round(odds(4, 5)["p_at_least_one"] * 100, 1) == 46.3


@given(st.integers(0, 4), st.integers(0, 4))
def test_the_exact_distribution_matches_counting_every_throw(attack: int, defense: int) -> None:
    assert wound_distribution(attack, defense) == enumerate_wounds(attack, defense)


@given(st.integers(0, 12), st.integers(0, 12))
def test_a_distribution_sums_to_one_and_the_expectation_agrees(attack: int, defense: int) -> None:
    dist = wound_distribution(attack, defense)
    assert sum(dist) == 1 and len(dist) == attack + 1
    figures = odds(attack, defense)
    assert abs(figures["expected"] - float(sum(w * p for w, p in enumerate(dist)))) < 1e-12
    assert abs(figures["p_at_least_one"] - float(1 - dist[0])) < 1e-12


@given(st.integers(0, 10), st.integers(0, 10))
def test_another_defence_die_never_helps_the_attacker(attack: int, defense: int) -> None:
    assert wound_distribution(attack, defense + 1)[0] >= wound_distribution(attack, defense)[0]


def run_odds(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "companion", "odds", "heroscape", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_the_command_prints_the_json_figures() -> None:
    done = run_odds("--attack", "2", "--defense", "4", "--json")
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == {"p_at_least_one", "expected", "distribution"}
    assert round(figures["p_at_least_one"], 4) == 0.2469
    assert len(figures["distribution"]) == 3


def test_the_command_refuses_impossible_dice_in_one_line() -> None:
    done = run_odds("--attack", "-1", "--defense", "4")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "dice" in done.stderr
