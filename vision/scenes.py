"""Scenes of the mat as a camera at the table sees it, with their truth: the bench's tuning renderer.

Every scene is the printed mat filmed at a real camera's scale (``vision.camera_table``: 1280 × 720
over the whole mat) through a camera chain drawn at random around a living room's webcam, with what
makes a real table hard, each card tagged with the situations it is in:

* cards laid by hand, a few millimetres off and a few degrees turned, some pushed against their
  neighbour (``crowded``: within 15 frame pixels of another card, or touching it);
* a discard pile of cards tossed on each other, its top card to be read (the rest are beneath);
* mats whose slots overlap, the way Chaos Marauders' lines are laid (``overlapped``: partly under
  a neighbour);
* a camera aimed so that part of the mat is out of the frame (``frame_edge``), a lens that bends;
* hands, tokens and glare over cards (``occluded``, with how much of the card they cover);
* cards never enrolled (``enrolled: false``: naming one is a misnamed card), and empty mats with
  things on them that are not cards (a phone, dice, a pencil) that must give nothing.

Truth entries are ``{"card", "corners", "occluded", "visible", "situations", "enrolled", "zone"}``:
corners clockwise from the face's top-left in frame pixels (through the lens), ``visible`` the share
of the card's face in view and uncovered. ``vision.heldout`` renders the held-out sets another way.
"""

from __future__ import annotations

import json
import math
import random
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.camera_chain import CameraChain
from vision.camera_table import RenderedTable, card_corners
from vision.references import ReferenceFace
from vision.synth import SKIN_TONES, TRUTH_FILE, card_faces, card_names, paste_face
from vision.zones import MatLayout, build_layout

SET_FILE = "set.json"
"""A scene folder's description: the mat (its layout data and players), the camera, the renderer."""
CROWDED_PX = 15.0
"""A card within this many frame pixels of another is crowded (the review's measure)."""
COUNTS_FROM = 0.5
"""A card counts as visible when at least this share of its face is in view and uncovered."""


@dataclass(frozen=True)
class Situations:
    """How often each hard thing happens in a scene set (shares of scenes or of cards)."""

    touching: float = 0.25
    """Share of line cards pushed against a neighbour (touching or up to 3 mm over it)."""
    overlap_mats: float = 0.25
    """Share of scenes on a mat whose slots overlap (lines laid overlapping)."""
    frame_edge: float = 0.25
    """Share of scenes whose camera leaves part of the mat out of the frame."""
    hands: float = 0.4
    tokens: float = 0.3
    glare: float = 0.25
    lens: float = 0.3
    """Share of scenes through a lens with barrel distortion (uncalibrated)."""
    pile: float = 0.6
    """Share of scenes with a discard pile of several cards."""


def random_chain(rng: random.Random) -> CameraChain:
    """A camera chain around a webcam in a lit living room: some focus blur, noise, MJPEG."""
    return CameraChain(
        focus_sigma=rng.uniform(0.4, 1.2),
        motion_px=rng.choice((0.0, 0.0, 0.0, rng.uniform(0.5, 2.5))),
        motion_angle=rng.uniform(0, 180),
        exposure=rng.uniform(0.7, 0.95),
        cast=(rng.uniform(0.85, 1.1), rng.uniform(0.95, 1.05), rng.uniform(0.9, 1.15)),
        electrons_at_white=rng.uniform(1200, 6000),
        read_noise=rng.uniform(1.0, 3.0),
        gamma=rng.uniform(0.85, 1.15),
        jpeg_quality=rng.randint(70, 95),
    )


def overlapping(data: Mapping[str, Any], overlap_mm: float) -> dict[str, Any]:
    """The mat data with its rows' slots overlapping by ``overlap_mm``."""
    spacing = {**data["spacing"], "overlap_mm": overlap_mm}
    return {**data, "spacing": spacing}


