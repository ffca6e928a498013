"""Fan-out of published views to subscribers (SSE clients, MQTT, LEDs), never blocking the writer.

Each subscriber has its own small bounded queue. A reader that falls behind loses the oldest views,
which costs nothing: every view is complete, and the newest one is always kept.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable

from companion.session.views import PublishedView


class Subscriber:
    """One reader's queue of views (implements ``companion.session.contract.Subscription``)."""

    def __init__(
        self, feed: Feed, first: PublishedView, depth: int, notify: Callable[[], None] | None = None
    ) -> None:
        self._feed = feed
        self._notify = notify
        """Called (on the writer's thread, after the view is queued) so a reader that waits on many
        feeds in one event loop (the hall publisher) needs no thread per feed; must not block."""
        self._items: deque[PublishedView] = deque([first], maxlen=depth)
        self._ready = threading.Condition(threading.Lock())
        self._dropped = 0
        self._closed = False

    @property
    def dropped(self) -> int:
        """Views this reader never got because it was slower than the writer."""
        return self._dropped

    @property
    def closed(self) -> bool:
        return self._closed

    def get(self, timeout: float | None = None) -> PublishedView | None:
        with self._ready:
            self._ready.wait_for(lambda: self._items or self._closed, timeout)
            if self._closed or not self._items:
                return None
            return self._items.popleft()

    def close(self) -> None:
        self._feed.unsubscribe(self)
        self._shut()

    def put(self, view: PublishedView) -> None:
        """Called by the writer: never blocks longer than a lock hand-off."""
        with self._ready:
            if self._closed:
                return
            if len(self._items) == self._items.maxlen:
                self._dropped += 1  # the deque drops the oldest on append
            self._items.append(view)
            self._ready.notify()
        if self._notify is not None:
            self._notify()

    def _shut(self) -> None:
        with self._ready:
            self._closed = True
            self._items.clear()
            self._ready.notify_all()


class Feed:
    """The latest view and everyone subscribed to it."""

    def __init__(self, first: PublishedView, depth: int = 16) -> None:
        if depth < 1:
            raise ValueError("a subscriber queue must hold at least one view")
        self._depth = depth
        self._lock = threading.Lock()
        self._latest = first
        self._subscribers: set[Subscriber] = set()

    @property
    def latest(self) -> PublishedView:
        return self._latest

    def subscribe(self, notify: Callable[[], None] | None = None) -> Subscriber:
        # Under the lock, so a view published meanwhile is either the first item or queued after it.
        with self._lock:
            subscriber = Subscriber(self, self._latest, self._depth, notify)
            self._subscribers.add(subscriber)
        return subscriber

    def unsubscribe(self, subscriber: Subscriber) -> None:
        with self._lock:
            self._subscribers.discard(subscriber)

    def publish(self, view: PublishedView) -> None:
        """Only the writer thread publishes, so views reach every queue in order."""
        with self._lock:
            self._latest = view
            subscribers = tuple(self._subscribers)
        for subscriber in subscribers:
            subscriber.put(view)

    def close_all(self) -> None:
        with self._lock:
            subscribers = tuple(self._subscribers)
            self._subscribers.clear()
        for subscriber in subscribers:
            subscriber._shut()

    def __len__(self) -> int:
        return len(self._subscribers)
