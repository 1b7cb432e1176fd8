"""Photo or webcam frame of playing cards -> which cards are in the hand and on the table.

    from vision.scan import scan_image
    scan_image("photo.jpg")  # {"cards": [...], "hand": [...], "table": [...], "warnings": [...]}

Two small ONNX models run with onnxruntime: a detector of corner indices (rank + suit pip) and a
classifier of each corner patch. No torch at run time.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .assemble import MIN_CONF, PHOTO_MIN_CONF, PHOTO_MIN_SIDE, assign_cards, build_result
from .classify import PHOTO_REREAD_CONTEXT, Classifier
from .colour import (CAST_RATIO, as_grey, balanced, black_and_white, cast_ratio, coloured_paper, gains_agree,
                     light_gains, white_balanced)
from .crops import CONTEXT
from .detect import Detector
from .image_io import load_image


# A large photo whose corner indices come out small at the detector's input is searched again at
# a larger input: the photo holds the detail that the first pass scaled away. Measured on
# held-out renders at 2-4x the 640-px scene size (phone-like photos, 100 each): card recall
# 0.88-0.89 at 416 px, 0.91-0.92 at 640 px, the gain from indices under about 20 px at 416.
# The further pass looks only at the part of the photo where indices were found (with a margin of
# ZOOM_MARGIN index sizes), so cards that fill only part of the frame are seen at more pixels, and
# looks closer once more while the indices are still small there (see models/MODEL_CARD.md).
# Image pixels (long side) from which a closer look may be taken: a 640-px frame holds little more
# detail than the first pass sees, an image of 720 px and more does (held-out scenes rendered at
# 800 and 896 px, 150 each: recall 0.8769 / 0.8866 with looks from 960 px, 0.9129 / 0.9256 from
# 720, precision 0.993-0.997 -> 0.991-0.994; models/MODEL_CARD.md). Such images keep the frame bar.
ZOOM_MIN_SIDE = 720
ZOOM_BELOW = 26.0  # median index box side at a pass's input (network pixels) that asks for a closer look
ZOOM_IMGSZ = 640
ZOOM_MARGIN = 4.0  # index sizes kept around the indices found, for those the earlier pass missed
# Where the first pass sees the indices tiny (a hand far back in a large frame), it misses cards
# away from those it finds, so the first closer look keeps a wider margin around them; the second
# then closes in on what that one found. Held-out 1920-px scenes in a 3840-px frame (100 each,
# seeds 1200000 / 500000): recall 0.9607 / 0.9568 at a margin of 4, 0.9691 / 0.9745 at 12
# (precision 0.996-0.997 both), 0.9645 / 0.9696 at 20; 1920-px renders alone (seeds 700000) the same.
ZOOM_TINY = 12.0  # median index side at the first pass (network pixels) under which the margin is wider
ZOOM_TINY_MARGIN = 12.0
ZOOM_PASSES = 2  # closer looks at most
ZOOM_SHRINK = 0.8  # a further look only where the region is at most this part of the last one


# A hand photographed from the side shows its indices a quarter turned, which the models read far
# worse (held-out 640-px scenes turned a quarter: recall 0.69 against 0.80 upright). An upright
# index is taller than wide, a turned one wider than tall, so where the first pass's median index
# box is at least as wide as tall the image is read a quarter turned each way, and the read that
# reports more cards (then the surer one) is kept, its boxes turned back: which way stands the
# indices up is not known, and turned the wrong way they stand on their heads, which the detector
# finds less well (640-px scenes: about 3 points of recall fewer). Loose cards lying every which way
# can take the turn too, at the cost of two more reads. See models/MODEL_CARD.md, "Hands turned
# sideways".
SIDEWAYS = 1.0  # median width / height of the first pass's index boxes from which the image is turned
TURNS = (cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_90_CLOCKWISE)
GUESS_JUDGED_BY = 3  # indices whose paper may judge a light guessed before detection (first_pass)


def sideways(boxes: np.ndarray) -> bool:
    """The index boxes lie mostly on their sides: their median width / height is at least SIDEWAYS."""
    if len(boxes) == 0:
        return False
    return float(np.median((boxes[:, 2] - boxes[:, 0]) / np.maximum(boxes[:, 3] - boxes[:, 1], 1e-3))) >= SIDEWAYS


def boxes_before_turn(boxes: np.ndarray, turn: int, height: int, width: int) -> np.ndarray:
    """Boxes found in an image turned a quarter by ``turn`` (a cv2.ROTATE_90_* code), in the pixels
    of the image as it was (``height`` x ``width``). Turned counter-clockwise, the turned image's
    (x, y) is the original's (width - y, x); clockwise, (y, height - x).

    >>> b = np.float32([[10, 20, 30, 60]])
    >>> boxes_before_turn(b, cv2.ROTATE_90_COUNTERCLOCKWISE, 50, 100).tolist()
    [[40.0, 10.0, 80.0, 30.0]]
    >>> boxes_before_turn(b, cv2.ROTATE_90_CLOCKWISE, 50, 100).tolist()
    [[20.0, 20.0, 60.0, 40.0]]
    """
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    if turn == cv2.ROTATE_90_COUNTERCLOCKWISE:
        out = (width - y2, x1, width - y1, x2)
    elif turn == cv2.ROTATE_90_CLOCKWISE:
        out = (y1, height - x2, y2, height - x1)
    else:
        raise ValueError(f"not a quarter turn: {turn}")
    return np.stack(out, axis=1).astype(np.float32)


@dataclass(frozen=True)
class Region:
    """A rectangle of image pixels: x0, y0 inclusive, x1, y1 exclusive."""
    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def side(self) -> int:
        return max(self.x1 - self.x0, self.y1 - self.y0)

    def crop(self, img: np.ndarray) -> np.ndarray:
        return img[self.y0:self.y1, self.x0:self.x1]


def median_index_side(boxes: np.ndarray) -> float:
    return float(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])))


def indices_small(boxes: np.ndarray, net_side: int, region_side: int, below: float = ZOOM_BELOW) -> bool:
    """The boxes' median index, seen by a detector whose input's long side is ``net_side`` over a
    region ``region_side`` pixels long, is under ``below`` network pixels."""
    return median_index_side(boxes) * net_side / region_side < below


def region_around(boxes: np.ndarray, margin: float, width: int, height: int) -> Region:
    """The boxes' bounding rectangle grown by ``margin`` median index sides, within the image."""
    m = margin * median_index_side(boxes)
    return Region(int(max(0, boxes[:, 0].min() - m)), int(max(0, boxes[:, 1].min() - m)),
                  int(min(width, np.ceil(boxes[:, 2].max() + m))), int(min(height, np.ceil(boxes[:, 3].max() + m))))


