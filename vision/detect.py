"""Card outlines in a frame: convex quadrilaterals of a card's shape, found on a downscaled image.

Edges (Canny on the half-size frame, lightly smoothed, in brightness and two opponent colours) are
thickened by a pixel to close small gaps, and each outer outline is kept when it is a clean
quadrilateral: its area fills its convex hull (a hand lying over a card joins the two into one
outline that does not), the hull's closest four-sided polygon gives the sides, lines fitted to the
outline along them give the corners, and its sides have a card's proportions allowing for the
camera's perspective. An outline that is not clean is also cut at its thin parts (a neighbour's edge
or the table's grain touching the card) and the parts read. The corners are then moved onto the
card's edge at full resolution. They come back in full-frame pixels, clockwise on screen, starting
with a short side: the quad's first edge is the top or the bottom of the card, which identification
then tells apart.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

NEXT = np.array([1, 2, 3, 0])
"""Index of each corner's successor (clockwise): ``quad[NEXT]`` is the quad from its second corner."""
PREVIOUS = np.array([3, 0, 1, 2])


@dataclass(frozen=True)
class DetectorSettings:
    """How the detector looks; the defaults suit a 1280 × 720 view of a table with cards on it."""

    downscale: int = 2
    """Edges are found on the frame shrunk by this factor (speed; cards stay 40+ pixels wide)."""
    canny_low: int = 30
    canny_high: int = 90
    min_area: float = 0.0025
    """Smallest card outline as a fraction of the frame (a 1280 × 720 frame: 48 × 67 pixels)."""
    max_area: float = 0.25
    hull_fill: float = 0.8
    """The outline must fill this much of its convex hull (a hand over a card makes it fall short)."""
    fill: float = 0.9
    """The fitted quad's area must be within this ratio (either way) of the outline's."""
    max_aspect: float = 2.0
    """Longest long side over short side, averaged over opposite sides: a card is 1.4, perspective
    makes it anything from nearly square to much longer."""
    clean_fill: float = 0.95
    """A clean outline fills this much of its hull at least (nine in ten card outlines of the hard
    set fill 0.953 or more; a spur of the table's grain leaves it at 0.93)."""
    clean_hull: float = 1.02
    """A clean outline's hull gains at most this much area when closed by four corners; more
    means a spur or a missing corner, and the outline is cut at its thin parts and read again."""
    bridge: int = 9
    """An outline that is not a clean card is cut where it is narrower than this (downscaled
    pixels) and its parts tried: cards joined by a neighbour's edge. 0 turns it off."""
    bridge_max_area: float = 0.12
    """Outlines larger than this fraction of the frame are not cut (three large cards are 0.1; a
    hand, an arm or a notebook is more)."""
    zoom_max_area: float = 0.3
    """Outlines up to this fraction of the frame that gave too few cards are looked at again at
    full resolution, in their box only (a line of twelve cards laid close is about 0.25)."""
    covered: float = 0.8
    """An outline whose cards cover less of it than this is looked at again at full resolution."""
    outline_offset: float = 1.5
    """The thickened edge's outer outline lies this far (in downscaled pixels) outside the card."""
    refine_reach: float = 6.0
    """How far (full-frame pixels) either side of a coarse side its edge is looked for."""
    refine_samples: int = 12
    """Profiles sampled across each side."""
    refine_strong: float = 0.3
    """A step counts as an edge from this fraction of the side's strongest step."""
    refine_passes: int = 1
    """Times the sides are moved onto the card's edges (a second pass gained nothing on the hard
    set)."""

    def downscale_to_one(self) -> DetectorSettings:
        """The same detector at full resolution (for a second look at a small box)."""
        return replace(self, downscale=1)


