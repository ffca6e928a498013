"""The cards lying in a mat's places, read where the mat says they lie; again only where something changed.

The calibrated mat says where every card place is (``vision.zones``: each zone's slots, a pile's one
place). ``SlotReader.read(frame, view)`` reads them all:

1. **What changed.** A grid of points over every place and a few points of paper around it are
   sampled (one ``cv2.remap`` for the whole mat). A place whose grid moved since it was last read
   (beyond the frame's own noise, measured frame to frame) is read again; the others keep what they
   were read as. Cards lying still cost a few microseconds each.
2. **Occupied?** Grid points differing from the paper's white around the place (its own, so a lamp's
   gradient or a colour cast changes nothing) are ink; a place with enough ink holds something.
3. **Where exactly** (``vision.locate``): the card's centre and turn from its sides' edges against
   the paper; touching neighbours never pull it, since their edges step the other way.
4. **Which card** (``vision.matcher``): the face sampled at that pose, compared whole; unsure, again
   with the pose nudged a little; the cells outside the frame or washed out by glare left out; a
   card partly under its neighbour (cards laid overlapping, the way Chaos Marauders' lines are) read
   from what shows, a neighbour lying over it where the frame shows the neighbour's face, and
   searched for by what shows when its edges are no guide; an unknown thing over a card (a hand, a
   token) set aside when it is one shape and the card is still clearly the best.
5. **Checked** before it is named: a card showing the bare paper where its face has none, or far
   more colour than its face, is not that card.

A pile's place (a one-slot zone: the discard pile) holds cards on cards, the top one tossed on
crooked: it is located over a wider reach and at several turns, and the best-matching pose is read.
What is not sure is not named.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision import identify
from vision.locate import LocateSettings, Pose, locate, place_points, sample, warp_quad
from vision.mat import MatView
from vision.matcher import Match, Matcher, MatchSettings
from vision.references import ReferenceSet
from vision.zones import MatLayout, MatZone, Rect

GRID = (8, 11)
"""Points per place for change and ink (columns, rows): one every 7-8 mm of a 63 × 88 mm card."""
GRID_INSET_MM = 5.0
"""The grid keeps this far inside the slot's outline (a card laid a little off still covers it)."""
GRID_CELLS = identify.CHANNEL
"""Cells of a face's coarse patch."""
WHITE_POINTS = 12
"""Paper points around each place (above and below its outline) that give its white."""


@dataclass(frozen=True)
class SlotSettings:
    locate: LocateSettings = field(default_factory=LocateSettings)
    pile_reach_mm: float = 10.0
    """A pile's top card is looked for this far from its outline (tossed, not laid)."""
    pile_turn: float = 18.0
    """... and turned up to this many degrees either way."""
    match: MatchSettings = field(default_factory=MatchSettings)
    occupied: float = 0.3
    """Share of a place's grid that must be ink for it to hold something."""
    ink: float = 0.1
    """A point is ink when a channel differs from the paper's white by this share (a cream face on
    a mat lit to white differs by 4-15 %: at 0.2 such cards were never read at all)."""
    moved_level: float = 14.0
    """A grid point moved when it changed by this many levels, or 5 times the frame's noise if more."""
    moved_share: float = 0.05
    """A place is read again when this share of its grid moved."""
    robust_from: float = 0.25
    """A face whose best whole match scores under this is nothing like any card (an arm over an
    empty place, a phone): no part of it is looked at."""
    search_along_mm: float = 16.0
    """A card not sure where its edges put it is searched for by its face this far along its row
    (pushed over a neighbour, or laid between two outlines)..."""
    search_across_mm: float = 8.0
    """... and this far across it..."""
    search_turn: float = 6.0
    """... turned up to this many degrees."""
    same_spot_mm: float = 15.0
    """Two places reading one card within this of each other (or with their outlines over half a
    card apart) read the same card."""
    search_below: float = 0.6
    """Searched for only when no pose so far scored this much (a good score means it is there)."""
    settle_reach_mm: float = 2.5
    """A card named clearly (``search_below`` or more) but not sure is searched for by its face
    this far around where it was read, before it is told from its rivals ..."""
    settle_turn: float = 2.0
    """... turned up to this many degrees."""
    nudge_mm: float = 2.0
    """The second look moves the card by this much (and turns it by ``nudge_turn``)."""
    nudge_turn: float = 1.5
    glare: float = 250.0
    """A sample this bright in every channel is washed out (glare): its cell is not compared."""
    on_top: float = 0.5
    """A named neighbour lies over a card when its face, where their outlines share, correlates
    this much with what the frame shows there (and is not taken to lie over it otherwise: the card
    shows there)."""
    on_top_cells: int = 12
    """Fewer shared cells than this cannot tell which lies over the other: the neighbour is taken
    to lie over it."""
    searched_lead: float = 0.05
    """A card under its neighbours found by searching for what shows of it (``_search_under``)
    needs this much more lead than one read where it lay: the search keeps the best of about a
    hundred poses, and at one of them a part of a never-enrolled card (held-out seed 7) matched an
    enrolled card's by a lead 0.02 over the bar. Cards found so led by 0.06-0.4 over it, or were told
    from their rivals."""
    overlap: float = 0.03
    """Neighbours whose cards overlap by more than this share of a card are read from what shows."""
    colourful: float = 2.0
    """A card read whole is not named when its face shows this many times the colour contrast of
    the enrolled face (``Matcher.colour_excess``): a never-enrolled card of an enrolled card's
    layout in other colours was named as it 21 times on a held-out set at 1.03 px/mm (2.1-2.9
    times its colour); the cards named right, clear of their neighbours, showed at most 1.8 times
    theirs (held-out seeds 2, 6 and 10, the tuning set)."""
    paper_share: float = 0.25
    """A card is not named when this share of its face's cells in view is the mat's bare paper
    where its face has no light colour: what lies there is not that card (an arm across an empty
    place, read as a plain face whose colours it happens to share)."""
    paper_level: float = 0.12
    """A cell is the bare paper when its brightness and colours are within this share of the
    paper's white around the place."""
    light_face: float = 170.0
    """An enrolled face's cell this bright (of 255) ..."""
    light_colour: float = 75.0
    """... and at most this colourful (opponent channels, of 255) may be washed to the paper's
    white by a camera exposed for the table (a cream or pastel face on a bright mat): not counted."""


