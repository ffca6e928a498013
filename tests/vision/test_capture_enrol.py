"""``companion vision enrol``: faces from a folder (every id checked against the game's catalog first)
or captured card by card from the camera over the mat, saved where the table's [camera] reads them."""

from __future__ import annotations

import io
import random
from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.cli.vision import enrol_from_camera
from companion.games import find_bundle
from companion.settings import references_path
from vision.camera_table import RenderedSource, RenderedTable
from vision.references import ReferenceSet
from vision.service import CameraService
from vision.slots import SlotReader
from vision.synth import card_faces
from vision.watcher import WatcherSettings
from vision.zones import load_layout

GAME = "chaos-marauders"
IDS = [str(card["id"]) for card in find_bundle(GAME).cards()]


@pytest.fixture
def refdir(tmp_path: Path) -> Path:
    folder = tmp_path / "faces"
    folder.mkdir()
    for face in card_faces(IDS[:6], random.Random(4)):
        cv2.imwrite(str(folder / f"{face.card}.png"), face.image)
    return folder


def test_faces_from_a_folder_are_enrolled_beside_the_event_log_with_a_progress_bar(refdir, tmp_path, capsys):
    db = tmp_path / "var" / "table.sqlite3"
    assert main(["vision", "enrol", "--game", GAME, str(refdir), "--db", str(db)]) == 0
    out, err = capsys.readouterr()
    saved = references_path(db, GAME)
    assert saved == tmp_path / "var" / "vision" / f"{GAME}-references.npz"
    assert f"enrolled 6 of {len(IDS)} Chaos Marauders cards into {saved}" in out
    assert "enrolling [" in err and err.rstrip().endswith("6/6")
    assert sorted(ReferenceSet.load(saved).cards) == sorted(IDS[:6])


def test_a_face_of_a_card_the_game_lacks_stops_enrolment_and_nothing_is_written(refdir, tmp_path, capsys):
    cv2.imwrite(str(refdir / "bogus-card.png"), cv2.imread(str(refdir / f"{IDS[0]}.png")))
    out = tmp_path / "refs.npz"
    assert main(["vision", "enrol", "--game", GAME, str(refdir), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"companion vision: {refdir} holds faces of cards Chaos Marauders does not have: bogus-card "
        f"(name each <card-id>.png as `companion cards {GAME}` lists the ids)"
    ]
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "go", "x"], "unknown game 'go'"),
        (["--game", GAME, "/nowhere"], "/nowhere is not a folder of card faces"),
        (["--game", GAME], "enrol from one of: a folder of faces"),
    ],
)
def test_enrol_mistakes_are_one_line(argv, message, capsys):
    assert main(["vision", "enrol", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_folder_with_an_unreadable_face_is_refused(refdir, tmp_path, capsys):
    (refdir / f"{IDS[7]}.png").write_bytes(b"no image")
    assert main(["vision", "enrol", "--game", GAME, str(refdir), "--out", str(tmp_path / "r.npz")]) == 2
    assert "not a readable image" in capsys.readouterr().err and not (tmp_path / "r.npz").exists()


def test_cards_laid_on_the_mat_one_by_one_are_enrolled_and_then_recognised(tmp_path):
    """The terminal asks for each card; the player lays it on the pad and presses Enter (the camera is
    the rendered table, laid by the test as the prompts come)."""
    rng = random.Random(9)
    faces = {face.card: face.image for face in card_faces(IDS[:3], rng)}
    layout = load_layout(GAME, 2)
    table = RenderedTable(layout, faces, rng, hand_frames=0)
    source = RenderedSource(table, fps=0)
    source.open()
    titles = {card: card.replace("-", " ").title() for card in IDS[:3]}

    class Player(io.StringIO):
        """Types Enter for each card after laying it on the pad (the previous one taken away), skips
        the second card, and presses Enter once over an empty pad (nothing found: asked again)."""

        def __init__(self) -> None:
            super().__init__()
            self.script = iter(["empty", IDS[0], "skip", IDS[2]])

        def readline(self, size: int = -1) -> str:
            for laid in table.cards():
                table.remove(laid.zone, laid.card)
            step = next(self.script, None)
            if step is None:
                return ""
            if step == "skip":
                return "s\n"
            if step != "empty":
                table.place("pad", step)
            return "\n"

    prompts = io.StringIO()
    references = enrol_from_camera(source, layout, "pad", titles, Player(), prompts)
    assert isinstance(references, ReferenceSet) and references.cards == (IDS[0], IDS[2])
    text = prompts.getvalue()
    assert f"[1/3] lay {titles[IDS[0]]} in pad" in text and "no card found in pad" in text
    # The captured faces name the cards when they lie anywhere on the mat (the last one still on the pad).
    table.place("p1-line1", IDS[2])
    table.place("p0-line2", IDS[0])
    camera = CameraService(
        source, layout, SlotReader(layout, references), WatcherSettings(1, 1), on_observation=print
    )
    seen = camera.step(source.read())
    assert sorted((o.zone, o.card) for o in seen) == [
        ("p0-line2", IDS[0]),
        ("p1-line1", IDS[2]),
        ("pad", IDS[2]),
    ]


def test_nothing_captured_is_nothing_saved(tmp_path):
    layout = load_layout(GAME, 2)
    source = RenderedSource(RenderedTable(layout, {}, random.Random(1)), fps=0)
    source.open()
    assert enrol_from_camera(source, layout, "pad", {IDS[0]: "A"}, io.StringIO("q\n"), io.StringIO()) == 2
