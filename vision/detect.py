"""Corner-index detector: tiny YOLO exported to ONNX, run with onnxruntime, decoded with numpy."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from . import runtime

STRIDE = 32  # the detector's largest stride: input sides must be multiples of it


@dataclass
class Detector:
    """Finds corner indices (one class). ``imgsz`` is the network input's longer side."""
    model_path: Path = runtime.MODELS_DIR / runtime.DETECTOR_FILE
    imgsz: int = 416
    conf: float = 0.2
    iou: float = 0.5

    def letterbox(self, img: np.ndarray):
        """-> (1x3xHxW float32 RGB input, scale from image to network pixels, x pad, y pad).

        The longer side becomes ``imgsz``; the shorter is padded only up to the next multiple of
        the network's stride (32), not to a square: a 4:3 frame costs 3/4 of the square's work.
        """
        h, w = img.shape[:2]
        scale = self.imgsz / max(h, w)
        nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
        small = img
        while small.shape[1] > 2 * nw and small.shape[0] > 2 * nh:  # halve cheaply: no aliasing
            small = cv2.pyrDown(small)
        resized = cv2.resize(small, (nw, nh), interpolation=cv2.INTER_LINEAR)
        iw, ih = -(-nw // STRIDE) * STRIDE, -(-nh // STRIDE) * STRIDE
        px, py = (iw - nw) // 2, (ih - nh) // 2
        x = np.full((1, 3, ih, iw), 114 / 255.0, np.float32)
        chw = resized.transpose(2, 0, 1)[::-1]  # BGR HWC -> RGB CHW
        np.multiply(chw, np.float32(1 / 255.0), out=x[0, :, py:py + nh, px:px + nw], casting="unsafe")
        return x, scale, px, py

    def __call__(self, img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """BGR image -> (N x 4 boxes [x1, y1, x2, y2] in image pixels, N scores)."""
        sess = runtime.session(self.model_path)
        x, s, px, py = self.letterbox(img)
        outs = sess.run(None, {sess.get_inputs()[0].name: x})
        boxes, scores = decode_heads(outs, x.shape[2], self.conf) if len(outs) > 1 else decode_output(outs[0], self.conf)
        if len(scores) == 0:
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
        idx = cv2.dnn.NMSBoxes([[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])] for b in boxes],
                               scores.astype(float).tolist(), self.conf, self.iou)
        idx = np.array(idx, dtype=int).reshape(-1)
        boxes, scores = boxes[idx], scores[idx]
        boxes = (boxes - [px, py, px, py]) / s
        h, w = img.shape[:2]
        boxes = np.clip(boxes, 0, [w, h, w, h]).astype(np.float32)
        return boxes, scores.astype(np.float32)


def decode_heads(outs: list, input_height: int, conf: float) -> tuple[np.ndarray, np.ndarray]:
    """The raw head of the shipped detector (per stride: 1 x 4*bins x H x W box distributions and
    1 x classes x H x W logits, in pairs, as cut by `vision.training.detector.raw_head`) -> (N x 4 boxes in
    network pixels, N scores), for the cells scoring at least ``conf`` only.

    A box side is the expectation of its softmax over the bins (YOLOv8's distribution focal loss),
    in strides from the cell centre: left, top, right, bottom.
    """
    logit_bar = np.log(conf / (1 - conf))
    found_boxes, found_scores = [], []
    for box_map, cls_map in zip(outs[0::2], outs[1::2]):
        h, w = cls_map.shape[2:]
        stride = input_height / h
        logits = cls_map[0].max(axis=0).reshape(-1)
        cells = np.flatnonzero(logits >= logit_bar)
        if len(cells) == 0:
            continue
        bins = box_map.shape[1] // 4
        dist = box_map[0].reshape(4, bins, h * w)[:, :, cells]
        dist = np.exp(dist - dist.max(axis=1, keepdims=True))
        sides = (dist * np.arange(bins, dtype=np.float32)[:, None]).sum(1) / dist.sum(1)  # 4 x cells
        ax, ay = cells % w + 0.5, cells // w + 0.5
        found_boxes.append(np.stack([ax - sides[0], ay - sides[1], ax + sides[2], ay + sides[3]], 1) * stride)
        found_scores.append(1 / (1 + np.exp(-logits[cells])))
    if not found_scores:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    return np.concatenate(found_boxes).astype(np.float32), np.concatenate(found_scores).astype(np.float32)


def decode_output(out: np.ndarray, conf: float) -> tuple[np.ndarray, np.ndarray]:
    """An ultralytics export's decoded output (1 x (4 + classes) x anchors: cx, cy, w, h, scores)
    -> (N x 4 boxes in network pixels, N scores) scoring at least ``conf``."""
    out = out[0]
    scores = out[4:].max(axis=0)
    keep = scores >= conf
    cx, cy, bw, bh = out[:4, keep]
    return np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1), scores[keep]
