"""Train the card detector end to end and export it to models/.

    python -m vision.train [--out runs/vision] [--scenes 4000] [--val-scenes 300]
                           [--epochs 30] [--hours 1.25] [--finetune-hours 0.3] [--imgsz 320] [--threads 2]
                           [--refine-hours 0.9] [--classifiers 3x1,4x2] [--classifier-hours 0]
                           [--finetune 2x2] [--finetune-seed 21] [--designs first|all]
                           [--patch-copies 3] [--export-dir models] [--skip-detector] [--skip-classifier]
                           [--device cpu|0|auto] [--workers 0] [--refit 3,4] [--refit-scenes 1500] [--refit-only]
                           [--refit-slant 0] [--refit-procedural 0] [--refit-anchor 0]
                           [--zone-scenes 4000] [--detector-from models/corner_detector.pt]
                           [--slant-hours 0] [--slant-scenes 3000] [--slant-share 0.4] [--slant-seed 91]

Steps, each resumable (run the same command again after an interruption):
 1. synthetic scenes (vision.synth.generate) from datasets/artwork/raster; val uses held-out designs
 2. corner-index detector: tiny YOLOv8 (vision/training/corner-yolov8t.yaml), one class, ultralytics
    (--detector-from: from a checkpoint instead, such as the committed models/corner_detector.pt,
    the shipped detector rebuilt by vision.training.checkpoint), then (--slant-hours) a last pass at
    480 px on fresh scenes of every training design, a share of them photographed at a slant
    (OUT/synth_slant)
 3. corner-patch classifiers: two small CNNs (rank + suit heads, torch) trained on different cuts of
    patches (cached in OUT/patches*.npz), averaged at run time
 4. (--finetune) the last classifier fine-tuned on fresh scenes of every training design
    (OUT/synth_more), from its own weights at a lower learning rate
 5. (--more-members) two more classifiers trained from scratch on those scenes' patches
 6. ONNX export: models/corner_detector.onnx; the classifiers quantized to int8,
    models/corner_classifier.onnx, corner_classifier_2.onnx, _3 and _4
 7. (--refit) members 3 and 4 fine-tuned on fresh scenes of every training design (OUT/synth_refit;
    their 7s crossed in half of them, their jacks and queens lettered W and D in a quarter), the
    batch norms frozen, and exported again (a member not trained in OUT starts from its file in
    --export-dir; --skip-classifier skips it too, --refit-only runs it alone)
 8. (--zone-scenes) the hand/table zone model (vision.training.zones) fitted on scenes read by the
    models just exported: models/zone_model.json
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
# the refit's procedural decks (--refit-procedural): typefaces of the training group only, seeds
# far from the screen's (scripts/typeface_screen.py draws its decks from 0 up)
PROCEDURAL_DECKS, PROCEDURAL_FIRST_DECK = 400, 100_000


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def _missing_packages(args: argparse.Namespace) -> list[str]:
    """The training packages the chosen steps need that cannot be imported."""
    import importlib.util

    need = []
    if not args.skip_detector and not args.refit_only:
        need += ["torch", "ultralytics", "onnx"]
    if not args.skip_classifier or (args.refit_only and args.refit.strip()):  # members, or the refit
        need += ["torch", "onnx"]
    return [m for m in dict.fromkeys(need) if importlib.util.find_spec(m) is None]


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
    ap.add_argument("--refine-hours", type=float, default=0.9,
                    help="a third detector pass at --refine-imgsz (0: none)")
    ap.add_argument("--refine-imgsz", type=int, default=480)
    ap.add_argument("--refine-batch", type=int, default=16)
    ap.add_argument("--refine-lr", type=float, default=0.0005)
    ap.add_argument("--imgsz", type=int, default=320)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu",
                    help="detector training device: cpu, a CUDA index such as 0, or auto (CUDA when "
                         "torch sees one); the classifiers always train on the CPU")
    ap.add_argument("--workers", type=int, default=0,
                    help="data-loading processes for the detector (0: in the training process)")
    ap.add_argument("--classifiers", default="3x1,4x2",
                    help="the classifier ensemble: EPOCHSxCUTS for each member (CUTS: independent cuts of "
                         "patches from the same scenes, trained on together)")
    ap.add_argument("--classifier-hours", type=float, default=0.0,
                    help="per classifier: no new epoch starts after this many hours (0: no limit; a cut "
                         "short one-cycle schedule never anneals, so prefer fewer epochs)")
    ap.add_argument("--designs", choices=("first", "all"), default="first",
                    help="designs of the first scenes: the first twelve (as the shipped models) or all")
    ap.add_argument("--finetune", default="2x2",
                    help="EPOCHSxCUTS: fine-tune the last classifier on fresh scenes of all training "
                         "designs (0: none)")
    ap.add_argument("--finetune-seed", type=int, default=21, help="seed of those scenes and their patches")
    ap.add_argument("--more-members", default="3:33,3:44",
                    help="EPOCHS:SEED,...: further members trained from scratch on the fine-tune's "
                         "patches (scenes of all training designs), each with its own seed")
    ap.add_argument("--refit", default="3,4",
                    help="members (from 1) fine-tuned last on fresh scenes of all designs with crossed 7s and "
                         "W/D letters (from their checkpoints in --out, else from their files in --export-dir); "
                         "'' for none")
    ap.add_argument("--refit-only", action="store_true",
                    help="only the refit (step 7) of the members in --export-dir, and the zone model after it "
                         "unless --zone-scenes 0: no scenes, detector or other members")
    ap.add_argument("--refit-scenes", type=int, default=1500)
    ap.add_argument("--refit-seed", type=int, default=61)
    ap.add_argument("--refit-epochs", type=int, default=2)
    ap.add_argument("--refit-slant", type=float, default=0.0,
                    help="the share of the refit's scenes photographed at a slant (vision.synth.scene.FAR_EDGE)")
    ap.add_argument("--refit-procedural", type=float, default=0.0,
                    help="the share of the refit's scenes drawn with procedural decks printed in the "
                         "training typefaces (vision.synth.procedural.TRAINING_FACES)")
    ap.add_argument("--refit-anchor", type=float, default=0.0,
                    help="weight of the refit's pull towards each member's starting answers on the "
                         "training designs' patches (a distillation; 0: none)")
    ap.add_argument("--grey-from", type=int, default=3,
                    help="the member (from 1) whose file in --export-dir starts the black-and-white reader, "
                         "fine-tuned on the refit's patches made grey (0: none)")
    ap.add_argument("--grey-epochs", type=int, default=4)
    ap.add_argument("--patch-copies", type=int, default=3,
                    help="jittered copies of each labelled corner in one cut of patches")
    ap.add_argument("--negatives", type=int, default=8, help="'not an index' patches per training scene")
    ap.add_argument("--max-angle", type=float, default=8.0, help="training patches turned by up to this (deg)")
    ap.add_argument("--export-dir", type=Path, default=MODELS, help="where the ONNX files are written")
    ap.add_argument("--zone-scenes", type=int, default=4000,
                    help="scenes for the hand/table zone model, read by the exported models (0: keep the file)")
    ap.add_argument("--detector-from", type=Path,
                    help="a detector checkpoint (.pt) to start the detector step from, instead of "
                         "training one from scratch: e.g. models/corner_detector.pt")
    ap.add_argument("--slant-hours", type=float, default=0.0,
                    help="a last detector pass on scenes partly photographed at a slant (0: none)")
    ap.add_argument("--slant-scenes", type=int, default=3000)
    ap.add_argument("--slant-share", type=float, default=0.4,
                    help="the share of those scenes at a slant (vision.synth.scene.FAR_EDGE)")
    ap.add_argument("--slant-seed", type=int, default=91)
    ap.add_argument("--slant-lr", type=float, default=0.0003)
    ap.add_argument("--skip-detector", action="store_true")
    ap.add_argument("--skip-classifier", action="store_true")
    args = ap.parse_args(argv)
    if args.detector_from and not args.detector_from.exists():
        print(f"piki train: no detector checkpoint at {args.detector_from}", file=sys.stderr)
        return 2
    missing = _missing_packages(args)
    if missing:  # before any scene is made: those take minutes and the training would then stop
        print(f"piki train: the training needs {', '.join(missing)}, not installed here: "
              "pip install -r requirements-train.txt", file=sys.stderr)
        return 2

    import cv2

    cv2.setNumThreads(1)
    from vision.synth.artwork import FIRST_DESIGNS
    from vision.synth.generate import generate

    synth = args.out / "synth"
    if args.refit_only:
        args.skip_detector = args.skip_classifier = True
    elif args.detector_from and args.skip_classifier:
        pass  # the detector alone, from a checkpoint: the first scenes are not needed
    else:
        log(f"scenes: {args.scenes} train + {args.val_scenes} val in {synth}")
        generate(synth, args.scenes, args.val_scenes, args.seed, workers=max(1, args.threads),
                 designs=list(FIRST_DESIGNS) if args.designs == "first" else None)

    if not args.skip_detector:
        from vision.training.detector import export_detector, finetune_detector, train_detector

        device = args.device
        if device == "auto":
            import torch

            device = "0" if torch.cuda.is_available() else "cpu"
        run = dict(device=device, workers=args.workers)
        if args.detector_from:
            weights = args.detector_from
            log(f"the corner detector from {weights}")
        else:
            log(f"training the corner detector on {device}")
            t0 = time.time()
            extra = {"time": args.hours} if args.hours else {}
            weights = train_detector(synth / "data.yaml", args.out, args.epochs, args.imgsz, args.batch,
                                     args.threads, **run, **extra)
            log(f"detector trained in {time.time() - t0:.0f} s: {weights}")
        if args.finetune_hours and not args.detector_from:
            t0 = time.time()
            weights = finetune_detector(weights, synth / "data.yaml", args.out, args.finetune_hours,
                                        args.imgsz, args.batch, args.threads, **run)
            log(f"detector fine-tuned in {time.time() - t0:.0f} s: {weights}")
        if args.refine_hours and not args.detector_from:
            # A last pass at a larger input: the small indices of a 640-px scene are seen at
            # nearly full resolution, as at run time (Detector.imgsz), not halved as at 320.
            t0 = time.time()
            weights = finetune_detector(weights, synth / "data.yaml", args.out, args.refine_hours,
                                        args.refine_imgsz, args.refine_batch, args.threads,
                                        name="detector_refine", lr0=args.refine_lr, **run)
            log(f"detector refined at {args.refine_imgsz} px in {time.time() - t0:.0f} s: {weights}")
        if args.slant_hours:
            slant = args.out / "synth_slant"
            log(f"scenes at a slant: {args.slant_scenes} train + 150 val, {args.slant_share:.0%} slanted, in {slant}")
            generate(slant, args.slant_scenes, 150, args.slant_seed, workers=max(1, args.threads),
                     slant=args.slant_share)
            t0 = time.time()
            weights = finetune_detector(weights, slant / "data.yaml", args.out, args.slant_hours,
                                        args.refine_imgsz, args.refine_batch, args.threads,
                                        name="detector_slant", lr0=args.slant_lr, **run)
            log(f"detector tuned on slanted scenes in {time.time() - t0:.0f} s: {weights}")
        export_detector(weights, args.export_dir / "corner_detector.onnx", args.imgsz)
        log(f"exported {args.export_dir / 'corner_detector.onnx'}")

    if not args.skip_classifier:
        import numpy as np

        from vision.crops import PATCH
        from vision.training.classifier import build_patches, train_classifier

        cache = args.out / "patches.npz"
        data = np.load(cache) if cache.exists() else None
        if data is not None and data["xt"].shape[1] == PATCH:
            sets = [(data["xt"], data["rt"], data["st"])]
            val = (data["xv"], data["rv"], data["sv"])
        else:  # none yet, or cut for another patch size
            log("cutting corner patches")
            sets = [build_patches(synth, "train", args.seed, negatives_per_image=args.negatives,
                                  copies=args.patch_copies, max_angle=args.max_angle)]
            val = build_patches(synth, "val", args.seed + 1)
            np.savez(cache, xt=sets[0][0], rt=sets[0][1], st=sets[0][2], xv=val[0], rv=val[1], sv=val[2])
        members = [tuple(int(v) for v in m.split("x")) for m in args.classifiers.split(",")]
        for k in range(1, max(p for _, p in members)):  # further cuts: fresh jitter, turns, negatives
            sets.append(_patch_set(args, synth, args.seed + 7 * k, args.out / f"patches_set{k}.npz",
                                   f"corner patches, set {k + 1}"))
        for i, (epochs, n_sets) in enumerate(members):
            train = tuple(np.concatenate(parts) for parts in zip(*sets[:n_sets]))
            name = _member_name(i)
            log(f"{name}: {epochs} epochs on {len(train[0])} patches ({n_sets} cuts), {len(val[0])} val patches")
            t0 = time.time()
            model = train_classifier(train, val, args.out, epochs, args.threads, log=log,
                                     hours=args.classifier_hours or None, name=name)
            log(f"{name} trained in {time.time() - t0:.0f} s")
            if i == len(members) - 1 and args.finetune not in ("", "0"):
                model = _finetune_classifier(args, name, val)
            _export_member(args, model, name, i, val)
        more = [tuple(int(v) for v in m.split(":")) for m in args.more_members.split(",") if m]
        train = _finetune_patches(args) if more else None
        for i, (epochs, seed) in enumerate(more, start=len(members)):
            name = f"classifier{i + 1}"
            log(f"{name}: {epochs} epochs on {len(train[0])} patches of all designs, seed {seed}")
            t0 = time.time()
            model = train_classifier(train, val, args.out, epochs, args.threads, log=log, seed=seed,
                                     hours=args.classifier_hours or None, name=name)
            log(f"{name} trained in {time.time() - t0:.0f} s")
            _export_member(args, model, name, i, val)
    refit = [int(m) for m in args.refit.split(",") if m.strip()]
    if (refit or args.grey_from) and (args.refit_only or not args.skip_classifier):
        patches = _refit_patches(args)  # the refit's and the black-and-white reader's
        if refit:
            _refit_members(args, refit, patches)
        if args.grey_from:
            _fit_grey_reader(args, patches)
    if args.zone_scenes > 0:
        _fit_zones(args)
    (args.out / "train_args.json").write_text(json.dumps({k: str(v) for k, v in vars(args).items()}, indent=1))
    return 0


def _fit_zones(args) -> None:
    """Step 8, in a process of its own so that the scanner loads the models of --export-dir."""
    import os
    import subprocess

    log(f"zone model: {args.zone_scenes} scenes")
    env = dict(os.environ, PIKI_MODELS_DIR=str(args.export_dir), PIKI_VISION_THREADS="1")
    subprocess.run([sys.executable, "-m", "vision.training.zones", "--scenes", str(args.zone_scenes),
                    "--out", str(args.out / "zones"), "--models", str(args.export_dir),
                    "--workers", str(max(1, args.threads))], env=env, check=True, cwd=REPO)


def _member_name(index: int) -> str:
    """The run's name of classifier member ``index`` (from 0): its checkpoints and ONNX files in --out."""
    return "classifier" if index == 0 else f"classifier{index + 1}"


