"""Corner-patch classifier (ONNX): rank and suit probabilities for each detected corner."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import runtime
from .crops import CONTEXT, PATCH, crop_patch, to_tensor
from .labels import RANK_CLASSES, SUIT_CLASSES


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass
class Classifier:
    model_path: Path = runtime.MODELS_DIR / runtime.CLASSIFIER_FILE
    contexts: tuple = (CONTEXT,)  # patch framings averaged (test-time augmentation)

    def __call__(self, img: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """-> (N x 14 rank probabilities, last = not an index; N x 4 suit probabilities)."""
        if len(boxes) == 0:
            return np.zeros((0, len(RANK_CLASSES)), np.float32), np.zeros((0, len(SUIT_CLASSES)), np.float32)
        sess = runtime.session(self.model_path)
        n = len(boxes)
        side = sess.get_inputs()[0].shape[-1]  # the patch side the model was exported with
        size = side if isinstance(side, int) else PATCH
        x = to_tensor([crop_patch(img, b, size=size, context=c) for c in self.contexts for b in boxes])
        rank, suit = sess.run(None, {sess.get_inputs()[0].name: x})
        k = len(self.contexts)  # average over the patch framings
        rank_p = _softmax(rank).reshape(k, n, -1).mean(0)
        suit_p = _softmax(suit).reshape(k, n, -1).mean(0)
        return rank_p, suit_p
