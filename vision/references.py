"""Enrolled card faces: the clean images and their descriptors, saved with the table's data.

``REFDIR/<card-id>.png`` (or ``.jpg``) holds one clean face per card, upright; a landscape image is
turned to portrait (the detector reads every card by its long side). The saved form is one ``.npz``
file with each face's id, a thumbnail and its descriptor, so the recognizer starts without decoding
images, and a set saved by an older descriptor is rebuilt from its thumbnails when loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import identify

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg")
THUMBNAIL_HEIGHT = 176
"""Saved faces are scaled to this height: ample for a 44-pixel-high descriptor, small on disk."""
FORMAT = (
    f"vision-refs-2/opponent/patch{identify.PATCH[0]}x{identify.PATCH[1]}/inner{identify.INNER}"
    f"/oversample{identify.OVERSAMPLE}/weights{','.join(f'{w:g}' for w in identify.WEIGHTS)}"
)
"""Stamp of the descriptor a saved set was built with; another stamp means rebuild on load."""

Progress = Callable[[int, int], None]
"""Called with (done, total) after each face, for a progress bar."""


@dataclass(frozen=True)
class ReferenceFace:
    """One card's clean face: its id and a BGR image, upright."""

    card: str
    image: np.ndarray

    def __repr__(self) -> str:
        return f"ReferenceFace(card={self.card!r}, image=<{self.image.shape[1]}x{self.image.shape[0]}>)"


class ReferenceSet:
    """The enrolled faces and their descriptors, in a fixed order (``cards[i]`` ↔ row ``i``)."""

    def __init__(
        self,
        cards: tuple[str, ...],
        thumbnails: tuple[np.ndarray, ...],
        descriptors: np.ndarray,
        patches: np.ndarray | None = None,
    ) -> None:
        if len(set(cards)) != len(cards):
            raise ValueError("a card id appears twice among the reference faces")
        self.cards = cards
        self.thumbnails = thumbnails
        self.descriptors = descriptors
        """(len(cards), descriptor length) float32, each row unit-norm."""
        if patches is None:
            patches = np.stack([identify.patch_from_face(portrait(image)) for image in thumbnails])
        self.patches = patches.astype(np.float32)
        """(len(cards), cells, 3) the raw opponent channels the descriptors were made of: a part of a
        face is compared through them (``vision.matcher``)."""

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        return f"<ReferenceSet of {len(self.cards)} faces>"

    @classmethod
    def from_faces(cls, faces: Iterable[ReferenceFace], progress: Progress | None = None) -> ReferenceSet:
        faces = list(faces)
        if not faces:
            raise ValueError("no reference faces to enrol")
        cards, thumbnails, rows, patches = [], [], [], []
        for done, face in enumerate(faces, start=1):
            image = portrait(face.image)
            thumbnails.append(thumbnail(image))
            patches.append(identify.patch_from_face(image))
            rows.append(identify.normalise(patches[-1]))
            cards.append(face.card)
            if progress is not None:
                progress(done, len(faces))
        return cls(tuple(cards), tuple(thumbnails), np.stack(rows).astype(np.float32), np.stack(patches))

    @classmethod
    def from_dir(cls, path: Path, progress: Progress | None = None) -> ReferenceSet:
        """Every ``<card-id>.png`` / ``.jpg`` in ``path``; a clear ValueError when there is none, one
        cannot be read, or two files name one card."""
        if not path.is_dir():
            raise ValueError(f"{path}: not a folder of card faces")
        files = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())
        if not files:
            raise ValueError(f"{path}: no card faces (expected <card-id>.png or .jpg files)")
        seen: dict[str, Path] = {}
        for file in files:
            if file.stem in seen:
                raise ValueError(
                    f"{path}: card {file.stem!r} has two faces ({seen[file.stem].name}, {file.name})"
                )
            seen[file.stem] = file

        def faces() -> Iterable[ReferenceFace]:
            for file in files:
                image = cv2.imread(str(file), cv2.IMREAD_COLOR)
                if image is None or image.size == 0:
                    raise ValueError(f"{file}: not a readable image")
                yield ReferenceFace(file.stem, image)

        return cls.from_faces(faces(), progress)

    def save(self, path: Path) -> None:
        """One compressed ``.npz`` (written beside and renamed, so a reader never sees half a file)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".partial.npz")
        arrays = {f"thumbnail_{index}": image for index, image in enumerate(self.thumbnails)}
        np.savez_compressed(
            partial,
            format=np.array(FORMAT),
            cards=np.array(self.cards),
            descriptors=self.descriptors,
            patches=self.patches,
            **arrays,
        )
        partial.replace(path)

    @classmethod
    def load(cls, path: Path) -> ReferenceSet:
        """A set saved by ``save``; ValueError for a missing or foreign file."""
        try:
            with np.load(path, allow_pickle=False) as data:
                cards = tuple(str(card) for card in data["cards"])
                thumbnails = tuple(data[f"thumbnail_{index}"] for index in range(len(cards)))
                stamp, descriptors = str(data["format"]), data["descriptors"]
                patches = data["patches"] if "patches" in data else None
        except (OSError, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a saved reference set ({error})") from None
        if stamp != FORMAT:  # built by another descriptor: the thumbnails still hold the faces
            return cls.from_faces(
                ReferenceFace(card, image) for card, image in zip(cards, thumbnails, strict=True)
            )
        return cls(cards, thumbnails, descriptors.astype(np.float32), patches)


def portrait(image: np.ndarray) -> np.ndarray:
    """The face standing on its short side (turned clockwise when it came landscape)."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if image.shape[1] > image.shape[0] else image


def thumbnail(image: np.ndarray) -> np.ndarray:
    height, width = image.shape[:2]
    if height <= THUMBNAIL_HEIGHT:
        return image.copy()
    size = (max(1, round(width * THUMBNAIL_HEIGHT / height)), THUMBNAIL_HEIGHT)
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
