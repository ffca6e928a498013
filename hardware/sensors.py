"""What every sensor beside the bridge shares: its configuration error, and reading a settings section.

Each sensor (MFRC522 readers on SPI, USB keyboard readers, Bluetooth dice) is configured in its own
``[hardware.*]`` section of table.toml, checked when the companion starts: a mistake stops start-up
with one sentence naming the key, never a traceback.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class SensorConfigError(ValueError):
    """A ``[hardware.*]`` section of the settings is malformed (an unknown key, a wrong type)."""


def check_keys(section: Mapping[str, Any], known: set[str], where: str) -> None:
    unknown = set(section) - known
    if unknown:
        raise SensorConfigError(
            f"unknown keys in [{where}]: {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})"
        )


def whole(
    section: Mapping[str, Any], key: str, where: str, default: int | None = None, low: int = 0
) -> int | None:
    value = section.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise SensorConfigError(f"[{where}] {key} must be a whole number of at least {low}, got {value!r}")
    return value


def text(section: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str | None:
    value = section.get(key, default)
    if value is not None and (not isinstance(value, str) or not value):
        raise SensorConfigError(f"[{where}] {key} must be text, got {value!r}")
    return value


def reader_ids_unique(ids: list[int], where: str) -> None:
    seen: set[int] = set()
    for reader in ids:
        if reader in seen:
            raise SensorConfigError(f"[{where}] reader {reader} is listed twice")
        seen.add(reader)
