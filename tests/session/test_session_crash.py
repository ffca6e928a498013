"""kill -9 at many moments: a restart resumes exactly the inputs that were committed.

A child process plays Nim through a real Session and prints each input after ``submit`` accepted
it. The test kills it with SIGKILL after a varying number of lines (sometimes before it has even
resumed), then checks the log against what the child printed and the resumed state against a
fresh replay of exactly those inputs.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from companion.engine import JSON, Setup
from companion.session import Session, replay

from .nim import Nim, find_nim

ROOT = Path(__file__).resolve().parents[2]
CHILD = "tests.session.crash_child"  # run as a module from ROOT: it imports its siblings relatively
KILLS = 30


@dataclass
class Model:
    """What the inputs the child reported should add up to, kept independently of the session."""

    setup: dict[str, JSON] | None = None
    effective: list[tuple[int, dict[str, JSON]]] = field(default_factory=list)
    redo: list[tuple[int, dict[str, JSON]]] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)

    def add(self, seq: int, kind: str, payload: dict[str, JSON], target: int | None) -> None:
        assert not self.seqs or seq > self.seqs[-1], f"seq {seq} after {self.seqs[-1]}"
        self.seqs.append(seq)
        if kind == "new_game":
            self.setup, self.effective, self.redo = payload, [], []
        elif kind == "act":
            self.effective.append((seq, payload))
            self.redo.clear()
        elif kind == "undo":
            undone = self.effective.pop()
            assert undone[0] == target
            self.redo.append(undone)
        elif kind == "redo":
            redone = self.redo.pop()
            assert redone[0] == target
            self.effective.append(redone)


def read_log(db: Path, after: int) -> list[tuple[int, str, str, int | None]]:
    """The inputs after ``after`` that commands made. A new game's ``set_aside`` of the game it replaces
    is written in the new game's transaction: it is checked to come right before it, then left out."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT seq, kind, payload, target FROM inputs WHERE seq > ? ORDER BY seq", (after,)
        ).fetchall()
    finally:
        conn.close()
    for i, row in enumerate(rows):
        if row[1] == "set_aside":
            following = rows[i + 1] if i + 1 < len(rows) else None
            assert following is not None and following[1] == "new_game", (row, following)
            assert following[0] == row[0] + 1
    return [row for row in rows if row[1] != "set_aside"]


def effective_seqs(db: Path, game_id: int) -> list[int]:
    conn = sqlite3.connect(db)
    try:
        sql = "SELECT seq FROM inputs WHERE game_id = ? AND kind = 'act' AND reverted = 0 ORDER BY seq"
        rows = conn.execute(sql, (game_id,)).fetchall()
    finally:
        conn.close()
    return [seq for (seq,) in rows]


def run_child_and_kill(db: Path, seed: int, lines_before_kill: int | None) -> list[str]:
    """Starts the child, kills it after that many accepted lines (None: while it resumes), returns them."""
    child = subprocess.Popen(
        [sys.executable, "-m", CHILD, str(db), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    lines: list[str] = []
    try:
        opening = child.stdout.readline()
        assert opening == "OPENING\n", opening + child.stderr.read()
        if lines_before_kill is not None:
            ready = child.stdout.readline()
            assert ready.startswith("READY"), ready + child.stderr.read()
            for _ in range(lines_before_kill):
                lines.append(child.stdout.readline())
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        # Read through the same file objects: readline() above may have buffered some lines already.
        out, err = child.stdout.read(), child.stderr.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == -signal.SIGKILL, err
    assert "UNEXPECTED" not in out and "Traceback" not in err, out + err
    return [line for line in "".join([*lines, out]).splitlines() if line.startswith("{")]


@pytest.mark.slow
def test_sigkill_at_many_moments_loses_nothing_accepted_and_invents_nothing(tmp_path: Path) -> None:
    db = tmp_path / "table.db"
    rng = random.Random(7)
    model = Model()
    unreported = 0
    for round_ in range(KILLS):
        # Every few rounds the child dies while it opens and replays the log.
        lines_before_kill = None if round_ % 6 == 5 else rng.choice([0, 1, 2, 5, 13, 30, 60, 150])
        known = model.seqs[-1] if model.seqs else 0
        printed = [json.loads(line) for line in run_child_and_kill(db, round_, lines_before_kill)]
        logged = read_log(db, known) if db.exists() else []

        printed_seqs = [p["seq"] for p in printed]
        logged_seqs = [row[0] for row in logged]
        # Everything the child was told was accepted is in the log, in order ...
        assert logged_seqs[: len(printed_seqs)] == printed_seqs
        # ... and at most the one input committed just before the kill went unreported.
        assert len(logged_seqs) - len(printed_seqs) in (0, 1)
        for entry in printed:
            model.add(entry["seq"], entry["kind"], entry["payload"], entry["target"])
        unreported += len(logged) - len(printed)
        for seq, kind, payload, target in logged[len(printed) :]:
            model.add(seq, kind, json.loads(payload), target)

        with Session(db, find_nim) as resumed:
            assert resumed.view()["seq"] == (model.seqs[-1] if model.seqs else 0)
            if model.setup is None:
                assert resumed.state is None
                continue
            expected = replay(Nim(), Setup.from_json(model.setup), [p for _, p in model.effective])
            assert resumed.state == expected
            game_id = resumed.view()["game_id"]
            assert effective_seqs(db, game_id) == [seq for seq, _ in model.effective]
            assert resumed.view()["can_redo"] == bool(model.redo) or resumed.view()["status"] == "finished"
    assert len(model.seqs) > 100  # the rounds did real work between the kills
    print(f"{len(model.seqs)} inputs over {KILLS} kills, {unreported} committed but not yet reported")
