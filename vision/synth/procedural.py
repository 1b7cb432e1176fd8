"""Procedural card designs: corner indices in many typefaces, pips of many shapes.

The fifteen training designs print their indices in a handful of typefaces (most a condensed
bold sans), so a classifier trained on them alone learns those glyphs more than the ranks: on the
three held-out designs it reads a patch right 0.88 of the time. Real decks differ more. A
procedural design draws every card from a seed: paper, corner radius and border; the rank in one
of the typefaces on this machine (``font_files``) or OpenCV's own Hershey faces, condensed or
widened, bold or thin; a suit pip of a drawn shape (hearts, spades and clubs from circles and a
tip or stem, diamonds straight or curved) or a typeface's suit sign; the index's size, place and
spacing; red and black shades; pips laid out on the number cards, a frame of coloured shapes on
the courts, one large pip on the aces. A quarter of the decks print the jack and the queen with the
Polish letters, W (walet) and D (dama), as many decks sold in Poland do (``polish_letters``).

Names are ``proc_<seed>`` (``procedural_name``); :func:`vision.synth.artwork.load_design` builds
them on demand, so a scene list can mix them with the real designs. A design depends on its
seed and on the typefaces found (``font_files``: fewer fonts, other designs); with ``fonts=()``
only the Hershey faces, which every OpenCV has.

>>> d = procedural_design("proc_3", fonts=())
>>> d.name, len(d.faces), d.faces["QS"].shape[2]
('proc_3', 52, 4)
"""
from __future__ import annotations

import math
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from .artwork import CARDS, PROCEDURAL_PREFIX, Design

WIDTH = 200  # like the rasters of the real designs
FONT_DIRS = ("/usr/share/fonts",)
# Latin text faces with digits and the letters J Q K A; symbol, emoji and other-script fonts left
# out, and slanted faces (card indices stand upright) and URW Bookman (its Q reads as a 9)
FONT_PATTERNS = ("DejaVuSans", "DejaVuSerif", "Liberation", "FreeSans", "FreeSerif", "FreeMono",
                 "NimbusSans", "NimbusRoman", "NimbusMono", "C059", "P052", "URWGothic",
                 "EBGaramond", "LinLibertine", "Caladea", "Carlito", "NotoSans-", "NotoSerif-",
                 "NotoSansDisplay-", "NotoSerifDisplay-")
SUIT_SIGNS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
# typefaces known to draw the four suit signs (filled)
SIGN_FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "FreeSans.ttf", "FreeSerif.ttf")
HERSHEY = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
           cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_PLAIN)
# The typefaces split in two, so that a model trained on decks of one part can be judged on decks
# of typefaces it never saw (scripts/typeface_screen.py): a training deck draws its rank in one of
# these fifteen families (file names), a screen deck in any other face of the machine; the Hershey
# faces, stroke fonts no printed deck uses, are a group of their own ("hershey")
TRAINING_FACES = frozenset((
    "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf",
    "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf", "DejaVuSerifCondensed.ttf", "DejaVuSerifCondensed-Bold.ttf",
    "FreeSans.ttf", "FreeSansBold.ttf", "FreeMono.ttf", "FreeMonoBold.ttf",
    "NimbusSans-Regular.otf", "NimbusSans-Bold.otf", "NimbusSansNarrow-Regular.otf", "NimbusSansNarrow-Bold.otf",
    "C059-Roman.otf", "C059-Bold.otf", "URWGothic-Book.otf", "URWGothic-Demi.otf",
    "EBGaramond12-Regular.otf", "EBGaramond12-Bold.otf", "Carlito-Regular.ttf", "Carlito-Bold.ttf",
    "NotoSans-Regular.ttf", "NotoSans-Bold.ttf", "NotoSerifDisplay-Regular.ttf", "NotoSerifDisplay-Bold.ttf",
    "LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"))
