"""The matcher's comparisons over a part of a face: ``best_seen`` (to rank many poses at once) and
``agreement`` (whether a neighbour's face is what shows where two cards overlap)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from vision import identify
from vision.matcher import CENTRE_FROM, Match, Matcher
from vision.references import ReferenceSet, portrait
from vision.synth import card_faces, card_names


def _matcher(count: int, seed: int = 4) -> Matcher:
    faces = card_faces(card_names(count, random.Random(seed)), random.Random(seed + 1))
    return Matcher(ReferenceSet.from_faces(faces))


def _parts(matcher: Matcher, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Noisy patches of enrolled faces, some turned, each with a random part of it hidden."""
    faces = matcher.references.patches
    chosen = rng.integers(0, len(faces), count)
    patches = faces[chosen] + rng.normal(0, 12, (count, *faces.shape[1:]))
    turned = rng.random(count) < 0.5
    patches[turned] = patches[turned][:, ::-1]
    visible = (rng.random((count, faces.shape[1])) > rng.uniform(0, 0.6, (count, 1))).astype(np.float32)
    return patches.astype(np.float32), visible


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_best_seen_is_the_best_score_seen_gives_when_no_mean_face_is_taken_out(seed):
    matcher = _matcher(CENTRE_FROM - 2)
    patches, visible = _parts(matcher, np.random.default_rng(seed), 12)
    ranked = matcher.best_seen(patches, visible)
    for k in range(len(patches)):
        assert ranked[k] == pytest.approx(matcher.seen(patches[k], visible[k]).score, abs=1e-4)


def test_best_seen_ranks_a_face_where_it_lies_above_the_same_part_of_another_place():
    """Over a deck large enough for its mean face to be taken out, the ranking still tells the pose
    where the card lies (its own cells) from poses that sample something else."""
    matcher = _matcher(40)
    rng = np.random.default_rng(7)
    patches, visible = _parts(matcher, rng, 20)
    elsewhere = np.roll(patches, 3, axis=0)[:, rng.permutation(patches.shape[1])]
    own = matcher.best_seen(patches, visible)
    other = matcher.best_seen(elsewhere, visible)
    assert (own > other + 0.2).all()
    exact = [matcher.seen(patch, seen).score for patch, seen in zip(patches, visible, strict=True)]
    assert np.corrcoef(own, exact)[0, 1] > 0.8


def test_agreement_tells_the_face_that_shows_from_a_face_that_does_not():
    matcher = _matcher(12)
    faces = matcher.references.thumbnails
    rng = np.random.default_rng(2)
    strip = np.zeros(identify.CHANNEL, np.float32)
    columns = identify.PATCH[0]
    strip[7 * columns : 15 * columns] = 1  # its middle third, the same cells turned or not
    for index in range(len(faces)):
        patch = identify.patch_from_face(portrait(faces[index])) + rng.normal(0, 8, (identify.CHANNEL, 3))
        own = matcher.agreement(patch.astype(np.float32), strip, Match(index, 1.0, 1.0, 0))
        turned = matcher.agreement(patch[::-1].astype(np.float32), strip, Match(index, 1.0, 1.0, 1))
        other = matcher.agreement(
            patch.astype(np.float32), strip, Match((index + 1) % len(faces), 1.0, 1.0, 0)
        )
        assert own > 0.8 and turned > 0.8
        assert other < own - 0.3
