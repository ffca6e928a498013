"""The calibration mat: its zones match the table's camera zones, it prints as PNG and PDF at its real
size, and a rendered view of it under a random camera gives back the zones within a few pixels."""

from __future__ import annotations

import random
import re
import tomllib
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.games import find_bundle
from companion.table import TableConfig
from vision.camera_table import RenderedTable
from vision.mat import MatFinder, face_in_slot, paper_for, pdf_bytes, render_mat, write_pdf, write_png
from vision.synth import card_faces
from vision.zones import LayoutError, build_layout, layout_path, load_layout, zone_name

DPI = 60.0  # plenty for tests: 2.4 px/mm, markers 85 px wide


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_mat_has_every_players_lines_and_the_piles_under_the_tables_names(players):
    layout = load_layout("chaos-marauders", players)
    names = [zone.name for zone in layout.zones]
    lines = [zone_name("line", seat, line) for seat in range(players) for line in range(3)]
    assert names == [*lines, "discard", "pad"]
    assert all(len(layout.zone(name).slots) == 12 for name in lines)
    # The table accepts the mat's zones as camera zones of the game's own kinds.
    config = TableConfig.from_mapping({"readers": layout.reader_entries()})
    zone = config.camera_zone("p1-line2")
    assert zone is not None and (zone.zone, zone.player, zone["line"]) == ("line", 1, 2)
    assert config.camera_zone("discard").zone == "discard"


def test_zones_do_not_overlap_and_each_slot_lies_in_its_zone():
    layout = load_layout("chaos-marauders", 4)
    for zone in layout.zones:
        for slot in zone.slots:
            assert layout.zone_at(*slot.centre) is zone
        corners = [
            (zone.area.x, zone.area.y),
            (zone.area.x + zone.area.w - 0.01, zone.area.y + zone.area.h - 0.01),
        ]
        assert all(layout.zone_at(x, y) is zone for x, y in corners)
    assert layout.zone_at(1, 1) is None  # the marker border holds no zone


def test_a_mat_for_too_many_players_or_an_unknown_game_is_refused():
    with pytest.raises(LayoutError, match="seats 2 to 4 players, not 5"):
        load_layout("chaos-marauders", 5)
    with pytest.raises(LayoutError, match="no mat layout for 'go'"):
        load_layout("go", 2)
    with pytest.raises(LayoutError, match="no mat layout for 'heroscape' \\(mats: chaos-marauders"):
        load_layout("heroscape", 2)  # a game without a mat in its bundle


def test_the_mat_is_the_game_s_own_data_and_every_value_has_its_provenance():
    path = layout_path("chaos-marauders")
    assert path == find_bundle("chaos-marauders").folder / "data" / "mat.toml"
    data = tomllib.loads(path.read_text())
    assert "provenance" in data["card"] and "provenance" in data["spacing"]
    assert all("provenance" in zone for zone in data["seat_zones"])
    assert "players_provenance" in data


def test_a_mat_file_of_the_first_format_still_lays_out_the_same_mat(tmp_path):
    """An owner's own mat file written before mats moved into the bundles (``[lines]``, ``[[piles]]``)."""
    old = tmp_path / "my-mat.toml"
    old.write_text(FIRST_FORMAT)
    mine, packaged = load_layout("chaos-marauders", 3, old), load_layout("chaos-marauders", 3)
    assert (mine.width_mm, mine.height_mm) == (packaged.width_mm, packaged.height_mm)
    assert [z.reader_entry(0) for z in mine.zones] == [z.reader_entry(0) for z in packaged.zones]


FIRST_FORMAT = """
game = "chaos-marauders"
min_players = 2
max_players = 4
[card]
width_mm = 63
height_mm = 88
[lines]
zone = "line"
per_player = 3
slots = 12
slot_gap_mm = 8
line_gap_mm = 6
player_gap_mm = 14
label_mm = 9
[mat]
margin_mm = 50
marker_mm = 36
aruco_dictionary = "DICT_4X4_50"
[[piles]]
name = "discard"
zone = "discard"
label = "Discard pile"
[[piles]]
name = "pad"
zone = "pad"
label = "Play pad"
"""


