"""Bluetooth smart dice (Pixels, GoDice): found, connected, kept connected; their rolls as DieRolled.

Configured in table.toml, one entry per die::

    [[hardware.ble_dice]]
    die = 10                 # its number at this table (DieRolled.die; the control page names it)
    type = "pixels"          # "pixels" or "godice"
    name = "Pixel d20"       # how it advertises (Pixels: the name set in the Pixels app;
                             #   GoDice: GoDice_<id>_...); or address = "AA:BB:CC:DD:EE:FF";
                             #   or, for Pixels, pixel_id = 0x1A2B3C4D
    shell = "d20"            # GoDice only: the shell on it ("d6", "d20", ...); a Pixel says its type

Which die of the dice data it is (the Cube, a d20) is the table's ``[table.dice]``, as for the bridge's
e-dice; a die not named there answers any roll of a die with as many faces.

A roll reaches the table exactly as an e-die's roll through the bridge: ``DieRolled(die, face, at,
faces)`` with the 1-based face the dice data counts, and only a finished roll (a Pixel at rest after
rolling; a GoDice "stable" after "roll started"): a die put down or knocked is no roll, and nothing
is re-sent on reconnect. Each die lives on one asyncio task on this module's thread: find it by its
advertisement, connect, subscribe, say hello (Pixels: WhoAreYou; GoDice: battery and colour),
then wait; a lost die is searched for again with growing pauses. Callbacks only enqueue.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.observations import DieId, DieRolled, Observation
from hardware import godice_protocol as godice
from hardware import pixels_protocol as pixels
from hardware.sensors import SensorConfigError, check_keys, text, whole

log = logging.getLogger(__name__)

DEVICE_NAME = "ble-dice"
SECTION = "hardware.ble_dice"
TYPES = ("pixels", "godice")
RECONNECT_SECONDS = (1.0, 2.0, 5.0, 10.0)
SCAN_SECONDS = 10.0


@dataclass(frozen=True)
class Advert:
    """One advertisement heard in a scan."""

    address: str
    name: str
    service_uuids: tuple[str, ...] = ()
    service_data: Mapping[str, bytes] = field(default_factory=dict)


class BleConnection(Protocol):
    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None: ...

    async def write(self, characteristic: str, data: bytes) -> None: ...

    async def disconnect(self) -> None: ...


class BleTransport(Protocol):
    """The Bluetooth stack: ``hardware.ble_bleak`` (bleak over BlueZ) or ``hardware.fake_ble``."""

    async def find(self, match: Callable[[Advert], bool], timeout: float) -> Advert | None: ...

    async def connect(self, address: str, on_disconnect: Callable[[], None]) -> BleConnection: ...


@dataclass(frozen=True)
class BleDieConfig:
    die: int
    type: str
    name: str | None = None
    address: str | None = None
    pixel_id: int | None = None
    shell: str | None = None

    def matches(self, advert: Advert) -> bool:
        if self.address is not None:
            return advert.address.upper() == self.address.upper()
        if self.type == "pixels" and self.pixel_id is not None:
            data = advert.service_data.get(pixels.SERVICE, b"")
            return pixels.advertised_pixel_id(data) == self.pixel_id
        if self.type == "godice" and not advert.name.startswith(godice.NAME_PREFIX):
            return False
        return self.name is not None and advert.name == self.name

    @property
    def label(self) -> str:
        return (
            self.name
            or self.address
            or (f"Pixel {self.pixel_id:08X}" if self.pixel_id else f"die {self.die}")
        )

    @classmethod
    def list_from(cls, entries: Any) -> tuple[BleDieConfig, ...]:
        if not isinstance(entries, list) or not entries:
            raise SensorConfigError(
                f'[[{SECTION}]] must be a list of {{ die = N, type = "pixels", name = ... }}'
            )
        dice = []
        for entry in entries:
            if not isinstance(entry, Mapping):
                raise SensorConfigError(f"[[{SECTION}]]: {entry!r} is not a table")
            if "kind" in entry:
                named = f'"{entry.get("die")}" = ["{entry["kind"]}"]'
                raise SensorConfigError(
                    f"[[{SECTION}]]: kind is no longer set here: name the die in [table.dice] ({named});"
                    " a die not named there answers any roll of a die with as many faces"
                )
            check_keys(entry, {"die", "type", "name", "address", "pixel_id", "shell"}, SECTION)
            die = whole(entry, "die", SECTION)
            kind_of_die = text(entry, "type", SECTION)
            if die is None or kind_of_die not in TYPES:
                raise SensorConfigError(
                    f'[[{SECTION}]] each die needs die = N and type = "pixels" or "godice"'
                )
            config = cls(
                die=die,
                type=kind_of_die,
                name=text(entry, "name", SECTION),
                address=text(entry, "address", SECTION),
                pixel_id=whole(entry, "pixel_id", SECTION),
                shell=text(entry, "shell", SECTION),
            )
            if config.name is None and config.address is None and config.pixel_id is None:
                raise SensorConfigError(f"[[{SECTION}]] die {die}: say which die: name, address or pixel_id")
            if config.type == "godice":
                if config.shell not in godice.shells():
                    known = ", ".join(godice.shells())
                    raise SensorConfigError(f"[[{SECTION}]] die {die}: a GoDice needs shell = one of {known}")
                if config.pixel_id is not None:
                    raise SensorConfigError(f"[[{SECTION}]] die {die}: pixel_id is for Pixels dice")
            elif config.shell is not None:
                raise SensorConfigError(
                    f"[[{SECTION}]] die {die}: a Pixel knows its own type: leave out shell"
                )
            dice.append(config)
        numbers = [d.die for d in dice]
        if len(set(numbers)) != len(numbers):
            raise SensorConfigError(f"[[{SECTION}]] two dice have one number")
        return tuple(dice)


@dataclass
class DieState:
    config: BleDieConfig
    state: str = "searching"
    battery: int | None = None
    die_type: str | None = None
    last_face: int | None = None
    rolls: int = 0
    error: str | None = None

    @property
    def kind(self) -> str:
        """The die's own type ("d20", "d6-fudge"): a GoDice's shell, or what a Pixel said it is."""
        return self.config.shell or self.die_type or "unknown"

    @property
    def faces(self) -> int | None:
        """How many faces the die has, from its type (None while a Pixel has not said)."""
        digits = self.kind[1:].split("-")[0] if self.kind.startswith("d") else ""
        if digits == "00" or digits.startswith("10"):
            return 10
        return int(digits) if digits.isdigit() else None

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.config.die,
            "name": self.config.label,
            "type": self.config.type,
            "kind": self.kind,
            "state": self.state,
            "battery": self.battery,
            "last_face": self.last_face,
            "rolls": self.rolls,
            "error": self.error,
        }


class DiceService:
    """Every configured die on one asyncio loop on its own thread."""

    def __init__(
        self,
        configs: tuple[BleDieConfig, ...],
        transport: BleTransport,
        sink: Callable[[Observation], None],
        on_status: Callable[[dict[str, Any]], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
        reconnect_seconds: tuple[float, ...] = RECONNECT_SECONDS,
    ) -> None:
        self._transport = transport
        self._sink = sink
        self._on_status = on_status
        self._clock = clock
        self._pauses = reconnect_seconds
        self.dice = [DieState(config) for config in configs]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._started = threading.Event()

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> None:
        self._report()
        self._thread = threading.Thread(target=self._run, name="ble-dice", daemon=True)
        self._thread.start()
        self._started.wait(5)

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stopping = asyncio.Event()
        tasks = [asyncio.create_task(self._keep_connected(die)) for die in self.dice]
        self._started.set()
        await self._stopping.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def close(self) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    # -- one die ------------------------------------------------------------------------------

    async def _keep_connected(self, die: DieState) -> None:
        failures = 0
        while True:
            lost = asyncio.Event()
            connection = None
            try:
                advert = await self._transport.find(die.config.matches, SCAN_SECONDS)
                if advert is None:
                    self._set(
                        die, "searching", f"not heard within {SCAN_SECONDS:.0f} s (switched on, in range?)"
                    )
                else:
                    self._set(die, "connecting", None)
                    connection = await self._transport.connect(advert.address, lost.set)
                    await self._greet(die, connection)
                    self._set(die, "connected", None)
                    failures = 0
                    await lost.wait()
                    self._set(die, "searching", "the connection was lost")
            except asyncio.CancelledError:
                if connection is not None:
                    await _quietly(connection.disconnect())
                raise
            except ImportError as exc:  # bleak missing: no radio at all, not a die out of range
                self._set(
                    die, "error", f"{exc.name or exc} is not installed (pip install 'table-companion[pi]')"
                )
            except Exception as exc:  # the radio or the die misbehaved: say so, try again later
                self._set(die, "searching", f"{type(exc).__name__}: {exc}")
                if connection is not None:
                    await _quietly(connection.disconnect())
            pause = self._pauses[min(failures, len(self._pauses) - 1)]
            failures += 1
            await asyncio.sleep(pause)

    async def _greet(self, die: DieState, connection: BleConnection) -> None:
        if die.config.type == "pixels":
            watcher = pixels.RollWatcher()
            await connection.subscribe(pixels.NOTIFY, lambda data: self._pixels(die, watcher, data))
            await connection.write(pixels.WRITE, pixels.who_are_you())
        else:
            rolling = [False]
            await connection.subscribe(godice.NOTIFY, lambda data: self._godice(die, rolling, data))
            await connection.write(godice.WRITE, godice.battery_request())

    def _pixels(self, die: DieState, watcher: pixels.RollWatcher, data: bytes) -> None:
        try:
            message = pixels.parse(data)
        except (pixels.PixelsMessageError, ValueError) as exc:
            log.warning("%s sent %s: %s", die.config.label, data.hex(), exc)
            return
        if isinstance(message, pixels.IAmADie):
            die.die_type, die.battery = message.die_type, message.battery_percent
            self._report()
        elif isinstance(message, pixels.BatteryLevel):
            die.battery = message.percent
            self._report()
        elif isinstance(message, pixels.RollState):
            index = watcher.update(message)
            if index is not None:
                self._rolled(die, pixels.table_face(die.kind, index))

    def _godice(self, die: DieState, rolling: list[bool], data: bytes) -> None:
        try:
            message = godice.parse(data)
        except (godice.GoDiceMessageError, ValueError) as exc:
            log.warning("%s sent %s: %s", die.config.label, data.hex(), exc)
            return
        if isinstance(message, godice.RollStarted):
            rolling[0] = True
        elif isinstance(message, godice.Stable):
            if message.is_roll and rolling[0]:
                shell = die.config.shell or "d6"
                self._rolled(die, godice.table_face(shell, godice.shells()[shell].value(message.vector)))
            rolling[0] = False
        elif isinstance(message, godice.Battery):
            die.battery = message.percent
            self._report()

    def _rolled(self, die: DieState, face: int) -> None:
        die.last_face, die.rolls = face, die.rolls + 1
        self._sink(DieRolled(DieId(die.config.die), face, self._clock(), die.faces))
        self._report()

    # -- status -------------------------------------------------------------------------------

    def _set(self, die: DieState, state: str, error: str | None) -> None:
        if (die.state, die.error) != (state, error):
            if error:
                log.info("%s: %s", die.config.label, error)
            die.state, die.error = state, error
            self._report()

    def status(self) -> dict[str, Any]:
        dice = [die.to_json() for die in self.dice]
        connected = sum(d["state"] == "connected" for d in dice)
        low = [d for d in dice if d["battery"] is not None and d["battery"] <= 15]
        return {
            "state": "connected"
            if connected == len(dice)
            else "error"
            if all(d["state"] == "error" for d in dice)
            else "searching"
            if connected == 0
            else "partial",
            "detail": f"{connected} of {len(dice)} dice",
            "dice": dice,
            "notices": [
                {"level": "warning", "text": f"{d['name']}: {d['error']}"}
                for d in dice
                if d["state"] == "error"
            ]
            + [{"level": "info", "text": f"{d['name']}: battery {d['battery']} %"} for d in low],
        }

    def _report(self) -> None:
        if self._on_status is not None:
            try:
                self._on_status(self.status())
            except Exception:
                log.exception("reporting the Bluetooth dice failed")


async def _quietly(awaitable: Awaitable[Any]) -> None:
    try:
        await asyncio.wait_for(awaitable, 5)
    except Exception:  # already gone: nothing to release
        pass
