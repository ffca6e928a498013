"""``companion demo`` refuses what it cannot play with one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


@pytest.mark.parametrize(
    ("game", "players", "expected"),
    [
        ("heroscape", "1", "HeroScape: Swarm of the Marro is played by 2 to 4 players"),
        ("chaos-marauders", "5", "Chaos Marauders is played by 2 to 4 players"),
        ("orcwars-too", "7", "ORCWARS TOO! is played by 2 to 6 players"),
    ],
)
def test_a_player_count_the_game_cannot_seat_is_one_line(
    game: str, players: str, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--game", game, "--players", players, "--no-device"]) == 2
    assert capsys.readouterr().err == f"companion demo: {expected}\n"


def test_a_damaged_event_log_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "damaged.sqlite3"
    db.write_bytes(bytes(range(256)) * 32)
    assert main(["demo", "--db", str(db), "--port", "0", "--no-device"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("companion demo: ") and "damaged" in err
    assert err.count("\n") == 1
