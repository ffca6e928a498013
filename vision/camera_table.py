"""A rendered table: the mat seen by a tilted camera, card faces lying in its zones, hands, lighting.

``companion demo --camera`` and the tests lay cards with ``place(zone, card)`` / ``remove(zone, card)``
(thread-safe) and read frames through ``RenderedSource``, which is an ordinary ``FrameSource``: the
recognizer and the watcher cannot tell it from a camera. Each change is drawn once (mat, cards,
lighting gradient and colour cast, a few noisy copies); a hand hovers over a card for a few frames
after it is laid or lifted, as a player's would, so the watcher's stability window is exercised.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.settings import CameraSettings
from vision.camera_chain import CameraChain, distort_points
from vision.capture import Frame
from vision.geometry import MARGIN
from vision.mat import render_mat
from vision.synth import SKIN_TONES, paste_face
from vision.zones import MatLayout, Rect, load_layout

NOISY_COPIES = 3
"""Differently noisy copies of each drawn table, cycled so no two frames in a row are identical."""


@dataclass
class LaidCard:
    card: str
    zone: str
    slot: int
    corners_mm: np.ndarray
    """(4, 2) the face's corners on the mat, clockwise from its top-left."""


class RenderedTable:
    """The table the simulated camera films; see the module docstring."""

    def __init__(
        self,
        layout: MatLayout,
        faces: Mapping[str, np.ndarray],
        rng: random.Random,
        *,
        resolution: tuple[int, int] = (1280, 720),
        tilt: float = 0.06,
        hand_frames: int = 2,
        chain: CameraChain | None = None,
        supersample: int = 2,
        jitter: tuple[float, float] = (1.5, 2.0),
        aim: tuple[float, float] = (0.0, 0.0),
        zoom: float = 1.0,
    ) -> None:
        self.layout = layout
        self._rng = rng
        self._hand_frames = hand_frames
        self._lock = threading.Lock()
        self._cards: list[LaidCard] = []
        self._hands: list[tuple[np.ndarray, int]] = []
        """(mat point, frames left) of hands still over the table."""
        self.chain = chain or LIVING_ROOM
        self._supersample = supersample
        self._jitter = jitter
        """How far off its outline a card is laid (mm) and how much it is turned (degrees), at most."""
        self.to_frame, self.size = camera_homography(layout, resolution, tilt, rng, aim, zoom)
        """Mat millimetres → frame pixels (before the lens's distortion), and the frame's (width, height)."""
        self.px_per_mm = float(np.sqrt(abs(np.linalg.det(self.to_frame[:2, :2]))) / abs(self.to_frame[2, 2]))
        card_px = self.px_per_mm * supersample * layout.card_mm[0]
        self._faces = {card: fitted(image, card_px) for card, image in faces.items()}
        self._empty: np.ndarray | None = None
        self._drawn: list[np.ndarray] = []
        self._frame_count = 0
        self._noise = np.random.default_rng(rng.randrange(1 << 30))
        self._gain = self._lighting()

    # ------------------------------------------------------------------------------- the players

    def place(
        self,
        zone: str,
        card: str,
        slot: int | None = None,
        *,
        turned: bool = False,
        corners_mm: np.ndarray | None = None,
    ) -> LaidCard:
        """Lays ``card`` face up in ``slot`` of ``zone``, else its first free slot (on top of a pile);
        ``turned``: upside down; ``corners_mm``: exactly there instead of a little off the outline."""
        if card not in self._faces:
            raise KeyError(f"no face for card {card!r}")
        target = self.layout.zone(zone)
        with self._lock:
            used = {c.slot for c in self._cards if c.zone == zone}
            free = [i for i in range(len(target.slots)) if i not in used]
            if slot is None:
                slot = free[0] if free else len(target.slots) - 1  # a pile: on top of the last card
            corners = corners_mm if corners_mm is not None else self._jittered(target.slots[slot])
            if turned:
                corners = corners[[2, 3, 0, 1]]
            laid = LaidCard(card, zone, slot, np.asarray(corners, np.float32))
            self._cards.append(laid)
            self._touched(laid)
        return laid

    def remove(self, zone: str, card: str) -> bool:
        """Takes the topmost ``card`` from ``zone``; False when none lies there."""
        with self._lock:
            for index in range(len(self._cards) - 1, -1, -1):
                laid = self._cards[index]
                if laid.zone == zone and laid.card == card:
                    del self._cards[index]
                    self._touched(laid)
                    return True
        return False

    def clear(self) -> None:
        with self._lock:
            self._cards.clear()
            self._drawn = []

    def cards(self) -> list[LaidCard]:
        with self._lock:
            return list(self._cards)

    @property
    def faces(self) -> list[str]:
        """The cards this table has faces for."""
        return list(self._faces)

    def frame_points(self, points_mm: np.ndarray) -> np.ndarray:
        """Mat millimetres (..., 2) → where they lie in the camera's frame (through its lens)."""
        pts = np.asarray(points_mm, np.float64)
        flat = cv2.perspectiveTransform(pts.reshape(1, -1, 2), self.to_frame)[0]
        return distort_points(flat, self.size, self.chain.k1).reshape(pts.shape)

    def corners_in_frame(self, laid: LaidCard) -> np.ndarray:
        return self.frame_points(laid.corners_mm)

    # ---------------------------------------------------------------------------------- the camera

    def render(self) -> np.ndarray:
        """The next frame the camera sees (BGR)."""
        with self._lock:
            if not self._drawn:
                self._drawn = self._draw()
            frame = self._drawn[self._frame_count % len(self._drawn)].copy()
            self._frame_count += 1
            hands = [(point, left - 1) for point, left in self._hands]
            self._hands = [(point, left) for point, left in hands if left > 0]
        for point, _ in hands:
            self._draw_hand(frame, point)
        return frame

    def _touched(self, laid: LaidCard) -> None:
        self._drawn = []
        if self._hand_frames:
            self._hands.append((laid.corners_mm.mean(axis=0), self._hand_frames))

    def _jittered(self, slot: Rect) -> np.ndarray:
        """A card laid by hand: a few millimetres off the printed outline, turned a few degrees."""
        x, y, w, h = slot.x, slot.y, slot.w, slot.h
        off, angle = self._jitter
        cx, cy = x + w / 2 + self._rng.uniform(-off, off), y + h / 2 + self._rng.uniform(-off, off)
        return card_corners((cx, cy), (w, h), self._rng.uniform(-angle, angle))

    def sharp(self) -> np.ndarray:
        """The table as the lens would image it, ``supersample`` times finer than the frame."""
        if self._empty is None:
            self._empty = self._empty_table()
        frame = self._empty.copy()
        scale = np.diag([self._supersample, self._supersample, 1.0]) @ self.to_frame
        for laid in self._cards:  # in the order laid: a pile shows its top card, face up, as it lies
            corners = cv2.perspectiveTransform(laid.corners_mm[None].astype(np.float64), scale)[0]
            paste_face(frame, self._faces[laid.card], corners.astype(np.float32))
        return frame

    def _draw(self) -> list[np.ndarray]:
        sharp = self.sharp()
        return [
            self.chain.apply(sharp, self._noise, self._supersample, self._gain) for _ in range(NOISY_COPIES)
        ]

    def _empty_table(self) -> np.ndarray:
        """Dark wood around the printed mat, seen through the camera's homography."""
        ss = self._supersample
        width, height = self.size[0] * ss, self.size[1] * ss
        px_per_mm = max(2.0, self.px_per_mm * ss * 1.5)  # the print finer than the lens resolves it
        mat = render_mat(self.layout, px_per_mm * 25.4)
        scale = np.diag([mat.shape[1] / self.layout.width_mm, mat.shape[0] / self.layout.height_mm, 1.0])
        warp = np.diag([ss, ss, 1.0]) @ self.to_frame @ np.linalg.inv(scale)
        paper = cv2.cvtColor(mat, cv2.COLOR_GRAY2BGR)
        frame = np.empty((height, width, 3), np.uint8)
        frame[:] = (40, 70, 110)
        grain = np.random.default_rng(self._rng.randrange(1 << 30)).normal(0, 6, (height, 1, 1))
        frame = np.clip(frame + grain, 0, 255).astype(np.uint8)
        cv2.warpPerspective(
            paper, warp, (width, height), frame, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT
        )
        return frame

    def _lighting(self) -> np.ndarray:
        """A lamp to one side: a gradient across the table, a warm cast (fixed for the session)."""
        width, height = self.size
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        angle = self._rng.uniform(0, 2 * math.pi)
        ramp = (xs * math.cos(angle) + ys * math.sin(angle)) / math.hypot(width, height)
        ramp = (ramp - ramp.min()) / max(1e-6, float(ramp.max() - ramp.min()))
        gain = 0.75 + 0.35 * ramp
        cast = np.array([0.92, 1.0, 1.06], np.float32)
        return (gain[..., None] * cast).astype(np.float32)

    def _draw_hand(self, frame: np.ndarray, point_mm: np.ndarray) -> None:
        """A hand and forearm reaching in from the nearest frame edge over ``point_mm``."""
        x, y = self.frame_points(point_mm.reshape(1, 2))[0]
        height, width = frame.shape[:2]
        edges = [(x, height + 50.0), (x, -50.0), (-50.0, y), (width + 50.0, y)]
        start = min(edges, key=lambda p: math.dist(p, (x, y)))
        thickness = max(20, int(0.05 * min(width, height)))
        colour = SKIN_TONES[self._frame_count % len(SKIN_TONES)]
        cv2.line(frame, (int(start[0]), int(start[1])), (int(x), int(y)), colour, thickness)
        cv2.circle(frame, (int(x), int(y)), int(thickness * 1.2), colour, -1)