@dataclass(frozen=True)
class Place:
    """One card place of the mat."""

    index: int
    zone: MatZone
    slot: int
    rect: Rect

    @property
    def pile(self) -> bool:
        return len(self.zone.slots) == 1

    def name(self, by_slot: bool) -> str:
        """The camera zone's name of a card lying here (``p0-line1`` or ``p0-line1-slot3``)."""
        return self.zone.slot_name(self.zone.slot_at(self.rect.centre[0]) if by_slot else None)


@dataclass(frozen=True)
class Reading:
    """A card read in a place."""

    place: Place
    card: str
    confidence: float
    pose: Pose
    corners: np.ndarray
    """(4, 2) frame pixels: the face's top-left, top-right, bottom-right, bottom-left."""
    how: str
    """How it was told (``whole``, ``nudged``, ``seen``, ``overlap``, ``robust``)."""

    @property
    def centre_mm(self) -> tuple[float, float]:
        return (self.pose.x, self.pose.y)

    @property
    def centre(self) -> tuple[float, float]:
        x, y = self.corners.mean(axis=0)
        return (float(x), float(y))


@dataclass
class _State:
    occupied: bool = False
    pose: Pose | None = None
    reading: Reading | None = None
    match: Match | None = None
    """The match the reading was named from."""


@dataclass
class FrameStats:
    places: int = 0
    changed: int = 0
    read: int = 0
    named: int = 0


def _same_place(old: MatView, new: MatView, layout: MatLayout, tolerance_px: float = 0.7) -> bool:
    """Whether two views put the mat within ``tolerance_px`` of each other everywhere."""
    corners = np.float64(
        [[0, 0], [layout.width_mm, 0], [layout.width_mm, layout.height_mm], [0, layout.height_mm]]
    )
    middle = corners.mean(axis=0, keepdims=True)
    points = np.concatenate([corners, middle])
    return bool(np.abs(old.frame_points(points) - new.frame_points(points)).max() <= tolerance_px)


def _pose_grid(
    centre: np.ndarray,
    reach: tuple[float, float],
    turn: float,
    counts: tuple[int, int, int],
    scale: float,
    turn_scale: float,
) -> np.ndarray:
    """(poses, 3) every pose of a grid around ``centre`` (x, y, angle): ``counts`` steps along x, y
    and the angle, spanning ``reach`` mm times ``scale`` each way and ``turn`` radians times
    ``turn_scale``."""
    xs = centre[0] + np.linspace(-reach[0], reach[0], counts[0]) * scale
    ys = centre[1] + np.linspace(-reach[1], reach[1], counts[1]) * scale
    turns = centre[2] + np.linspace(-turn, turn, counts[2]) * turn_scale
    return np.float64([[x, y, t] for x in xs for y in ys for t in turns])


def largest(values: np.ndarray) -> np.ndarray:
    """The largest of the last axis's three channels (numpy reduces a short last axis slowly)."""
    return np.maximum(np.maximum(values[..., 0], values[..., 1]), values[..., 2])