def edge_map(frame: np.ndarray, settings: DetectorSettings) -> np.ndarray:
    """Edges of brightness and of the two opponent colours (red–green, blue–yellow), on the
    downscaled frame: a green border on a brown table is often as bright as the table, never of its
    colour."""
    scale = settings.downscale
    small = (
        frame
        if scale == 1
        else cv2.resize(frame, None, fx=1 / scale, fy=1 / scale, interpolation=cv2.INTER_AREA)
    )
    # Smoothed once for all channels (they are linear in it), and only a little: more would merge
    # the edges of two cards a few pixels apart into one outline.
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    if smooth.ndim == 2:
        channels = [smooth]
    else:
        blue, green, red = cv2.split(smooth)
        channels = [
            cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY),
            cv2.addWeighted(red, 1.0, green, -1.0, 128),
            cv2.addWeighted(blue, 1.0, cv2.addWeighted(red, 0.5, green, 0.5, 0), -1.0, 128),
        ]
    edges = cv2.Canny(channels[0], settings.canny_low, settings.canny_high)
    for channel in channels[1:]:
        edges |= cv2.Canny(channel, settings.canny_low, settings.canny_high)
    return cv2.dilate(edges, np.ones((3, 3), np.uint8))


def find_quads(frame: np.ndarray, settings: DetectorSettings) -> list[np.ndarray]:
    """Card-shaped quads in the BGR (or grey) frame, each (4, 2) float32 in frame pixels."""
    scale = settings.downscale
    small_area = (frame.shape[0] // scale) * (frame.shape[1] // scale)
    low, high = settings.min_area * small_area, settings.max_area * small_area  # downscaled pixels
    coarse, doubtful = outline_quads(frame, settings, scale, low, high)
    if scale > 1:
        # Outlines whose cards cover too little of them: cards lying closer together than the
        # downscaled edges can keep apart. Looked at again at full resolution, in their box only;
        # what was found at half size stays when that finds less.
        full = settings.downscale_to_one()
        height, width = frame.shape[:2]
        for (x, y, w, h), fallback in doubtful:
            x0, y0 = max(0, (x - 2) * scale), max(0, (y - 2) * scale)
            x1, y1 = min(width, (x + w + 2) * scale), min(height, (y + h + 2) * scale)
            found, _ = outline_quads(frame[y0:y1, x0:x1], full, 1, low * scale * scale, high * scale * scale)
            found = [quad + np.float32([x0, y0]) for quad in found]
            coarse += found if area_of(found) >= area_of(fallback) else fallback
    if not coarse:
        return []
    quads = np.array(coarse, np.float32)
    for _ in range(settings.refine_passes):
        quads = refine(frame, quads, settings)
    return list(quads)


def outline_quads(
    image: np.ndarray, settings: DetectorSettings, scale: int, low: float, high: float
) -> tuple[list[np.ndarray], list[tuple[tuple[int, int, int, int], list[np.ndarray]]]]:
    """The coarse quads of the card outlines in ``image`` (seen at 1/``scale``; a card's outline
    between ``low`` and ``high`` downscaled pixels of area), in ``image`` pixels; and the outlines
    whose cards cover too little of them to be all there is: their boxes (downscaled pixels) with
    the quads found in them."""
    edges = edge_map(image, settings)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    shortest = 4 * np.sqrt(low)  # the perimeter of the smallest card, in outline pixels
    image_area = edges.shape[0] * edges.shape[1]
    most = settings.bridge_max_area * image_area
    zoom = settings.zoom_max_area * image_area if scale > 1 else 0
    coarse: list[np.ndarray] = []
    doubtful: list[tuple[tuple[int, int, int, int], list[np.ndarray]]] = []
    for contour in contours:
        if len(contour) < shortest:
            continue
        area = cv2.contourArea(contour)
        if not low <= area <= high:
            continue
        quad, clean = quad_of(contour, area, settings)
        found = []
        if not clean and area <= most:
            # Not a clean card outline: a neighbour's edge or the table's grain may touch it. Cut
            # the thin parts away and read what is left (a hand or a notebook is too big to try).
            for part in cut_bridges(contour, settings.bridge):
                part_area = cv2.contourArea(part)
                if (
                    low <= part_area <= high
                    and (part_quad := quad_of(part, part_area, settings)[0]) is not None
                ):
                    found.append(part_quad)
        if not found and quad is not None:
            found = [quad]
        found = [shrink(quad, settings.outline_offset) * scale + (scale - 1) / 2 for quad in found]
        if (
            area <= zoom
            and area_of(found) < settings.covered * area * scale * scale
            and area >= settings.hull_fill * cv2.contourArea(cv2.convexHull(contour))  # not a hand
        ):
            doubtful.append((cv2.boundingRect(contour), found))  # read again; these if that finds less
        else:
            coarse += found
    return coarse, doubtful


def area_of(quads: list[np.ndarray]) -> float:
    return sum(cv2.contourArea(quad.astype(np.float32)) for quad in quads)


def cut_bridges(contour: np.ndarray, width: int) -> list[np.ndarray]:
    """The shapes inside an outline once the parts narrower than ``width`` are cut away: two cards
    joined by the edge of a third, a card and a spur of the table's grain. The shapes keep their
    size (an opening: eroded, then grown back); only their corners round off a little."""
    if width < 2:
        return []
    x, y, w, h = cv2.boundingRect(contour)
    mask = np.zeros((h + 2 * width, w + 2 * width), np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED, offset=(width - x, width - y))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [part + np.int32([x - width, y - width]) for part in parts]


def quad_of(contour: np.ndarray, area: float, settings: DetectorSettings) -> tuple[np.ndarray | None, bool]:
    """The card-shaped quad of an outline (or None), and whether the outline was a clean quad:
    filling its hull, which four corners enclose with next to nothing added."""
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if area < settings.hull_fill * hull_area:
        return None, False
    # The four-sided polygon closest to the hull (by added area): its corners are near the card's
    # even when the outline has a bump or a rounded corner that would mislead a vertex reduction.
    approx = cv2.approxPolyN(hull, 4, epsilon_percentage=-1.0, ensure_convex=True)
    if approx.size != 8:
        return None, False
    clean = (
        area >= settings.clean_fill * hull_area and cv2.contourArea(approx) <= settings.clean_hull * hull_area
    )
    rough = clockwise(approx.reshape(4, 2).astype(np.float32))
    points = contour.reshape(-1, 2)[::2].astype(np.float32)  # every other point: as good a fit, half the work
    quad = fit_sides(points, rough, 2.0)
    if quad is None or not cv2.isContourConvex(quad.astype(np.int32).reshape(-1, 1, 2)):
        return None, False
    if not settings.fill <= cv2.contourArea(quad) / area <= 2 - settings.fill:
        return None, False
    if aspect_of(quad) > settings.max_aspect:
        return None, clean
    sides = np.linalg.norm(quad - quad[NEXT], axis=1)
    return (quad if sides[0] + sides[2] <= sides[1] + sides[3] else quad[NEXT]), clean


def aspect_of(quad: np.ndarray) -> float:
    """Long over short, each the mean of two opposite sides (1 for a square)."""
    sides = np.linalg.norm(quad - quad[NEXT], axis=1)
    first, second = sides[0] + sides[2], sides[1] + sides[3]
    return float(max(first, second) / max(1e-6, min(first, second)))


def fit_sides(points: np.ndarray, rough: np.ndarray, tolerance: float) -> np.ndarray | None:
    """Exact corners: a line fitted to the outline's points along each side of the rough quad (the
    middle of each side, where the rough corners' error does not reach), intersected in turn.

    Each line is a total-least-squares fit, done twice: the second time without the points far
    off the first line (a bump where a corner rounds off, a neighbour's edge touching). The four
    sides are fitted together, as weighted sums over all points (this runs for every outline).
    """
    directions = rough[NEXT] - rough
    lengths = np.linalg.norm(directions, axis=1)
    if lengths.min() < 4:
        return None
    units = directions / lengths[:, None]
    dx = points[None, :, 0] - rough[:, None, 0]  # (4 sides, points)
    dy = points[None, :, 1] - rough[:, None, 1]
    along = (dx * units[:, None, 0] + dy * units[:, None, 1]) / lengths[:, None]
    across = np.abs(dx * units[:, None, 1] - dy * units[:, None, 0])
    weight = ((along > 0.15) & (along < 0.85) & (across < tolerance + 0.05 * lengths[:, None])).astype(
        np.float32
    )
    xs, ys = points[:, 0], points[:, 1]
    for second in (False, True):
        count = weight.sum(axis=1)
        if count.min() < 2:
            return None
        mean_x, mean_y = weight @ xs / count, weight @ ys / count
        cx, cy = xs[None, :] - mean_x[:, None], ys[None, :] - mean_y[:, None]
        sxx, syy, sxy = (
            (weight * cx * cx).sum(axis=1),
            (weight * cy * cy).sum(axis=1),
            (weight * cx * cy).sum(axis=1),
        )
        angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)
        line_x, line_y = np.cos(angle), np.sin(angle)
        if not second:
            distance = np.abs(cx * line_y[:, None] - cy * line_x[:, None])
            spread = (weight * distance).sum(axis=1) / count
            weight = weight * (distance <= np.maximum(1.0, 2 * spread)[:, None])
    previous = PREVIOUS
    cross = line_x[previous] * line_y - line_y[previous] * line_x
    if np.abs(cross).min() < 1e-3:
        return None
    gap_x, gap_y = mean_x - mean_x[previous], mean_y - mean_y[previous]
    t = (gap_x * line_y - gap_y * line_x) / cross
    return np.stack(
        [mean_x[previous] + t * line_x[previous], mean_y[previous] + t * line_y[previous]], axis=1
    ).astype(np.float32)


