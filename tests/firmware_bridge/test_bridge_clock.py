"""The board's millisecond stamps on the host's monotonic clock (issue 16.8: one clock for buttons)."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge.clock import WRAP, DeviceClock
from firmware_bridge.firmware import tcproto

BOOT = 5000.0
"""Host monotonic seconds when the board booted: the offset the clock must find."""


def heartbeats(
    clock: DeviceClock, start_ms: int, count: int, delays: list[float], every_ms: int = 500
) -> int:
    """Feeds heartbeats stamped start, start + every, ... arriving after ``delays`` (cycled)."""
    ms = start_ms
    for i in range(count):
        clock.sample(ms % WRAP, BOOT + ms / 1000 + delays[i % len(delays)])
        ms += every_ms
    return ms


def test_nothing_to_say_before_a_sample() -> None:
    clock = DeviceClock()
    assert clock.to_host(100) is None and clock.offset is None


def test_the_fastest_frame_gives_the_offset() -> None:
    clock = DeviceClock()
    heartbeats(clock, 0, 10, [0.004, 0.0005, 0.012, 0.002])
    assert clock.offset == pytest.approx(BOOT + 0.0005)
    assert clock.to_host(2_000) == pytest.approx(BOOT + 2.0005)


def test_presses_keep_their_device_order_and_spacing_whenever_they_arrive() -> None:
    clock = DeviceClock()
    rng = random.Random(8)
    heartbeats(clock, 0, 40, [rng.uniform(0.0003, 0.02) for _ in range(40)])
    first, second = 19_800, 19_803  # 3 ms apart on the board
    clock.sample(first, BOOT + 20.9)  # the first reached the host late (re-sent after a hiccup) ...
    clock.sample(second, BOOT + 19.81)  # ... after the second
    a, b = clock.to_host(first), clock.to_host(second)
    assert a is not None and b is not None
    assert b - a == pytest.approx(0.003, abs=1e-6)
    assert a == pytest.approx(BOOT + 19.8, abs=0.001)  # the moment it was pressed, not when it came


def test_a_press_before_any_heartbeat_is_its_own_sample() -> None:
    clock = DeviceClock()
    clock.sample(700, BOOT + 0.7015)
    assert clock.to_host(700) == pytest.approx(BOOT + 0.7015)


def test_a_busy_start_is_corrected_at_once_then_only_slowly() -> None:
    clock = DeviceClock(step=0.05)
    clock.sample(0, BOOT + 0.3)  # the host was busy: 300 ms late
    clock.sample(500, BOOT + 0.5005)  # a quick one: the 300 ms was no offset, corrected at once
    assert clock.offset == pytest.approx(BOOT + 0.0005)
    clock.sample(1000, BOOT + 1.0)  # 0.5 ms quicker still: within a step, slewed (0.1 % of 0.5 s)
    assert clock.offset == pytest.approx(BOOT + 0.0005 - 0.0005)


def test_drift_between_the_crystals_is_followed() -> None:
    clock = DeviceClock(window=20.0)
    slow = 100e-6  # the board's crystal 100 ppm slow: its stamps fall behind the host's clock
    for i in range(600):  # five minutes of heartbeats
        ms = i * 500
        clock.sample(ms, BOOT + ms / 1000 * (1 + slow) + 0.0005)
    host = clock.to_host(299_500)
    assert host is not None
    assert host == pytest.approx(BOOT + 299.5 * (1 + slow) + 0.0005, abs=0.003)


def test_stamps_wrap_at_two_to_the_thirty_two_milliseconds() -> None:
    clock = DeviceClock()
    start = WRAP - 1_000
    end = heartbeats(clock, start, 6, [0.001])
    assert end % WRAP == 2_000
    before, after = clock.to_host(WRAP - 200), clock.to_host(300)
    assert before is not None and after is not None
    assert after - before == pytest.approx(0.5)


def test_a_new_boot_forgets_the_old_clock() -> None:
    clock = DeviceClock()
    heartbeats(clock, 60_000, 4, [0.001])
    clock.reset()
    assert clock.offset is None
    clock.sample(200, BOOT + 100 + 0.2)
    assert clock.to_host(200) == pytest.approx(BOOT + 100.2)


@given(
    st.lists(st.tuples(st.integers(1, 2_000), st.floats(0, 0.049)), min_size=1, max_size=60),
    st.lists(st.integers(0, 100_000), min_size=2, max_size=6, unique=True),
)
def test_the_mapping_never_reverses_or_stretches_two_presses(
    steps: list[tuple[int, float]], presses: list[int]
) -> None:
    """Whatever the delays (below the 50 ms step), stamps map in their order and at their spacing,
    to 0.1 %: the offset follows device time at a bounded slope."""
    clock = DeviceClock()
    ms = 0
    for gap, delay in steps:
        ms += gap
        clock.sample(ms, BOOT + ms / 1000 + delay)
    mapped = [(p, clock.to_host(p)) for p in sorted(presses)]
    for (p0, h0), (p1, h1) in pairwise(mapped):
        assert h0 is not None and h1 is not None
        device_gap = (p1 - p0) / 1000
        assert h1 > h0
        assert h1 - h0 == pytest.approx(device_gap, rel=1.0001e-3, abs=1e-9)


def test_the_firmware_uptime_survives_the_pico_tick_wrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """MicroPython's ticks_ms wraps at 2**30 and ticks_diff holds for half that: the uptime the board
    stamps presses with must keep counting through both (a board left on for a fortnight)."""
    period = 1 << 30

    def ticks_diff(a: int, b: int) -> int:  # MicroPython's, for a period of 2**30
        return ((a - b + period // 2) & (period - 1)) - period // 2

    monkeypatch.setattr(tcproto, "ticks_diff", ticks_diff)
    now = [period - 5_000]
    link = tcproto.DeviceLink(
        lambda wire: None,
        lambda: now[0],
        {"firmware": (0, 2, 0), "device_id": "t", "readers": 0, "dice": [], "buttons": []},
        lambda: ([], []),
        boot_id=1,
    )
    seen = []
    for _ in range(60):  # 15 days in steps of 6 h, each within ticks_diff's reach
        now[0] = (now[0] + 6 * 3_600_000) % period
        seen.append(link.uptime_ms())
    assert seen == [6 * 3_600_000 * (i + 1) for i in range(60)]


def test_a_flood_of_stamps_keeps_the_clock_small() -> None:
    """A board (or a fault) sending edges as fast as the line goes must not grow the host's work."""
    clock = DeviceClock(window=20.0)
    rng = random.Random(3)
    for ms in range(0, 60_000):  # a minute of stamps, one per millisecond, some of them old
        stamp = ms - rng.randrange(0, 30_000) if ms % 7 == 0 else ms
        clock.sample(stamp, BOOT + ms / 1000 + 0.001)
    assert len(clock._fastest) <= 22 and len(clock._times) <= 20.0 / 0.1 + 2
    assert clock.to_host(59_000) == pytest.approx(BOOT + 59.001)