FACE_GROUPS = ("training", "screen", "hershey")
RANK_TEXT = {"T": "10"}
POLISH_RANK_TEXT = {"T": "10", "J": "W", "Q": "D"}  # walet, dama
POLISH_SHARE = 0.25
# standard pip places of the number cards, (column, row) in a 3 x 7 grid of the pip field
PIP_LAYOUT = {
    "2": [(1, 0), (1, 6)], "3": [(1, 0), (1, 3), (1, 6)],
    "4": [(0, 0), (2, 0), (0, 6), (2, 6)], "5": [(0, 0), (2, 0), (1, 3), (0, 6), (2, 6)],
    "6": [(0, 0), (2, 0), (0, 3), (2, 3), (0, 6), (2, 6)],
    "7": [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (0, 6), (2, 6)],
    "8": [(0, 0), (2, 0), (1, 1.5), (0, 3), (2, 3), (1, 4.5), (0, 6), (2, 6)],
    "9": [(0, 0), (2, 0), (0, 2), (2, 2), (1, 3), (0, 4), (2, 4), (0, 6), (2, 6)],
    "T": [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4), (1, 5), (0, 6), (2, 6)],
}


def procedural_name(seed: int) -> str:
    return f"{PROCEDURAL_PREFIX}{seed}"


def is_procedural(name: str) -> bool:
    return name.startswith(PROCEDURAL_PREFIX) and name[len(PROCEDURAL_PREFIX):].isdigit()


@lru_cache(maxsize=4)
def font_files(dirs: tuple[str, ...] = FONT_DIRS) -> tuple[str, ...]:
    """The text typefaces found under ``dirs`` (sorted, so a seed picks the same one on a machine
    with the same fonts)."""
    out = []
    for d in dirs:
        root = Path(d)
        if not root.is_dir():
            continue
        for p in root.rglob("*"):
            if p.suffix.lower() in (".ttf", ".otf") and p.name.startswith(FONT_PATTERNS) \
                    and not any(k in p.name for k in ("Italic", "Oblique")):
                out.append(str(p))
    return tuple(sorted(set(out)))


# ---------------------------------------------------------------- glyph masks (uint8, ink = 255)
def _crop(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask > 40)
    if len(xs) == 0:
        raise ValueError("empty glyph")
    return mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


@lru_cache(maxsize=64)
def _pil_font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


@lru_cache(maxsize=256)  # a design's 52 indices share 13 rank glyphs and one digit for the width
def _text_mask(text: str, font, bold: int = 0) -> np.ndarray:
    """The ink of ``text`` at about 160 px high, cropped; ``font`` a font file or a Hershey face.
    Cached: read it, do not write to it."""
    if isinstance(font, str):
        from PIL import Image, ImageDraw

        img = Image.new("L", (200 * len(text) + 100, 300), 0)
        ImageDraw.Draw(img).text((40, 40), text, fill=255, font=_pil_font(font, 180),
                                 stroke_width=bold, stroke_fill=255)
        return _crop(np.asarray(img))
    img = np.zeros((300, 160 * len(text) + 100), np.uint8)
    cv2.putText(img, text, (30, 230), font, 6.0 if font != cv2.FONT_HERSHEY_PLAIN else 12.0, 255,
                10 + 4 * bold, cv2.LINE_AA)
    return _crop(img)


def _pip_mask(suit: str, rng: np.random.Generator, style: dict) -> np.ndarray:
    """A suit pip drawn from circles and polygons (``style`` fixes the shape for the design)."""
    if style.get("sign_font"):
        return _text_mask(SUIT_SIGNS[suit], style["sign_font"])
    s = 400
    m = np.zeros((s, s), np.uint8)

    def pt(x, y):  # unit coordinates (-0.5..0.5, y down) to pixels, 4 bits of subpixel
        return (int(round((x + 0.5) * s * 16)), int(round((y + 0.5) * s * 16)))

    def circle(x, y, r):
        cv2.circle(m, pt(x, y), int(r * s * 16), 255, -1, cv2.LINE_AA, 4)

    def poly(points):
        cv2.fillPoly(m, [np.array([pt(x, y) for x, y in points], np.int32)], 255, cv2.LINE_AA, 4)

    if suit in "HS":
        r, spread, tip = style["lobe"], style["spread"], style["tip"]
        sign = 1 if suit == "H" else -1  # a spade is a heart upside down, and a stem
        cy = -0.12 * sign
        circle(-spread, cy, r)
        circle(spread, cy, r)
        a = math.radians(style["side"])
        poly([(-spread - r * math.cos(a), cy + sign * r * math.sin(a)), (0, cy + sign * tip),
              (spread + r * math.cos(a), cy + sign * r * math.sin(a)), (0, cy - sign * 0.05)])
        if suit == "S":
            poly(_stem(style, 0.08))
    elif suit == "C":
        r = style["leaf"]
        circle(0, -0.2, r)
        circle(-0.2, 0.05, r)
        circle(0.2, 0.05, r)
        circle(0, -0.02, r * 0.6)
        poly(_stem(style, 0.0))
    else:
        half_w, bulge = style["diamond_w"], style["bulge"]
        pts = []
        corners = [(0, -0.45), (half_w, 0), (0, 0.45), (-half_w, 0)]
        for i in range(4):
            (x0, y0), (x1, y1) = corners[i], corners[(i + 1) % 4]
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            for t in np.linspace(0, 1, 12, endpoint=False):
                k = 4 * t * (1 - t) * bulge  # concave (bulge < 0) or convex sides
                pts.append((x0 + (x1 - x0) * t - mx * k, y0 + (y1 - y0) * t - my * k))
        poly(pts)
    return _crop(m)


