"""The printable calibration mat and finding it again in a camera frame.

``render_mat`` draws the mat (markers, zone outlines, slot outlines, labels) at a print resolution;
``write_png`` / ``write_pdf`` save it (the PDF is one page of the smallest ISO A size the mat fits,
else a poster page of the mat's own size). ``MatFinder`` reads the ArUco markers in a frame and gives
the homography from camera pixels to mat millimetres: every marker seen adds its four corners, so a
hand over a few of them does not lose the mat.
"""

from __future__ import annotations

import logging
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.lens import Lens, LensError
from vision.lens import from_mat as lens_from_mat
from vision.zones import MatLayout, Rect

log = logging.getLogger(__name__)

MM_PER_INCH = 25.4
PT_PER_INCH = 72.0
ISO_A = (("A3", 297.0, 420.0), ("A2", 420.0, 594.0), ("A1", 594.0, 841.0), ("A0", 841.0, 1189.0))
"""Paper sizes, portrait width × height in mm (ISO 216)."""
ZONE_GREY, SLOT_GREY = 205, 215
"""Grey levels of the printed outlines (255 is the paper)."""
MIN_MARKERS = 2
"""Markers needed for a homography: one gives four corners but too small a base to be accurate."""
LENS_RESIDUAL_PX = 0.9
"""Markers further than this (RMS, pixels) from one homography mean a lens that bends: it is measured."""
LENS_MARKERS = 6
"""Markers needed in view to measure the lens from the mat."""
EDGE_PX = 1
"""A marker with a corner this close to the frame's edge is cut by it, and left out."""
NEAR_EDGE_PX = 4
"""A marker with a corner this close to the frame's edge is used only when each of its sides is
found with paper beyond it (``refine_marker``): a marker the frame cuts has a side that is not."""


def aruco_dictionary(layout: MatLayout) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, layout.dictionary))


def render_mat(layout: MatLayout, dpi: float = 150.0) -> np.ndarray:
    """The mat as a greyscale image (white paper), ``dpi`` pixels per inch."""
    scale = dpi / MM_PER_INCH
    size = (round(layout.width_mm * scale), round(layout.height_mm * scale))
    image = np.full((size[1], size[0]), 255, np.uint8)
    dictionary = aruco_dictionary(layout)

    def px(value: float) -> int:
        return round(value * scale)

    for marker in layout.markers:
        side = px(marker.square.w)
        drawn = cv2.aruco.generateImageMarker(dictionary, marker.id, side)
        x, y = px(marker.square.x), px(marker.square.y)
        image[y : y + side, x : x + side] = drawn
    thin, bold = max(1, px(0.4)), max(1, px(0.8))
    text_scale = px(5) / 22  # Hershey simplex is about 22 px tall at scale 1: labels 5 mm tall
    for zone in layout.zones:
        a = zone.area
        # Outlines are light grey: people see them, the card detector's edge threshold does not (a
        # dark line around a zone would enclose its cards in one outline and hide them).
        cv2.rectangle(image, (px(a.x), px(a.y)), (px(a.x + a.w), px(a.y + a.h)), ZONE_GREY, thin)
        baseline = (px(a.x + 3), px(a.y + 7))
        cv2.putText(image, zone.label, baseline, cv2.FONT_HERSHEY_SIMPLEX, text_scale, 0, bold, cv2.LINE_AA)
        for number, slot in enumerate(zone.slots, start=1):
            corner = (px(slot.x), px(slot.y))
            cv2.rectangle(image, corner, (px(slot.x + slot.w), px(slot.y + slot.h)), SLOT_GREY, thin)
            if len(zone.slots) > 1:
                mark = (px(slot.x + slot.w / 2 - 2), px(slot.y + slot.h / 2 + 2))
                cv2.putText(image, str(number), mark, cv2.FONT_HERSHEY_SIMPLEX, text_scale, SLOT_GREY, thin)
    caption = f"{layout.game} mat, {layout.players} players: print at 100 % ({layout.width_mm:.0f} x "
    caption += f"{layout.height_mm:.0f} mm)"
    where = (px(layout.markers[0].square.x + layout.markers[0].square.w + 6), px(8))
    cv2.putText(image, caption, where, cv2.FONT_HERSHEY_SIMPLEX, text_scale * 0.8, 90, thin, cv2.LINE_AA)
    return image


