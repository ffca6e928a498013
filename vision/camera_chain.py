"""What a real camera does to the light before the recogniser sees a frame, for rendered scenes.

A rendered table is composed sharp and finer than the camera's pixels (``SUPERSAMPLE`` times), then
``CameraChain.apply`` turns it into a camera's frame the way the light goes through a camera:

1. **optics**: defocus (a Gaussian spot), motion blur (a line), then averaged down to the sensor's
   pixels, and barrel distortion (``k1`` of the radius over the half-diagonal: cheap USB lenses bend
   straight lines near the corners);
2. **light and sensor**: the scene's light in linear units (sRGB decoded), times the lighting (a
   lamp's gradient, vignetting, the colour cast, the exposure); photons counted with shot noise
   (``electrons_at_white``: few electrons is a dim room, a high gain), read noise on top;
3. **processing**: the camera's tone curve (sRGB, bent by ``gamma``: the enrolled faces saw
   another one), 8 bits, and JPEG at ``jpeg_quality`` (USB webcams send MJPEG).

Every step is a field with the value a decent webcam in a lit living room has; the bench sweeps one
field at a time far past that (docs/vision.md, "Conditions"). Nothing here is used on real frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SUPERSAMPLE = 3
"""Rendered scenes are composed this many times finer than the frame, then averaged down: a card
edge or a title's stroke then falls across pixels as light does, instead of aliasing."""


@dataclass(frozen=True)
class CameraChain:
    focus_sigma: float = 0.6
    """Gaussian blur of the optics and focus, in frame pixels (0.5-0.8 is a focused webcam)."""
    motion_px: float = 0.0
    """Length of a straight motion blur in frame pixels (the camera shaken, a table knocked)."""
    motion_angle: float = 0.0
    k1: float = 0.0
    """Radial distortion over the half-diagonal: -0.1 is a cheap USB lens's barrel, 0 none."""
    vignetting: float = 0.0
    """Light lost at the frame's corners (0.3: the corners get 70 %)."""
    exposure: float = 0.85
    """White paper's level as a fraction of full scale (auto-exposure keeps some headroom)."""
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    """Gains on blue, green, red: the light's colour the white balance did not take out."""
    electrons_at_white: float = 5000.0
    """Photons counted at white in one pixel: 5000 in good light; a few hundred is a dim room."""
    read_noise: float = 1.5
    """The sensor's own noise in 8-bit levels."""
    gamma: float = 1.0
    """The camera's tone curve bent by this power (1: sRGB like the enrolled faces)."""
    jpeg_quality: int | None = 90
    """None: no compression (a raw frame)."""

    def apply(
        self,
        sharp: np.ndarray,
        rng: np.random.Generator,
        scale: int = SUPERSAMPLE,
        light: np.ndarray | None = None,
    ) -> np.ndarray:
        """The camera's BGR uint8 frame of a BGR uint8 ``sharp`` scene rendered ``scale`` times finer;
        ``light`` (frame-sized, one gain or one per channel) is the scene's lighting: a lamp's
        gradient, a spot, a shadow."""
        blurred = sharp
        blur = self.focus_sigma * scale
        if blur > 0.3:  # the spot is blurred in the 8-bit image: the same to the recogniser, far cheaper
            blurred = cv2.GaussianBlur(blurred, (0, 0), blur)
        if self.motion_px > 0.5:
            blurred = cv2.filter2D(blurred, -1, motion_kernel(self.motion_px * scale, self.motion_angle))
        if scale > 1:
            height, width = blurred.shape[0] // scale, blurred.shape[1] // scale
            blurred = cv2.resize(
                blurred[: height * scale, : width * scale], (width, height), interpolation=cv2.INTER_AREA
            )
        if self.k1:
            blurred = distort(blurred, self.k1)
        linear = decode_srgb(blurred)
        gain = np.float32(self.cast) * np.float32(self.exposure)
        if self.vignetting:
            linear *= vignette(linear.shape[:2], self.vignetting)[..., None]
        if light is not None:
            linear *= light if light.ndim == 3 else light[..., None]
        linear *= gain
        # Photon shot noise (its variance is the count), in the Gaussian form: a Poisson draw per pixel
        # costs ten times more and differs only below a few electrons.
        electrons = np.maximum(linear, 0) * self.electrons_at_white
        shot = rng.standard_normal(linear.shape, dtype=np.float32) * np.sqrt(electrons)
        counted = (electrons + shot) / self.electrons_at_white
        encoded = encode_srgb(counted, self.gamma) * 255
        if self.read_noise:
            encoded += rng.standard_normal(encoded.shape, dtype=np.float32) * self.read_noise
        frame = np.clip(encoded + 0.5, 0, 255).astype(np.uint8)
        if self.jpeg_quality is not None:
            frame = jpeg(frame, self.jpeg_quality)
        return frame


