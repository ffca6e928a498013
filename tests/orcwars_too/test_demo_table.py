"""The ORCWARS TOO! demo plays a whole game on the virtual device: chips on the hand and territory
readers, the chiefs' Done buttons, the e-dice (the d6 also read as the d3), secret strategies from each
chief's phone, combats included."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from companion.cli.demo import SessionTable, SimulatedTable, device_settings, dice_ids, table_section
from companion.cli.wiring import adapters
from companion.demo_player import DemoBrain
from companion.dice import Dice
from companion.games import find_bundle
from companion.session import Session
from companion.settings import Settings
from companion.table import TagRegistry, normalise_uid
from tests.integration.waiting import wait_until


def test_the_demo_plays_a_whole_game_at_the_table(tmp_path: Path) -> None:
    from firmware_bridge.virtual import VirtualTable

    rng = random.Random(0)
    bundle = find_bundle("orcwars-too")
    kit = bundle.load_demo(rng)
    assert kit is not None
    layout = kit.layout(2)
    dice = Dice.load()
    device = VirtualTable(device_settings(layout, dice, seed=3))
    port = device.start()
    db = tmp_path / "table.sqlite3"
    settings = Settings(db=db, serial_port=port, extra={"table": table_section(layout)})
    try:
        with Session(db) as session, adapters(settings, session):
            registry = TagRegistry.open(db)
            for uid, chip in kit.tags().items():
                registry.enrol(normalise_uid(uid), "orcwars-too", chip)
            registry.close()
            assert wait_until(
                session, lambda: session.view()["devices"].get("firmware", {}).get("state") == "connected", 10
            )
            hands = kit.hands(SessionTable(session, dice, dice_ids(layout)), device)
            demo = SimulatedTable(session, bundle, kit, DemoBrain(kit, rng, dice), hands, seats=2)
            demo.new_game()
            notices: set[str] = set()
            for _ in range(800):
                if session.view()["status"] == "finished":
                    break
                demo.step()
                notices |= {str(n["text"]) for n in session.view()["notices"]}
            view = session.view()
            assert view["status"] == "finished" and view["result"]["final"]
            assert " victory at the end of turn " in view["result"]["outcome"]
            acts = [e for e in session.history(limit=5000) if e["kind"] == "act"]
            by = Counter((e["source"], e["action"]["kind"]) for e in acts)  # type: ignore[index]
            for kind in ("take_bosses", "draw", "levy", "move", "roll"):
                assert by[("table", kind)], f"no {kind} read at the table: {by}"
            assert by[("firmware", "done")]  # the chiefs' buttons
            assert by[("control", "strategy")]  # chosen in secret, from the phones
            assert any(e["source"] == "table" and "Battle in" in " ".join(e["events"]) for e in acts)
            assert not [n for n in notices if "refused" in n], notices
            assert hands.physical > 3 * hands.phoned
    finally:
        device.stop()


def test_one_e_die_of_the_demo_stands_for_the_d6_and_the_d3() -> None:
    layout = find_bundle("orcwars-too").load_demo(random.Random(1)).layout(3)  # type: ignore[union-attr]
    assert table_section(layout)["dice"]["0"] == ["d6", "d3"]
    assert dice_ids(layout)["d3"] == dice_ids(layout)["d6"] == 0
    assert device_settings(layout, Dice.load()).dice[0] == (0, 6)
    readers = table_section(layout)["readers"]
    assert [r["zone"] for r in readers].count("hand") == 3 and len(readers) == 3 + 20