def _member_file(index: int) -> str:
    """The shipped file of classifier member ``index`` (from 0), in --export-dir."""
    return "corner_classifier.onnx" if index == 0 else f"corner_classifier_{index + 1}.onnx"


def _export_member(args, model, name: str, index: int, val) -> None:
    """Member ``index`` (from 0) of the classifier ensemble to ONNX, then int8 into --export-dir."""
    from vision.training.classifier import export_classifier, quantize_classifier

    fp32 = export_classifier(model, args.out / f"{name}.onnx")
    out = args.export_dir / _member_file(index)
    quantize_classifier(fp32, out, val[0])
    log(f"exported {out} (int8)")


def _patch_set(args, synth: Path, seed: int, cache: Path, what: str):
    """One cut of training patches from the scenes in ``synth``, kept in ``cache`` (read back when
    it is there already)."""
    import numpy as np

    from vision.training.classifier import build_patches

    if cache.exists():
        data = np.load(cache)
        return data["xt"], data["rt"], data["st"]
    log(f"cutting {what}")
    cut = build_patches(synth, "train", seed, negatives_per_image=args.negatives, copies=args.patch_copies,
                        max_angle=args.max_angle)
    np.savez(cache, xt=cut[0], rt=cut[1], st=cut[2])
    return cut


