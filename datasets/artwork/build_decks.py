"""Rasterise the card designs used for training into per-card PNGs.

Sources (installed on the build machine only; the runtime never needs them):
  * Debian package gnome-cards-data (/usr/share/aisleriot/cards/*.svgz, GPL-3+):
    13x5 grids, rows clubs, diamonds, hearts, spades, columns A, 2..10, J, Q, K.
  * Debian package kdegames-card-data-kf5 (/usr/share/carddecks/svg-*/*.svgz, GPL-2+ / GPL-3+):
    one sheet a deck, cards in a grid whose row (suit) and column (rank) order differs per deck.
  * npm svg-cards (LGPL-2.1): ready PNGs named like heart_king.png.
  * npm @letele/playing-cards (CC0-1.0): SVGs made by tools/letele_to_svg.mjs into web/.

usage: python datasets/artwork/build_decks.py [--width 200] [--out datasets/artwork/raster]
          [--svg-cards DIR] [--designs a,b,...]
Needs rsvg-convert (Debian librsvg2-bin) and opencv-python-headless.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
GNOME_DIR = Path("/usr/share/aisleriot/cards")
RANKS = "A23456789TJQK"
GNOME_SUIT_ROWS = "CDHS"
# gnome-cards-data decks with standard English indices (A 2-10 J Q K) in the corners
GNOME_DESIGNS = [
    "anglo", "anglo_modern", "anglo_poker", "atlasnye", "bellot", "dondorf", "neoclassical",
    "ornamental", "paris", "plastic", "simplistic", "tango", "tigullio",
]
KDE_DIR = Path("/usr/share/carddecks")
# kdegames-card-data-kf5 decks with standard indices (rank over suit pip, top-left, the card
# symmetric): design -> (sheet, suit of each grid row, rank of each grid column). The decks left
# out, and why, are listed in LICENSES.md.
KDE_DESIGNS = {
    "kde_standard": ("svg-standard/standard.svgz", "SHCD", "AKQJT98765432"),
    "jolly_royal": ("svg-jolly-royal/jolly-royal.svgz", "CHDS", "A23456789TJQK"),
    "penguins": ("svg-penguins/penguins.svgz", "CSHD", "AKQJT98765432"),
}
ALL_DESIGNS = GNOME_DESIGNS + ["svgcards", "letele"] + list(KDE_DESIGNS)


def _rsvg(svg: Path, width: int, out: Path) -> None:
    subprocess.run(["rsvg-convert", "-w", str(width), str(svg), "-o", str(out)], check=True)


def _trim(img: np.ndarray) -> np.ndarray:
    """Crop a BGRA card image to its opaque area."""
    alpha = img[:, :, 3]
    ys, xs = np.nonzero(alpha > 20)
    return img[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _save(img: np.ndarray, width: int, path: Path) -> None:
    img = _trim(img)
    h = round(img.shape[0] * width / img.shape[1])
    img = cv2.resize(img, (width, h), interpolation=cv2.INTER_AREA)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img, [cv2.IMWRITE_PNG_COMPRESSION, 9])


def build_gnome(name: str, width: int, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sheet_path = Path(tmp) / "sheet.png"
        _rsvg(GNOME_DIR / f"{name}.svgz", width * 13 * 2, sheet_path)
        sheet = cv2.imread(str(sheet_path), cv2.IMREAD_UNCHANGED)
    cw, ch = sheet.shape[1] / 13, sheet.shape[0] / 5
    for row, suit in enumerate(GNOME_SUIT_ROWS):
        for col, rank in enumerate(RANKS):
            cell = sheet[round(row * ch):round((row + 1) * ch), round(col * cw):round((col + 1) * cw)]
            _save(cell, width, out / name / f"{rank}{suit}.png")


def _grid_cells(alpha: np.ndarray, rows: int, cols: int) -> list[list[tuple[int, int, int, int]]]:
    """Boxes (x, y, w, h) of the cards of a sheet, by grid row and column: the separate opaque
    shapes of card size when the cards stand apart, else an even grid over the opaque area."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((alpha > 200).astype(np.uint8), connectivity=4)
    shapes = stats[1:]
    if len(shapes) >= rows * cols:
        typical = np.median(np.sort(shapes[:, 4])[-rows * cols:])
        cards = [tuple(int(v) for v in st[:4]) for st in shapes if abs(st[4] - typical) < 0.2 * typical]
        cards.sort(key=lambda b: b[1])
        grid, line = [], []
        for b in cards:  # a new row where a card starts below the middle of the row's first card
            if line and b[1] > line[0][1] + line[0][3] / 2:
                grid.append(sorted(line))
                line = []
            line.append(b)
        grid.append(sorted(line))
        if len(grid) >= rows and all(len(r) == cols for r in grid[:rows]):
            return grid[:rows]
    ys, xs = np.nonzero(alpha > 200)
    x0, y0, w, h = xs.min(), ys.min(), xs.max() + 1 - xs.min(), ys.max() + 1 - ys.min()
    cw, ch = w / cols, h / rows
    return [[(round(x0 + c * cw), round(y0 + r * ch), round(cw), round(ch)) for c in range(cols)]
            for r in range(rows)]


