"""Frame sources: replays from a folder or a video file round-trip their frames, specs pick the source,
and a camera that stops giving frames is reopened (a real cv2.VideoCapture over a video file)."""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.settings import CameraSettings, SettingsError, settings_from_mapping
from vision.capture import (
    SETTLE_FRAMES,
    V4L2_MANUAL_EXPOSURE,
    CameraSource,
    FolderSource,
    SourceError,
    VideoFileSource,
    open_source,
)

SIZE = (160, 120)


def coloured(index: int) -> np.ndarray:
    """A frame that says which one it is: a flat colour and a bar at a place of its own."""
    image = np.full((SIZE[1], SIZE[0], 3), (20 * index % 256, 255 - 30 * index % 256, 90), np.uint8)
    cv2.rectangle(image, (10 * index, 0), (10 * index + 9, SIZE[1] - 1), (255, 255, 255), -1)
    return image


def write_video(path: Path, frames: int) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, SIZE)
    assert writer.isOpened(), "OpenCV cannot write an MJPG AVI here"
    for index in range(frames):
        writer.write(coloured(index))
    writer.release()


def read_all(source) -> list[np.ndarray]:
    source.open()
    images = []
    for _ in range(100):
        frame = source.read()
        if frame is None:
            break
        images.append(frame.image)
    source.close()
    return images


def test_a_folder_of_images_is_read_back_in_name_order_exactly(tmp_path):
    for index in range(5):
        cv2.imwrite(str(tmp_path / f"frame-{index:03d}.png"), coloured(index))
    (tmp_path / "notes.txt").write_text("not a frame")
    source = FolderSource(tmp_path)
    images = read_all(source)
    assert len(images) == 5 and source.finished
    for index, image in enumerate(images):
        assert np.array_equal(image, coloured(index))


def test_a_looping_folder_starts_again_and_an_unreadable_image_is_skipped(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), coloured(1))
    (tmp_path / "b.png").write_bytes(b"not a png at all")
    source = FolderSource(tmp_path, loop=True)
    source.open()
    frames = [source.read() for _ in range(3)]
    assert all(f is not None and np.array_equal(f.image, coloured(1)) for f in frames)
    assert [f.index for f in frames] == [1, 2, 3] and not source.finished


def test_a_video_file_is_read_back_frame_by_frame(tmp_path):
    path = tmp_path / "replay.avi"
    write_video(path, 8)
    images = read_all(VideoFileSource(path))
    assert len(images) == 8
    for index, image in enumerate(images):  # MJPG is lossy: the colours and bars survive
        assert np.abs(image.astype(int) - coloured(index).astype(int)).mean() < 6


def test_a_looping_video_plays_again(tmp_path):
    path = tmp_path / "replay.avi"
    write_video(path, 3)
    source = VideoFileSource(path, loop=True)
    source.open()
    assert all(source.read() is not None for _ in range(7)) and not source.finished


def test_nothing_is_opened_before_open(tmp_path):
    missing = tmp_path / "nowhere"
    open_source("camera:7")  # constructing touches no device
    for source in (FolderSource(missing), VideoFileSource(missing / "x.mp4")):
        assert source.read() is None  # constructed, never opened: nothing to give
    with pytest.raises(SourceError, match="no such folder"):
        FolderSource(missing).open()
    with pytest.raises(SourceError, match="no such file"):
        VideoFileSource(missing / "x.mp4").open()


def test_an_empty_folder_or_a_file_that_is_no_video_is_named(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        FolderSource(tmp_path).open()
    text = tmp_path / "clip.mp4"
    text.write_text("hello")
    with pytest.raises(SourceError, match="not a video"):
        VideoFileSource(text).open()


@pytest.mark.parametrize(
    ("spec", "kind", "detail"),
    [
        ("camera:0", CameraSource, "camera:0"),
        ("camera:/dev/video2?width=640&height=480&fps=15", CameraSource, "camera:/dev/video2"),
        ("file:/tmp/replay.mp4", VideoFileSource, "file:/tmp/replay.mp4"),
        ("folder:/tmp/frames?loop=1", FolderSource, "folder:/tmp/frames"),
    ],
)
def test_a_spec_picks_its_source(spec, kind, detail):
    source = open_source(spec)
    assert isinstance(source, kind) and source.spec == detail


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("webcam", "expected camera:N"),
        ("usb:0", "unknown kind 'usb'"),
        ("camera:", "name the camera"),
        ("camera:0?width=wide", "width must be a whole number"),
        ("sim:", "needs a simulated table"),
    ],
)
def test_a_bad_spec_is_one_clear_sentence(spec, message):
    with pytest.raises(SourceError, match=message):
        open_source(spec)


