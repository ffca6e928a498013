"""What a table publishes and how a hall reads it (docs/hall.md, Messages).

A table builds its messages with the ``*_message`` functions. A hall treats every payload as hostile
until ``read_message`` has checked it: its size, its JSON nesting, the shape and types of each field,
and that the table it names is the table whose topic it came on (a table cannot publish as another;
the broker's ACL stops that too). A refused message raises ``MessageError`` with one sentence.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.engine import JSON
from companion.hall.topics import Leaf, TableId

MAX_BYTES: dict[Leaf, int] = {
    "events": 16 * 1024,
    "status": 8 * 1024,
    "result": 32 * 1024,
    "view": 256 * 1024,
}
"""The largest payload a hall reads on each leaf (a Chaos Marauders view is about 20 kB, an input
under 2 kB). The broker's ``message_size_limit`` is set to the largest."""
INPUT_KINDS = ("act", "undo", "redo", "new_game", "end_game", "set_aside", "resume", "note")
"""The session's input kinds (``companion.session.contract``; ``set_aside`` is written for the game a
new game or a resume replaces): an event of another kind is refused."""
MAX_DEPTH = 32
MAX_TEXT = 2000
MAX_NAME = 64


class MessageError(ValueError):
    """A payload a hall will not read: too large, not JSON, too deep, or of the wrong shape."""


# ------------------------------------------------------------------------------ table side


def event_message(table: str, log: str, since: int, item: Mapping[str, JSON]) -> dict[str, JSON]:
    """One accepted input as it travels (``item`` is ``Session.inputs_after``'s form). ``log`` names
    the event log it came from (a new log starts its seqs over), ``since`` the watermark the table
    started publishing to this hall from."""
    return {
        "table": table,
        "log": log,
        "since": since,
        "seq": item["seq"],
        "game_id": item["game_id"],
        "at": item["at"],
        "kind": item["kind"],
        "source": item["source"],
        "action": item.get("action"),
        "events": list(item.get("events") or ()),  # type: ignore[arg-type]
        "target": item.get("target"),
    }


def status_message(
    table: str, name: str, log: str, online: bool, view: Mapping[str, JSON] | None, reason: str = ""
) -> dict[str, JSON]:
    """The table's status: online or not, and what it is playing (from its latest view)."""
    game = view.get("game") if view else None
    game = game if isinstance(game, Mapping) else {}
    players = game.get("players") if isinstance(game.get("players"), list) else []
    return {
        "table": table,
        "name": name,
        "log": log,
        "online": online,
        "reason": reason,
        "seq": view.get("seq", 0) if view else 0,
        "status": view.get("status", "no_game") if view else "no_game",
        "game": game.get("game"),
        "title": game.get("title"),
        "round": game.get("round"),
        "players": [
            {"name": str(p.get("name", "")), "colour": str(p.get("colour", ""))}
            for p in players  # type: ignore[union-attr]
            if isinstance(p, Mapping)
        ],
    }


def result_message(
    table: str,
    log: str,
    view: Mapping[str, JSON],
    result: Mapping[str, JSON],
    digest: str,
    confirmed_by: Sequence[int],
) -> dict[str, JSON]:
    """The current game's result (``GameResult.to_json``) and the seats that confirmed it."""
    game = view.get("game")
    game = game if isinstance(game, Mapping) else {}
    players = game.get("players") if isinstance(game.get("players"), list) else []
    seats = len(players)  # type: ignore[arg-type]
    return {
        "table": table,
        "log": log,
        "seq": view.get("seq"),
        "game_id": view.get("game_id"),
        "game": game.get("game"),
        "title": game.get("title"),
        "players": [str(p.get("name", "")) for p in players if isinstance(p, Mapping)],  # type: ignore[union-attr]
        "result": dict(result),
        "digest": digest,
        "confirmed_by": sorted(set(confirmed_by)),
        "confirmed": bool(result.get("final")) and seats > 0 and len(set(confirmed_by)) >= seats,
    }


# ------------------------------------------------------------------------------ hall side