def paper_for(layout: MatLayout) -> tuple[str, float, float]:
    """(name, width mm, height mm) of the smallest ISO A sheet the mat fits, in the mat's
    orientation; the mat's own size (a poster print) when even A0 is too small."""
    landscape = layout.width_mm > layout.height_mm
    for name, short, long in ISO_A:
        width, height = (long, short) if landscape else (short, long)
        if layout.width_mm <= width and layout.height_mm <= height:
            return name, width, height
    return "poster", layout.width_mm, layout.height_mm


def write_png(image: np.ndarray, path: Path, dpi: float) -> None:
    ok, data = cv2.imencode(".png", image)
    if not ok:
        raise OSError(f"cannot encode {path.name} as PNG")
    path.write_bytes(_with_png_dpi(data.tobytes(), dpi))


def _with_png_dpi(png: bytes, dpi: float) -> bytes:
    """Adds a pHYs chunk so printing programs print the mat at its real size."""
    per_metre = round(dpi / MM_PER_INCH * 1000)
    body = b"pHYs" + per_metre.to_bytes(4, "big") * 2 + b"\x01"
    chunk = len(body[4:]).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")
    end_of_header = 8 + 4 + 4 + 13 + 4  # signature, IHDR length, type, data, CRC
    return png[:end_of_header] + chunk + png[end_of_header:]


def pdf_bytes(image: np.ndarray, page_mm: tuple[float, float], image_mm: tuple[float, float]) -> bytes:
    """A one-page PDF: the greyscale ``image`` drawn ``image_mm`` large, centred on a ``page_mm`` page.

    Written by hand (PDF 1.4, one Flate-compressed image XObject): no dependency for 40 lines."""
    height, width = image.shape[:2]

    def pt(mm: float) -> float:
        return mm / MM_PER_INCH * PT_PER_INCH

    page_w, page_h = pt(page_mm[0]), pt(page_mm[1])
    draw_w, draw_h = pt(image_mm[0]), pt(image_mm[1])
    left, bottom = (page_w - draw_w) / 2, (page_h - draw_h) / 2
    pixels = zlib.compress(np.ascontiguousarray(image).tobytes(), 6)
    content = f"q {draw_w:.2f} 0 0 {draw_h:.2f} {left:.2f} {bottom:.2f} cm /Mat Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {page_w:.2f} {page_h:.2f}] "
            "/Resources << /XObject << /Mat 4 0 R >> >> /Contents 5 0 R >>"
        ).encode(),
        (
            f"<< /Type /XObject /Subtype /Image /Width {width} /Height {height} /ColorSpace /DeviceGray "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(pixels)} >>\nstream\n"
        ).encode()
        + pixels
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def write_pdf(image: np.ndarray, layout: MatLayout, path: Path) -> str:
    """Writes the mat as a PDF page; returns the paper's name ("A1", or "poster")."""
    name, width, height = paper_for(layout)
    path.write_bytes(pdf_bytes(image, (width, height), (layout.width_mm, layout.height_mm)))
    return name


