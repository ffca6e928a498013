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
    """Which tags lie on one reader (a battle line: any number of cards on one antenna).

    RF reads fail now and then with a tag in place (a garbled anticollision round, a card at the
    edge of the field), so each tag counts as gone only after ``misses`` polls in a row without it;
    a new UID is present at once, and does not displace the others.
    """

    def __init__(self, misses=3):
        self.missed = {}  # uid -> polls in a row it was not seen; insertion order = order seen
        self.misses = misses

    def uids(self):
        return list(self.missed)

    def update(self, uids):
        """Feed one poll's UIDs (a list; None means none); returns ("present"|"removed", uid) edges."""
        seen = list(uids) if uids else []
        edges = []
        for uid in list(self.missed):
            if uid in seen:
                self.missed[uid] = 0
                continue
            self.missed[uid] += 1
            if self.missed[uid] >= self.misses:
                del self.missed[uid]
                edges.append(("removed", uid))
        for uid in seen:
            if uid not in self.missed:
                self.missed[uid] = 0
                edges.append(("present", uid))
        return edges


def max_tags_per_reader(readers, dice, wanted, max_frame=512, uid_len=7):
    """How many tags per reader a poll may report so that a STATE of full readers still fits one
    frame (``max_frame`` decoded bytes: 6 of header and CRC; payload 3 + 2 per reader + 2 per die
    + 1 + ``uid_len`` per tag). 7-byte UIDs (NTAG, Ultralight) are the longest tags we meet."""
    room = max_frame - 6 - 3 - 2 * readers - 2 * dice
    return max(1, min(wanted, room // (readers * (1 + uid_len))))


def report_tags(link, reader, edges):
    """Send ``Presence.update`` edges of one reader as TAG_PRESENT / TAG_REMOVED events."""
    for edge, uid in edges:
        if edge == "present":
            link.tag_present(reader, uid)
        else:
            link.tag_removed(reader, uid)


class Die:
    """A button-rolled electronic die: a press starts a short tumble (faces flicker on the LED), and
    the face it stops on is the roll. The RNG is injected (``randint(a, b)``). The die knows how many
    faces it has, not what they show: that is the Pi's dice data."""

    def __init__(self, die, faces, randint, tumble_ms=300):
        self.die = die
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


def die_faces(entry):
    """How many faces a ``CONFIG["dice"]`` entry's die has. A CONFIG from firmware 0.1 named a kind
    ("kind": "cube") instead: say what to write now rather than guess the faces of a game's die."""
    faces = entry.get("faces")
    if not isinstance(faces, int) or not 1 <= faces <= 255:
        raise ValueError(
            'CONFIG dice: die {} needs its number of faces, e.g. "faces": 6 (firmware 0.2 no longer'
            " names die kinds such as {!r}: name the die in [table.dice] on the Pi)".format(
                entry.get("id"), entry.get("kind")
            )
        )
    return faces