def test_a_camera_that_stops_is_reopened_with_a_log_line(tmp_path, caplog):
    """The "camera" is a real VideoCapture over a short clip: when the clip ends, reads fail like an
    unplugged camera's, and the source reopens it and goes on."""
    path = tmp_path / "camera.avi"
    write_video(path, 2)
    waits: list[float] = []
    camera = CameraSource(
        0, (160, 120), opener=lambda _device: cv2.VideoCapture(str(path)), sleep=waits.append
    )
    camera.open()
    with caplog.at_level(logging.INFO, logger="vision.capture"):
        frames = [camera.read() for _ in range(6)]
    got = [f is not None for f in frames]
    assert got == [True, True, False, True, True, False]  # ended, reopened, ended again
    assert "camera:0 stopped giving frames: reconnecting" in caplog.text
    assert "camera:0 reconnected" in caplog.text
    assert waits == [0.5, 0.5]  # each reopen succeeded at once, so the backoff starts over


def test_a_camera_that_is_gone_backs_off_and_says_so(tmp_path, caplog):
    camera = CameraSource(
        0, opener=lambda _device: cv2.VideoCapture(str(tmp_path / "none.avi")), sleep=lambda s: None
    )
    with pytest.raises(SourceError, match="no camera there"):
        camera.open()
    with caplog.at_level(logging.WARNING, logger="vision.capture"):
        assert [camera.read() for _ in range(3)] == [None, None, None]
    assert "attempt 3; next in 5.0 s" in caplog.text


def test_the_camera_section_is_checked_when_the_settings_load():
    loaded = settings_from_mapping({"camera": {"source": "folder:/frames", "players": 3, "slots": True}})
    assert loaded.camera == CameraSettings(source="folder:/frames", players=3, slots=True)
    assert settings_from_mapping({}).camera is None  # no [camera]: no camera
    for section, message in [
        ({"sorce": "camera:0"}, "unknown setting 'camera.sorce'"),
        ({"players": "4"}, "'camera.players': '4' has the wrong type"),
        ({"settle_frames": 0}, "'camera.settle_frames' must be at least 1"),
        ({"slots": 1}, "'camera.slots': 1 has the wrong type"),
    ]:
        with pytest.raises(SettingsError, match=message):
            settings_from_mapping({"camera": section})


def test_enrolled_faces_default_to_the_tables_data_folder(tmp_path):
    camera = CameraSettings()
    db = tmp_path / "var" / "table.sqlite3"
    assert (
        camera.references_for(db, "chaos-marauders")
        == tmp_path / "var" / "vision" / "chaos-marauders-references.npz"
    )
    assert CameraSettings(references=Path("mine.npz")).references_for(db, "x") == Path("mine.npz")


class SettingCapture:
    """A VideoCapture whose controls are recorded; ``refuse`` lists the ones it does not offer."""

    def __init__(self, refuse: tuple[int, ...] = ()) -> None:
        self.refuse = refuse
        self.values: dict[int, float] = {cv2.CAP_PROP_EXPOSURE: 156.0, cv2.CAP_PROP_WB_TEMPERATURE: 4600.0}

    def isOpened(self) -> bool:
        return True

    def set(self, prop: int, value: float) -> bool:
        if prop in self.refuse:
            return False
        self.values[prop] = value
        return True

    def get(self, prop: int) -> float:
        return self.values.get(prop, 0.0)

    def read(self) -> tuple[bool, np.ndarray]:
        return True, np.zeros((8, 8, 3), np.uint8)

    def release(self) -> None: ...


def test_a_cameras_automatics_are_locked_once_they_settled_and_what_it_lacks_is_said(caplog):
    capture = SettingCapture(refuse=(cv2.CAP_PROP_AUTOFOCUS,))
    camera = CameraSource(0, opener=lambda _device: capture)
    camera.open()
    with caplog.at_level(logging.INFO, logger="vision.capture"):
        for _ in range(SETTLE_FRAMES - 1):
            camera.read()
        assert camera.locked == {}
        camera.read()
    assert camera.locked == {"exposure": 156.0, "white balance": 4600.0}
    assert capture.values[cv2.CAP_PROP_AUTO_EXPOSURE] == V4L2_MANUAL_EXPOSURE
    assert capture.values[cv2.CAP_PROP_AUTO_WB] == 0
    assert "focus: the camera does not let it be set, left automatic" in caplog.text
    unlocked = open_source("camera:0?lock=0")
    assert isinstance(unlocked, CameraSource) and unlocked._lock is False