LIVING_ROOM = CameraChain(
    focus_sigma=0.7, exposure=0.85, electrons_at_white=3000.0, read_noise=2.0, jpeg_quality=85
)
"""A webcam in a lit living room: focused, some noise, its MJPEG frames at quality 85."""


def card_corners(centre: tuple[float, float], size: tuple[float, float], degrees: float) -> np.ndarray:
    """A card's corners (top-left first, clockwise) centred at ``centre``, turned by ``degrees``."""
    w, h = size
    turn = math.radians(degrees)
    local = np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
    rotation = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    return (local @ rotation.T + centre).astype(np.float32)


def fitted(face: np.ndarray, width: float) -> np.ndarray:
    """The face shrunk (area-averaged) to about ``width`` pixels, so that pasting it with a bilinear
    warp does not alias its fine print."""
    if face.shape[1] <= width * 1.5:
        return face
    height = round(face.shape[0] * width / face.shape[1])
    return cv2.resize(face, (max(2, round(width)), max(2, height)), interpolation=cv2.INTER_AREA)


def camera_homography(
    layout: MatLayout,
    resolution: tuple[int, int],
    tilt: float,
    rng: random.Random,
    aim: tuple[float, float] = (0.0, 0.0),
    zoom: float = 1.0,
) -> tuple[np.ndarray, tuple[int, int]]:
    """Where a camera above one end of the table puts the mat: its long side across the frame (the
    camera is turned to the table's length), filling the frame but for a margin of table, the far
    end squeezed by ``tilt``. ``aim`` moves the mat across the frame (shares of the frame's width and
    height) and ``zoom`` enlarges it: a camera aimed or hung so that part of the mat is out of view."""
    width, height = resolution
    long_mm, short_mm = max(layout.width_mm, layout.height_mm), min(layout.width_mm, layout.height_mm)
    scale = zoom * min(width / (long_mm * (1 + 2 * MARGIN)), height / (short_mm * (1 + 2 * MARGIN)))
    mx, my = (width - long_mm * scale) / 2 + aim[0] * width, (height - short_mm * scale) / 2 + aim[1] * height
    squeeze = tilt * short_mm * scale
    # Mat corners (TL, TR, BR, BL in mat mm) → frame: a portrait mat lies on its side.
    w, h = layout.width_mm, layout.height_mm
    mat = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    right, bottom = mx + long_mm * scale, my + short_mm * scale
    far, near = (mx + rng.uniform(0, squeeze), my), (right, my + rng.uniform(0, squeeze))
    frame = np.float32([far, near, (right, bottom), (mx, bottom)])
    if layout.height_mm > layout.width_mm:  # portrait mat: its top edge runs down the frame's left
        frame = np.float32([frame[3], frame[0], frame[1], frame[2]])
    return cv2.getPerspectiveTransform(mat, frame), (width, height)


