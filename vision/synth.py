"""Rendered card faces and table scenes for tests, the bench and the demo: no downloaded data.

Faces look like real game cards on purpose, so that similar cards make recognition hard: a few
templates (border colour, layout) shared by many cards, a title bar with the card's name, an art box
of coloured blobs, a rules text box, a cost medallion. Cards of one template differ only in title,
art and text, as the cards of a real deck do.

Scenes lay faces on a textured table seen by a tilted camera; the hard variant adds a lighting
gradient and spot, a colour cast, blur, sensor noise, skin-coloured hands and arms over cards, and
distractor rectangles (a phone, a notebook, a blank card back, a coaster) that must never be named.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.references import ReferenceFace

FACE_SIZE = (250, 350)
"""Width, height of a rendered face in pixels (a 63 × 88 mm card at about 4 px/mm)."""
SCENE_SIZE = (1280, 720)
TRUTH_FILE = "truth.json"

TEMPLATES = (
    # (border BGR, title bar BGR, panel BGR): six "colours" of a deck, many cards each
    ((40, 40, 150), (30, 30, 100), (205, 225, 235)),
    ((130, 70, 30), (90, 45, 20), (225, 220, 205)),
    ((40, 120, 40), (25, 80, 25), (210, 230, 215)),
    ((30, 30, 30), (70, 70, 70), (215, 215, 215)),
    ((120, 40, 120), (80, 25, 80), (230, 210, 230)),
    ((30, 140, 190), (20, 95, 140), (200, 230, 240)),
)
SYLLABLES = (
    "gor", "bag", "snot", "ling", "az", "og", "skull", "split", "grim", "tusk", "bog", "rat", "zog",
    "mug", "krag", "nar", "ub", "dak", "gob", "lin", "wart", "fang", "ruk", "thrak", "mok", "gut",
)  # fmt: skip
SKIN_TONES = ((150, 180, 225), (120, 160, 210), (90, 120, 170), (60, 85, 125), (170, 195, 235))


@dataclass(frozen=True)
class Placement:
    """Where one face lies on the table: its centre and width in frame pixels, its rotation."""

    face: int
    """Index into the faces given to ``render_scene``."""
    centre: tuple[float, float]
    angle: float
    """Degrees, counter-clockwise on screen; 180 is upside down."""
    width: float


def card_names(count: int, rng: random.Random) -> list[str]:
    """Distinct card ids that read like card names ("gorbag-skullsplit")."""
    names: list[str] = []
    while len(names) < count:
        words = [
            "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3))) for _ in range(rng.randint(1, 3))
        ]
        name = "-".join(words)
        if name not in names:
            names.append(name)
    return names


def card_faces(
    ids: Sequence[str], rng: random.Random, size: tuple[int, int] = FACE_SIZE
) -> list[ReferenceFace]:
    """One clean face per id, in the deck's few templates (so neighbours in a template look alike)."""
    return [ReferenceFace(card, draw_face(card, rng, size)) for card in ids]


def twin_faces(
    ids: Sequence[str], rng: random.Random, size: tuple[int, int] = FACE_SIZE
) -> list[ReferenceFace]:
    """Faces in pairs (ids 0 and 1, 2 and 3, ...) that share everything but their title: one card
    printed twice under two names (a deck's variants, a promo), which only the title tells apart."""
    faces = []
    for index, card in enumerate(ids):
        if index % 2 == 0:
            state = rng.getstate()
        else:
            rng.setstate(state)
        faces.append(ReferenceFace(card, draw_face(card, rng, size)))
    return faces


