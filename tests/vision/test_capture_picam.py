"""``picam:`` frames through picamera2's API (a stand-in object in place of the libcamera-backed one)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.capture import PICAM_SIZE, SETTLE_FRAMES, PicameraSource, SourceError, open_source


class FakePicamera2:
    """The part of picamera2.Picamera2 the source uses; "RGB888" arrays are H x W x 3, bytes B, G, R."""

    cameras = 1

    def __init__(self, camera_num: int = 0) -> None:
        if camera_num >= self.cameras:
            raise IndexError("list index out of range")  # what picamera2 raises for a missing camera
        self.started = False
        self.closed = False
        self.config: dict[str, Any] = {}

    def create_video_configuration(self, main: dict, buffer_count: int, controls: dict) -> dict:
        return {"main": main, "buffer_count": buffer_count, "controls": controls}

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_array(self, stream: str) -> np.ndarray:
        width, height = self.config["main"]["size"]
        image = np.zeros((height, width, 3), np.uint8)
        image[:, :, 0] = 200  # blue
        return image

    def capture_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 16000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6), "LensPosition": 1.2}

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.controls = controls

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def test_picam_spec_parses_camera_size_and_rate() -> None:
    source = open_source("picam:0?width=640&height=480&fps=15")
    assert isinstance(source, PicameraSource) and source.spec == "picam:0"
    assert isinstance(open_source("picam:"), PicameraSource)
    with pytest.raises(SourceError, match="by number"):
        open_source("picam:front")


def test_frames_come_in_opencv_order_at_the_size_asked() -> None:
    made: list[FakePicamera2] = []

    def opener(camera: int) -> FakePicamera2:
        made.append(FakePicamera2(camera))
        return made[-1]

    source = PicameraSource(0, (640, 480), 15.0, opener=opener)
    source.open()
    frame = source.read()
    assert frame is not None and frame.image.shape == (480, 640, 3)
    assert frame.image[0, 0].tolist() == [200, 0, 0]  # B first, as cv2 expects
    assert made[0].config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert made[0].config["controls"] == {"FrameRate": 15.0}
    source.close()
    assert made[0].closed and source.read() is None


def test_a_missing_pi_camera_is_a_source_error() -> None:
    source = PicameraSource(1, opener=FakePicamera2)
    with pytest.raises(SourceError, match="does not start"):
        source.open()
    assert PicameraSource(0).spec == "picam:0" and PICAM_SIZE == (2304, 1296)


def test_without_picamera2_installed_it_says_what_to_install() -> None:
    pytest.importorskip("cv2")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(SourceError, match="python3-picamera2"):
            PicameraSource(0).open()
    else:
        pytest.skip("picamera2 is installed here")


def test_exposure_white_balance_and_focus_are_locked_where_they_settled() -> None:
    made: list[FakePicamera2] = []

    def opener(camera: int) -> FakePicamera2:
        made.append(FakePicamera2(camera))
        return made[-1]

    source = PicameraSource(0, (64, 48), opener=opener)
    source.open()
    for _ in range(SETTLE_FRAMES - 1):
        source.read()
    assert not hasattr(made[0], "controls")  # the automatics settle first
    source.read()
    assert made[0].controls == {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": 16000,
        "AnalogueGain": 2.5,
        "ColourGains": (1.9, 1.6),
        "AfMode": 0,
        "LensPosition": 1.2,
    }
