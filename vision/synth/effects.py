"""Photometric damage applied to a finished scene: light, shadow, glare, blur, noise, JPEG."""
from __future__ import annotations

import cv2
import numpy as np

from ..colour import as_grey


def lighting(rng, img):
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    t = (xx * np.cos(ang) + yy * np.sin(ang)) / max(w, h)
    lo, hi = sorted(rng.uniform(0.45, 1.25, 2))
    field = lo + (hi - lo) * (t - t.min()) / max(1e-6, t.max() - t.min())
    gains = rng.uniform(0.85, 1.15, 3).astype(np.float32)  # colour temperature
    return img * field[:, :, None] * gains[None, None, :]


def shadow(rng, img):
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    n = int(rng.integers(3, 7))
    pts = np.stack([rng.integers(-w // 2, w + w // 2, n), rng.integers(-h // 2, h + h // 2, n)], 1)
    cv2.fillPoly(mask, [pts.astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(2, 25))
    return img * (1 - rng.uniform(0.2, 0.6) * mask[:, :, None])


def glare(rng, img):
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    c = (int(rng.integers(0, w)), int(rng.integers(0, h)))
    ax = (int(rng.integers(w // 20, w // 4)), int(rng.integers(h // 20, h // 4)))
    cv2.ellipse(mask, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(5, 30))
    return img + rng.uniform(60, 200) * mask[:, :, None]


def motion_kernel(k: int, angle: float, fill: float = 1.0) -> np.ndarray:
    """A k x k kernel smearing along a line at ``angle`` degrees (a shaken camera), summing to 1.
    ``fill`` is the line's value before it is turned (the turn's rounding depends on it)."""
    kernel = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = fill
    turn = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (k, k))
    return kernel / max(kernel.sum(), 1e-6)


def blur(rng, img):
    if rng.random() < 0.6:
        return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.8))
    k = int(rng.integers(3, 9))
    return cv2.filter2D(img, -1, motion_kernel(k, float(rng.uniform(0, 180)), 1.0 / k))


def resample(rng, img):
    h, w = img.shape[:2]
    f = rng.uniform(0.35, 0.8)
    small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def noise(rng, img):
    return img + rng.normal(0, rng.uniform(2, 14), img.shape).astype(np.float32)


def jpeg(rng, img):
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def damage(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """img: float32 BGR scene -> uint8 BGR photo-like image."""
    img = img.astype(np.float32)
    if rng.random() < 0.8:
        img = lighting(rng, img)
    if rng.random() < 0.35:
        img = shadow(rng, img)
    if rng.random() < 0.25:
        img = glare(rng, img)
    if rng.random() < 0.4:
        img = blur(rng, img)
    if rng.random() < 0.25:
        img = resample(rng, img)
    if rng.random() < 0.6:
        img = noise(rng, img)
    gamma = rng.uniform(0.7, 1.4)
    img = 255.0 * (np.clip(img, 0, 255) / 255.0) ** gamma
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        out = jpeg(rng, out)
    return out


# Harder photos than the scenes' own damage, for measuring how the detector holds up (never used
# in training): ``scale`` is the render's scale over 640 px, so a blur covers the same part of a
# card at any size. A dim room (underexposed, sensor noise, strong JPEG), a defocused camera, a
# shaken one.
PHOTO_DAMAGE = ("defocus", "dim", "motion")
# Coloured light the camera did not balance (BGR gains): a tungsten lamp (red over blue about 2:1),
# cold daylight from a window, a green-tinted fluorescent tube. Beyond the 0.85-1.15 per channel of
# the scenes' own light, for measuring the white balance of vision.colour.
COLOUR_CASTS = {"warm": (0.55, 0.85, 1.15), "cool": (1.15, 0.95, 0.65), "green": (0.8, 1.15, 0.8)}
# A black-and-white photo (a phone's mono filter, a grey copy): each pixel's luma, as OpenCV's;
# a sepia one: the common sepia matrix (each channel a weighted sum of R, G, B; clipped)
GREY, SEPIA = "grey", "sepia"
SEPIA_MATRIX = np.float32([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]])  # RGB rows
PHOTO_CONDITIONS = PHOTO_DAMAGE + tuple(COLOUR_CASTS) + (GREY, SEPIA)  # what ``photo_damage`` can put on a render


def photo_damage(kind: str, img: np.ndarray, scale: float, seed: int) -> np.ndarray:
    """uint8 BGR image -> the same with ``kind`` of PHOTO_DAMAGE (or a light of COLOUR_CASTS, or
    made GREY or SEPIA) on top, seeded."""
    if kind == GREY:
        return as_grey(img)
    if kind == SEPIA:
        rgb = img[..., ::-1].astype(np.float32)
        return np.clip(rgb @ SEPIA_MATRIX.T, 0, 255)[..., ::-1].astype(np.uint8)
    if kind in COLOUR_CASTS:
        return np.clip(img.astype(np.float32) * np.float32(COLOUR_CASTS[kind]), 0, 255).astype(np.uint8)
    rng = np.random.default_rng([seed, 13])
    f = img.astype(np.float32)
    if kind == "defocus":
        f = cv2.GaussianBlur(f, (0, 0), 0.8 * scale)
    elif kind == "dim":
        f = f * 0.45 + rng.normal(0, 10, f.shape)
        ok, buf = cv2.imencode(".jpg", np.clip(f, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 50])
        return cv2.imdecode(buf, cv2.IMREAD_COLOR)
    elif kind == "motion":
        f = cv2.filter2D(f, -1, motion_kernel(int(round(3 * scale)) | 1, float(rng.uniform(0, 180))))
    else:
        raise ValueError(f"unknown photo damage {kind!r}: one of {', '.join(PHOTO_CONDITIONS)}")
    return np.clip(f, 0, 255).astype(np.uint8)
