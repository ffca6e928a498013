"""Fake Bluetooth dice that speak the published bytes: a fake radio (``FakeAir``) and two peripherals.

``FakePixel`` answers WhoAreYou with an IAmADie (current chunked form, or the 22-byte legacy one) and
RequestBatteryLevel with BatteryLevel; ``roll`` notifies RollState handling -> rolling -> rolled as a
Pixel does. ``FakeGoDice`` answers the battery request with ``Bat`` + level; ``roll`` notifies ``R``
then ``S`` with the face's published vector (a little shaken). Both notify on their own characteristic
only after the central subscribed, and a write to any other characteristic is refused. ``FakeAir``
stands for the Bluetooth stack (``hardware.ble_dice.BleTransport``): scans hear the dice switched on,
connections deliver notifications on the central's event loop, ``drop`` breaks a link.
"""

from __future__ import annotations

import asyncio
import random
import struct
from collections.abc import Callable

from hardware import godice_protocol as godice
from hardware import pixels_protocol as pixels
from hardware.ble_dice import Advert

_DIE_TYPE_CODES = {name: code for code, name in pixels.DIE_TYPES.items() if name != "d6-fudge"}


class FakePeripheral:
    notify_uuid = ""
    write_uuid = ""

    def __init__(self, address: str, name: str) -> None:
        self.address = address
        self.name = name
        self.switched_on = True
        self.battery = 87
        self.written: list[bytes] = []
        self._connection: FakeConnection | None = None

    def advert(self) -> Advert:
        return Advert(self.address, self.name)

    def notify(self, data: bytes) -> None:
        if self._connection is not None:
            self._connection.deliver(self.notify_uuid, data)

    def received(self, data: bytes) -> None:
        raise NotImplementedError

    def attach(self, connection: FakeConnection | None) -> None:
        self._connection = connection


class FakePixel(FakePeripheral):
    notify_uuid = pixels.NOTIFY
    write_uuid = pixels.WRITE

    def __init__(
        self, address: str, name: str, pixel_id: int, die_type: str = "d20", legacy: bool = False
    ) -> None:
        super().__init__(address, name)
        self.pixel_id = pixel_id
        self.die_type = die_type
        self.legacy = legacy
        self.state, self.face_index = pixels.ON_FACE, 0

    def advert(self) -> Advert:
        data = struct.pack("<II", self.pixel_id, 1_700_000_000)  # Pixel ID, build timestamp
        return Advert(self.address, self.name, (pixels.SERVICE,), {pixels.SERVICE: data})

    def i_am_a_die(self) -> bytes:
        code = _DIE_TYPE_CODES[self.die_type]
        leds = {"d4": 6, "d6": 6, "d8": 8, "d10": 10, "d00": 10, "d12": 12, "d20": 20}[self.die_type]
        if self.legacy:
            return struct.pack("<BBBBIIHIBBBB", pixels.I_AM_A_DIE, leds, 1, code, 0xCAFE, self.pixel_id, 4096,
                               1_700_000_000, self.state, self.face_index, self.battery, 0)  # fmt: skip
        name = self.name.encode() + b"\0"
        chunks = [
            struct.pack("<HIHHHH", 0x0102, 1_700_000_000, 0x0101, 0x0100, 0x0100, 0x0100),  # version info
            struct.pack("<IBBBB", self.pixel_id, 1, code, leds, 1),  # die info
            b"\0",  # custom design and colour name (none)
            name,  # die name
            struct.pack("<III", 0xCAFE, 4096, 8192),  # settings info
            bytes([self.battery, 0, self.state, self.face_index]),  # status info
        ]
        return bytes([pixels.I_AM_A_DIE]) + b"".join(bytes([len(c) + 1]) + c for c in chunks)

    def received(self, data: bytes) -> None:
        if data == pixels.who_are_you():
            self.notify(self.i_am_a_die())
        elif data == pixels.request_battery_level():
            self.notify(bytes([pixels.BATTERY_LEVEL, self.battery, 0]))
        elif data == pixels.request_roll_state():
            self.notify(bytes([pixels.ROLL_STATE, self.state, self.face_index]))

    def _state(self, state: int, face_index: int) -> None:
        self.state, self.face_index = state, face_index
        self.notify(bytes([pixels.ROLL_STATE, state, face_index]))

    def roll(self, face_index: int) -> None:
        """Picked up, thrown, tumbling over a few faces, at rest on ``face_index``."""
        self._state(pixels.HANDLING, self.face_index)
        for tumble in (3, 11, 7):
            self._state(pixels.ROLLING, tumble % 20)
        self._state(pixels.ROLLED, face_index)

    def put_down(self, face_index: int) -> None:
        """Moved by hand and set down on a face: no roll."""
        self._state(pixels.HANDLING, self.face_index)
        self._state(pixels.ON_FACE, face_index)

    def low_battery(self, percent: int) -> None:
        self.battery = percent
        self.notify(bytes([pixels.BATTERY_LEVEL, percent, 1]))


