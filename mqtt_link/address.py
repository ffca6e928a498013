"""Where the broker is: ``mqtt://host:1883`` or ``mqtts://host:8883`` (TLS), with optional credentials."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit


class BrokerUrlError(ValueError):
    """A broker URL the hall cannot use."""


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None
    cafile: Path | None = None
    """The CA that signed the broker's certificate (TLS); None: the system's CAs."""

    @classmethod
    def from_url(
        cls, url: str, username: str | None = None, password: str | None = None, cafile: Path | None = None
    ) -> Broker:
        parts = urlsplit(url)
        if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl"):
            raise BrokerUrlError(f"broker URL {url!r}: use mqtt://host:1883 or mqtts://host:8883")
        if not parts.hostname:
            raise BrokerUrlError(f"broker URL {url!r} names no host")
        tls = parts.scheme in ("mqtts", "ssl")
        try:
            port = parts.port or (8883 if tls else 1883)
        except ValueError:
            raise BrokerUrlError(f"broker URL {url!r} has a bad port") from None
        return cls(
            parts.hostname,
            port,
            tls,
            username if username is not None else (unquote(parts.username) if parts.username else None),
            password if password is not None else (unquote(parts.password) if parts.password else None),
            cafile,
        )

    @property
    def url(self) -> str:
        """The URL without credentials, for logs and the page."""
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"