def _finetune_patches(args):
    """The fine-tune's training patches: fresh scenes of every training design (the designs added
    after the first models), cut ``--finetune``'s CUTS times; rendered and cut once, then read back."""
    import numpy as np

    from vision.synth.generate import generate

    # without a fine-tune, the further members take two cuts, as the fine-tune's default
    n_sets = int((args.finetune if args.finetune not in ("", "0") else "0x2").split("x")[1])
    more = args.out / "synth_more"
    log(f"scenes of all designs: {args.scenes} train in {more}")
    generate(more, args.scenes, 0, args.finetune_seed, workers=max(1, args.threads))
    sets = [_patch_set(args, more, args.finetune_seed + 7 * k, args.out / f"patches_more{k}.npz",
                       f"patches of all designs, set {k + 1}") for k in range(n_sets)]
    return tuple(np.concatenate(parts) for parts in zip(*sets))


def _finetune_classifier(args, name: str, val):
    """The member ``name`` trained further on fresh scenes of every training design (the designs
    added after the first models), one-cycle at a third of the first learning rate."""
    from vision.training.classifier import train_classifier

    epochs = int(args.finetune.split("x")[0])
    train = _finetune_patches(args)
    log(f"{name} fine-tune: {epochs} epochs on {len(train[0])} patches")
    t0 = time.time()
    model = train_classifier(train, val, args.out, epochs, args.threads, log=log, init=args.out / f"{name}_last.pt",
                             max_lr=1e-3, seed=10, name=f"{name}_finetune", hours=args.classifier_hours or None)
    log(f"{name} fine-tuned in {time.time() - t0:.0f} s")
    return model


