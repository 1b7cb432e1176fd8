"""Card designs on disk: per-card RGBA rasters and the box of the corner index on each card.

A design is a folder of 52 PNGs named by card code (``AS.png``, ``TD.png``...), all the same size.
The corner index (rank + suit pip) box is measured from the ink in the top-left corner of the
low spot cards (A, 2, 3: their pips sit in the middle column, so the corner holds only the index)
and widened for the two-character "10". Cards are symmetric, so the second index is the same box
turned 180 degrees about the card centre.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

RANKS = "23456789TJQKA"
SUITS = "SHDC"
CARDS = [r + s for s in SUITS for r in RANKS]
REPO = Path(__file__).resolve().parents[2]
RASTER_DIR = REPO / "datasets" / "artwork" / "raster"
HELD_OUT = ("anglo_poker", "neoclassical", "tigullio")
PROCEDURAL_PREFIX = "proc_"  # the names of procedurally drawn designs (vision.synth.procedural)
FOUR_INDEX = ("dondorf",)  # designs that also print the index in the other two corners
# The training designs of the first models (before the three kdegames decks were added): the
# recipe in models/MODEL_CARD.md trains on scenes of these first, then fine-tunes on all.
FIRST_DESIGNS = ("anglo", "anglo_modern", "atlasnye", "bellot", "dondorf", "letele", "ornamental",
                 "paris", "plastic", "simplistic", "svgcards", "tango")
# designs whose index (rank over a large pip) reaches below the top 30 % of the card: measured
# lower, or the label box cuts the pip in half (found 2026-11-30; earlier models were trained
# with the cut boxes)
TALL_INDEX = ("ornamental", "tango")


@dataclass(frozen=True)
class Design:
    name: str
    faces: dict  # card code -> BGRA uint8 image
    index_box: tuple  # (x1, y1, x2, y2) in card pixels, top-left index

    @property
    def size(self) -> tuple[int, int]:
        h, w = next(iter(self.faces.values())).shape[:2]
        return w, h

    def index_quads(self) -> np.ndarray:
        """The index boxes as Nx4x2 corner points (top-left index, bottom-right index, ...)."""
        w, h = self.size
        x1, y1, x2, y2 = self.index_box
        tl = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
        br = np.array([w, h], np.float32) - tl
        quads = [tl, br]
        if self.name in FOUR_INDEX:
            tr = tl.copy()
            tr[:, 0] = w - tl[:, 0]
            quads += [tr, np.array([w, h], np.float32) - tr]
        return np.stack(quads)


def ink_mask(patch: np.ndarray) -> np.ndarray:
    """The printed pixels of a BGRA patch of a card: far from the paper's colour, and opaque."""
    bgr = patch[:, :, :3].astype(np.int16)
    paper = np.median(bgr.reshape(-1, 3), axis=0)
    return (np.abs(bgr - paper).sum(axis=2) > 120) & (patch[:, :, 3] > 128)


def _ink_box(img: np.ndarray, region: tuple[float, float]) -> tuple[int, int, int, int] | None:
    h, w = img.shape[:2]
    rw, rh = int(w * region[0]), int(h * region[1])
    m = max(2, round(w * 0.03))  # skip the border line of the card
    ink = ink_mask(img[m:rh, m:rw])
    n, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), 8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= 4]
    if not keep:
        return None
    xs = [stats[i, 0] for i in keep] + [stats[i, 0] + stats[i, 2] for i in keep]
    ys = [stats[i, 1] for i in keep] + [stats[i, 1] + stats[i, 3] for i in keep]
    return min(xs) + m, min(ys) + m, max(xs) + m, max(ys) + m


def measure_index_box(faces: dict, tall: bool = False) -> tuple[int, int, int, int]:
    """The top-left index box, from the ink of the A, 2 and 3 (``tall``: an index whose suit pip
    reaches below the top 30 % of the card)."""
    boxes = []
    for code in [r + s for r in "A23" for s in SUITS]:
        b = _ink_box(faces[code], (0.22, 0.40 if tall else 0.30))
        if b is not None:
            boxes.append(b)
    arr = np.array(boxes, np.float32)
    x1, y1 = np.median(arr[:, 0]), np.median(arr[:, 1])
    x2, y2 = np.max(arr[:, 2]), np.percentile(arr[:, 3], 75)
    w = next(iter(faces.values())).shape[1]
    pad = 0.012 * w
    # "10" is wider than one character: grow to the right by a third of the index width
    x2 = x2 + 0.25 * (x2 - x1)
    return (int(max(0, x1 - pad)), int(max(0, y1 - pad)), int(x2 + pad), int(y2 + pad))


def load_design(name: str, root: str | None = None) -> Design:
    """A design by name: a folder of rasters, or ``proc_<seed>`` (vision.synth.procedural)."""
    if name.startswith(PROCEDURAL_PREFIX):
        return _procedural(name)
    return _raster_design(name, root)


@lru_cache(maxsize=8)  # a procedural design is drawn in under a second and holds about 10 MB
def _procedural(name: str) -> Design:
    from .procedural import procedural_design

    return procedural_design(name)


@lru_cache(maxsize=None)
def _raster_design(name: str, root: str | None = None) -> Design:
    folder = Path(root) if root else RASTER_DIR
    faces = {}
    for code in CARDS:
        img = cv2.imread(str(folder / name / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise FileNotFoundError(f"card image {folder / name / code}.png missing")
        if img.shape[2] == 3:
            img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
        faces[code] = img
    return Design(name, faces, measure_index_box(faces, tall=name in TALL_INDEX))


def available_designs(root: str | None = None) -> list[str]:
    folder = Path(root) if root else RASTER_DIR
    return sorted(p.name for p in folder.iterdir() if (p / "AS.png").exists()) if folder.exists() else []


def training_designs(root: str | None = None) -> list[str]:
    return [d for d in available_designs(root) if d not in HELD_OUT]
