"""Photo or webcam frame of playing cards -> which cards are in the hand and on the table.

    from vision.scan import scan_image
    scan_image("photo.jpg")  # {"cards": [...], "hand": [...], "table": [...], "warnings": [...]}

Two small ONNX models run with onnxruntime: a detector of corner indices (rank + suit pip) and a
classifier of each corner patch. No torch at run time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .assemble import MIN_CONF, build_result
from .classify import Classifier
from .detect import Detector
from .image_io import load_image


@dataclass
class CardDetector:
    detector: Detector = field(default_factory=Detector)
    classifier: Classifier = field(default_factory=Classifier)
    min_conf: float = MIN_CONF

    def corners(self, img: np.ndarray):
        """-> boxes, detection scores, rank probabilities, suit probabilities."""
        boxes, scores = self.detector(img)
        rank_p, suit_p = self.classifier(img, boxes)
        return boxes, scores, rank_p, suit_p

    def scan(self, img: np.ndarray) -> dict:
        return build_result(*self.corners(img), min_conf=self.min_conf)


_default: CardDetector | None = None


def default_detector() -> CardDetector:
    global _default
    if _default is None:
        _default = CardDetector()
    return _default


def scan_image(source, *, detector: CardDetector | None = None) -> dict:
    """source: a file path, image bytes or a BGR uint8 array. Raises vision.errors.ImageError."""
    img = load_image(source)
    return (detector or default_detector()).scan(img)
