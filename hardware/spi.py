"""SPI for readers wired straight to the Pi: a small interface, the spidev backend, and GPIO chip select.

``SpiDevice.transfer(data)`` clocks ``data`` out while the chip is selected and returns the bytes
clocked in (full duplex, as the MFRC522's register protocol needs). The Pi has two hardware chip
selects on SPI0 (CE0, CE1: ``spi = "0.0"`` and ``"0.1"``) and three on SPI1; more readers share a
bus with a GPIO each as chip select (``cs = 5``), which this module drives around every transfer.

spidev is imported only when a real device opens (not on a laptop, not in CI); the fake bus that
answers like MFRC522 chips is ``hardware.fake_mfrc522``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from gpiozero import DigitalOutputDevice, Factory


class SpiError(OSError):
    """The SPI device cannot be opened (SPI not enabled, wrong bus, no permission)."""


class SpiDevice(Protocol):
    def transfer(self, data: bytes) -> bytes: ...

    def close(self) -> None: ...


_SPEC = re.compile(r"^(\d)(?:\.(\d))?$")


@dataclass(frozen=True)
class SpiAddress:
    """``"0.1"``: bus 0, hardware chip select 1 (/dev/spidev0.1); ``"0"`` with a GPIO chip select."""

    bus: int
    device: int | None
    cs_gpio: int | None = None

    @classmethod
    def parse(cls, spec: str, cs_gpio: int | None = None) -> SpiAddress:
        match = _SPEC.match(spec)
        if match is None:
            raise ValueError(f'spi {spec!r}: expected BUS.CS like "0.0" (or BUS with a cs GPIO)')
        device = int(match[2]) if match[2] is not None else None
        if device is None and cs_gpio is None:
            raise ValueError(f'spi {spec!r}: name the chip select, "{spec}.0", or a cs GPIO')
        if device is not None and cs_gpio is not None:
            raise ValueError(f"spi {spec!r} has a hardware chip select: leave out cs = {cs_gpio}")
        return cls(int(match[1]), device, cs_gpio)

    @property
    def path(self) -> str:
        """The spidev node this reader uses (a GPIO chip select borrows the bus's CE0 node, SPI_NO_CS)."""
        return f"/dev/spidev{self.bus}.{self.device if self.device is not None else 0}"

    def __str__(self) -> str:
        return f"{self.bus}.{self.device}" if self.device is not None else f"{self.bus} cs GPIO{self.cs_gpio}"


class SpidevDevice:
    """A real SPI device through the kernel's spidev driver (mode 0, MSB first, as the MFRC522 wants)."""

    def __init__(self, address: SpiAddress, hz: int = 1_000_000, pin_factory: Factory | None = None) -> None:
        self.address = address
        self._hz = hz
        self._pin_factory = pin_factory
        self._spi: Any = None
        self._cs: DigitalOutputDevice | None = None

    def open(self) -> None:
        try:
            import spidev
        except ImportError as exc:
            raise SpiError("the spidev module is missing (apt install python3-spidev)") from exc
        spi = spidev.SpiDev()
        try:
            spi.open(self.address.bus, self.address.device or 0)
        except OSError as exc:
            raise SpiError(f"{self.address.path}: {exc.strerror} (is SPI enabled? raspi-config)") from exc
        spi.max_speed_hz = self._hz
        spi.mode = 0
        if self.address.cs_gpio is not None:
            spi.no_cs = True
            # Idle high: the chip select is active low.
            self._cs = DigitalOutputDevice(
                self.address.cs_gpio, active_high=False, initial_value=False, pin_factory=self._pin_factory
            )
        self._spi = spi

    def transfer(self, data: bytes) -> bytes:
        if self._spi is None:
            raise SpiError(f"{self.address.path} is not open")
        if self._cs is not None:
            self._cs.on()
        try:
            return bytes(self._spi.xfer2(list(data)))
        finally:
            if self._cs is not None:
                self._cs.off()

    def close(self) -> None:
        if self._spi is not None:
            self._spi.close()
            self._spi = None
        if self._cs is not None:
            self._cs.close()
            self._cs = None
