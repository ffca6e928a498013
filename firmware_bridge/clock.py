"""The device's clock mapped onto the host's: one clock for every ``ButtonPressed``.

The board stamps a button edge with its own uptime in milliseconds (``BUTTON.device_ms``), and sends
its uptime in every HEARTBEAT. Those two share one clock, and the host turns it into its own monotonic
clock (``time.monotonic``, the one the GPIO buttons are stamped with) by an offset:

    host time of a device stamp  =  device_ms / 1000  +  offset

A frame stamped ``t`` on the device arrives at host time ``t + offset + delay``, with ``delay >= 0``,
so every such frame bounds the offset from above; the least ``arrival - t`` over the last
``window`` seconds is the estimate (the frame that travelled fastest: NTP's minimum filter). The
estimate is then off by the link's least delay (under a millisecond on USB or a pty), the same for
every press, and the window lets it follow the two crystals drifting apart.

What matters for a race is what the mapping does to two presses on the device: it keeps their
order and their spacing. The offset applied is a function of *device* time, changed at each new
sample by at most ``max_slew`` per second of device time (0.1 %), so the mapping rises with device
time at a slope within 0.1 % of 1: two presses 3 ms apart on the board are 3 ms apart on the host
(to 3 µs), whenever their frames arrive. Only a correction larger than ``step`` (the first samples
of a boot, taken while the host was busy) is made at once.

A press re-sent after an unplug arrives late but keeps the moment it was made. Stamps wrap at 2**32
ms (49.7 days); they are unwrapped against the newest one seen. A device restart (a new boot id)
starts a new clock: ``reset()``.
"""

from __future__ import annotations

import bisect

WRAP = 1 << 32
BREAKPOINT_EVERY = 0.1
"""Least device seconds between two changes of the applied offset (bounds the work per frame)."""


class DeviceClock:
    def __init__(self, window: float = 20.0, max_slew: float = 0.001, step: float = 0.05) -> None:
        self.window = window
        self.max_slew = max_slew
        self.step = step
        self.reset()

    def reset(self) -> None:
        """A new boot: its uptime starts again from zero, so nothing learned so far holds."""
        self._newest_ms: int | None = None  # unwrapped, the newest stamp seen
        self._fastest: dict[int, float] = {}  # device second -> least (arrival - stamp) seen in it
        self._times: list[float] = []  # device s of each breakpoint of the applied offset
        self._offsets: list[float] = []

    @property
    def offset(self) -> float | None:
        """The offset applied now (host seconds minus device seconds), None before any sample."""
        return self._offsets[-1] if self._offsets else None

    def sample(self, device_ms: int, arrival: float) -> None:
        """A frame stamped ``device_ms`` (u32) when it was sent reached the host at ``arrival``.

        HEARTBEATs are stamped as they are sent: the best samples. A BUTTON is stamped when pressed
        and may be sent much later (re-sent after an unplug): a loose bound, which the minimum
        passes over, but still a bound, so the first press of a boot is never without an offset.
        Work and memory stay bounded however fast frames come: one minimum per device second, one
        breakpoint per ``BREAKPOINT_EVERY``."""
        device = self._unwrap(device_ms, advance=True) / 1000
        assert self._newest_ms is not None
        oldest = self._newest_ms / 1000 - self.window
        second = int(device)
        if device >= oldest:
            delta = arrival - device
            self._fastest[second] = min(delta, self._fastest.get(second, delta))
        for old in [s for s in self._fastest if s < oldest - 1]:
            del self._fastest[old]
        if not self._fastest or (self._times and device < self._times[-1] + BREAKPOINT_EVERY):
            return  # an older or a close stamp: it counts in the estimate from the next breakpoint
        target = min(self._fastest.values())
        if not self._offsets:
            applied = target
        else:
            previous = self._offsets[-1]
            change = target - previous
            if abs(change) <= self.step:
                limit = self.max_slew * (device - self._times[-1])
                change = max(-limit, min(limit, change))
            applied = previous + change
        self._times.append(device)
        self._offsets.append(applied)
        if len(self._times) > 2 and self._times[1] < device - self.window:
            del self._times[0], self._offsets[0]

    def to_host(self, device_ms: int) -> float | None:
        """The host's monotonic time of device stamp ``device_ms``; None before any sample."""
        if not self._offsets:
            return None
        device = self._unwrap(device_ms, advance=False) / 1000
        return device + self._offset_at(device)

    def _offset_at(self, device: float) -> float:
        times, offsets = self._times, self._offsets
        i = bisect.bisect_right(times, device)
        if i == 0:
            return offsets[0]
        if i == len(times):
            return offsets[-1]
        t0, t1 = times[i - 1], times[i]
        return offsets[i - 1] + (offsets[i] - offsets[i - 1]) * (device - t0) / (t1 - t0)

    def _unwrap(self, device_ms: int, advance: bool) -> int:
        """The stamp as a count that does not wrap: the value nearest the newest stamp seen."""
        device_ms %= WRAP
        newest = self._newest_ms
        if newest is None:
            unwrapped = device_ms
        else:
            diff = (device_ms - newest) % WRAP
            unwrapped = newest + (diff - WRAP if diff >= WRAP // 2 else diff)
        if advance and (newest is None or unwrapped > newest):
            self._newest_ms = unwrapped
        return unwrapped
