"""What the table wants the players to know right now (unknown tag, ambiguous reading, refused move).

Each notice has a key so the situation that raised it can clear it (the unknown tag is lifted, the
ambiguous card settles). One-off notices carry an expiry instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.engine import JSON


@dataclass(frozen=True)
class Notice:
    text: str
    level: str = "warning"
    expires_at: float | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"level": self.level, "text": self.text}


class NoticeBoard:
    """Owned by the table's worker thread; ``changed`` tells it when to report to the session."""

    def __init__(self) -> None:
        self._notices: dict[str, Notice] = {}
        self.changed = False

    def post(self, key: str, text: str, level: str = "warning", expires_at: float | None = None) -> None:
        notice = Notice(text, level, expires_at)
        if self._notices.get(key) != notice:
            self._notices.pop(key, None)  # re-posting moves it to the end (newest last)
            self._notices[key] = notice
            self.changed = True

    def clear(self, key: str) -> None:
        if self._notices.pop(key, None) is not None:
            self.changed = True

    def keys(self, prefix: str = "") -> list[str]:
        return [key for key in self._notices if key.startswith(prefix)]

    def text(self, key: str) -> str | None:
        notice = self._notices.get(key)
        return notice.text if notice else None

    def expire(self, now: float) -> None:
        for key, notice in list(self._notices.items()):
            if notice.expires_at is not None and notice.expires_at <= now:
                self.clear(key)

    def next_expiry(self) -> float | None:
        return min((n.expires_at for n in self._notices.values() if n.expires_at is not None), default=None)

    def to_json(self) -> list[dict[str, JSON]]:
        return [notice.to_json() for notice in self._notices.values()]