@dataclass(frozen=True)
class MatView:
    """Where the mat lies in one frame."""

    to_mat: np.ndarray
    """3×3 homography: (undistorted) camera pixels → mat millimetres."""
    markers: int
    """How many markers were read (more: more accurate, and a better chance some are covered)."""
    lens: Lens | None = None
    """The camera's lens when it was calibrated: frame pixels are undistorted before the homography."""
    corners: np.ndarray | None = None
    """The markers' corners read in the frame (N×2 frame pixels), for a lens calibration."""
    known: np.ndarray | None = None
    """The same corners on the mat (N×2 millimetres)."""
    residual_px: float = 0.0
    """RMS distance between the corners read and where the homography puts them: a lens that bends
    lines shows here (a fraction of a pixel when straight)."""

    def mat_points(self, points: np.ndarray) -> np.ndarray:
        """Frame pixel points (N×2) → mat millimetres (N×2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if self.lens is not None:
            pts = self.lens.undistort(pts)
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.to_mat).reshape(-1, 2)

    def frame_points(self, points: np.ndarray) -> np.ndarray:
        """Mat millimetres (..., 2) → frame pixels (..., 2) (through the lens, when calibrated)."""
        pts = np.asarray(points)
        flat = np.ascontiguousarray(pts.reshape(1, -1, 2), dtype=np.float32)
        px = cv2.perspectiveTransform(flat, self._to_frame)[0]
        if self.lens is not None and not self.lens.is_ideal:
            px = self.lens.distort(px)
        return px.reshape(pts.shape)

    @property
    def _to_frame(self) -> np.ndarray:
        cached = self.__dict__.get("_inverse")
        if cached is None:
            cached = np.linalg.inv(self.to_mat)
            object.__setattr__(self, "_inverse", cached)
        return cached

    def to_frame(self) -> np.ndarray:
        """The inverse homography: mat millimetres → (undistorted) camera pixels."""
        return np.linalg.inv(self.to_mat)

    def px_per_mm(self, point: tuple[float, float]) -> float:
        """The frame's resolution on the mat around a mat point (pixels per millimetre)."""
        x, y = point
        around = self.frame_points(np.array([[x - 5, y], [x + 5, y], [x, y - 5], [x, y + 5]]))
        return float((np.linalg.norm(around[1] - around[0]) + np.linalg.norm(around[3] - around[2])) / 20)


