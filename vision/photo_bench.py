"""``companion bench vision --phone``: how well a phone's photo of a drawn card is named.

Hand-held-style photos are rendered from each deck's clean faces: a table (wood, cloth or a dark
mat, with its grain and a light falling off across it), the card at any turn in the plane, tilted
(each corner moved by up to ``TILT`` of the card's size: a phone held at up to about 35°), from near
(the card 90 % of the photo's short side, always whole in the photo) to far (25 %), off centre, in
three photos of ten a thumb over an edge (about 3 % of the card);
then a phone's chain: a colour cast, focus blur, now and then motion blur, sensor noise, JPEG. Each
photo goes the whole way a phone's upload does (JPEG bytes → ``decode_photo`` → ``PhotoScanner``).
Photos of the table without a card count false positives. Two decks: the tuning faces
(``vision.synth``) and the held-out faces (``vision.heldout``: another renderer the thresholds were
never set on).

Per deck: ``named`` = photos whose card was named sure and right / photos of a card; ``misnamed`` =
named sure but wrong; ``unsure`` = offered without certainty (the player picks); ``top1`` and
``top4`` = the card among the first one or four offered, sure or not (what the control page shows);
``false_positives_on_empty`` = photos without a card where a card was named sure; CPU ms per photo.
"""

from __future__ import annotations

import random
import time
from typing import Any

import cv2
import numpy as np

from companion.percentiles import percentile
from vision.heldout import held_out_faces
from vision.photo import PhotoScanner, decode_photo
from vision.references import ReferenceFace, ReferenceSet
from vision.synth import SKIN_TONES, card_faces, card_names

SIZE = (1200, 1600)
"""Width, height of a rendered photo (a phone's photo, shrunk by the control page before upload)."""
TILT = 0.12
CARD = (63.0, 88.0)


def phone_bench(seed: int = 1, photos: int = 120, empty: int = 20, cards: int = 60) -> dict[str, Any]:
    cv2.setNumThreads(1)
    results: dict[str, Any] = {}
    for deck in ("tuning", "held-out"):
        rng = random.Random(f"{seed}-{deck}")
        names = card_names(cards, rng)
        faces = card_faces(names, rng) if deck == "tuning" else held_out_faces(names, rng)
        results[deck] = measure(faces, rng, photos, empty)
    return results


def measure(faces: list[ReferenceFace], rng: random.Random, photos: int, empty: int) -> dict[str, Any]:
    scanner = PhotoScanner(ReferenceSet.from_faces(faces))
    counts = {"named": 0, "misnamed": 0, "unsure": 0, "top1": 0, "top4": 0, "false_positives_on_empty": 0}
    cpu: list[float] = []
    for index in range(photos + empty):
        face = rng.choice(faces) if index < photos else None
        data = photo_bytes(face.image if face else None, rng)
        started = time.process_time()
        scan = scanner.scan(decode_photo(data))
        cpu.append((time.process_time() - started) * 1000)
        offered = [c.card for c in scan.candidates]
        if face is None:
            counts["false_positives_on_empty"] += scan.sure
            continue
        counts["top1"] += offered[:1] == [face.card]
        counts["top4"] += face.card in offered[:4]
        if scan.sure:
            counts["named" if scan.best == face.card else "misnamed"] += 1
        else:
            counts["unsure"] += 1

    def ms(p: float) -> float | None:
        value = percentile(cpu, p)
        return None if value is None else round(value, 2)

    return {
        "photos": photos,
        "empty_photos": empty,
        **counts,
        "named_share": round(counts["named"] / photos, 4) if photos else None,
        "top4_share": round(counts["top4"] / photos, 4) if photos else None,
        "cpu_ms_per_photo_p50": ms(50),
        "cpu_ms_per_photo_p99": ms(99),
    }


def photo_bytes(face: np.ndarray | None, rng: random.Random) -> bytes:
    image = render_photo(face, rng)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(70, 92)])
    assert ok
    return data.tobytes()


