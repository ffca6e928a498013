"""The broker's files for a real hall (docs/hall.md, Broker): Mosquitto's password file, an ACL that
lets each table write only its own topics and the hall only read, and a ``mosquitto.conf``.

Pure text: the command that writes them (``companion hall credentials``) and the embedded broker
(``mqtt_link.broker``) choose where they go. Passwords are hashed as ``mosquitto_passwd`` does
(PBKDF2-SHA512, 101 rounds, a 12-byte salt: Mosquitto 2's ``$7$`` form).
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.hall.messages import MAX_BYTES
from companion.hall.topics import ROOT, check_id

HALL_USER = "hall"
ITERATIONS = 101
"""What mosquitto_passwd 2.0 uses (its ``$7$101$`` prefix)."""


def new_password() -> str:
    return secrets.token_urlsafe(18)


def password_line(user: str, password: str, salt: bytes | None = None) -> str:
    """One line of Mosquitto's password file for ``user``."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, ITERATIONS)
    return f"{user}:$7${ITERATIONS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def password_file(passwords: Mapping[str, str]) -> str:
    return "".join(password_line(user, password) + "\n" for user, password in passwords.items())


def acl_file(hall: str, tables: Iterable[str], hall_user: str = HALL_USER) -> str:
    """Each table (its user name is its id) writes only its own four topics; the hall user reads every
    table's. Anything not granted is refused by Mosquitto."""
    check_id(hall, "hall id")
    lines = [
        f"# Mosquitto ACL for hall {hall} (companion hall credentials): tables write only their own topics",
        f"user {hall_user}",
        f"topic read {ROOT}/{hall}/tables/+/+",
        "",
    ]
    for table in tables:
        check_id(table)
        lines += [f"user {table}", f"topic write {ROOT}/{hall}/tables/{table}/+", ""]
    return "\n".join(lines)


@dataclass(frozen=True)
class Tls:
    certfile: Path
    keyfile: Path
    cafile: Path | None = None


def mosquitto_conf(
    *,
    port: int,
    bind: str | None,
    persistence: Path | None,
    password_path: Path | None,
    acl_path: Path | None,
    tls: Tls | None = None,
    log_dest: str = "stderr",
    user: str | None = None,
) -> str:
    """A ``mosquitto.conf``: one listener, persistence, authentication and ACL when given, TLS when
    given. Without a password file the listener is anonymous (a single machine's try only)."""
    lines = [
        "# Written by Table Companion (docs/hall.md, Broker)",
        "per_listener_settings false",
        f"listener {port}" + (f" {bind}" if bind else ""),
        f"message_size_limit {max(MAX_BYTES.values())}",
        # A hall that is away keeps its queue: an evening of 100 tables is far more than the default 1000.
        "max_queued_messages 100000",
        "max_inflight_messages 100",
        "set_tcp_nodelay true",  # an event or a PUBACK is sent at once, not after a delayed ACK
        f"log_dest {log_dest}",
        "log_type error",
        "log_type warning",
        "log_type notice",
        "connection_messages true",
    ]
    if user is not None:  # Mosquitto started as root runs as "mosquitto", who cannot write our folders
        lines.append(f"user {user}")
    if persistence is not None:
        lines += ["persistence true", f"persistence_location {persistence}/", "autosave_interval 60"]
    if password_path is not None:
        # A client's id is its user name: without it a table could connect under another table's
        # client id (or the hall's) and the broker would close that one's connection ("already
        # connected"), take over the hall's persistent session, or wipe it with a clean start.
        lines += ["allow_anonymous false", f"password_file {password_path}", "use_username_as_clientid true"]
    else:
        lines += ["allow_anonymous true"]
    if acl_path is not None:
        lines += [f"acl_file {acl_path}"]
    if tls is not None:
        lines += [f"certfile {tls.certfile}", f"keyfile {tls.keyfile}"]
        if tls.cafile is not None:
            lines += [f"cafile {tls.cafile}"]
    return "\n".join(lines) + "\n"


def table_settings(hall: str, table: str, name: str, broker_url: str, password: str) -> str:
    """The ``[hall]`` section a table's settings file needs to join (docs/hall.md)."""
    return (
        "[hall]\n"
        f'broker = "{broker_url}"\n'
        f'hall = "{hall}"\n'
        f'table = "{table}"\n'
        f'name = "{name}"\n'
        f'username = "{table}"\n'
        f'password = "{password}"\n'
    )
