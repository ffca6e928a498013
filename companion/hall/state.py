"""The hall's live picture of its tables, fed by checked messages (one reader thread) and read by the
hall page (any thread): a tile per table, its latest view for the read-only TV, its recent events.

Every message has passed ``messages.read_message``; here it only changes the picture. Tables the hall
was not told about are refused when a list of tables is given (the broker's ACL refuses them too), and
at most ``MAX_TABLES`` are kept so a flood of made-up ids cannot grow the hall without bound.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.engine import JSON
from companion.hall.dedup import Deduplicator
from companion.hall.messages import Message, MessageError, read_view
from companion.hall.topics import TableId

MAX_TABLES = 500
RECENT = 12
"""Events kept per table for its tile and its TV's ticker."""


@dataclass
class TableState:
    table: TableId
    name: str = ""
    online: bool = False
    reason: str = ""
    log: str = ""
    status: dict[str, Any] = field(default_factory=dict)
    view_raw: bytes | None = None
    """The latest view as the table published it, read only when a page asks (``view``)."""
    _view: dict[str, Any] | None = None
    _view_json: str | None = None
    _view_of: bytes | None = None
    on_refused: Callable[[str], None] | None = None

    def _read_view(self) -> None:
        if self._view_of is self.view_raw:
            return
        self._view_of = self.view_raw
        self._view = self._view_json = None
        if self.view_raw is None:
            return
        try:
            self._view = read_view(self.view_raw)
            self._view_json = self.view_raw.decode()
        except MessageError as exc:
            if self.on_refused is not None:
                self.on_refused(f"table {self.table} view: {exc}")

    @property
    def view(self) -> dict[str, Any] | None:
        self._read_view()
        return self._view

    @property
    def view_json(self) -> str | None:
        self._read_view()
        return self._view_json

    result: dict[str, Any] | None = None
    seq: int = 0
    """The highest seq of an event the hall took from this table."""
    last_event_at: float | None = None
    """The hall's wall time when the latest new event arrived."""
    recent: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=RECENT))
    missing: tuple[int, int] | None = None

    def tile(self) -> dict[str, JSON]:
        game = (self.view or {}).get("game") or {}
        players = game.get("players") if isinstance(game.get("players"), list) else None
        if players is None:
            players = self.status.get("players") or []
        return {
            "table": self.table,
            "name": self.name or self.table,
            "online": self.online,
            "reason": self.reason,
            "status": (self.view or {}).get("status") or self.status.get("status") or "no_game",
            "game": game.get("game") or self.status.get("game"),
            "title": game.get("title") or self.status.get("title"),
            "round": game.get("round", self.status.get("round")),
            "players": [
                {"name": str(p.get("name", ""))[:64], "colour": str(p.get("colour", ""))[:16]}
                for p in players
                if isinstance(p, Mapping)
            ],
            "leader": self._leader(players),
            "seq": self.seq,
            "last_event_at": self.last_event_at,
            "result": self._result_summary(),
            "missing": list(self.missing) if self.missing else None,
        }

    def _leader(self, players: list[Any]) -> dict[str, JSON] | None:
        """Who leads: rank 1 of the table's result (final, or "if the game ended now"), else the
        highest score total in its view."""
        result = (self.result or {}).get("result")
        game_id = (self.view or {}).get("game_id")
        if result and (self.result or {}).get("game_id") == game_id:
            names = (self.result or {}).get("players") or []
            firsts = [s for s in result.get("standings") or () if s.get("rank") == 1]
            if firsts and len(firsts) < len(names):  # everyone first (nothing scored yet) leads nobody
                who = [names[s["seat"]] for s in firsts if s["seat"] < len(names)]
                return {
                    "name": " & ".join(who),
                    "points": firsts[0].get("points"),
                    "label": result.get("points_label"),
                }
        best: tuple[float, str] | None = None
        for player in players:
            score = player.get("score") if isinstance(player, Mapping) else None
            total = score.get("total") if isinstance(score, Mapping) else score
            if isinstance(total, (int, float)) and not isinstance(total, bool):
                if best is None or total > best[0]:
                    best = (float(total), str(player.get("name", "")))
        return None if best is None or best[0] == 0 else {"name": best[1], "points": best[0], "label": None}

    def _result_summary(self) -> dict[str, JSON] | None:
        body = self.result
        if not body or body.get("game_id") != (self.view or {}).get("game_id", body.get("game_id")):
            return None
        result = body["result"]
        return {
            "game_id": body["game_id"],
            "final": bool(result.get("final")),
            "outcome": str(result.get("outcome", ""))[:200],
            "confirmed": bool(body.get("confirmed")),
            "confirmed_by": list(body.get("confirmed_by") or ()),
            "seats": len(body.get("players") or ()),
        }


