"""The table's settings: one typed, immutable object, loaded at the entry point only.

Sources, lowest priority first: the defaults below, a TOML file (``--config``), then command-line flags.
Nothing here reads the environment or touches the disk at import time; ``load_settings`` does the I/O.

Example ``table.toml``::

    host = "0.0.0.0"
    port = 8000
    pin = "4711"            # leave out: one is made once, kept beside the event log, printed at start
    db = "/var/lib/table-companion/table.sqlite3"   # default: the data folder (companion.datadir)
    game = "chaos-marauders"
    public_url = "http://table.local:8000"   # what the TV's QR code opens; default: this machine's address
    serial_port = "/dev/ttyACM0"

    [[players]]
    name = "Grotsnik"
    colour = "#d33b2c"

    [camera]                # cards read by a camera over the printed mat (docs/vision.md)
    source = "camera:0"     # camera:N, picam:N (the Pi camera), file:VIDEO, folder:IMAGES or sim:
    players = 4             # the mat printed for this many players
    settle_frames = 4
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.datadir import default_db
from companion.engine import Player, is_colour


class SettingsError(ValueError):
    """The settings file or a flag holds a value of the wrong kind or an unknown key."""


@dataclass(frozen=True)
class CameraSettings:
    """The ``[camera]`` section: which frames, which mat, which enrolled faces, how long to wait."""

    source: str = "camera:0"
    """A frame source spec (``vision.capture``): ``camera:0``, ``picam:0`` (the Pi camera), ``file:PATH``,
    ``folder:PATH``, ``sim:``."""
    players: int = 4
    """The mat is printed for this many players (``companion vision mat --players N``)."""
    layout: Path | None = None
    """A mat layout file of your own (for the settings' ``game``); None: the game's bundle's mat."""
    references: Path | None = None
    """Enrolled faces; None: ``references_for`` (where ``companion vision enrol`` saves them)."""
    settle_frames: int = 4
    """Frames in a row a card must lie still in one zone before it is played."""
    gone_frames: int = 8
    """Frames in a row a played card must be missing before it counts as lifted."""
    slots: bool = False
    """Each slot of a line is a camera zone of its own (``p0-line1-slot3``): the engine is told the
    slot a card lies in instead of asking. The ``[[table.readers]]`` then list every slot."""

    def references_for(self, db: Path, game: str) -> Path:
        """The enrolled faces of ``game``: as configured, else beside the event log."""
        return self.references or references_path(db, game)


def references_path(db: Path, game: str) -> Path:
    """Where ``companion vision enrol`` saves a game's faces: the table's data dir, by the event log."""
    return db.parent / "vision" / f"{game}-references.npz"


@dataclass(frozen=True)
class HallSettings:
    """The ``[hall]`` section: this table publishes to a hall's MQTT broker (docs/hall.md)."""

    broker: str
    """``mqtt://host:1883`` or ``mqtts://host:8883`` (TLS)."""
    hall: str
    table: str
    """This table's id in the hall (a-z, 0-9, '-', '_'; also its user name on the broker)."""
    name: str = ""
    """What the hall page calls this table ("Table 3 by the window"); default: its id."""
    username: str | None = None
    password: str | None = None
    cafile: Path | None = None
    """The CA of the broker's TLS certificate; None: the system's CAs."""


_HALL: dict[str, type] = {
    "broker": str,
    "hall": str,
    "table": str,
    "name": str,
    "username": str,
    "password": str,
    "cafile": str,
}


def _hall(value: Any) -> HallSettings:
    from companion.hall.topics import TopicError, check_id

    if not isinstance(value, Mapping):
        raise SettingsError("setting 'hall' must be a table ([hall])")
    for key, item in value.items():
        if key not in _HALL:
            raise SettingsError(f"unknown setting 'hall.{key}' (known: {', '.join(_HALL)})")
        if not isinstance(item, _HALL[key]):
            raise SettingsError(f"setting 'hall.{key}': {item!r} has the wrong type")
    missing = [key for key in ("broker", "hall", "table") if not value.get(key)]
    if missing:
        raise SettingsError(f"setting 'hall' needs {', '.join(missing)}")
    try:
        check_id(value["hall"], "hall.hall")
        check_id(value["table"], "hall.table")
    except TopicError as exc:
        raise SettingsError(f"setting {exc}") from None
    return HallSettings(**{**value, **({"cafile": Path(value["cafile"])} if "cafile" in value else {})})


@dataclass(frozen=True)
class Settings:
    """Everything the entry point needs to wire the table together."""

    host: str = "0.0.0.0"
    """Interface to listen on; all of them by default so the TV and phones on the LAN can connect."""
    port: int = 8000
    pin: str | None = None
    """The table's PIN for state-changing requests; None: one made at the first start and kept beside the
    event log (``<db>-phones.sqlite3``), changeable from a phone."""
    db: Path = field(default_factory=default_db)
    """The event log; by default ``table.sqlite3`` in the table's data folder (``companion.datadir``:
    ``~/.local/share/table-companion`` for a user, ``/var/lib/table-companion`` for the service)."""
    game: str = ""
    """The game the new-game form offers first; empty: the first installed game, by name."""
    players: tuple[Player, ...] = ()
    """Default players offered for a new game (names and colours)."""
    public_url: str | None = None
    """Base URL printed and put in the QR code; None: this machine's LAN address and port."""
    serial_port: str | None = None
    secret_key: str | None = None
    """Signs the phones' session cookies; None: a random key made once and kept with the trusted phones."""
    player_rolls: bool = True
    """A phone that plays a seat enters its own seat's dice; false: only the table's dice or a shared
    phone enter rolls."""
    tv_frame_ancestors: str | None = None
    """Pages that may show the TV scoreboard in a frame (a hall page: ``"http://hall.local:8080"``);
    None: no page may."""
    sse_keepalive: float = 15.0
    sse_retry_ms: int = 2000
    sse_max_streams: int = 24
    """Screens (TVs, phones) streaming at once; each holds a server thread, the next one gets a 503."""
    log_level: str = "INFO"
    game_data: Mapping[str, Path] = field(default_factory=dict)
    """The ``[data]`` section: game name -> the owner's overrides file for that game's data (values the
    rules texts lack, corrected from the physical game); the served engines use it."""
    camera: CameraSettings | None = None
    """The ``[camera]`` section; None: no camera at this table."""
    hall: HallSettings | None = None
    """The ``[hall]`` section; None: this table publishes to no hall."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Tables the web app does not know ([hardware], [vision], ...), kept for their own wiring."""

    def __post_init__(self) -> None:
        if not self.game:
            from companion.games import names  # the registry: which games this table has

            object.__setattr__(self, "game", next(iter(names()), ""))

    def with_overrides(self, **overrides: Any) -> Settings:
        """A copy with the given fields replaced; None values are ignored (an unset CLI flag)."""
        given = {k: v for k, v in overrides.items() if v is not None}
        if "db" in given:
            given["db"] = Path(given["db"])
        return dataclasses.replace(self, **given)

    def checked_game(self) -> Settings:
        """This, once ``game`` names an installed game (SettingsError naming the known ones)."""
        from companion.engine import SetupError
        from companion.games import UnknownGameError, find_bundle  # the registry, read at start only

        try:
            find_bundle(self.game)
            for game, path in self.game_data.items():
                find_bundle(game).load_engine(path)  # a bad file is found now, not when a game starts
        except (UnknownGameError, SetupError) as exc:
            raise SettingsError(str(exc)) from None
        return self

    @property
    def trust_db(self) -> Path:
        """The trusted phones, their seats, the kept PIN: a file beside the event log, never in the repo."""
        return self.db.with_name(f"{self.db.stem}-phones.sqlite3")

    def web_config(self) -> dict[str, Any]:
        """The Flask config keys the web app reads (see ``web.create_app``)."""
        return {
            "TABLE_PIN": self.pin,
            "SECRET_KEY": self.secret_key,
            "TRUST_DB": self.trust_db,
            "PUBLIC_URL": self.public_url,
            "PLAYER_ROLLS": self.player_rolls,
            "TV_FRAME_ANCESTORS": self.tv_frame_ancestors,
            "HALL_CONFIRM": self.hall is not None,
            "DEFAULT_GAME": self.game,
            "DEFAULT_PLAYERS": [p.to_json() for p in self.players],
            "GAME_DATA": dict(self.game_data),
            "SSE_KEEPALIVE": self.sse_keepalive,
            "SSE_RETRY_MS": self.sse_retry_ms,
            "SSE_MAX_STREAMS": self.sse_max_streams,
        }


_SIMPLE: dict[str, type | tuple[type, ...]] = {
    "host": str,
    "port": int,
    "pin": (str, int),
    "db": str,
    "game": str,
    "public_url": str,
    "serial_port": str,
    "secret_key": str,
    "sse_keepalive": (int, float),
    "sse_retry_ms": int,
    "sse_max_streams": int,
    "log_level": str,
    "player_rolls": bool,
    "tv_frame_ancestors": str,
}
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")

_SECTIONS = ("hardware", "vision", "firmware", "serial", "mqtt", "table")


def settings_from_mapping(data: Mapping[str, Any]) -> Settings:
    """Settings from a parsed TOML document; raises SettingsError naming the offending key."""
    values: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in data.items():
        if key in _SIMPLE:
            expected = _SIMPLE[key]
            if isinstance(value, bool) != (expected is bool) or not isinstance(value, expected):
                raise SettingsError(f"setting {key!r}: {value!r} has the wrong type")
            values[key] = value
        elif key == "players":
            values["players"] = _players(value)
        elif key == "camera":
            values["camera"] = _camera(value)
        elif key == "data":
            values["game_data"] = _game_data(value)
        elif key == "hall":
            values["hall"] = _hall(value)
        elif key in _SECTIONS and isinstance(value, Mapping):
            extra[key] = dict(value)
        else:
            raise SettingsError(f"unknown setting {key!r}")
    if "pin" in values:
        values["pin"] = str(values["pin"])
    if "db" in values:
        values["db"] = Path(values["db"])
    if "sse_keepalive" in values:
        values["sse_keepalive"] = float(values["sse_keepalive"])
    if not 0 <= values.get("port", 0) <= 65535:
        raise SettingsError(f"setting 'port' must be 0 to 65535 (0: any free port), got {values['port']}")
    if str(values.get("log_level", "INFO")).upper() not in LOG_LEVELS:
        raise SettingsError(
            f"setting 'log_level' must be one of {', '.join(LOG_LEVELS)}, got {values['log_level']!r}"
        )
    if not 1 <= values.get("sse_max_streams", 1) <= 1000:  # each stream is a server thread
        raise SettingsError(f"setting 'sse_max_streams' must be 1 to 1000, got {values['sse_max_streams']}")
    return Settings(**values, extra=extra)


def load_settings(path: Path | None = None, **overrides: Any) -> Settings:
    """Defaults, then the TOML file at ``path`` (if any), then the non-None ``overrides``."""
    base = Settings()
    if path is not None:
        try:
            with path.open("rb") as fh:
                base = settings_from_mapping(tomllib.load(fh))
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"{path}: {exc}") from exc
        except OSError as exc:
            raise SettingsError(f"cannot read {path}: {exc.strerror}") from exc
    return base.with_overrides(**overrides)