class SlotReader:
    """Reads a mat's card places frame after frame (one per camera; not thread-safe)."""

    def __init__(
        self, layout: MatLayout, references: ReferenceSet, settings: SlotSettings | None = None
    ) -> None:
        self.layout = layout
        self.settings = settings or SlotSettings()
        self.matcher = Matcher(references, self.settings.match)
        self.cards = references.cards
        spots = [(zone, slot, rect) for zone in layout.zones for slot, rect in enumerate(zone.slots)]
        self.places = [Place(index, zone, slot, rect) for index, (zone, slot, rect) in enumerate(spots)]
        self._neighbours = self._neighbour_pairs()
        self._beside = self._places_beside()
        self._view: MatView | None = None
        self._states = [_State() for _ in self.places]
        self._read_grid = np.zeros((len(self.places), GRID[0] * GRID[1], 3), np.float32)
        """Each place's grid colours when it was last read."""
        self._was_read = np.zeros(len(self.places), bool)
        self._points_px = np.zeros((0, 2), np.float32)
        self._previous: np.ndarray | None = None
        self._cell_uv = identify.face_grid(1)
        self._profiles: dict[tuple[object, ...], np.ndarray] = {}
        self.stats = FrameStats()
        self._grid_mm, self._white_mm = self._sample_points()

    # --------------------------------------------------------------------------------- geometry

    def _sample_points(self) -> tuple[np.ndarray, np.ndarray]:
        """(places, grid points, 2) and (places, white points, 2) in mat millimetres."""
        columns, rows = GRID
        grids, whites = [], []
        for place in self.places:
            r = place.rect
            xs = np.linspace(r.x + GRID_INSET_MM, r.x + r.w - GRID_INSET_MM, columns)
            ys = np.linspace(r.y + GRID_INSET_MM, r.y + r.h - GRID_INSET_MM, rows)
            grids.append(np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2))
            # Paper above and below the outline, where no card of this row lies (labels are short
            # and the white is their brighter half).
            area = place.zone.area
            above = (area.y + r.y) / 2 if r.y - area.y > 3 else r.y - 2
            below = (r.y + r.h + area.y + area.h) / 2 if area.y + area.h - r.y - r.h > 3 else r.y + r.h + 2
            xw = np.linspace(r.x + 4, r.x + r.w - 4, WHITE_POINTS // 2)
            whites.append(
                np.concatenate(
                    [np.stack([xw, np.full_like(xw, above)], 1), np.stack([xw, np.full_like(xw, below)], 1)]
                )
            )
        return np.stack(grids), np.stack(whites)

    def _neighbour_pairs(self) -> list[tuple[int, int]]:
        pairs = []
        for place in self.places:
            if place.slot + 1 < len(place.zone.slots):
                pairs.append((place.index, place.index + 1))
        return pairs

    def _places_beside(self) -> list[tuple[int, ...]]:
        """Each place's neighbours in its row: the place before it, then the one after."""
        beside: list[list[int]] = [[] for _ in self.places]
        for left, right in self._neighbours:
            beside[left].append(right)
            beside[right].append(left)
        return [tuple(sorted(places)) for places in beside]

    def _prepare(self, view: MatView) -> None:
        if self._view is not None and _same_place(self._view, view, self.layout):
            self._view = view  # the mat found again where it was: every reading still stands
            return
        self._view = view
        count = len(self.places)
        points = np.concatenate([self._grid_mm.reshape(-1, 2), self._white_mm.reshape(-1, 2)])
        px = view.frame_points(points).astype(np.float32)
        grid_count = self._grid_mm.shape[1] * count
        self._points_px = px
        self._grid_px = px[:grid_count].reshape(count, -1, 2)
        self._white_px = px[grid_count:].reshape(count, -1, 2)
        self._scale = np.float64([view.px_per_mm(p.rect.centre) for p in self.places])
        self._states = [_State() for _ in self.places]  # a moved camera sees every place anew
        self._read_grid = np.zeros((count, self._grid_px.shape[1], 3), np.float32)
        self._was_read = np.zeros(count, bool)
        self._previous = None

    # ------------------------------------------------------------------------------------ a frame

    def read(self, frame: np.ndarray, view: MatView) -> list[Reading]:
        """Every card read in the frame (the places unchanged since their last read keep it)."""
        if view is not self._view:
            self._prepare(view)
        count = len(self.places)
        per_grid = self._grid_px.shape[1]
        values, _ = sample(frame, self._points_px)
        grid = values[: per_grid * count].reshape(count, per_grid, -1)
        white = self._white(values[per_grid * count :].reshape(count, self._white_px.shape[1], -1))
        level = self._moved_level(grid)
        self._previous = grid
        moved = (largest(np.abs(grid - self._read_grid)) > level).mean(axis=1)
        changed = np.flatnonzero((moved >= self.settings.moved_share) | ~self._was_read)
        stats = FrameStats(places=count, changed=len(changed))
        if len(changed):
            ratio = grid[changed] / np.maximum(white[changed, None, :], 1.0)
            ink = (largest(np.abs(ratio - 1)) > self.settings.ink).mean(axis=1)
            self._read_grid[changed] = grid[changed]
            self._was_read[changed] = True
            to_read = []
            for index, share in zip(changed.tolist(), ink.tolist(), strict=True):
                state = self._states[index]
                state.occupied = share >= self.settings.occupied
                state.reading = None
                state.pose = None
                if state.occupied:
                    to_read.append(index)
            if to_read:
                stats.read = len(to_read)
                self._read_places(frame, view, to_read, white)
        readings = [state.reading for state in self._states if state.reading is not None]
        stats.named = len(readings)
        self.stats = stats
        return readings

    def forget(self) -> None:
        """Read every place again on the next frame (faces enrolled anew, a camera reopened)."""
        self._was_read[:] = False

    def _white(self, samples: np.ndarray) -> np.ndarray:
        """The paper's colour around each place: the brighter half of its paper points (a label's
        ink, a neighbour's corner over one of them, do not darken it)."""
        brightness = samples[..., 0] + samples[..., 1] + samples[..., 2]
        order = np.argsort(brightness, axis=1)[:, samples.shape[1] // 2 :]
        bright = np.take_along_axis(samples, order[..., None], axis=1)
        return bright.mean(axis=1)

    def _moved_level(self, grid: np.ndarray) -> float:
        """How much a grid point must change to have moved: ``moved_level``, or five times the
        frame's noise (the median change of every point since the last frame) when that is more."""
        if self._previous is None or self._previous.shape != grid.shape:
            return self.settings.moved_level
        noise = float(np.median(largest(np.abs(grid[::3] - self._previous[::3]))))
        return max(self.settings.moved_level, 5 * noise)

    # ----------------------------------------------------------------------------- reading places

    def _read_places(self, frame: np.ndarray, view: MatView, indices: list[int], white: np.ndarray) -> None:
        lines = [i for i in indices if not self.places[i].pile]
        piles = [i for i in indices if self.places[i].pile]
        poses: dict[int, Pose] = {}
        if lines:
            start = np.float64([[*self.places[i].rect.centre, 0.0] for i in lines])
            found = self._locate(frame, view, lines, start, white, self.settings.locate)
            poses.update({index: Pose.of(row) for index, row in zip(lines, found, strict=True)})
        for index in piles:
            poses[index] = self._locate_pile(frame, view, index, white)
        for index, pose in poses.items():
            self._states[index].pose = pose
        rows = np.stack([poses[i].row() for i in indices])
        patches, visible = self._faces(frame, view, rows, indices)
        matches = self.matcher.whole(patches)
        decided = {index: (matches[k], poses[index]) for k, index in enumerate(indices)}
        self._overlaps(frame, view, indices, decided)
        for k, index in enumerate(indices):
            match, pose = decided[index]
            if not self.matcher.sure(match) and match.how == "whole":
                decided[index] = self._second_look(
                    frame, view, index, pose, match, patches[k], visible[k], white
                )
        first_looks = {index: (rows[k], patches[k], visible[k]) for k, index in enumerate(indices)}
        self._under_neighbours(frame, view, indices, decided, first_looks)
        self._name(decided, view, frame, white, first_looks)

    def _locate(
        self,
        frame: np.ndarray,
        view: MatView,
        indices: list[int],
        poses: np.ndarray,
        white: np.ndarray,
        settings: LocateSettings,
    ) -> np.ndarray:
        scale = float(np.median(self._scale[indices]))
        size = self.layout.card_mm
        found, _ = locate(
            frame, view.frame_points, poses, size, white[indices], settings, scale, self._profiles
        )
        return found

    def _locate_pile(self, frame: np.ndarray, view: MatView, index: int, white: np.ndarray) -> Pose:
        """A pile's top card, tossed on the others: its edges are no guide (the cards beneath stick
        out from under it), its face is (``_search``)."""
        s = self.settings
        start = Pose(*self.places[index].rect.centre)
        return self._search(frame, view, index, start, (s.pile_reach_mm, s.pile_reach_mm), s.pile_turn, white)

    def _search(
        self,
        frame: np.ndarray,
        view: MatView,
        index: int,
        start: Pose,
        reach: tuple[float, float],
        turn_degrees: float,
        white: np.ndarray,
    ) -> Pose:
        """The pose near ``start`` whose face matches an enrolled card best: a grid over ``reach``
        (mm along and across the row) and turns, one sample per cell for each pose (one remap for
        them all), the best refined on a finer grid around it, then its sides fitted where they
        show."""
        turn = np.radians(turn_degrees)
        best = start.row()
        for fraction, count, turns_count in ((1.0, 5, 7), (0.25, 3, 3)):
            counts = (count + 2 * (reach[0] > reach[1]), count, turns_count)
            grid = _pose_grid(best, reach, turn, counts, fraction, 1.0 if fraction == 1.0 else 1 / 6)
            matches = self.matcher.whole(self._quick_faces(frame, view, grid))
            scores = np.float64([m.score for m in matches])
            best = grid[int(scores.argmax())]
        refined = self._locate(
            frame, view, [index], best[None], white, replace(self.settings.locate, reach_mm=3.0)
        )
        patches, _ = self._faces(frame, view, np.stack([best, refined[0]]), [index, index])
        first, second = self.matcher.whole(patches)
        return Pose.of(refined[0] if (second.score, second.margin) > (first.score, first.margin) else best)

    def _quick_faces(self, frame: np.ndarray, view: MatView, poses: np.ndarray) -> np.ndarray:
        """The raw patches of faces at many poses from one sample per cell (one remap for all): to
        compare poses, not to name the card."""
        size = np.float64(self.layout.card_mm)
        values, _ = sample(frame, view.frame_points(place_points(poses, (self._cell_uv - 0.5) * size)))
        return (values.reshape(len(poses), -1, 3) @ identify.OPPONENT.T).astype(np.float32)

    def _faces(
        self, frame: np.ndarray, view: MatView, poses: np.ndarray, indices: list[int]
    ) -> tuple[np.ndarray, np.ndarray]:
        """The raw patches of the faces at ``poses`` (cards, 3) and each cell's visibility (inside
        the frame, not washed out by glare). Each face is one small warp of the frame (through the
        lens its corners are where the lens puts them: over a card the bend is far under a pixel)."""
        size = self.layout.card_mm
        columns, rows = identify.PATCH
        scale = float(np.median(self._scale[indices]))
        cell_px = size[0] * (1 - 2 * identify.INNER) / columns * scale
        oversample = int(np.clip(np.ceil(cell_px / 1.2), 2, identify.OVERSAMPLE))
        grid = identify.face_grid(oversample)
        first, last = grid[0, 0], grid[-1, -1]
        corners_uv = np.float64([first, [last[0], first[1]], last, [first[0], last[1]]])
        corners_px = view.frame_points(place_points(poses, (corners_uv - 0.5) * np.float64(size)))
        inside = self._inside(view, poses, frame.shape)
        count = len(poses)
        cells = np.empty((count, rows, columns, 3), np.float32)
        glare = np.zeros((count, rows, columns), np.float32)
        for card in range(count):
            warped = warp_quad(frame, corners_px[card], (columns * oversample, rows * oversample))
            if warped.ndim == 2:
                warped = cv2.cvtColor(warped, cv2.COLOR_GRAY2BGR)
            cells[card] = cv2.resize(warped, (columns, rows), interpolation=cv2.INTER_AREA)
            if warped.max() >= self.settings.glare:  # then which samples are white in every channel
                washed = (warped >= self.settings.glare).all(axis=2)
                glare[card] = cv2.resize(
                    washed.astype(np.float32), (columns, rows), interpolation=cv2.INTER_AREA
                )
        patches = (cells.reshape(count, -1, 3) @ identify.OPPONENT.T).astype(np.float32)
        visible = inside.astype(np.float32) * (1 - glare.reshape(count, -1))
        return patches, visible

    def _inside(self, view: MatView, poses: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        """(cards, cells) whether each cell of the faces at ``poses`` lies inside the frame."""
        size = np.float64(self.layout.card_mm)
        cells_px = view.frame_points(place_points(poses, (self._cell_uv - 0.5) * size))
        height, width = shape[:2]
        return (
            (cells_px[..., 0] >= 0)
            & (cells_px[..., 1] >= 0)
            & (cells_px[..., 0] <= width - 1)
            & (cells_px[..., 1] <= height - 1)
        ).reshape(len(poses), -1)

    def _fine_cells(self, frame: np.ndarray, view: MatView, pose: Pose, turn: int) -> np.ndarray:
        """The fine cells (44, 32, 3) of the face at ``pose`` (turned when ``turn``)."""
        size = np.float64(self.layout.card_mm)
        columns, rows = identify.FINE
        first = (
            np.float64([0.5 / columns, 0.5 / rows]) * (1 - 2 * identify.INNER) + identify.INNER - 0.5
        ) * size
        last = -first
        corners_local = np.float64([first, [last[0], first[1]], last, [first[0], last[1]]])
        corners = view.frame_points(place_points(pose.row()[None], corners_local))[0]
        cells = warp_quad(frame, corners, (columns, rows))
        if cells.ndim == 2:
            cells = cv2.cvtColor(cells, cv2.COLOR_GRAY2BGR)
        return cells[::-1, ::-1] if turn else cells

    def _second_look(
        self,
        frame: np.ndarray,
        view: MatView,
        index: int,
        pose: Pose,
        match: Match,
        patch: np.ndarray,
        visible: np.ndarray,
        white: np.ndarray,
    ) -> tuple[Match, Pose]:
        """A card not sure at first, looked at again, each step only when the last was not enough:
        its pose nudged; searched for by its face (laid further off its outline than its edges were
        looked for: pushed over a neighbour, between two outlines), or, named clearly but with too
        short a lead, settled on its best pose nearby; told from its rivals where they differ (two
        cards much alike); read from the part that shows (the frame's edge, glare); read from what
        agrees with it (a hand or a token over it)."""
        s = self.settings
        best, best_pose = match, pose
        whole_view = bool((visible > 0.5).all())
        if match.score >= 0.3:
            d, t = s.nudge_mm, np.radians(s.nudge_turn)
            nudges = [(d, 0, 0), (-d, 0, 0), (0, d, 0), (0, -d, 0), (0, 0, t), (0, 0, -t)]
            moved = [pose.moved(*n) for n in nudges]
            patches, seen = self._faces(frame, view, np.stack([m.row() for m in moved]), [index] * len(moved))
            for k, candidate in enumerate(self.matcher.whole(patches)):
                if (candidate.score, candidate.margin) > (best.score, best.margin):
                    best, best_pose, patch, visible = candidate, moved[k], patches[k], seen[k]
            best = replace(best, how="nudged")
            if self.matcher.sure(best):
                return best, best_pose
        if whole_view and not self.places[index].pile and best.score < s.search_below:
            reach = (s.search_along_mm, s.search_across_mm)
            found = self._search(frame, view, index, best_pose, reach, s.search_turn, white)
            patches, seen = self._faces(frame, view, found.row()[None], [index])
            candidate = self.matcher.whole(patches)[0]
            if (candidate.score, candidate.margin) > (best.score, best.margin):
                best, best_pose, patch, visible = (
                    replace(candidate, how="searched"),
                    found,
                    patches[0],
                    seen[0],
                )
                if self.matcher.sure(best):
                    return best, best_pose
        if whole_view and not self.places[index].pile and best.score >= s.search_below:
            # Its card is clear but its lead short: a pose a millimetre or two off (edges hardly
            # darker than the paper) blurs what tells it from its rivals. Its best pose nearby first.
            reach = (s.settle_reach_mm, s.settle_reach_mm)
            found = self._search(frame, view, index, best_pose, reach, s.settle_turn, white)
            patches, seen = self._faces(frame, view, found.row()[None], [index])
            candidate = self.matcher.whole(patches)[0]
            if candidate.index == best.index and candidate.score > best.score:
                best, best_pose, patch, visible = replace(candidate, how=best.how), found, patches[0], seen[0]
                if self.matcher.sure(best):
                    return best, best_pose
        if whole_view and best.score >= s.match.pair_min_score:
            rivals = self.matcher.rivals(patch, best)
            if rivals:
                fine = self._fine_cells(frame, view, best_pose, best.turn)
                pair = self.matcher.pair(patch, fine, rivals, best)
                if self.matcher.sure(pair):
                    return pair, best_pose
        if not whole_view:
            partial = self.matcher.seen(patch, visible)
            if self.matcher.sure(partial):
                return partial, best_pose
        if best.score < s.robust_from:
            return best, best_pose  # nothing like any card: a hand or an arm over an empty place
        robust = self.matcher.robust(patch, (visible > 0.5).astype(np.float32), self._candidates(patch))
        return (robust, best_pose) if self.matcher.sure(robust) else (best, best_pose)

    def _candidates(self, patch: np.ndarray) -> list[tuple[int, int]]:
        ranked = self.matcher.ranked(patch, self.settings.match.robust_candidates)
        return [(index, turn) for index, _, turn in ranked]

    def _overlaps(
        self,
        frame: np.ndarray,
        view: MatView,
        indices: list[int],
        decided: dict[int, tuple[Match, Pose]],
    ) -> None:
        """Neighbours whose cards overlap: the one whose whole face matches lies on top; the other is
        read from the part of it that shows (both, when neither face matches whole)."""
        size = self.layout.card_mm
        card_area = size[0] * size[1]
        for left, right in self._neighbours:
            if left not in decided and right not in decided:
                continue
            poses = {}
            for index in (left, right):
                state = self._states[index]
                pose = decided[index][1] if index in decided else state.pose
                if pose is None or not state.occupied:
                    break
                poses[index] = pose
            else:
                if self._shared_area(poses[left], poses[right]) < self.settings.overlap * card_area:
                    continue
                for index, other in ((left, right), (right, left)):
                    if index not in decided:
                        continue
                    match, pose = decided[index]
                    other_match = decided[other][0] if other in decided else None
                    other_whole = other_match is not None and self.matcher.sure(other_match)
                    other_top = other_whole or (
                        other not in decided and self._states[other].reading is not None
                    )
                    if self.matcher.sure(match) and not other_top:
                        continue  # this one is on top
                    hidden = self._covered_cells(pose.row()[None], [poses[other]])[0]
                    patches, visible = self._faces(frame, view, pose.row()[None], [index])
                    partial = self.matcher.seen(patches[0], visible[0] * (1 - hidden), "overlap")
                    if self.matcher.sure(partial):
                        decided[index] = (partial, pose)

    def _under_neighbours(
        self,
        frame: np.ndarray,
        view: MatView,
        indices: list[int],
        decided: dict[int, tuple[Match, Pose]],
        first_looks: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> None:
        """A card still unsure after its second look, read from what its named neighbours leave
        of it (``_over``: a line laid overlapping puts a card under both of its neighbours, or under
        one and over the other). What shows is compared alone (``_read_under``); when that is not
        enough, the card is searched for by what shows of it (``_search_under``). Named cards show
        more of the line: the cards still unsure are looked at again while any is named."""
        unsure = [i for i in indices if not self.matcher.sure(decided[i][0]) and not self.places[i].pile]
        looked: dict[int, int] = {}  # how many neighbours lay over each card when last looked at
        while unsure:
            named = []
            for index in unsure:
                first = Pose.of(first_looks[index][0])
                over = self._over(frame, view, index, first, decided)
                if len(over) == looked.get(index, 0):
                    continue
                looked[index] = len(over)
                pose = decided[index][1]
                read = self._read_under(frame, view, index, pose, over)
                if read is None and self._lying_over(first, over):
                    pose = self._search_under(frame, view, index, first, over)
                    read = self._read_under(frame, view, index, pose, over, self.settings.searched_lead)
                if read is not None:
                    decided[index] = (read, pose)
                    named.append(index)
            if not named:
                return
            unsure = [i for i in unsure if i not in named]

    def _over(
        self, frame: np.ndarray, view: MatView, index: int, pose: Pose, decided: dict[int, tuple[Match, Pose]]
    ) -> list[Pose]:
        """The poses of this place's named neighbours (in its row) whose cards lie over its card at
        ``pose``: where their outlines share, the frame shows the neighbour's face
        (``Matcher.agreement``). A neighbour read from a part of its face lies under one of its own
        neighbours, and perhaps under this card: its outline alone does not say."""
        over = []
        for other in self._beside[index]:
            if other in decided:
                match, other_pose = decided[other]
                if not self.matcher.sure(match):
                    continue
            elif (reading := self._states[other].reading) is not None and self._states[other].match:
                match, other_pose = self._states[other].match, reading.pose
            else:
                continue
            shared = self._covered_cells(other_pose.row()[None], [pose], margin=-2.0)[0]
            if shared.sum() >= self.settings.on_top_cells:
                patches, visible = self._faces(frame, view, other_pose.row()[None], [other])
                agreement = self.matcher.agreement(patches[0], visible[0] * shared, match)
                if agreement < self.settings.on_top:
                    continue
            over.append(other_pose)
        return over

    def _read_under(
        self, frame: np.ndarray, view: MatView, index: int, pose: Pose, over: list[Pose], extra: float = 0.0
    ) -> Match | None:
        """The card at ``pose`` named from what the cards at ``over`` leave of it, by a lead ``extra``
        more than ``Matcher.sure`` asks (told from its rivals there when its lead is short), or None."""
        lying_over = self._lying_over(pose, over)
        if not lying_over:
            return None
        hidden = self._covered_cells(pose.row()[None], lying_over)[0]
        patches, visible = self._faces(frame, view, pose.row()[None], [index])
        seen = visible[0] * (1 - hidden)
        partial = self.matcher.seen(patches[0], seen, "overlap")
        if self.matcher.sure(replace(partial, margin=partial.margin - extra)):
            return partial
        if partial.score < self.settings.match.pair_min_score:
            return None
        rivals = self.matcher.rivals(patches[0], partial, seen)
        fine = self._fine_cells(frame, view, pose, partial.turn)
        told = self.matcher.pair(patches[0], fine, rivals, partial, seen)
        return told if self.matcher.sure(told) else None

    def _lying_over(self, pose: Pose, over: list[Pose]) -> list[Pose]:
        """Those of ``over`` that overlap the card at ``pose`` by more than ``overlap``."""
        least = self.settings.overlap * self.layout.card_mm[0] * self.layout.card_mm[1]
        return [other for other in over if self._shared_area(pose, other) >= least]

    def _search_under(
        self, frame: np.ndarray, view: MatView, index: int, start: Pose, over: list[Pose]
    ) -> Pose:
        """The pose near ``start`` where what the cards at ``over`` leave of a face matches an
        enrolled card best. A card under its neighbour by 15-25 mm has little of its outline in view,
        and a search by its whole face lands on the neighbour over it (whose whole face is there):
        only what shows is compared, so the neighbour's face counts for nothing."""
        s = self.settings
        least = s.match.min_seen
        turn = np.radians(s.search_turn)
        reach = (s.search_along_mm, s.search_across_mm)
        best, best_score = start.row(), -1.0
        # Ever finer grids around the best so far (mm along, across, and turns): what shows of a
        # card a few millimetres off its pose hardly resembles its face.
        for fraction, along, across, turns_count in ((1.0, 7, 5, 3), (0.35, 3, 3, 3), (0.12, 3, 3, 3)):
            grid = _pose_grid(best, reach, turn, (along, across, turns_count), fraction, fraction)
            patches = self._quick_faces(frame, view, grid)
            seen = self._inside(view, grid, frame.shape) * (1 - self._covered_cells(grid, over))
            enough = np.flatnonzero(seen.mean(axis=1) >= least)
            if len(enough):
                scores = self.matcher.best_seen(patches[enough], seen[enough])
                if float(scores.max()) > best_score:
                    best, best_score = grid[enough[int(scores.argmax())]], float(scores.max())
        return Pose.of(best)

    def _covered_cells(self, poses: np.ndarray, over: list[Pose], margin: float = 2.0) -> np.ndarray:
        """(poses, cells) 1 where the cell of the face at each of ``poses`` lies under a card at
        ``over``, or within ``margin`` mm of its edge (a millimetre or two of the edge under it is not
        trusted either; a negative margin: that far inside it)."""
        w, h = self.layout.card_mm
        mm = place_points(poses, (self._cell_uv - 0.5) * np.float64((w, h))).reshape(len(poses), -1, 2)
        covered = np.zeros(mm.shape[:2], bool)
        for other in over:
            c, s = np.cos(other.angle), np.sin(other.angle)
            dx, dy = mm[..., 0] - other.x, mm[..., 1] - other.y
            u, v = c * dx + s * dy, -s * dx + c * dy  # into the other card's own frame
            covered |= (np.abs(u) <= w / 2 + margin) & (np.abs(v) <= h / 2 + margin)
        return covered.astype(np.float32)

    def _name(
        self,
        decided: dict[int, tuple[Match, Pose]],
        view: MatView,
        frame: np.ndarray,
        white: np.ndarray,
        first_looks: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> None:
        """Each place's reading from its match: the card, where its face's corners lie in the frame."""
        sure = [index for index, (match, _) in decided.items() if self.matcher.sure(match)]
        sure = self._face_checked(frame, view, sure, decided, white, first_looks)
        for index, (_, pose) in decided.items():
            self._states[index].pose = pose
            self._states[index].reading = None
        if not sure:
            return
        rows = np.stack([decided[index][1].row() for index in sure])
        w, h = self.layout.card_mm
        local = np.float64([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2
        corners = view.frame_points(place_points(rows, local)).astype(np.float32)
        for k, index in enumerate(sure):
            match, pose = decided[index]
            face = corners[k][[2, 3, 0, 1]] if match.turn else corners[k]
            card = self.cards[match.index]
            self._states[index].reading = Reading(
                self.places[index], card, self.matcher.confidence(match), pose, face, match.how
            )
            self._states[index].match = match
        self._one_card_once(sure)

    def _face_checked(
        self,
        frame: np.ndarray,
        view: MatView,
        indices: list[int],
        decided: dict[int, tuple[Match, Pose]],
        white: np.ndarray,
        first_looks: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]],
    ) -> list[int]:
        """The places of ``indices`` whose card does not show the bare paper where its face has
        none (``paper_share``), nor, read whole and clear of its neighbours, far more colour than
        its face (``colourful``; a card overlapping a neighbour shows some of the neighbour's). A
        card lying there covers the paper; a card partly under its neighbour shows the neighbour,
        not paper; cells out of the frame are not counted. A card still at the pose of its first
        look (most cards) is judged on the patch read there."""
        if not indices:
            return indices
        s = self.settings
        rows = np.stack([decided[index][1].row() for index in indices])
        patches = np.empty((len(indices), GRID_CELLS, 3), np.float32)
        visible = np.empty((len(indices), GRID_CELLS), np.float32)
        moved = []
        for k, index in enumerate(indices):
            first = first_looks.get(index)
            if first is not None and np.array_equal(first[0], rows[k]):
                patches[k], visible[k] = first[1], first[2]
            else:
                moved.append(k)
        if moved:
            again = [indices[k] for k in moved]
            patches[moved], visible[moved] = self._faces(frame, view, rows[moved], again)
        paper = (white[indices] @ identify.OPPONENT.T).astype(np.float32)  # (cards, 3)
        tolerance = s.paper_level * np.maximum(paper[:, :1], 1.0)  # (cards, 1)
        bare = (np.abs(patches - paper[:, None, :]) <= tolerance[:, None, :]).all(axis=2)  # (cards, cells)
        # Cells washed out by glare are not counted (glare on a card is as white as paper), unless
        # the paper itself is washed out: then glare and paper cannot be told apart, and an arm
        # across an empty place on a mat lit to white must still not pass for a card.
        inside = self._inside(view, rows, frame.shape)
        washed = inside & (visible < 0.5)
        paper_washed = (white[indices] >= s.glare).all(axis=1)
        counted_cells = inside & ~(washed & ~paper_washed[:, None])
        kept = []
        for k, index in enumerate(indices):
            match = decided[index][0]
            if (
                match.seen >= 1.0
                and not self._lying_over(decided[index][1], self._named_beside(index, decided))
                and self.matcher.colour_excess(patches[k], white[index], match) > s.colourful
            ):
                continue
            face = self.matcher.references.patches[match.index]
            if match.turn:
                face = identify.turned_patch(face)
            light = (face[:, 0] >= s.light_face) & (np.abs(face[:, 1:]) <= s.light_colour).all(axis=1)
            counted = counted_cells[k] & ~light
            # A card read from a part (under its neighbour, a hand) is judged on that part.
            if (bare[k] & counted).sum() <= s.paper_share * inside[k].sum() * match.seen:
                kept.append(index)
        return kept

    def _named_beside(self, index: int, decided: dict[int, tuple[Match, Pose]]) -> list[Pose]:
        """The poses of the cards named in the places beside this one, in its row."""
        return [
            decided[other][1]
            for other in self._beside[index]
            if other in decided and self.matcher.sure(decided[other][0])
        ]

    def _same_card_spot(self, one: Pose, other: Pose) -> bool:
        """Whether two poses of one card are the same card: within ``same_spot_mm``, or overlapping
        by more than half a card (a pose searched for by its face may lie a little further off)."""
        if np.hypot(one.x - other.x, one.y - other.y) <= self.settings.same_spot_mm:
            return True
        size = self.layout.card_mm
        return self._shared_area(one, other) > 0.5 * size[0] * size[1]

    def _shared_area(self, one: Pose, other: Pose) -> float:
        """The area (mm²) two cards lying at ``one`` and ``other`` share."""
        size = self.layout.card_mm
        a, b = one.corners(size).astype(np.float32), other.corners(size).astype(np.float32)
        area, _ = cv2.intersectConvexConvex(a, b)
        return float(area)

    def _one_card_once(self, indices: list[int]) -> None:
        """A card searched for by its face may be found from its neighbour's place too (it lies over
        both): one card in one spot is read once, from the place it lies nearer to."""
        for index in indices:
            mine = self._states[index].reading
            if mine is None:
                continue
            for other in self._beside[index]:
                theirs = self._states[other].reading
                if theirs is None or theirs.card != mine.card:
                    continue
                if not self._same_card_spot(mine.pose, theirs.pose):
                    continue
                away = [
                    np.hypot(r.pose.x - r.place.rect.centre[0], r.pose.y - r.place.rect.centre[1])
                    for r in (mine, theirs)
                ]
                loser = other if away[1] > away[0] else index
                self._states[loser].reading = None
