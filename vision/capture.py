"""Where frames come from: a camera, a video file, a folder of images, or a simulated table.

Chosen by a spec in the settings, like pyserial's URLs::

    camera:0                       the first USB / Pi camera (V4L2 index), or camera:/dev/video2
    camera:0?width=1280&height=720&fps=15
    picam:0                        the Raspberry Pi camera (CSI) through picamera2/libcamera, where
                                   installed (apt install python3-picamera2); picam:0?width=2304&height=1296
    file:/path/replay.mp4          a video, played once (file:...?loop=1 plays it forever)
    folder:/path/frames            the images of a folder in name order (?loop=1 to repeat)
    sim:                           a rendered table (vision.camera_table), for the demo and tests

Every source opens in ``open()`` and never in ``__init__`` (no I/O on construction). ``read()``
returns the next frame, or None when there is none to give right now (a file that ended, a camera
that is reconnecting); ``finished`` says whether any more will ever come.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp", ".tif", ".tiff")
SETTLE_FRAMES = 30
"""Frames a camera runs on its automatic exposure, white balance and focus before they are locked
(about 2 s at 15 fps: what the automatics need to settle on the lit mat)."""
V4L2_MANUAL_EXPOSURE = 1
"""``CAP_PROP_AUTO_EXPOSURE`` under Linux's V4L2: 1 is manual, 3 aperture priority (automatic)."""
RECONNECT_SECONDS = (0.5, 1.0, 2.0, 5.0)
"""Waits between attempts to reopen a camera that failed (the last one repeats)."""


class SourceError(ValueError):
    """A frame source spec is malformed, or names something that is not there."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    """BGR, height × width × 3."""
    at: float
    """Monotonic seconds on the host when the frame was read."""
    index: int


class FrameSource(Protocol):
    spec: str

    def open(self) -> None: ...

    def read(self) -> Frame | None: ...

    @property
    def finished(self) -> bool: ...

    def close(self) -> None: ...


class CameraSource:
    """A USB or Pi camera through ``cv2.VideoCapture``; reconnects when it stops giving frames.

    Exposure, white balance and focus run automatically for ``SETTLE_FRAMES`` frames after opening,
    then are locked where they settled (``lock=False``: ``?lock=0`` in the spec, leaves them
    automatic). A webcam's automatics hunt when a hand or a sleeve passes over the mat: every card's
    pixels then change at once, the slot reader reads every place again (cost) and a card's colours
    drift from its enrolled face. A control the camera does not offer stays automatic, said once in
    the log."""

    def __init__(
        self,
        device: int | str,
        size: tuple[int, int] | None = None,
        fps: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        opener: Callable[[int | str], cv2.VideoCapture] = cv2.VideoCapture,
        lock: bool = True,
    ) -> None:
        self.spec = f"camera:{device}"
        self._lock = lock
        self._since_open = 0
        self.locked: dict[str, float] = {}
        """The controls locked, with their values (empty until they are)."""
        self._device = device
        self._size = size
        self._fps = fps
        self._clock = clock
        self._sleep = sleep
        self._opener = opener
        self._capture: cv2.VideoCapture | None = None
        self._failures = 0
        self._index = 0

    @property
    def finished(self) -> bool:
        return False  # a camera that is gone may come back: it is retried, never finished

    def open(self) -> None:
        capture = self._opener(self._device)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"{self.spec}: no camera there (is it plugged in, and free?)")
        # One buffered frame: a slow reader then gets the newest frame, not one from a second ago.
        capture.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if self._size is not None:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self._size[0])
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self._size[1])
        if self._fps is not None:
            capture.set(cv2.CAP_PROP_FPS, self._fps)
        self._capture = capture
        self._since_open = 0
        self.locked = {}

    def _lock_controls(self, capture: cv2.VideoCapture) -> None:
        """Exposure, white balance and focus held where the automatics settled."""
        controls = (
            ("exposure", cv2.CAP_PROP_AUTO_EXPOSURE, V4L2_MANUAL_EXPOSURE, cv2.CAP_PROP_EXPOSURE),
            ("white balance", cv2.CAP_PROP_AUTO_WB, 0, cv2.CAP_PROP_WB_TEMPERATURE),
            ("focus", cv2.CAP_PROP_AUTOFOCUS, 0, cv2.CAP_PROP_FOCUS),
        )
        automatic = []
        for name, switch, manual, value_prop in controls:
            value = capture.get(value_prop)
            if capture.set(switch, manual) and capture.set(value_prop, value):
                self.locked[name] = float(value)
            else:
                automatic.append(name)
        log.info(
            "%s: locked %s%s",
            self.spec,
            ", ".join(f"{k} at {v:g}" for k, v in self.locked.items()) or "nothing",
            f" ({', '.join(automatic)}: the camera does not let it be set, left automatic)"
            if automatic
            else "",
        )

    def read(self) -> Frame | None:
        if self._capture is not None:
            ok, image = self._capture.read()
            if ok and image is not None:
                self._failures = 0
                self._index += 1
                self._since_open += 1
                if self._lock and self._since_open == SETTLE_FRAMES:
                    self._lock_controls(self._capture)
                return Frame(image, self._clock(), self._index)
            log.warning("%s stopped giving frames: reconnecting", self.spec)
            self._capture.release()
            self._capture = None
        self._reconnect()
        return None

    def _reconnect(self) -> None:
        wait = RECONNECT_SECONDS[min(self._failures, len(RECONNECT_SECONDS) - 1)]
        self._failures += 1
        self._sleep(wait)
        try:
            self.open()
        except SourceError as exc:
            upcoming = RECONNECT_SECONDS[min(self._failures, len(RECONNECT_SECONDS) - 1)]
            log.warning("%s (attempt %d; next in %.1f s)", exc, self._failures, upcoming)
        else:
            log.info("%s reconnected", self.spec)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


PICAM_SIZE = (2304, 1296)
"""The Camera Module 3's full field of view binned 2 × 2 (its 56 fps sensor mode): 1.26 px/mm over a
4-player mat, the least at which every card of a text-heavy deck is read (docs/vision.md,
"Geometry"). At the Camera Module 2's 1640 × 1232 a 4-player mat gets about 0.9 px/mm."""


