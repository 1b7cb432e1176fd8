"""Write a YOLO-format dataset of synthetic scenes.

    python -m vision.synth.generate --out runs/synth --train 3000 --val 300 [--seed 0] [--workers 1]

Layout: images/{train,val}/NNNNNN.jpg, labels/{train,val}/NNNNNN.txt (class 0 = corner index,
normalised cx cy w h), meta/{train,val}/NNNNNN.json (card, zone, box, quad of each visible index),
data.yaml. Train scenes use the training designs, val scenes only the held-out designs.
Scene k of a split uses seed ``seed * 1_000_003 + k`` (val: + 500_000), so any scene can be
rebuilt alone, and a partly written folder is completed by running the same command again.
"""
from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path

import cv2

from .artwork import HELD_OUT, training_designs
from .scene import render_scene

JPEG_QUALITY = 95


def scene_seed(seed: int, split: str, k: int) -> int:
    return seed * 1_000_003 + k + (500_000 if split == "val" else 0)


def yolo_lines(corners, w: int, h: int) -> list[str]:
    lines = []
    for c in corners:
        x1, y1, x2, y2 = c.box
        lines.append(f"0 {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return lines


def _write_one(job) -> str:
    out, split, k, seed, designs, slant = job
    name = f"{k:06d}"
    img_path = out / "images" / split / f"{name}.jpg"
    meta_path = out / "meta" / split / f"{name}.json"
    if img_path.exists() and meta_path.exists():
        return name
    img, corners = render_scene(scene_seed(seed, split, k), designs, slant=slant)
    h, w = img.shape[:2]
    cv2.imwrite(str(img_path), img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    (out / "labels" / split / f"{name}.txt").write_text("\n".join(yolo_lines(corners, w, h)) + "\n")
    meta_path.write_text(json.dumps({"width": w, "height": h, "corners": [c.as_dict() for c in corners]}))
    return name


def generate(out: Path, n_train: int, n_val: int, seed: int = 0, workers: int = 1,
             designs: list[str] | None = None, slant: float = 0.0) -> None:
    """``designs``: the training scenes' designs (default: every training design on disk);
    ``slant``: the share of scenes photographed at a slant (vision.synth.scene.FAR_EDGE)."""
    jobs = []
    train_designs = training_designs() if designs is None else list(designs)
    if set(train_designs) & set(HELD_OUT):
        raise ValueError("held-out designs cannot be used for training scenes")
    for split, n, split_designs in (("train", n_train, train_designs), ("val", n_val, list(HELD_OUT))):
        for sub in ("images", "labels", "meta"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
        jobs += [(out, split, k, seed, tuple(split_designs), slant) for k in range(n)]
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n  0: corner\n")
    done = 0
    if workers > 1:
        with Pool(workers) as pool:
            for _ in pool.imap_unordered(_write_one, jobs, chunksize=8):
                done += 1
                if done % 200 == 0:
                    print(f"{done}/{len(jobs)} scenes", flush=True)
    else:
        for job in jobs:
            _write_one(job)
            done += 1
            if done % 200 == 0:
                print(f"{done}/{len(jobs)} scenes", flush=True)
    print(f"wrote {len(jobs)} scenes to {out}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="synthetic card scenes in YOLO format")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--train", type=int, default=3000)
    ap.add_argument("--val", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--slant", type=float, default=0.0,
                    help="the share of scenes photographed at a slant (the far edge 0.4-0.9 as wide)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    if not 0.0 <= args.slant <= 1.0:
        ap.error(f"--slant is a share of the scenes, 0-1, not {args.slant}")
    generate(args.out, args.train, args.val, args.seed, args.workers, slant=args.slant)
    return 0


if __name__ == "__main__":
    sys.exit(main())
