"""Corner-patch classifier (ONNX): rank and suit probabilities for each detected corner."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from . import runtime
from .assemble import card_probabilities
from .crops import CONTEXT, PATCH, crop_patch, to_tensor
from .labels import RANK_CLASSES, SUIT_CLASSES


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def _default_models() -> tuple:
    return tuple(runtime.MODELS_DIR / f for f in runtime.CLASSIFIER_FILES)


def _default_rereaders() -> tuple:
    return tuple(p for p in (runtime.MODELS_DIR / f for f in runtime.REREAD_FILES) if p.exists())


# The first classifier reads every corner; the second only those whose best card the first gives
# less than SURE: on the held-out renders (640-px scenes and photos, at the shipped bars) asking it
# everywhere changed one reported card in 700 scenes, and it is not asked on 60-75 % of a
# photo's corners.
SURE = 0.9
# Corners whose best card reads with a probability in this band are read again by the second
# ensemble (about a fifth of them in 640-px scenes, an eighth in photos): outside it, four
# classifiers rarely change the answer, and running them on every corner would cost the frame rate.
REREAD_BAND = (0.3, 0.75)
# In a photo the second ensemble reads the unsure corners from a tighter patch (its side / the
# box's side; CONTEXT is the usual framing): the index fills more of the patch, and a photo has the
# pixels for it. In 640-px scenes it gained nothing at equal precision (models/MODEL_CARD.md).
PHOTO_REREAD_CONTEXT = 1.0


def _default_grey_reader() -> Path | None:
    path = runtime.MODELS_DIR / runtime.GREY_FILE
    return path if path.exists() else None


def best_card(rank_p: np.ndarray, suit_p: np.ndarray) -> np.ndarray:
    """The probability of each corner's most likely card (a rank that is an index, times a suit)."""
    return card_probabilities(rank_p, suit_p).max(1)


@dataclass
class Classifier:
    """Reads corner patches with an ensemble of classifiers (probabilities averaged over the reads
    each corner got)."""
    model_paths: tuple = field(default_factory=_default_models)
    reread_paths: tuple = field(default_factory=_default_rereaders)
    grey_path: Path | None = field(default_factory=_default_grey_reader)
    sure: float = SURE

    def __call__(self, img: np.ndarray, boxes: np.ndarray, reread_context: float = CONTEXT,
                 black_and_white: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """-> (N x 14 rank probabilities, last = not an index; N x 4 suit probabilities).

        ``reread_context``: the framing at which the second ensemble reads the unsure corners.
        ``black_and_white``: ``img`` is grey (vision.colour.black_and_white; the scan reads a
        toned one as its grey, vision.colour.as_grey), so the suits are those of the black-and-white reader, which
        tells them apart by the pips' shapes alone (the ensemble, which knows them by their
        colour too, reads a red card as the black suit of its rank); the ranks stay the ensemble's.
        """
        rank_p, suit_p, x = self._read(img, boxes, reread_context)
        if black_and_white and self.grey_path is not None and len(boxes):
            # the ensemble's patches: the reader is a member fine-tuned, exported at the same side
            reads = _Reads(len(boxes))
            reads.add([runtime.session(self.grey_path)], x, np.arange(len(boxes)))
            suit_p = reads.probabilities()[1]
        return rank_p, suit_p

    @staticmethod
    def _side(sess) -> int:
        """The patch side a model was exported with."""
        side = sess.get_inputs()[0].shape[-1]
        return side if isinstance(side, int) else PATCH

    def _read(self, img: np.ndarray, boxes: np.ndarray, reread_context: float):
        """-> the ensemble's rank and suit probabilities, and the patches (NCHW) all its members read."""
        n = len(boxes)
        if n == 0:
            return np.zeros((0, len(RANK_CLASSES)), np.float32), np.zeros((0, len(SUIT_CLASSES)), np.float32), None
        first = [runtime.session(p) for p in self.model_paths]
        size = self._side(first[0])
        x = to_tensor([crop_patch(img, b, size=size) for b in boxes])
        reads = _Reads(n)
        reads.add(first[:1], x, np.arange(n))
        if len(first) > 1:
            maybe = np.flatnonzero(reads.best() < self.sure)
            reads.add(first[1:], x[maybe], maybe)
        more = [runtime.session(p) for p in self.reread_paths]
        if more:
            best = reads.best()
            unsure = np.flatnonzero((best >= REREAD_BAND[0]) & (best < REREAD_BAND[1]))
            if len(unsure):
                xs = x[unsure] if reread_context == CONTEXT else \
                    to_tensor([crop_patch(img, boxes[i], size=size, context=reread_context) for i in unsure])
                reads.add(more, xs, unsure)
        return *reads.probabilities(), x


class _Reads:
    """Sums of the rank and suit probabilities each corner was given, and how many reads gave them."""

    def __init__(self, n: int):
        self.rank = np.zeros((n, len(RANK_CLASSES)), np.float32)
        self.suit = np.zeros((n, len(SUIT_CLASSES)), np.float32)
        self.count = np.zeros(n, np.float32)

    def add(self, sessions: list, x: np.ndarray, which: np.ndarray) -> None:
        if len(which) == 0:
            return
        for sess in sessions:
            rank, suit = sess.run(None, {sess.get_inputs()[0].name: x})
            self.rank[which] += _softmax(rank)
            self.suit[which] += _softmax(suit)
            self.count[which] += 1

    def probabilities(self) -> tuple[np.ndarray, np.ndarray]:
        return self.rank / self.count[:, None], self.suit / self.count[:, None]

    def best(self) -> np.ndarray:
        return best_card(*self.probabilities())