def small_layout():
    """A mat small enough for paper: tiny cards, four slots."""
    data = tomllib.loads(layout_path("chaos-marauders").read_text())
    data["card"] = {"width_mm": 30, "height_mm": 42}
    data["seat_zones"] = [{**data["seat_zones"][0], "slots": 4}]
    return build_layout(data, 2)


def test_a_mat_prints_on_the_smallest_a_sheet_it_fits_or_as_a_poster():
    layout = small_layout()
    name, width, height = paper_for(layout)
    assert (name, width, height) == ("A1", 594.0, 841.0)  # 260 × 633 mm: too tall for A2 (594 mm)
    assert paper_for(load_layout("chaos-marauders", 4))[0] == "poster"


def test_the_png_is_the_mat_at_its_print_resolution(tmp_path):
    layout = load_layout("chaos-marauders", 2)
    image = render_mat(layout, DPI)
    assert image.shape == (round(layout.height_mm * DPI / 25.4), round(layout.width_mm * DPI / 25.4))
    path = tmp_path / "mat.png"
    write_png(image, path, DPI)
    assert np.array_equal(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE), image)
    data = path.read_bytes()
    at = data.index(b"pHYs")
    per_metre = int.from_bytes(data[at + 4 : at + 8], "big")
    assert per_metre == round(DPI / 25.4 * 1000) and data[at + 12] == 1  # unit: metre


