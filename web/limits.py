"""What one request may carry: a body size, a JSON nesting depth, text lengths (docs/api.md, Limits).

A table's requests are small (a command is a few hundred bytes), so each limit is far above real use
and far below what could hurt a Pi. Every limit is an app setting (``web.DEFAULTS``); a request past
one is refused with a one-line reason before anything reads it further: 413 for a body too large,
400 for the rest.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from flask import Flask, current_app, request
from werkzeug.exceptions import BadRequest, RequestEntityTooLarge

from web.errors import error_response


def init_app(app: Flask) -> None:
    app.register_error_handler(RequestEntityTooLarge, _too_large)


def _too_large(exc: RequestEntityTooLarge) -> Any:
    limit = int(current_app.config["MAX_CONTENT_LENGTH"])
    return error_response(413, "request_entity_too_large", f"the request body is larger than {limit} bytes")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999 parses as infinity, which JSON cannot carry back out
        raise ValueError(f"{text} is too large a number")
    return value


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_json() -> Any:
    """The request's JSON body, parsed and checked against the limits; BadRequest or
    RequestEntityTooLarge saying why it was refused."""
    if not request.is_json:
        raise BadRequest("send JSON with Content-Type: application/json")
    raw = request.get_data(cache=True)  # RequestEntityTooLarge past MAX_CONTENT_LENGTH
    depth = int(current_app.config["JSON_MAX_DEPTH"])
    try:
        body = json.loads(raw, parse_float=_finite, parse_constant=_refuse_constant)
    except RecursionError:  # the parser recurses per level: a deep body must not become a 500
        raise BadRequest(f"the JSON is nested deeper than {depth} levels") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, NaN, overlong integers
        raise BadRequest(f"the body is not valid JSON ({str(exc).splitlines()[0]})") from None
    check_shape(body, depth, int(current_app.config["TEXT_MAX_CHARS"]))
    return body


def check_shape(body: Any, max_depth: int, max_text: int) -> None:
    """BadRequest when ``body`` nests deeper than ``max_depth`` or holds a string (or key) longer than
    ``max_text`` characters. Iterative: the check itself must not recurse on a hostile body."""
    pending: list[tuple[Any, int, str]] = [(body, 1, "the body")]
    while pending:
        value, level, where = pending.pop()
        if isinstance(value, str):
            if len(value) > max_text:
                raise BadRequest(f"{where} is longer than {max_text} characters")
            continue
        if not isinstance(value, (dict, list)):
            continue
        if level > max_depth:
            raise BadRequest(f"the JSON is nested deeper than {max_depth} levels")
        if isinstance(value, dict):
            for key, item in value.items():
                if len(key) > max_text:
                    raise BadRequest(f"a key in {where} is longer than {max_text} characters")
                pending.append((item, level + 1, repr(key)))
        else:
            pending.extend((item, level + 1, f"an item of {where}") for item in value)


def check_player_names(payload: Mapping[str, Any]) -> None:
    """A new game's player names fit ``NAME_MAX_CHARS`` (the TV shows them large, across the room)."""
    limit = int(current_app.config["NAME_MAX_CHARS"])
    players = payload.get("players")
    if not isinstance(players, list):
        return  # the session says what a setup needs
    for seat, player in enumerate(players, start=1):
        name = player.get("name") if isinstance(player, Mapping) else None
        if isinstance(name, str) and len(name.strip()) > limit:
            raise BadRequest(f"player {seat}'s name is longer than {limit} characters")
