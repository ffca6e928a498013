"""The benches' per-factor and per-card-count figures keep their shape (small runs: the figures
themselves are measured by the commands, docs/vision.md)."""

from __future__ import annotations

from companion.cli import main
from vision.bench_conditions import FACTORS, _limits, conditions
from vision.bench_tracking import tracking
from vision.zones import mat_games


def test_a_factor_is_swept_step_by_step_with_where_it_holds_and_breaks():
    game = mat_games()[0]
    figures = conditions(game, seed=3, scenes=1, factors=["jpeg_quality"])
    steps = figures["jpeg_quality"]["steps"]
    assert [row["value"] for row in steps] == FACTORS["jpeg_quality"][0]
    assert all(row["cards"] > 0 and 0 <= row["accuracy"] <= 1 for row in steps)
    assert steps[0]["accuracy"] >= 0.9 and steps[0]["misnamed"] == 0  # quality 90 is a webcam's


def test_holds_to_and_breaks_at_follow_the_first_steps_under_99_5_and_90_percent():
    rows = [{"value": v, "accuracy": a} for v, a in ((1, 1.0), (2, 0.996), (3, 0.95), (4, 0.85), (5, 0.95))]
    assert _limits(rows) == {"holds_to": 2, "breaks_at": 4}
    assert _limits([{"value": 1, "accuracy": 0.8}]) == {"holds_to": None, "breaks_at": 1}


def test_tracking_reports_cold_still_and_changed_frames_and_a_pi_estimate():
    figures = tracking(mat_games()[0], seed=2, runs=1, counts=(6,), frames=12)
    entry = figures["6_cards"]
    assert set(entry) >= {"cold_ms", "still_ms", "changed_ms", "mean_ms", "pi4_ms", "pi4_fps", "cards_lying"}
    assert entry["still_ms"]["cpu"]["n"] > 0 and entry["pi4_fps"] > 0
    assert figures["frame"] == [1280, 720]


def test_tracking_renders_the_frame_asked_for_and_still_tracks_every_card():
    figures = tracking(mat_games()[0], seed=3, runs=1, counts=(6,), frames=12, resolution=(1920, 1080))
    assert figures["frame"] == [1920, 1080]
    assert figures["6_cards"]["cards_lying"] >= 5


def test_the_bench_refuses_a_game_without_a_mat(capsys):
    assert main(["bench", "vision", "--tracking", "--game", "no-such-game"]) == 2
    assert "has no camera mat" in capsys.readouterr().err
    assert main(["bench", "vision", "--phone", "--photos", "0"]) == 2
