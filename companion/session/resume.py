"""Restart: rebuild the current game from the event log, from the newest usable snapshot onward."""

from __future__ import annotations

import json
import logging
import pickle
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine import JSON, ActionError, Game, Setup
from companion.session.run import Applied, GameRun
from companion.session.store import EventLog, GameRow, InputRow, ReplayRow

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ResumeStats:
    """How the last start found its game (for logs and the benchmark)."""

    game_id: int | None = None
    inputs: int = 0
    """Effective actions of the current game."""
    replayed: int = 0
    """Actions applied at start (the rest came from the snapshot)."""
    snapshot_seq: int | None = None
    seconds: float = 0.0


@dataclass(frozen=True)
class Resumed:
    run: GameRun | None
    seq: int
    last_change: dict[str, JSON] | None
    stats: ResumeStats
    problems: tuple[str, ...] = ()


def effective_inputs(rows: list[ReplayRow]) -> tuple[list[Applied], list[Applied]]:
    """The actions that make the position (not reverted), and the redo stack, from a game's inputs.

    ``rows`` are ``EventLog.replay_rows``: (seq, kind, payload, events, reverted, target).
    """
    applied: list[Applied] = []
    by_seq: dict[int, Applied] = {}
    redo: list[Applied] = []
    for seq, kind, payload, events, reverted, target in rows:
        if kind == "act":
            item = Applied(seq, payload, events)
            by_seq[seq] = item
            if not reverted:
                applied.append(item)
            if redo:
                redo.clear()  # a new action ends what could be redone
        elif kind == "undo" and target in by_seq:
            redo.append(by_seq[target])
        elif kind == "redo" and redo and redo[-1].seq == target:
            redo.pop()
    return applied, redo


def change_of(row: InputRow | None) -> dict[str, JSON] | None:
    if row is None:
        return None
    return {"seq": row.seq, "source": row.source, "kind": row.kind, "events": json.loads(row.events)}


def _snapshot(log: EventLog, game: Game, game_id: int, applied: list[Applied]) -> tuple[int, Any, int | None]:
    """(count of actions it covers, state, its seq); (0, None, None) when no snapshot is usable."""
    index = {item.seq: i for i, item in enumerate(applied)}
    for seq, blob in log.snapshots(game_id, game.rules_version):
        if seq not in index:
            continue  # covers an undone action (should have been dropped with the undo)
        try:
            return index[seq] + 1, pickle.loads(blob), seq
        except Exception as exc:
            logger.warning(
                "snapshot of game %s at #%s cannot be read (%s); trying an older one",
                game_id,
                seq,
                _reason(exc),
            )
    return 0, None, None


def _reason(exc: BaseException) -> str:
    """An exception as the words of a notice: its message, or its type when it has none."""
    return str(exc) or type(exc).__name__


def resume(log: EventLog, find_game: Callable[[str], Game], snapshot_every: int) -> Resumed:
    """The current game (the one of the latest input) rebuilt from the log, at start."""
    started = time.perf_counter()
    last = log.last_input()
    seq = last.seq if last else 0
    row = log.current_game()
    if row is None:
        return Resumed(None, seq, change_of(last), ResumeStats())
    try:
        run, stats, problems = rebuild(log, find_game, row, snapshot_every, started)
    except UnresumableGame as exc:
        return Resumed(None, seq, change_of(last), ResumeStats(game_id=row.id), (str(exc),))
    return Resumed(run, seq, change_of(last), stats, problems)


class UnresumableGame(Exception):
    """A game this program cannot play: unknown to it (a newer log, a bundle not installed) or a
    setup its rules refuse now. The message is the players' sentence."""


def rebuild(
    log: EventLog,
    find_game: Callable[[str], Game],
    row: GameRow,
    snapshot_every: int,
    started: float | None = None,
) -> tuple[GameRun, ResumeStats, tuple[str, ...]]:
    """Game ``row`` rebuilt from its inputs (from its newest usable snapshot), with how, and the
    problems met (an input the rules no longer accept: the position stops before it). Raises
    UnresumableGame."""
    started = time.perf_counter() if started is None else started
    try:
        game = find_game(row.game)
        setup = Setup.from_json(json.loads(row.setup))
        initial = game.new_game(setup)
    except Exception as exc:
        # A game this program does not know (a newer log, a bundle not installed) or a setup its rules
        # refuse now: a notice and one warning. Anything else is a bug: its traceback goes with it.
        problem = f"game #{row.id} ({row.game}) cannot be resumed: {_reason(exc)}"
        logger.warning("%s", problem, exc_info=not isinstance(exc, ValueError))
        raise UnresumableGame(problem) from exc
    if game.rules_version != row.rules_version:
        logger.warning(
            "game %s started under rules %s, resuming under %s", row.id, row.rules_version, game.rules_version
        )
    run = GameRun(game, row.id, setup, initial, snapshot_every, ended=row.ended is not None)
    applied, redo = effective_inputs(log.replay_rows(row.id))
    count, state, snapshot_seq = _snapshot(log, game, row.id, applied)
    problems: list[str] = []
    try:
        run.adopt(applied, redo, count, initial if state is None else state)
    except Exception as exc:
        # The rules changed under a stored input: keep the position up to it and say so.
        # The engine's refusal is its own explanation; any other error is a bug, logged with its traceback.
        bad = applied[len(run.applied)]
        rules = game.rules_version
        problems.append(f"input #{bad.seq} no longer applies under rules {rules}: {_reason(exc)}")
        logger.warning("game %s: %s", row.id, problems[-1], exc_info=not isinstance(exc, ActionError))
        run.redo.clear()
    stats = ResumeStats(
        game_id=row.id,
        inputs=len(run.applied),
        replayed=len(run.applied) - count,
        snapshot_seq=snapshot_seq,
        seconds=time.perf_counter() - started,
    )
    return run, stats, tuple(problems)