class FakeGoDice(FakePeripheral):
    notify_uuid = godice.NOTIFY
    write_uuid = godice.WRITE

    def __init__(self, address: str, name: str, shell: str = "d6", seed: int = 1) -> None:
        super().__init__(address, name)
        self.shell = shell
        self._random = random.Random(seed)

    def received(self, data: bytes) -> None:
        if data == godice.battery_request():
            self.notify(b"Bat" + bytes([self.battery]))
        elif data == godice.colour_request():
            self.notify(b"Col" + bytes([1]))

    def vector_for(self, value: int) -> bytes:
        """The accelerometer bytes of a die showing ``value``, off the published vector by a few counts."""
        shell = godice.shells()[self.shell]
        faces = [f for f in shell.vectors if (shell.faces[f - 1] if shell.faces else f) == value]
        x, y, z = shell.vectors[self._random.choice(faces)]
        wobble = [self._random.randint(-4, 4) for _ in range(3)]
        return bytes((v + w) & 0xFF for v, w in zip((x, y, z), wobble, strict=True))

    def roll(self, value: int) -> None:
        self.notify(b"R")
        self.notify(b"S" + self.vector_for(value))

    def nudge(self, value: int) -> None:
        """Slid across the table: "moved stable", not a roll."""
        self.notify(b"MS" + self.vector_for(value))


class FakeConnection:
    def __init__(self, peripheral: FakePeripheral, on_disconnect: Callable[[], None]) -> None:
        self.peripheral = peripheral
        self._on_disconnect = on_disconnect
        self._loop = asyncio.get_running_loop()
        self._subscribed: dict[str, Callable[[bytes], None]] = {}
        self.connected = True

    def deliver(self, characteristic: str, data: bytes) -> None:
        callback = self._subscribed.get(characteristic)
        if callback is not None and self.connected:
            self._loop.call_soon_threadsafe(callback, bytes(data))

    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None:
        if characteristic != self.peripheral.notify_uuid:
            raise OSError(f"{self.peripheral.name} has no notify characteristic {characteristic}")
        self._subscribed[characteristic] = on_data

    async def write(self, characteristic: str, data: bytes) -> None:
        if not self.connected:
            raise OSError("not connected")
        if characteristic != self.peripheral.write_uuid:
            raise OSError(f"{self.peripheral.name} has no write characteristic {characteristic}")
        self.peripheral.written.append(bytes(data))
        self.peripheral.received(bytes(data))

    async def disconnect(self) -> None:
        self.connected = False
        self.peripheral.attach(None)

    def drop(self) -> None:
        """The radio link broke (out of range, battery out)."""
        self.connected = False
        self.peripheral.attach(None)
        self._loop.call_soon_threadsafe(self._on_disconnect)


class FakeAir:
    def __init__(self, peripherals: list[FakePeripheral]) -> None:
        self.peripherals = {p.address: p for p in peripherals}
        self.connections: dict[str, FakeConnection] = {}
        self.scans = 0

    async def find(self, match: Callable[[Advert], bool], timeout: float) -> Advert | None:
        self.scans += 1
        for peripheral in self.peripherals.values():
            if peripheral.switched_on and match(peripheral.advert()):
                return peripheral.advert()
        await asyncio.sleep(min(timeout, 0.05))  # nobody answering: a short scan in the fake's time
        return None

    async def connect(self, address: str, on_disconnect: Callable[[], None]) -> FakeConnection:
        peripheral = self.peripherals[address]
        if not peripheral.switched_on:
            raise OSError(f"{address} did not answer")
        connection = FakeConnection(peripheral, on_disconnect)
        peripheral.attach(connection)
        self.connections[address] = connection
        return connection

    def drop(self, address: str) -> None:
        self.connections[address].drop()
