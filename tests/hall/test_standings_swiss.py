"""Standings with their tie-breaks, and Swiss pairings that never repeat a game."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hall.standings import GameRecord, standings
from companion.hall.swiss import PairingError, swiss_pairings, table_sizes


def game(players, ranks, points=None, table="t1", game_id=1, tie=False):
    winners = tuple(s for s, r in enumerate(ranks) if r == 1)
    return GameRecord(
        0,
        table,
        game_id,
        "log",
        tuple(players),
        tuple(ranks),
        tuple(points or [None] * len(players)),
        winners,
        tie=tie,
    )


def test_wins_come_first_then_strength_of_schedule_then_points():
    players = ["Ann", "Ben", "Cy", "Di"]
    records = [
        game(["Ann", "Ben"], [1, 2], [10, 5], game_id=1),
        game(["Cy", "Di"], [1, 2], [30, 0], game_id=2),
        game(["Ann", "Cy"], [2, 1], [1, 2], game_id=3),
        game(["Ben", "Di"], [1, 2], [50, 0], game_id=4),
    ]
    rows = standings(players, records)
    # Cy won twice; Ann and Ben won once each: Ann met Ben (1/2) and Cy (2/2), Ben met Ann (1/2) and Di (0/2).
    assert [r.player for r in rows] == ["Cy", "Ann", "Ben", "Di"]
    assert rows[1].sos == pytest.approx(0.75) and rows[2].sos == pytest.approx(0.25)
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_points_break_a_tie_of_wins_and_schedule_and_equal_players_share_a_rank():
    rows = standings(["Ann", "Ben", "Cy"], [game(["Ann", "Ben"], [1, 1], [5, 9], tie=True)])
    assert [r.player for r in rows] == ["Ben", "Ann", "Cy"]
    assert rows[0].wins == 0.5 and rows[1].wins == 0.5  # a shared first place is half a win
    rows = standings(["Ann", "Ben"], [])
    assert [r.rank for r in rows] == [1, 1]


def test_a_bye_is_a_win_that_says_nothing_about_strength():
    rows = standings(["Ann", "Ben", "Cy"], [game(["Ann", "Ben"], [1, 2])], byes=["Cy"])
    cy = next(r for r in rows if r.player == "Cy")
    assert cy.wins == 1 and cy.byes == 1 and cy.games == 0 and cy.sos == 0
    ben = next(r for r in rows if r.player == "Ben")
    assert ben.sos == 1.0  # Ann won her one real game


def test_names_are_matched_as_people_type_them():
    rows = standings(["Ann Lee"], [game(["  ann   LEE", "Ghost"], [1, 2])])
    assert rows[0].wins == 1 and rows[0].games == 1


@pytest.mark.parametrize(
    ("players", "seats", "low", "sizes"),
    [
        (8, 2, 2, (2, 2, 2, 2)),
        (7, 2, 2, None),
        (10, 4, 2, (4, 3, 3)),
        (5, 4, 2, (3, 2)),
        (1, 4, 2, None),
        (9, 4, 3, (3, 3, 3)),
        (0, 2, 2, ()),
    ],
)
def test_table_sizes(players, seats, low, sizes):
    assert table_sizes(players, seats, low) == sizes


def names(n):
    return [f"P{i:02d}" for i in range(n)]


def play_rounds(players, rounds, seats, min_seats, rng):
    """A tournament played with our own pairings and random winners; checks each round."""
    met: dict[str, set[str]] = {p: set() for p in players}
    byes: set[str] = set()
    wins = dict.fromkeys(players, 0)
    for _ in range(rounds):
        order = sorted(players, key=lambda p: (-wins[p], p))
        try:
            pairing = swiss_pairings(order, met, seats, min_seats, byes)
        except PairingError:
            return met, False
        seated = [p for table in pairing.tables for p in table] + ([pairing.bye] if pairing.bye else [])
        assert sorted(seated) == sorted(players), "everyone plays or has the bye, once"
        for table in pairing.tables:
            assert min_seats <= len(table) <= seats
            for a, b in itertools.combinations(table, 2):
                assert b not in met[a], f"{a} and {b} meet again"
            for p in table:
                met[p].update(q for q in table if q != p)
            wins[rng.choice(table)] += 1
        if pairing.bye:
            assert pairing.bye not in byes or all(p in byes for p in players)
            byes.add(pairing.bye)
            wins[pairing.bye] += 1
    return met, True


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=24),
    st.integers(min_value=1, max_value=5),
    st.randoms(use_true_random=False),
)
def test_two_player_swiss_never_rematches(count, rounds, rng):
    play_rounds(names(count), rounds, 2, 2, rng)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=3, max_value=24),
    st.integers(min_value=1, max_value=3),
    st.sampled_from([(3, 2), (4, 2), (4, 3)]),
    st.randoms(use_true_random=False),
)
def test_multiplayer_swiss_never_seats_two_players_together_twice(count, rounds, sizes, rng):
    play_rounds(names(count), rounds, sizes[0], sizes[1], rng)


def perfect_matching_exists(players, met):
    if not players:
        return True
    first, rest = players[0], players[1:]
    return any(
        perfect_matching_exists([p for p in rest if p != other], met)
        for other in rest
        if other not in met[first]
    )


@settings(max_examples=80, deadline=None)
@given(st.integers(min_value=1, max_value=5).map(lambda n: 2 * n), st.data())
def test_a_pairing_is_found_whenever_one_without_rematches_exists(count, data):
    players = names(count)
    pairs = list(itertools.combinations(players, 2))
    played = data.draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    met = {p: set() for p in players}
    for a, b in played:
        met[a].add(b)
        met[b].add(a)
    if perfect_matching_exists(players, met):
        pairing = swiss_pairings(players, met)
        assert all(b not in met[a] for a, b in pairing.tables)
    else:
        with pytest.raises(PairingError):
            swiss_pairings(players, met)


def test_the_top_players_meet_and_the_bye_goes_to_the_lowest_without_one():
    pairing = swiss_pairings(["A", "B", "C", "D", "E"], {p: set() for p in "ABCDE"}, had_bye={"E"})
    assert pairing.tables[0] == ("A", "B") and pairing.bye == "D"


def test_a_hundred_players_pair_quickly():
    players = names(100)
    _, complete = play_rounds(players, 7, 2, 2, random.Random(3))
    assert complete