class MatFinder:
    """Finds the mat's markers in frames (built once per layout; the detector is reused).

    Without a lens calibration, a view whose markers do not sit on one homography (a cheap lens's
    barrel bends them by more than ``LENS_RESIDUAL_PX``) has the lens measured from its markers, once
    (``measure_lens``): every later view is read through it."""

    def __init__(self, layout: MatLayout, lens: Lens | None = None, measure_lens: bool = True) -> None:
        self._layout = layout
        self.lens = lens
        self._measure = measure_lens and lens is None
        self._detector = cv2.aruco.ArucoDetector(aruco_dictionary(layout), detector_parameters())
        self._known = {marker.id: marker.corners() for marker in layout.markers}

    def find(self, frame: np.ndarray) -> MatView | None:
        """The mat in ``frame`` (BGR or grey), or None when fewer than MIN_MARKERS markers are read."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        corners, ids, _ = self._detector.detectMarkers(grey)
        if ids is None:
            return None
        image_points, mat_points = [], []
        height, width = grey.shape[:2]
        seen = ids.ravel().tolist()
        for found, marker_id in zip(corners, ids.ravel(), strict=True):
            if seen.count(int(marker_id)) > 1:
                continue  # one marker read twice (a reflection, a second mat): neither can be trusted
            known = self._known.get(int(marker_id))
            quad = found.reshape(4, 2)
            if known is None:  # a marker of another mat (or a stray one) is not ours
                continue
            if (
                quad.min() < EDGE_PX
                or (quad[:, 0] > width - 1 - EDGE_PX).any()
                or (quad[:, 1] > height - 1 - EDGE_PX).any()
            ):
                continue  # cut by the frame's edge: its corners are where the frame ends, not the marker
            refined = refine_marker(grey, quad)
            if refined is None and (
                quad.min() < NEAR_EDGE_PX
                or (quad[:, 0] > width - 1 - NEAR_EDGE_PX).any()
                or (quad[:, 1] > height - 1 - NEAR_EDGE_PX).any()
            ):
                continue  # at the edge and a side not proven whole: perhaps cut by the frame
            image_points.extend(refined if refined is not None else quad)
            mat_points.extend(known)
        if len(image_points) // 4 < MIN_MARKERS:
            return None
        read, known_mm = np.float64(image_points), np.float64(mat_points)
        size = (grey.shape[1], grey.shape[0])
        view = self._fit(read, known_mm, self.lens.for_size(size) if self.lens is not None else None)
        if (
            view is not None
            and self._measure
            and view.residual_px > LENS_RESIDUAL_PX
            and view.markers >= LENS_MARKERS
        ):
            self._measure = False  # a camera keeps its lens: measured once
            view = self._with_measured_lens(view, read, known_mm, size)
        return view

    def _fit(self, read: np.ndarray, known_mm: np.ndarray, lens: Lens | None) -> MatView | None:
        ideal = lens.undistort(read) if lens is not None else read
        to_mat, _ = cv2.findHomography(
            ideal.astype(np.float32), known_mm.astype(np.float32), cv2.RANSAC, ransacReprojThreshold=4.0
        )
        if to_mat is None:
            return None
        view = MatView(to_mat, len(read) // 4, lens, read.astype(np.float32), known_mm.astype(np.float32))
        placed = view.frame_points(known_mm)
        residual = float(np.sqrt(np.mean(np.sum((placed - read) ** 2, axis=1))))
        return MatView(to_mat, view.markers, lens, view.corners, view.known, residual)

    def _with_measured_lens(
        self, view: MatView, read: np.ndarray, known_mm: np.ndarray, size: tuple[int, int]
    ) -> MatView:
        try:
            lens = lens_from_mat([(read, known_mm)], size)
        except LensError as exc:
            log.warning("the lens could not be measured from the mat (%s)", exc)
            return view
        again = self._fit(read, known_mm, lens)
        if again is None or again.residual_px >= view.residual_px * 0.8:
            log.info(
                "the lens measured from the mat did not help (%.2f px); read without it", view.residual_px
            )
            return view
        self.lens = lens
        log.info(
            "lens measured from the mat (k1 %.3f): its markers now lie within %.2f px of the mat "
            "(were %.2f px)",
            float(lens.distortion[0]),
            again.residual_px,
            view.residual_px,
        )
        return again


def refine_marker(grey: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """A marker's corners to a tenth of a pixel: each side of its black square is found across a
    dozen profiles (where the light crosses halfway from the black inside to the paper outside), a
    line is fitted to each side and the lines are intersected. The corners of an homography that
    reaches across the whole mat from a few markers must be that exact. None when a side is not
    clearly there (the detector's corners are kept)."""
    quad = quad.astype(np.float64)
    centre = quad.mean(axis=0)
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    reach = max(2.0, side / 8)
    offsets = np.arange(-reach, reach + 1e-6, 0.25)
    along = np.linspace(0.2, 0.8, 12)
    lines = []
    for k in range(4):
        a, b = quad[k], quad[(k + 1) % 4]
        direction = (b - a) / max(np.linalg.norm(b - a), 1e-9)
        normal = np.array([direction[1], -direction[0]])
        if np.dot((a + b) / 2 - centre, normal) < 0:
            normal = -normal  # pointing out of the marker
        points = a[None, None] + (b - a)[None, None] * along[:, None, None] + normal * offsets[None, :, None]
        values = cv2.remap(
            grey,
            points[..., 0].astype(np.float32),
            points[..., 1].astype(np.float32),
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,  # a side at the frame's edge: beyond it is its last row
        ).astype(np.float64)
        dark, light = values[:, :3].mean(axis=1), values[:, -3:].mean(axis=1)
        ok = light - dark > 30
        half = (dark + light) / 2
        found = []
        for row in np.flatnonzero(ok):
            crossing = np.flatnonzero((values[row, :-1] < half[row]) & (values[row, 1:] >= half[row]))
            if len(crossing) == 0:
                continue
            i = crossing[np.argmin(np.abs(offsets[crossing]))]
            t = (half[row] - values[row, i]) / max(values[row, i + 1] - values[row, i], 1e-9)
            offset = offsets[i] + t * (offsets[i + 1] - offsets[i])
            found.append(a + (b - a) * along[row] + normal * offset)
        if len(found) < 6:
            return None
        pts = np.array(found)
        mean = pts.mean(axis=0)
        _, _, vt = np.linalg.svd(pts - mean)
        lines.append((mean, vt[0]))
    corners = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        matrix = np.array([d1, -d2]).T
        if abs(np.linalg.det(matrix)) < 1e-6:
            return None
        t = np.linalg.solve(matrix, p2 - p1)
        corners.append(p1 + t[0] * d1)
    refined = np.array(corners, np.float32)
    if np.abs(refined - quad).max() > reach:
        return None
    return refined


def detector_parameters() -> cv2.aruco.DetectorParameters:
    """ArUco detection tuned for markers 20-30 pixels wide (a whole mat in a 720p frame), blurred and
    compressed: each bit is read from a 10 × 10 resampling (the default 4 × 4 misreads a blurred bit)
    with a fifth of each cell's margin left out."""
    params = cv2.aruco.DetectorParameters()
    params.perspectiveRemovePixelPerCell = 10
    params.perspectiveRemoveIgnoredMarginPerCell = 0.2
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    # A mat filling the frame has its edge markers a pixel or two from the frame's edge; the default
    # (3 px) drops them all and leaves the homography to a few markers on one side. A marker the
    # frame cuts is told by its sides (``MatFinder.find``).
    params.minDistanceToBorder = 1
    return params


def play_area(view: MatView, layout: MatLayout, frame_size: tuple[int, int]) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) frame pixels of an upright box around every zone, kept on the mat's paper.

    The recognizer looks only there: the paper's edge against the table would otherwise enclose
    every card in one outline, and the markers and the table around the mat hold no cards anyway."""
    zones = [zone.area for zone in layout.zones]
    x0, y0 = min(a.x for a in zones), min(a.y for a in zones)
    x1, y1 = max(a.x + a.w for a in zones), max(a.y + a.h for a in zones)
    edges = np.linspace(0, 1, 9)
    outline = [(x0 + (x1 - x0) * t, y0) for t in edges] + [(x1, y0 + (y1 - y0) * t) for t in edges]
    outline += [(x0 + (x1 - x0) * t, y1) for t in edges] + [(x0, y0 + (y1 - y0) * t) for t in edges]
    frame = view.frame_points(np.array(outline))  # sides bow through a lens: sampled, not four corners
    width, height = frame_size
    left, top = max(0, int(frame[:, 0].min())), max(0, int(frame[:, 1].min()))
    right, bottom = min(width, int(frame[:, 0].max()) + 1), min(height, int(frame[:, 1].max()) + 1)
    return left, top, right, bottom


FACE_PX_PER_MM = 4.0
"""Resolution of a face taken from the mat for enrolment (a 63 × 88 mm card: 252 × 352 pixels)."""
SLOT_SURROUND_MM = 12.0
"""How far around a slot's outline the card laid in it is looked for (laid by hand, a little off)."""
ENROL_TURNS = (-10.0, 0.0, 10.0)
"""Degrees a card laid for enrolment is first looked for at (before its edges refine it)."""


