"""Photo or webcam frame of playing cards -> which cards are in the hand and on the table.

    from vision.scan import scan_image
    scan_image("photo.jpg")  # {"cards": [...], "hand": [...], "table": [...], "warnings": [...]}

Two small ONNX models run with onnxruntime: a detector of corner indices (rank + suit pip) and a
classifier of each corner patch. No torch at run time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .assemble import MIN_CONF, PHOTO_MIN_CONF, PHOTO_MIN_SIDE, build_result
from .classify import Classifier
from .detect import Detector
from .image_io import load_image


# A large photo whose corner indices come out small at the detector's input is searched again at
# a larger input: the photo holds the detail that the first pass scaled away. Measured on
# held-out renders at 2-4x the 640-px scene size (phone-like photos, 100 each): card recall
# 0.88-0.89 at 416 px, 0.91-0.92 at 640 px, the gain from indices under about 20 px at 416.
ZOOM_MIN_SIDE = PHOTO_MIN_SIDE  # image pixels (long side): below, 640 px holds little more detail than 416
ZOOM_BELOW = 20.0  # median index box side at the first pass's input, network pixels
ZOOM_IMGSZ = 640


@dataclass
class CardDetector:
    detector: Detector = field(default_factory=Detector)
    classifier: Classifier = field(default_factory=Classifier)
    min_conf: float = MIN_CONF  # camera frames and small images
    photo_min_conf: float = PHOTO_MIN_CONF  # images whose long side is at least PHOTO_MIN_SIDE
    zoom: Detector | None = field(default_factory=lambda: Detector(imgsz=ZOOM_IMGSZ))

    def needs_zoom(self, img: np.ndarray, boxes: np.ndarray) -> bool:
        """A second, larger pass pays off: a big image, and its indices small at the first pass."""
        if self.zoom is None or self.zoom.imgsz <= self.detector.imgsz:
            return False
        side = max(img.shape[:2])
        if side < ZOOM_MIN_SIDE:
            return False
        if len(boxes) == 0:
            return True
        box_side = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        return float(np.median(box_side)) * self.detector.imgsz / side < ZOOM_BELOW

    def bar(self, img: np.ndarray) -> float:
        """The card confidence a card needs to be reported, for this image's size."""
        return self.photo_min_conf if max(img.shape[:2]) >= PHOTO_MIN_SIDE else self.min_conf

    def corners(self, img: np.ndarray):
        """-> boxes, detection scores, rank probabilities, suit probabilities."""
        boxes, scores = self.detector(img)
        if self.needs_zoom(img, boxes):
            boxes, scores = self.zoom(img)
        rank_p, suit_p = self.classifier(img, boxes)
        return boxes, scores, rank_p, suit_p

    def scan(self, img: np.ndarray) -> dict:
        return build_result(*self.corners(img), min_conf=self.bar(img))


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