@dataclass(frozen=True)
class Message:
    """A checked message: its table, leaf and payload (a JSON object)."""

    table: TableId
    leaf: Leaf
    body: dict[str, Any]
    raw: bytes = b""
    """The payload as it came (a view is relayed to browsers as the table encoded it)."""


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def decode(payload: bytes, limit: int) -> Any:
    """JSON of at most ``limit`` bytes and ``MAX_DEPTH`` levels, no NaN or infinities."""
    if len(payload) > limit:
        raise MessageError(f"the payload is {len(payload)} bytes, more than {limit}")
    try:
        body = json.loads(payload, parse_float=_finite, parse_constant=_constant)
    except RecursionError:
        raise MessageError(f"the JSON is nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, overlong integers
        raise MessageError(f"not JSON ({str(exc).splitlines()[0][:80]})") from None
    _check_depth(body)
    return body


def _check_depth(body: Any) -> None:
    pending: list[tuple[Any, int]] = [(body, 1)]
    while pending:
        value, level = pending.pop()
        if isinstance(value, (dict, list)):
            if level > MAX_DEPTH:
                raise MessageError(f"the JSON is nested deeper than {MAX_DEPTH} levels")
            pending.extend(
                (item, level + 1) for item in (value.values() if isinstance(value, dict) else value)
            )


def _field(body: Mapping[str, Any], key: str, kind: type | tuple[type, ...], optional: bool = False) -> Any:
    value = body.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise MessageError(f"'{key}' has the wrong type")
    if not isinstance(value, kind):
        raise MessageError(f"'{key}' is missing or has the wrong type")
    if isinstance(value, str) and len(value) > MAX_TEXT:
        raise MessageError(f"'{key}' is longer than {MAX_TEXT} characters")
    return value


def _seq(body: Mapping[str, Any], key: str, optional: bool = False) -> int | None:
    value = _field(body, key, int, optional)
    if value is not None and not 0 <= value < 2**62:
        raise MessageError(f"'{key}' is out of range")
    return value  # type: ignore[no-any-return]


def _texts(value: Any, key: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(t, str) and len(t) <= MAX_TEXT for t in value):
        raise MessageError(f"'{key}' must be a list of texts")
    return value


def _check_event(body: dict[str, Any]) -> None:
    _field(body, "log", str)
    _seq(body, "since")
    _seq(body, "seq")
    _seq(body, "game_id")
    _field(body, "at", (int, float))
    if _field(body, "kind", str) not in INPUT_KINDS:
        raise MessageError(f"unknown input kind {body['kind'][:40]!r}")
    _field(body, "source", str)
    _field(body, "action", dict, optional=True)
    _texts(body.get("events"), "events")
    _seq(body, "target", optional=True)
    if body["seq"] <= body["since"]:
        raise MessageError("'seq' is not above 'since'")


def _check_players(value: Any, key: str) -> None:
    if not isinstance(value, list) or len(value) > 16:
        raise MessageError(f"'{key}' must be a list of at most 16 players")
    for player in value:
        name = player.get("name") if isinstance(player, dict) else player
        if not isinstance(name, str) or len(name) > MAX_NAME:
            raise MessageError(f"'{key}' holds a player without a name of at most {MAX_NAME} characters")


def _check_status(body: dict[str, Any]) -> None:
    _field(body, "online", bool)
    for key in ("name", "log", "reason", "game", "title", "status"):
        _field(body, key, str, optional=True)
    if isinstance(body.get("name"), str) and len(body["name"]) > MAX_NAME:
        raise MessageError(f"'name' is longer than {MAX_NAME} characters")
    _seq(body, "seq", optional=True)
    if body.get("round") is not None and not isinstance(body["round"], (int, str)):
        raise MessageError("'round' has the wrong type")
    _check_players(body.get("players") or [], "players")


def _check_result(body: dict[str, Any]) -> None:
    _field(body, "log", str)
    _seq(body, "seq")
    _seq(body, "game_id")
    _field(body, "game", str)
    _field(body, "digest", str)
    _check_players(body.get("players"), "players")
    result = _field(body, "result", dict)
    _field(result, "final", bool)
    standings = result.get("standings")
    if not isinstance(standings, list) or len(standings) != len(body["players"]):
        raise MessageError("'result.standings' must hold one standing per player")
    for standing in standings:
        if not isinstance(standing, dict):
            raise MessageError("a standing is not an object")
        _seq(standing, "seat")
        _seq(standing, "rank")
        points = standing.get("points")
        if points is not None and (isinstance(points, bool) or not isinstance(points, (int, float))):
            raise MessageError("a standing's 'points' is not a number")
    confirmed = body.get("confirmed_by")
    if not isinstance(confirmed, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < len(standings) for s in confirmed
    ):
        raise MessageError("'confirmed_by' must list seats of the game")
    _field(body, "confirmed", bool)


def _check_view(body: dict[str, Any]) -> None:
    _seq(body, "seq")
    if body.get("status") not in ("no_game", "playing", "finished"):
        raise MessageError("'status' is not a view's status")
    _field(body, "game", dict, optional=True)


_CHECKS = {"events": _check_event, "status": _check_status, "result": _check_result}


def read_view(payload: bytes) -> dict[str, Any]:
    """A table's view, checked (size, JSON, depth, shape); MessageError saying why it was refused."""
    body = decode(payload, MAX_BYTES["view"])
    if not isinstance(body, dict):
        raise MessageError("the payload is not a JSON object")
    _check_view(body)
    return body


def read_message(table: TableId, leaf: Leaf, payload: bytes) -> Message:
    """The checked message of ``table`` on ``leaf``; MessageError saying why it was refused.

    A view is only measured here: it is read (``read_view``) when a page asks for it, so a hall that
    nobody watches does not parse the views of a hundred tables (each is about 20 kB, one per input).
    """
    if leaf == "view":
        if len(payload) > MAX_BYTES["view"]:
            raise MessageError(f"the payload is {len(payload)} bytes, more than {MAX_BYTES['view']}")
        return Message(table, leaf, {}, payload)
    body = decode(payload, MAX_BYTES[leaf])
    if not isinstance(body, dict):
        raise MessageError("the payload is not a JSON object")
    if leaf != "view":
        named = body.get("table")
        if named != table:
            raise MessageError(f"a message on table {table}'s topic names table {str(named)[:40]!r}")
    _CHECKS[leaf](body)
    return Message(table, leaf, body)
