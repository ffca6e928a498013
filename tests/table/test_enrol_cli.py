"""``companion enrol``: offline enrolment into the table's SQLite file."""

from __future__ import annotations

import io
import json
from pathlib import Path

from companion.cli import main
from companion.cli.enrol import enrol_deck
from companion.observations import TagUid
from companion.table import TagRegistry
from companion.table.mappers import find_mapper


def test_enrol_one_tag_by_title_then_list_and_forget(tmp_path: Path, capsys):
    db = str(tmp_path / "table.sqlite3")
    assert main(["enrol", "--db", db, "--uid", "04:a1:b2:c3", "--card", "bozlum pigstickers"]) == 0
    assert "04A1B2C3 is Bozlum Pigstickers (chaos-marauders)" in capsys.readouterr().out
    assert main(["enrol", "--db", db, "--list", "--json"]) == 0
    [tag] = json.loads(capsys.readouterr().out)
    assert (tag["uid"], tag["card_id"]) == ("04A1B2C3", "bozlum-pigstickers")
    assert main(["enrol", "--db", db, "--forget", "04A1B2C3"]) == 0
    assert main(["enrol", "--db", db, "--forget", "04A1B2C3"]) == 1


def test_enrol_refuses_unknown_cards_and_bad_uids(tmp_path: Path, capsys):
    db = str(tmp_path / "table.sqlite3")
    assert main(["enrol", "--db", db, "--uid", "04A1", "--card", "Dragon"]) == 2
    assert "chaos-marauders has no card 'Dragon'" in capsys.readouterr().err
    assert main(["enrol", "--db", db, "--uid", "zz", "--card", "Idol"]) == 2
    assert main(["enrol", "--db", db, "--uid", "04A1"]) == 2


def test_walking_the_deck_enrols_each_tapped_tag_for_the_named_card(tmp_path: Path):
    registry = TagRegistry.open(tmp_path / "table.sqlite3")
    mapper = find_mapper("chaos-marauders")
    typed = io.StringIO("04000001\n04000002\n\nnot-a-uid\n04000003\n\nq\n")
    out = io.StringIO()
    assert enrol_deck(registry, "chaos-marauders", mapper, typed, out) == 3
    cards = [mapper.card_ids()[0]] * 2 + [mapper.card_ids()[1]]
    assert [registry.lookup(TagUid(f"0400000{i}")).card_id for i in (1, 2, 3)] == cards
    assert "ignored" in out.getvalue() and "stopped: 3 tags enrolled" in out.getvalue()
    registry.close()


def test_walking_the_deck_can_start_at_a_card(tmp_path: Path):
    registry = TagRegistry.open(tmp_path / "table.sqlite3")
    mapper = find_mapper("chaos-marauders")
    out = io.StringIO()
    enrol_deck(registry, "chaos-marauders", mapper, io.StringIO("04000009\n"), out, start="idol")
    assert registry.lookup(TagUid("04000009")).card_id == "idol"
    assert out.getvalue().startswith("Idol (0 enrolled)")
    registry.close()
