"""Card identity from a face's pixels: a small normalised colour patch, compared by one matrix product.

A face (a reference image, or a quad found in a frame) is warped to a fixed patch of its inner area
(the printed border is left out: every card of a colour shares it), area-averaged down to ``PATCH``
pixels and split into three opponent channels: brightness, red–green and blue–yellow. Each channel
is freed of a brightness plane (a lighting gradient across the card, a colour cast) and scaled to
unit norm; the three are joined with ``WEIGHTS``. Two descriptors then compare by their dot product,
a normalised cross-correlation: 1 for the same face, near 0 for unrelated ones. The patch is coarse
on purpose: the art's colours and shapes tell cards apart, and a coarse patch forgives a corner
found a pixel or two off, blur and JPEG noise.

An upside-down card is the same patch turned by 180°, which reverses each channel, so each quad is
compared with every reference both ways at the cost of one product.
"""

from __future__ import annotations

import cv2
import numpy as np

PATCH = (16, 22)
"""Width, height of a descriptor patch (a 63 × 88 mm card's inner area at about 3.5 mm per pixel)."""
INNER = 0.08
"""The fraction of the face's width and height left out at each edge (the printed border)."""
OVERSAMPLE = 4
"""The warp samples this many times more pixels per side than the patch, then averages them down,
so a card far larger than the patch does not alias."""
WEIGHTS = np.float32([1.0, 0.7, 0.7])
"""Brightness, red–green, blue–yellow: colour counts a little less (camera white balance drifts)."""
OPPONENT = np.float32([[1 / 3, 1 / 3, 1 / 3], [0, -1, 1], [1, -0.5, -0.5]])
"""Rows turn (B, G, R) into brightness, red–green and blue–yellow."""
CHANNEL = PATCH[0] * PATCH[1]
LENGTH = 3 * CHANNEL


def _plane_basis() -> np.ndarray:
    width, height = PATCH
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    columns = np.stack([np.ones(width * height), xs.ravel(), ys.ravel()], axis=1)
    basis, _ = np.linalg.qr(columns)
    return basis.astype(np.float32)


PLANE = _plane_basis()
"""Orthonormal basis of constant + linear brightness over the patch, removed from every channel."""


def canonical_target() -> np.ndarray:
    """Where the face's corners (top-left, top-right, bottom-right, bottom-left) land in the
    oversampled patch, so that the patch covers exactly the face's inner area."""
    width, height = PATCH[0] * OVERSAMPLE, PATCH[1] * OVERSAMPLE
    low, span = -INNER / (1 - 2 * INNER), 1 / (1 - 2 * INNER)
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    return ((low + unit * span) * np.float32([width, height])).astype(np.float32)


TARGET = canonical_target()