def decode_srgb(image: np.ndarray) -> np.ndarray:
    """uint8 sRGB → float32 linear light, 0..1."""
    return DECODE[image]


def encode_srgb(linear: np.ndarray, gamma: float = 1.0) -> np.ndarray:
    """Linear light → sRGB 0..1, the curve bent by ``gamma``."""
    clipped = np.clip(linear, 0, 1)
    low = clipped * 12.92
    high = 1.055 * np.power(clipped, 1 / 2.4) - 0.055
    encoded = np.where(clipped <= 0.0031308, low, high).astype(np.float32)
    return np.power(encoded, gamma) if gamma != 1.0 else encoded


def _decode_table() -> np.ndarray:
    v = np.arange(256, dtype=np.float64) / 255
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4).astype(np.float32)


DECODE = _decode_table()


def jpeg(frame: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError("JPEG encoding failed")
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def motion_kernel(length: float, angle: float) -> np.ndarray:
    """A normalised line of ``length`` pixels at ``angle`` degrees."""
    size = math.ceil(length) | 1
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    dx, dy = math.cos(math.radians(angle)) * length / 2, math.sin(math.radians(angle)) * length / 2
    cv2.line(
        kernel,
        (round((centre - dx) * 16), round((centre - dy) * 16)),
        (round((centre + dx) * 16), round((centre + dy) * 16)),
        1.0,
        1,
        cv2.LINE_AA,
        shift=4,
    )
    return kernel / max(float(kernel.sum()), 1e-6)


def vignette(shape: tuple[int, int], strength: float) -> np.ndarray:
    height, width = shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xs - width / 2) ** 2 + (ys - height / 2) ** 2) / ((width / 2) ** 2 + (height / 2) ** 2)
    return (1 - strength * r2).astype(np.float32)


def distort(image: np.ndarray, k1: float) -> np.ndarray:
    """The image as a lens with radial distortion ``k1`` shows it: a scene point at radius r (over
    the half-diagonal, from the centre) lands at r (1 + k1 r²), OpenCV's model (negative: barrel)."""
    height, width = image.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    cx, cy = (width - 1) / 2, (height - 1) / 2
    half = math.hypot(width / 2, height / 2)
    nx, ny = (xs - cx) / half, (ys - cy) / half
    shown = np.sqrt(nx * nx + ny * ny)
    seen = shown.copy()
    for _ in range(8):  # the scene radius whose image is at this pixel's radius (fixed point)
        seen = shown / (1 + k1 * seen * seen)
    factor = seen / np.maximum(shown, 1e-9)
    return cv2.remap(
        image,
        cx + nx * factor * half,
        cy + ny * factor * half,
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )


def distort_points(points: np.ndarray, size: tuple[int, int], k1: float) -> np.ndarray:
    """Where ``distort`` puts scene points (..., 2) of a frame of ``size`` (width, height)."""
    if not k1:
        return np.asarray(points, np.float64)
    width, height = size
    pts = np.asarray(points, np.float64)
    centre = np.array([(width - 1) / 2, (height - 1) / 2])
    half = math.hypot(width / 2, height / 2)
    normal = (pts - centre) / half
    r2 = (normal**2).sum(axis=-1, keepdims=True)
    return centre + normal * (1 + k1 * r2) * half
