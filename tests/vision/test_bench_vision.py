"""``companion bench vision``: its JSON on a small generated set, its scoring rules, its refusals."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.bench import Tally, score_frame
from vision.recognize import Detection

FIGURES = {"top1_accuracy", "false_positives", "missed", "ms_per_frame_p50", "ms_per_frame_p99", "frames"}


@pytest.fixture(scope="module")
def small_set(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("vision-set")
    args = ["--make-set", str(folder), "--cards", "12", "--scenes", "8", "--empty", "2", "--seed", "2"]
    assert main(["bench", "vision", *args]) == 0
    return folder


def test_make_set_then_measure_it(small_set, capsys):
    capsys.readouterr()
    code = main(
        [
            "bench",
            "vision",
            "--refs",
            str(small_set / "refs"),
            "--scenes",
            str(small_set / "scenes"),
            "--json",
        ]
    )
    figures = json.loads(capsys.readouterr().out)
    assert code == 0
    assert FIGURES <= figures.keys()
    assert figures["frames"] == 8
    assert figures["false_positives"] == 0
    assert figures["top1_accuracy"] >= 0.9
    assert figures["cards"] >= 12
    assert 0 < figures["ms_per_frame_p50"] <= figures["ms_per_frame_p99"]


def test_plain_output_names_each_figure(small_set, capsys):
    capsys.readouterr()
    assert (
        main(["bench", "vision", "--refs", str(small_set / "refs"), "--scenes", str(small_set / "scenes")])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert {line.split(":")[0] for line in lines} >= FIGURES


def square(x: float, y: float, side: float = 100) -> list[list[float]]:
    return [[x, y], [x + side, y], [x + side, y + side], [x, y + side]]


def detection(card: str, x: float, y: float) -> Detection:
    corners = np.float32(square(x - 10, y - 10, 20))
    return Detection(card, corners, 0.9)


def test_scoring_rules():
    cards = [
        {"card": "a", "corners": square(0, 0), "occluded": False},
        {"card": "b", "corners": square(200, 0), "occluded": False},
        {"card": "c", "corners": square(400, 0), "occluded": True},
        {"card": "d", "corners": square(600, 0), "occluded": False},
    ]
    tally = Tally()
    found = [
        detection("a", 50, 50),  # correct
        detection("a", 60, 60),  # the same card twice: the second is a false positive
        detection("x", 250, 50),  # misnamed b
        detection("c", 450, 50),  # an occluded card named rightly still counts
        detection("d", 900, 50),  # right name, wrong place
    ]
    score_frame(tally, found, cards)
    assert (tally.cards, tally.correct, tally.missed) == (3, 1, 2)
    assert (tally.false_positives, tally.misnamed) == (3, 1)
    assert (tally.occluded, tally.occluded_named) == (1, 1)


def test_an_empty_scene_counts_its_false_positives_apart():
    tally = Tally()
    score_frame(tally, [detection("a", 5, 5)], [])
    assert (tally.false_positives, tally.false_positives_empty, tally.cards) == (1, 1, 0)


def run_bench(*args: str) -> int:
    return main(["bench", "vision", *args])


def test_bad_inputs_exit_2_with_one_line(tmp_path, small_set, capsys):
    refs, scenes = str(small_set / "refs"), str(small_set / "scenes")
    (tmp_path / "empty").mkdir()
    (tmp_path / "badjson").mkdir()
    (tmp_path / "badjson" / "truth.json").write_text("{nope")
    (tmp_path / "badimage").mkdir()
    (tmp_path / "badimage" / "truth.json").write_text(json.dumps({"x.jpg": []}))
    (tmp_path / "badimage" / "x.jpg").write_bytes(b"not a jpeg")
    (tmp_path / "badcard").mkdir()
    (tmp_path / "badcard" / "truth.json").write_text(
        json.dumps({"x.jpg": [{"card": "a", "corners": [1, 2]}]})
    )
    cases = [
        (["--refs", refs, "--scenes", str(tmp_path / "empty")], "no such file"),
        (["--refs", refs, "--scenes", str(tmp_path / "badjson")], "not readable JSON"),
        (["--refs", refs, "--scenes", str(tmp_path / "badimage")], "not a readable image"),
        (["--refs", refs, "--scenes", str(tmp_path / "badcard")], "four [x, y]"),
        (["--refs", str(tmp_path / "empty"), "--scenes", scenes], "no card faces"),
        (["--refs", refs], "give --refs"),
        (["--make-set", str(tmp_path / "set"), "--scenes", "many"], "--scenes must be a whole number"),
        (["--make-set", str(tmp_path / "set"), "--scenes", "2", "--empty", "3"], "--empty ≤ --scenes"),
        (["--make-set", str(tmp_path / "set"), "--frame", "1920*1080"], "--frame must be WIDTHxHEIGHT"),
        (["--make-set", str(tmp_path / "set"), "--frame", "720x1280"], "a landscape frame"),
        (["--make-set", str(tmp_path / "set"), "--frame", "99999x9"], "a landscape frame"),
    ]
    for args, message in cases:
        capsys.readouterr()
        assert run_bench(*args) == 2, args
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.count("\n") == 1 and message in captured.err, (args, captured.err)
    assert not (tmp_path / "set").exists()


def test_a_held_out_set_is_rendered_at_the_frame_asked_for(tmp_path, capsys):
    folder = tmp_path / "wide"
    args = ["--make-set", str(folder), "--renderer", "held-out", "--frame", "800x450"]
    assert run_bench(*args, "--cards", "4", "--scenes", "2", "--empty", "1", "--seed", "3") == 0
    assert "wrote 4 card faces" in capsys.readouterr().out
    description = json.loads((folder / "scenes" / "set.json").read_text())
    assert description["frame"] == [800, 450]
    for scene in sorted((folder / "scenes").glob("scene-*.jpg")):
        assert cv2.imread(str(scene)).shape[:2] == (450, 800)
