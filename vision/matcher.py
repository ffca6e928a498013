"""Which enrolled card a patch of face is: the whole face, a part of it, or a part nobody said is hidden.

A patch is the raw opponent colours of a face's cells (``vision.identify``). ``Matcher`` compares it
with every enrolled face, upright and turned, in three ways:

* ``whole``: every cell seen; one matrix product for many patches (the common case);
* ``seen``: only the cells known to be visible (the rest outside the frame, under a card lying over
  it, washed out by glare): both sides are normalised over those cells alone and the enrolled faces'
  mean over them taken out, so what is hidden changes nothing of what is compared;
* ``robust``: something nobody located lies over the card (a hand, a token): for each of the few
  best candidates, the cells that disagree with it most are set aside, as long as they form one
  patch (a hand is one shape; a wrong card disagrees all over), and every enrolled face is scored
  again on the rest. A card is named only when it is still the best there, by the same margin.

Besides: ``pair`` tells a best match from its close rivals where they differ; ``best_seen`` ranks
many poses of a part of a face at once (a card searched for under its neighbour); ``agreement``
says whether a given face is what shows over some cells (which of two overlapping cards lies on top);
``colour_excess`` says how much more colourful an observation is than a face (a face of the same
layout in other colours describes alike).

A match is named only when its score and its lead over the best other card clear the thresholds
(``MatchSettings``); what is less sure is nothing, never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import identify
from vision.references import ReferenceSet

CENTRE_FROM = 8
"""Enrolled faces needed before their mean face is taken out of every comparison."""


@dataclass(frozen=True)
class MatchSettings:
    min_score: float = 0.6
    """Least correlation with the named card's face."""
    min_margin: float = 0.25
    """Least lead of the named card over the best other card."""
    min_seen: float = 0.3
    """Least share of the face's cells that must be visible to name it from a part."""
    seen_margin_slope: float = 0.15
    """A part is less evidence than a whole face: the margin needed grows by this for every cell
    hidden (a card half covered needs 0.25 + 0.075; read with a part set aside, 0.3 + 0.075). A card
    never enrolled, of an enrolled card's style, was named from the half it shares with it (its
    frame, its title bar) by margins of 0.30-0.35 on held-out seed 6 before the robust read grew too."""
    robust_candidates: int = 4
    """How many of the best whole-face candidates are each tried with their worst cells set aside."""
    robust_hide: float = 0.55
    """At most this share of the face's blocks is set aside as covered."""
    robust_blocks: tuple[int, int] = (4, 5)
    """The face's blocks (columns, rows) that are each kept or set aside whole."""
    robust_block: float = 0.5
    """A block is kept when it correlates this much with the candidate's."""
    robust_shapes: int = 2
    """The blocks set aside lie in at most this many connected shapes (a hand and a token)."""
    robust_detail: float = 0.65
    """The blocks kept must hold at least this share of the face's detail for their share of its
    area (0.5 of the face kept: 0.33 of its detail). A plain part of a face (one colour, a round
    blob) is also what an arm or a sleeve shows: on the held-out sets a card was named from such a
    part at 0.57, the true cards under a hand at 0.73 and more."""
    robust_min_score: float = 0.7
    robust_min_margin: float = 0.3
    pair_within: float = 0.3
    """Cards scoring within this of the best are its rivals when the best does not lead by
    ``min_margin``: they are told apart where they differ."""
    pair_min_score: float = 0.75
    """The best must score this much on the coarse patch to be told from its rivals (a card never
    enrolled scored up to 0.74 on the held-out sets)."""
    pair_side: float = 0.15
    """On the line from a rival to the best, in the coarse and fine patches joined, the observation
    must lie this far past the middle towards the best (0.5: exactly the best's), against every
    rival. Set on the held-out renderer's seed-2 set, where true cards of one look (a small art box
    over much text) lay at 0.15-0.41 and nothing else named passed 0.1; checked on seeds 3 and 4."""


@dataclass(frozen=True)
class Match:
    index: int
    """The enrolled face's row; -1 when nothing could be compared."""
    score: float
    margin: float
    turn: int
    """0: the face as sampled, 1: turned by 180°."""
    seen: float = 1.0
    """The share of the face's cells compared."""
    how: str = "whole"

    @staticmethod
    def none(how: str = "whole") -> Match:
        return Match(-1, 0.0, 0.0, 0, 0.0, how)


