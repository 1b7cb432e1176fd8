"""White balance from the card paper: undo a coloured light before the corners are read.

Under a warm lamp, or a cold window light the phone did not correct, card paper comes out orange
or blue, and the detector (trained on light within about 15 % of neutral per channel) misses
indices it finds in the same scene under white light. The card faces around the indices the
first detector pass finds are white paper, whatever the deck, so their colour is the light's:
the brightest part of the patches around those indices is taken as paper, and each channel is
scaled so that the paper comes out grey. Held-out 640-px scenes under a tungsten-like cast read
0.71-0.76 of the cards without it and 0.80-0.81 with it, as under white light
(models/MODEL_CARD.md, "Coloured light").

>>> import numpy as np
>>> img = np.full((60, 80, 3), (120, 200, 230), np.uint8)  # orange "paper" (BGR)
>>> img[20:30, 30:36] = (20, 30, 40)  # a dark index on it
>>> g = paper_gains(img, np.float32([[30, 20, 36, 30]]))
>>> [round(float(v), 2) for v in g]
[1.53, 0.92, 0.8]
>>> cast_ratio(g) > CAST_RATIO
True
>>> balanced(img, g)[0, 0].tolist()
[183, 183, 183]
"""
from __future__ import annotations

import cv2
import numpy as np

PAPER_PATCH = 16  # pixels a side sampled around each index to find the paper in
PAPER_CONTEXT = 1.6  # patch side over the index box's longer side: the index and the card face about it
PAPER_SHARE = 0.2  # the brightest share of those pixels taken as paper
# Balance a cast from this ratio of the largest channel gain to the smallest. The scenes' own
# light in training (each channel 0.85-1.15) reaches about 1.35, but balancing such a scene costs
# only time: on held-out scenes under white light the ratio is about 1.07 at the median and 9-13 %
# of 640-px scenes are balanced, with the same cards found (260 tuning scenes: the same; 200 of
# seeds 900000: 2 more, 3 wrong fewer; 200 of seeds 1100000: one wrong more); a bar of 1.35 let
# half the scenes under a green tube (1.44) through unbalanced.
CAST_RATIO = 1.25
MAX_GAIN = 3.0  # a channel is never lifted more than this (a deep cast is noise there)


