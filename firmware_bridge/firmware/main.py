"""Table Companion firmware for a Raspberry Pi Pico (MicroPython): readers, dice, buttons, LED.

One cooperative loop, no threads: read USB serial, poll one RFID reader, scan buttons, tumble
dice, then let the protocol (tcproto.DeviceLink) send heartbeats and re-send unacknowledged events.
Wiring is in README.md; change pins in CONFIG only.
"""

import os
import select
import sys
from binascii import hexlify
from time import sleep_ms, ticks_diff, ticks_ms

import micropython
from machine import ADC, SPI, Pin, unique_id

import mfrc522
import tablelogic
import tcproto

CONFIG = {
    "firmware": (0, 2, 0),
    "spi": {"id": 0, "sck": 2, "mosi": 3, "miso": 4, "baudrate": 1_000_000},
    "rst": 22,  # one reset line shared by every MFRC522
    "readers": [5, 6, 7, 8],  # chip-select (SDA) pin of each reader; list index = reader number
    # Per reader (battle line) and poll: bounds the time one poll takes. Lowered at start-up if a
    # STATE listing that many 7-byte UIDs on every reader would not fit one frame (8 readers: 7).
    "max_tags": 12,
    "buttons": [{"id": 0, "pin": 14}, {"id": 1, "pin": 15}],  # to GND, internal pull-ups
    # Each die: its number, how many faces it has, its roll button. What the faces show (numbers,
    # the Cube's Orcish Eyes) is the Pi's dice data, and [table.dice] on the Pi names the die.
    "dice": [{"id": 0, "faces": 20, "pin": 10}, {"id": 1, "faces": 6, "pin": 11}],
    "status_led": "LED",  # the Pico's on-board LED ("LED" works on Pico and Pico W)
    "vsys_adc": 29,  # VSYS through the board's 1/3 divider: the battery voltage
    "vsys_divider": 3,
    # One reader per loop pass, back to back. A poll is an inventory of every tag on the reader:
    # 5 ms field settle + ~2.5 ms for the final silent REQA, plus ~5 ms per tag (anticollision,
    # SELECT, and a 2 ms HLTA timeout). Four readers with a few cards each are each seen every
    # ~50-100 ms; between its polls a reader's field is off, which resets its tags for the next one.
    "reader_poll_ms": 0,
    "battery_ms": 10_000,
}


def rng_u32():
    return int.from_bytes(os.urandom(4), "big")  # RP2040: from the ring oscillator's random bit


def randint(low, high):
    return low + rng_u32() % (high - low + 1)


class Serial:
    """USB CDC as raw bytes. Ctrl-C (0x03) must not interrupt us: it is a legal byte in a frame."""

    def __init__(self):
        micropython.kbd_intr(-1)
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = bytearray()
        while len(data) < 64 and self.poll.poll(0):
            data += sys.stdin.buffer.read(1)
        return data

    def write(self, data):
        sys.stdout.buffer.write(data)


