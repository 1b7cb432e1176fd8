"""Procedural table backgrounds: felt, wood, cloth patterns, plain paint, clutter."""
from __future__ import annotations

import cv2
import numpy as np


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    small = rng.random((max(2, h * cells // max(w, h)), max(2, w * cells // max(w, h))), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _color(rng: np.random.Generator) -> np.ndarray:
    hsv = np.uint8([[[rng.integers(0, 180), rng.integers(0, 256), rng.integers(30, 256)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def felt(rng, w, h):
    base = _color(rng) if rng.random() < 0.5 else np.float32([40, 110, 30]) * rng.uniform(0.5, 1.4)
    grain = rng.normal(0, rng.uniform(3, 14), (h, w)).astype(np.float32)
    blotch = (_smooth_noise(rng, w, h, int(rng.integers(3, 12))) - 0.5) * rng.uniform(10, 50)
    return base[None, None, :] + (grain + blotch)[:, :, None]


def wood(rng, w, h):
    base = np.float32([40, 90, 150]) * rng.uniform(0.4, 1.3)
    ang = rng.uniform(0, np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    t = xx * np.cos(ang) + yy * np.sin(ang)
    warp = _smooth_noise(rng, w, h, 6) * rng.uniform(20, 80)
    rings = np.sin((t + warp) * rng.uniform(0.05, 0.4)) * rng.uniform(8, 30)
    grain = rng.normal(0, 4, (h, w)).astype(np.float32)
    return base[None, None, :] + (rings + grain)[:, :, None]


def pattern(rng, w, h):
    c1, c2 = _color(rng), _color(rng)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    period = rng.uniform(6, 60)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    kind = rng.integers(0, 3)
    if kind == 0:
        m = ((u // period) % 2).astype(np.float32)
    elif kind == 1:
        m = (((u // period) + (v // period)) % 2).astype(np.float32)
    else:
        m = (np.sin(u / period * 2 * np.pi) * np.sin(v / period * 2 * np.pi) > 0).astype(np.float32)
    m = cv2.GaussianBlur(m, (0, 0), 0.8)
    return c1 * m[:, :, None] + c2 * (1 - m[:, :, None])


def plain(rng, w, h):
    base = _color(rng)
    noise = (_smooth_noise(rng, w, h, int(rng.integers(2, 8))) - 0.5) * rng.uniform(0, 60)
    return base[None, None, :] + noise[:, :, None] + rng.normal(0, 3, (h, w, 1)).astype(np.float32)


def clutter(rng, img):
    """Random shapes, strokes and text-like marks (things that are not card indices); uint8 image."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(0, 12))):
        col = tuple(float(c) for c in _color(rng))
        kind = rng.integers(0, 4)
        p = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        if kind == 0:
            cv2.circle(img, p, int(rng.integers(3, max(4, w // 8))), col, int(rng.choice([-1, 1, 2, 4])))
        elif kind == 1:
            q = (int(rng.integers(0, w)), int(rng.integers(0, h)))
            cv2.line(img, p, q, col, int(rng.integers(1, 6)))
        elif kind == 2:
            q = (p[0] + int(rng.integers(5, w // 4)), p[1] + int(rng.integers(5, h // 4)))
            cv2.rectangle(img, p, q, col, int(rng.choice([-1, 1, 3])))
        else:
            text = "".join(rng.choice(list("ABCDEFGHKMNPRSTXYZ0123456789"), int(rng.integers(1, 6))))
            cv2.putText(img, text, p, int(rng.choice([0, 2, 3, 4])), float(rng.uniform(0.4, 2.0)), col,
                        int(rng.integers(1, 4)))
    return img


KINDS = (felt, wood, pattern, plain)


def make_background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    kind = KINDS[int(rng.integers(0, len(KINDS)))]
    img = kind(rng, w, h)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        img = clutter(rng, img)
    return img.astype(np.float32)
