"""Waiting on a live session in the integration tests."""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.session import Session


def wait_until(session: Session, predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Waits on a condition, woken by every view the session publishes (no sleeping)."""
    subscription = session.subscribe()
    deadline = time.monotonic() + timeout
    try:
        while not predicate() and time.monotonic() < deadline:
            subscription.get(timeout=0.05)
        return predicate()
    finally:
        subscription.close()
