"""The owner's data files (settings ``[data]``) reach the engines the table plays, not only the CLI.

DESIGN.md, Data packs: values the rules texts lack are editable by the owner of the physical game and
live in the table's own data, never in the package.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine import SetupError, data_digest
from companion.games import find_game, game_finder
from companion.games.chaos_marauders.engine import ChaosMarauders
from companion.games.chaos_marauders.simulate import setup_for
from companion.games.heroscape.engine import HeroScape
from companion.session import Command, Session
from companion.settings import SettingsError, settings_from_mapping

CM_OVERRIDES = """
[[cards]]
id = "bozlum-pigstickers"
attack = 4
provenance.attack = "public data: the card in the owner's box reads Attack 4"
"""

HS_OVERRIDES = """
[[cards]]
id = "raelin"
points = 125
provenance.points = "public data: the card in the owner's box reads 125 points"
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_chaos_marauders_plays_with_the_owners_attack_rating(tmp_path: Path) -> None:
    path = write(tmp_path, "cards.toml", CM_OVERRIDES)
    engine = find_game("chaos-marauders", path)
    assert isinstance(engine, ChaosMarauders)
    assert engine.facts.catalog.card("bozlum-pigstickers").attack == 4
    assert ChaosMarauders().facts.catalog.card("bozlum-pigstickers").attack == 3
    assert engine.rules_version == f"{ChaosMarauders().rules_version}+owner-{data_digest(path.read_bytes())}"


def test_heroscape_plays_with_the_owners_points(tmp_path: Path) -> None:
    path = write(tmp_path, "army.toml", HS_OVERRIDES)
    engine = find_game("heroscape", path)
    assert isinstance(engine, HeroScape)
    assert engine.catalog.card("raelin").points == 125
    assert engine.rules_version.startswith(HeroScape().rules_version + "+owner-")


@pytest.mark.parametrize("game", ["chaos-marauders", "heroscape"])
@pytest.mark.parametrize(
    "text",
    [
        "not toml [",
        '[[cards]]\nid = "no-such-card"\n',
        '[[cards]]\nid = "raelin"\nid2 = 1\n',
    ],
)
def test_an_unusable_data_file_is_one_sentence(tmp_path: Path, game: str, text: str) -> None:
    path = write(tmp_path, "bad.toml", text)
    with pytest.raises(SetupError) as refused:
        find_game(game, path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_session_records_and_resumes_under_the_owners_data(tmp_path: Path) -> None:
    """The game row names the data, and a restart rebuilds the same engine from the settings."""
    data = {"chaos-marauders": write(tmp_path, "cards.toml", CM_OVERRIDES)}
    db = tmp_path / "log.sqlite3"
    session = Session(db, game_finder(data))
    session.start()
    try:
        assert session.submit(Command("new_game", "test", setup_for(2).to_json())).accepted
        (game,) = session.games()
        assert "+owner-" in game["rules_version"]
    finally:
        session.stop()
    resumed = Session(db, game_finder(data))
    resumed.start()
    try:
        assert resumed.view()["status"] == "playing"
        engine = resumed.position().game
        assert isinstance(engine, ChaosMarauders)
        assert engine.facts.catalog.card("bozlum-pigstickers").attack == 4
    finally:
        resumed.stop()


def test_the_settings_data_section_names_installed_games_and_usable_files(tmp_path: Path) -> None:
    path = write(tmp_path, "army.toml", HS_OVERRIDES)
    settings = settings_from_mapping({"data": {"heroscape": str(path)}}).checked_game()
    assert settings.game_data == {"heroscape": path}
    with pytest.raises(SettingsError, match="unknown game 'orcwars'"):
        settings_from_mapping({"data": {"orcwars": str(path)}}).checked_game()
    with pytest.raises(SettingsError, match=r"bad\.toml"):
        settings_from_mapping({"data": {"heroscape": str(write(tmp_path, "bad.toml", "x ["))}}).checked_game()
    with pytest.raises(SettingsError, match="setting 'data'"):
        settings_from_mapping({"data": {"heroscape": 3}})