def render_mat_scene(
    data: Mapping[str, Any],
    players: int,
    faces: Mapping[str, np.ndarray],
    enrolled: set[str],
    count: int,
    rng: random.Random,
    situations: Situations = Situations(),
    resolution: tuple[int, int] = (1280, 720),
    chain: CameraChain | None = None,
    empty: bool = False,
) -> tuple[np.ndarray, list[dict[str, Any]], dict[str, Any]]:
    """One scene: (frame, truth, what it holds). ``data`` is a mat's layout data (a bundle's mat
    file, read); ``faces`` every face that may lie there, ``enrolled`` the ids the reader knows."""
    overlap = rng.uniform(14, 24) if rng.random() < situations.overlap_mats and not empty else 0.0
    if overlap:
        data = overlapping(data, overlap)
    layout = build_layout(data, players)
    chain = chain or random_chain(rng)
    if rng.random() < situations.lens:
        chain = CameraChain(**{**chain.__dict__, "k1": -rng.uniform(0.02, 0.08)})
    aim, zoom = (0.0, 0.0), 1.0
    if rng.random() < situations.frame_edge:
        zoom = rng.uniform(1.04, 1.12)
        aim = (rng.uniform(-0.06, 0.06), rng.uniform(-0.06, 0.06))
    table = RenderedTable(
        layout, faces, rng, resolution=resolution, tilt=rng.uniform(0, 0.1), hand_frames=0, chain=chain,
        supersample=3, aim=aim, zoom=zoom,
    )  # fmt: skip
    ids = sorted(faces)
    if not empty:
        _lay(table, layout, ids, count, rng, situations, overlap)
    sharp = table.sharp()
    ss = 3
    covers = _occluders(table, sharp, rng, situations, ss, empty)
    frame = chain.apply(sharp, np.random.default_rng(rng.randrange(1 << 30)), ss, table._gain)
    truth = _truth(table, covers, enrolled)
    held = {
        "overlap_mm": round(overlap, 2),
        "k1": chain.k1,
        "zoom": zoom,
        "px_per_mm": round(table.px_per_mm, 3),
    }
    return frame, truth, held


def _lay(
    table: RenderedTable,
    layout: MatLayout,
    ids: list[str],
    count: int,
    rng: random.Random,
    situations: Situations,
    overlap: float,
) -> None:
    lines = [zone for zone in layout.zones if len(zone.slots) > 1]
    piles = [zone for zone in layout.zones if len(zone.slots) == 1]
    size = layout.card_mm
    places = [(zone, slot) for zone in lines for slot in range(len(zone.slots))]
    chosen = rng.sample(places, min(count, len(places)))
    if overlap:  # cards of a line laid overlapping are laid in order: each is on or under the last
        chosen.sort(key=lambda place: (place[0].name, place[1] * rng.choice((1, -1))))
    taken = {(zone.name, slot) for zone, slot in chosen}
    for zone, slot in chosen:
        rect = zone.slots[slot]
        cx, cy = rect.centre
        dx, dy = rng.uniform(-3, 3), rng.uniform(-3, 3)
        if not overlap and rng.random() < situations.touching:
            # Pushed against a neighbour that lies there (or would): touching, or a little over it.
            side = rng.choice((-1, 1))
            gap = (zone.slots[1].x - zone.slots[0].x) - size[0]
            dx = side * (gap / 2 + rng.uniform(0, 1.5))
            if (zone.name, slot + side) not in taken:
                dx = side * rng.uniform(0, gap / 2)
        corners = card_corners((cx + dx, cy + dy), size, rng.uniform(-3, 3))
        table.place(zone.name, rng.choice(ids), slot, turned=rng.random() < 0.3, corners_mm=corners)
    for zone in piles:
        if rng.random() >= situations.pile:
            continue
        rect = zone.slots[0]
        for _ in range(rng.randint(1, 5)):
            cx, cy = rect.centre
            corners = card_corners(
                (cx + rng.uniform(-8, 8), cy + rng.uniform(-8, 8)), size, rng.uniform(-14, 14)
            )
            table.place(zone.name, rng.choice(ids), 0, turned=rng.random() < 0.3, corners_mm=corners)