class StatusLed:
    """Slow blink: no host yet. Steady: host connected. Fast blink: IDENTIFY. LED frames override."""

    def __init__(self, pin):
        self.pin = Pin(pin, Pin.OUT)
        self.identify_until = None
        self.pattern = None  # set by the host's LED message

    def update(self, now, host_heard):
        if self.identify_until is not None and ticks_diff(self.identify_until, now) > 0:
            self.pin.value((now // 100) % 2)
            return
        self.identify_until = None
        pattern = self.pattern if self.pattern is not None else (1 if host_heard else 2)
        if pattern == 0:
            self.pin.value(0)
        elif pattern == 1:
            self.pin.value(1)
        elif pattern == 2:
            self.pin.value((now // 500) % 2)
        else:  # pulse, approximated by a short flash each second on a plain LED
            self.pin.value(1 if now % 1000 < 100 else 0)


class Table:
    def __init__(self, config):
        self.config = config
        Pin(config["rst"], Pin.OUT).value(1)  # out of reset
        spi_cfg = config["spi"]
        spi = SPI(
            spi_cfg["id"],
            baudrate=spi_cfg["baudrate"],
            sck=Pin(spi_cfg["sck"]),
            mosi=Pin(spi_cfg["mosi"]),
            miso=Pin(spi_cfg["miso"]),
        )
        self.readers = [mfrc522.MFRC522(spi, Pin(cs, Pin.OUT, value=1), sleep_ms) for cs in config["readers"]]
        self.versions = [reader.init() for reader in self.readers]  # 0x91/0x92; 0x00 means not wired
        self.presence = [tablelogic.Presence() for _ in self.readers]
        self.buttons = [
            (b["id"], Pin(b["pin"], Pin.IN, Pin.PULL_UP), tablelogic.Debouncer()) for b in config["buttons"]
        ]
        self.dice = []
        for d in config["dice"]:
            die = tablelogic.Die(d["id"], tablelogic.die_faces(d), randint)
            self.dice.append((die, Pin(d["pin"], Pin.IN, Pin.PULL_UP), tablelogic.Debouncer()))
        self.adc = ADC(config["vsys_adc"])
        self.next_reader = 0
        self.max_tags = tablelogic.max_tags_per_reader(
            len(self.readers), len(self.dice), config["max_tags"], tcproto.MAX_FRAME
        )

    def snapshot(self):
        tags = [(i, p.uids()) for i, p in enumerate(self.presence)]
        return tags, [(die.die, die.face) for die, _, _ in self.dice]

    def poll_reader(self, link):
        i = self.next_reader
        self.next_reader = (i + 1) % len(self.readers)
        uids = self.readers[i].inventory(self.max_tags)  # every tag on this battle line
        tablelogic.report_tags(link, i, self.presence[i].update(uids))

    def scan_buttons(self, link, now):
        for button_id, pin, debouncer in self.buttons:
            edge = debouncer.update(pin.value() == 0, now)
            if edge is not None:
                link.button(button_id, edge)
        for die, pin, debouncer in self.dice:
            if debouncer.update(pin.value() == 0, now):
                die.press(now)
            face = die.update(now)
            if face is not None:
                link.die_rolled(die.die, face)

    def battery_mv(self):
        return self.adc.read_u16() * 3300 * self.config["vsys_divider"] // 65535


def main(config=CONFIG):
    # Safe boot: hold button 0 while powering up to stay in the REPL (for mpremote).
    if Pin(config["buttons"][0]["pin"], Pin.IN, Pin.PULL_UP).value() == 0:
        return
    table = Table(config)
    led = StatusLed(config["status_led"])
    port = Serial()

    def on_led(_led, pattern, _rgb):
        led.pattern = pattern  # a plain LED: colour is for boards with an RGB LED

    def on_identify(ms):
        led.identify_until = ticks_ms() + ms

    info = {
        "firmware": config["firmware"],
        "device_id": "pico-" + hexlify(unique_id()).decode(),
        "readers": len(config["readers"]),
        "dice": [(die.die, die.faces) for die, _, _ in table.dice],
        "buttons": [b["id"] for b in config["buttons"]],
    }
    link = tcproto.DeviceLink(
        port.write,
        ticks_ms,
        info,
        table.snapshot,
        rng_u32(),
        first_seq=rng_u32() & 0xFFFF,
        limit=128,
        on_led=on_led,
        on_identify=on_identify,
    )
    last_reader = last_battery = ticks_ms()
    link.hello()
    while True:
        now = ticks_ms()
        data = port.read()
        if data:
            link.feed(data)
        if ticks_diff(now, last_reader) >= config["reader_poll_ms"]:
            last_reader = now
            table.poll_reader(link)
        table.scan_buttons(link, now)
        if ticks_diff(now, last_battery) >= config["battery_ms"]:
            last_battery = now
            mv = table.battery_mv()
            link.battery(mv, tablelogic.battery_percent(mv))
        led.update(now, link.host_heard)
        link.poll()


if __name__ == "__main__":
    main()
