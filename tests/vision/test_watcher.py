"""The watcher's stability window: settled cards only, no flicker from hands, removals after M frames,
and the camera service placing recognised cards in the mat's zones (a scripted recognizer)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.observations import CardGone, CardSighted
from vision.camera_table import RenderedSource, RenderedTable
from vision.capture import FolderSource, Frame
from vision.mat import MatFinder, play_area
from vision.service import CameraService, CameraSetupError
from vision.synth import card_faces
from vision.watcher import CardWatcher, Sighting, WatcherSettings
from vision.zones import load_layout

SETTLE, GONE = 3, 4


def boss(zone: str = "p0-line0", x: float = 100.0) -> Sighting:
    return Sighting(zone, "boss", 0.9, (x, 100.0))


def feed(watcher: CardWatcher, frames: list[list[Sighting]]) -> list[list[CardSighted | CardGone]]:
    return [watcher.update(sightings, at=float(i)) for i, sightings in enumerate(frames)]


@pytest.fixture
def watcher() -> CardWatcher:
    return CardWatcher(WatcherSettings(settle_frames=SETTLE, gone_frames=GONE))


def test_a_card_is_reported_once_after_lying_still_for_n_frames(watcher):
    out = feed(watcher, [[boss()]] * 6)
    assert out[:2] == [[], []]
    [sighted] = out[2]
    assert (sighted.zone, sighted.card, sighted.confidence, sighted.at) == ("p0-line0", "boss", 0.9, 2.0)
    assert out[3:] == [[], [], []]  # still lying there: nothing new


def test_a_hand_over_a_card_for_fewer_than_m_frames_is_no_removal(watcher):
    out = feed(watcher, [[boss()]] * 3 + [[]] * (GONE - 1) + [[boss()]] * 5)
    assert [type(o) for frame in out for o in frame] == [CardSighted]


def test_a_card_missing_for_m_frames_is_gone_with_its_track(watcher):
    out = feed(watcher, [[boss()]] * 3 + [[]] * GONE)
    sighted, gone = [o for frame in out for o in frame]
    assert isinstance(gone, CardGone) and (gone.zone, gone.card, gone.track) == (
        "p0-line0",
        "boss",
        sighted.track,
    )
    assert gone.at == 3.0 + GONE - 1


def test_a_card_slid_across_a_zone_is_reported_only_where_it_stays(watcher):
    frames = [[boss("p0-line0")]] * (SETTLE - 1) + [[boss("p0-line1")]] * SETTLE
    reported = [o for frame in feed(watcher, frames) for o in frame]
    assert [(o.zone, type(o)) for o in reported] == [("p0-line1", CardSighted)]


def test_settling_must_be_in_a_row(watcher):
    frames = [[boss()]] * (SETTLE - 1) + [[]] + [[boss()]] * (SETTLE - 1)
    assert all(frame == [] for frame in feed(watcher, frames))
    assert watcher.update([boss()], 99.0)  # the SETTLE-th frame in a row


def test_two_copies_in_one_zone_are_two_tracks(watcher):
    two = [boss(x=100.0), boss(x=180.0)]
    reported = [o for frame in feed(watcher, [two] * SETTLE) for o in frame]
    assert len(reported) == 2 and reported[0].track != reported[1].track


def test_a_card_nudged_a_little_is_the_same_card(watcher):
    frames = [[boss(x=100.0 + 4 * i)] for i in range(8)]  # 4 mm a frame: within match_mm
    assert len([o for frame in feed(watcher, frames) for o in frame]) == 1


def test_the_settings_refuse_windows_below_one_frame():
    with pytest.raises(ValueError, match="at least 1"):
        WatcherSettings(settle_frames=0)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.booleans(), min_size=1, max_size=60))
def test_a_card_seen_on_and_off_alternates_sighted_and_gone(presence):
    """Whatever the pattern: sightings and removals alternate, a sighting follows SETTLE frames in a
    row, a removal GONE frames missing in a row."""
    watcher = CardWatcher(WatcherSettings(SETTLE, GONE))
    run_seen = run_missed = 0
    lying = False
    for i, present in enumerate(presence):
        run_seen, run_missed = (run_seen + 1, 0) if present else (0, run_missed + 1)
        out = watcher.update([boss()] if present else [], float(i))
        if out:
            [observation] = out
            if isinstance(observation, CardSighted):
                assert not lying and run_seen >= SETTLE
                lying = True
            else:
                assert lying and run_missed == GONE
                lying = False
        else:
            assert not (not lying and run_seen >= SETTLE)
            assert not (lying and run_missed >= GONE)


# ----------------------------------------------------------------------- the service, scripted


@dataclass(frozen=True)
class Seen:
    """A recognizer's detection as ``vision.recognize.Detection`` has it: card, confidence, centre."""

    card: str
    confidence: float
    centre: tuple[float, float]


