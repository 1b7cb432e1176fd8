"""Glyph variants of the training designs: index shapes that real decks print and ours lack.

Continental decks (and the held-out ``neoclassical``) cross the stem of the 7; none of the
fifteen training designs does, and the classifiers read crossed 7s poorly (on 1,920-px renders
of the held-out designs, 7s were 15 of the 53 missed cards). :func:`crossed_seven` draws a bar
across the stem of a face's rank glyph in every corner index; the scene renderer shows a
training design's 7s crossed in half of its scenes (``CROSSED_SEVEN_SHARE``), never a held-out
design's.

Many decks sold in Poland print the jack and the queen as W (walet) and D (dama). The shipped
classifiers never saw those letters: on phone-size renders of procedural decks that print them,
they found 0 of 19 jacks and 5 of 27 queens (international letters on other procedural decks: 18
of 20, 21 of 26). :func:`polish_letter` redraws the rank of a training design's J or Q as W or D
in every corner index, in one of seven sans and serif typefaces drawn per scene
(``LETTER_FACES``), and the renderer shows a training design's jacks and queens so in a quarter
of its scenes (``POLISH_LETTER_SHARE``), never a held-out design's.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .artwork import FOUR_INDEX, Design, ink_mask

CROSSED_SEVEN_SHARE = 0.5
POLISH_LETTER_SHARE = 0.25
POLISH_LETTERS = {"J": "W", "Q": "D"}  # walet, dama
# The typefaces a lettered face draws its W or D in, one drawn per scene (regular, bold): sans and
# serif faces of the machine's fonts. The families the procedural decks of
# ``scripts/letter_screen.py`` print their W and D in (Nimbus Roman, Linux Libertine, C059,
# Caladea, Liberation Serif, FreeSerif, Hershey) are left out, so that screen stays on unseen faces.
LETTER_FACES = (("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
                ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
                ("NimbusSans-Regular.otf", "NimbusSans-Bold.otf"),
                ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
                ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"),
                ("NotoSerif-Regular.ttf", "NotoSerif-Bold.ttf"),
                ("P052-Roman.otf", "P052-Bold.otf"))


def _glyph_parts(region: np.ndarray):
    """The ink of an upright index's shapes: (labels, stats, the glyph-sized parts), not the
    card's border line, nor specks."""
    ink = ink_mask(region)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    parts = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 4
             and stats[i, cv2.CC_STAT_HEIGHT] >= 0.2 * region.shape[0]
             and stats[i, cv2.CC_STAT_WIDTH] < 0.9 * region.shape[1]]
    return labels, stats, parts


def _cross_upright(region: np.ndarray) -> None:
    """Draw, in place, a bar across the stem of the rank glyph at the top of an upright index."""
    labels, stats, parts = _glyph_parts(region)
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


def _in_each_index(design: Design, code: str, redraw) -> np.ndarray:
    """A copy of the face of ``code`` with ``redraw(upright crop)`` applied, in place, to every
    corner index of the design (those printed upside down turned upright for it)."""
    face = design.faces[code].copy()
    h, w = face.shape[:2]
    x1, y1, x2, y2 = design.index_box
    boxes = [(x1, y1, x2, y2, False), (w - x2, h - y2, w - x1, h - y1, True)]  # the second turned
    if design.name in FOUR_INDEX:  # the top-right index, and the bottom-left one turned
        boxes += [(w - x2, y1, w - x1, y2, False), (x1, h - y2, x2, h - y1, True)]
    for bx1, by1, bx2, by2, turned in boxes:
        crop = np.ascontiguousarray(face[by1:by2, bx1:bx2][::-1, ::-1] if turned
                                    else face[by1:by2, bx1:bx2])
        redraw(crop)
        face[by1:by2, bx1:bx2] = crop[::-1, ::-1] if turned else crop
    return face


def _crossed(design: Design, code: str) -> np.ndarray:
    return _in_each_index(design, code, _cross_upright)


