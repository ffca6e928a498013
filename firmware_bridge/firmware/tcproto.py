"""Table Companion serial protocol, device side: framing, messages and the reliable outbox.

This file runs unchanged on the Pico (MicroPython) and under CPython: the host tests it against the
same vectors as the host codec, and ``firmware_bridge.virtual`` runs the very same ``DeviceLink`` so
the virtual table behaves like the board. Hence: no dataclasses, no typing, no f-string tricks, no
``bytes.hex``; only ``struct`` and plain classes. See docs/protocol.md for the wire format.
"""

import struct

try:  # MicroPython: ticks wrap, so differences must go through ticks_diff
    from time import ticks_diff
except ImportError:  # CPython: our clock is a plain monotonic millisecond count

    def ticks_diff(a, b):
        return a - b


VERSION = 2  # 2: dice by number of faces (no die kinds on the wire), the ACK's held bitmap
MAX_FRAME = 512  # decoded bytes (header + payload + CRC); the reader drops anything longer

# Message types. 0x01-0x0F: device control (unsequenced); 0x10-0x3F: device events (reliable,
# acknowledged, in order); 0x40-0x5F: host to device.
HELLO = 0x01
HEARTBEAT = 0x02
BATTERY = 0x03
ACK = 0x04
TAG_PRESENT = 0x10
TAG_REMOVED = 0x11
DIE_ROLLED = 0x12
BUTTON = 0x13
STATE = 0x14
LED = 0x40
IDENTIFY = 0x41
RESYNC = 0x42

SACK_BITS = 64  # the ACK's bitmap: events acked + 2 .. acked + 65 that the host holds
UNSAMPLED_ACKS = 4  # ACKs without a clean round-trip sample before a re-sent event's time counts

RELIABLE_FIRST = 0x10
RELIABLE_LAST = 0x3F

# STATE reasons
STATE_HELLO = 0
STATE_RESYNC = 1
STATE_OVERFLOW = 2

UID_LENGTHS = (4, 7, 10)


class ProtoError(ValueError):
    """A frame or payload the protocol cannot accept."""


def is_reliable(msg_type):
    return RELIABLE_FIRST <= msg_type <= RELIABLE_LAST


def seq_before(a, b):
    """True when sequence number ``a`` comes before ``b`` (serial arithmetic, RFC 1982, 16 bits)."""
    return 0 < ((b - a) & 0xFFFF) < 0x8000


# --- CRC-16/CCITT-FALSE (IBM-3740): poly 0x1021, init 0xFFFF, no reflection, no xorout ----------


def crc16(data, crc=0xFFFF):
    # Bitwise rather than a 256-entry table: frames are short and the Pico's RAM is not free.
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


# --- COBS ---------------------------------------------------------------------------------------


def cobs_encode(data):
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    last = len(data) - 1
    for i, byte in enumerate(data):
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
            continue
        out.append(byte)
        code += 1
        # A full block of 254 bytes carries no implied zero; open a new block only if data follows.
        if code == 0xFF and i != last:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(data):
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtoError("COBS: zero byte inside a frame")
        end = i + code
        if end > n:
            raise ProtoError("COBS: block runs past the end")
        block = data[i + 1 : end]
        if 0 in block:
            raise ProtoError("COBS: zero byte inside a block")
        out.extend(block)
        i = end
        if code != 0xFF and i < n:
            out.append(0)
    return bytes(out)


# --- frames -------------------------------------------------------------------------------------


def encode_frame(msg_type, seq, payload=b""):
    """Wire bytes: COBS([version][type][seq u16][payload][crc u16]) + 0x00."""
    body = struct.pack(">BBH", VERSION, msg_type, seq & 0xFFFF) + bytes(payload)
    body += struct.pack(">H", crc16(body))
    return cobs_encode(body) + b"\x00"


def decode_frame(chunk):
    """(type, seq, payload) from one COBS chunk without its delimiter, or ProtoError."""
    raw = cobs_decode(chunk)
    if len(raw) < 6:
        raise ProtoError("frame too short")
    if len(raw) > MAX_FRAME:
        raise ProtoError("frame too long")
    if crc16(raw) != 0:  # CRC over message + its CRC leaves a zero residue
        raise ProtoError("CRC mismatch")
    version, msg_type, seq = struct.unpack(">BBH", raw[:4])
    if version != VERSION:
        raise ProtoError("unknown version")
    return msg_type, seq, raw[4:-2]