class ScriptedRecognizer:
    """Reports the cards a test lists, at given centres of the frame it is handed."""

    def __init__(self) -> None:
        self.cards: list[tuple[str, tuple[float, float]]] = []

    def recognize(self, frame: np.ndarray) -> list[Seen]:
        return [Seen(card, 0.95, centre) for card, centre in self.cards]


def test_the_service_places_recognised_cards_in_the_mats_zones():
    rng = random.Random(5)
    layout = load_layout("chaos-marauders", 2)
    faces = {face.card: face.image for face in card_faces(["boss", "grunt"], rng)}
    table = RenderedTable(layout, faces, rng, hand_frames=0)
    laid = [table.place("p1-line2", "boss"), table.place("discard", "grunt")]
    image = table.render()
    view = MatFinder(layout).find(image)
    assert view is not None
    # The service hands the recognizer the play area only: centres are given in that crop.
    x0, y0, _, _ = play_area(view, layout, (image.shape[1], image.shape[0]))
    recognizer = ScriptedRecognizer()
    heard: list[CardSighted | CardGone] = []
    service = CameraService(
        RenderedSource(table), layout, recognizer, WatcherSettings(2, 2), on_observation=heard.append
    )
    for card in laid:
        x, y = table.corners_in_frame(card).mean(axis=0)
        recognizer.cards.append((card.card, (x - x0, y - y0)))
    for index in range(3):
        service.step(Frame(image, float(index), index))
    assert sorted((o.zone, o.card) for o in heard) == [("discard", "grunt"), ("p1-line2", "boss")]
    assert all(isinstance(o, CardSighted) for o in heard)
    recognizer.cards = []
    for index in range(3, 5):
        service.step(Frame(image, float(index), index))
    gone = sorted((o.zone, type(o).__name__) for o in heard[2:])
    assert gone == [("discard", "CardGone"), ("p1-line2", "CardGone")]