class PicameraSource:
    """A Raspberry Pi camera through picamera2 (libcamera): BGR frames, as OpenCV's cameras give.

    picamera2 is imported in ``open`` only (it exists as a Debian package on Raspberry Pi OS, not on a
    laptop or in CI); ``opener`` stands in for ``picamera2.Picamera2`` in tests. "RGB888" is
    picamera2's 24-bit format whose bytes are ordered B, G, R: OpenCV's order, no conversion.
    Exposure, gain, white balance and focus are locked after ``SETTLE_FRAMES`` as ``CameraSource``'s
    are, to the values libcamera reports in the frame's metadata.
    """

    def __init__(
        self,
        camera: int,
        size: tuple[int, int] | None = None,
        fps: float | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        opener: Callable[[int], object] | None = None,
    ) -> None:
        self.spec = f"picam:{camera}"
        self._since_open = 0
        self.locked: dict[str, Any] = {}
        self._camera = camera
        self._size = size or PICAM_SIZE
        self._fps = fps
        self._clock = clock
        self._opener = opener
        self._picam: object | None = None
        self._index = 0

    @property
    def finished(self) -> bool:
        return False

    def open(self) -> None:
        opener = self._opener
        if opener is None:
            try:
                from picamera2 import Picamera2
            except ImportError as exc:
                raise SourceError(
                    f"{self.spec}: picamera2 is not installed (apt install python3-picamera2)"
                ) from exc
            opener = Picamera2
        try:
            picam: Any = opener(self._camera)
            controls = {"FrameRate": self._fps} if self._fps else {}
            config = picam.create_video_configuration(
                main={"size": self._size, "format": "RGB888"}, buffer_count=2, controls=controls
            )
            picam.configure(config)
            picam.start()
        except (IndexError, RuntimeError, OSError) as exc:  # no such camera, or another program holds it
            raise SourceError(f"{self.spec}: the Pi camera does not start ({exc})") from exc
        self._picam = picam
        self._since_open = 0

    def read(self) -> Frame | None:
        picam: Any = self._picam
        if picam is None:
            return None
        try:
            image = picam.capture_array("main")
        except RuntimeError as exc:
            log.warning("%s stopped giving frames: %s", self.spec, exc)
            return None
        self._index += 1
        self._since_open += 1
        if self._since_open == SETTLE_FRAMES:
            self._lock_controls(picam)
        return Frame(np.ascontiguousarray(image[:, :, :3]), self._clock(), self._index)

    def _lock_controls(self, picam: Any) -> None:
        try:
            metadata = picam.capture_metadata()
        except RuntimeError as exc:
            log.warning("%s: exposure and white balance left automatic (%s)", self.spec, exc)
            return
        held = {
            key: metadata[key] for key in ("ExposureTime", "AnalogueGain", "ColourGains") if key in metadata
        }
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False, **held}
        if "LensPosition" in metadata:  # a Camera Module 3's autofocus: held where it focused
            controls.update(AfMode=0, LensPosition=metadata["LensPosition"])  # 0: libcamera's manual mode
        picam.set_controls(controls)
        self.locked = controls
        log.info("%s: locked %s", self.spec, ", ".join(f"{k} {v}" for k, v in held.items()))

    def close(self) -> None:
        picam: Any = self._picam
        if picam is not None:
            picam.stop()
            picam.close()
            self._picam = None


