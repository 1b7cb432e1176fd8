"""Glyph variants of the training designs: index shapes that real decks print and ours lack.

Continental decks (and the held-out ``neoclassical``) cross the stem of the 7; none of the
fifteen training designs does, and the classifiers read crossed 7s poorly (on 1,920-px renders
of the held-out designs, 7s were 15 of the 53 missed cards). :func:`crossed_seven` draws a bar
across the stem of a face's rank glyph in every corner index; the scene renderer shows a
training design's 7s crossed in half of its scenes (``CROSSED_SEVEN_SHARE``), never a held-out
design's.
"""
from __future__ import annotations

import cv2
import numpy as np

from .artwork import FOUR_INDEX, Design, ink_mask

CROSSED_SEVEN_SHARE = 0.5


def _cross_upright(region: np.ndarray) -> None:
    """Draw, in place, a bar across the stem of the rank glyph at the top of an upright index."""
    ink = ink_mask(region)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    # glyph-sized shapes only: not the card's border line, nor specks
    parts = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 4
             and stats[i, cv2.CC_STAT_HEIGHT] >= 0.2 * region.shape[0]
             and stats[i, cv2.CC_STAT_WIDTH] < 0.9 * region.shape[1]]
    if not parts:
        return
    glyph = min(parts, key=lambda i: stats[i, cv2.CC_STAT_TOP])  # the rank sits above the pip
    x, y, w, h = (int(v) for v in stats[glyph, :4])
    row = y + int(0.55 * h)
    xs = np.flatnonzero(labels[row] == glyph)
    if len(xs) == 0 or h < 6:
        return
    centre = int(xs.mean())
    half = max(2, int(0.28 * w))
    thick = max(1, int(round(0.09 * h)))
    colour = np.median(region[labels == glyph][:, :3], axis=0)
    cv2.line(region, (centre - half, row), (centre + half, row),
             (float(colour[0]), float(colour[1]), float(colour[2]), 255.0), thick, cv2.LINE_AA)


_CROSSED: dict = {}


def crossed_seven(design: Design, code: str) -> np.ndarray:
    """The face of ``code`` (a 7) of ``design`` with the stem of every corner index's 7 crossed."""
    key = (design.name, code)
    if key not in _CROSSED:
        _CROSSED[key] = _crossed(design, code)
    return _CROSSED[key]


def _cross_box(face: np.ndarray, x1: int, y1: int, x2: int, y2: int, turned: bool) -> None:
    """Cross the 7 of the index in face[y1:y2, x1:x2] (``turned``: printed upside down)."""
    crop = np.ascontiguousarray(face[y1:y2, x1:x2][::-1, ::-1] if turned else face[y1:y2, x1:x2])
    _cross_upright(crop)
    face[y1:y2, x1:x2] = crop[::-1, ::-1] if turned else crop


def _crossed(design: Design, code: str) -> np.ndarray:
    face = design.faces[code].copy()
    h, w = face.shape[:2]
    x1, y1, x2, y2 = design.index_box
    _cross_box(face, x1, y1, x2, y2, False)
    _cross_box(face, w - x2, h - y2, w - x1, h - y1, True)  # the index turned 180 degrees
    if design.name in FOUR_INDEX:  # the top-right index, and the bottom-left one turned
        _cross_box(face, w - x2, y1, w - x1, y2, False)
        _cross_box(face, x1, h - y2, x2, h - y1, True)
    return face