def test_the_camera_follows_the_game_being_played():
    """Another game starts: the camera reads that game's mat (or waits, idle, saying why), and the
    last game's cards leave the table's record as the camera forgets them."""
    rng = random.Random(6)
    layout = load_layout("chaos-marauders", 2)
    table = RenderedTable(layout, {f.card: f.image for f in card_faces(["boss"], rng)}, rng, hand_frames=0)
    laid = table.place("p0-line0", "boss")
    image = table.render()
    view = MatFinder(layout).find(image)
    assert view is not None
    x0, y0, _, _ = play_area(view, layout, (image.shape[1], image.shape[0]))
    recognizer = ScriptedRecognizer()
    x, y = table.corners_in_frame(laid).mean(axis=0)
    recognizer.cards.append(("boss", (x - x0, y - y0)))
    playing = ["chaos-marauders"]
    asked: list[str] = []

    def mat_of(game: str):
        asked.append(game)
        if game != "chaos-marauders":
            raise CameraSetupError(f"no mat layout for {game!r}")
        return layout, recognizer

    heard: list[CardSighted | CardGone] = []
    service = CameraService(
        RenderedSource(table),
        layout,
        recognizer,
        WatcherSettings(1, 1),
        on_observation=heard.append,
        follow=lambda: playing[0],
        mat_of=mat_of,
    )
    service.step(Frame(image, 0.0, 0))
    assert [(o.zone, o.card) for o in heard] == [("p0-line0", "boss")] and asked == []
    playing[0] = "heroscape"
    assert service.step(Frame(image, 1.0, 1)) == []
    assert isinstance(heard[-1], CardGone) and heard[-1].card == "boss"  # the old game's card is gone
    status = service.status()
    assert status["state"] == "idle" and "no mat layout for 'heroscape'" in status["detail"]
    assert status["notices"][0]["text"].startswith("Camera: no mat layout")
    playing[0] = "chaos-marauders"
    service.step(Frame(image, 2.0, 2))
    assert asked == ["heroscape", "chaos-marauders"] and service.status()["state"] == "watching"
    assert isinstance(heard[-1], CardSighted)  # read again on the game's own mat


def test_a_frame_without_the_mat_counts_for_nothing(tmp_path):
    layout = load_layout("chaos-marauders", 2)
    recognizer = ScriptedRecognizer()
    recognizer.cards = [("boss", (100.0, 100.0))]
    service = CameraService(
        FolderSource(tmp_path), layout, recognizer, WatcherSettings(1, 1), on_observation=print
    )
    blank = np.full((720, 1280, 3), 90, np.uint8)
    assert service.step(Frame(blank, 0.0, 1)) == []
    assert service.status()["state"] == "no mat"