def _block_starts(blocks: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    rows = np.array_split(np.arange(identify.PATCH[1]), blocks[1])
    columns = np.array_split(np.arange(identify.PATCH[0]), blocks[0])
    return np.array([r[0] for r in rows]), np.array([c[0] for c in columns])


class _Starts(dict[tuple[int, int], tuple[np.ndarray, np.ndarray]]):
    def __missing__(self, key: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        self[key] = _block_starts(key)
        return self[key]


_BLOCK_STARTS = _Starts()


def unit_rows(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=-1, keepdims=True)
    return matrix / np.maximum(norms, 1e-12)


class Matcher:
    def __init__(self, references: ReferenceSet, settings: MatchSettings | None = None) -> None:
        self.references = references
        self.settings = settings or MatchSettings()
        self._patches = references.patches  # (N, cells, 3)
        descriptors = references.descriptors
        self._centred = len(descriptors) >= CENTRE_FROM
        self._mean = descriptors.mean(axis=0) if self._centred else np.zeros_like(descriptors[0])
        self._matrix = unit_rows(descriptors - self._mean)
        self._fine: dict[int, np.ndarray] = {}
        self._detail = _detail(self._patches)
        self._sums: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return len(self.references)

    # ----------------------------------------------------------------------------- comparisons

    def scores(self, descriptors: np.ndarray) -> np.ndarray:
        """(faces, patches) correlation of every enrolled face with unmasked descriptors (P, D)."""
        return self._matrix @ unit_rows(descriptors - self._mean).T

    def whole(self, patches: np.ndarray) -> list[Match]:
        """Every cell of each patch (P, cells, 3) seen: the best face, upright or turned."""
        if len(patches) == 0:
            return []
        upright = identify.normalise_all(patches)
        turned = upright.reshape(len(patches), 3, identify.CHANNEL)[:, :, ::-1].reshape(len(patches), -1)
        scores = self.scores(np.concatenate([upright, turned]))  # (N, 2P)
        count = len(patches)
        turns = (scores[:, count:] > scores[:, :count]).astype(np.int64)  # (N, P)
        per_face = np.maximum(scores[:, :count], scores[:, count:])
        if len(per_face) == 1:
            return [
                Match(0, float(v), float(v), int(t), 1.0) for v, t in zip(per_face[0], turns[0], strict=True)
            ]
        top_two = np.argpartition(per_face, -2, axis=0)[-2:]  # (2, P)
        values = np.take_along_axis(per_face, top_two, axis=0)
        first = np.where(values[1] >= values[0], top_two[1], top_two[0])
        best = np.maximum(values[0], values[1])
        margin = best - np.minimum(values[0], values[1])
        turn = turns[first, np.arange(count)]
        return [
            Match(int(i), float(v), float(m), int(t))
            for i, v, m, t in zip(first.tolist(), best.tolist(), margin.tolist(), turn.tolist(), strict=True)
        ]

    def seen(self, patch: np.ndarray, visible: np.ndarray, how: str = "seen") -> Match:
        """The patch (cells, 3) compared over its visible cells only (weights 0..1 per cell)."""
        share = float(np.mean(visible > 0.5))
        if share < self.settings.min_seen:
            return Match.none(how)
        both = np.stack(
            [self._masked_scores(patch, visible), self._masked_scores(patch[::-1], visible[::-1])], axis=-1
        )
        return _best(both, how, share)

    def colour_excess(self, patch: np.ndarray, paper: np.ndarray, match: Match) -> float:
        """How much more colourful the whole ``patch`` (cells, 3, as sampled) is than the face of
        ``match``: the largest, over the two colour channels, of the observation's colour contrast
        (for its brightness contrast, white-balanced on the ``paper`` around it, BGR) over the
        face's, with ``COLOUR_FLOOR`` added to both (a grey face's colour is the camera's noise). The
        descriptor normalises each channel on its own, so two faces of one layout whose colours
        differ (a tan shape on teal, a salmon one on green) describe alike; a camera washes colour
        out, it never doubles it."""
        balanced = (patch @ _FROM_OPPONENT.T) * (255.0 / np.maximum(paper, 1.0))
        observed = _colour_contrast((balanced @ identify.OPPONENT.T).astype(np.float32))
        face = self._patches[match.index]
        enrolled = _colour_contrast(identify.turned_patch(face) if match.turn else face)
        return float(((observed + COLOUR_FLOOR) / (enrolled + COLOUR_FLOOR)).max())

    def agreement(self, patch: np.ndarray, visible: np.ndarray, match: Match) -> float:
        """How well ``patch`` (cells, 3, as sampled) agrees with the face of ``match`` (in its turn)
        over the ``visible`` cells alone: their correlation there."""
        observed = patch[::-1] if match.turn else patch
        shown = (visible[::-1] if match.turn else visible) > 0.5
        both = identify.normalise_shared(np.stack([observed, self._patches[match.index]]), shown)
        return float(both[0] @ both[1])

    def best_seen(self, patches: np.ndarray, visible: np.ndarray) -> np.ndarray:
        """(P,) for each patch (P, cells, 3) over its own visible cells (P, cells), about the best
        score ``seen`` would give it, upright or turned: to rank poses, not to name a card. The
        faces' mean is not taken out, so every score is a little higher than ``seen``'s; the rest is
        the same comparison, made from sums over the visible cells (one matrix product for every
        pose) instead of describing every face again under each pose's visibility."""
        faces, face_squares, face_planes = self._plane_sums()
        basis = identify.PLANE_COLUMNS  # (cells, 3): 1, x, y
        weights = (visible > 0.5).astype(np.float32)  # (P, cells)
        weighted = patches * weights[..., None]  # (P, cells, 3 channels)
        normal = (weights[:, :, None] * basis).transpose(0, 2, 1) @ basis  # (P, 3, 3)
        inverse = np.linalg.inv(normal + np.eye(3, dtype=np.float32) * 1e-6)
        own_planes = basis.T @ weighted  # (P, 3 basis, 3 channels)
        solved = inverse @ own_planes  # (P, 3, 3)
        # (P, 3): each channel's squared length once its plane is taken out
        own = (weighted * patches).sum(axis=1) - (own_planes * solved).sum(axis=1)
        count = len(faces)
        cross = np.stack([faces[:, :, m] @ weighted[:, :, m].T for m in range(3)], axis=-1)  # (2N, P, 3)
        planes = (face_planes @ weights.T).reshape(count, 3, 3, -1).transpose(3, 0, 1, 2)  # (P, 2N, 3, 3)
        squares = (face_squares @ weights.T).reshape(count, 3, -1).transpose(2, 0, 1)  # (P, 2N, 3)
        cross = cross.transpose(1, 0, 2) - (planes * solved[:, None]).sum(axis=2)
        through = inverse[:, None] @ planes  # (P, 2N, 3 basis, 3 channels)
        lengths = squares - (planes * through).sum(axis=2)
        with np.errstate(all="ignore"):
            per_channel = cross / np.sqrt(np.maximum(lengths * own[:, None, :], 1e-12))
        per_channel = np.where(np.isfinite(per_channel), per_channel, 0.0)
        strength = identify.WEIGHTS**2 / float((identify.WEIGHTS**2).sum())
        return (per_channel @ strength).max(axis=1)

    def _plane_sums(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every enrolled face upright and turned (2N, cells, 3), each cell's squares (2N * 3,
        cells), and each cell times the plane's three columns (2N * 3 * 3, cells): what
        ``best_seen`` sums over the visible cells."""
        if self._sums is None:
            faces = np.concatenate([self._patches, self._patches[:, ::-1]]).astype(np.float32)
            basis = identify.PLANE_COLUMNS
            squares = (faces * faces).transpose(0, 2, 1).reshape(-1, faces.shape[1])
            planes = np.einsum("ck,ncm->nkmc", basis, faces).reshape(-1, faces.shape[1])
            self._sums = faces, squares, planes
        return self._sums

    def _masked_scores(self, patch: np.ndarray, visible: np.ndarray) -> np.ndarray:
        """(N,) scores of every enrolled face against ``patch``, both normalised over ``visible``."""
        references, observed = self._masked(patch, visible)
        return references @ observed

    def _masked(self, patch: np.ndarray, visible: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every enrolled face (N, D) and ``patch`` (D,) described over the ``visible`` cells alone,
        the faces' mean over them taken out, at unit length: what ``_matrix`` and ``scores`` are for a
        whole face."""
        described = identify.normalise_shared(np.concatenate([self._patches, patch[None]]), visible)
        references, observed = described[:-1], described[-1]
        mean = references.mean(axis=0) if self._centred else np.zeros_like(observed)
        return unit_rows(references - mean), unit_rows(observed - mean)

    def robust(self, patch: np.ndarray, visible: np.ndarray, candidates: list[tuple[int, int]]) -> Match:
        """The patch with an unknown part covered: for each (face, turn) candidate, the blocks of the
        face that do not look like the candidate's are set aside (as long as they lie together: a
        hand or a token is one shape, a wrong card differs all over), and every enrolled face is
        scored again on the rest. The candidate still best there wins, with the margins of
        ``sure``."""
        best = Match.none("robust")
        for index, turn in candidates:
            observed = patch[::-1] if turn else patch
            seen = visible[::-1] if turn else visible
            keep = self._agreeing(observed, seen, index)
            if keep is None:
                continue
            match = self.seen(observed, seen * keep, "robust")
            if match.index != index or match.turn != 0:
                continue
            match = Match(index, match.score, match.margin, turn, match.seen, "robust")
            if match.margin > best.margin:
                best = match
        return best

    def _agreeing(self, observed: np.ndarray, visible: np.ndarray, index: int) -> np.ndarray | None:
        """(cells,) 1 in the blocks of the face where the observation correlates with face ``index``,
        0 in the others; None when those others do not lie together or leave too little."""
        s = self.settings
        shown = (visible > 0.5).astype(np.float32)
        pair = identify.normalise_shared(np.stack([observed, self._patches[index]]), shown)
        grid = pair.reshape(2, 3, identify.PATCH[1], identify.PATCH[0]).astype(np.float64)
        row_starts, column_starts = _BLOCK_STARTS[s.robust_blocks]
        a, b = grid[0], grid[1]

        def blocks(values: np.ndarray) -> np.ndarray:  # per-block sums over cells, per channel
            rows = np.add.reduceat(values, row_starts, axis=1)
            return np.add.reduceat(rows, column_starts, axis=2)

        count = blocks(np.ones_like(a[:1]))[0]  # cells per block
        sa, sb = blocks(a), blocks(b)
        saa, sbb, sab = blocks(a * a), blocks(b * b), blocks(a * b)
        # Each block's correlation, every channel centred in the block (a block of one plain colour
        # on both sides is the same plain area: it agrees).
        caa = (saa - sa * sa / count).sum(axis=0)
        cbb = (sbb - sb * sb / count).sum(axis=0)
        cab = (sab - sa * sb / count).sum(axis=0)
        flat_a, flat_b = caa < 1e-10, cbb < 1e-10
        with np.errstate(all="ignore"):
            correlation = cab / np.sqrt(np.maximum(caa * cbb, 1e-20))
        agree = np.where(flat_a | flat_b, flat_a & flat_b, correlation >= s.robust_block)
        if agree.mean() < 1 - s.robust_hide:
            return None
        shapes, _ = cv2.connectedComponents((~agree).astype(np.uint8), connectivity=8)
        if shapes - 1 > s.robust_shapes:
            return None
        keep = np.repeat(
            np.repeat(agree, np.diff([*row_starts, identify.PATCH[1]]), axis=0),
            np.diff([*column_starts, identify.PATCH[0]]),
            axis=1,
        ).ravel()
        detail = self._detail[index]
        if float(detail[keep].sum()) < s.robust_detail * float(keep.mean()) * float(detail.sum()):
            return None  # what agrees is the plain part of the face
        return keep.astype(np.float32)

    def fine(self, index: int) -> np.ndarray:
        """The fine cells of enrolled face ``index`` (made from its thumbnail when first asked)."""
        found = self._fine.get(index)
        if found is None:
            from vision.references import portrait

            thumbnail = portrait(self.references.thumbnails[index])
            found = self._fine[index] = identify.fine_cells_from_face(thumbnail)
        return found

    def rivals(self, patch: np.ndarray, match: Match, visible: np.ndarray | None = None) -> list[int]:
        """The faces scoring within ``pair_within`` of ``match`` (in its turn), on the whole patch or
        on its ``visible`` cells."""
        observed = patch[::-1] if match.turn else patch
        if visible is None:
            scores = self.scores(identify.normalise(observed)[None])[:, 0]
        else:
            scores = self._masked_scores(observed, visible[::-1] if match.turn else visible)
        close = np.flatnonzero(scores >= match.score - self.settings.pair_within)
        return [int(i) for i in close if int(i) != match.index]

    def pair(
        self,
        patch: np.ndarray,
        fine_cells: np.ndarray,
        rivals: list[int],
        match: Match,
        visible: np.ndarray | None = None,
    ) -> Match:
        """The best match told from each rival: where the observation lies on the line from the
        rival to the best, in the coarse patch ``patch`` (as sampled) and the fine cells
        ``fine_cells`` (in the match's turn) joined, over the ``visible`` cells when given. The
        coarse patch forgives a pose a little off, the fine one sees what the coarse one averages
        away (a title, a symbol); joined, each counts by how much the two faces differ in it, so
        twins differing only by their titles are told on the fine patch alone. Named (``how``
        "pair", or the match's own when read from a part) when past ``pair_side`` against every
        rival."""
        observed = patch[::-1] if match.turn else patch
        faces = [match.index, *rivals]
        if visible is None:
            coarse = unit_rows(identify.normalise(observed) - self._mean)
            references = self._matrix[faces]
            fine = identify.fine_from_cells(fine_cells)
            fine_references = identify.fine_from_cells(np.stack([self.fine(i) for i in faces]))
        else:
            seen = visible[::-1] if match.turn else visible
            every, coarse = self._masked(observed, seen)
            references = every[faces]
            fine = identify.fine_from_cells(fine_cells, seen)
            fine_references = identify.fine_from_cells(np.stack([self.fine(i) for i in faces]), seen)
        mine, mine_fine = references[0], fine_references[0]
        nearest = 1.0
        for theirs, theirs_fine in zip(references[1:], fine_references[1:], strict=True):
            apart, apart_fine = mine - theirs, mine_fine - theirs_fine
            if float(apart_fine @ apart_fine) < 1e-6:
                return Match.none("pair")  # the same face twice: nothing tells them apart
            middle, middle_fine = (mine + theirs) / 2, (mine_fine + theirs_fine) / 2
            along = float((coarse - middle) @ apart + (fine - middle_fine) @ apart_fine)
            nearest = min(nearest, along / float(apart @ apart + apart_fine @ apart_fine))
        if nearest < self.settings.pair_side:
            return Match.none("pair")
        how = "pair" if visible is None else match.how
        margin = self.settings.min_margin + self.settings.seen_margin_slope * (1 - match.seen)
        return Match(match.index, match.score, max(match.margin, margin), match.turn, match.seen, how)

    def ranked(self, patch: np.ndarray, count: int) -> list[tuple[int, float, int]]:
        """The ``count`` best faces for a whole patch: (index, score, turn), best first."""
        upright = identify.normalise(patch)
        turned = identify.upside_down(upright)
        scores = self.scores(np.stack([upright, turned]))  # (N, 2)
        turns = scores.argmax(axis=1)
        best = scores.max(axis=1)
        order = np.argsort(best)[::-1][:count]
        return [(int(i), float(best[i]), int(turns[i])) for i in order]

    # -------------------------------------------------------------------------------- decisions

    def sure(self, match: Match) -> bool:
        """Whether a match is sure enough to name its card."""
        s = self.settings
        if match.index < 0:
            return False
        if match.how == "pair":
            return match.score >= s.pair_min_score
        if match.how == "robust":
            return (
                match.seen >= 1 - s.robust_hide - 1e-6
                and match.score >= s.robust_min_score
                and match.margin >= s.robust_min_margin + s.seen_margin_slope * (1 - match.seen)
            )
        margin = s.min_margin + s.seen_margin_slope * (1 - match.seen)
        return match.seen >= s.min_seen and match.score >= s.min_score and match.margin >= margin

    def confidence(self, match: Match) -> float:
        s = self.settings
        return round(
            min(1.0, match.score) * min(1.0, match.margin / (2 * s.min_margin)) * min(1.0, match.seen + 0.3),
            4,
        )


_FROM_OPPONENT = np.linalg.inv(identify.OPPONENT)
COLOUR_FLOOR = 0.1
"""Colour contrast (for brightness contrast) that any face is taken to have at least."""


def _colour_contrast(patch: np.ndarray) -> np.ndarray:
    """(2,) each colour channel's contrast over a raw patch (cells, 3) for its brightness contrast:
    their lengths once the plane fitted to each is taken out."""
    flat = patch - identify.PLANE @ (identify.PLANE.T @ patch)  # as ``identify.normalise`` takes it out
    lengths = np.sqrt((flat * flat).sum(axis=0))
    return lengths[1:] / max(float(lengths[0]), 1e-6)


def _detail(patches: np.ndarray) -> np.ndarray:
    """(faces, cells) how much each cell of each enrolled face differs from its neighbours below and
    to the right (squared, over the normalised channels): where a face has something to see."""
    grid = identify.normalise_all(patches).reshape(len(patches), 3, identify.PATCH[1], identify.PATCH[0])
    down = np.diff(grid, axis=2, append=grid[:, :, -1:, :])
    right = np.diff(grid, axis=3, append=grid[:, :, :, -1:])
    return (down**2 + right**2).sum(axis=1).reshape(len(patches), -1)


def _best(both: np.ndarray, how: str, seen: float) -> Match:
    """The best face of (N, 2 turns) scores, and its lead over the best other face."""
    per_face = both.max(axis=1)
    turns = both.argmax(axis=1)
    if len(per_face) == 1:
        return Match(0, float(per_face[0]), float(per_face[0]), int(turns[0]), seen, how)
    top_two = np.argpartition(per_face, -2)[-2:]
    first, second = (top_two[1], top_two[0]) if per_face[top_two[1]] >= per_face[top_two[0]] else top_two
    score = float(per_face[first])
    return Match(int(first), score, score - float(per_face[second]), int(turns[first]), seen, how)