def _occluders(
    table: RenderedTable, sharp: np.ndarray, rng: random.Random, situations: Situations, ss: int, empty: bool
) -> np.ndarray:
    """Hands, tokens and glare drawn over the sharp scene; their mask at the frame's size."""
    width, height = table.size
    mask = np.zeros((height * ss, width * ss), np.uint8)
    laid = table.cards()
    if empty:
        for _ in range(rng.randint(0, 3)):
            _thing(table, sharp, rng, ss)
    if laid and rng.random() < situations.hands:
        target = table.corners_in_frame(rng.choice(laid)).mean(axis=0) * ss
        _hand(sharp, mask, target, rng, ss)
    if laid and rng.random() < situations.tokens:
        for _ in range(rng.randint(1, 3)):
            corners = table.corners_in_frame(rng.choice(laid)) * ss
            _token(sharp, mask, corners, rng, table.px_per_mm * ss)
    if laid and rng.random() < situations.glare:
        corners = table.corners_in_frame(rng.choice(laid)) * ss
        _glare(sharp, mask, corners, rng, table.px_per_mm * ss)
    return cv2.resize(mask, (width, height), interpolation=cv2.INTER_AREA)


def _hand(sharp: np.ndarray, mask: np.ndarray, target: np.ndarray, rng: random.Random, ss: int) -> None:
    """An arm from the nearest frame edge to a palm and fingers near ``target`` (supersampled px)."""
    height, width = sharp.shape[:2]
    x, y = float(target[0]) + rng.uniform(-30, 30) * ss, float(target[1]) + rng.uniform(-30, 30) * ss
    edges = [(x, height + 40.0 * ss), (x, -40.0 * ss), (-40.0 * ss, y), (width + 40.0 * ss, y)]
    start = min(edges, key=lambda point: math.dist(point, (x, y)))
    angle = math.atan2(y - start[1], x - start[0])
    normal = (-math.sin(angle), math.cos(angle))
    arm = rng.uniform(22, 32) * ss
    shape = np.zeros(mask.shape, np.uint8)
    polygon = np.array(
        [
            (start[0] + normal[0] * arm, start[1] + normal[1] * arm),
            (x + normal[0] * arm * 0.8, y + normal[1] * arm * 0.8),
            (x - normal[0] * arm * 0.8, y - normal[1] * arm * 0.8),
            (start[0] - normal[0] * arm, start[1] - normal[1] * arm),
        ],
        np.int32,
    )
    cv2.fillConvexPoly(shape, polygon, 255)
    palm = (int(x), int(y))
    cv2.ellipse(shape, palm, (int(arm * 1.1), int(arm * 0.9)), math.degrees(angle), 0, 360, 255, -1)
    for finger in range(4):
        spread = angle + math.radians(-30 + 20 * finger)
        tip = (int(x + math.cos(spread) * arm * 2.0), int(y + math.sin(spread) * arm * 2.0))
        cv2.line(shape, palm, tip, 255, int(arm * 0.35))
    colour = np.array(rng.choice(SKIN_TONES), np.float32) * rng.uniform(0.85, 1.1)
    sharp[shape > 0] = np.clip(colour, 0, 255).astype(np.uint8)
    mask |= shape


def _on_card(corners: np.ndarray, u: float, v: float) -> np.ndarray:
    """The point at (u, v) of a card's face (0..1 across, 0..1 down) whose corners lie at ``corners``."""
    top = corners[0] + (corners[1] - corners[0]) * u
    bottom = corners[3] + (corners[2] - corners[3]) * u
    return top + (bottom - top) * v


def _token(
    sharp: np.ndarray, mask: np.ndarray, corners: np.ndarray, rng: random.Random, px_per_mm: float
) -> None:
    """A game's token (a cone seen from above, a cube, a disc) somewhere on a card."""
    u, v = rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)
    centre = _on_card(corners, u, v)
    radius = rng.uniform(7, 12) * px_per_mm
    colour = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    shape = np.zeros(mask.shape, np.uint8)
    c = (int(centre[0]), int(centre[1]))
    if rng.random() < 0.5:
        cv2.circle(shape, c, int(radius), 255, -1)
        sharp[shape > 0] = colour
        cv2.circle(sharp, c, int(radius * 0.45), tuple(min(255, int(k * 1.3) + 20) for k in colour), -1)
    else:
        box = cv2.boxPoints((c, (radius * 1.6, radius * 1.6), rng.uniform(0, 90))).astype(np.int32)
        cv2.fillConvexPoly(shape, box, 255)
        sharp[shape > 0] = colour
    mask |= shape


