"""Where exactly a card lies near the place the mat expects it: its centre and turn, in millimetres.

A card is laid by hand on a printed outline: a few millimetres off, turned a few degrees. Its size is
known (the mat's ``[card]``), so only its centre and its turn are looked for. Across each of its four
sides, profiles of colour are sampled from the frame (through the mat's homography and the lens)
and normalised by the paper's white around the place; a side's edge is a step from the card's ink
inside to the paper outside. That test is what keeps a neighbour out: a neighbour's near edge steps
the other way (paper inside, ink outside), and a side that touches a neighbour (no paper beyond it)
is simply not found. The sides found move the card: opposite sides found both centre it, one side
alone puts the card's known size beside it, and their slopes give its turn. A card with a white
border on white paper steps at its border's inner edge on every side alike, which centres it all
the same.

Everything is done for many cards at once: one ``cv2.remap`` of every profile point.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

Project = Callable[[np.ndarray], np.ndarray]
"""Mat millimetres (..., 2) → frame pixels (..., 2)."""

# The four sides in a card's own frame (u right, v down, origin at its centre), clockwise from the
# top: the unit normal pointing out of the card and the direction the side is walked (clockwise).
NORMALS = np.float64([[0, -1], [1, 0], [0, 1], [-1, 0]])
TANGENTS = np.float64([[1, 0], [0, 1], [-1, 0], [0, -1]])


@dataclass(frozen=True)
class Pose:
    """A card on the mat: its centre (mm) and its turn (radians, clockwise on the mat as printed)."""

    x: float
    y: float
    angle: float = 0.0

    def corners(self, size: tuple[float, float]) -> np.ndarray:
        """(4, 2) mm: the card's top-left, top-right, bottom-right, bottom-left."""
        w, h = size
        local = np.float64([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        return self.to_mat(local)

    def to_mat(self, local: np.ndarray) -> np.ndarray:
        """Points in the card's frame (mm from its centre, u right, v down) → mat millimetres."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        rotation = np.float64([[c, -s], [s, c]])
        return np.asarray(local, np.float64) @ rotation.T + (self.x, self.y)

    def row(self) -> np.ndarray:
        return np.float64([self.x, self.y, self.angle])

    @staticmethod
    def of(row: np.ndarray) -> Pose:
        return Pose(float(row[0]), float(row[1]), float(row[2]))

    def moved(self, du: float, dv: float, turn: float) -> Pose:
        """Moved by (du, dv) in its own frame and turned by ``turn``."""
        c, s = math.cos(self.angle), math.sin(self.angle)
        return Pose(self.x + c * du - s * dv, self.y + s * du + c * dv, self.angle + turn)


@dataclass(frozen=True)
class Edges:
    """What the profiles across a card's sides found."""

    found: np.ndarray
    """(cards, 4) bool: the side's edge was found (paper beyond it)."""
    offset: np.ndarray
    """(cards, 4) mm: how far out of the pose's side the edge lies (at the side's middle)."""
    slope: np.ndarray
    """(cards, 4) mm outward per unit walked along the profiles' span of the side."""
    strength: np.ndarray
    """(cards, 4) the edge's mean colour step (0 when not found)."""


@dataclass(frozen=True)
class LocateSettings:
    reach_mm: float = 9.0
    """How far either side of its expected side a card's edge is looked for."""
    refine_mm: float = 3.5
    """The second look at a card's sides, square to where the first put them, reaches this far."""
    profiles: int = 10
    """Profiles across each side (between 15 % and 85 % of it: the corners round off)."""
    ink: float = 0.2
    """A sample is ink, not paper, when a channel differs from the paper's white by this share."""
    step: float = 0.12
    """Least colour step (in shares of white, summed over channels) that counts as an edge."""
    agree_mm: float = 1.5
    """The profiles' edges of one side must lie this close to their median to count."""
    least: float = 0.4
    """Share of a side's profiles that must find its edge for the side to be found."""


def place_points(poses: np.ndarray, local: np.ndarray) -> np.ndarray:
    """Points in the cards' own frames (any shape ending in 2) → mat millimetres, for every pose of
    ``poses`` (cards, 3: x, y, angle): (cards, *local's shape)."""
    dtype = local.dtype if local.dtype == np.float32 else np.float64
    c, s = np.cos(poses[:, 2]).astype(dtype), np.sin(poses[:, 2]).astype(dtype)
    u, v = local[..., 0], local[..., 1]
    extra = (1,) * (local.ndim - 1)
    c, s = c.reshape(-1, *extra), s.reshape(-1, *extra)
    x = u[None] * c - v[None] * s + poses[:, 0].astype(dtype).reshape(-1, *extra)
    y = u[None] * s + v[None] * c + poses[:, 1].astype(dtype).reshape(-1, *extra)
    return np.stack([x, y], axis=-1)


def profile_local(size: tuple[float, float], settings: LocateSettings, step_mm: float) -> np.ndarray:
    """Every profile sample in a card's own frame: (4 sides, profiles, offsets, 2) millimetres, the
    profiles walked clockwise, the offsets from inside the card out."""
    w, h = size
    half = np.float64([h, w, h, w]) / 2  # each side's distance from the centre
    lengths = np.float64([w, h, w, h])
    count = round(2 * settings.reach_mm / step_mm) + 1
    offsets = (np.arange(count) - (count - 1) / 2) * step_mm
    along = np.linspace(-0.35, 0.35, settings.profiles)
    return NORMALS[:, None, None, :] * (half[:, None, None, None] + offsets[None, None, :, None]) + TANGENTS[
        :, None, None, :
    ] * (along[None, :, None, None] * lengths[:, None, None, None])


def locate(
    frame: np.ndarray,
    project: Project,
    poses: np.ndarray,
    size: tuple[float, float],
    white: np.ndarray,
    settings: LocateSettings,
    px_per_mm: float,
    cache: dict[tuple[object, ...], np.ndarray] | None = None,
) -> tuple[np.ndarray, Edges]:
    """Cards near ``poses`` (cards, 3) moved onto their sides: (poses, the second look's edges).

    Twice: the first look finds the card near its outline (samples a pixel apart, ``reach_mm``),
    the second fits its sides where it now lies, square to them, over a short reach (half a pixel
    apart, ``refine_mm``). ``white`` (cards, 3) is the paper's colour around each card; ``cache``
    keeps the profiles' layout between calls."""
    refine = replace(settings, reach_mm=settings.refine_mm)
    edges = None
    for reach, step in ((settings, 1.0 / px_per_mm), (refine, 0.5 / px_per_mm)):
        step = float(np.clip(step, 0.25, 1.5))
        key = (size, reach.reach_mm, reach.profiles, round(step, 3))
        local = cache.get(key) if cache is not None else None
        if local is None:
            local = profile_local(size, reach, step).astype(np.float32)
            if cache is not None:
                cache[key] = local
        values, _ = sample(frame, project(place_points(poses, local)))
        edges = find_edges(values, white, reach, step)
        poses = corrected(poses, edges, size)
    assert edges is not None
    return poses, edges


def warp_quad(frame: np.ndarray, corners_px: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The frame sampled on a (columns, rows) ``size`` grid spanning a quad whose corners (frame
    pixels: first sample, last of the first row, last, first of the last row) are ``corners_px``."""
    columns, rows = size
    target = np.float32([[0, 0], [columns - 1, 0], [columns - 1, rows - 1], [0, rows - 1]])
    warp = cv2.getPerspectiveTransform(corners_px.astype(np.float32), target)
    return cv2.warpPerspective(frame, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def find_edges(samples: np.ndarray, white: np.ndarray, settings: LocateSettings, step_mm: float) -> Edges:
    """The edges in sampled profiles: ``samples`` (cards, 4, profiles, offsets, 3) BGR, ``white``
    (cards, 3) the paper's colour around each card. Edges' fields are (cards, 4)."""
    ratio = samples * (1.0 / np.maximum(white, 1.0)).astype(np.float32)[:, None, None, None, :]
    ratio -= 1
    deviation = np.abs(ratio)
    ink = np.maximum(np.maximum(deviation[..., 0], deviation[..., 1]), deviation[..., 2]) > settings.ink
    # The colour change over a millimetre either side of each sample (the frame's blur smooths it).
    reach = max(1, round(1.0 / step_mm))
    step = np.zeros(ink.shape, np.float32)
    change = np.abs(ratio[..., 2 * reach :, :] - ratio[..., : -2 * reach, :])
    step[..., reach:-reach] = change[..., 0] + change[..., 1] + change[..., 2]
    # Paper beyond, ink within: a millimetre and a half out and in from the step.
    gap = max(1, round(1.5 / step_mm))
    candidate = step >= settings.step
    candidate[..., :-gap] &= ~ink[..., gap:]
    candidate[..., -gap:] = False
    candidate[..., gap:] &= ink[..., :-gap]
    candidate[..., :gap] = False
    candidate[..., 1:-1] &= (step[..., 1:-1] >= step[..., :-2]) & (step[..., 1:-1] >= step[..., 2:])
    count = samples.shape[3]
    offsets = (np.arange(count) - (count - 1) / 2) * step_mm
    # The candidate nearest the expected side (a card is laid near its outline).
    distance = np.where(candidate, np.abs(offsets), np.inf)
    chosen = distance.argmin(axis=-1)  # (C, 4, P)
    has = np.isfinite(np.take_along_axis(distance, chosen[..., None], axis=-1)[..., 0])
    position = offsets[chosen]
    strength = np.take_along_axis(step, chosen[..., None], axis=-1)[..., 0]
    profiles = samples.shape[2]
    least = settings.least * profiles
    t = np.linspace(-0.35, 0.35, profiles)
    # A line through each side's edges: first through those near their median (a card turned a
    # few degrees spreads them by a few millimetres), then again through those near that line.
    ordered = np.sort(np.where(has, position, np.inf), axis=-1)
    middle_index = np.maximum(has.sum(axis=-1) - 1, 0) // 2
    middle = np.take_along_axis(ordered, middle_index[..., None], axis=-1)[..., 0]
    middle = np.where(np.isfinite(middle), middle, 0.0)  # (C, 4)
    weight = (has & (np.abs(position - middle[..., None]) <= 2 * settings.agree_mm)).astype(np.float64)
    slope, intercept, n = _line(weight, t, position)
    near = np.abs(position - (intercept[..., None] + slope[..., None] * t)) <= settings.agree_mm / 2
    weight = (has & near).astype(np.float64)
    slope, intercept, n = _line(weight, t, position)
    found = (has.sum(axis=-1) >= least) & (n >= least)
    slope, intercept = np.where(found, slope, 0.0), np.where(found, intercept, 0.0)
    power = np.where(found, (weight * strength).sum(axis=-1) / np.maximum(n, 1), 0.0)
    return Edges(found, intercept, slope, power)


def _line(weight: np.ndarray, t: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted least-squares lines values ≈ intercept + slope·t over the last axis: (slope,
    intercept, weight total), slope 0 where the points are too few or too close to fit one."""
    n = weight.sum(axis=-1)
    s_t, s_tt = weight @ t, weight @ (t * t)
    s_v, s_tv = (weight * values).sum(axis=-1), (weight * values * t).sum(axis=-1)
    det = n * s_tt - s_t * s_t
    fit = det > 1e-3 * np.maximum(n, 1) ** 2
    slope = np.where(fit, (n * s_tv - s_t * s_v) / np.where(fit, det, 1), 0.0)
    intercept = (s_v - slope * s_t) / np.maximum(n, 1)
    return slope, intercept, n


def corrected(poses: np.ndarray, edges: Edges, size: tuple[float, float]) -> np.ndarray:
    """The poses (cards, 3) moved onto the sides found: opposite sides centre a card, one side alone
    places it by the card's known size; the sides' slopes turn it."""
    w, h = size
    lengths = np.float64([w, h, w, h]) * 0.7  # the profiles span 70 % of each side
    found = edges.found
    # A card turned by φ (clockwise on the mat): walking any side clockwise, its edge comes in by
    # φ per millimetre walked, so every side's slope over its length gives -φ.
    turns = np.where(found, -edges.slope / lengths, np.nan)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a card with no side found: no turn
        turn = np.nan_to_num(np.clip(np.nanmedian(turns, axis=1), -0.2, 0.2))
    du = _shift(found[:, 1], edges.offset[:, 1], found[:, 3], edges.offset[:, 3])
    dv = _shift(found[:, 2], edges.offset[:, 2], found[:, 0], edges.offset[:, 0])
    c, s = np.cos(poses[:, 2]), np.sin(poses[:, 2])
    return np.stack(
        [poses[:, 0] + c * du - s * dv, poses[:, 1] + s * du + c * dv, poses[:, 2] + turn], axis=1
    )


def _shift(
    plus_found: np.ndarray, plus: np.ndarray, minus_found: np.ndarray, minus: np.ndarray
) -> np.ndarray:
    """The centre's shift along one axis from its two sides' outward offsets."""
    both = (plus - minus) / 2
    return np.where(
        plus_found & minus_found, both, np.where(plus_found, plus, np.where(minus_found, -minus, 0.0))
    )


def sample(frame: np.ndarray, points_px: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bilinear colours of ``frame`` at ``points_px`` (..., 2) and whether each lies inside it."""
    shape = points_px.shape[:-1]
    flat = np.ascontiguousarray(points_px.reshape(-1, 2), dtype=np.float32)
    count = len(flat)
    width = 1024
    rows = -(-count // width)
    padded = np.zeros((rows * width, 2), np.float32)
    padded[:count] = flat
    grid = padded.reshape(rows, width, 2)
    values = cv2.remap(frame, grid, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    values = values.reshape(rows * width, -1)[:count].astype(np.float32)
    height, frame_width = frame.shape[:2]
    inside = (
        (flat[:, 0] >= 0) & (flat[:, 1] >= 0) & (flat[:, 0] <= frame_width - 1) & (flat[:, 1] <= height - 1)
    )
    return values.reshape(*shape, -1), inside.reshape(shape)
