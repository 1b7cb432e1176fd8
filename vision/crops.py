"""Cut the square patch that the classifier reads around a detected corner-index box.

Shared by training and inference so both see patches made the same way.
"""
from __future__ import annotations

import cv2
import numpy as np

PATCH = 48  # classifier input side, pixels
CONTEXT = 1.15  # patch side = CONTEXT * longer side of the box


def crop_patch(img: np.ndarray, box, size: int = PATCH, context: float = CONTEXT,
               angle: float = 0.0) -> np.ndarray:
    """BGR image, [x1, y1, x2, y2] -> size x size BGR patch centred on the box (edges replicated).

    ``angle`` (degrees, counter-clockwise) turns the patch about the box centre; training uses it
    as augmentation, inference reads the box upright (0).
    """
    x1, y1, x2, y2 = [float(v) for v in box]
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1, 2.0) * context
    s = size / side
    if s < 0.5:  # shrink the neighbourhood first so that the warp does not alias
        f = 2.0 * s
        x0, y0 = int(max(0, cx - side)), int(max(0, cy - side))
        region = img[y0:int(cy + side) + 1, x0:int(cx + side) + 1]
        if region.size:
            region = cv2.resize(region, (max(1, round(region.shape[1] * f)), max(1, round(region.shape[0] * f))),
                                interpolation=cv2.INTER_AREA)
            return crop_patch(region, [(x1 - x0) * f, (y1 - y0) * f, (x2 - x0) * f, (y2 - y0) * f], size, context,
                              angle)
    if angle:
        m = cv2.getRotationMatrix2D((cx, cy), angle, s).astype(np.float32)
        m[:, 2] += (size / 2 - cx, size / 2 - cy)  # the box centre lands on the patch centre
    else:
        m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float32)
    return cv2.warpAffine(img, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def to_tensor(patches) -> np.ndarray:
    """N BGR uint8 patches (a list or an N x P x P x 3 array) -> float32 NCHW in [0, 1], RGB order."""
    arr = np.asarray(patches if isinstance(patches, np.ndarray) else np.stack(patches), np.float32) / 255.0
    return np.ascontiguousarray(arr[:, :, :, ::-1].transpose(0, 3, 1, 2))