def _refit_patches(args):
    """The refit's (training, validation) patches: fresh scenes of every training design with the
    variants (vision.synth.variants), rendered and cut once (a resumed run finds them on disk)."""
    import numpy as np

    from vision.synth.generate import generate
    from vision.synth.procedural import deck_seeds, procedural_name
    from vision.training.classifier import build_patches

    synth = args.out / "synth_refit"
    n_proc = round(args.refit_scenes * args.refit_procedural)
    n_real = args.refit_scenes - n_proc
    log(f"scenes of all designs for the refit: {n_real} train, 100 val in {synth}"
        + (f", {args.refit_slant:.0%} at a slant" if args.refit_slant else ""))
    generate(synth, n_real, 100, args.refit_seed, workers=max(1, args.threads), slant=args.refit_slant)
    train = _patch_set(args, synth, args.refit_seed, args.out / "patches_refit.npz", "patches for the refit")
    val = build_patches(synth, "val", 1, negatives_per_image=3, copies=1, max_angle=args.max_angle)
    keep = np.ones(len(train[0]), bool)  # the training designs' patches (the anchor's)
    if n_proc:
        decks = [procedural_name(s) for s in deck_seeds(PROCEDURAL_DECKS, "training", start=PROCEDURAL_FIRST_DECK)]
        proc_dir = args.out / "synth_refit_procedural"
        log(f"scenes of {len(decks)} procedural decks for the refit: {n_proc} train in {proc_dir}")
        generate(proc_dir, n_proc, 0, args.refit_seed + 1, workers=max(1, args.threads), designs=decks,
                 slant=args.refit_slant)
        proc = _patch_set(args, proc_dir, args.refit_seed + 1, args.out / "patches_refit_procedural.npz",
                          "patches of the procedural decks")
        keep = np.concatenate([keep, np.zeros(len(proc[0]), bool)])
        train = tuple(np.concatenate(parts) for parts in zip(train, proc))
    return train, val, keep


