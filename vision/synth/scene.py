"""One synthetic photo of a Spades table: a fanned hand, cards on the table, damage.

``render_scene(seed, designs)`` is a pure function of its arguments: the same seed and designs
give the same pixels and labels. Labels are the *visible* corner indices: a corner counts when at
least ``MIN_VISIBLE`` of its index box (the part on the card) is seen in the final picture.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .artwork import CARDS, HELD_OUT, PROCEDURAL_PREFIX, Design, load_design
from .backgrounds import make_background
from .effects import damage
from .variants import (CROSSED_SEVEN_SHARE, LETTER_FACES, POLISH_LETTER_SHARE, POLISH_LETTERS,
                       crossed_seven, polish_letter)

MIN_VISIBLE = 0.6
SIZES = ((640, 640), (640, 480), (480, 640), (640, 360), (512, 512))
OCCLUDER = -2
FACE_DOWN = -3


@dataclass
class Corner:
    card: str
    zone: str  # "hand" or "table"
    quad: list  # 4 [x, y] points of the index box in image pixels
    box: list  # [x1, y1, x2, y2] clipped to the image
    visible: float

    def as_dict(self) -> dict:
        return {"card": self.card, "zone": self.zone, "box": self.box, "quad": self.quad,
                "visible": round(self.visible, 3)}


@dataclass
class Placement:
    code: str | None  # None for a face-down card
    zone: str
    matrix: np.ndarray  # 3x3 card pixels -> image pixels
    extra: dict = field(default_factory=dict)


def _similarity(cx, cy, angle_deg, scale, card_w, card_h) -> np.ndarray:
    """Card centre -> (cx, cy), rotated by angle, scaled."""
    a = np.deg2rad(angle_deg)
    c, s = np.cos(a) * scale, np.sin(a) * scale
    m = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]], np.float64)
    m[0, 2] = cx - (c * card_w / 2 - s * card_h / 2)
    m[1, 2] = cy - (s * card_w / 2 + c * card_h / 2)
    return m


def _project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.hstack([pts, np.ones((len(pts), 1))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def _hand(rng, codes, design: Design, w, h, card_w) -> list[Placement]:
    cw, ch = design.size
    scale = card_w / cw
    n = len(codes)
    arc = rng.random() < 0.75
    if arc:
        spread = rng.uniform(18, 140)
        radius = rng.uniform(0.4, 2.2) * ch * scale
        shift = rng.uniform(-0.02, 0.1) * card_w
    else:
        spread = rng.uniform(0, 10)
        radius = ch * scale
        shift = rng.uniform(0.14, 0.4) * card_w
    step = spread / max(1, n - 1)
    tilt = rng.normal(0, 18) if rng.random() < 0.85 else rng.uniform(-180, 180)
    px = rng.uniform(0.3, 0.7) * w
    py = rng.uniform(0.55, 1.0) * h if rng.random() < 0.8 else rng.uniform(0.3, 0.9) * h
    t = np.deg2rad(tilt)
    up = np.array([np.sin(t), -np.cos(t)])
    right = np.array([np.cos(t), np.sin(t)])
    centre = np.array([px, py]) - up * radius * 0.6
    out = []
    for i, code in enumerate(codes):
        k = i - (n - 1) / 2
        ang = tilt + k * step + rng.normal(0, 1.2)
        a = np.deg2rad(ang)
        direction = np.array([np.sin(a), -np.cos(a)])
        c = centre + direction * radius + right * k * shift + rng.normal(0, 0.01 * card_w, 2)
        out.append(Placement(code, "hand", _similarity(c[0], c[1], ang, scale, cw, ch)))
    return out


def _table(rng, codes, design: Design, w, h, card_w, hand_present) -> list[Placement]:
    cw, ch = design.size
    scale = card_w / cw
    out = []
    y_hi = 0.65 if hand_present else 1.0
    codes = list(codes)
    if codes and rng.random() < 0.55:  # a trick: up to four cards around a centre
        m = min(len(codes), int(rng.integers(1, 5)))
        cx, cy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.15, 0.5 if hand_present else 0.75) * h
        base = rng.uniform(0, 360)
        for j in range(m):
            seat = base + 90 * j
            r = ch * scale * rng.uniform(0.15, 0.55)
            a = np.deg2rad(seat)
            x, y = cx + r * np.sin(a), cy - r * np.cos(a)
            out.append(Placement(codes.pop(0), "table",
                                 _similarity(x, y, seat + rng.normal(0, 20), scale, cw, ch)))
    for code in codes:
        x, y = rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, y_hi) * h
        out.append(Placement(code, "table", _similarity(x, y, rng.uniform(0, 360), scale, cw, ch)))
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.3 else 0):
        x, y = rng.uniform(0.05, 0.95) * w, rng.uniform(0.05, y_hi) * h
        out.append(Placement(None, "table", _similarity(x, y, rng.uniform(0, 360), scale, cw, ch)))
    return out


def _card_back(rng, design: Design) -> np.ndarray:
    w, h = design.size
    face = design.faces["AS"].copy()
    col = np.array([rng.integers(0, 256) for _ in range(3)], np.uint8)
    m = int(w * 0.07)
    inner = face[m:h - m, m:w - m, :3]
    inner[:] = col
    yy, xx = np.mgrid[0:inner.shape[0], 0:inner.shape[1]]
    period = int(rng.integers(4, 12))
    pat = ((xx + yy) // period + (xx - yy) // period) % 2 == 0
    inner[pat] = (255 - col) // 2 + col // 3
    return face


def _warp(img: np.ndarray, hmat: np.ndarray):
    """Warp a BGRA image into its own bounding box in image coordinates: (roi, x0, y0)."""
    ih, iw = img.shape[:2]
    corners = _project(hmat, np.array([[0, 0], [iw, 0], [iw, ih], [0, ih]], np.float64))
    x0, y0 = np.floor(corners.min(0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 1
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    roi = cv2.warpPerspective(img, shift @ hmat, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    return roi, int(x0), int(y0)


def _window(shape, x0, y0, rw, rh):
    """Intersection of a roi at (x0, y0) with an image: (image slices, roi slices) or None."""
    h, w = shape[:2]
    ax0, ay0, ax1, ay1 = max(0, x0), max(0, y0), min(w, x0 + rw), min(h, y0 + rh)
    if ax0 >= ax1 or ay0 >= ay1:
        return None
    return ((slice(ay0, ay1), slice(ax0, ax1)),
            (slice(ay0 - y0, ay1 - y0), slice(ax0 - x0, ax1 - x0)))


def _occluder(rng, canvas, idmap, hand: list[Placement], design: Design):
    """A thumb or finger over the lower part of the hand."""
    cw, ch = design.size
    pick = hand[int(rng.integers(0, len(hand)))]
    p = _project(pick.matrix, np.array([[cw * rng.uniform(0.1, 0.9), ch * rng.uniform(0.55, 1.0)]]))[0]
    size = np.linalg.norm(pick.matrix[:2, 0]) * cw
    axes = (int(size * rng.uniform(0.15, 0.35)), int(size * rng.uniform(0.3, 0.7)))
    mask = np.zeros(idmap.shape, np.uint8)
    cv2.ellipse(mask, (int(p[0]), int(p[1])), axes, float(rng.uniform(0, 180)), 0, 360, 1, -1)
    skin = np.array([rng.uniform(60, 170), rng.uniform(100, 190), rng.uniform(150, 240)], np.float32)
    canvas[mask > 0] = skin
    idmap[mask > 0] = OCCLUDER


# A photo taken at a slant: the table's far edge comes out narrower than its near one, the scene
# squashed towards it. The renders' own camera tilt moves each frame corner by at most 10 % of the
# frame, so the far edge stays within about 0.8-1.2 of the near one; photos of a table from a
# seat are often taken at 0.4-0.7 (held-out renders warped so read 0.93-0.98 of their cards at
# 1920 px against 0.99 upright). Training scenes can be drawn at a slant (``slant``, the share
# of them): the far edge FAR_EDGE as wide as the near one, squashed by SQUASH of the height,
# the far edge at the top in SLANT_TOP of them, else at one of the other three sides.
FAR_EDGE = (0.4, 0.9)
SQUASH = (0.05, 0.3)
SLANT_TOP = 0.6


def slant_matrix(w: int, h: int, far: float, squash: float, side: int = 0) -> np.ndarray:
    """3x3 homography of a ``w`` x ``h`` frame seen at a slant: the side ``side`` (0 top, 1 right,
    2 bottom, 3 left) ``far`` times as wide as its opposite and moved in by ``squash`` of the frame.

    >>> m = slant_matrix(100, 100, 0.5, 0.2)
    >>> np.round(cv2.perspectiveTransform(np.float32([[[0, 0]], [[100, 0]], [[0, 100]]]), m).reshape(-1, 2), 1).tolist()
    [[25.0, 20.0], [75.0, 20.0], [0.0, 100.0]]
    """
    i, q = (1.0 - far) / 2, squash
    src = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])  # top-left, top-right, bottom-right, bottom-left
    dst = np.float32([[[i, q], [1 - i, q], [1, 1], [0, 1]],
                      [[0, 0], [1 - q, i], [1 - q, 1 - i], [0, 1]],
                      [[0, 0], [1, 0], [1 - i, 1 - q], [i, 1 - q]],
                      [[q, i], [1, 0], [1, 1], [q, 1 - i]]][side])
    size = np.diag([w, h, 1.0])
    return size @ cv2.getPerspectiveTransform(src, dst).astype(np.float64) @ np.linalg.inv(size)


def quad_box(pts: np.ndarray, w: int, h: int) -> list[float]:
    """The box [x1, y1, x2, y2] around a quad's points (N x 2), within a ``w`` x ``h`` frame,
    rounded to 0.01 px.

    >>> quad_box(np.array([[-3.0, 5.0], [20.0, 2.123], [12.0, 40.0]]), 16, 30)
    [0.0, 2.12, 16.0, 30.0]
    """
    lo, hi = np.clip(pts.min(0), 0, [w, h]), np.clip(pts.max(0), 0, [w, h])
    return [round(float(v), 2) for v in (*lo, *hi)]


def render_scene(seed: int, designs: list[str] | tuple[str, ...], root: str | None = None,
                 scale: float = 1.0, min_visible: float = MIN_VISIBLE, slant: float = 0.0):
    """Returns (BGR uint8 image, list[Corner]).

    ``scale`` renders the same scene (layout, cards, damage) with that many times the pixels:
    ``scale=2`` is a 1280-px photo of what ``scale=1`` shows at 640 px, as a phone would take it.
    ``min_visible`` below MIN_VISIBLE also returns corners that show only in part (the labels
    leave them out; an evaluation needs them to tell a partly hidden card read right from a
    wrong one); the pixels are the same. ``slant``: the share of scenes photographed at a slant
    (FAR_EDGE, SQUASH), drawn from a generator of its own so that at 0 every scene is as before.
    """
    rng = np.random.default_rng(seed)
    w1, h1 = SIZES[int(rng.integers(0, len(SIZES)))]
    w, h = round(w1 * scale), round(h1 * scale)
    design = load_design(str(designs[int(rng.integers(0, len(designs)))]), root)
    # drawn at the base size and enlarged, so that every later draw of rng is the same at any scale
    canvas = make_background(rng, w1, h1)
    if (w, h) != (w1, h1):
        canvas = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_LINEAR)
    idmap = np.full((h, w), -1, np.int32)
    deck = [CARDS[i] for i in rng.permutation(52)]

    hand_present = rng.random() < 0.85
    base_w = rng.uniform(0.12, 0.32) * min(w, h)
    placements: list[Placement] = []
    n_table = int(rng.integers(0, 9)) if hand_present else int(rng.integers(1, 14))
    table_w = base_w * (rng.uniform(0.55, 1.0) if hand_present else 1.0)
    placements += _table(rng, deck[13:13 + n_table], design, w, h, table_w, hand_present)
    hand: list[Placement] = []
    if hand_present:
        n = int(rng.integers(8, 14))
        codes = deck[:n]
        if rng.random() < 0.7:  # players sort their hands
            codes = sorted(codes, key=lambda c: ("SHCD".index(c[1]), "23456789TJQKA".index(c[0])))
        hand = _hand(rng, codes, design, w, h, base_w)
        if rng.random() < 0.25:
            hand = hand[::-1]  # fanned the other way: right-hand cards underneath
        placements += hand

    if rng.random() < 0.5:  # camera not square to the table
        j = 0.1 * np.array([w, h])
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = (src + rng.uniform(-1, 1, (4, 2)) * j).astype(np.float32)
        persp = cv2.getPerspectiveTransform(src, dst).astype(np.float64)
        for p in placements:
            p.matrix = persp @ p.matrix
    tilt = np.random.default_rng([seed, 27])
    if slant and tilt.random() < slant:
        side = 0 if tilt.random() < SLANT_TOP else int(tilt.integers(1, 4))
        m = slant_matrix(w, h, tilt.uniform(*FAR_EDGE), tilt.uniform(*SQUASH), side)
        for p in placements:
            p.matrix = m @ p.matrix

    cast_shadow = rng.random() < 0.6
    sh_off = rng.normal(0, 0.02 * base_w, 2) + 0.02 * base_w
    sh_sigma, sh_strength = rng.uniform(1, 6), rng.uniform(0.2, 0.55)
    # a training design's 7s are crossed in some scenes, its jacks and queens lettered W and D in
    # others (vision.synth.variants; a procedural deck prints its own letters); each drawn from a
    # generator of its own, so that every other draw is the same as without the variants
    crossed = design.name not in HELD_OUT and np.random.default_rng([seed, 7]).random() < CROSSED_SEVEN_SHARE
    lettered = (design.name not in HELD_OUT and not design.name.startswith(PROCEDURAL_PREFIX)
                and np.random.default_rng([seed, 17]).random() < POLISH_LETTER_SHARE)
    letter_face = int(np.random.default_rng([seed, 18]).integers(0, len(LETTER_FACES)))
    rois = []
    for idx, p in enumerate(placements):
        if p.code is None:
            face = _card_back(rng, design)
        elif crossed and p.code[0] == "7":
            face = crossed_seven(design, p.code)
        elif lettered and p.code[0] in POLISH_LETTERS:
            face = polish_letter(design, p.code, letter_face)
        else:
            face = design.faces[p.code]
        roi, x0, y0 = _warp(face, p.matrix)
        alpha = roi[:, :, 3].astype(np.float32) / 255.0
        if cast_shadow:
            sx, sy = x0 + int(round(sh_off[0])), y0 + int(round(sh_off[1]))
            win = _window(canvas.shape, sx, sy, roi.shape[1], roi.shape[0])
            if win:
                soft = cv2.GaussianBlur(alpha, (0, 0), sh_sigma)
                canvas[win[0]] *= (1 - sh_strength * soft[win[1]])[:, :, None]
        win = _window(canvas.shape, x0, y0, roi.shape[1], roi.shape[0])
        if win:
            a = alpha[win[1]][:, :, None]
            tint = rng.uniform(0.9, 1.05)
            canvas[win[0]] = canvas[win[0]] * (1 - a) + roi[win[1]][:, :, :3].astype(np.float32) * tint * a
            idmap[win[0]][alpha[win[1]] > 0.5] = idx if p.code else FACE_DOWN
        rois.append((alpha, x0, y0))
    if hand and rng.random() < 0.4:
        _occluder(rng, canvas, idmap, hand, design)

    corners = []
    for idx, p in enumerate(placements):
        if p.code is None:
            continue
        alpha, x0, y0 = rois[idx]
        rh, rw = alpha.shape
        own_map = np.full((rh, rw), -1, np.int32)
        win = _window(idmap.shape, x0, y0, rw, rh)
        if win:
            own_map[win[1]] = idmap[win[0]]
        for quad in design.index_quads():
            pts = _project(p.matrix, quad.astype(np.float64))
            mask = np.zeros((rh, rw), np.uint8)
            cv2.fillPoly(mask, [np.round(pts - [x0, y0]).astype(np.int32)], 1)
            own = (mask > 0) & (alpha > 0.5)
            total = int(own.sum())
            if total < 6:
                continue
            seen = int((own & (own_map == idx)).sum()) / total
            box = quad_box(pts, w, h)
            if seen < min_visible or seen == 0 or box[2] - box[0] < 4 or box[3] - box[1] < 4:
                continue
            corners.append(Corner(p.code, p.zone, np.round(pts, 2).tolist(), box, seen))
    return damage(rng, canvas), corners


def in_wider_frame(img: np.ndarray, corners: list[Corner], seed: int, factor: float):
    """The scene as part of a photo ``factor`` times wider and taller, as when the camera is held
    farther back: the same pixels pasted at a seeded place on a table of the same kind of
    background. Returns (BGR uint8 image, the corners moved with it)."""
    if factor < 1:
        raise ValueError("the wider frame must be at least as large as the scene")
    h, w = img.shape[:2]
    big_w, big_h = round(w * factor), round(h * factor)
    rng = np.random.default_rng([seed, 11])
    # the table drawn at a quarter of the size and enlarged: a smooth surface, quickly made
    table = make_background(rng, max(64, big_w // 4), max(64, big_h // 4))
    out = np.clip(cv2.resize(table, (big_w, big_h), interpolation=cv2.INTER_LINEAR), 0, 255).astype(np.uint8)
    x0, y0 = int(rng.integers(0, big_w - w + 1)), int(rng.integers(0, big_h - h + 1))
    out[y0:y0 + h, x0:x0 + w] = img
    moved = [Corner(c.card, c.zone, [[x + x0, y + y0] for x, y in c.quad],
                    [c.box[0] + x0, c.box[1] + y0, c.box[2] + x0, c.box[3] + y0], c.visible)
             for c in corners]
    return out, moved


def slanted(img: np.ndarray, corners: list[Corner], far: float, squash: float | None = None):
    """The rendered scene as if photographed at a slant: its top edge ``far`` times as wide as its
    bottom one, squashed by ``squash`` of the height (by default half of what the top lost), the
    corners moved with it; the image's edges are carried into the emptied border. Returns (BGR
    uint8 image, the corners)."""
    h, w = img.shape[:2]
    m = slant_matrix(w, h, far, (1.0 - far) / 2 if squash is None else squash)
    out = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    moved = []
    for c in corners:
        q = cv2.perspectiveTransform(np.float32(c.quad).reshape(-1, 1, 2), m).reshape(-1, 2)
        moved.append(Corner(c.card, c.zone, np.round(q, 2).tolist(), quad_box(q, w, h), c.visible))
    return out, moved


def quarter_turned(img: np.ndarray, corners: list[Corner], clockwise: bool = True):
    """The scene turned a quarter (as a hand photographed from the side), its corners turned with
    it. Returns (BGR uint8 image, the corners). Clockwise a point (x, y) goes to (height - y, x);
    counter-clockwise to (y, width - x)."""
    h, w = img.shape[:2]
    if clockwise:
        out, point = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), (lambda x, y: [h - y, x])
    else:
        out, point = cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE), (lambda x, y: [y, w - x])
    turned = []
    for c in corners:
        (ax, ay), (bx, by) = point(c.box[0], c.box[1]), point(c.box[2], c.box[3])
        turned.append(Corner(c.card, c.zone, [point(x, y) for x, y in c.quad],
                             [min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)], c.visible))
    return out, turned
