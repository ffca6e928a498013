"""Duplicates dropped by (table, seq), and confirmations of a result that count only for that result."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.hall.confirm import CONFIRMED, confirmation_note, confirmed_seats, result_digest
from companion.hall.dedup import Deduplicator
from companion.hall.topics import TableId

T1, T2 = TableId("t1"), TableId("t2")


@given(st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=300), st.randoms())
def test_each_seq_is_taken_once_however_often_and_in_whatever_order_it_comes(seqs, rng):
    """QoS 1 redelivers, and a reconnect re-publishes from the watermark: whatever arrives, the hall
    takes every seq exactly once (given the first seq it ever saw is the lowest, as in-order publishing
    guarantees)."""
    arrivals = sorted(seqs)[:1] + seqs
    rng.shuffle(arrivals[1:])
    dedup = Deduplicator()
    taken = [seq for seq in arrivals if dedup.first_time(T1, "log", 0, seq)]
    assert sorted(taken) == sorted(set(arrivals))


def test_tables_and_logs_are_counted_apart():
    dedup = Deduplicator()
    assert dedup.first_time(T1, "a", 0, 1)
    assert dedup.first_time(T2, "a", 0, 1)
    assert not dedup.first_time(T1, "a", 0, 1)
    assert dedup.first_time(T1, "b", 0, 1)  # a new event log starts its seqs over


def test_a_gap_is_told_until_it_is_filled():
    dedup = Deduplicator()
    for seq in (1, 2, 5, 6):
        dedup.first_time(T1, "a", 0, seq)
    assert dedup.missing(T1) == (3, 4)
    dedup.first_time(T1, "a", 0, 3)
    dedup.first_time(T1, "a", 0, 4)
    assert dedup.missing(T1) is None
    assert not dedup.first_time(T1, "a", 0, 6)


def test_a_hall_that_joins_late_starts_from_the_first_seq_it_sees():
    dedup = Deduplicator()
    assert dedup.first_time(T1, "a", 0, 200)
    assert dedup.missing(T1) is None
    assert dedup.first_time(T1, "a", 0, 201)


RESULT = {
    "final": True,
    "winners": [0],
    "standings": [{"seat": 0, "rank": 1, "points": 3.0}, {"seat": 1, "rank": 2, "points": 1.0}],
}


def note(seat: int, digest: str, game_id: int = 1) -> dict:
    return {"kind": "note", "action": confirmation_note(game_id, seat, "Ann", digest, "Ann wins")}


def test_confirmations_count_for_their_result_only():
    digest = result_digest(1, RESULT)
    other = result_digest(1, {**RESULT, "winners": [1]})
    assert digest != other
    assert result_digest(2, RESULT) != digest  # another game
    history = [note(0, digest), note(1, other), note(1, digest, game_id=2), {"kind": "act", "action": {}}]
    assert confirmed_seats(history, 1, digest) == {0}
    assert history[0]["action"]["event"] == CONFIRMED


def test_a_digest_ignores_what_does_not_change_the_result():
    assert result_digest(1, {**RESULT, "outcome": "Ann wins!", "details": {"x": 1}}) == result_digest(
        1, RESULT
    )
