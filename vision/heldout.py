"""The held-out scene sets: other card faces, another mat and another renderer than the ones tuned on.

Nothing here was looked at while the thresholds of ``vision.slots`` and ``vision.matcher`` were set
(those were set on ``vision.synth``'s faces through ``vision.scenes``); these sets say how the reader
does on what it has not seen:

* **faces** of four other styles (white borders, black borders with a serif title, parchment with
  much text and a small picture, borderless full art), rounded corners, art of smooth colour fields
  and a silhouette instead of blobs, on 59 × 91 mm cards;
* **a mat** of another game: two rows of ten places per seat, three seats, a discard pile and a
  market of four, other gaps and margins;
* **another renderer**: the table composed from above in millimetres (cards with their shadows on
  the paper, a lamp's light falling off across the table), then seen through a pinhole camera at a
  height with its tilt, roll and field of view, OpenCV's lens model (k1, k2), a Bayer sensor with
  true Poisson photon noise, demosaicing, a filmic tone curve, sharpening and JPEG.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.mat import render_mat
from vision.references import ReferenceFace
from vision.scenes import truth_entries, write_scene_set
from vision.synth import SKIN_TONES, card_names
from vision.zones import MatLayout, build_layout

CARD_MM = (59.0, 91.0)
FACE_PX = (295, 455)
"""A held-out face at 5 px/mm."""
TOP_PX_PER_MM = 3.0
"""The table is composed from above at this resolution."""
HELD_OUT_MAT: dict[str, Any] = {
    "game": "held-out",
    "min_players": 2,
    "max_players": 4,
    "card": {"width_mm": CARD_MM[0], "height_mm": CARD_MM[1], "provenance": "held-out set"},
    "spacing": {
        "slot_gap_mm": 6,
        "row_gap_mm": 8,
        "seat_gap_mm": 12,
        "label_mm": 8,
        "provenance": "held-out set",
    },
    "mat": {"margin_mm": 46, "marker_mm": 34, "aruco_dictionary": "DICT_4X4_50"},
    "seat_zones": [
        {"zone": "row", "label": "row", "rows": 2, "row_field": "row", "slots": 10, "slot_field": "slot"}
    ],
    "shared_zones": [
        {"name": "discard", "zone": "discard", "label": "Discard"},
        {"name": "market", "zone": "market", "label": "Market", "slots": 4, "slot_field": "slot"},
    ],
}
PLAYERS = 3
STYLES = ("white", "dark", "parchment", "full-art")


# ------------------------------------------------------------------------------------------ faces


def held_out_faces(ids: Sequence[str], rng: random.Random) -> list[ReferenceFace]:
    return [ReferenceFace(card, _face(card, rng)) for card in ids]


def _palette(rng: random.Random) -> list[tuple[int, int, int]]:
    hue = rng.uniform(0, 180)
    colours = []
    for k in range(4):
        hsv = np.uint8(
            [[[int(hue + k * rng.uniform(15, 60)) % 180, rng.randint(60, 255), rng.randint(60, 255)]]]
        )
        colours.append(tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0]))
    return colours


def _field(shape: tuple[int, int], rng: random.Random) -> np.ndarray:
    """A smooth colour field: random low-frequency waves mapped through a palette, and a silhouette."""
    height, width = shape
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    value = np.zeros(shape, np.float32)
    for _ in range(4):
        fx, fy = rng.uniform(-3, 3) / width, rng.uniform(-3, 3) / height
        value += np.sin(2 * math.pi * (fx * xs + fy * ys) + rng.uniform(0, 6.3)) * rng.uniform(0.3, 1)
    value = (value - value.min()) / max(1e-6, float(value.max() - value.min()))
    colours = np.float32(_palette(rng))
    index = np.clip(value * (len(colours) - 1), 0, len(colours) - 1.001)
    low = np.floor(index).astype(int)
    t = (index - low)[..., None]
    art = colours[low] * (1 - t) + colours[low + 1] * t
    shape_colour = tuple(int(c) for c in _palette(rng)[0])
    centre = (rng.randint(width // 4, 3 * width // 4), rng.randint(height // 4, 3 * height // 4))
    size = rng.randint(min(shape) // 5, min(shape) // 2)
    kind = rng.randrange(3)
    if kind == 0:
        cv2.circle(art, centre, size, shape_colour, -1, cv2.LINE_AA)
    elif kind == 1:
        points = np.array(
            [
                (centre[0], centre[1] - size),
                (centre[0] - size, centre[1] + size),
                (centre[0] + size, centre[1] + size),
            ],
            np.int32,
        )
        cv2.fillPoly(art, [points], shape_colour, cv2.LINE_AA)
    else:
        points = [
            (
                centre[0] + (size if k % 2 == 0 else size // 2) * math.cos(k * math.pi / 5),
                centre[1] + (size if k % 2 == 0 else size // 2) * math.sin(k * math.pi / 5),
            )
            for k in range(10)
        ]
        cv2.fillPoly(art, [np.array(points, np.int32)], shape_colour, cv2.LINE_AA)
    return np.clip(art, 0, 255).astype(np.uint8)


def _face(card: str, rng: random.Random) -> np.ndarray:
    width, height = FACE_PX
    style = rng.choice(STYLES)
    title = card.replace("-", " ").upper()
    serif = cv2.FONT_HERSHEY_COMPLEX
    if style == "white":
        face = np.full((height, width, 3), (245, 246, 244), np.uint8)
        face[20 : height - 90, 20 : width - 20] = _field((height - 110, width - 40), rng)
        cv2.rectangle(face, (20, height - 80), (width - 20, height - 20), (30, 30, 30), -1)
        cv2.putText(
            face, title[:16], (30, height - 40), cv2.FONT_HERSHEY_DUPLEX, 0.8, (240, 240, 240), 1, cv2.LINE_AA
        )
    elif style == "dark":
        face = np.full((height, width, 3), (25, 22, 20), np.uint8)
        colour = _palette(rng)[1]
        cv2.rectangle(face, (14, 14), (width - 14, 70), colour, -1)
        cv2.putText(face, title[:14], (24, 55), serif, 0.75, (10, 10, 10), 2, cv2.LINE_AA)
        face[80:300, 14 : width - 14] = _field((220, width - 28), rng)
        for k in range(3):
            cv2.rectangle(face, (20 + 90 * k, 320), (90 + 90 * k, 380), _palette(rng)[2], -1)
            cv2.putText(
                face, str(rng.randint(0, 12)), (38 + 90 * k, 362), serif, 1.0, (255, 255, 255), 2, cv2.LINE_AA
            )
    elif style == "parchment":
        face = np.full((height, width, 3), (170, 205, 225), np.uint8)
        noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 6, (height, width, 1))
        face = np.clip(face + noise, 0, 255).astype(np.uint8)
        cv2.putText(face, title[:18], (20, 40), serif, 0.7, (40, 30, 20), 2, cv2.LINE_AA)
        face[55:175, 60 : width - 60] = _field((120, width - 120), rng)
        for line in range(9):
            words = " ".join(
                rng.choice(("the", "each", "card", "draw", "gain", "lose", "two", "ally", "foe", "turn"))
                for _ in range(5)
            )
            cv2.putText(
                face, words, (22, 205 + 24 * line), cv2.FONT_HERSHEY_PLAIN, 1.1, (50, 40, 30), 1, cv2.LINE_AA
            )
    else:
        face = _field((height, width), rng)
        cv2.rectangle(face, (0, height - 70), (width, height - 25), (0, 0, 0), -1)
        cv2.putText(
            face,
            title[:16],
            (16, height - 38),
            cv2.FONT_HERSHEY_TRIPLEX,
            0.8,
            (255, 255, 255),
            1,
            cv2.LINE_AA,
        )
    return face


# -------------------------------------------------------------------------------------- the table


def _rounded(face: np.ndarray, radius: int) -> np.ndarray:
    """An alpha mask of the face with its corners rounded (printed cards are cut so)."""
    height, width = face.shape[:2]
    alpha = np.full((height, width), 255, np.uint8)
    for cx, cy in (
        (radius, radius),
        (width - radius - 1, radius),
        (radius, height - radius - 1),
        (width - radius - 1, height - radius - 1),
    ):
        corner = np.zeros((height, width), np.uint8)
        x0, x1 = (0, radius) if cx == radius else (width - radius, width)
        y0, y1 = (0, radius) if cy == radius else (height - radius, height)
        corner[y0:y1, x0:x1] = 255
        round_part = np.zeros((height, width), np.uint8)
        cv2.circle(round_part, (cx, cy), radius, 255, -1, cv2.LINE_AA)
        alpha = np.where(corner > 0, round_part, alpha)
    return alpha


def _top_down(layout: MatLayout, border: float) -> tuple[np.ndarray, np.ndarray]:
    """The mat from above at TOP_PX_PER_MM with a border of table, and the millimetre → canvas map."""
    s = TOP_PX_PER_MM
    mat = render_mat(layout, s * 25.4)
    paper = cv2.cvtColor(mat, cv2.COLOR_GRAY2BGR).astype(np.float32) * np.float32([0.95, 0.97, 0.96])
    pad = round(border * s)
    canvas = np.empty((mat.shape[0] + 2 * pad, mat.shape[1] + 2 * pad, 3), np.float32)
    canvas[:] = (55, 85, 120)  # a wooden table
    canvas[pad : pad + mat.shape[0], pad : pad + mat.shape[1]] = paper
    to_canvas = np.array([[s, 0, pad], [0, s, pad], [0, 0, 1]], np.float64)
    return canvas, to_canvas


def _paste(
    canvas: np.ndarray, mask: np.ndarray | None, image: np.ndarray, alpha: np.ndarray, corners: np.ndarray
) -> None:
    """An image (with its alpha) drawn with its corners at ``corners`` (canvas px), and a soft shadow."""
    height, width = image.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    size = (canvas.shape[1], canvas.shape[0])
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 12
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 12
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, size[0]), min(y1, size[1])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ warp
    box = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(image, shift, box, flags=cv2.INTER_LINEAR).astype(np.float32)
    a = cv2.warpPerspective(alpha, shift, box, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    shadow = cv2.GaussianBlur(np.roll(np.roll(a[..., 0], 4, axis=0), 3, axis=1), (0, 0), 3)[..., None] * 0.25
    region = canvas[y0:y1, x0:x1]
    region *= 1 - shadow
    region[:] = warped * a + region * (1 - a)
    if mask is not None:
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], (a[..., 0] * 255).astype(np.uint8))


def _hand(canvas: np.ndarray, mask: np.ndarray, target: np.ndarray, rng: random.Random) -> None:
    """A shaded hand and forearm reaching over ``target`` (canvas px) from the table's nearest edge."""
    s = TOP_PX_PER_MM
    height, width = canvas.shape[:2]
    x, y = float(target[0]) + rng.uniform(-25, 25) * s, float(target[1]) + rng.uniform(-25, 25) * s
    start = min(
        [(x, -10.0), (x, height + 10.0), (-10.0, y), (width + 10.0, y)], key=lambda p: math.dist(p, (x, y))
    )
    angle = math.atan2(y - start[1], x - start[0])
    shape = np.zeros((height, width), np.uint8)
    cv2.line(shape, (int(start[0]), int(start[1])), (int(x), int(y)), 255, int(55 * s))
    cv2.ellipse(shape, (int(x), int(y)), (int(48 * s), int(40 * s)), math.degrees(angle), 0, 360, 255, -1)
    for k in range(5):
        spread = angle + math.radians(-50 + 25 * k)
        length = (70 if k else 45) * s
        tip = (int(x + math.cos(spread) * length), int(y + math.sin(spread) * length))
        cv2.line(shape, (int(x), int(y)), tip, 255, int(16 * s))
    skin = np.float32(rng.choice(SKIN_TONES)) * rng.uniform(0.8, 1.1)
    shade = cv2.GaussianBlur(shape.astype(np.float32), (0, 0), 8 * s) / 255
    colour = skin[None, None] * (0.7 + 0.3 * shade[..., None])
    inside = shape > 0
    canvas[inside] = colour[inside]
    mask[inside] = 255