def _game_data(value: Any) -> dict[str, Path]:
    if not isinstance(value, Mapping) or not all(isinstance(v, str) and v for v in value.values()):
        raise SettingsError("setting 'data' must be a table of game name = \"overrides file\"")
    return {str(game): Path(path) for game, path in value.items()}


_CAMERA: dict[str, type] = {
    "source": str,
    "players": int,
    "layout": str,
    "references": str,
    "settle_frames": int,
    "gone_frames": int,
    "slots": bool,
}


def _camera(value: Any) -> CameraSettings:
    if not isinstance(value, Mapping):
        raise SettingsError("setting 'camera' must be a table ([camera])")
    for key, item in value.items():
        if key not in _CAMERA:
            raise SettingsError(f"unknown setting 'camera.{key}' (known: {', '.join(_CAMERA)})")
        if isinstance(item, bool) != (_CAMERA[key] is bool) or not isinstance(item, _CAMERA[key]):
            raise SettingsError(f"setting 'camera.{key}': {item!r} has the wrong type")
    for key in ("players", "settle_frames", "gone_frames"):
        if key in value and value[key] < 1:
            raise SettingsError(f"setting 'camera.{key}' must be at least 1, got {value[key]}")
    paths = {key: Path(value[key]) for key in ("layout", "references") if key in value}
    return CameraSettings(**{**value, **paths})


def _players(value: Any) -> tuple[Player, ...]:
    if not isinstance(value, list):
        raise SettingsError("setting 'players' must be a list of tables with a name")
    players = []
    for item in value:
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise SettingsError(f"setting 'players': {item!r} needs a name")
        colour = str(item.get("colour", "#888888"))
        if not is_colour(colour):
            raise SettingsError(
                f"setting 'players': {item['name']}'s colour {colour!r} is not a colour like #e23b3b"
            )
        players.append(Player(name=item["name"], colour=colour))
    return tuple(players)