def draw_face(card: str, rng: random.Random, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    width, height = size
    sx, sy = width / FACE_SIZE[0], height / FACE_SIZE[1]
    border, title_bar, panel = rng.choice(TEMPLATES)
    face = np.full((FACE_SIZE[1], FACE_SIZE[0], 3), border, np.uint8)
    cv2.rectangle(face, (0, 0), (249, 349), (235, 235, 235), 3)  # the thin light edge of printed cards
    cv2.rectangle(face, (14, 14), (235, 335), panel, -1)
    cv2.rectangle(face, (18, 18), (231, 50), title_bar, -1)
    title = card.replace("-", " ").title()
    scale = min(0.6, 190 / max(1, cv2.getTextSize(title, cv2.FONT_HERSHEY_SIMPLEX, 1, 2)[0][0]))
    cv2.putText(face, title, (50, 42), cv2.FONT_HERSHEY_SIMPLEX, scale, (240, 240, 240), 2, cv2.LINE_AA)
    cv2.circle(face, (32, 34), 16, (20, 160, 220), -1)
    cv2.putText(face, str(rng.randint(1, 9)), (25, 43), cv2.FONT_HERSHEY_SIMPLEX, 0.75, (0, 0, 0), 2)
    draw_art(face[56:200, 18:232], rng)
    cv2.rectangle(face, (18, 56), (231, 200), title_bar, 2)
    for line in range(rng.randint(3, 5)):
        words = " ".join(rng.choice(SYLLABLES) * rng.randint(1, 2) for _ in range(rng.randint(3, 5)))
        cv2.putText(face, words, (24, 225 + 20 * line), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (30, 30, 30), 1)
    for slot in range(rng.randint(1, 3)):  # strength / symbol icons along the bottom
        centre = (205 - 34 * slot, 318)
        cv2.circle(face, centre, 12, rng.choice(TEMPLATES)[0], -1)
        cv2.circle(face, centre, 12, (20, 20, 20), 1)
    if (sx, sy) != (1, 1):
        face = cv2.resize(face, (width, height), interpolation=cv2.INTER_AREA)
    return face


def draw_art(art: np.ndarray, rng: random.Random) -> None:
    """Blobs, polygons and strokes on a two-tone sky: the picture that tells similar cards apart."""
    height, width = art.shape[:2]
    top, bottom = np.array(random_colour(rng)), np.array(random_colour(rng))
    ramp = np.linspace(0, 1, height)[:, None, None]
    art[:] = (top * (1 - ramp) + bottom * ramp).astype(np.uint8)
    for _ in range(rng.randint(4, 8)):
        colour = random_colour(rng)
        kind = rng.random()
        centre = (rng.randrange(width), rng.randrange(height))
        if kind < 0.4:
            axes = (rng.randint(8, width // 3), rng.randint(8, height // 3))
            cv2.ellipse(art, centre, axes, rng.uniform(0, 180), 0, 360, colour, -1, cv2.LINE_AA)
        elif kind < 0.75:
            points = np.array(
                [(rng.randrange(width), rng.randrange(height)) for _ in range(rng.randint(3, 5))], np.int32
            )
            cv2.fillPoly(art, [points], colour, cv2.LINE_AA)
        else:
            end = (rng.randrange(width), rng.randrange(height))
            cv2.line(art, centre, end, colour, rng.randint(3, 9), cv2.LINE_AA)


def random_colour(rng: random.Random) -> tuple[int, int, int]:
    return (rng.randrange(256), rng.randrange(256), rng.randrange(256))


def random_placements(
    count: int,
    faces: int,
    rng: random.Random,
    size: tuple[int, int] = SCENE_SIZE,
    widths: tuple[float, float] = (85.0, 150.0),
) -> list[Placement]:
    """Up to ``count`` cards at random spots and angles, none overlapping another (a card that lies
    on another is a different problem: the table knows only the top one)."""
    placed: list[tuple[float, float, float]] = []
    placements: list[Placement] = []
    for _ in range(count * 30):
        if len(placements) == count:
            break
        width = rng.uniform(*widths)
        radius = width * 1.5 / 2 * 1.25  # half the diagonal (aspect 1.4), plus room for perspective
        x = rng.uniform(radius, size[0] - radius)
        y = rng.uniform(radius, size[1] - radius)
        if all(math.dist((x, y), (px, py)) > radius + pr for px, py, pr in placed):
            placed.append((x, y, radius))
            placements.append(Placement(rng.randrange(faces), (x, y), rng.uniform(0, 360), width))
    return placements


def placement_corners(placement: Placement, face_size: tuple[int, int]) -> np.ndarray:
    """The face's corners (top-left, top-right, bottom-right, bottom-left) on the flat table."""
    width = placement.width
    height = width * face_size[1] / face_size[0]
    local = np.array([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2
    turn = math.radians(-placement.angle)  # counter-clockwise on screen, where y points down
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    return (local @ rotation.T + np.array(placement.centre)).astype(np.float32)


def camera_tilt(rng: random.Random, size: tuple[int, int], strength: float) -> np.ndarray:
    """A homography for a camera that does not look straight down: the far edge of the table shrinks."""
    width, height = size
    squeeze = rng.uniform(0, strength) * width
    lean = rng.uniform(-strength, strength) * width / 2
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    target = np.float32([[squeeze + lean, 0], [width - squeeze + lean, 0], [width, height], [0, height]])
    return cv2.getPerspectiveTransform(source, target)


def render_scene(
    faces: Sequence[ReferenceFace],
    placements: Sequence[Placement],
    rng: random.Random,
    size: tuple[int, int] = SCENE_SIZE,
    *,
    hard: bool = True,
    hands: int | None = None,
    distractors: int | None = None,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """A BGR frame of the faces lying on a table, and its truth: one ``{"card", "corners",
    "occluded"}`` per card, corners clockwise from the face's top-left, in frame pixels.

    ``hard`` tilts the camera and adds the lighting, blur, noise, hands and distractors; ``hands``
    and ``distractors`` override how many (by default random in a hard scene, none in an easy one).
    """
    width, height = size
    frame = table_texture(rng, size)
    tilt = camera_tilt(rng, size, 0.12) if hard else np.eye(3)
    if distractors is None:
        distractors = rng.choice((0, 0, 1, 2)) if hard else 0
    taken = [(*placement.centre, placement.width * 0.95) for placement in placements]
    for _ in range(distractors):
        draw_distractor(frame, rng, tilt, taken)
    truth: list[dict[str, Any]] = []
    for placement in placements:
        face = faces[placement.face]
        corners = placement_corners(placement, (face.image.shape[1], face.image.shape[0]))
        corners = cv2.perspectiveTransform(corners[None], tilt)[0]
        if hard:  # a warped card, a crooked print: each corner off by up to 3 % of the width
            corners = (
                corners
                + np.float32([[rng.uniform(-1, 1), rng.uniform(-1, 1)] for _ in range(4)])
                * 0.03
                * placement.width
            )
        paste_face(frame, face.image, corners)
        truth.append({"card": face.card, "corners": corners.round(1).tolist(), "occluded": False})
    hand_mask = np.zeros((height, width), np.uint8)
    if hands is None:
        hands = (1 if rng.random() < 0.5 else 0) if hard and truth else 0
    for _ in range(hands):
        target = rng.choice(truth)["corners"] if truth else [[width / 2, height / 2]]
        draw_hand(frame, hand_mask, np.mean(np.array(target), axis=0), rng)
    for entry in truth:
        card_mask = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(card_mask, np.array(entry["corners"], np.int32), 255)
        entry["occluded"] = bool(cv2.countNonZero(cv2.bitwise_and(card_mask, hand_mask)))
    if hard:
        frame = degrade(frame, rng)
    return frame, truth


def table_texture(rng: random.Random, size: tuple[int, int]) -> np.ndarray:
    """Wood grain or felt: a base colour, low-frequency blotches and streaks."""
    width, height = size
    base = np.array(rng.choice(((40, 70, 110), (50, 90, 140), (60, 60, 60), (40, 90, 40), (90, 60, 40))))
    small = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 1, (height // 16, width // 16, 1))
    blotches = cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)[..., None]
    grain = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 1, (height, 1, 1))
    grain = cv2.GaussianBlur(np.repeat(grain, 8, axis=1), (1, 9), 0)[:, :1, None]
    frame = base + 5 * blotches + 4 * grain
    return np.clip(frame, 0, 255).astype(np.uint8)


def paste_face(frame: np.ndarray, face: np.ndarray, corners: np.ndarray) -> None:
    """Draws the face into the frame with its corners at ``corners`` (anti-aliased edge)."""
    height, width = face.shape[:2]
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
    size = (frame.shape[1], frame.shape[0])
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, size[0]), min(y1, size[1])
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    box = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(face, shift @ warp, box, flags=cv2.INTER_AREA)
    alpha = cv2.warpPerspective(np.full((height, width), 255, np.uint8), shift @ warp, box)
    alpha = alpha[..., None].astype(np.float32) / 255
    region = frame[y0:y1, x0:x1]
    region[:] = (warped * alpha + region * (1 - alpha)).astype(np.uint8)


def draw_distractor(
    frame: np.ndarray, rng: random.Random, tilt: np.ndarray, taken: list[tuple[float, float, float]]
) -> None:
    """A rectangle that is not a card face (a phone, a notebook, a blank card back, a coaster), at a
    free spot: ``taken`` holds (x, y, radius) of what already lies there, and gets this one too."""
    height, width = frame.shape[:2]
    kind = rng.choice(("phone", "notebook", "card back", "coaster"))
    aspect = {"phone": 2.0, "notebook": 1.4, "card back": 1.4, "coaster": 1.0}[kind]
    for _ in range(50):
        w = rng.uniform(70, 200)
        centre = (rng.uniform(w, width - w), rng.uniform(w, height - w))
        radius = w * math.hypot(1, aspect) / 2 * 1.2
        if all(math.dist(centre, (x, y)) > radius + r for x, y, r in taken):
            break
    else:
        return
    taken.append((*centre, radius))
    corners = placement_corners(Placement(0, centre, rng.uniform(0, 360), w), (100, int(100 * aspect)))
    corners = cv2.perspectiveTransform(corners[None], tilt)[0]
    face = np.zeros((int(100 * aspect), 100, 3), np.uint8)
    if kind == "phone":
        face[:] = (20, 20, 20)
        cv2.rectangle(face, (6, 14), (93, int(100 * aspect) - 14), (90, 60, 30), -1)
    elif kind == "notebook":
        face[:] = random_colour(rng)
        for y in range(10, face.shape[0], 9):
            cv2.line(face, (0, y), (99, y), (200, 200, 200), 1)
    elif kind == "card back":
        face[:] = (30, 30, 110)
        cv2.rectangle(face, (8, 8), (91, face.shape[0] - 9), (40, 160, 200), 3)
        cv2.circle(face, (50, face.shape[0] // 2), 25, (40, 160, 200), 3)
    else:
        face[:] = random_colour(rng)
    paste_face(frame, face, corners)


def draw_hand(frame: np.ndarray, mask: np.ndarray, target: np.ndarray, rng: random.Random) -> None:
    """A skin-coloured arm from the nearest frame edge to a palm and fingers over ``target``."""
    height, width = frame.shape[:2]
    colour = rng.choice(SKIN_TONES)
    x, y = float(target[0]) + rng.uniform(-40, 40), float(target[1]) + rng.uniform(-40, 40)
    edges = [(x, height + 40), (x, -40), (-40, y), (width + 40, y)]
    start = min(edges, key=lambda point: math.dist(point, (x, y)))
    angle = math.atan2(y - start[1], x - start[0])
    normal = (-math.sin(angle), math.cos(angle))
    arm = rng.uniform(35, 50)
    polygon = np.array(
        [
            (start[0] + normal[0] * arm, start[1] + normal[1] * arm),
            (x + normal[0] * arm * 0.8, y + normal[1] * arm * 0.8),
            (x - normal[0] * arm * 0.8, y - normal[1] * arm * 0.8),
            (start[0] - normal[0] * arm, start[1] - normal[1] * arm),
        ],
        np.int32,
    )
    shapes = np.zeros_like(mask)
    cv2.fillConvexPoly(shapes, polygon, 255)
    palm = (int(x), int(y))
    cv2.ellipse(shapes, palm, (int(arm * 1.1), int(arm * 0.9)), math.degrees(angle), 0, 360, 255, -1)
    for finger in range(4):  # fingers spread ahead of the palm
        spread = angle + math.radians(-30 + 20 * finger)
        tip = (int(x + math.cos(spread) * arm * 2.1), int(y + math.sin(spread) * arm * 2.1))
        cv2.line(shapes, palm, tip, 255, int(arm * 0.35))
    shade = np.array(colour, np.float32) * rng.uniform(0.85, 1.1)
    frame[shapes > 0] = np.clip(shade, 0, 255).astype(np.uint8)
    mask |= shapes


def degrade(frame: np.ndarray, rng: random.Random) -> np.ndarray:
    """Lighting gradient and spot, colour cast, defocus blur and sensor noise."""
    height, width = frame.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(direction) + ys * math.sin(direction)) / math.hypot(width, height)
    low, high = rng.uniform(0.5, 0.8), rng.uniform(1.0, 1.3)
    gain = low + (high - low) * (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
    spot_x, spot_y = rng.uniform(0, width), rng.uniform(0, height)
    gain += rng.uniform(0, 0.35) * np.exp(-((xs - spot_x) ** 2 + (ys - spot_y) ** 2) / (2 * (width / 4) ** 2))
    cast = np.array([rng.uniform(0.85, 1.1), rng.uniform(0.9, 1.05), rng.uniform(0.9, 1.15)], np.float32)
    lit = frame.astype(np.float32) * gain[..., None] * cast
    sigma = rng.uniform(0.3, 1.6)
    lit = cv2.GaussianBlur(lit, (0, 0), sigma)
    lit += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 6), lit.shape)
    return np.clip(lit, 0, 255).astype(np.uint8)


def write_benchmark_set(
    refdir: Path,
    scenedir: Path,
    *,
    cards: int = 60,
    scenes: int = 200,
    empty: int = 20,
    seed: int = 1,
    per_scene: tuple[int, int] = (4, 12),
    quality: int = 90,
) -> None:
    """The hard synthetic set: ``refdir/<card>.png`` clean faces, ``scenedir/*.jpg`` scenes and
    ``scenedir/truth.json``. Of the scenes, ``empty`` hold no card (table, hands, distractors only).
    Two extra faces never enrolled lie in some scenes: they must be reported as nothing."""
    rng = random.Random(seed)
    names = card_names(cards + 2, rng)
    faces = card_faces(names, rng)
    enrolled, strangers = faces[:cards], faces[cards:]
    refdir.mkdir(parents=True, exist_ok=True)
    scenedir.mkdir(parents=True, exist_ok=True)
    for face in enrolled:
        cv2.imwrite(str(refdir / f"{face.card}.png"), face.image)
    truth: dict[str, list[dict[str, Any]]] = {}
    for index in range(scenes):
        name = f"scene-{index:04d}.jpg"
        if index < empty:
            frame, entries = render_scene(
                faces, [], rng, hands=rng.choice((0, 1)), distractors=rng.randint(1, 3)
            )
        else:
            count = rng.randint(*per_scene)
            placements = random_placements(count, len(faces), rng)
            frame, entries = render_scene(faces, placements, rng)
        truth[name] = [entry for entry in entries if entry["card"] not in {s.card for s in strangers}]
        cv2.imwrite(str(scenedir / name), frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
    (scenedir / TRUTH_FILE).write_text(json.dumps(truth, indent=1) + "\n")