def render_photo(face: np.ndarray | None, rng: random.Random) -> np.ndarray:
    """A hand-held photo of ``face`` lying on a table (or of the table alone), BGR uint8."""
    width, height = SIZE if rng.random() < 0.7 else SIZE[::-1]
    photo = _table(width, height, rng)
    if face is not None:
        short = min(width, height) * rng.uniform(0.25, 0.9)
        size = np.float32([short * CARD[0] / CARD[1], short])
        corners = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]) * size - size / 2
        corners += np.float32([[rng.uniform(-1, 1), rng.uniform(-1, 1)] for _ in range(4)]) * TILT * size
        turn = np.deg2rad(rng.uniform(0, 360))
        rotation = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        extent = np.ptp(corners @ rotation.T, axis=0)
        fit = min(1.0, 0.96 * float(np.min(np.float32([width, height]) / extent)))
        corners *= fit  # the photographer frames the whole card
        spare = (np.float32([width, height]) - extent * fit) / 2
        centre = np.float32([width / 2, height / 2]) + np.float32(
            [rng.uniform(-0.6, 0.6) * max(spare[0], 0), rng.uniform(-0.6, 0.6) * max(spare[1], 0)]
        )
        quad = (corners @ rotation.T + centre).astype(np.float32)
        h, w = face.shape[:2]
        source = np.float32([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]])
        warp = cv2.getPerspectiveTransform(source, quad)
        laid = cv2.warpPerspective(face, warp, (width, height), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), warp, (width, height))
        shadow = cv2.GaussianBlur(mask, (0, 0), 6).astype(np.float32)[..., None] / 255
        photo = photo * (1 - 0.35 * np.roll(shadow, (6, 4), axis=(0, 1)))
        alpha = mask.astype(np.float32)[..., None] / 255
        photo = photo * (1 - alpha) + laid.astype(np.float32) * alpha
        if rng.random() < 0.3:
            _thumb(photo, quad, rng)
    photo = _light(photo, rng)
    return _phone_chain(photo, rng)


def _table(width: int, height: int, rng: random.Random) -> np.ndarray:
    colour = rng.choice([(55, 85, 120), (40, 60, 95), (70, 110, 60), (45, 45, 50), (150, 150, 145)])
    grain = cv2.resize(
        np.float32([[rng.gauss(0, 1) for _ in range(8)] for _ in range(64)]),
        (width, height),
        interpolation=cv2.INTER_CUBIC,
    )
    photo = np.empty((height, width, 3), np.float32)
    photo[:] = colour
    return photo * (1 + 0.08 * grain[..., None])


def _thumb(photo: np.ndarray, quad: np.ndarray, rng: random.Random) -> None:
    """A thumb over one of the card's edges, covering a few per cent of it."""
    side = rng.randrange(4)
    a, b = quad[side], quad[(side + 1) % 4]
    at = a + (b - a) * rng.uniform(0.3, 0.7)
    length = float(np.linalg.norm(b - a))
    axes = (round(length * 0.08), round(length * 0.16))
    angle = float(np.degrees(np.arctan2(*(b - a)[::-1]))) + 90
    mask = np.zeros(photo.shape[:2], np.uint8)
    cv2.ellipse(mask, (round(float(at[0])), round(float(at[1]))), axes, angle, 0, 360, 255, -1)
    tone = np.float32(rng.choice(SKIN_TONES))
    alpha = cv2.GaussianBlur(mask, (0, 0), 2).astype(np.float32)[..., None] / 255
    photo[:] = photo * (1 - alpha) + tone * alpha


def _light(photo: np.ndarray, rng: random.Random) -> np.ndarray:
    height, width = photo.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xs / width - 0.5) * np.cos(angle) + (ys / height - 0.5) * np.sin(angle)
    light = rng.uniform(0.75, 1.1) * (1 + rng.uniform(0, 0.4) * ramp)
    cast = np.float32([1 + rng.uniform(-0.12, 0.12) for _ in range(3)])
    return photo * light[..., None] * cast


def _phone_chain(photo: np.ndarray, rng: random.Random) -> np.ndarray:
    sigma = rng.uniform(0.5, 2.5)
    photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    if rng.random() < 0.2:  # a shaking hand
        length = rng.randint(5, 15)
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        turn = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        photo = cv2.filter2D(photo, -1, cv2.warpAffine(kernel, turn, (length, length)))
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(2, 6), photo.shape)
    return np.clip(photo + noise, 0, 255).astype(np.uint8)