def paper_pixels(img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """M x 3 pixels (uint8 BGR) of the card faces about the index ``boxes``: each box grown to
    PAPER_CONTEXT of its longer side, sampled on a grid of about PAPER_PATCH pixels a side."""
    h, w = img.shape[:2]
    out = []
    for x1, y1, x2, y2 in np.asarray(boxes, np.float32):
        half = PAPER_CONTEXT * max(x2 - x1, y2 - y1, 2.0) / 2
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        step = max(1, int(2 * half / PAPER_PATCH))
        part = img[max(0, int(cy - half)):min(h, int(cy + half) + 1):step,
                   max(0, int(cx - half)):min(w, int(cx + half) + 1):step]
        out.append(part.reshape(-1, 3))
    return np.concatenate(out)


def paper_gains(img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """BGR gains that turn the paper around the index ``boxes`` (N x 4, image pixels) grey at its
    own brightness."""
    pixels = paper_pixels(img, boxes)
    lum = pixels.sum(axis=1, dtype=np.int32)
    paper = pixels[lum >= np.quantile(lum, 1.0 - PAPER_SHARE)].mean(axis=0, dtype=np.float32)
    return np.clip(paper.mean() / np.maximum(paper, 1.0), 1.0 / MAX_GAIN, MAX_GAIN).astype(np.float32)


def cast_ratio(gains: np.ndarray) -> float:
    """How far from white the light is: the largest channel gain over the smallest."""
    return float(gains.max() / gains.min())


def balanced(img: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``img`` (BGR uint8) with each channel scaled by its gain, saturating at 255."""
    return cv2.multiply(img, (float(gains[0]), float(gains[1]), float(gains[2]), 0.0))


# The light guessed before anything is detected, so that an image under a coloured light takes one
# detector pass, not two (the first on the image as it is, the second balanced): the brightest few
# pixels of a coarse grid are card paper in most card scenes. The guess is only a head start: the
# paper around the indices found in the image balanced by it has the last word
# (vision.scan.CardDetector.first_pass).
LIGHT_GRID = 120  # about this many pixels sampled along the image's longer side
LIGHT_SHARE = 0.03  # the brightest share of them taken as white
LIGHT_AGREES = 0.1  # the guess stands where no channel's gain is off the paper's by more than this share


def light_gains(img: np.ndarray) -> np.ndarray:
    """BGR gains that turn the brightest LIGHT_SHARE of a coarse grid of ``img``'s pixels grey at
    their own brightness: the light's colour guessed without the indices.

    >>> img = np.full((60, 80, 3), (40, 90, 60), np.uint8)  # green cloth (BGR)
    >>> img[10:40, 20:50] = (120, 200, 230)  # orange "paper"
    >>> [round(float(v), 2) for v in light_gains(img)]
    [1.53, 0.92, 0.8]
    """
    step = max(1, max(img.shape[:2]) // LIGHT_GRID)
    pixels = img[::step, ::step].reshape(-1, 3)
    lum = pixels.sum(axis=1, dtype=np.int32)
    k = min(len(lum) - 1, int(len(lum) * (1.0 - LIGHT_SHARE)))
    white = pixels[lum >= np.partition(lum, k)[k]].mean(axis=0, dtype=np.float32)
    return np.clip(white.mean() / np.maximum(white, 1.0), 1.0 / MAX_GAIN, MAX_GAIN).astype(np.float32)


def gains_agree(guess: np.ndarray, paper: np.ndarray) -> bool:
    """The two balances differ by at most LIGHT_AGREES in every channel, overall brightness aside."""
    ratio = guess / paper
    return float(np.abs(ratio / ratio.mean() - 1.0).max()) <= LIGHT_AGREES


def coloured_paper(img: np.ndarray, boxes: np.ndarray) -> np.ndarray | None:
    """The gains of the paper around ``boxes`` (:func:`paper_gains`), or None where there are no
    boxes or the light is near enough to white as it is (under CAST_RATIO)."""
    if len(boxes) == 0:
        return None
    gains = paper_gains(img, boxes)
    return gains if cast_ratio(gains) >= CAST_RATIO else None


def white_balanced(img: np.ndarray, boxes: np.ndarray) -> np.ndarray | None:
    """``img`` balanced by the paper around ``boxes``, or None where there are no boxes or the
    light is near enough to white as it is."""
    gains = coloured_paper(img, boxes)
    return None if gains is None else balanced(img, gains)


# A black-and-white image (a phone's mono filter, a grey scanner copy) has no colour anywhere: the
# classifiers, which tell the suits apart by their colour as much as by their shape, then name
# many wrong (held-out 1920-px renders made grey: recall 0.57, precision 0.64), so the scan reads
# its suits with the black-and-white reader (vision.classify) and warns. A toned one (sepia, a
# duotone filter) has one colour for each brightness: as little to tell red ink from black by.
# Any colour photo has some pixels of strong colour (red pips, skin, wood, sensor noise), and
# pixels of one brightness in several colours (a red pip, black ink, the table).
GREY_CHROMA = 12  # the largest channel spread (0-255) that a grey image's pixels stay within
GREY_SHARE = 0.0005  # the share of pixels that may exceed it (JPEG artefacts)
GREY_GRID = 200  # at most about this many pixels judged along the image's longer side
TONE_CHROMA = 12  # a toned image's pixels stay within this (Cr, Cb) of their brightness's tone
TONE_CLIPPED = 250  # pixels with a channel this bright are not judged: clipping bends their tone


def as_grey(img: np.ndarray) -> np.ndarray:
    """A BGR uint8 image (or a stack of patches, N x P x P x 3) as a black-and-white photo shows
    it: each pixel's luma (OpenCV's) in all three channels. A grey image stays as it is."""
    flat = np.ascontiguousarray(img).reshape(-1, img.shape[-2], 3)
    return cv2.cvtColor(cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR).reshape(img.shape)


def black_and_white(img: np.ndarray) -> bool:
    """No colour in ``img`` (BGR uint8) but, at most, one tone for each brightness (sepia),
    judged on every fourth pixel of every fourth row, or a sparser grid of about GREY_GRID pixels
    along the longer side of a large image (every scan asks: a 12-megapixel photo in about a
    millisecond, not 34).

    >>> grey = np.full((40, 40, 3), 128, np.uint8)
    >>> black_and_white(grey)
    True
    >>> grey[8:12, 8:12] = (40, 40, 200)  # a red pip
    >>> black_and_white(grey)
    False
    >>> ramp = np.linspace(20, 240, 40, dtype=np.float32)[:, None, None] * np.ones((40, 40, 1), np.float32)
    >>> sepia = np.clip(ramp * np.float32([0.78, 1.0, 1.12]), 0, 255).astype(np.uint8)
    >>> black_and_white(sepia)
    True
    >>> sepia[8:12, 8:12] = (40, 40, 200)  # a red pip on it
    >>> black_and_white(sepia)
    False
    """
    step = max(4, max(img.shape[:2]) // GREY_GRID)
    sample = np.ascontiguousarray(img[::step, ::step])
    b, g, r = cv2.split(sample)
    # per-pixel channel spread in OpenCV: numpy's max and min over a 3-long last axis took 0.8 ms
    # of a 640-px frame's scan, this 0.1
    chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    if np.count_nonzero(chroma > GREY_CHROMA) <= GREY_SHARE * chroma.size:
        return True
    return one_tone(sample)


def one_tone(sample: np.ndarray) -> bool:
    """The chroma of every pixel of ``sample`` (BGR uint8) that is not clipped is its brightness
    times one tint, within TONE_CHROMA, but for GREY_SHARE of them: a grey or sepia photo, or one
    toned from black to any colour (Cr and Cb as OpenCV's YCrCb, about their neutral 128; the
    tint is the median ratio of chroma to brightness, so a few red pips do not bend it)."""
    # a colour photo is told on a ninth of the pixels first (its share off the tone is 0.1 % and
    # far more): the whole judgement cost 0.5 ms of a 640-px frame, 1.7 of a photo
    if sample.shape[0] * sample.shape[1] >= 9000:
        off, judged = _off_tone(np.ascontiguousarray(sample[::3, ::3]))
        if judged == 0 or off > 10 * GREY_SHARE * judged:
            return False
    off, judged = _off_tone(sample)
    return judged > 0 and off <= GREY_SHARE * judged


def _off_tone(sample: np.ndarray) -> tuple[int, int]:
    """-> (how many pixels of ``sample`` are off its tone, how many were judged)."""
    # planes, not an N x 3 array: numpy over a 3-long last axis cost 2 ms of a 640-px frame
    b, g, r = cv2.split(sample)
    unclipped = cv2.max(cv2.max(b, g), r).ravel() < TONE_CLIPPED
    planes = cv2.split(cv2.cvtColor(sample, cv2.COLOR_BGR2YCrCb))
    y, cr, cb = (p.ravel()[unclipped].astype(np.float32) for p in planes)
    lit = y > 32  # the tint from pixels bright enough to show it
    if len(y) < 100 or not lit.any():  # all but clipped or black: nothing to judge the tone by
        return 0, 0
    off = np.zeros(len(y), np.float32)
    for c in (cr - 128.0, cb - 128.0):
        tint = np.median(c[lit] / y[lit])
        off = np.maximum(off, np.abs(c - y * tint))
    return int(np.count_nonzero(off > TONE_CHROMA)), len(y)