def face_in_slot(frame: np.ndarray, view: MatView, slot: Rect) -> np.ndarray | None:
    """The card lying in ``slot``, cut out upright at FACE_PX_PER_MM (BGR), or None when no card is
    there. Its sides are found against the paper around it (``vision.locate``), so a card laid a
    little off its outline, or a little turned, is cut out whole and without paper around it."""
    from vision.locate import LocateSettings, locate, sample

    size = (slot.w, slot.h)
    around = np.float64(
        [
            (slot.x + slot.w * t, y)
            for t in np.linspace(0.1, 0.9, 6)
            for y in (slot.y - 4, slot.y + slot.h + 4)
        ]
    )
    values, _ = sample(frame, view.frame_points(around))
    brightness = values.sum(axis=1)
    white = values[np.argsort(brightness)[len(values) // 2 :]].mean(axis=0)
    settings = LocateSettings(reach_mm=SLOT_SURROUND_MM)
    starts = np.float64([[*slot.centre, np.radians(turn)] for turn in ENROL_TURNS])
    px = view.px_per_mm(slot.centre)
    poses, edges = locate(
        frame, view.frame_points, starts, size, np.repeat(white[None], len(starts), 0), settings, px
    )
    sides = edges.found.sum(axis=1)
    best = int(np.lexsort((edges.strength.sum(axis=1), sides))[-1])
    if sides[best] < 3:  # an empty slot, or a shape that is not a card
        return None
    from vision.locate import Pose

    corners = view.frame_points(Pose.of(poses[best]).corners(size)).astype(np.float32)
    face_size = (round(slot.w * FACE_PX_PER_MM), round(slot.h * FACE_PX_PER_MM))
    target = np.float32([[0, 0], [face_size[0], 0], [face_size[0], face_size[1]], [0, face_size[1]]])
    warp = cv2.getPerspectiveTransform(corners, target)
    return cv2.warpPerspective(frame, warp, face_size, flags=cv2.INTER_LINEAR)