class VideoFileSource:
    """The frames of a video file, in order; once, or again and again with ``loop``."""

    def __init__(self, path: Path, loop: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = f"file:{path}"
        self._path = path
        self._loop = loop
        self._clock = clock
        self._capture: cv2.VideoCapture | None = None
        self._index = 0
        self._ended = False

    @property
    def finished(self) -> bool:
        return self._ended

    def open(self) -> None:
        if not self._path.is_file():
            raise SourceError(f"{self.spec}: no such file")
        capture = cv2.VideoCapture(str(self._path))
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"{self.spec}: not a video OpenCV can read")
        self._capture = capture

    def read(self) -> Frame | None:
        if self._capture is None or self._ended:
            return None
        ok, image = self._capture.read()
        if not ok and self._loop and self._index > 0:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, image = self._capture.read()
        if not ok:
            self._ended = True
            return None
        self._index += 1
        return Frame(image, self._clock(), self._index)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


class FolderSource:
    """The images of a folder in name order (a replay of saved frames)."""

    def __init__(self, path: Path, loop: bool = False, clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = f"folder:{path}"
        self._path = path
        self._loop = loop
        self._clock = clock
        self._files: list[Path] = []
        self._next = 0
        self._index = 0

    @property
    def finished(self) -> bool:
        return not self._loop and self._next >= len(self._files)

    def open(self) -> None:
        if not self._path.is_dir():
            raise SourceError(f"{self.spec}: no such folder")
        self._files = sorted(p for p in self._path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceError(f"{self.spec}: no images ({', '.join(IMAGE_SUFFIXES)}) in it")

    def read(self) -> Frame | None:
        while not self.finished and self._files:
            path = self._files[self._next % len(self._files)]
            self._next += 1
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                log.warning("%s: %s is not an image OpenCV can read, skipped", self.spec, path.name)
                continue
            self._index += 1
            return Frame(image, self._clock(), self._index)
        return None

    def close(self) -> None:
        self._files = []


def open_source(spec: str, simulated: Callable[[], FrameSource] | None = None) -> FrameSource:
    """The source a spec names (not yet opened). ``simulated`` builds the ``sim:`` source (the
    caller owns the simulated table it renders); SourceError with a sentence for a bad spec."""
    scheme, sep, rest = spec.partition(":")
    if not sep:
        raise SourceError(
            f"frame source {spec!r}: expected camera:N, picam:N, file:PATH, folder:PATH or sim:"
        )
    target, _, query = rest.partition("?")
    options = {key: values[-1] for key, values in parse_qs(query).items()}
    loop = options.get("loop", "0") in ("1", "true", "yes")
    if scheme == "camera":
        device: int | str = int(target) if target.isdigit() else target
        if device == "":
            raise SourceError(f"frame source {spec!r}: name the camera (camera:0 or camera:/dev/video0)")
        size = None
        if "width" in options or "height" in options:
            size = (_number(spec, options, "width", 1280), _number(spec, options, "height", 720))
        fps = float(_number(spec, options, "fps", 0)) or None
        return CameraSource(device, size, fps, lock=options.get("lock", "1") not in ("0", "false", "no"))
    if scheme == "picam":
        if target and not target.isdigit():
            raise SourceError(f"frame source {spec!r}: name the Pi camera by number (picam:0)")
        size = None
        if "width" in options or "height" in options:
            size = (
                _number(spec, options, "width", PICAM_SIZE[0]),
                _number(spec, options, "height", PICAM_SIZE[1]),
            )
        fps = float(_number(spec, options, "fps", 0)) or None
        return PicameraSource(int(target or 0), size, fps)
    if scheme == "file":
        return VideoFileSource(Path(target), loop)
    if scheme == "folder":
        return FolderSource(Path(target), loop)
    if scheme == "sim":
        if simulated is None:
            raise SourceError("frame source 'sim:' needs a simulated table (companion demo --camera)")
        return simulated()
    raise SourceError(f"frame source {spec!r}: unknown kind {scheme!r} (camera, picam, file, folder or sim)")


def _number(spec: str, options: dict[str, str], key: str, default: int) -> int:
    value = options.get(key, str(default))
    if not value.isdigit():
        raise SourceError(f"frame source {spec!r}: {key} must be a whole number, got {value!r}")
    return int(value)
