"""Where the table keeps its data when the settings name no event log: one place per user or per
system, whatever folder the companion is started from (a start elsewhere must not show an empty table).

- run as a systemd service with ``StateDirectory=table-companion``: ``$STATE_DIRECTORY``
  (``/var/lib/table-companion``);
- run as root otherwise: ``/var/lib/table-companion``;
- run as a user: ``$XDG_DATA_HOME/table-companion``, by default ``~/.local/share/table-companion``.

The event log is ``table.sqlite3`` there; the trusted phones, enrolled tags and camera references
live beside it. Read when the settings are built, never at import.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

APP = "table-companion"
SYSTEM = Path("/var/lib") / APP
EVENT_LOG = "table.sqlite3"


def data_dir(environ: Mapping[str, str] | None = None, euid: int | None = None) -> Path:
    """The table's data folder for this process (see the module's docstring)."""
    env = os.environ if environ is None else environ
    state = env.get("STATE_DIRECTORY", "").split(":")[0]
    if state:
        return Path(state)
    if (os.geteuid() if euid is None else euid) == 0:
        return SYSTEM
    xdg = env.get("XDG_DATA_HOME", "")
    base = (
        Path(xdg)
        if xdg and Path(xdg).is_absolute()
        else Path(env.get("HOME") or Path.home()) / ".local" / "share"
    )
    return base / APP


def default_db() -> Path:
    return data_dir() / EVENT_LOG
