"""``companion serve`` under systemd: READY once the TV page is served, a watchdog fed by the session loop.

Wiring only (the protocol is ``companion.sdnotify``). Outside systemd nothing is sent and no thread
starts. The watchdog pings while (a) the session's writer loop answers a probe within half the
watchdog period and (b) the web server's loop thread runs: a writer stuck on a lock or a dead server
stops the pings, and systemd restarts the service.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from companion.sdnotify import Notifier, Watchdog, watchdog_interval

log = logging.getLogger(__name__)


def health_check(session: Any, server: Any, probe_timeout: float) -> str | None:
    """None when the session's writer loop and the web server both run, else what is wrong."""
    if not server.running:
        return "the web server's loop has stopped"
    if not session.responsive(probe_timeout):
        return f"the session's writer loop did not answer within {probe_timeout:.1f} s"
    return None


@contextmanager
def systemd_service(
    session: Any, server: Any, url: str, environ: Mapping[str, str] | None = None
) -> Iterator[Notifier]:
    """Tells systemd the service is ready (with the TV URL as its status), feeds the watchdog while
    the block runs, and says STOPPING when it ends."""
    environ = os.environ if environ is None else environ
    notifier = Notifier.from_environment(environ)
    interval = watchdog_interval(environ)
    watchdog = None
    if notifier.enabled and interval is not None:
        watchdog = Watchdog(notifier, interval, lambda: health_check(session, server, interval))
        watchdog.start()
        log.info("systemd watchdog: a ping every %.1f s while the session answers", interval)
    notifier.ready(f"serving the TV at {url}/")
    try:
        yield notifier
    finally:
        notifier.stopping()
        if watchdog is not None:
            watchdog.stop()
