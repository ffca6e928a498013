"""Games set aside and taken back: a new game (or a resume) never closes the game it replaces before
its end, so one mis-tap on "Start new game" loses nothing.

The replaced game gets a ``set_aside`` input (saying whether its rules had ended it, and then its final
result) and its ``ended`` time; ``take_back`` rebuilds it from the log for the ``resume`` command. A
game closed with End game stays closed: its secrets are shown, so it is never played on.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from companion.engine import JSON, Event, Game
from companion.session.contract import OutcomeError
from companion.session.resume import UnresumableGame, rebuild
from companion.session.run import GameRun, encode_events
from companion.session.store import EventLog

GAME_ID_MAX = 2**62
"""Game ids are SQLite rowids from 1; a larger number is no game (and SQLite's integers stop at 2^63)."""


class NotResumable(Exception):
    """The resume is refused; ``error`` is the Outcome's error, ``reason`` the players' sentence."""

    def __init__(self, error: OutcomeError, reason: str) -> None:
        super().__init__(reason)
        self.error: OutcomeError = error
        self.reason = reason


def take_back(
    log: EventLog,
    find_game: Callable[[str], Game],
    game_id: object,
    current: GameRun | None,
    snapshot_every: int,
) -> tuple[GameRun, tuple[str, ...]]:
    """Game ``game_id`` rebuilt where it was set aside, with the problems met rebuilding it (an input
    the rules no longer accept). Raises NotResumable: not a game of the log, the game at the table,
    closed with End game, or over."""
    if isinstance(game_id, bool) or not isinstance(game_id, int) or not 1 <= game_id <= GAME_ID_MAX:
        raise NotResumable("malformed", 'resume needs {"game_id": N}, a game of the log (GET /api/games)')
    row = log.game(game_id)
    if row is None:
        raise NotResumable("malformed", f"there is no game #{game_id} in the event log")
    if current is not None and current.game_id == game_id:
        raise NotResumable("illegal", f"game #{game_id} is the game at the table already")
    marker = log.last_marker(game_id)
    if marker is None or marker[0] != "set_aside":
        closed = marker is not None and marker[0] == "end_game"
        why = "was closed with End game" if closed else "was ended before games could be resumed"
        raise NotResumable("illegal", f"game #{game_id} {why}: it can be read and exported, not resumed")
    try:
        run, _, problems = rebuild(log, find_game, row, snapshot_every)
    except UnresumableGame as exc:
        raise NotResumable("setup", str(exc)) from exc
    if run.game.is_over(run.state):
        raise NotResumable("illegal", f"game #{game_id} is over: it can be read and exported, not resumed")
    run.ended = False
    return run, problems


def resumed_event(run: GameRun) -> Event:
    names = ", ".join(p.name for p in run.setup.players)
    text = f"Game #{run.game_id} of {run.game.title} resumed: {names}"
    return Event("GameResumed", text, {"game_id": run.game_id})


def set_aside(log: EventLog, run: GameRun, source: str, now: float, by: int) -> None:
    """Inside the transaction of the game that takes the table (``by``): records that ``run`` stops
    being played before it was closed. A game its rules had not ended stays resumable and keeps its
    secrets; its ``ended`` time says when it was set aside."""
    finished = run.game.is_over(run.state)
    text = f"Game #{run.game_id} set aside for game #{by}"
    if not finished:
        text += ": resume it from Past games on the control page"
    payload: dict[str, JSON] = {"finished": finished, "by": by}
    if finished:
        # Its final result, as the view published it: the phones may still confirm it for a hall
        # once the next game is at the table (companion.hall.confirm, web/results.py).
        try:
            payload["result"] = run.game.result(run.state).to_json()
        except NotImplementedError:
            pass
    log.add_input(
        game_id=run.game_id,
        at=now,
        source=source,
        kind="set_aside",
        payload=json.dumps(payload, separators=(",", ":")),
        observation=None,
        rules_version=run.game.rules_version,
        events=encode_events((Event("GameSetAside", text, {"by": by, "finished": finished}),)),
    )
    log.end_game(run.game_id, now)