def test_the_watch_command_reads_a_rendered_table_and_prints_its_figures(capsys):
    argv = ["vision", "watch", "--game", "chaos-marauders", "--players", "2", "--source", "sim:"]
    assert main([*argv, "--sim-cards", "8", "--frames", "6", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    every_marker = len(load_layout("chaos-marauders", 2).markers)
    assert figures["frames"] == 6 and figures["markers"] == every_marker and figures["state"] == "watching"
    assert figures["wrong"] == 0 and figures["cards_reported"] + figures["missed"] == figures["cards_laid"]
    assert figures["cards_reported"] >= figures["cards_laid"] - 1
    assert 0 < figures["ms_per_frame_p50"] <= figures["ms_per_frame_p99"]


def test_the_watch_command_says_in_one_line_what_is_missing(capsys, tmp_path):
    argv = ["vision", "watch", "--game", "chaos-marauders", "--db", str(tmp_path / "t.sqlite3")]
    assert main([*argv, "--source", "usb:0"]) == 2
    assert main([*argv, "--source", "camera:0"]) == 2
    first, second = capsys.readouterr().err.strip().splitlines()
    unknown = "unknown kind 'usb' (camera, picam, file, folder or sim)"
    assert first == f"companion vision: frame source 'usb:0': {unknown}"
    assert second.startswith("companion vision: no enrolled card faces at ")
    assert second.endswith("run `companion vision enrol --game chaos-marauders REFDIR`")


def grunt(zone: str = "discard", x: float = 100.0) -> Sighting:
    return Sighting(zone, "grunt", 0.9, (x, 100.0))


def test_a_card_carried_to_another_zone_is_gone_from_the_first_before_it_is_sighted(watcher):
    """Its removal would otherwise come ``gone_frames`` late, after the sighting: the table must
    hear the lift first to know where the card came from."""
    out = feed(watcher, [[boss()]] * 3 + [[boss("discard")]] * SETTLE)  # laid at once
    first, gone, sighted = [o for frame in out for o in frame]
    assert isinstance(gone, CardGone) and (gone.zone, gone.track) == ("p0-line0", first.track)
    assert isinstance(sighted, CardSighted) and sighted.zone == "discard" and sighted.at == gone.at
    assert sighted.moved_from == ("p0-line0", first.track)  # the move, told once, here
    assert watcher.lying() == [t for t in watcher.lying() if t.zone == "discard"]


def test_a_card_lifted_held_and_laid_in_another_zone_within_the_move_window_was_carried(watcher):
    """One frame a second: reported gone at t=6, laid down at once, settled at t=9 (move_s is 3 s)."""
    out = feed(watcher, [[boss()]] * 3 + [[]] * GONE + [[boss("discard")]] * SETTLE)
    first, gone, sighted = [o for frame in out for o in frame]
    assert isinstance(gone, CardGone) and gone.at < sighted.at
    assert sighted.moved_from == ("p0-line0", first.track)


def test_a_card_gone_longer_than_the_move_window_is_not_where_a_new_one_came_from(watcher):
    out = feed(watcher, [[boss()]] * 3 + [[]] * GONE + [[]] * 4 + [[boss("discard")]] * SETTLE)
    *_, sighted = [o for frame in out for o in frame]
    assert isinstance(sighted, CardSighted) and sighted.moved_from is None


def test_copies_claim_the_most_recent_departure_of_their_card():
    watcher = CardWatcher(WatcherSettings(settle_frames=1, gone_frames=1, move_s=10))
    frames = [
        [boss("p0-line0"), boss("pad")],  # two copies lie in two zones
        [boss("pad")],  # the line's copy goes (t=1)
        [],  # the pad's copy goes (t=2)
        [boss("discard")],
        [boss("discard"), boss("discard", x=300.0)],
        [boss("discard"), boss("discard", x=300.0), boss("discard", x=500.0)],
    ]
    out = [o for frame in feed(watcher, frames) for o in frame]
    line, pad = out[0].track, out[1].track
    moves = [o.moved_from for o in out if isinstance(o, CardSighted) and o.zone == "discard"]
    assert moves == [("pad", pad), ("p0-line0", line), None]  # a third copy: none left to claim


def test_a_copy_laid_elsewhere_while_the_first_still_lies_is_no_move(watcher):
    out = feed(watcher, [[boss()]] * 3 + [[boss(), boss("discard")]] * SETTLE)
    assert [type(o) for frame in out for o in frame] == [CardSighted, CardSighted]


def test_a_card_pushed_along_its_zone_is_the_same_card(watcher):
    out = feed(watcher, [[boss()]] * 3 + [[boss(x=200.0)]] * (GONE + 3))
    assert [type(o) for frame in out for o in frame] == [CardSighted]
    [track] = watcher.lying()
    assert track.at_mm == (200.0, 100.0)


def test_a_card_laid_on_a_pile_names_the_card_it_covers(watcher):
    out = feed(watcher, [[boss("discard")]] * 3 + [[grunt(x=101.0)]] * (GONE + 1))
    under, covering, gone = [o for frame in out for o in frame]
    assert isinstance(covering, CardSighted) and covering.covers == (under.track,)
    assert isinstance(gone, CardGone) and gone.track == under.track
    # Laid beside it, not on it: covers nothing.
    side = CardWatcher(WatcherSettings(settle_frames=SETTLE, gone_frames=GONE))
    out = feed(side, [[boss("discard")]] * 3 + [[boss("discard"), grunt(x=300.0)]] * SETTLE)
    assert [o.covers for frame in out for o in frame] == [(), ()]


def test_a_covered_card_reported_gone_before_the_new_card_settled_is_still_named():
    quick = CardWatcher(WatcherSettings(settle_frames=3, gone_frames=2))
    out = feed(quick, [[boss("discard")]] * 3 + [[]] + [[grunt(x=101.0)]] * 3)
    under, gone, covering = [o for frame in out for o in frame]
    assert isinstance(gone, CardGone) and isinstance(covering, CardSighted)
    assert covering.covers == (under.track,)