def _fit_grey_reader(args, patches) -> None:
    """Step 7b: the black-and-white reader (vision.runtime.GREY_FILE), read in place of the
    ensemble where an image has no colour: member --grey-from's file fine-tuned on the refit's
    (training, validation) ``patches`` seen grey, the batch norms frozen, so that the suits are
    told apart by shape alone."""
    import torch

    from vision.colour import as_grey
    from vision.runtime import GREY_FILE
    from vision.training.classifier import export_classifier, load_exported, quantize_classifier, train_classifier

    train, val, _ = patches
    start = args.out / "grey_start.pt"
    if not start.exists():
        torch.save({"model": load_exported(args.export_dir / _member_file(args.grey_from - 1)).state_dict()}, start)
    log(f"black-and-white reader from member {args.grey_from}: {args.grey_epochs} epochs on {len(train[0])} patches")
    t0 = time.time()
    model = train_classifier(train, val, args.out, args.grey_epochs, args.threads, log=log, init=start,
                             max_lr=1e-3, seed=args.refit_seed + 1, name="grey", frozen_norms=True, grey=True)
    log(f"black-and-white reader trained in {time.time() - t0:.0f} s")
    out = args.export_dir / GREY_FILE
    quantize_classifier(export_classifier(model, args.out / "grey.onnx"), out, as_grey(val[0]))
    log(f"exported {out} (int8)")