def refine(frame: np.ndarray, quads: np.ndarray, settings: DetectorSettings) -> np.ndarray:
    """The quads' sides (``quads`` is (N, 4, 2)) moved onto the card's edge at full resolution.

    Along each side, the colour profile across it is sampled; the outermost strong step within
    ``refine_reach`` pixels is the card's edge (the printed border's inner edge can be stronger, a
    yellow border on a brown table, but it lies inside). A least-squares line through the clear
    steps near the side's typical one replaces the side; a side without enough of them keeps its
    place. All quads of a frame go through at once: this runs on every frame.
    """
    count = len(quads)
    sides = 4 * count
    reach, step, samples = settings.refine_reach, 0.5, settings.refine_samples
    offsets = np.arange(-reach, reach + step / 2, step, dtype=np.float32)
    spots = np.linspace(0.15, 0.85, samples, dtype=np.float32)
    starts = quads.reshape(sides, 2)
    ends = quads[:, NEXT].reshape(sides, 2)
    lengths = np.linalg.norm(ends - starts, axis=1, keepdims=True)
    directions = (ends - starts) / np.maximum(lengths, 1e-6)
    normals = np.stack([directions[:, 1], -directions[:, 0]], axis=1)  # outward, corners clockwise
    along = starts[:, None, :] + spots[None, :, None] * (ends - starts)[:, None, :]  # (sides, S, 2)
    grid = along[:, :, None, :] + offsets[None, None, :, None] * normals[:, None, None, :]
    points = np.ascontiguousarray(grid.reshape(sides * samples, len(offsets), 2), dtype=np.float32)
    profiles = cv2.remap(frame, points, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    profiles = profiles.astype(np.float32).reshape(sides * samples, len(offsets), -1)
    profiles = (profiles[:, :-2] + 2 * profiles[:, 1:-1] + profiles[:, 2:]) / 4  # smooth: sensor noise
    steps = np.abs(profiles[:, 2:] - profiles[:, :-2]).sum(axis=2)  # colour change over 1 px
    centres = offsets[2:-2]
    rising = np.zeros_like(steps, dtype=bool)
    rising[:, 1:-1] = (steps[:, 1:-1] >= steps[:, :-2]) & (steps[:, 1:-1] >= steps[:, 2:])
    strong = rising & (steps >= settings.refine_strong * steps.max(axis=1, keepdims=True))
    peak = steps.shape[1] - 1 - np.argmax(strong[:, ::-1], axis=1)
    rows = np.arange(len(peak))
    inner = np.clip(peak, 1, steps.shape[1] - 2)
    left, centre, right = (steps[rows, inner + k] for k in (-1, 0, 1))
    curve = left - 2 * centre + right
    nudge = 0.5 * (left - right) / np.where(np.abs(curve) > 1e-6, curve, np.inf)  # parabola's top
    found = (centres[inner] + np.clip(nudge, -0.5, 0.5) * step).reshape(sides, samples)
    strength = steps[rows, peak].reshape(sides, samples)
    usable = strength > 0.5 * np.median(strength, axis=1, keepdims=True)
    typical = np.sort(np.where(usable, found, np.inf), axis=1)[np.arange(sides), usable.sum(axis=1) // 2]
    weight = (usable & (np.abs(found - typical[:, None]) <= 1.0)).astype(np.float32)
    total, sum_t, sum_o = weight.sum(axis=1), weight @ spots, (weight * found).sum(axis=1)
    sum_tt, sum_to = weight @ (spots * spots), (weight * found * spots[None]).sum(axis=1)
    determinant = total * sum_tt - sum_t * sum_t
    fitted = (total >= 3) & (determinant > 1e-6)
    slope = np.where(fitted, (total * sum_to - sum_t * sum_o) / np.where(fitted, determinant, 1), 0)
    intercept = np.where(fitted, (sum_o - slope * sum_t) / np.maximum(total, 1), 0)
    line_points = (starts + intercept[:, None] * normals).reshape(count, 4, 2)
    line_directions = (ends + (intercept + slope)[:, None] * normals).reshape(count, 4, 2) - line_points
    previous_points = line_points[:, PREVIOUS]
    previous_directions = line_directions[:, PREVIOUS]
    cross = (
        previous_directions[..., 0] * line_directions[..., 1]
        - previous_directions[..., 1] * line_directions[..., 0]
    )
    gap = line_points - previous_points
    t = (gap[..., 0] * line_directions[..., 1] - gap[..., 1] * line_directions[..., 0]) / np.where(
        np.abs(cross) > 1e-6, cross, np.inf
    )
    refined = (previous_points + t[..., None] * previous_directions).astype(np.float32)
    # A quad whose corner would jump further than the search reached keeps its coarse corners.
    sound = (np.abs(cross) > 1e-6).all(axis=1) & (np.abs(refined - quads).max(axis=(1, 2)) <= 2 * reach)
    return np.where(sound[:, None, None], refined, quads)


def clockwise(quad: np.ndarray) -> np.ndarray:
    """Corners in clockwise order on screen (y points down), so a face is never read mirrored."""
    x, y = quad[:, 0], quad[:, 1]
    signed = float(np.dot(x, y[NEXT]) - np.dot(x[NEXT], y))
    return quad if signed > 0 else quad[::-1].copy()


def shrink(quad: np.ndarray, offset: float) -> np.ndarray:
    """Moves each corner ``offset`` pixels inward along both its sides' normals (the outline was
    traced on the outside of a thickened edge)."""
    if offset == 0:
        return quad
    centre = quad.mean(axis=0)
    toward = centre - quad
    distance = np.linalg.norm(toward, axis=1, keepdims=True)
    return quad + toward / np.maximum(distance, 1e-6) * offset * np.sqrt(2)
