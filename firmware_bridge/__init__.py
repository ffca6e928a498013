"""Serial bridge to the table's microcontroller: the protocol, the host link, a virtual table.

* ``HostLink(port, on_observation, on_status)``: opens the board (path, /dev/serial/by-id link,
  ``VID:PID`` or pyserial URL), reconnects by itself, turns device events into ``companion``
  observations and reports a JSON-able status dict. ``start()`` / ``stop()``; no I/O before start.
* ``VirtualTable``: the same protocol from a simulated table over a real pty; ``start()`` returns the
  path to give ``HostLink``.
* The wire format is in docs/protocol.md; ``firmware/`` is the Pico side.
"""

from firmware_bridge.host import LinkSettings
from firmware_bridge.link import HostLink
from firmware_bridge.status import LinkState
from firmware_bridge.virtual import Faults, VirtualSettings, VirtualTable

__all__ = ["Faults", "HostLink", "LinkSettings", "LinkState", "VirtualSettings", "VirtualTable"]