class HallState:
    """Every table's tile, view and recent events. ``apply`` is called by one reader thread."""

    def __init__(
        self,
        tables: Iterable[str] | None = None,
        clock: Callable[[], float] = time.time,
        on_result: Callable[[TableId, dict[str, Any]], None] | None = None,
    ) -> None:
        self.allowed = None if tables is None else frozenset(tables)
        self._clock = clock
        self._on_result = on_result
        self._tables: dict[TableId, TableState] = {}
        self._dedup = Deduplicator()
        self._changed = threading.Condition()
        self.version = 0
        self.refused = 0
        self.duplicates = 0
        self.problems: deque[str] = deque(maxlen=20)
        """The latest refusals, one sentence each, for the hall page's diagnostics."""
        self.event_listeners: list[Callable[[TableId, dict[str, Any]], None]] = []
        """Called (on the reader thread) with every new event after it is taken: the benchmark."""

    # -- writing (the reader thread) -----------------------------------------------------------

    def _refused_view(self, reason: str) -> None:
        self.refused += 1
        self.problems.append(reason)

    def refuse(self, reason: str) -> None:
        with self._changed:
            self.refused += 1
            self.problems.append(reason)

    def apply(self, message: Message) -> bool:
        """Takes a checked message; False when it changed nothing (a duplicate, an unknown table)."""
        table = message.table
        if self.allowed is not None and table not in self.allowed:
            self.refuse(f"a message from table {table}, which is not one of this hall's tables")
            return False
        with self._changed:
            state = self._tables.get(table)
            if state is None:
                if len(self._tables) >= MAX_TABLES:
                    self.refused += 1
                    self.problems.append(
                        f"table {table} refused: the hall already follows {MAX_TABLES} tables"
                    )
                    return False
                state = self._tables[table] = TableState(table)
            if message.leaf == "view":
                state.view_raw = message.raw
                state.on_refused = self._refused_view
                changed = True
            else:
                changed = getattr(self, f"_{message.leaf}")(state, message.body)
            if changed:
                self.version += 1
                self._changed.notify_all()
        if changed and message.leaf == "events":
            for listener in self.event_listeners:
                listener(table, message.body)
        if changed and message.leaf == "result" and self._on_result is not None:
            self._on_result(table, message.body)
        return bool(changed)

    def _events(self, state: TableState, body: dict[str, Any]) -> bool:
        if not self._dedup.first_time(state.table, body["log"], body["since"], body["seq"]):
            self.duplicates += 1
            return False
        state.log = body["log"]
        state.seq = max(state.seq, body["seq"])
        state.last_event_at = self._clock()
        state.missing = self._dedup.missing(state.table)
        state.recent.appendleft(
            {
                "seq": body["seq"],
                "game_id": body["game_id"],
                "at": body["at"],
                "kind": body["kind"],
                "source": body["source"],
                "action": body.get("action"),
                "events": body["events"],
                "reverted": False,
                "target": body.get("target"),
            }
        )
        return True

    def _status(self, state: TableState, body: dict[str, Any]) -> bool:
        state.status = body
        state.online = bool(body["online"])
        state.reason = str(body.get("reason") or "")
        state.name = str(body.get("name") or state.name)[:64]
        return True

    def _result(self, state: TableState, body: dict[str, Any]) -> bool:
        state.result = body
        return True

    # -- reading (any thread) -------------------------------------------------------------------

    def tiles(self) -> list[dict[str, JSON]]:
        with self._changed:
            return [self._tables[t].tile() for t in sorted(self._tables)]

    def table(self, table: str) -> TableState | None:
        return self._tables.get(TableId(table))

    def view_json(self, table: str) -> str | None:
        with self._changed:
            state = self._tables.get(TableId(table))
            return None if state is None else state.view_json

    def recent(self, table: str, limit: int = RECENT, game_id: int | None = None) -> list[dict[str, Any]]:
        """The table's ``limit`` latest events, in log order (of game ``game_id`` only, when given)."""
        with self._changed:
            state = self._tables.get(TableId(table))
            if state is None:
                return []
            items = [e for e in state.recent if game_id is None or e["game_id"] == game_id]
            return list(reversed(items[:limit]))

    def tiles_name(self, table: str) -> str:
        state = self._tables.get(TableId(table))
        return table if state is None else (state.name or table)

    def table_ids(self) -> list[str]:
        with self._changed:
            return sorted(self._tables)

    def wait(self, version: int, timeout: float) -> int:
        """The version once it is above ``version`` (or after ``timeout``)."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout)
            return self.version

    def touch(self) -> None:
        """Wakes the readers (the event changed: standings to redraw)."""
        with self._changed:
            self.version += 1
            self._changed.notify_all()
