"""Corner-patch classifier (ONNX): rank and suit probabilities for each detected corner."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import runtime
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


# Corners whose best card reads with a probability in this band are read again by the second
# ensemble (about a fifth of them in 640-px scenes, an eighth in photos): outside it, four
# classifiers rarely change the answer, and running them on every corner would cost the frame rate.
REREAD_BAND = (0.3, 0.75)


@dataclass
class Classifier:
    """Reads corner patches with an ensemble of classifiers (probabilities averaged)."""
    model_paths: tuple = field(default_factory=_default_models)
    reread_paths: tuple = field(default_factory=_default_rereaders)
    contexts: tuple = (CONTEXT,)  # patch framings averaged (test-time augmentation)

    def __call__(self, img: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """-> (N x 14 rank probabilities, last = not an index; N x 4 suit probabilities)."""
        if len(boxes) == 0:
            return np.zeros((0, len(RANK_CLASSES)), np.float32), np.zeros((0, len(SUIT_CLASSES)), np.float32)
        sessions = [runtime.session(p) for p in self.model_paths]
        n = len(boxes)
        side = sessions[0].get_inputs()[0].shape[-1]  # the patch side the models were exported with
        size = side if isinstance(side, int) else PATCH
        x = to_tensor([crop_patch(img, b, size=size, context=c) for c in self.contexts for b in boxes])
        rank_p, suit_p = self._read(sessions, x)
        if self.reread_paths:
            best = (rank_p[:, :-1, None] * suit_p[:, None, :]).reshape(n, -1).max(1)
            unsure = np.flatnonzero((best >= REREAD_BAND[0]) & (best < REREAD_BAND[1]))
            if len(unsure):
                xs = x.reshape(len(self.contexts), n, *x.shape[1:])[:, unsure].reshape(-1, *x.shape[1:])
                more = [runtime.session(p) for p in self.reread_paths]
                r_more, s_more = self._read(more, xs)
                w = len(sessions) / (len(sessions) + len(more))  # every classifier weighs the same
                rank_p[unsure] = w * rank_p[unsure] + (1 - w) * r_more
                suit_p[unsure] = w * suit_p[unsure] + (1 - w) * s_more
        return rank_p, suit_p

    def _read(self, sessions: list, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Rank and suit probabilities of the patches ``x`` (every framing of each corner, framing
        by framing), averaged over the framings and the classifiers."""
        n = len(x) // len(self.contexts)
        rank_p = np.zeros((n, len(RANK_CLASSES)), np.float32)
        suit_p = np.zeros((n, len(SUIT_CLASSES)), np.float32)
        k = len(self.contexts) * len(sessions)
        for sess in sessions:
            rank, suit = sess.run(None, {sess.get_inputs()[0].name: x})
            rank_p += _softmax(rank).reshape(len(self.contexts), n, -1).sum(0) / k
            suit_p += _softmax(suit).reshape(len(self.contexts), n, -1).sum(0) / k
        return rank_p, suit_p