def _stem(style: dict, top: float) -> list[tuple[float, float]]:
    w0, w1 = style["stem_top"], style["stem_foot"]
    return [(-w0, top), (w0, top), (w1, 0.45), (-w1, 0.45)]


def _fit(mask: np.ndarray, w: int, h: int) -> np.ndarray:
    return cv2.resize(mask, (max(1, w), max(1, h)), interpolation=cv2.INTER_AREA)


def _stamp(face: np.ndarray, mask: np.ndarray, x: int, y: int, colour, turned: bool = False) -> None:
    """Ink ``mask`` onto ``face`` (BGRA) at (x, y) in ``colour``; ``turned``: upside down."""
    if turned:
        mask = mask[::-1, ::-1]
    h, w = mask.shape
    fh, fw = face.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(fw, x + w), min(fh, y + h)
    if x0 >= x1 or y0 >= y1:
        return
    a = mask[y0 - y:y1 - y, x0 - x:x1 - x, None].astype(np.float32) / 255.0
    region = face[y0:y1, x0:x1, :3].astype(np.float32)
    face[y0:y1, x0:x1, :3] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


# ---------------------------------------------------------------- one design
def face_group(seed: int, fonts: tuple[str, ...] | None = None) -> str:
    """Which part of the typefaces the deck ``proc_<seed>`` prints its ranks in: "training" (one of
    TRAINING_FACES), "screen" (another face of the machine) or "hershey" (an OpenCV stroke face)."""
    style = _style(np.random.default_rng([seed, 0x5EED]), font_files() if fonts is None else tuple(fonts))
    if not isinstance(style["font"], str):
        return "hershey"
    return "training" if Path(style["font"]).name in TRAINING_FACES else "screen"


def deck_seeds(count: int, group: str, start: int = 0, lettered: bool | None = None,
               fonts: tuple[str, ...] | None = None) -> list[int]:
    """The first ``count`` deck seeds from ``start`` up whose typeface is in ``group`` (FACE_GROUPS)
    and, unless ``lettered`` is None, that print W and D (True) or J and Q (False)."""
    if group not in FACE_GROUPS:
        raise ValueError(f"unknown typeface group {group!r}: one of {', '.join(FACE_GROUPS)}")
    out, seed = [], start
    while len(out) < count:
        if face_group(seed, fonts) == group and (lettered is None or polish_letters(seed) == lettered):
            out.append(seed)
        seed += 1
        if seed - start > 1000 * (count + 10):
            raise ValueError(f"no decks of the {group!r} typefaces on this machine")
    return out


def polish_letters(seed: int) -> bool:
    """Whether the deck ``proc_<seed>`` prints W and D for the jack and the queen (drawn apart
    from the rest of the style, so the other decks are what they were before the variant)."""
    return bool(np.random.default_rng([seed, 0x9017]).random() < POLISH_SHARE)


