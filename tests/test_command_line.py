"""The command line refuses what it cannot honour, with one line, and says where the table's data is."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.datadir import data_dir
from companion.settings import Settings, SettingsError, settings_from_mapping


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["serve", "--port", "99999"], "99999 is not a port"),
        (["serve", "--port", "-1"], "-1 is not a port"),
        (["serve", "--log-level", "LOUD"], "'LOUD': use one of DEBUG, INFO, WARNING, ERROR"),
        (["demo", "--port", "65536"], "65536 is not a port"),
        (["hall", "--port", "99999"], "99999 is not a port"),
        (["hall", "--log-level", "LOUD"], "'LOUD': use one of DEBUG, INFO, WARNING, ERROR"),
    ],
)
def test_bad_flags_are_refused_by_name(argv: list[str], said: str, capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize("game", ["chaos-marauders", "heroscape", "orcwars-too", "shattered-chaos"])
@pytest.mark.parametrize("flags", [["--games", "-3"], ["--games", "0"], ["--cap", "0"]])
def test_simulate_refuses_a_count_below_one(
    game: str, flags: list[str], capsys: pytest.CaptureFixture
) -> None:
    assert main(["simulate", game, *flags]) == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_a_port_that_is_not_there_is_named_as_such(capsys: pytest.CaptureFixture) -> None:
    assert main(["devices", "--port", "/dev/ttyNOPE", "--timeout", "3"]) == 1
    assert capsys.readouterr().out.strip() == "cannot open /dev/ttyNOPE: /dev/ttyNOPE does not exist"


def test_a_db_in_a_folder_that_does_not_exist_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    db = tmp_path / "nonexistent" / "dir" / "x.sqlite3"
    assert main(["serve", "--db", str(db), "--port", "0", "--host", "127.0.0.1"]) == 1
    assert f"the folder {db.parent} does not exist" in capsys.readouterr().err
    assert not db.parent.exists()  # nothing was made in its place


def test_the_data_folder_is_one_per_user_or_per_system(tmp_path: Path) -> None:
    assert data_dir({"HOME": "/home/ann"}, euid=1000) == Path("/home/ann/.local/share/table-companion")
    assert data_dir({"HOME": "/home/ann", "XDG_DATA_HOME": "/data"}, euid=1000) == Path(
        "/data/table-companion"
    )
    assert data_dir({"HOME": "/root"}, euid=0) == Path("/var/lib/table-companion")
    service = {"STATE_DIRECTORY": "/var/lib/table-companion:/var/lib/other", "HOME": "/"}
    assert data_dir(service, euid=998) == Path("/var/lib/table-companion")


def test_the_default_event_log_does_not_depend_on_the_folder_started_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setattr("os.geteuid", lambda: 1000)  # a user, whoever runs the tests
    monkeypatch.chdir(tmp_path)
    assert Settings().db == tmp_path / "data" / "table-companion" / "table.sqlite3"
    monkeypatch.setattr("os.geteuid", lambda: 0)
    assert Settings().db == Path("/var/lib/table-companion/table.sqlite3")


def test_a_settings_file_with_a_port_out_of_range_is_refused() -> None:
    with pytest.raises(SettingsError, match="'port' must be 0 to 65535"):
        settings_from_mapping({"port": 99999})
    with pytest.raises(SettingsError, match="log_level"):
        settings_from_mapping({"log_level": "LOUD"})


def test_help_says_what_the_companion_is_and_each_games_flags(capsys: pytest.CaptureFixture) -> None:
    top = build_parser().format_help()
    assert "Table Companion" in top and "companion demo" in top
    assert "``" not in top and "wires" not in top  # no developer's docstring
    with pytest.raises(SystemExit):
        main(["odds", "--help"])
    out = capsys.readouterr().out
    assert "companion odds heroscape" in out and "--attack" in out and "--defense" in out
