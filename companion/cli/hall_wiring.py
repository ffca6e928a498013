"""Wiring of a hall of tables: a table's publisher when its settings have ``[hall]`` (``companion
serve``), and the hall's subscriber, state and page (``companion hall``). Wiring only: what each part
does lives in ``companion.hall``, ``mqtt_link`` and ``web.hall``."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from companion.settings import Settings

log = logging.getLogger(__name__)


@contextmanager
def hall_publishing(settings: Settings, session: Any) -> Iterator[Any]:
    """A ``mqtt_link.publisher.TablePublisher`` for ``session`` while the block runs (None without
    ``[hall]``). The table plays on whatever the broker does."""
    if settings.hall is None:
        yield None
        return
    from mqtt_link.address import Broker
    from mqtt_link.loop import MqttLoop
    from mqtt_link.publisher import PublisherConfig, TablePublisher

    hall = settings.hall
    broker = Broker.from_url(hall.broker, hall.username, hall.password, hall.cafile)
    loop = MqttLoop().start()
    config = PublisherConfig(broker, hall.hall, hall.table, hall.name or hall.table)
    publisher = TablePublisher(session, config, loop).start()
    log.info("publishing to hall %s at %s as table %s", hall.hall, broker.url, hall.table)
    try:
        yield publisher
    finally:
        publisher.stop()
        loop.stop()
