"""What the host knows about the device, as the JSON-able dict given to ``on_status``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any

from firmware_bridge.messages import Hello


class LinkState(Enum):
    SEARCHING = "searching"  # no port yet (unplugged, or not enumerated)
    CONNECTING = "connecting"  # port open, waiting for HELLO before trusting anything
    CONNECTED = "connected"  # HELLO received and heartbeats arriving
    LOST = "lost"  # port open but the device went quiet: never shown as connected
    STOPPED = "stopped"  # the link was stopped


@dataclass
class Counters:
    frames_ok: int = 0
    corrupt: int = 0  # COBS, CRC or length errors
    unknown_versions: int = 0
    unknown_types: int = 0
    bad_payloads: int = 0
    duplicates: int = 0  # events dropped because already delivered
    out_of_order: int = 0  # events dropped because an earlier one is missing (the device re-sends)
    retransmits_seen: int = 0  # events the host had already received once
    before_hello: int = 0  # events ignored while not connected (the device re-sends)
    events: int = 0  # events delivered
    state_reports: int = 0  # full state reports reconciled
    resyncs_sent: int = 0
    reconnects: int = 0
    device_restarts: int = 0


@dataclass
class DeviceStatus:
    state: LinkState = LinkState.SEARCHING
    port: str = ""
    path: str | None = None
    hello: Hello | None = None
    last_heard: float | None = None
    uptime_ms: int | None = None
    battery: tuple[int, int] | None = None
    error: str | None = None
    tags: dict[int, list[str]] = field(default_factory=dict)
    dice: dict[int, int] = field(default_factory=dict)
    counters: Counters = field(default_factory=Counters)

    def as_dict(self) -> dict[str, Any]:
        hello = self.hello
        return {
            "state": self.state.value,
            "port": self.port,
            "path": self.path,
            "firmware": hello.firmware_version if hello else None,
            "device_id": hello.device_id if hello else None,
            "boot_id": f"{hello.boot_id:08X}" if hello else None,
            "capabilities": {
                "readers": hello.readers,
                "dice": [{"id": d.die, "faces": d.faces} for d in hello.dice],
                "buttons": list(hello.buttons),
            }
            if hello
            else None,
            "last_heard": self.last_heard,
            "uptime_ms": self.uptime_ms,
            "battery": {"millivolts": self.battery[0], "percent": self.battery[1]} if self.battery else None,
            "error": self.error,
            "tags": {str(reader): list(uids) for reader, uids in sorted(self.tags.items()) if uids},
            "dice": {str(die): face for die, face in sorted(self.dice.items())},
            "counters": asdict(self.counters),
        }
