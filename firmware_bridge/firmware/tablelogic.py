"""Table-side logic of the firmware that needs no hardware: debouncing, tag presence, dice.

Times are milliseconds from the caller's clock; ``ticks_diff`` keeps MicroPython's wrapping ticks
honest. Runs under CPython for the tests.
"""

try:
    from time import ticks_diff
except ImportError:

    def ticks_diff(a, b):
        return a - b


class Debouncer:
    """A contact must hold a new level for ``hold_ms`` before we believe it (switches bounce ~5 ms)."""

    def __init__(self, pressed=False, hold_ms=20):
        self.state = pressed
        self.hold_ms = hold_ms
        self.candidate = pressed
        self.since = None

    def update(self, raw_pressed, now):
        """Feed the raw level; returns True (pressed edge), False (released edge) or None."""
        if raw_pressed == self.state:
            self.candidate, self.since = raw_pressed, None
            return None
        if raw_pressed != self.candidate or self.since is None:
            self.candidate, self.since = raw_pressed, now
            return None
        if ticks_diff(now, self.since) >= self.hold_ms:
            self.state, self.since = raw_pressed, None
            return raw_pressed
        return None


class Presence:
    """Which tag is on one reader. RF reads fail now and then with a tag in place, so a tag counts
    as gone only after ``misses`` empty polls in a row; a different UID replaces it at once."""

    def __init__(self, misses=3):
        self.uid = None
        self.missed = 0
        self.misses = misses

    def update(self, uid):
        """Feed one poll's UID (or None); returns a list of ("present"|"removed", uid) edges."""
        if uid is None:
            if self.uid is None:
                return []
            self.missed += 1
            if self.missed < self.misses:
                return []
            gone, self.uid, self.missed = self.uid, None, 0
            return [("removed", gone)]
        self.missed = 0
        if uid == self.uid:
            return []
        edges = [("removed", self.uid)] if self.uid is not None else []
        self.uid = uid
        edges.append(("present", uid))
        return edges


class Die:
    """A button-rolled electronic die: a press starts a short tumble (faces flicker on the LED), and
    the face it stops on is the roll. The RNG is injected (``randint(a, b)``)."""

    def __init__(self, die, kind, faces, randint, tumble_ms=300):
        self.die = die
        self.kind = kind
        self.faces = faces
        self.randint = randint
        self.tumble_ms = tumble_ms
        self.face = 0  # 0: not rolled since boot
        self.tumbling_since = None
        self.showing = 0

    def press(self, now):
        if self.tumbling_since is None:  # a press during a tumble does not restart it
            self.tumbling_since = now

    def update(self, now):
        """Returns the rolled face when a tumble ends, else None; ``showing`` flickers meanwhile."""
        if self.tumbling_since is None:
            return None
        if ticks_diff(now, self.tumbling_since) < self.tumble_ms:
            self.showing = self.randint(1, self.faces)
            return None
        self.tumbling_since = None
        self.face = self.showing = self.randint(1, self.faces)
        return self.face


def battery_percent(millivolts, empty_mv=3300, full_mv=4200):
    """Rough LiPo charge from voltage (linear between empty and full; good enough for a warning)."""
    if millivolts <= empty_mv:
        return 0
    if millivolts >= full_mv:
        return 100
    return (millivolts - empty_mv) * 100 // (full_mv - empty_mv)
