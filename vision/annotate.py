"""Draw scan results onto an image (boxes and card names)."""
from __future__ import annotations

import cv2
import numpy as np

ZONE_COLOURS = {"hand": (60, 200, 60), "table": (230, 120, 30)}


def draw(img: np.ndarray, result: dict) -> np.ndarray:
    out = img.copy()
    thick = max(1, round(max(img.shape[:2]) / 600))
    scale = max(0.4, max(img.shape[:2]) / 1400)
    for c in result["cards"]:
        x1, y1, x2, y2 = c["box"]
        colour = ZONE_COLOURS.get(c["zone"], (0, 200, 255))
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        label = f"{c['card']} {c['confidence']:.2f}"
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        ty = max(th + base, y1)
        cv2.rectangle(out, (x1, ty - th - base), (x1 + tw, ty), colour, -1)
        cv2.putText(out, label, (x1, ty - base), cv2.FONT_HERSHEY_SIMPLEX, scale, (0, 0, 0), thick, cv2.LINE_AA)
    return out


def write_annotated(path: str, img: np.ndarray, result: dict) -> None:
    ok, buf = cv2.imencode(".jpg", draw(img, result), [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        raise OSError(f"cannot encode annotated image for {path}")
    with open(path, "wb") as f:
        f.write(buf.tobytes())