@dataclass
class CardDetector:
    detector: Detector = field(default_factory=Detector)
    classifier: Classifier = field(default_factory=Classifier)
    min_conf: float = MIN_CONF  # camera frames and small images
    photo_min_conf: float = PHOTO_MIN_CONF  # images whose long side is at least PHOTO_MIN_SIDE
    zoom: Detector | None = field(default_factory=lambda: Detector(imgsz=ZOOM_IMGSZ))
    balance: bool = True  # white balance from the card paper where the light is coloured (vision.colour)
    turn: bool = True  # read an image whose indices lie on their sides a quarter turned (SIDEWAYS)

    def needs_zoom(self, img: np.ndarray, boxes: np.ndarray) -> bool:
        """A second, larger pass pays off: a big image, and its indices small at the first pass."""
        if self.zoom is None or self.zoom.imgsz <= self.detector.imgsz:
            return False
        side = max(img.shape[:2])
        if side < ZOOM_MIN_SIDE:
            return False
        return len(boxes) == 0 or indices_small(boxes, self.detector.imgsz, side)

    def is_photo(self, img: np.ndarray) -> bool:
        return max(img.shape[:2]) >= PHOTO_MIN_SIDE

    def bar(self, img: np.ndarray) -> float:
        """The card confidence a card needs to be reported, for this image's size."""
        return self.photo_min_conf if self.is_photo(img) else self.min_conf

    def look_closer(self, img: np.ndarray, boxes: np.ndarray, scores: np.ndarray):
        """The first pass's (boxes, scores), or those of the larger detector run on the region of
        ``img`` around them, again on a smaller region while the indices stay small there."""
        if not self.needs_zoom(img, boxes):
            return boxes, scores
        h, w = img.shape[:2]
        region = Region(0, 0, w, h)
        for look in range(ZOOM_PASSES):
            if look and (len(boxes) == 0 or not indices_small(boxes, self.zoom.imgsz, region.side)):
                break
            if len(boxes):
                tiny = look == 0 and indices_small(boxes, self.detector.imgsz, region.side, ZOOM_TINY)
                closer = region_around(boxes, ZOOM_TINY_MARGIN if tiny else ZOOM_MARGIN, w, h)
            else:
                closer = region
            if look and closer.side > ZOOM_SHRINK * region.side:
                break  # the indices fill the region already: a further look sees nothing larger
            region = closer
            found, scores = self.zoom(region.crop(img))
            boxes = found + np.float32([region.x0, region.y0, region.x0, region.y0])
        return boxes, scores

    def first_pass(self, img: np.ndarray):
        """-> the image to read (balanced by the card paper under a coloured light) and the
        detector's first pass over it.

        Where the light guessed from the brightest pixels is coloured, the first pass reads the
        image balanced by that guess, and the paper around the indices it finds decides: the
        guess stands where the paper agrees with it (one pass, not two), the image as it is is
        read where the paper is white after all, and the paper's own balance otherwise. Where
        that pass finds fewer than GUESS_JUDGED_BY indices (a bright coloured wall taken for the
        light can hide what little there was), all goes as without the guess."""
        if not self.balance:
            return img, self.detector(img)
        guess = light_gains(img)
        if cast_ratio(guess) >= CAST_RATIO:
            ahead = balanced(img, guess)
            first = self.detector(ahead)
            if len(first[0]) >= GUESS_JUDGED_BY:
                paper = coloured_paper(img, first[0])
                if paper is None:  # white after all
                    return img, self.detector(img)
                if gains_agree(guess, paper):
                    return ahead, first
                white = balanced(img, paper)
                return white, self.detector(white)
        first = self.detector(img)
        if (white := white_balanced(img, first[0])) is not None:
            return white, self.detector(white)
        return img, first

    def corners(self, img: np.ndarray):
        """-> boxes, detection scores, rank probabilities, suit probabilities."""
        return self.corners_and_colour(img)[0]

    def corners_and_colour(self, img: np.ndarray):
        """-> (the corners as :meth:`corners` gives them, whether ``img`` is black and white)."""
        mono = black_and_white(img)
        if mono:  # grey, or toned (sepia): read as its grey, never balanced as if under a coloured light
            img = as_grey(img)
        img, first = self.first_pass(img)
        if self.turn and sideways(first[0]):
            return self.read_turned(img, mono), mono
        return self.read(img, first, mono), mono

    def read_turned(self, img: np.ndarray, mono: bool = False):
        """The corners of ``img`` read a quarter turned each way: the read that reports more cards
        at this image's bar (then the surer one), its boxes in ``img``'s pixels."""
        best = None
        for turn in TURNS:
            turned = cv2.rotate(img, turn)
            boxes, *rest = self.read(turned, self.detector(turned), mono)
            cards = assign_cards(boxes, *rest, min_conf=self.bar(img))
            key = (len(cards), sum(c.confidence for c in cards))
            if best is None or key > best[0]:
                best = key, (boxes_before_turn(boxes, turn, *img.shape[:2]), *rest)
        return best[1]

    def read(self, img: np.ndarray, first: tuple[np.ndarray, np.ndarray], mono: bool = False):
        """The corners of ``img`` from its first pass's (boxes, scores): closer looks, then the
        classifiers (``mono``: ``img`` is black and white, its suits read by shape alone)."""
        boxes, scores = self.look_closer(img, *first)
        rank_p, suit_p = self.classifier(img, boxes, PHOTO_REREAD_CONTEXT if self.is_photo(img) else CONTEXT,
                                         black_and_white=mono)
        return boxes, scores, rank_p, suit_p

    def scan(self, img: np.ndarray) -> dict:
        corners, mono = self.corners_and_colour(img)
        return build_result(*corners, min_conf=self.bar(img), black_and_white=mono)


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
