"""What a camera over the table sees of the mat: its height, and the pixels each millimetre gets.

A camera looks straight down at the mat, the mat's long side along the frame's width, with a margin
of table around it (``MARGIN``: a camera is never aimed to the millimetre). Its field of view then
sets how high it must hang and how many pixels a millimetre of the mat gets: the resolution every
card is read at (``vision.slots``). ``framing`` says it for one camera and mat, ``CAMERAS`` lists the
cameras the companion supports, each with its published field of view.

``framing(..., part=0.5)`` says what a camera over half a mat would get; the service reads one camera
per mat (docs/vision.md, "Geometry").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from vision.zones import MatLayout

MARGIN = 0.04
"""Table left around the mat on every side, as a fraction of the mat's size."""
READ_PX_PER_MM = 0.6
"""Least resolution at which the slot reader names a lying card whose art differs from the others'
reliably (measured: docs/vision.md, "Geometry")."""
ACCURATE_PX_PER_MM = 1.25
"""Least resolution at which the slot reader names 99.5 % of visible cards of every look, cards of
one style with much text and a small art box included (measured on held-out sets: docs/vision.md,
"Geometry"); under it such cards go unread (never misnamed)."""
TITLE_PX_PER_MM = 2.0
"""Least resolution at which two cards that differ only by their titles are told apart (measured)."""


@dataclass(frozen=True)
class Camera:
    name: str
    title: str
    resolution: tuple[int, int]
    hfov: float
    """Horizontal field of view, degrees (published)."""
    vfov: float
    fps: float
    source: str
    """Where the figures come from."""


CAMERAS = (
    Camera(
        "usb-720p",
        "USB webcam at 1280 × 720",
        (1280, 720),
        70.4,
        43.3,
        30,
        "Logitech C920 data sheet: 78° diagonal (70.4° × 43.3°); 720p is its MJPEG mode most webcams share",
    ),
    Camera(
        "usb-1080p",
        "USB webcam at 1920 × 1080",
        (1920, 1080),
        70.4,
        43.3,
        30,
        "Logitech C920 data sheet: 1080p30 MJPEG, 78° diagonal",
    ),
    Camera(
        "picam3-2304",
        "Pi Camera Module 3 at 2304 × 1296 (2 × 2 binned)",
        (2304, 1296),
        66.0,
        41.0,
        56,
        "Raspberry Pi Camera Module 3 product brief: 66° × 41°, IMX708 sensor mode 2304 × 1296 at 56 fps",
    ),
    Camera(
        "picam3-full",
        "Pi Camera Module 3 at 4608 × 2592 (12 MP)",
        (4608, 2592),
        66.0,
        41.0,
        14,
        "Raspberry Pi Camera Module 3 product brief: 66° × 41°, full sensor 4608 × 2592 at 14 fps",
    ),
    Camera(
        "picam3-wide",
        "Pi Camera Module 3 Wide at 2304 × 1296",
        (2304, 1296),
        102.0,
        67.0,
        56,
        "Raspberry Pi Camera Module 3 Wide product brief: 102° × 67°",
    ),
)


def camera(name: str) -> Camera:
    for known in CAMERAS:
        if known.name == name:
            return known
    raise KeyError(f"no camera {name!r} (cameras: {', '.join(c.name for c in CAMERAS)})")


@dataclass(frozen=True)
class Framing:
    camera: Camera
    mat_mm: tuple[float, float]
    """The part of the mat framed: (long side, short side) in millimetres."""
    height_mm: float
    """Lens above the mat, looking straight down, for the mat and its margin to fill the frame."""
    px_per_mm: float
    card_px: tuple[float, float]
    gap_px: float

    @property
    def readable(self) -> bool:
        return self.px_per_mm >= READ_PX_PER_MM

    @property
    def titles(self) -> bool:
        return self.px_per_mm >= TITLE_PX_PER_MM


def framing(layout: MatLayout, cam: Camera, part: float = 1.0, gap_mm: float | None = None) -> Framing:
    """How ``cam`` sees ``layout`` (or ``part`` of its length, for one camera of several)."""
    long_mm = max(layout.width_mm, layout.height_mm) * part
    short_mm = min(layout.width_mm, layout.height_mm)
    if part < 1 and long_mm < short_mm:  # a part may be wider than long: the frame turns with it
        long_mm, short_mm = short_mm, long_mm
    span_w = long_mm * (1 + 2 * MARGIN)
    span_h = short_mm * (1 + 2 * MARGIN)
    tan_h, tan_v = math.tan(math.radians(cam.hfov / 2)), math.tan(math.radians(cam.vfov / 2))
    height = max(span_w / (2 * tan_h), span_h / (2 * tan_v))
    px_per_mm = cam.resolution[0] / (2 * height * tan_h)
    card_w, card_h = layout.card_mm
    gap = gap_mm if gap_mm is not None else 8.0
    return Framing(
        cam, (long_mm, short_mm), height, px_per_mm, (card_w * px_per_mm, card_h * px_per_mm), gap * px_per_mm
    )
