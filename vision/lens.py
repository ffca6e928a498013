"""The camera's lens: barrel distortion measured once and taken out of every point read.

Cheap USB cameras bend straight lines near the frame's corners (barrel distortion): the mat's
homography, fitted to the markers at the mat's edges, then puts a corner slot's card several pixels
off. ``Lens`` holds OpenCV's camera model (``matrix`` and ``distortion``: k1, k2, p1, p2, k3) and
moves points between the frame (distorted) and an ideal pinhole camera's pixels; frames themselves
are never undistorted (a remap of every pixel of every frame): the recogniser asks where a mat
point lies in the frame (``distort``), and the markers' corners are undistorted before the
homography is fitted.

It is measured from the mat itself (``from_mat``: the markers' corners in one or more views, whose
positions on the mat are known) or from views of a printed checkerboard (``from_checkerboard``,
more points over the whole frame), and kept as JSON beside the enrolled faces.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

NOMINAL_HFOV = 70.0
"""Horizontal field of view assumed before calibration, in degrees (a 1080p webcam's is 65-78°)."""


class LensError(ValueError):
    """A lens file cannot be read, or a calibration has too little to go on."""


@dataclass(frozen=True)
class Lens:
    size: tuple[int, int]
    """The frame's (width, height) it was measured at."""
    matrix: np.ndarray
    """3×3 camera matrix (focal lengths, principal point) in pixels."""
    distortion: np.ndarray
    """k1, k2, p1, p2, k3 (OpenCV's order)."""
    error_px: float = 0.0
    """RMS reprojection error of the calibration, in pixels."""
    source: str = ""
    """What it was measured from ("mat", "checkerboard")."""

    @staticmethod
    def nominal(size: tuple[int, int]) -> Lens:
        """A distortion-free lens of the nominal field of view (what a frame is read as uncalibrated)."""
        width, height = size
        focal = width / 2 / math.tan(math.radians(NOMINAL_HFOV / 2))
        matrix = np.array([[focal, 0, (width - 1) / 2], [0, focal, (height - 1) / 2], [0, 0, 1]], np.float64)
        return Lens(size, matrix, np.zeros(5), 0.0, "nominal")

    def for_size(self, size: tuple[int, int]) -> Lens:
        """The same lens for frames of another resolution of the same field of view (a camera asked
        for 1280 × 720 after it was calibrated at 1920 × 1080)."""
        if tuple(size) == tuple(self.size):
            return self
        sx, sy = size[0] / self.size[0], size[1] / self.size[1]
        matrix = np.diag([sx, sy, 1.0]) @ self.matrix
        return Lens(tuple(size), matrix, self.distortion.copy(), self.error_px, self.source)  # type: ignore[arg-type]

    @property
    def is_ideal(self) -> bool:
        return not np.any(self.distortion)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Frame pixels (N×2) → where an ideal pinhole camera would have seen them (N×2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        if self.is_ideal:
            return pts.reshape(-1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix).reshape(-1, 2)

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Ideal pinhole pixels (N×2, any leading shape) → where the lens puts them in the frame."""
        pts = np.asarray(points, np.float64)
        if self.is_ideal:
            return pts
        fx, fy, cx, cy = self.matrix[0, 0], self.matrix[1, 1], self.matrix[0, 2], self.matrix[1, 2]
        k1, k2, p1, p2, k3 = (float(v) for v in self.distortion.ravel()[:5])
        x, y = (pts[..., 0] - cx) / fx, (pts[..., 1] - cy) / fy
        r2 = x * x + y * y
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xd = x * radial + 2 * p1 * x * y + p2 * (r2 + 2 * x * x)
        yd = y * radial + p1 * (r2 + 2 * y * y) + 2 * p2 * x * y
        return np.stack([xd * fx + cx, yd * fy + cy], axis=-1)

    # ------------------------------------------------------------------------------- on disk

    def to_json(self) -> dict[str, object]:
        return {
            "size": list(self.size),
            "matrix": self.matrix.round(6).tolist(),
            "distortion": [round(float(v), 8) for v in self.distortion.ravel()],
            "error_px": round(self.error_px, 4),
            "source": self.source,
        }

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial")
        partial.write_text(json.dumps(self.to_json(), indent=1) + "\n")
        partial.replace(path)

    @staticmethod
    def load(path: Path) -> Lens:
        try:
            data = json.loads(path.read_text())
            size = (int(data["size"][0]), int(data["size"][1]))
            matrix = np.array(data["matrix"], np.float64).reshape(3, 3)
            distortion = np.array(data["distortion"], np.float64).ravel()
        except FileNotFoundError:
            raise LensError(f"no lens calibration at {path}") from None
        except (OSError, ValueError, KeyError, TypeError, IndexError) as exc:
            raise LensError(f"{path}: not a lens calibration ({exc})") from None
        if distortion.size < 5 or not np.all(np.isfinite(matrix)) or not np.all(np.isfinite(distortion)):
            raise LensError(f"{path}: not a lens calibration (five distortion terms expected)")
        if min(size) < 16 or matrix[0, 0] <= 0 or matrix[1, 1] <= 0:
            raise LensError(f"{path}: not a lens calibration (size or focal length)")
        return Lens(
            size, matrix, distortion[:5], float(data.get("error_px", 0.0)), str(data.get("source", ""))
        )


def from_mat(
    views: Sequence[tuple[np.ndarray, np.ndarray]], size: tuple[int, int], radial_terms: int = 1
) -> Lens:
    """The lens from views of the flat mat: each view is (frame points N×2, mat millimetres N×2) of
    the markers' corners read in it. LensError when there is too little to fit.

    A flat mat seen from above pins down how the lens bends, but hardly its focal length (a nearer
    camera with a longer lens sees the same), so the model is the frame's own: radial distortion
    about the frame's centre, the radius counted in half-diagonals. k1 (and k2 with
    ``radial_terms`` 2) is the one whose undistorted corners lie best on each view's homography:
    a search over k1 then a finer one, with no pose or focal length to go astray."""
    usable = [
        (np.asarray(image, np.float64).reshape(-1, 2), np.asarray(mat, np.float64).reshape(-1, 2))
        for image, mat in views
        if len(np.asarray(image).reshape(-1, 2)) >= 16
    ]
    if not usable:
        raise LensError("a lens calibration needs at least four markers in view")
    width, height = size
    half = math.hypot(width / 2, height / 2)
    matrix = np.array([[half, 0, (width - 1) / 2], [0, half, (height - 1) / 2], [0, 0, 1]], np.float64)

    def lens(k1: float, k2: float = 0.0) -> Lens:
        return Lens(tuple(size), matrix, np.float64([k1, k2, 0, 0, 0]), 0.0, "mat")  # type: ignore[arg-type]

    def error(candidate: Lens) -> float:
        total, count = 0.0, 0
        for image, mat in usable:
            ideal = candidate.undistort(image)
            to_mat, _ = cv2.findHomography(ideal, mat, 0)
            if to_mat is None:
                return math.inf
            back = cv2.perspectiveTransform(mat.reshape(-1, 1, 2), np.linalg.inv(to_mat)).reshape(-1, 2)
            placed = candidate.distort(back)
            total += float(np.sum((placed - image) ** 2))
            count += len(image)
        return math.sqrt(total / count)

    best_k1 = min(np.linspace(-0.4, 0.2, 25), key=lambda k: error(lens(float(k))))
    step = 0.025
    for _ in range(4):  # finer each time, around the best so far
        best_k1 = min(np.linspace(best_k1 - step, best_k1 + step, 11), key=lambda k: error(lens(float(k))))
        step /= 5
    best = lens(float(best_k1))
    if radial_terms >= 2:
        k2 = min(np.linspace(-0.3, 0.3, 31), key=lambda k: error(lens(float(best_k1), float(k))))
        best = lens(float(best_k1), float(k2))
    rms = error(best)
    if not math.isfinite(rms):
        raise LensError("the lens could not be fitted (the markers give no homography)")
    return Lens(best.size, best.matrix, best.distortion, rms, "mat")


def from_checkerboard(
    frames: Sequence[np.ndarray], pattern: tuple[int, int], square_mm: float
) -> tuple[Lens, int]:
    """The lens from frames of a printed checkerboard of ``pattern`` inner corners (columns, rows):
    (lens, views used). LensError when fewer than three views show the whole board."""
    columns, rows = pattern
    board = np.zeros((columns * rows, 3), np.float32)
    board[:, :2] = np.mgrid[0:columns, 0:rows].T.reshape(-1, 2) * square_mm
    objects, images = [], []
    size = None
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 30, 0.01)
    for frame in frames:
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        size = (grey.shape[1], grey.shape[0])
        found, corners = cv2.findChessboardCorners(grey, pattern, flags=cv2.CALIB_CB_ADAPTIVE_THRESH)
        if found:
            corners = cv2.cornerSubPix(grey, corners, (5, 5), (-1, -1), criteria)
            objects.append(board)
            images.append(corners)
    if size is None or len(objects) < 3:
        raise LensError(
            f"the checkerboard ({columns} × {rows} inner corners) was found in {len(objects)} views; 3 needed"
        )
    flags = cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_FIX_K3
    return _calibrate(objects, images, size, flags, "checkerboard"), len(objects)


def _calibrate(
    objects: list[np.ndarray], images: list[np.ndarray], size: tuple[int, int], flags: int, source: str
) -> Lens:
    guess = Lens.nominal(size)
    try:
        error, matrix, distortion, _, _ = cv2.calibrateCamera(
            objects, images, size, guess.matrix.copy(), np.zeros(5), flags=flags
        )
    except cv2.error as exc:
        raise LensError(f"the lens could not be fitted ({exc.err})") from None
    distortion = np.asarray(distortion, np.float64).ravel()[:5]
    if not np.all(np.isfinite(distortion)) or not math.isfinite(error) or matrix[0, 0] <= 0:
        raise LensError("the lens could not be fitted (no sound solution)")
    return Lens(tuple(size), np.asarray(matrix, np.float64), distortion, float(error), source)  # type: ignore[arg-type]