class RenderedSource:
    """A ``FrameSource`` over a ``RenderedTable``, paced at ``fps`` like a real camera."""

    spec = "sim:"

    def __init__(
        self, table: RenderedTable, fps: float = 8.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.table = table
        self._interval = 1.0 / fps if fps > 0 else 0.0
        self._clock = clock
        self._next_at = 0.0
        self._index = 0
        self._closed = threading.Event()

    @property
    def finished(self) -> bool:
        return self._closed.is_set()

    def open(self) -> None:
        self._closed.clear()

    def read(self) -> Frame | None:
        wait = self._next_at - self._clock()
        if wait > 0 and self._closed.wait(wait):
            return None
        self._next_at = max(self._next_at + self._interval, self._clock())
        self._index += 1
        return Frame(self.table.render(), self._clock(), self._index)

    def close(self) -> None:
        self._closed.set()


# --------------------------------------------------------------------------------- the demo's camera

DEMO_SETTLE_FRAMES, DEMO_GONE_FRAMES = 3, 4
"""The demo's stability window: its hands move briskly and its rendered camera never shakes."""
SETTLE_TIMEOUT_S = 3.0
"""How long a demo hand waits for the camera to report a card it laid or lifted before moving on."""


class MatDevice:
    """A ``companion.bundle.TableDevice`` for ``companion demo --camera``: a tag laid on a reader the
    camera now watches becomes that card's face laid in the reader's zone of the rendered mat (and
    lifting it takes the face away); dice and buttons stay on the virtual device. Each card move
    waits, bounded, until the camera has reported it, as a player waits for the TV."""

    def __init__(
        self,
        device: Any,
        table: RenderedTable,
        zones: Mapping[int, str],
        cards: Mapping[str, str],
        lying: Callable[[], list[Any]],
        timeout: float = SETTLE_TIMEOUT_S,
    ) -> None:
        self._device = device
        self._table = table
        self._zones = dict(zones)
        self._cards = dict(cards)
        self._lying = lying
        self._timeout = timeout
        self._pause = threading.Event()  # never set: a bounded poll of the watcher

    def put_tag(self, reader: int, uid: str) -> None:
        zone = self._zones.get(reader)
        if zone is None:
            self._device.put_tag(reader, uid)
            return
        card = self._cards[uid]
        before = self._count(zone, card)
        self._table.place(zone, card)
        self._wait(lambda: self._count(zone, card) > before)

    def remove_tag(self, reader: int, uid: str | None = None) -> None:
        zone = self._zones.get(reader)
        if zone is None:
            self._device.remove_tag(reader, uid)
            return
        cards = (
            [self._cards[uid]] if uid is not None else [c.card for c in self._table.cards() if c.zone == zone]
        )
        for card in cards:
            self._lift(zone, card)

    def _lift(self, zone: str, card: str) -> None:
        before = self._count(zone, card)
        if self._table.remove(zone, card):
            self._wait(lambda: self._count(zone, card) < before)

    def roll(self, die: int, face: int | None = None) -> int:
        return int(self._device.roll(die, face))

    def press(self, button: int) -> None:
        self._device.press(button)

    def release(self, button: int) -> None:
        self._device.release(button)

    def _count(self, zone: str, card: str) -> int:
        return sum(1 for track in self._lying() if track.zone == zone and track.card == card)

    def _wait(self, done: Callable[[], bool]) -> None:
        deadline = time.monotonic() + self._timeout
        while not done() and time.monotonic() < deadline:
            self._pause.wait(0.02)


class CameraDemo:
    """Everything ``companion demo --camera`` adds: the game's mat for the demo's seats, rendered
    faces of every card (enrolled into ``folder``), the rendered table and its frame source."""

    def __init__(
        self,
        game: str,
        seats: int,
        tags: Mapping[str, str],
        rng: random.Random,
        folder: Path,
        fps: float = 8.0,
    ) -> None:
        from vision.references import ReferenceSet
        from vision.synth import card_faces

        self.layout = load_layout(game, seats)  # LayoutError: no mat for this game or seat count
        faces = card_faces(sorted(set(tags.values())), rng)
        self.references = folder / f"{game}-references.npz"
        ReferenceSet.from_faces(faces).save(self.references)
        self._tags = dict(tags)
        self.table = RenderedTable(self.layout, {face.card: face.image for face in faces}, rng)
        self.source = RenderedSource(self.table, fps)
        self.zones: dict[int, str] = {}
        """Reader → mat zone, for the readers the camera replaces."""

    def table_section(self, section: Mapping[str, Any]) -> dict[str, Any]:
        """The demo's ``[table]`` settings with every reader whose zone is on the mat turned into that
        camera zone (the mat's zone of the same kind and field values); other readers stay readers."""
        readers = []
        for entry in section.get("readers", ()):
            zone = self.layout.entry_zone(entry) if "reader" in entry else None
            if zone is not None:
                self.zones[int(entry["reader"])] = zone.name
                entry = {**{k: v for k, v in entry.items() if k != "reader"}, "camera": zone.name}
            readers.append(entry)
        return {**section, "readers": readers}

    def settings(self) -> CameraSettings:
        """The ``[camera]`` settings of the demo: quick to settle, the frames paced at ``fps``."""
        return CameraSettings(
            source=self.source.spec,
            players=self.layout.players,
            references=self.references,
            settle_frames=DEMO_SETTLE_FRAMES,
            gone_frames=DEMO_GONE_FRAMES,
        )

    def device(self, inner: Any, camera: Any) -> MatDevice:
        """The hands' device: card moves on the mat (waiting for ``camera``), the rest on ``inner``."""
        lying = camera.watcher.lying if camera is not None else list
        return MatDevice(inner, self.table, self.zones, self._tags, lying)


def lay_random_cards(table: RenderedTable, count: int, rng: random.Random) -> None:
    """Lays ``count`` of the table's faces in random zones (a full line is passed over)."""
    cards = sorted(table.faces)
    for _ in range(count):
        zone = rng.choice(table.layout.zones)
        lying = sum(1 for laid in table.cards() if laid.zone == zone.name)
        if len(zone.slots) == 1 or lying < len(zone.slots):
            table.place(zone.name, rng.choice(cards))


def visible_cards(table: RenderedTable) -> list[tuple[str, str]]:
    """(zone, card) of every card in sight: all in the lines, the top of each pile (the others lie
    under it)."""
    piles = {zone.name for zone in table.layout.zones if len(zone.slots) == 1}
    tops = {laid.zone: laid for laid in table.cards() if laid.zone in piles}
    return [(c.zone, c.card) for c in table.cards() if c.zone not in piles or tops[c.zone] is c]