def descriptor_from_quad(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The descriptor of the face whose corners (top-left first, clockwise) lie at ``corners`` in
    the BGR (or grey) image ``image``."""
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), TARGET)
    size = (PATCH[0] * OVERSAMPLE, PATCH[1] * OVERSAMPLE)
    sampled = cv2.warpPerspective(image, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if sampled.ndim == 2:
        sampled = cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR)
    patch = cv2.resize(sampled, PATCH, interpolation=cv2.INTER_AREA).astype(np.float32)
    return normalise(patch.reshape(-1, 3) @ OPPONENT.T)


def descriptor_from_face(face: np.ndarray) -> np.ndarray:
    """The descriptor of a clean face image (BGR or grey), as it would be seen lying straight."""
    return normalise(patch_from_face(face))


def patch_from_face(face: np.ndarray) -> np.ndarray:
    """The raw opponent channels (cells × 3) of a clean face: what ``normalise`` makes a descriptor
    of, kept so that a part of the face can be compared alone (a card half covered)."""
    height, width = face.shape[:2]
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(corners, TARGET)
    size = (PATCH[0] * OVERSAMPLE, PATCH[1] * OVERSAMPLE)
    sampled = cv2.warpPerspective(face, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if sampled.ndim == 2:
        sampled = cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR)
    patch = cv2.resize(sampled, PATCH, interpolation=cv2.INTER_AREA).astype(np.float32)
    return (patch.reshape(-1, 3) @ OPPONENT.T).astype(np.float32)


def face_grid(oversample: int) -> np.ndarray:
    """Where to sample a face for its patch: (rows, columns, 2) points (u, v) in 0..1 of the face's
    width and height, ``oversample`` per cell and side, covering the inner area (the border left out)."""
    columns, rows = PATCH[0] * oversample, PATCH[1] * oversample
    u = INNER + (1 - 2 * INNER) * (np.arange(columns, dtype=np.float32) + 0.5) / columns
    v = INNER + (1 - 2 * INNER) * (np.arange(rows, dtype=np.float32) + 0.5) / rows
    return np.stack(np.meshgrid(u, v), axis=-1)


def patches_from_samples(samples: np.ndarray, oversample: int) -> np.ndarray:
    """(faces, rows, columns, 3) BGR samples taken at ``face_grid(oversample)`` → (faces, cells, 3)
    raw opponent channels (each cell the mean of its samples)."""
    count = samples.shape[0]
    blocks = samples.reshape(count, PATCH[1], oversample, PATCH[0], oversample, samples.shape[-1])
    cells = blocks.mean(axis=(2, 4), dtype=np.float32).reshape(count, CHANNEL, -1)
    if cells.shape[-1] == 1:
        cells = np.repeat(cells, 3, axis=-1)
    return (cells @ OPPONENT.T).astype(np.float32)


def normalise_visible(channels: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """``normalise`` over the visible cells only, for many patches at once: (patches, cells, 3) raw
    channels and (patches, cells) weights (1 seen, 0 hidden: a hand, a card lying over it, the frame's
    edge) → (patches, LENGTH) descriptors that are zero where hidden. The brightness plane is fitted
    to what is seen, so a hidden part changes nothing of the rest."""
    weights = visible.astype(np.float32)[..., None]  # (P, cells, 1)
    basis = PLANE_COLUMNS  # (cells, 3): 1, x, y
    weighted = basis[None] * weights  # (P, cells, 3)
    normal = np.einsum("pck,pcl->pkl", weighted, basis[None].repeat(len(channels), 0))
    normal += np.eye(3, dtype=np.float32) * 1e-6
    rhs = np.einsum("pck,pcm->pkm", weighted, channels)  # (P, 3 basis, 3 channels)
    coefficients = np.linalg.solve(normal, rhs)
    flat = (channels - basis[None] @ coefficients) * weights
    seen = np.maximum(weights.sum(axis=1), 1.0)  # (P, 1)
    norms = np.linalg.norm(flat, axis=1)  # (P, 3)
    scale = np.where(norms > 1e-3 * seen, WEIGHTS / np.maximum(norms, 1e-12), 0)
    joined = (flat * scale[:, None, :]).transpose(0, 2, 1).reshape(len(channels), -1)
    total = np.linalg.norm(joined, axis=1, keepdims=True)
    return (joined / np.maximum(total, 1e-12)).astype(np.float32)


def normalise_shared(channels: np.ndarray, visible: np.ndarray) -> np.ndarray:
    """``normalise_visible`` of many patches (patches, cells, 3) under one visibility (cells,): the
    plane's projection is built once for all (every enrolled face compared over one card's part)."""
    weights = visible.astype(np.float32)
    basis = PLANE_COLUMNS
    weighted = basis * weights[:, None]  # (cells, 3)
    normal = weighted.T @ basis + np.eye(3, dtype=np.float32) * 1e-6
    projector = np.linalg.solve(normal, weighted.T)  # (3, cells)
    coefficients = projector @ channels  # (patches, 3 basis, 3 channels)
    flat = (channels - basis @ coefficients) * weights[None, :, None]
    seen = max(float(weights.sum()), 1.0)
    norms = np.sqrt((flat * flat).sum(axis=1))  # (patches, 3)
    scale = np.where(norms > 1e-3 * seen, WEIGHTS / np.maximum(norms, 1e-12), 0)
    joined = (flat * scale[:, None, :]).transpose(0, 2, 1).reshape(len(channels), -1)
    total = np.sqrt((joined * joined).sum(axis=1, keepdims=True))
    return (joined / np.maximum(total, 1e-12)).astype(np.float32)


FINE = (32, 44)
"""Cells of the fine patch that tells two alike cards apart (their titles, a symbol): twice as fine."""


def fine_from_cells(cells: np.ndarray, visible: np.ndarray | None = None) -> np.ndarray:
    """A fine descriptor from a (44, 32, 3) BGR patch of a face's inner area (or many: (n, 44, 32,
    3)): opponent channels, each centred and scaled to unit norm, joined and scaled to unit norm.
    With ``visible`` (the coarse patch's cells, 1 seen, 0 hidden), over the cells seen alone."""
    many = cells.reshape(-1, FINE[0] * FINE[1], 3).astype(np.float32) @ OPPONENT.T
    if visible is not None:
        fine_seen = fine_mask(visible)[None, :, None]
        many *= fine_seen
        many -= fine_seen * (many.sum(axis=1, keepdims=True) / max(float(fine_seen.sum()), 1.0))
    else:
        many -= many.mean(axis=1, keepdims=True)
    norms = np.sqrt((many * many).sum(axis=1, keepdims=True))
    scaled = np.where(norms > 1e-3, many / np.maximum(norms, 1e-12), 0) * WEIGHTS
    joined = scaled.transpose(0, 2, 1).reshape(len(many), -1)
    total = np.sqrt((joined * joined).sum(axis=1, keepdims=True))
    out = joined / np.maximum(total, 1e-12)
    return out[0] if cells.ndim == 3 else out


def fine_mask(visible: np.ndarray) -> np.ndarray:
    """The coarse patch's (cells,) visibility as the fine patch's (cells,): each coarse cell is
    two by two fine ones."""
    grid = (visible > 0.5).reshape(PATCH[1], PATCH[0]).astype(np.float32)
    return np.repeat(np.repeat(grid, FINE[1] // PATCH[1], axis=0), FINE[0] // PATCH[0], axis=1).ravel()


def fine_cells_from_face(face: np.ndarray) -> np.ndarray:
    """The (44, 32, 3) BGR cells of a clean face's inner area, from which its fine descriptor is made."""
    height, width = face.shape[:2]
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    low, span = -INNER / (1 - 2 * INNER), 1 / (1 - 2 * INNER)
    size = (FINE[0] * 4, FINE[1] * 4)
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    target = ((low + unit * span) * np.float32(size)).astype(np.float32)
    sampled = cv2.warpPerspective(
        face, cv2.getPerspectiveTransform(corners, target), size, flags=cv2.INTER_AREA
    )
    if sampled.ndim == 2:
        sampled = cv2.cvtColor(sampled, cv2.COLOR_GRAY2BGR)
    return cv2.resize(sampled, FINE, interpolation=cv2.INTER_AREA)


def fine_from_face(face: np.ndarray) -> np.ndarray:
    """The fine descriptor of a clean face (its inner area, the border left out)."""
    return fine_from_cells(fine_cells_from_face(face))


def _plane_columns() -> np.ndarray:
    width, height = PATCH
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    return np.stack([np.ones(width * height, np.float32), xs.ravel() / width, ys.ravel() / height], axis=1)


PLANE_COLUMNS = _plane_columns()
"""(cells, 3): 1, x and y of every cell: the brightness plane fitted and taken out of each channel."""


def turned_patch(channels: np.ndarray) -> np.ndarray:
    """Raw channels (..., cells, 3) of the face turned by 180°: its cells in reverse order."""
    return channels[..., ::-1, :]


def turned_cells(values: np.ndarray) -> np.ndarray:
    """Per-cell values (..., cells) of the face turned by 180° (a visibility mask)."""
    return values[..., ::-1]


def normalise_all(channels: np.ndarray) -> np.ndarray:
    """``normalise`` of many whole patches at once: (patches, cells, 3) → (patches, LENGTH)."""
    flat = channels - PLANE[None] @ (PLANE.T[None] @ channels)
    norms = np.sqrt(np.einsum("pck,pck->pk", flat, flat))
    scaled = np.where(norms > 1e-3 * CHANNEL, WEIGHTS / np.maximum(norms, 1e-12), 0)
    joined = (flat * scaled[:, None, :]).transpose(0, 2, 1).reshape(len(channels), -1)
    total = np.linalg.norm(joined, axis=1, keepdims=True)
    return (joined / np.maximum(total, 1e-12)).astype(np.float32)


def normalise(channels: np.ndarray) -> np.ndarray:
    """(pixels, 3) opponent channels → one descriptor: each channel without its brightness plane, at
    unit norm and weighted, the whole at unit norm. A flat channel (a grey image's colour, a blank
    card back) stays zeros and adds nothing."""
    flat = channels - PLANE @ (PLANE.T @ channels)
    norms = np.linalg.norm(flat, axis=0)
    scaled = np.where(norms > 1e-3 * CHANNEL, WEIGHTS / np.maximum(norms, 1e-12), 0) * flat
    joined = scaled.T.ravel()  # channel after channel
    total = float(np.linalg.norm(joined))
    return (joined / total if total > 0 else joined).astype(np.float32)


def upside_down(descriptor: np.ndarray) -> np.ndarray:
    """The descriptor of the same face turned by 180° (each channel is stored row by row)."""
    return descriptor.reshape(3, CHANNEL)[:, ::-1].ravel()
