"""Train the card detector end to end and export it to models/.

    python -m vision.train [--out runs/vision] [--scenes 4000] [--val-scenes 300]
                           [--epochs 30] [--hours 1.25] [--finetune-hours 0.3] [--imgsz 320] [--threads 2]
                           [--classifier-epochs 3] [--classifier-hours 1.25] [--patch-copies 3]
                           [--finetune-epochs 0] [--export-dir models] [--skip-detector] [--skip-classifier]

Steps, each resumable (run the same command again after an interruption):
 1. synthetic scenes (vision.synth.generate) from datasets/artwork/raster; val uses held-out designs
 2. corner-index detector: tiny YOLOv8 (vision/training/corner-yolov8t.yaml), one class, ultralytics
 3. corner-patch classifier: small CNN, rank + suit heads, torch (patches cached in OUT/patches.npz)
 4. ONNX export: models/corner_detector.onnx, models/corner_classifier.onnx
Needs the packages in requirements-train.txt (torch, ultralytics, onnx); the runtime does not.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODELS = REPO / "models"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="train the piki card detector")
    ap.add_argument("--out", type=Path, default=REPO / "runs" / "vision")
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--val-scenes", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--hours", type=float, default=1.25,
                    help="time budget for the detector (ultralytics 'time'; overrides --epochs)")
    ap.add_argument("--finetune-hours", type=float, default=0.3,
                    help="second detector pass from the first one's weights (0: none)")
    ap.add_argument("--refine-hours", type=float, default=0.0,
                    help="a third detector pass at --refine-imgsz (0: none)")
    ap.add_argument("--refine-imgsz", type=int, default=480)
    ap.add_argument("--refine-batch", type=int, default=16)
    ap.add_argument("--refine-lr", type=float, default=0.0005)
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--classifier-epochs", type=int, default=3)
    ap.add_argument("--classifier-hours", type=float, default=1.25,
                    help="classifier time budget: no new epoch starts once it is spent (0: none)")
    ap.add_argument("--patch-copies", type=int, default=3,
                    help="jittered patches cut around each labelled corner index")
    ap.add_argument("--negatives", type=int, default=8, help="'not an index' patches per training scene")
    ap.add_argument("--max-angle", type=float, default=8.0, help="training patches turned by up to this (deg)")
    ap.add_argument("--patch-sets", type=int, default=1,
                    help="independent cuts of patches from the same scenes, trained on together")
    ap.add_argument("--finetune-epochs", type=int, default=0,
                    help="second classifier pass on freshly cut patches at a lower learning rate")
    ap.add_argument("--export-dir", type=Path, default=MODELS, help="where the ONNX files are written")
    ap.add_argument("--skip-detector", action="store_true")
    ap.add_argument("--skip-classifier", action="store_true")
    args = ap.parse_args(argv)

    import cv2

    cv2.setNumThreads(1)
    from vision.synth.generate import generate

    synth = args.out / "synth"
    log(f"scenes: {args.scenes} train + {args.val_scenes} val in {synth}")
    generate(synth, args.scenes, args.val_scenes, args.seed)

    if not args.skip_detector:
        from vision.training.detector import export_detector, finetune_detector, train_detector

        log("training the corner detector")
        t0 = time.time()
        extra = {"time": args.hours} if args.hours else {}
        weights = train_detector(synth / "data.yaml", args.out, args.epochs, args.imgsz, args.batch,
                                 args.threads, **extra)
        log(f"detector trained in {time.time() - t0:.0f} s: {weights}")
        if args.finetune_hours:
            t0 = time.time()
            weights = finetune_detector(weights, synth / "data.yaml", args.out, args.finetune_hours,
                                        args.imgsz, args.batch, args.threads)
            log(f"detector fine-tuned in {time.time() - t0:.0f} s: {weights}")
        if args.refine_hours:
            # A last pass at a larger input: the small indices of a 640-px scene are seen at
            # nearly full resolution, as at run time (Detector.imgsz), not halved as at 320.
            t0 = time.time()
            weights = finetune_detector(weights, synth / "data.yaml", args.out, args.refine_hours,
                                        args.refine_imgsz, args.refine_batch, args.threads,
                                        name="detector_refine", lr0=args.refine_lr)
            log(f"detector refined at {args.refine_imgsz} px in {time.time() - t0:.0f} s: {weights}")
        export_detector(weights, args.export_dir / "corner_detector.onnx", args.imgsz)
        log(f"exported {args.export_dir / 'corner_detector.onnx'}")

    if not args.skip_classifier:
        import numpy as np

        from vision.crops import PATCH
        from vision.training.classifier import build_patches, export_classifier, train_classifier

        cache = args.out / "patches.npz"
        data = np.load(cache) if cache.exists() else None
        if data is not None and data["xt"].shape[1] == PATCH:
            train = (data["xt"], data["rt"], data["st"])
            val = (data["xv"], data["rv"], data["sv"])
        else:  # none yet, or cut for another patch size
            log("cutting corner patches")
            train = build_patches(synth, "train", args.seed, negatives_per_image=args.negatives,
                                  copies=args.patch_copies, max_angle=args.max_angle)
            val = build_patches(synth, "val", args.seed + 1)
            np.savez(cache, xt=train[0], rt=train[1], st=train[2], xv=val[0], rv=val[1], sv=val[2])
        for k in range(1, args.patch_sets):  # further cuts: fresh jitter, turns and negatives
            extra = args.out / f"patches_set{k}.npz"
            if extra.exists():
                data = np.load(extra)
                more = (data["xt"], data["rt"], data["st"])
            else:
                log(f"cutting corner patches, set {k + 1}")
                more = build_patches(synth, "train", args.seed + 7 * k, negatives_per_image=args.negatives,
                                     copies=args.patch_copies, max_angle=args.max_angle)
                np.savez(extra, xt=more[0], rt=more[1], st=more[2])
            train = tuple(np.concatenate([a, b]) for a, b in zip(train, more))
        log(f"classifier: {len(train[0])} train patches, {len(val[0])} val patches")
        t0 = time.time()
        model = train_classifier(train, val, args.out, args.classifier_epochs, args.threads, log=log,
                                 hours=args.classifier_hours or None)
        log(f"classifier trained in {time.time() - t0:.0f} s")
        if args.finetune_epochs:
            cache2 = args.out / "patches_finetune.npz"
            if cache2.exists():
                data = np.load(cache2)
                train2 = (data["xt"], data["rt"], data["st"])
            else:
                log("cutting a second set of corner patches")
                train2 = build_patches(synth, "train", args.seed + 7, negatives_per_image=args.negatives,
                                       copies=args.patch_copies, max_angle=args.max_angle)
                np.savez(cache2, xt=train2[0], rt=train2[1], st=train2[2])
            t0 = time.time()
            model = train_classifier(train2, val, args.out, args.finetune_epochs, args.threads, log=log,
                                     init=args.out / "classifier_last.pt", max_lr=1e-3,
                                     seed=args.seed + 7, name="finetune")
            log(f"classifier fine-tuned in {time.time() - t0:.0f} s")
        export_classifier(model, args.export_dir / "corner_classifier.onnx")
        log(f"exported {args.export_dir / 'corner_classifier.onnx'}")
    (args.out / "train_args.json").write_text(json.dumps({k: str(v) for k, v in vars(args).items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
