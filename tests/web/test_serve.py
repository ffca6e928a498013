"""The entry point's side of the web: settings, the threaded server, the demo table, the latency bench."""

from __future__ import annotations

import argparse
import json
import random
import urllib.request
from collections import Counter
from pathlib import Path

import pytest

from companion.bundle import LivePosition
from companion.cli import bench_latency, demo, serve
from companion.demo_player import DemoBrain
from companion.engine import Player, Roll, Setup
from companion.games import find_bundle, find_game
from companion.games.chaos_marauders.demo import ChaosMaraudersDemo, DemoDeck, pile_counts
from companion.session import Session
from companion.settings import Settings, SettingsError, load_settings, settings_from_mapping
from web import create_app
from web.stream import streams_of

from .web_support import PIN


def test_settings_from_a_toml_file_then_flags(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(
        'host = "127.0.0.1"\nport = 9000\npin = 4711\ndb = "x.sqlite3"\n'
        '[[players]]\nname = "Grotsnik"\ncolour = "#e23b3b"\n[hardware]\nreaders = 3\n'
    )
    settings = load_settings(path, port=9100, db=None)
    assert settings.host == "127.0.0.1"
    assert settings.port == 9100  # the flag wins
    assert settings.pin == "4711"
    assert settings.db == Path("x.sqlite3")
    assert settings.players == (Player("Grotsnik", "#e23b3b"),)
    assert settings.extra == {"hardware": {"readers": 3}}


def test_the_stream_limit_is_a_setting_the_web_app_and_its_server_pool_read():
    settings = settings_from_mapping({"sse_max_streams": 40})
    assert settings.web_config()["SSE_MAX_STREAMS"] == 40
    assert Settings().web_config()["SSE_MAX_STREAMS"] == 24


@pytest.mark.parametrize(
    "data",
    [
        {"port": "80"},
        {"colour": "red"},
        {"players": [{"colour": "#fff"}]},
        {"port": True},
        {"sse_max_streams": 0},
        {"sse_max_streams": "many"},
    ],
)
def test_bad_settings_name_the_key(data):
    with pytest.raises(SettingsError):
        settings_from_mapping(data)


def test_a_missing_or_broken_settings_file_is_a_settings_error(tmp_path):
    with pytest.raises(SettingsError, match="cannot read"):
        load_settings(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("port = = 1")
    with pytest.raises(SettingsError):
        load_settings(broken)


def test_the_web_config_names_the_trust_file_beside_the_event_log(tmp_path):
    config = Settings(pin="1", db=tmp_path / "table.sqlite3").web_config()
    assert config["TABLE_PIN"] == "1" and config["SECRET_KEY"] is None  # the app keeps one of its own
    assert config["TRUST_DB"] == tmp_path / "table-phones.sqlite3"
    assert Settings().web_config()["TABLE_PIN"] is None  # the app keeps the PIN it made


def test_serve_flags_build_the_settings(tmp_path):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    serve.register(sub)
    args = parser.parse_args(["serve", "--port", "8123", "--db", str(tmp_path / "t.db"), "--pin", "55"])
    settings = serve.settings_from_args(args)
    assert (settings.port, settings.db, settings.pin) == (8123, tmp_path / "t.db", "55")
    assert args.func is serve.run


def test_the_printed_url_uses_the_lan_address_or_the_public_url():
    assert serve.base_url(Settings(host="127.0.0.1"), 8000) == "http://127.0.0.1:8000"
    assert serve.base_url(Settings(public_url="http://table.local/"), 8000) == "http://table.local"
    assert serve.base_url(Settings(host="0.0.0.0"), 8000) == f"http://{serve.lan_address()}:8000"


def test_the_server_serves_and_its_stop_ends_open_streams(tmp_path):
    with Session(tmp_path / "s.sqlite3") as session:
        app = create_app({"TABLE_PIN": PIN, "SECRET_KEY": "k"}, session)
        server = serve.Server(app, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{server.port}"
        with urllib.request.urlopen(f"{base}/tv", timeout=5) as page:
            assert page.status == 200
        stream = urllib.request.urlopen(f"{base}/stream", timeout=5)
        assert stream.readline() == b"retry: 2000\n"
        while not stream.readline().startswith(b"data: "):  # the full view comes first
            pass
        assert streams_of(app).open == 1
        server.stop()
        assert stream.read() == b"\n"  # the blank line ending the view, then EOF: not a hang
        assert streams_of(app).open == 0


def test_the_demo_deck_deals_the_pile_and_follows_it_after_a_reshuffle():
    rng = random.Random(5)
    deck = DemoDeck(rng)
    pile = {"a": 3, "b": 1, "c": 0}
    drawn = []
    for _ in range(4):
        card = deck.draw(pile)
        drawn.append(card)
        pile[card] -= 1
    assert Counter(drawn) == Counter({"a": 3, "b": 1})
    assert deck.draw({"x": 2}) == "x"  # the engine's pile changed under it: rebuilt from the truth
    with pytest.raises(ValueError):
        deck.draw({"x": 0})


def test_the_simulated_table_plays_a_whole_game_legally():
    game = find_game("chaos-marauders")
    setup = Setup("chaos-marauders", (Player("A"), Player("B"), Player("C")))
    state = game.new_game(setup)
    rng = random.Random(11)
    brain = DemoBrain(ChaosMaraudersDemo(rng), rng)
    rolls = Counter()
    for seq in range(5000):
        action = brain.next_action(LivePosition(seq, "playing", game, state, setup))
        if action is None:
            break
        if isinstance(action, Roll):
            rolls.update(action.faces)
        state, _ = game.apply(state, action)  # raises if the simulated table cheats
    assert game.is_over(state)
    assert sum(pile_counts(state).values()) == sum(state.pile)
    assert rolls["eye"] > rolls["mark"]  # the Cube has five Eyes and one Mark


def simulated(session, rng, clock=None):
    kit = ChaosMaraudersDemo(rng)
    bundle = find_bundle("chaos-marauders")
    if clock is None:
        return demo.SimulatedTable(session, bundle, kit, DemoBrain(kit, rng))
    return demo.SimulatedTable(session, bundle, kit, DemoBrain(kit, rng), clock=clock)


def test_the_demo_starts_a_game_and_acts_as_source_demo(tmp_path):
    with Session(tmp_path / "d.sqlite3") as session:
        table = simulated(session, random.Random(2))
        table.step()  # no game yet: the first step starts one
        assert session.view()["status"] == "playing"
        for _ in range(5):
            table.step()
        history = session.history()
        assert len(history) == 6
        assert {item["source"] for item in history} == {"demo"}
        names = [p["name"] for p in session.view()["game"]["players"]]
        assert names == [p["name"] for p in ChaosMaraudersDemo.players]


def test_latency_analysis_counts_coalesced_and_lost_views():
    sent = [(1, 0.0), (2, 1.0), (3, 2.0)]
    seen = [{1: 0.5, 2: 1.5, 3: 2.5}, {1: 0.25, 3: 2.75}, {1: 0.75}]
    latencies, lost, coalesced = bench_latency.analyse(seen, sent)
    assert latencies == [0.75]  # only seq 1 reached every client
    assert coalesced == 1  # client 1 skipped seq 2 but read seq 3
    assert lost == 2  # client 2 never got past seq 1
    assert bench_latency.percentile([float(i) for i in range(1, 101)], 99) == 99.0


def test_the_latency_bench_runs_end_to_end(capsys):
    args = argparse.Namespace(clients=3, events=15, seed=4, json=True)
    assert bench_latency.run(args) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["clients"] == 3 and figures["events"] == 15
    assert figures["lost"] == 0 and figures["client_errors"] == 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]


def test_the_demo_starts_the_next_game_after_showing_the_final_scoreboard(tmp_path):
    from companion.session import Command

    now = [0.0]
    with Session(tmp_path / "d.sqlite3") as session:
        table = simulated(session, random.Random(2), clock=lambda: now[0])
        table.step()
        first = session.view()["game_id"]
        assert session.submit(Command("end_game", "control")).accepted
        # The final scoreboard stays up for GAME_OVER_SECONDS of real time, whatever the demo's speed.
        for _ in range(40):
            table.step()
            now[0] += demo.GAME_OVER_SECONDS / 40 * 0.99
            assert session.view()["game_id"] == first
        now[0] += demo.GAME_OVER_SECONDS / 20
        table.step()
        assert session.view()["status"] == "playing"
        assert session.view()["game_id"] != first