def _token(canvas: np.ndarray, mask: np.ndarray, corners: np.ndarray, rng: random.Random) -> None:
    """A cube or a pawn on a card: a lit top, a darker side, a shadow."""
    s = TOP_PX_PER_MM
    u, v = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)
    centre = corners[0] + (corners[1] - corners[0]) * u + (corners[3] - corners[0]) * v
    side = rng.uniform(9, 16) * s
    colour = np.float32(_palette(rng)[0])
    shape = np.zeros(mask.shape, np.uint8)
    box = cv2.boxPoints(((float(centre[0]), float(centre[1])), (side, side), rng.uniform(0, 90))).astype(
        np.int32
    )
    shadow = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(shadow, box + np.int32([int(3 * s), int(4 * s)]), 255)
    canvas[shadow > 0] *= 0.6
    cv2.fillConvexPoly(shape, box, 255)
    canvas[shape > 0] = colour * 0.75
    cv2.fillConvexPoly(
        canvas, ((box - centre) * 0.7 + centre).astype(np.int32), tuple(float(c) for c in colour)
    )
    mask |= shape


def _glare(canvas: np.ndarray, mask: np.ndarray, corners: np.ndarray, rng: random.Random) -> None:
    centre = corners.mean(axis=0) + (corners[1] - corners[0]) * rng.uniform(-0.3, 0.3)
    short = float(np.linalg.norm(corners[1] - corners[0]))
    axes = (int(short * rng.uniform(0.08, 0.22)), int(short * rng.uniform(0.05, 0.12)))
    blob = np.zeros(mask.shape, np.float32)
    cv2.ellipse(blob, (int(centre[0]), int(centre[1])), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    blob = cv2.GaussianBlur(blob, (0, 0), max(1.0, axes[1] * 0.5))
    canvas[:] = canvas * (1 - blob[..., None]) + 255 * blob[..., None]
    mask[blob > 0.5] = 255


# ------------------------------------------------------------------------------------ the camera


def _camera(
    layout: MatLayout, rng: random.Random, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A pinhole camera above the mat: (K, distortion, rvec, tvec) for mat millimetres (z = 0)."""
    width, height = size
    hfov = math.radians(rng.uniform(62, 76))
    focal = width / 2 / math.tan(hfov / 2)
    matrix = np.array(
        [[focal, 0, width / 2 + rng.uniform(-8, 8)], [0, focal, height / 2 + rng.uniform(-8, 8)], [0, 0, 1]]
    )
    distortion = np.array(
        [-rng.uniform(0, 0.25) if rng.random() < 0.4 else 0.0, rng.uniform(-0.05, 0.05), 0, 0, 0]
    )
    # Looking down, the mat's long side across the frame: the camera's x along the mat's y.
    long_mm, short_mm = layout.height_mm, layout.width_mm
    fill = rng.uniform(1.06, 1.16)
    distance = max(long_mm * fill / 2 / math.tan(hfov / 2), short_mm * fill / 2 / (height / 2 / focal))
    tilt, roll = math.radians(rng.uniform(-10, 10)), math.radians(rng.uniform(-3, 3))
    base = np.array([[0, 1, 0], [-1, 0, 0], [0, 0, 1]], np.float64)  # mat y → camera x, mat x → camera -y
    rx = cv2.Rodrigues(np.array([tilt, 0, 0]))[0]
    rz = cv2.Rodrigues(np.array([0, 0, roll]))[0]
    rotation = rz @ rx @ base
    centre = np.array(
        [layout.width_mm / 2 + rng.uniform(-20, 20), layout.height_mm / 2 + rng.uniform(-20, 20), 0.0]
    )
    translation = np.array([0, 0, distance]) - rotation @ centre
    return matrix, distortion, cv2.Rodrigues(rotation)[0], translation


def _project(points_mm: np.ndarray, camera: tuple[np.ndarray, ...]) -> np.ndarray:
    matrix, distortion, rvec, tvec = camera
    pts = np.hstack([points_mm.reshape(-1, 2), np.zeros((len(points_mm.reshape(-1, 2)), 1))]).astype(
        np.float64
    )
    image, _ = cv2.projectPoints(pts, rvec, tvec, matrix, distortion)
    return image.reshape(*points_mm.shape[:-1], 2)


def _film(
    canvas: np.ndarray, to_canvas: np.ndarray, camera: tuple[np.ndarray, ...], size: tuple[int, int]
) -> np.ndarray:
    """The canvas seen by the camera: every frame pixel (two by two finer) traced back to the mat."""
    matrix, distortion, rvec, tvec = camera
    width, height = size
    fine = 2
    ys, xs = np.mgrid[0 : height * fine, 0 : width * fine].astype(np.float64)
    pixels = np.stack([(xs + 0.5) / fine - 0.5, (ys + 0.5) / fine - 0.5], axis=-1).reshape(-1, 1, 2)
    ideal = cv2.undistortPoints(pixels, matrix, distortion).reshape(-1, 2)  # normalised camera rays
    rotation = cv2.Rodrigues(rvec)[0]
    rays = np.hstack([ideal, np.ones((len(ideal), 1))]) @ rotation  # R^T · ray, in the mat's frame
    origin = -rotation.T @ tvec
    t = -origin[2] / rays[:, 2]
    hits = origin[None, :2] + t[:, None] * rays[:, :2]  # mat millimetres
    on_canvas = hits @ to_canvas[:2, :2].T + to_canvas[:2, 2]
    map_x = on_canvas[:, 0].reshape(height * fine, width * fine).astype(np.float32)
    map_y = on_canvas[:, 1].reshape(height * fine, width * fine).astype(np.float32)
    seen = cv2.remap(canvas, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(seen, size, interpolation=cv2.INTER_AREA)


def _sensor(linear_bgr: np.ndarray, rng: random.Random) -> np.ndarray:
    """A Bayer sensor's frame of the light: RGGB mosaic, Poisson photons, read noise, demosaiced,
    white-balanced, a filmic tone curve, sharpened, JPEG."""
    generator = np.random.default_rng(rng.randrange(1 << 30))
    height, width = linear_bgr.shape[:2]
    electrons = rng.uniform(300, 6000)
    mosaic = np.empty((height, width), np.float64)
    mosaic[0::2, 0::2] = linear_bgr[0::2, 0::2, 2]  # R
    mosaic[0::2, 1::2] = linear_bgr[0::2, 1::2, 1]  # G
    mosaic[1::2, 0::2] = linear_bgr[1::2, 0::2, 1]  # G
    mosaic[1::2, 1::2] = linear_bgr[1::2, 1::2, 0]  # B
    counted = generator.poisson(np.clip(mosaic, 0, None) * electrons) / electrons
    counted += generator.normal(0, rng.uniform(0.002, 0.006), counted.shape)
    raw = np.clip(counted * 65535 / 1.2, 0, 65535).astype(np.uint16)
    bgr = cv2.demosaicing(raw, cv2.COLOR_BayerBG2BGR).astype(np.float64) / 65535 * 1.2
    bgr *= np.array([rng.uniform(0.92, 1.08), 1.0, rng.uniform(0.92, 1.08)])  # white balance, not quite
    toned = np.power(np.clip(bgr, 0, None), 1 / 2.2)
    k = rng.uniform(2.0, 4.0)
    toned = 0.5 + 0.5 * np.tanh(k * (toned - 0.5)) / math.tanh(k / 2)
    frame = np.clip(toned * 255, 0, 255).astype(np.uint8)
    blurred = cv2.GaussianBlur(frame, (0, 0), 1.0)
    frame = cv2.addWeighted(frame, 1 + rng.uniform(0.2, 0.6), blurred, -rng.uniform(0.2, 0.6), 0)
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(60, 92)])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def render_held_out_scene(
    data: dict[str, Any],
    faces: dict[str, np.ndarray],
    enrolled: set[str],
    count: int,
    rng: random.Random,
    size: tuple[int, int] = (1280, 720),
    empty: bool = False,
) -> tuple[np.ndarray, list[dict[str, Any]], dict[str, Any]]:
    overlap = rng.uniform(15, 25) if not empty and rng.random() < 0.25 else 0.0
    if overlap:
        data = {**data, "spacing": {**data["spacing"], "overlap_mm": overlap}}
    layout = build_layout(data, PLAYERS)
    border = 0.2 * max(layout.width_mm, layout.height_mm)
    canvas, to_canvas = _top_down(layout, border)
    mask = np.zeros(canvas.shape[:2], np.uint8)
    ids = sorted(faces)
    radius = 3 * 5  # 3 mm at the face's 5 px/mm
    alphas = {card: _rounded(image, radius) for card, image in faces.items()}
    laid: list[tuple[str, str, np.ndarray]] = []
    if not empty:
        rows = [zone for zone in layout.zones if len(zone.slots) > 1]
        places = [(zone, slot) for zone in rows for slot in range(len(zone.slots))]
        chosen = rng.sample(places, min(count, len(places)))
        if overlap:
            chosen.sort(key=lambda p: (p[0].name, p[1]))
        for zone, slot in chosen:
            rect = zone.slots[slot]
            dx, dy = rng.gauss(0, 1.8), rng.gauss(0, 1.8)
            if not overlap and rng.random() < 0.25:
                dx = rng.choice((-1, 1)) * rng.uniform(2.5, 4)  # pushed against a neighbour
            laid.append(
                (
                    rng.choice(ids),
                    zone.name,
                    _corners(rect.centre[0] + dx, rect.centre[1] + dy, rng.gauss(0, 1.5), rng.random() < 0.3),
                )
            )
        for zone in layout.zones:
            if len(zone.slots) == 1 and rng.random() < 0.6:
                cx, cy = zone.slots[0].centre
                for _ in range(rng.randint(1, 4)):
                    laid.append(
                        (
                            rng.choice(ids),
                            zone.name,
                            _corners(
                                cx + rng.uniform(-7, 7),
                                cy + rng.uniform(-7, 7),
                                rng.uniform(-15, 15),
                                rng.random() < 0.3,
                            ),
                        )
                    )
    for card, _, corners in laid:
        _paste(canvas, None, faces[card], alphas[card], corners @ to_canvas[:2, :2].T + to_canvas[:2, 2])
    if laid:
        canvas_quads = [c @ to_canvas[:2, :2].T + to_canvas[:2, 2] for _, _, c in laid]
        if rng.random() < 0.35:
            _hand(canvas, mask, rng.choice(canvas_quads).mean(axis=0), rng)
        for _ in range(rng.choice((0, 0, 1, 2))):
            _token(canvas, mask, rng.choice(canvas_quads), rng)
        if rng.random() < 0.25:
            _glare(canvas, mask, rng.choice(canvas_quads), rng)
    # A lamp above one side of the table: its light falls off across the mat.
    height, width = canvas.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    lamp = (rng.uniform(0, width), rng.uniform(0, height), rng.uniform(0.8, 1.6) * max(width, height))
    light = lamp[2] ** 3 / (((xs - lamp[0]) ** 2 + (ys - lamp[1]) ** 2 + lamp[2] ** 2) ** 1.5)
    linear = (np.clip(canvas, 0, 255) / 255) ** 2.2 * (light[..., None] * rng.uniform(0.75, 1.0))
    camera = _camera(layout, rng, size)
    seen = _film(linear.astype(np.float32), to_canvas, camera, size)
    frame = _sensor(seen, rng)
    covers = _film(mask.astype(np.float32), to_canvas, camera, size)
    quads = [_project(corners, camera).astype(np.float32) for _, _, corners in laid]
    truth = truth_entries([(card, zone) for card, zone, _ in laid], quads, covers, size, enrolled)
    return frame, truth, {"overlap_mm": round(overlap, 2), "k1": float(camera[1][0])}


def _corners(cx: float, cy: float, degrees: float, turned: bool) -> np.ndarray:
    w, h = CARD_MM
    turn = math.radians(degrees)
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    corners = local @ rotation.T + (cx, cy)
    return corners[[2, 3, 0, 1]] if turned else corners


def write_held_out_set(
    refdir: Path,
    scenedir: Path,
    *,
    cards: int = 60,
    scenes: int = 120,
    empty: int = 12,
    seed: int = 101,
    size: tuple[int, int] = (1280, 720),
) -> None:
    """A held-out set (``vision.scenes.write_scene_set``) rendered by ``render_held_out_scene`` from a
    camera of ``size`` pixels."""
    rng = random.Random(seed)
    faces = held_out_faces(card_names(cards + 4, rng), rng)

    def render(
        images: dict[str, np.ndarray], enrolled: set[str], rng: random.Random, empty: bool
    ) -> tuple[np.ndarray, list[dict[str, Any]], dict[str, Any]]:
        return render_held_out_scene(HELD_OUT_MAT, images, enrolled, rng.randint(10, 40), rng, size, empty)

    description = {
        "kind": "mat",
        "renderer": "held-out",
        "mat": HELD_OUT_MAT,
        "players": PLAYERS,
        "seed": seed,
        "frame": list(size),
    }
    write_scene_set(
        refdir,
        scenedir,
        faces,
        cards=cards,
        scenes=scenes,
        empty=empty,
        rng=rng,
        render=render,
        description=description,
    )