def _letter_upright(region: np.ndarray, letter: str, face: int = 0) -> None:
    """Replace, in place, the rank glyph at the top of an upright index by ``letter``, in its ink
    colour and height, on the paper's colour, in the typeface ``LETTER_FACES[face]`` (of those
    the machine has; OpenCV's own where it has none)."""
    from .procedural import _fit, _text_mask, font_files

    labels, stats, parts = _glyph_parts(region)
    # the index stands at the box's left; shapes further right are the court picture's
    parts = [i for i in parts if stats[i, cv2.CC_STAT_LEFT] < 0.5 * region.shape[1]]
    if not parts:
        return
    top = min(parts, key=lambda i: stats[i, cv2.CC_STAT_TOP])
    ty, th = stats[top, cv2.CC_STAT_TOP], stats[top, cv2.CC_STAT_HEIGHT]
    # the rank's shapes: those level with its top shape (a Q's tail), not the pip under it
    rank = [i for i in parts if stats[i, cv2.CC_STAT_TOP] < ty + 0.5 * th]
    x = min(stats[i, cv2.CC_STAT_LEFT] for i in rank)
    y = min(stats[i, cv2.CC_STAT_TOP] for i in rank)
    x2 = max(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH] for i in rank)
    y2 = max(stats[i, cv2.CC_STAT_TOP] + stats[i, cv2.CC_STAT_HEIGHT] for i in rank)
    pip_below = any(stats[i, cv2.CC_STAT_TOP] >= y2 - 0.2 * (y2 - y) for i in parts if i not in rank)
    if y2 - y < 6 or not pip_below:
        return  # no rank found over a pip (a glyph joined to a frame line): the face stays as it is
    glyph = np.isin(labels, rank)
    ink = np.median(region[glyph][:, :3], axis=0)
    paper = np.median(region[~ink_mask(region)][:, :3], axis=0)
    # erase the old rank (a pixel's margin for its anti-aliased edge), then draw the letter at
    # its height, as wide as the face draws it (at least the old glyph's width, within the box)
    region[max(0, y - 1):y2 + 1, max(0, x - 1):x2 + 1, :3] = paper
    # a typeface of about the old glyph's weight: a stroke's width is about twice its ink's
    # area over its outline's length; bold from about a ninth of the glyph's height
    contours, _ = cv2.findContours(glyph.astype(np.uint8), cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    heavy = 2 * glyph.sum() / max(outline, 1.0) > (y2 - y) / 9
    files = {Path(f).name: f for f in font_files()}
    faces = [files[pair[int(heavy)]] for pair in LETTER_FACES if pair[int(heavy)] in files]
    mask = _text_mask(letter, faces[face % len(faces)] if faces else cv2.FONT_HERSHEY_DUPLEX,
                      0 if faces else int(heavy) * 2)
    h = y2 - y
    w = max(x2 - x, int(round(mask.shape[1] * h / mask.shape[0] * 0.85)))
    w = min(w, region.shape[1] - 1)
    left = int(np.clip((x + x2 - w) // 2, 0, region.shape[1] - w))
    m = _fit(mask, w, h).astype(np.float32)[:, :, None] / 255.0
    area = region[y:y2, left:left + w, :3].astype(np.float32)
    region[y:y2, left:left + w, :3] = np.round(area * (1 - m) + ink * m).astype(region.dtype)


_LETTERED: dict = {}


def polish_letter(design: Design, code: str, face: int = 0) -> np.ndarray:
    """The face of ``code`` (a J or a Q) of ``design`` with every corner index's rank drawn as
    the Polish letter (W, D) instead, in the typeface ``LETTER_FACES[face]``."""
    key = (design.name, code, face)
    if key not in _LETTERED:
        letter = POLISH_LETTERS[code[0]]
        _LETTERED[key] = _in_each_index(design, code, lambda crop: _letter_upright(crop, letter, face))
    return _LETTERED[key]
