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


@dataclass
class Classifier:
    """Reads corner patches with an ensemble of classifiers (probabilities averaged)."""
    model_paths: tuple = field(default_factory=_default_models)
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
        k = len(self.contexts) * len(sessions)
        rank_p = np.zeros((n, len(RANK_CLASSES)), np.float32)
        suit_p = np.zeros((n, len(SUIT_CLASSES)), np.float32)
        for sess in sessions:
            rank, suit = sess.run(None, {sess.get_inputs()[0].name: x})
            rank_p += _softmax(rank).reshape(len(self.contexts), n, -1).sum(0) / k
            suit_p += _softmax(suit).reshape(len(self.contexts), n, -1).sum(0) / k
        return rank_p, suit_p