def _glare(
    sharp: np.ndarray, mask: np.ndarray, corners: np.ndarray, rng: random.Random, px_per_mm: float
) -> None:
    """A lamp's reflection on a glossy card: a soft white blob."""
    u, v = rng.uniform(0.2, 0.8), rng.uniform(0.2, 0.8)
    centre = _on_card(corners, u, v)
    short = float(np.linalg.norm(corners[1] - corners[0]))
    axes = (int(short * rng.uniform(0.1, 0.25)), int(short * rng.uniform(0.06, 0.15)))
    blob = np.zeros(mask.shape, np.float32)
    cv2.ellipse(blob, (int(centre[0]), int(centre[1])), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    blob = cv2.GaussianBlur(blob, (0, 0), max(1.0, axes[1] * 0.4))
    region = blob > 0.02
    sharp[region] = np.clip(
        sharp[region] * (1 - blob[region, None]) + 255 * blob[region, None], 0, 255
    ).astype(np.uint8)
    mask[blob > 0.5] = 255


def _thing(table: RenderedTable, sharp: np.ndarray, rng: random.Random, ss: int) -> None:
    """Something on an empty mat that is not a card: a phone, a die, a pencil, a coaster."""
    zone = rng.choice(table.layout.zones)
    rect = zone.slots[rng.randrange(len(zone.slots))]
    centre = np.asarray(rect.centre, np.float64) + np.array((rng.uniform(-10, 10), rng.uniform(-10, 10)))
    kind = rng.choice(("phone", "die", "pencil", "coaster"))
    size = {"phone": (70, 145), "die": (16, 16), "pencil": (7, 170), "coaster": (90, 90)}[kind]
    corners = table.frame_points(card_corners(tuple(centre), size, rng.uniform(0, 180))) * ss
    face = np.zeros((100, int(100 * size[1] / size[0]) or 1, 3), np.uint8).transpose(1, 0, 2).copy()
    face[:] = {"phone": (25, 25, 25), "die": (240, 240, 240), "pencil": (40, 180, 230)}.get(
        kind, (rng.randrange(256), rng.randrange(256), rng.randrange(256))
    )
    if kind == "phone":
        cv2.rectangle(face, (6, 12), (face.shape[1] - 7, face.shape[0] - 12), (90, 60, 30), -1)
    if kind == "die":
        for dx, dy in ((30, 30), (70, 70), (50, 50)):
            cv2.circle(face, (dx, dy), 8, (20, 20, 20), -1)
    paste_face(sharp, face, corners.astype(np.float32))


def _truth(table: RenderedTable, covers: np.ndarray, enrolled: set[str]) -> list[dict[str, Any]]:
    laid = table.cards()
    quads = [table.corners_in_frame(card).astype(np.float32) for card in laid]
    return truth_entries([(card.card, card.zone) for card in laid], quads, covers, table.size, enrolled)


def truth_entries(
    cards: list[tuple[str, str]],
    quads: list[np.ndarray],
    covers: np.ndarray,
    size: tuple[int, int],
    enrolled: set[str],
) -> list[dict[str, Any]]:
    """One entry per card with any of its face in sight (``cards``: (id, zone) in the order laid,
    each over the ones before; ``quads`` their corners in the frame; ``covers`` a frame-sized mask
    of what lies over them): corners, what covers it, its situations."""
    width, height = size
    pad = 200
    canvas = (height + 2 * pad, width + 2 * pad)
    masks = []
    for quad in quads:
        mask = np.zeros(canvas, np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad + pad).astype(np.int32), 255)
        masks.append(mask)
    in_frame = np.zeros(canvas, np.uint8)
    in_frame[pad : pad + height, pad : pad + width] = 255
    cover = np.zeros(canvas, np.uint8)
    cover[pad : pad + height, pad : pad + width] = (covers > 64).astype(np.uint8) * 255
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (int(2 * CROWDED_PX) + 1, int(2 * CROWDED_PX) + 1))
    truth = []
    for index, (card, zone) in enumerate(cards):
        own = masks[index]
        area = max(1, cv2.countNonZero(own))
        above = np.zeros(canvas, np.uint8)
        for later in masks[index + 1 :]:
            above |= later
        uncovered = own & ~above
        visible = uncovered & in_frame & ~cover
        share = cv2.countNonZero(visible) / area
        if cv2.countNonZero(uncovered & in_frame) / area < 0.1:
            continue  # beneath a pile's top card, or out of view: nobody can see it
        situations = []
        near = cv2.dilate(own, kernel)
        others = [m for k, m in enumerate(masks) if k != index]
        if any(cv2.countNonZero(near & m & in_frame) for m in others):
            situations.append("crowded")
        if cv2.countNonZero(own & above):
            situations.append("overlapped")
        if cv2.countNonZero(own & ~in_frame):
            situations.append("frame_edge")
        covered = cv2.countNonZero(own & cover & in_frame) / area
        if covered > 0.005:
            situations.append("occluded")
        truth.append(
            {
                "card": card,
                "corners": quads[index].round(1).tolist(),
                "occluded": covered > 0.005,
                "covered": round(covered, 3),
                "visible": round(share, 3),
                "situations": situations,
                "enrolled": card in enrolled,
                "zone": zone,
            }
        )
    return truth


