from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqtt_link.broker import EmbeddedBroker
from mqtt_link.loop import MqttLoop

from .hallkit import binary, mosquitto_or_skip


@pytest.fixture(scope="session")
def mosquitto() -> str:
    return mosquitto_or_skip(binary(), os.environ)


@pytest.fixture
def broker(mosquitto: str, tmp_path: Path) -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker(tmp_path / "broker", binary=mosquitto) as running:
        yield running


@pytest.fixture
def loop() -> Iterator[MqttLoop]:
    running = MqttLoop().start()
    yield running
    running.stop()