def _style(rng: np.random.Generator, fonts: tuple[str, ...]) -> dict:
    if fonts and rng.random() < 0.85:  # the machine's typefaces (and the Hershey faces among them)
        pool = list(fonts) + list(HERSHEY)
    else:
        pool = list(HERSHEY)
    font = pool[int(rng.integers(0, len(pool)))]
    sign_fonts = [f for f in fonts if Path(f).name in SIGN_FONTS]
    card_h = int(WIDTH * rng.uniform(1.33, 1.56))
    index_h = card_h * rng.uniform(0.19, 0.31)
    return {
        "font": font,
        "bold": int(rng.choice([0, 0, 0, 2, 4])) if isinstance(font, str) else int(rng.integers(0, 3)),
        "condense": rng.uniform(0.6, 1.15),  # width of the rank against the font's own
        "ten_squeeze": rng.uniform(0.7, 1.0),  # "10" narrower still
        "card_h": card_h,
        "rank_h": index_h * rng.uniform(0.5, 0.62),
        "pip_w": rng.uniform(0.75, 1.15),  # against the rank's cap width
        "gap": rng.uniform(0.03, 0.18),  # between rank and pip, against the index height
        "x": WIDTH * rng.uniform(0.02, 0.06),
        "y": card_h * rng.uniform(0.015, 0.05),
        "paper": tuple(int(v) for v in np.clip(255 - rng.uniform(0, 30, 3) * rng.random(), 200, 255)),
        "radius": int(WIDTH * rng.uniform(0.03, 0.09)),
        "border": rng.random() < 0.5,
        "border_colour": tuple(int(v) for v in rng.uniform(0, 160, 3)),
        "red": (int(rng.uniform(0, 60)), int(rng.uniform(0, 40)), int(rng.uniform(170, 240))),
        "black": tuple(int(v) for v in (rng.uniform(0, 60), rng.uniform(0, 45), rng.uniform(0, 45))),
        "sign_font": sign_fonts[int(rng.integers(0, len(sign_fonts)))] if sign_fonts and rng.random() < 0.3 else None,
        "lobe": rng.uniform(0.2, 0.27), "spread": rng.uniform(0.17, 0.23), "tip": rng.uniform(0.5, 0.6),
        "side": rng.uniform(20, 50), "leaf": rng.uniform(0.16, 0.22),
        "stem_top": rng.uniform(0.02, 0.06), "stem_foot": rng.uniform(0.1, 0.2),
        "diamond_w": rng.uniform(0.26, 0.38), "bulge": rng.uniform(-0.25, 0.1),
        "centre_pip": rng.uniform(0.13, 0.2),  # width of the centre pips against the card's
        "ace_pip": rng.uniform(0.3, 0.5),
        "court_colours": [tuple(int(v) for v in rng.uniform(0, 255, 3)) for _ in range(4)],
    }


def _index_marks(code: str, style: dict, pips: dict) -> tuple[np.ndarray, np.ndarray, int, int]:
    """The rank and pip ink of one index, sized: (rank mask, pip mask, pip x offset, pip y)."""
    rank = code[0]
    text = style.get("rank_text", RANK_TEXT).get(rank, rank)
    glyph = _text_mask(text, style["font"], style["bold"])
    one = _text_mask("8", style["font"], style["bold"])  # a digit's width sets the column
    rh = int(round(style["rank_h"]))
    unit_w = one.shape[1] * rh / one.shape[0] * style["condense"]
    rw = glyph.shape[1] * rh / glyph.shape[0] * style["condense"]
    if len(text) > 1:
        rw *= style["ten_squeeze"]
    rank_mask = _fit(glyph, int(round(rw)), rh)
    pip = pips[code[1]]
    pw = int(round(unit_w * style["pip_w"]))
    ph = int(round(pw * pip.shape[0] / pip.shape[1]))
    pip_mask = _fit(pip, pw, ph)
    pip_x = int(round((rank_mask.shape[1] - pw) / 2))
    pip_y = rh + int(round(style["gap"] * rh))
    return rank_mask, pip_mask, pip_x, pip_y


