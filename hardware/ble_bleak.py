"""The real Bluetooth stack for the dice: bleak over BlueZ's D-Bus API (the Pi's own radio).

Imported only when ``[[hardware.ble_dice]]`` is configured and no fake is asked for; bleak is a Pi
extra (``pip install table-companion[pi]``), not needed on a laptop or in CI. The service user needs
the ``bluetooth`` group (D-Bus policy of BlueZ on Debian); deploy/install.sh adds it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.ble_dice import Advert


class BleakConnection:
    def __init__(self, client: Any) -> None:
        self._client = client

    async def subscribe(self, characteristic: str, on_data: Callable[[bytes], None]) -> None:
        await self._client.start_notify(characteristic, lambda _sender, data: on_data(bytes(data)))

    async def write(self, characteristic: str, data: bytes) -> None:
        found = self._client.services.get_characteristic(characteristic)
        quiet = found is not None and "write-without-response" in found.properties
        await self._client.write_gatt_char(characteristic, data, response=not quiet)

    async def disconnect(self) -> None:
        await self._client.disconnect()


class BleakTransport:
    def __init__(self, adapter: str | None = None) -> None:
        self._adapter = adapter

    def _options(self) -> dict[str, Any]:
        return {"adapter": self._adapter} if self._adapter else {}

    async def find(self, match: Callable[[Advert], bool], timeout: float) -> Advert | None:
        from bleak import BleakScanner

        found: list[Advert] = []

        def accept(device: Any, data: Any) -> bool:
            advert = Advert(
                device.address,
                data.local_name or device.name or "",
                tuple(data.service_uuids or ()),
                {uuid: bytes(value) for uuid, value in (data.service_data or {}).items()},
            )
            if match(advert):
                found.append(advert)
                return True
            return False

        device = await BleakScanner.find_device_by_filter(accept, timeout=timeout, **self._options())
        return found[-1] if device is not None and found else None

    async def connect(self, address: str, on_disconnect: Callable[[], None]) -> BleakConnection:
        from bleak import BleakClient

        client = BleakClient(
            address, disconnected_callback=lambda _client: on_disconnect(), **self._options()
        )
        await client.connect()
        return BleakConnection(client)