def test_the_pdf_is_one_page_of_the_paper_holding_the_mat_at_its_real_size(tmp_path):
    layout = small_layout()
    image = render_mat(layout, DPI)
    path = tmp_path / "mat.pdf"
    paper = write_pdf(image, layout, path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    # Every cross-reference entry points at its object.
    xref = int(re.search(rb"startxref\n(\d+)", data).group(1))
    offsets = [int(line[:10]) for line in data[xref:].split(b"\n")[3:8]]
    for number, offset in enumerate(offsets, start=1):
        assert data[offset:].startswith(f"{number} 0 obj".encode())
    _, width, height = paper_for(layout)
    box = [float(v) for v in re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", data).groups()]
    assert box == pytest.approx([width / 25.4 * 72, height / 25.4 * 72], abs=0.01)
    drawn = [float(v) for v in re.search(rb"q ([\d.]+) 0 0 ([\d.]+) ", data).groups()]
    assert drawn == pytest.approx([layout.width_mm / 25.4 * 72, layout.height_mm / 25.4 * 72], abs=0.01)
    length = int(re.search(rb"/Image .*?/Length (\d+) >>", data).group(1))
    start = data.index(b"stream\n", data.index(b"/Subtype /Image")) + len(b"stream\n")
    pixels = np.frombuffer(zlib.decompress(data[start : start + length]), np.uint8)
    assert np.array_equal(pixels.reshape(image.shape), image)
    assert paper == "A1"


def test_pdf_bytes_centres_the_image_on_the_page():
    data = pdf_bytes(np.zeros((10, 20), np.uint8), (100.0, 100.0), (50.0, 25.0))
    left, bottom = (
        float(v) for v in re.search(rb"cm", data) and re.search(rb"([\d.]+) ([\d.]+) cm", data).groups()
    )
    assert left == pytest.approx(25 / 25.4 * 72, abs=0.01) and bottom == pytest.approx(
        37.5 / 25.4 * 72, abs=0.01
    )


def random_camera(layout, rng: random.Random, size=(1600, 1200)) -> np.ndarray:
    """Mat millimetres → frame pixels: the mat somewhere in view, turned, seen at a slant."""
    width, height = size
    corners = np.float32(
        [[0, 0], [layout.width_mm, 0], [layout.width_mm, layout.height_mm], [0, layout.height_mm]]
    )
    scale = min(width / layout.width_mm, height / layout.height_mm) * rng.uniform(0.7, 0.85)
    angle = np.radians(rng.uniform(-25, 25))
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    centred = (corners - corners.mean(axis=0)) * scale @ turn.T + (width / 2, height / 2)
    slant = np.float32(
        [[rng.uniform(-0.06, 0.06) * width, rng.uniform(-0.04, 0.04) * height] for _ in range(4)]
    )
    return cv2.getPerspectiveTransform(corners, (centred + slant).astype(np.float32))


@pytest.mark.parametrize("seed", range(6))
def test_the_mat_seen_by_a_random_camera_gives_back_its_zone_centres_within_a_few_pixels(seed):
    rng = random.Random(seed)
    layout = load_layout("chaos-marauders", rng.choice((2, 3, 4)))
    image = render_mat(layout, 50.8)  # 2 px/mm
    to_frame = random_camera(layout, rng)
    from_print = np.diag([image.shape[1] / layout.width_mm, image.shape[0] / layout.height_mm, 1.0])
    frame = cv2.warpPerspective(
        cv2.cvtColor(image, cv2.COLOR_GRAY2BGR),
        to_frame @ np.linalg.inv(from_print),
        (1600, 1200),
        flags=cv2.INTER_AREA,
        borderValue=(40, 70, 110),
    )
    noise = np.random.default_rng(seed).normal(0, 4, frame.shape)
    frame = np.clip(frame * rng.uniform(0.6, 1.0) + noise, 0, 255).astype(np.uint8)
    view = MatFinder(layout).find(frame)
    assert view is not None and view.markers >= 8
    centres = np.float32([zone.area.centre for zone in layout.zones])
    truth = cv2.perspectiveTransform(centres[None], to_frame)[0]
    found = cv2.perspectiveTransform(centres[None], view.to_frame())[0]
    assert np.abs(found - truth).max() < 3.0  # pixels
    back = view.mat_points(truth)
    assert [layout.zone_at(*point).name for point in back] == [zone.name for zone in layout.zones]


def test_the_mat_is_found_with_some_markers_covered_and_not_with_all_but_one():
    layout = load_layout("chaos-marauders", 2)
    table = RenderedTable(layout, {}, random.Random(1), hand_frames=0)
    frame = table.render()
    corners = [cv2.perspectiveTransform(np.float32([m.corners()]), table.to_frame)[0] for m in layout.markers]

    def cover(image, markers):
        covered = image.copy()
        for quad in markers:
            cv2.fillConvexPoly(covered, quad.astype(np.int32), (150, 180, 225))  # a hand
        return covered

    assert MatFinder(layout).find(cover(frame, corners[:6])).markers == len(corners) - 6
    assert MatFinder(layout).find(cover(frame, corners[1:])) is None
    assert MatFinder(layout).find(np.full_like(frame, 90)) is None


def test_a_card_laid_in_a_slot_is_cut_out_upright_and_an_empty_slot_gives_nothing():
    rng = random.Random(3)
    layout = load_layout("chaos-marauders", 2)
    [face] = card_faces(["boss"], rng)
    table = RenderedTable(layout, {"boss": face.image}, rng, hand_frames=0)
    table.place("pad", "boss")
    frame = table.render()
    view = MatFinder(layout).find(frame)
    cut = face_in_slot(frame, view, layout.zone("pad").slots[0])
    assert cut is not None and cut.shape[:2] == (352, 252)
    expected = cv2.resize(face.image, (252, 352), interpolation=cv2.INTER_AREA)
    upright = cv2.matchTemplate(
        cv2.GaussianBlur(cut, (5, 5), 0), cv2.GaussianBlur(expected, (5, 5), 0), cv2.TM_CCOEFF_NORMED
    )
    turned = cv2.matchTemplate(
        cv2.GaussianBlur(cut[::-1, ::-1].copy(), (5, 5), 0),
        cv2.GaussianBlur(expected, (5, 5), 0),
        cv2.TM_CCOEFF_NORMED,
    )
    assert float(upright.max()) > 0.7 and float(upright.max()) > float(turned.max()) + 0.2
    assert face_in_slot(frame, view, layout.zone("discard").slots[0]) is None


def test_the_mat_command_writes_pdf_and_png_and_refuses_other_files(tmp_path, capsys):
    assert (
        main(
            [
                "vision",
                "mat",
                "--game",
                "chaos-marauders",
                "--players",
                "2",
                "--dpi",
                "50",
                "--out",
                str(tmp_path / "m.pdf"),
            ]
        )
        == 0
    )
    assert (tmp_path / "m.pdf").read_bytes().startswith(b"%PDF")
    assert (
        main(["vision", "mat", "--game", "chaos-marauders", "--dpi", "50", "--out", str(tmp_path / "m.png")])
        == 0
    )
    assert "960 × 1697 mm" in capsys.readouterr().out
    assert main(["vision", "mat", "--game", "chaos-marauders", "--out", str(tmp_path / "m.jpg")]) == 2
    assert (
        main(["vision", "mat", "--game", "chaos-marauders", "--dpi", "900", "--out", str(tmp_path / "m.png")])
        == 2
    )
    assert (
        main(
            ["vision", "mat", "--game", "chaos-marauders", "--players", "9", "--out", str(tmp_path / "x.pdf")]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "--dpi must be from 50 to 300, got 900" in err
    assert "--out must end in .pdf or .png" in err and "seats 2 to 4 players, not 9" in err
    assert not (tmp_path / "x.pdf").exists()


def test_the_zones_command_prints_table_settings_the_table_accepts(capsys):
    assert main(["vision", "zones", "--game", "chaos-marauders", "--players", "3"]) == 0
    printed = tomllib.loads(capsys.readouterr().out)
    config = TableConfig.from_mapping({"readers": printed["table"]["readers"]})
    assert config.camera_zone("p2-line2") is not None and config.camera_zone("p3-line0") is None


def test_with_slots_each_slot_of_a_line_is_a_zone_and_a_card_is_named_by_the_slot_it_lies_over(capsys):
    layout = load_layout("chaos-marauders", 2)
    line = layout.zone("p1-line0")
    for index, slot in enumerate(line.slots):
        x, y = slot.centre
        assert layout.place_at(x + 4.0, y, by_slot=True) == f"p1-line0-slot{index}"  # a little off: same slot
        assert layout.place_at(x, y) == "p1-line0"
    assert layout.place_at(*layout.zone("discard").slots[0].centre, by_slot=True) == "discard"
    assert main(["vision", "zones", "--game", "chaos-marauders", "--players", "2", "--slots"]) == 0
    readers = tomllib.loads(capsys.readouterr().out)["table"]["readers"]
    config = TableConfig.from_mapping({"readers": readers})
    zone = config.camera_zone("p0-line2-slot11")
    assert zone is not None and (zone.player, zone["line"], zone["slot"]) == (0, 2, 11)
    assert len(readers) == 2 * 3 * 12 + 2


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 40),
    st.integers(1, 40),
    st.integers(0, 2**32 - 1),
    st.tuples(st.floats(50, 1200), st.floats(50, 1200)),
)
def test_any_greyscale_image_survives_the_pdf_writer_byte_for_byte(width, height, seed, page):
    image = np.random.default_rng(seed).integers(0, 256, (height, width), dtype=np.uint8)
    data = pdf_bytes(image, page, (page[0] / 2, page[1] / 2))
    header = re.search(rb"/Width (\d+) /Height (\d+) .*?/Length (\d+) >>\nstream\n", data)
    assert (int(header.group(1)), int(header.group(2))) == (width, height)
    start, length = header.end(), int(header.group(3))
    assert data[start + length : start + length + 10] == b"\nendstream"
    assert np.array_equal(
        np.frombuffer(zlib.decompress(data[start : start + length]), np.uint8), image.ravel()
    )
