"""The settle tracker alone: pure, fed with times."""

from __future__ import annotations

from companion.observations import ReaderId, TagUid
from companion.table.settle import Ambiguous, Cleared, Lifted, Placed, SettleTracker

R0, R1 = ReaderId(0), ReaderId(1)
TAG = TagUid("04A1")


def test_a_tag_settles_after_the_window_and_the_deadline_says_when():
    tracker = SettleTracker(settle=0.3, removal=0.4)
    tracker.seen(R0, TAG, 10.0)
    assert tracker.next_deadline() == 10.3
    assert tracker.due(10.29) == []
    assert tracker.due(10.3) == [Placed(R0, TAG, 10.0, 10.3)]
    assert tracker.next_deadline() is None
    assert tracker.committed_on(R0) == [TAG] and tracker.placed_reader(TAG) == R0


def test_a_lift_waits_for_the_removal_window():
    tracker = SettleTracker(settle=0.3, removal=0.4)
    tracker.seen(R0, TAG, 0.0)
    tracker.due(1.0)
    tracker.gone(R0, TAG, 2.0)
    assert tracker.due(2.39) == []
    assert tracker.due(2.4) == [Lifted(R0, TAG, 2.0)]
    assert tracker.committed_on(R0) == []


def test_a_card_moved_from_one_line_to_another_is_placed_there_then_lifted_here():
    tracker = SettleTracker(settle=0.3, removal=0.4)
    tracker.seen(R0, TAG, 0.0)
    tracker.due(0.3)
    tracker.seen(R1, TAG, 1.0)
    tracker.gone(R0, TAG, 1.05)
    assert tracker.due(1.35) == [Placed(R1, TAG, 1.05, 1.35)]  # its window began when it left R0
    assert tracker.due(1.46) == [Lifted(R0, TAG, 1.05)]


def test_ambiguity_is_reported_once_and_cleared_when_one_reading_goes():
    tracker = SettleTracker(settle=0.3, removal=0.4)
    tracker.seen(R0, TAG, 0.0)
    tracker.seen(R1, TAG, 0.0)
    assert tracker.due(0.3) == [Ambiguous(TAG, (R0, R1))]
    assert tracker.due(5.0) == []
    tracker.gone(R1, TAG, 5.0)
    assert tracker.due(5.0) == [Cleared(TAG)]
    assert tracker.due(5.3) == [Placed(R0, TAG, 5.0, 5.3)]
