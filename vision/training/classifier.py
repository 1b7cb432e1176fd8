"""Corner-patch classifier: rank (13 + "not an index") and suit (4) heads; training and export."""
from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.crops import PATCH, crop_patch, to_tensor
from vision.labels import RANK_CLASSES, SUIT_CLASSES

NONE_RANK = len(RANK_CLASSES) - 1  # the last rank class means "not a corner index"


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def jitter_box(rng, box, amount: float = 0.12):
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx = (x1 + x2) / 2 + rng.normal(0, amount) * w
    cy = (y1 + y2) / 2 + rng.normal(0, amount) * h
    s = np.exp(rng.normal(0, amount))
    return [cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2]


def build_patches(synth_dir: Path, split: str, seed: int, negatives_per_image: int = 3,
                  copies: int = 1, limit: int | None = None):
    """Patches from scene metadata: (uint8 N x P x P x 3, rank labels, suit labels; -100 = ignore)."""
    rng = np.random.default_rng(seed)
    patches, ranks, suits = [], [], []
    metas = sorted((synth_dir / "meta" / split).glob("*.json"))[:limit]
    for mp in metas:
        meta = json.loads(mp.read_text())
        img = cv2.imread(str(synth_dir / "images" / split / (mp.stem + ".jpg")))
        boxes = [c["box"] for c in meta["corners"]]
        for c in meta["corners"]:
            for _ in range(copies):
                patches.append(crop_patch(img, jitter_box(rng, c["box"])))
                ranks.append(RANK_CLASSES.index(c["card"][0]))
                suits.append(SUIT_CLASSES.index(c["card"][1]))
        sizes = [max(b[2] - b[0], b[3] - b[1]) for b in boxes] or [img.shape[0] * 0.08]
        h, w = img.shape[:2]
        made = 0
        for _ in range(negatives_per_image * 10):
            if made >= negatives_per_image:
                break
            side = float(rng.choice(sizes)) * rng.uniform(0.7, 1.4)
            bw, bh = side * rng.uniform(0.45, 1.0), side
            if rng.random() < 0.5:
                bw, bh = bh, bw
            if boxes and rng.random() < 0.6:  # near a corner index: on the card body or its edge
                b = boxes[int(rng.integers(0, len(boxes)))]
                ang = rng.uniform(0, 2 * np.pi)
                dist = rng.uniform(0.8, 3.0) * side
                x = (b[0] + b[2]) / 2 + dist * np.cos(ang) - bw / 2
                y = (b[1] + b[3]) / 2 + dist * np.sin(ang) - bh / 2
            else:
                x, y = rng.uniform(0, max(1, w - bw)), rng.uniform(0, max(1, h - bh))
            cand = [x, y, x + bw, y + bh]
            if all(_iou(cand, b) < 0.08 for b in boxes):
                patches.append(crop_patch(img, cand))
                ranks.append(NONE_RANK)
                suits.append(-100)
                made += 1
    return np.stack(patches), np.array(ranks, np.int64), np.array(suits, np.int64)


def make_model():
    import torch.nn as nn

    def block(cin, cout):
        return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    class CornerNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.features = nn.Sequential(
                *block(3, 16), nn.MaxPool2d(2),
                *block(16, 32), *block(32, 32), nn.MaxPool2d(2),
                *block(32, 64), *block(64, 64), nn.MaxPool2d(2),
                *block(64, 128), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2))
            self.rank = nn.Linear(128, len(RANK_CLASSES))
            self.suit = nn.Linear(128, len(SUIT_CLASSES))

        def forward(self, x):
            f = self.features(x)
            return self.rank(f), self.suit(f)

    return CornerNet()


def _augment(rng, batch: np.ndarray) -> np.ndarray:
    """Cheap photometric augmentation on NCHW float batches."""
    n = batch.shape[0]
    gain = rng.uniform(0.6, 1.3, (n, 1, 1, 1)).astype(np.float32)
    bias = rng.uniform(-0.12, 0.12, (n, 1, 1, 1)).astype(np.float32)
    chan = rng.uniform(0.9, 1.1, (n, 3, 1, 1)).astype(np.float32)
    noise = rng.normal(0, rng.uniform(0, 0.05), batch.shape).astype(np.float32)
    return np.clip(batch * gain * chan + bias + noise, 0, 1)


def train_classifier(train, val, out_dir: Path, epochs: int, threads: int, batch: int = 128,
                     seed: int = 0, log=print, init: Path | None = None, max_lr: float = 3e-3,
                     name: str = "classifier"):
    """One-cycle training; ``init``: start from the weights of an earlier checkpoint (fine-tuning)."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    ckpt = out_dir / f"{name}_last.pt"
    model = make_model()
    if init is not None:
        model.load_state_dict(torch.load(init, weights_only=False)["model"])
    opt = torch.optim.AdamW(model.parameters(), lr=max_lr, weight_decay=1e-4)
    steps_per_epoch = (len(train[0]) + batch - 1) // batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=max_lr, total_steps=epochs * steps_per_epoch,
                                                pct_start=0.3 if init is None else 0.1)
    start = 0
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start = state["epoch"] + 1
        rng = np.random.default_rng(seed + start)
        log(f"resuming classifier at epoch {start + 1}")
    x_train = to_tensor(list(train[0]))
    x_val = torch.from_numpy(to_tensor(list(val[0])))
    for epoch in range(start, epochs):
        model.train()
        t0 = time.time()
        order = rng.permutation(len(x_train))
        total = 0.0
        for i in range(0, len(order), batch):
            idx = order[i:i + batch]
            xb = torch.from_numpy(_augment(rng, x_train[idx]))
            rb, sb = torch.from_numpy(train[1][idx]), torch.from_numpy(train[2][idx])
            pr, ps = model(xb)
            loss = F.cross_entropy(pr, rb, label_smoothing=0.05) + F.cross_entropy(ps, sb, ignore_index=-100)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        acc = evaluate_classifier(model, x_val, val[1], val[2])
        log(f"{name} epoch {epoch + 1}/{epochs} loss {total / len(order):.4f} "
            f"val rank acc {acc['rank']:.4f} suit acc {acc['suit']:.4f} card acc {acc['card']:.4f} "
            f"({time.time() - t0:.0f} s)")
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                    "epoch": epoch, "val": acc}, ckpt)
    return model


def evaluate_classifier(model, x_val, ranks, suits) -> dict:
    import torch

    model.eval()
    pr_all, ps_all = [], []
    with torch.no_grad():
        for i in range(0, len(x_val), 512):
            pr, ps = model(x_val[i:i + 512])
            pr_all.append(pr.argmax(1).numpy())
            ps_all.append(ps.argmax(1).numpy())
    pr, ps = np.concatenate(pr_all), np.concatenate(ps_all)
    cards = suits >= 0
    return {"rank": float((pr == ranks).mean()),
            "suit": float((ps[cards] == suits[cards]).mean()),
            "card": float(((pr == ranks) & (ps == suits))[cards].mean())}


def export_classifier(model, out: Path) -> Path:
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, PATCH, PATCH)
    torch.onnx.export(model, dummy, str(out), input_names=["patches"], output_names=["rank", "suit"],
                      dynamic_axes={"patches": {0: "n"}, "rank": {0: "n"}, "suit": {0: "n"}},
                      opset_version=17, dynamo=False)
    return out