class Splitter:
    """Splits a byte stream on 0x00; drops chunks longer than a frame can be (garbage, lost sync)."""

    def __init__(self, limit=MAX_FRAME + MAX_FRAME // 254 + 2):
        self.limit = limit
        self.buf = bytearray()
        self.overflow = False
        self.dropped = 0

    def feed(self, data):
        chunks = []
        for byte in data:
            if byte == 0:
                if self.overflow:
                    self.dropped += 1
                elif self.buf:
                    chunks.append(bytes(self.buf))
                self.buf = bytearray()
                self.overflow = False
            elif not self.overflow:
                self.buf.append(byte)
                if len(self.buf) > self.limit:
                    self.overflow = True
                    self.buf = bytearray()
        return chunks


# --- payloads (device to host) ------------------------------------------------------------------


def uid_field(uid):
    if len(uid) not in UID_LENGTHS:
        raise ProtoError("UID must be 4, 7 or 10 bytes")
    return bytes([len(uid)]) + bytes(uid)


def hello_payload(firmware, boot_id, next_seq, device_id, readers, dice, buttons):
    """dice: [(die, faces), ...]: each die's number and how many faces it has (0: not known). What
    the faces show is the host's data, never the device's: the protocol names no game's dice."""
    name = device_id.encode()[:32]
    out = struct.pack(">BBBIH", firmware[0], firmware[1], firmware[2], boot_id, next_seq)
    out += bytes([len(name)]) + name + bytes([readers, len(dice)])
    for die, faces in dice:
        out += bytes([die, faces])
    return out + bytes([len(buttons)]) + bytes(buttons)


def tag_payload(reader, uid):
    return bytes([reader]) + uid_field(uid)


def die_payload(die, face):
    """Die ``die`` came to rest on face index ``face`` (1-based)."""
    return bytes([die, face])


def button_payload(button, pressed, device_ms):
    return struct.pack(">BBI", button, 1 if pressed else 0, device_ms & 0xFFFFFFFF)


def heartbeat_payload(uptime_ms):
    return struct.pack(">I", uptime_ms & 0xFFFFFFFF)


def battery_payload(millivolts, percent):
    return struct.pack(">HB", millivolts, percent)


def state_payload(reason, tags, dice):
    """tags: [(reader, [uid, ...]), ...]; dice: [(die, face), ...] (face 0 = not rolled since boot)."""
    out = bytearray([reason, len(tags)])
    for reader, uids in tags:
        out += bytes([reader, len(uids)])
        for uid in uids:
            out += uid_field(uid)
    out.append(len(dice))
    for die, face in dice:
        out += bytes([die, face])
    return bytes(out)


# --- payloads (host to device) ------------------------------------------------------------------


def parse_ack(payload):
    """(acked seq, boot id the host believes it is talking to, bitmap of events held after a gap)."""
    if len(payload) < 6:
        raise ProtoError("short ACK")
    acked, boot_id = struct.unpack(">HI", payload[:6])
    held = 0
    if len(payload) >= 14:  # two u32 halves: not every MicroPython port packs 64-bit integers
        high, low = struct.unpack(">II", payload[6:14])
        held = (high << 32) | low
    return acked, boot_id, held


def parse_led(payload):
    """(led, pattern, (r, g, b)); pattern 0 off, 1 on, 2 blink, 3 pulse."""
    if len(payload) < 5:
        raise ProtoError("short LED")
    return payload[0], payload[1], (payload[2], payload[3], payload[4])


def parse_identify(payload):
    if len(payload) < 2:
        raise ProtoError("short IDENTIFY")
    return struct.unpack(">H", payload[:2])[0]


# --- reliable delivery --------------------------------------------------------------------------


class _Entry:
    """One queued event: its frame, and what the sender knows of its delivery."""

    def __init__(self, seq, msg_type, wire):
        self.seq = seq
        self.msg_type = msg_type
        self.wire = wire
        self.sent = None  # ms of the last transmission; None: not sent since the link (re)started
        self.tx = 0  # stamp of the last transmission (a counter: orders sends made in the same ms)
        self.sends = 0
        self.held = False  # the host holds it after a gap (its last ACK said so); advisory
        self.backoff = 0  # retransmit timeouts in a row without a word from the host


class Outbox:
    """Selective-repeat sender: up to ``window`` events in flight, each with its own retransmit timer.

    Why not go-back-N on one timer: with a noisy line most windows have a hole, and a sender that
    repairs one hole per timeout (or per duplicate ACK) runs at a fraction of the event rate, so a
    backlog builds and every event waits behind it (40 % corruption: ~190 events/s, a median of
    seconds at 500 events/s). Here:

    * the host's ACK carries a bitmap of the events it holds after the gap (``held``), so only the
      missing ones are sent again;
    * an event sent *before* one the host has since received, and not received itself, is lost (the
      link keeps order) and is sent again at once, when the ACK says so, not after a timeout;
    * the timeout adapts to the round trip measured on first transmissions (srtt + 4 rttvar, clamped
      to ``rto_min_ms``..``rto_max_ms``); it doubles per timeout of one event only while the host is
      silent, up to ``rto_max_ms``, and falls back to the round trip with the host's next ACK: random
      loss is no reason to wait longer, a missing host is. A host slower than the timeout (a busy
      Pi) would see every event twice and never give a clean sample: after a few ACKs without one,
      the timeout doubles until one comes (Karn).
    * a window of 64 keeps a slow host busy: a loss costs a round trip, and the window is what
      flows meanwhile (the entries are kept anyway, so it costs the Pico no RAM).
    """

    def __init__(self, write, window=64, rto_ms=50, limit=256, first_seq=0, rto_min_ms=10, rto_max_ms=250):
        self.write = write
        self.window = min(window, SACK_BITS + 1)  # the ACK's bitmap must cover every frame in flight
        self.rto = rto_ms  # before the first round trip is measured
        self.rto_min = rto_min_ms
        self.rto_max = rto_max_ms
        self.limit = limit
        self.next_seq = first_seq & 0xFFFF
        self.entries = []  # _Entry, oldest first, consecutive sequence numbers
        self.srtt8 = None  # smoothed round trip x 8 (Jacobson's integer form)
        self.rttvar4 = 0  # its mean deviation x 4
        self.tx = 0
        self.delivered_tx = 0  # highest transmission stamp the host is known to have received
        self.unsampled = 0  # ACKs in a row that delivered only re-sent events (no round-trip sample)
        self.retransmits = 0
        self.dropped = 0

    def base(self):
        """Sequence number of the oldest unacknowledged event (what the host must accept next)."""
        return self.entries[0].seq if self.entries else self.next_seq

    def full(self):
        return len(self.entries) >= self.limit

    def has_type(self, msg_type):
        for entry in self.entries:
            if entry.msg_type == msg_type:
                return True
        return False

    def push(self, msg_type, payload, now):
        if self.full():
            self.dropped += 1
            return False
        seq = self.next_seq
        self.next_seq = (seq + 1) & 0xFFFF
        self.entries.append(_Entry(seq, msg_type, encode_frame(msg_type, seq, payload)))
        self.pump(now)
        return True

    def ack(self, acked, now, held=0):
        """The host has every event up to ``acked`` in order, and holds ``acked + 2 + i`` for each
        bit i set in ``held`` (``acked + 1`` is the one it waits for)."""
        entries = self.entries
        news = [None, False]  # the first-sent event this ACK newly reports; whether a re-sent one was
        while entries and not seq_before(acked, entries[0].seq):
            entry = entries.pop(0)
            if not entry.held:  # one held was reported, and timed, by an earlier ACK
                self._delivered(entry, news)
        in_flight = min(len(entries), self.window)
        for i in range(in_flight):
            entry = entries[i]
            bit = (entry.seq - acked - 2) & 0xFFFF
            now_held = bit < SACK_BITS and (held >> bit) & 1 == 1
            if now_held and not entry.held:
                self._delivered(entry, news)
            entry.held = now_held  # every ACK says it all: the host may have dropped what it held
            entry.backoff = 0  # the host is there: back to the round trip
        # One round-trip sample per ACK, from the first-sent event it newly reports: a host that
        # reads in batches answers it last, and the timer must wait for that. Karn: a re-sent
        # event's time is ambiguous, so it is left out; but when the host is slower than the timer,
        # every event is re-sent and no sample would ever come, so after a few ACKs without one the
        # timer doubles (Karn's back-off) until an event sent once is answered.
        first = news[0]
        if first is not None:
            self.unsampled = 0
            self._rtt_sample(ticks_diff(now, first.sent))
        elif news[1]:
            self.unsampled += 1
            if self.unsampled >= UNSAMPLED_ACKS:
                self.unsampled = 0
                self.rto = min(self.rto * 2, self.rto_max)
        for i in range(in_flight):
            entry = entries[i]
            if not entry.held and entry.sent is not None and entry.tx < self.delivered_tx:
                self._send(entry, now)  # sent before one that arrived, and missing: lost
        self.pump(now)

    def pump(self, now):
        """Send what the window allows, and again each event whose own timer ran out."""
        entries = self.entries
        for i in range(min(len(entries), self.window)):
            entry = entries[i]
            if entry.sent is None:
                self._send(entry, now)
            elif not entry.held and ticks_diff(now, entry.sent) >= self.timeout(entry):
                if entry.backoff < 8:  # past the cap already; keeps the shift small on the Pico
                    entry.backoff += 1
                self._send(entry, now)

    def timeout(self, entry):
        return min(self.rto << entry.backoff, max(self.rto_max, self.rto))

    def forget_sends(self):
        """After a link drop nothing in flight can be trusted to have arrived: send all again."""
        for entry in self.entries:
            entry.sent = None
            entry.held = False
            entry.backoff = 0

    def _send(self, entry, now):
        if entry.sends:
            self.retransmits += 1
        self.tx += 1
        entry.tx = self.tx
        entry.sends += 1
        entry.sent = now
        self.write(entry.wire)

    def _delivered(self, entry, news):
        if entry.tx > self.delivered_tx:
            self.delivered_tx = entry.tx
        if entry.sends != 1 or entry.sent is None:
            news[1] = True
        elif news[0] is None or entry.tx < news[0].tx:
            news[0] = entry

    def _rtt_sample(self, rtt):
        if rtt < 0:
            return
        if self.srtt8 is None:
            self.srtt8 = rtt << 3
            self.rttvar4 = rtt << 1
        else:
            err = rtt - (self.srtt8 >> 3)
            self.srtt8 += err
            self.rttvar4 += (err if err >= 0 else -err) - (self.rttvar4 >> 2)
        rto = (self.srtt8 >> 3) + max(1, self.rttvar4)
        self.rto = min(max(rto, self.rto_min), self.rto_max)

    def srtt(self):
        """Smoothed round trip in ms (None before the first sample)."""
        return None if self.srtt8 is None else self.srtt8 >> 3


class DeviceLink:
    """The device end of the protocol, independent of how the table is read.

    ``write(bytes)`` sends one wire frame; ``clock()`` returns milliseconds; ``snapshot()`` returns
    ``(tags, dice)`` as for ``state_payload``; ``info`` holds firmware, device_id, readers, dice
    ([(die, faces)]), buttons. ``on_led(led, pattern, rgb)`` and ``on_identify(ms)`` are optional.
    """

    def __init__(
        self,
        write,
        clock,
        info,
        snapshot,
        boot_id,
        first_seq=0,
        window=64,
        rto_ms=50,
        heartbeat_ms=500,
        hello_ms=1000,
        limit=256,
        on_led=None,
        on_identify=None,
        rto_min_ms=10,
        rto_max_ms=250,
    ):
        self.write = write
        self.clock = clock
        self.info = info
        self.snapshot = snapshot
        self.boot_id = boot_id & 0xFFFFFFFF
        self.outbox = Outbox(write, window, rto_ms, limit, first_seq, rto_min_ms, rto_max_ms)
        self.heartbeat_ms = heartbeat_ms
        self.hello_ms = hello_ms
        self.on_led = on_led
        self.on_identify = on_identify
        self.splitter = Splitter()
        self.uptime_tick = clock()
        self.uptime = 0  # ms since boot, kept as a running sum (see uptime_ms)
        self.last_heartbeat = None
        self.last_hello = None
        self.host_heard = False
        self.owe_state = False
        self.ctrl_seq = 0
        self.rx_errors = 0
        self.rx_frames = 0
        self.resyncs = 0

    # -- outgoing --

    def uptime_ms(self):
        """Milliseconds since boot (the protocol sends them modulo 2**32). A running sum, because on
        the Pico ``ticks_ms`` wraps at 2**30 and ``ticks_diff`` only holds for half of that (6.2 days):
        since boot would jump back after a week on, and the host maps every button press through
        this clock. Called at least every heartbeat, so each step is short."""
        now = self.clock()
        self.uptime += ticks_diff(now, self.uptime_tick)
        self.uptime_tick = now
        return self.uptime

    def _control(self, msg_type, payload):
        # Control frames carry the next event sequence number as information only.
        self.write(encode_frame(msg_type, self.outbox.next_seq, payload))

    def hello(self, reason=STATE_HELLO):
        """Say hello, then report the full state behind any events still queued (keeps order)."""
        now = self.clock()
        self.last_hello = now
        info = self.info
        self._control(
            HELLO,
            hello_payload(
                info["firmware"],
                self.boot_id,
                self.outbox.base(),
                info["device_id"],
                info["readers"],
                info["dice"],
                info["buttons"],
            ),
        )
        # A STATE still queued will do: everything after it is queued in order behind it.
        if not self.outbox.has_type(STATE):
            self.state_report(reason)

    def state_report(self, reason):
        tags, dice = self.snapshot()
        if not self.outbox.push(STATE, state_payload(reason, tags, dice), self.clock()):
            self.owe_state = True

    def _event(self, msg_type, payload):
        if not self.outbox.push(msg_type, payload, self.clock()):
            # The queue is full (no host for a long while): the edge is lost, so owe the host a
            # full state report that will repair the tag picture once there is room again.
            self.owe_state = True

    def tag_present(self, reader, uid):
        self._event(TAG_PRESENT, tag_payload(reader, uid))

    def tag_removed(self, reader, uid):
        self._event(TAG_REMOVED, tag_payload(reader, uid))

    def die_rolled(self, die, face):
        self._event(DIE_ROLLED, die_payload(die, face))

    def button(self, button, pressed):
        self._event(BUTTON, button_payload(button, pressed, self.uptime_ms()))

    def battery(self, millivolts, percent):
        self._control(BATTERY, battery_payload(millivolts, percent))

    def link_dropped(self):
        """The USB link went away and came back: the host needs a hello and everything again."""
        self.host_heard = False
        self.outbox.forget_sends()
        self.hello()

    # -- incoming --

    def feed(self, data):
        for chunk in self.splitter.feed(data):
            try:
                msg_type, _seq, payload = decode_frame(chunk)
                self._handle(msg_type, payload)
            except ProtoError:
                self.rx_errors += 1  # a corrupt ACK costs a retransmit, nothing more

    def _handle(self, msg_type, payload):
        self.rx_frames += 1
        if msg_type == ACK:
            acked, boot_id, held = parse_ack(payload)
            # An ACK meant for an earlier boot would cumulatively ack events it never saw.
            if boot_id == self.boot_id:
                self.host_heard = True
                self.outbox.ack(acked, self.clock(), held)
        elif msg_type == RESYNC:
            self.host_heard = True
            self.resyncs += 1
            # The host is listening now (maybe a new one): whatever we sent before it asked went
            # nowhere it counts, so it all goes again behind the HELLO, not after a backed-off timer.
            self.outbox.forget_sends()
            self.hello(STATE_RESYNC)
        elif msg_type == LED and self.on_led:
            led, pattern, rgb = parse_led(payload)
            self.on_led(led, pattern, rgb)
        elif msg_type == IDENTIFY and self.on_identify:
            self.on_identify(parse_identify(payload))

    # -- timers --

    def poll(self):
        now = self.clock()
        if self.last_heartbeat is None or ticks_diff(now, self.last_heartbeat) >= self.heartbeat_ms:
            self.last_heartbeat = now
            self._control(HEARTBEAT, heartbeat_payload(self.uptime_ms()))
        # Until the host has spoken, keep saying hello: it may have opened the port after our last one.
        if not self.host_heard and (
            self.last_hello is None or ticks_diff(now, self.last_hello) >= self.hello_ms
        ):
            self.hello()
        if self.owe_state and len(self.outbox.entries) < self.outbox.limit // 2:
            self.owe_state = False
            self.state_report(STATE_OVERFLOW)
        self.outbox.pump(now)