def _face(code: str, style: dict, rng: np.random.Generator, pips: dict) -> tuple[np.ndarray, tuple[int, int]]:
    """One card's face (BGRA) and the width and height of its index."""
    w, h = WIDTH, style["card_h"]
    face = np.zeros((h, w, 4), np.uint8)
    face[:, :, :3] = style["paper"]
    alpha = np.zeros((h, w), np.uint8)
    r = style["radius"]
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    face[:, :, 3] = alpha
    if style["border"]:
        inset = max(2, r // 3)
        cv2.rectangle(face, (inset, inset), (w - 1 - inset, h - 1 - inset),
                      (*style["border_colour"], 255), 1, cv2.LINE_AA)
    colour = style["red"] if code[1] in "HD" else style["black"]
    # the centre first, so that the indices are printed over anything that reaches them
    rank = code[0]
    pip = pips[code[1]]
    if rank in PIP_LAYOUT:
        pw = int(w * style["centre_pip"])
        ph = int(round(pw * pip.shape[0] / pip.shape[1]))
        m = _fit(pip, pw, ph)
        x0, x1 = w * 0.3, w * 0.7
        y0, y1 = h * 0.2, h * 0.8
        for col, row in PIP_LAYOUT[rank]:
            cx = x0 + (x1 - x0) * col / 2
            cy = y0 + (y1 - y0) * row / 6
            _stamp(face, m, int(cx - pw / 2), int(cy - ph / 2), colour, turned=row > 3)
    elif rank == "A":
        pw = int(w * style["ace_pip"])
        ph = int(round(pw * pip.shape[0] / pip.shape[1]))
        _stamp(face, _fit(pip, pw, ph), (w - pw) // 2, (h - ph) // 2, colour)
    else:  # a court: a frame of coloured shapes, a picture nobody needs to read
        fx0, fy0, fx1, fy1 = int(w * 0.22), int(h * 0.15), int(w * 0.78), int(h * 0.85)
        cv2.rectangle(face, (fx0, fy0), (fx1, fy1), (*style["border_colour"], 255), 2)
        picture = face[fy0 + 2:fy1 - 1, fx0 + 2:fx1 - 1]  # a view: the shapes stay in the frame
        pic_h, pic_w = picture.shape[:2]
        for k in range(int(rng.integers(6, 14))):
            c = style["court_colours"][k % 4]
            cx, cy = int(rng.uniform(0, pic_w)), int(rng.uniform(0, pic_h))
            axes = (int(rng.uniform(5, 30)), int(rng.uniform(5, 30)))
            cv2.ellipse(picture, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, (*c, 255), -1, cv2.LINE_AA)
        pw = int(w * 0.12)
        ph = int(round(pw * pip.shape[0] / pip.shape[1]))
        _stamp(face, _fit(pip, pw, ph), fx0 + 4, fy0 + 4, colour)
    # the indices: top left, and the same turned in the bottom right
    rank_mask, pip_mask, pip_x, pip_y = _index_marks(code, style, pips)
    x, y = int(style["x"]), int(style["y"])
    iw = max(rank_mask.shape[1], pip_x + pip_mask.shape[1])
    ih = pip_y + pip_mask.shape[0]
    layer = np.zeros((ih, iw), np.uint8)
    layer[:rank_mask.shape[0], :rank_mask.shape[1]] = np.maximum(layer[:rank_mask.shape[0], :rank_mask.shape[1]], rank_mask)
    px = max(0, pip_x)
    layer[pip_y:pip_y + pip_mask.shape[0], px:px + pip_mask.shape[1]] = np.maximum(
        layer[pip_y:pip_y + pip_mask.shape[0], px:px + pip_mask.shape[1]], pip_mask[:, :iw - px])
    clear = cv2.dilate(layer, np.ones((5, 5), np.uint8))  # paper under the index, as printed decks keep
    for xx, yy, turned in ((x, y, False), (w - x - iw, h - y - ih, True)):
        m = clear[::-1, ::-1] if turned else clear
        region = face[yy:yy + ih, xx:xx + iw, :3]
        a = (m[:region.shape[0], :region.shape[1], None] > 0)
        region[:] = np.where(a, np.array(style["paper"], np.uint8), region)
        _stamp(face, layer, xx, yy, colour, turned)
    return face, (iw, ih)


def procedural_design(name: str, fonts: tuple[str, ...] | None = None) -> Design:
    """The design ``proc_<seed>`` (see the module's docstring); ``fonts`` defaults to
    :func:`font_files`."""
    if not is_procedural(name):
        raise ValueError(f"not a procedural design name: {name!r}")
    seed = int(name[len(PROCEDURAL_PREFIX):])
    fonts = font_files() if fonts is None else tuple(fonts)
    rng = np.random.default_rng([seed, 0x5EED])
    style = _style(rng, fonts)
    style["rank_text"] = POLISH_RANK_TEXT if polish_letters(seed) else RANK_TEXT
    pips = {s: _pip_mask(s, rng, style) for s in "SHDC"}
    made = {code: _face(code, style, np.random.default_rng([seed, i]), pips) for i, code in enumerate(CARDS)}
    # the index box: where the indices were drawn (the widest, the tallest), with the margin
    # artwork.measure_index_box gives the real designs
    x, y = int(style["x"]), int(style["y"])
    pad = round(0.012 * WIDTH)
    iw = max(size[0] for _, size in made.values())
    ih = max(size[1] for _, size in made.values())
    box = (max(0, x - pad), max(0, y - pad), x + iw + pad, y + ih + pad)
    return Design(name, {code: face for code, (face, _) in made.items()}, box)
