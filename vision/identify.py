"""Card identity from a face's pixels: a small normalised grey patch, compared by one matrix product.

A face (a reference image, or a quad found in a frame) is warped to a fixed patch of its inner area
(the printed border is left out: every card of a colour shares it, so it would only make cards look
alike), area-averaged down to ``PATCH`` pixels, lightly blurred, freed of a brightness plane (a
lighting gradient across the card) and scaled to zero mean and unit norm. Two patches then compare
by their dot product, the normalised cross-correlation: 1 for the same face, near 0 for unrelated ones.

An upside-down card is the same patch turned by 180°, which is an index reversal, so each quad is
compared with every reference both ways at the cost of one product.
"""

from __future__ import annotations

import cv2
import numpy as np

PATCH = (32, 44)
"""Width, height of a descriptor patch; 1,408 numbers, a card of 63 × 88 mm at 0.5 mm per pixel."""
INNER = 0.08
"""The fraction of the face's width and height left out at each edge (the printed border)."""
OVERSAMPLE = 2
"""The warp samples this many times more pixels per side than the patch, then averages them down,
so a card far larger than the patch does not alias."""


def _plane_basis() -> np.ndarray:
    width, height = PATCH
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    columns = np.stack([np.ones(width * height), xs.ravel(), ys.ravel()], axis=1)
    basis, _ = np.linalg.qr(columns)
    return basis.astype(np.float32)


PLANE = _plane_basis()
"""Orthonormal basis of constant + linear brightness over the patch, removed from every descriptor."""


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
    the BGR or grey image ``image``."""
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32), TARGET)
    size = (PATCH[0] * OVERSAMPLE, PATCH[1] * OVERSAMPLE)
    sampled = cv2.warpPerspective(image, warp, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if sampled.ndim == 3:
        sampled = cv2.cvtColor(sampled, cv2.COLOR_BGR2GRAY)
    patch = cv2.resize(sampled, PATCH, interpolation=cv2.INTER_AREA)
    return normalise(patch)


def descriptor_from_face(face: np.ndarray) -> np.ndarray:
    """The descriptor of a clean face image (BGR or grey), as it would be seen lying straight."""
    height, width = face.shape[:2]
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    return descriptor_from_quad(face, corners)


def normalise(patch: np.ndarray) -> np.ndarray:
    """Blur a little (so a sharp reference meets a soft camera image halfway), remove the brightness
    plane, scale to unit norm. A flat patch (a blank rectangle) stays all zeros: it matches nothing."""
    smooth = cv2.GaussianBlur(patch.astype(np.float32), (3, 3), 0).ravel()
    flat = smooth - PLANE @ (PLANE.T @ smooth)
    norm = float(np.linalg.norm(flat))
    return flat / norm if norm > 1e-3 * flat.size else np.zeros_like(flat)


def upside_down(descriptor: np.ndarray) -> np.ndarray:
    """The descriptor of the same face turned by 180° (the patch is stored row by row)."""
    return descriptor[::-1]
