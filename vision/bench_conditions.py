"""``companion bench vision --conditions``: accuracy under each camera condition, step by step.

Every factor starts from a webcam in a lit living room (``BASE``) and is pushed, one at a time, far
past it. Each step renders ``scenes`` tables of the four-player Chaos Marauders mat at 1280 × 720
(cards in every other slot: isolated, unless the factor is their neighbour), reads them as the camera
does (the mat's markers, the lens measured from them, ``vision.slots``), and counts the cards named,
and misnamed. A factor's ``breaks_at`` is its first step under 90 % (the review's measure),
``holds_to`` its last step at 99.5 % or more before that.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from vision.camera_chain import CameraChain
from vision.camera_table import RenderedTable, card_corners
from vision.mat import MatFinder, MatView
from vision.references import ReferenceSet
from vision.scoring import Tally, score_frame
from vision.slots import SlotReader
from vision.synth import SKIN_TONES, card_faces, card_names, twin_faces
from vision.zones import MatLayout, load_layout

BASE = CameraChain(focus_sigma=0.7, exposure=0.85, electrons_at_white=3000.0, read_noise=2.0, jpeg_quality=85)
"""A webcam in a lit living room: focused, a little noise, MJPEG at quality 85."""
RESOLUTION = (1280, 720)
PX_PER_MM = 0.69
"""What a 1280 × 720 frame gives the whole four-player mat (``vision.geometry``)."""


def chain_step(**change: Any) -> Callable[[float], dict[str, Any]]:
    def step(value: float) -> dict[str, Any]:
        return {
            "chain": replace(
                BASE, **{key: (fn(value) if callable(fn) else value) for key, fn in change.items()}
            )
        }

    return step


FACTORS: dict[str, tuple[list[float], Callable[[float], dict[str, Any]]]] = {
    "jpeg_quality": ([90, 70, 50, 35, 25, 15, 10, 6], chain_step(jpeg_quality=lambda v: int(v))),
    "noise_sigma": ([2, 5, 11, 20, 30, 45, 60, 80], chain_step(read_noise=None)),
    "electrons_at_white": ([3000, 400, 100, 25, 12, 6, 3], chain_step(electrons_at_white=None)),
    "gamma_low": ([1.0, 0.8, 0.6, 0.5, 0.4, 0.3, 0.2], chain_step(gamma=None)),
    "gamma_high": ([1.0, 1.3, 1.7, 2.2, 2.8, 3.5, 4.5], chain_step(gamma=None)),
    "motion_blur_px": (
        [0, 3, 6, 10, 15, 25, 35, 50],
        chain_step(motion_px=None, motion_angle=lambda v: 30.0),
    ),
    "defocus_sigma_px": ([0.7, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0], chain_step(focus_sigma=None)),
    "cast_warm": ([0.0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9], chain_step(cast=lambda v: (1 - v, 1.0, 1 + v))),
    "cast_cool": ([0.0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9], chain_step(cast=lambda v: (1 + v, 1.0, 1 - v))),
    "underexposure": ([0.85, 0.5, 0.3, 0.2, 0.12, 0.07, 0.04], chain_step(exposure=None)),
    "lens_k1": ([0.0, -0.03, -0.06, -0.1, -0.15, -0.2], chain_step(k1=None)),
    "glare_share": ([0.1, 0.2, 0.3, 0.45, 0.6, 0.8], lambda v: {"glare": v}),
    "hand_share": ([0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65], lambda v: {"hand": v}),
    "token_share": ([0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4], lambda v: {"token": v}),
    "overlap_mm": ([0, 3, 6, 10, 15, 20, 30, 40], lambda v: {"overlap": v}),
    "frame_edge_share": ([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], lambda v: {"cut": v}),
    "px_per_mm": ([2.0, 1.3, 1.0, 0.85, 0.7, 0.6, 0.5, 0.4], lambda v: {"px_per_mm": v}),
    "twins_px_per_mm": ([0.7, 1.0, 1.5, 2.0, 2.5, 3.0], lambda v: {"px_per_mm": v, "twins": True}),
}


def conditions(game: str, seed: int = 1, scenes: int = 6, factors: list[str] | None = None) -> dict[str, Any]:
    cv2.setNumThreads(1)
    rng = random.Random(seed)
    names = card_names(48, rng)
    faces = card_faces(names, rng)
    twins = twin_faces(card_names(48, random.Random(seed + 1)), random.Random(seed + 2))
    decks = {False: faces, True: twins}
    references = {twin: ReferenceSet.from_faces(deck) for twin, deck in decks.items()}
    layout = load_layout(game, 4)
    results: dict[str, Any] = {"base": {k: v for k, v in BASE.__dict__.items()}, "scenes_per_step": scenes}
    for name in factors or list(FACTORS):
        values, step = FACTORS[name]
        rows = []
        for value in values:
            options = step(value)
            twin = bool(options.get("twins"))
            tally = Tally()
            lost = 0
            covered_shares: list[float] = []
            for index in range(scenes):
                scene_rng = random.Random(zlib.crc32(f"{seed}/{name}/{value}/{index}".encode()))
                frame, truth, table = _scene(layout, decks[twin], scene_rng, options)
                covered_shares += [float(entry.get("covered", 0.0)) for entry in truth]
                view = MatFinder(layout).find(frame)
                if view is None:
                    # The markers are not read in this frame (blurred by a knock, too dark): the
                    # camera keeps the view of the mat it had (the table's own homography here).
                    lost += 1
                    if table.chain.k1 or options.get("cut") is not None:
                        score_frame(tally, [], truth)
                        continue
                    view = MatView(np.linalg.inv(table.to_frame), 0)
                reader = SlotReader(layout, references[twin])
                score_frame(tally, list(reader.read(frame, view)), truth, (frame.shape[1], frame.shape[0]))
            counted = tally.cards + tally.occluded
            named = tally.correct + tally.occluded_named
            covered = [share for share in covered_shares if share > 0]
            rows.append(
                {
                    "value": value,
                    "cards": counted,
                    "accuracy": round(named / counted, 4) if counted else None,
                    "misnamed": tally.misnamed,
                    "mat_not_found": lost,
                    **({"covered_mean": round(float(np.mean(covered)), 3)} if covered else {}),
                }
            )
        results[name] = {"steps": rows, **_limits(rows)}
    return results


def _limits(rows: list[dict[str, Any]]) -> dict[str, Any]:
    breaks = next((row["value"] for row in rows if (row["accuracy"] or 0) < 0.9), None)
    holds = None
    for row in rows:
        if (row["accuracy"] or 0) < 0.995:
            break
        holds = row["value"]
    return {"holds_to": holds, "breaks_at": breaks}


def _scene(
    layout: MatLayout, deck: list[Any], rng: random.Random, options: dict[str, Any]
) -> tuple[np.ndarray, list[dict[str, Any]], RenderedTable]:
    chain = options.get("chain", BASE)
    scale = options.get("px_per_mm", PX_PER_MM) / PX_PER_MM
    resolution = (round(RESOLUTION[0] * scale), round(RESOLUTION[1] * scale))
    images = {face.card: face.image for face in deck}
    table = RenderedTable(
        layout, images, rng, resolution=resolution, tilt=0.05, hand_frames=0, chain=chain, supersample=3
    )
    ids = sorted(images)
    rows = [zone for zone in layout.zones if len(zone.slots) > 1]
    overlap = float(options.get("overlap", 0))
    cut = options.get("cut")
    if cut is not None:
        places = [(rows[0], slot) for slot in range(0, 12, 2)]  # the row nearest the frame's edge
    else:
        places = rng.sample([(zone, slot) for zone in rows for slot in range(0, 12, 2)], 24)
    size = layout.card_mm
    for zone, slot in places:
        rect = zone.slots[slot]
        cx, cy = rect.centre
        corners = card_corners((cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2)), size, rng.uniform(-2, 2))
        table.place(zone.name, rng.choice(ids), slot, turned=rng.random() < 0.3, corners_mm=corners)
        if overlap:
            # Its right-hand neighbour laid over it by ``overlap`` millimetres: the two pushed
            # together, each half the way (the gap closed, then the overlap).
            right = zone.slots[slot + 1]
            shift = ((right.x - rect.x) - size[0] + overlap) / 2
            laid = table.cards()[-1]
            table.remove(zone.name, laid.card)
            table.place(zone.name, laid.card, slot, corners_mm=laid.corners_mm + np.float32([shift, 0]))
            corners = card_corners((right.centre[0] - shift, right.centre[1]), size, rng.uniform(-2, 2))
            table.place(zone.name, rng.choice(ids), slot + 1, turned=rng.random() < 0.3, corners_mm=corners)
    sharp = table.sharp()
    ss = 3
    cover = np.zeros(sharp.shape[:2], np.uint8)
    for laid in table.cards():
        quad = table.corners_in_frame(laid) * ss
        if "glare" in options:
            _glare(sharp, cover, quad, float(options["glare"]), rng)
        if "hand" in options:
            _hand_over(sharp, cover, quad, float(options["hand"]), rng)
        if "token" in options:
            _token(sharp, cover, quad, float(options["token"]), rng)
    frame = chain.apply(sharp, np.random.default_rng(rng.randrange(1 << 30)), ss, table._gain)
    covers = cv2.resize(cover, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_AREA)
    from vision.scenes import _truth

    truth = _truth(table, covers, set(ids))
    if cut is not None:
        frame, truth = _cut(frame, truth, float(cut))
    return frame, truth, table


def _cut(
    frame: np.ndarray, truth: list[dict[str, Any]], share: float
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """The frame cropped on its left so that ``share`` of the cards nearest that edge is out of it."""
    lefts = [min(x for x, _ in entry["corners"]) for entry in truth]
    rights = [max(x for x, _ in entry["corners"]) for entry in truth]
    edge = round(float(np.median(lefts) + share * (np.median(rights) - np.median(lefts))))
    cropped = np.ascontiguousarray(frame[:, edge:])
    out = []
    for entry in truth:
        corners = [[x - edge, y] for x, y in entry["corners"]]
        width = max(x for x, _ in entry["corners"]) - min(x for x, _ in entry["corners"])
        inside = (max(x for x, _ in corners) - max(0.0, min(x for x, _ in corners))) / max(width, 1e-6)
        situations = sorted({*entry["situations"], "frame_edge"}) if inside < 1 else entry["situations"]
        # A card counts when any of it is in view: the measure is how much of it must show.
        out.append(
            {**entry, "corners": corners, "visible": 1.0 if inside > 0 else 0.0, "situations": situations}
        )
    return cropped, out


def _glare(sharp: np.ndarray, cover: np.ndarray, quad: np.ndarray, share: float, rng: random.Random) -> None:
    short = float(np.linalg.norm(quad[1] - quad[0]))
    u, v = rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)
    centre = quad[0] + (quad[1] - quad[0]) * u + (quad[3] - quad[0]) * v
    radius = share * short / 2
    blob = np.zeros(cover.shape, np.float32)
    cv2.circle(blob, (int(centre[0]), int(centre[1])), max(1, int(radius)), 1.0, -1)
    blob = cv2.GaussianBlur(blob, (0, 0), max(1.0, radius * 0.25))
    region = blob > 0.02
    sharp[region] = np.clip(
        sharp[region] * (1 - blob[region, None]) + 255 * blob[region, None], 0, 255
    ).astype(np.uint8)
    cover[blob > 0.5] = 255


def _hand_over(
    sharp: np.ndarray, cover: np.ndarray, quad: np.ndarray, share: float, rng: random.Random
) -> None:
    """Skin over ``share`` of the card, reaching in from one of its sides with a ragged edge (fingers)."""
    side = rng.randrange(4)
    a, b = quad[side], quad[(side + 1) % 4]
    c, d = quad[(side + 2) % 4], quad[(side + 3) % 4]
    # The covered band: from side a-b inward to the line at ``share`` of the way to side c-d.
    inner_a, inner_b = a + (d - a) * share, b + (c - b) * share
    points = [a, b]
    for t in np.linspace(1, 0, 9):  # ragged: fingers of a little more and a little less
        wobble = rng.uniform(-0.06, 0.06)
        points.append(inner_a + (inner_b - inner_a) * t + (d - a) * wobble)
    outward = (a + b) / 2 - quad.mean(axis=0)
    arm = [b + outward * 0.3, a + outward * 0.3]  # the wrist, cut short: the hand covers this card only
    shape = np.zeros(cover.shape, np.uint8)
    cv2.fillPoly(shape, [np.array([*points, *arm], np.int32)], 255)
    colour = np.array(rng.choice(SKIN_TONES), np.float32) * rng.uniform(0.85, 1.1)
    sharp[shape > 0] = np.clip(colour, 0, 255).astype(np.uint8)
    cover |= shape


def _token(sharp: np.ndarray, cover: np.ndarray, quad: np.ndarray, share: float, rng: random.Random) -> None:
    area = float(cv2.contourArea(quad.astype(np.float32)))
    radius = math.sqrt(share * area / math.pi)
    short = float(np.linalg.norm(quad[1] - quad[0]))
    long = float(np.linalg.norm(quad[3] - quad[0]))
    room_u, room_v = max(0.0, 0.5 - radius / short), max(0.0, 0.5 - radius / long)
    u, v = 0.5 + rng.uniform(-room_u, room_u), 0.5 + rng.uniform(-room_v, room_v)
    centre = quad[0] + (quad[1] - quad[0]) * u + (quad[3] - quad[0]) * v
    colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    c = (int(centre[0]), int(centre[1]))
    shape = np.zeros(cover.shape, np.uint8)
    cv2.circle(shape, c, max(1, int(radius)), 255, -1)
    sharp[shape > 0] = colour
    cv2.circle(sharp, c, max(1, int(radius * 0.4)), tuple(min(255, int(k * 1.3) + 20) for k in colour), -1)
    cover |= shape