def _refit_members(args, members: list[int], patches) -> None:
    """Members fine-tuned on fresh scenes of every training design, with crossed 7s in half of them
    and W/D jacks and queens in a quarter (vision.synth.variants; members trained before the
    variants had never seen them), one cut of patches, at a sixth of the first learning rate, the
    batch norms frozen, on the (training, validation) ``patches`` of :func:`_refit_patches`; then
    exported in place."""
    import numpy as np
    import torch

    from vision.training.classifier import anchor_logits, load_exported, make_model, train_classifier

    train, val, keep = patches
    for k in members:
        name = _member_name(k - 1)
        start = args.out / f"{name}_refit_start.pt"
        if not start.exists():
            # the member's own run when it was trained here, else the shipped file (int8: its
            # weights dequantized; the norms folded, so they stay frozen in either case)
            own = args.out / f"{name}_last.pt"
            if own.exists():
                state = torch.load(own, weights_only=False)["model"]
            else:
                state = load_exported(args.export_dir / _member_file(k - 1)).state_dict()
            torch.save({"model": state}, start)
        anchor = None
        if args.refit_anchor > 0:
            cache = args.out / f"{name}_refit_anchor.npz"
            if not cache.exists():
                log(f"{name}: its starting answers on the training designs' patches (the refit's anchor)")
                first = make_model()
                first.load_state_dict(torch.load(start, weights_only=False)["model"])
                ranks, suits = anchor_logits(first, train[0])
                np.savez(cache, rank=ranks, suit=suits)
            data = np.load(cache)
            anchor = (data["rank"], data["suit"], keep)
        log(f"{name} refit: {args.refit_epochs} epochs on {len(train[0])} patches"
            + (f", anchored at {args.refit_anchor}" if anchor else ""))
        t0 = time.time()
        model = train_classifier(train, val, args.out, args.refit_epochs, args.threads, log=log, init=start,
                                 max_lr=5e-4, seed=args.refit_seed, name=f"{name}_refit", frozen_norms=True,
                                 anchor=anchor, anchor_weight=args.refit_anchor)
        log(f"{name} refit in {time.time() - t0:.0f} s")
        _export_member(args, model, name, k - 1, val)


if __name__ == "__main__":
    sys.exit(main())
