"""Plays Nim through a Session until killed, printing each accepted input once ``submit`` returns.

Run by test_session_crash.py from the repository root: ``python -m tests.session.crash_child DB SEED``.
Choices come from a random generator seeded by SEED and the seq it resumed at; a restarted child
carries on from wherever it was killed.
Lines: ``OPENING`` before it opens the log, ``READY <seq>`` after resuming, then one JSON object per
accepted input.
"""

from __future__ import annotations

import json
import random
import sys

from companion.session import Command, Outcome, Session

from .nim import Nim, find_nim, setup_json


def choose(session: Session, rng: random.Random) -> Command:
    view = session.view()
    state = session.state
    if view["status"] != "playing" or rng.random() < 0.01:
        piles = [rng.randint(3, 40) for _ in range(rng.randint(1, 3))]
        return Command("new_game", "script", setup_json(piles))
    roll = rng.random()
    if roll < 0.12:
        return Command("undo", "script")
    if roll < 0.20:
        return Command("redo", "script")
    if roll < 0.25:  # out of turn: rejected, never logged
        wrong = (state.turn + 1) % len(state.names)
        return Command("act", "script", {"kind": "take", "player": wrong, "pile": 0, "count": 1})
    if roll < 0.27:
        return Command("act", "script", {"kind": "take", "player": state.turn})
    if roll < 0.28:
        return Command("end_game", "script")
    action = rng.choice(list(Nim().legal_actions(state)))
    return Command("act", "script", Nim().format_action(action))


def report(command: Command, outcome: Outcome) -> str:
    target = outcome.events[0].data.get("seq") if command.kind in ("undo", "redo") else None
    line = {"seq": outcome.seq, "kind": command.kind, "payload": dict(command.payload), "target": target}
    return json.dumps(line)


def main(db: str, seed: str) -> None:
    session = Session(db, find_nim, snapshot_every=7)
    print("OPENING", flush=True)
    session.start()
    print(f"READY {session.view()['seq']}", flush=True)
    rng = random.Random(f"{seed}-{session.view()['seq']}")
    while True:
        command = choose(session, rng)
        outcome = session.submit(command, timeout=30)
        if outcome.accepted:
            print(report(command, outcome), flush=True)
        elif outcome.error not in ("illegal", "malformed", "nothing_to_undo", "nothing_to_redo"):
            print(f"UNEXPECTED {outcome}", flush=True)
            sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