SceneRender = Callable[[dict[str, np.ndarray], set[str], random.Random, bool], tuple[np.ndarray, list, dict]]
"""(faces by card, the enrolled ids, the set's random source, empty) → (frame, truth, scene info)."""


def write_scene_set(
    refdir: Path,
    scenedir: Path,
    faces: Sequence[ReferenceFace],
    *,
    cards: int,
    scenes: int,
    empty: int,
    rng: random.Random,
    render: SceneRender,
    description: Mapping[str, Any],
) -> None:
    """A scene set of any renderer: the first ``cards`` faces enrolled (``refdir/<card>.png``), the
    others strangers; ``scenes`` scenes (the first ``empty`` without cards) saved as JPEG at quality 95
    (the camera's own compression is in the renderer's chain), ``truth.json``, and ``set.json`` (the
    ``description`` and each scene's info)."""
    enrolled = {face.card for face in faces[:cards]}
    if refdir.exists():
        shutil.rmtree(refdir)
    refdir.mkdir(parents=True)
    scenedir.mkdir(parents=True, exist_ok=True)
    for face in faces[:cards]:
        cv2.imwrite(str(refdir / f"{face.card}.png"), face.image)
    images = {face.card: face.image for face in faces}
    truth: dict[str, list[dict[str, Any]]] = {}
    held: dict[str, dict[str, Any]] = {}
    for index in range(scenes):
        name = f"scene-{index:04d}.jpg"
        frame, entries, info = render(images, enrolled, rng, index < empty)
        truth[name] = entries
        held[name] = info
        cv2.imwrite(str(scenedir / name), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    (scenedir / TRUTH_FILE).write_text(json.dumps(truth, indent=1) + "\n")
    (scenedir / SET_FILE).write_text(json.dumps({**description, "scenes": held}, indent=1) + "\n")


def write_mat_set(
    refdir: Path,
    scenedir: Path,
    *,
    game_data: Mapping[str, Any],
    players: int,
    cards: int = 60,
    scenes: int = 120,
    empty: int = 12,
    seed: int = 1,
    per_scene: tuple[int, int] = (12, 40),
    resolution: tuple[int, int] = (1280, 720),
    faces_of: Any = None,
) -> None:
    """A scene set on the mat (``write_scene_set``) rendered by ``render_mat_scene``."""
    rng = random.Random(seed)
    faces = (faces_of or card_faces)(card_names(cards + 4, rng), rng)

    def render(
        images: dict[str, np.ndarray], enrolled: set[str], rng: random.Random, empty: bool
    ) -> tuple[np.ndarray, list[dict[str, Any]], dict[str, Any]]:
        count = rng.randint(*per_scene)
        return render_mat_scene(
            game_data, players, images, enrolled, count, rng, resolution=resolution, empty=empty
        )

    description = {
        "kind": "mat",
        "mat": dict(game_data),
        "players": players,
        "seed": seed,
        "frame": list(resolution),
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


def scene_layout(scenedir: Path, scene: str) -> MatLayout | None:
    """The mat a scene of a mat set lies on (None: a set without a mat)."""
    path = scenedir / SET_FILE
    if not path.is_file():
        return None
    description = json.loads(path.read_text())
    data = description["mat"]
    info = description.get("scenes", {}).get(scene, {})
    if info.get("overlap_mm"):
        data = overlapping(data, float(info["overlap_mm"]))
    return build_layout(data, int(description["players"]))
