"""Does a classifier member read the held-out designs better after seeing procedural designs?

A paired trial: the same scene layouts (seed 71) rendered with the fifteen training designs alone
(``--arm control``) or with them and 300 procedural designs, about half the scenes each (``--arm
procedural``, vision.synth.procedural); the shipped member is refit on each as ``vision.train``
refits members (its int8 weights dequantized, batch norms frozen, one-cycle AdamW at 5e-4), and
judged on patches of 250 scenes of the three held-out designs (seed 72). Needs
``requirements-train.txt``.

    python scripts/procedural_refit.py --arm control --out runs/procedural
    python scripts/procedural_refit.py --arm procedural --out runs/procedural

Each arm writes ``<out>/<arm>-m<member>/`` (patches, checkpoints, ``m.onnx`` and ``m_int8.onnx``)
and prints the held-out card accuracy of the shipped member and of the refit one.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROCEDURAL_DESIGNS = 300
SCENE_SEED, VAL_SEED = 71, 72


def log(msg: str) -> None:
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arm", choices=("control", "procedural"), required=True)
    ap.add_argument("--member", type=int, default=2, help="the shipped member refit (1-4)")
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "runs" / "procedural")
    args = ap.parse_args(argv)
    try:
        import cv2
        import numpy as np
        import torch
    except ImportError as e:
        print(f"procedural_refit: needs requirements-train.txt ({e.name} is missing)", file=sys.stderr)
        return 2
    from vision.synth.artwork import training_designs
    from vision.synth.generate import generate
    from vision.synth.procedural import procedural_name
    from vision.training.classifier import (build_patches, evaluate_classifier, export_classifier,
                                            load_exported, quantize_classifier, to_tensor,
                                            train_classifier)

    cv2.setNumThreads(1)
    torch.set_num_threads(1)
    real = training_designs()
    designs = real
    if args.arm == "procedural":  # as many entries of each kind: about half the scenes each
        procs = [procedural_name(1000 + k) for k in range(PROCEDURAL_DESIGNS)]
        designs = real * (PROCEDURAL_DESIGNS // len(real)) + procs
    out = args.out / f"{args.arm}-m{args.member}"
    out.mkdir(parents=True, exist_ok=True)
    synth, val_dir = args.out / f"synth-{args.arm}", args.out / "synth-val"
    log(f"{args.scenes} scenes in {synth}")
    generate(synth, args.scenes, 0, SCENE_SEED, designs=designs)
    generate(val_dir, 0, 250, VAL_SEED)
    cache = out / "patches.npz"
    if cache.exists():
        d = np.load(cache)
        train = (d["x"], d["r"], d["s"])
    else:
        train = build_patches(synth, "train", SCENE_SEED, negatives_per_image=8, copies=3, max_angle=8.0)
        np.savez(cache, x=train[0], r=train[1], s=train[2])
    val = build_patches(val_dir, "val", 1, negatives_per_image=3, copies=1, max_angle=8.0)
    x_val = torch.from_numpy(to_tensor(val[0]))
    log(f"{len(train[0])} training patches, {len(val[0])} held-out patches")
    shipped = ROOT / "models" / ("corner_classifier.onnx" if args.member == 1 else f"corner_classifier_{args.member}.onnx")
    base = load_exported(shipped)
    log(f"shipped member {args.member}: {evaluate_classifier(base, x_val, val[1], val[2])}")
    start = out / "start.pt"
    torch.save({"model": base.state_dict()}, start)
    model = train_classifier(train, val, out, args.epochs, 1, log=log, init=start, max_lr=5e-4, seed=5,
                             name=f"m{args.member}_{args.arm}", frozen_norms=True)
    log(f"refit on the {args.arm} scenes: {evaluate_classifier(model, x_val, val[1], val[2])}")
    quantize_classifier(export_classifier(model, out / "m.onnx"), out / "m_int8.onnx", val[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