def build_kde(name: str, width: int, out: Path) -> None:
    sheet_file, suits, ranks = KDE_DESIGNS[name]
    with tempfile.TemporaryDirectory() as tmp:
        sheet_path = Path(tmp) / "sheet.png"
        _rsvg(KDE_DIR / sheet_file, width * len(ranks) * 2, sheet_path)
        sheet = cv2.imread(str(sheet_path), cv2.IMREAD_UNCHANGED)
    cells = _grid_cells(sheet[:, :, 3], len(suits), len(ranks))
    for suit, line in zip(suits, cells):
        for rank, (x, y, w, h) in zip(ranks, line):
            _save(sheet[y:y + h, x:x + w], width, out / name / f"{rank}{suit}.png")


def build_svgcards(src: Path, width: int, out: Path) -> None:
    suits = {"club": "C", "diamond": "D", "heart": "H", "spade": "S"}
    ranks = {"1": "A", "10": "T", "jack": "J", "queen": "Q", "king": "K"}
    for sname, suit in suits.items():
        for rank in RANKS:
            key = next((k for k, v in ranks.items() if v == rank), rank)
            img = cv2.imread(str(src / f"{sname}_{key}.png"), cv2.IMREAD_UNCHANGED)
            if img is None:
                raise SystemExit(f"missing {sname}_{key}.png in {src}")
            _save(img, width, out / "svgcards" / f"{rank}{suit}.png")


def build_letele(width: int, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for rank in RANKS:
            for suit in "CDHS":
                png = Path(tmp) / "c.png"
                _rsvg(HERE / "web" / f"{rank}{suit}.svg", width * 2, png)
                _save(cv2.imread(str(png), cv2.IMREAD_UNCHANGED), width, out / "letele" / f"{rank}{suit}.png")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--width", type=int, default=200)
    ap.add_argument("--out", type=Path, default=HERE / "raster")
    ap.add_argument("--svg-cards", type=Path, default=None,
                    help="png/1x folder of the npm package svg-cards (skipped if not given)")
    ap.add_argument("--designs", default=",".join(ALL_DESIGNS))
    args = ap.parse_args(argv)
    for name in args.designs.split(","):
        if name in GNOME_DESIGNS:
            build_gnome(name, args.width, args.out)
        elif name == "svgcards":
            if args.svg_cards is None:
                print("skipping svgcards (no --svg-cards)", file=sys.stderr)
                continue
            build_svgcards(args.svg_cards, args.width, args.out)
        elif name == "letele":
            build_letele(args.width, args.out)
        elif name in KDE_DESIGNS:
            build_kde(name, args.width, args.out)
        else:
            raise SystemExit(f"unknown design {name}")
        print(f"built {name}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
