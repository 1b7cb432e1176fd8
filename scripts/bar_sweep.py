"""Card recall and precision of rendered held-out scenes at several reporting bars, from one scan.

    python scripts/bar_sweep.py --render 100 --scale 3 --seed 800000 [--damage dim] [--wider 2] \
        [--bars 0.30,0.33,0.36] [--json OUT]

The detections and the classifiers' reads of each render are computed once; the cards are then
assembled at each bar (``vision.assemble.build_result``'s ``min_conf``), scored as
``python -m vision.evaluate --render`` scores them. How the photo bar (``PHOTO_MIN_CONF``) and the
frame bar (``MIN_CONF``) were chosen: see models/MODEL_CARD.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.evaluate import Tally, rendered_scenes  # noqa: E402
from vision.scan import CardDetector  # noqa: E402
from vision.synth.effects import PHOTO_CONDITIONS  # noqa: E402


def sweep(n: int, seed: int, scale: float, bars: list[float], damage: str | None = None,
          wider: float = 1.0) -> dict[float, dict]:
    det = CardDetector()
    tallies = {b: Tally() for b in bars}
    for img, corners, gt, partial in rendered_scenes(n, None, seed, scale, wider, damage):
        found = det.corners(img)
        for b, tally in tallies.items():
            tally.add(corners, gt, *found, min_conf=b, partial=partial)
    keys = ("cards_true", "cards_false", "cards_missed", "card_recall", "card_precision")
    reports = {b: t.report() for b, t in tallies.items()}
    return {b: {k: r[k] for k in keys} for b, r in reports.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--render", type=int, default=100)
    ap.add_argument("--seed", type=int, default=800_000)
    ap.add_argument("--scale", type=float, default=3.0)
    ap.add_argument("--damage", choices=PHOTO_CONDITIONS)
    ap.add_argument("--wider", type=float, default=1.0)
    ap.add_argument("--bars", default="0.30,0.33,0.36,0.40", help="comma-separated card confidences")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    try:
        bars = sorted(float(b) for b in args.bars.split(","))
    except ValueError:
        ap.error(f"--bars: not a list of numbers: {args.bars!r}")
    res = sweep(args.render, args.seed, args.scale, bars, args.damage, args.wider)
    for b, r in res.items():
        print(f"bar {b:g}: recall {r['card_recall']:.4f} precision {r['card_precision']:.4f} "
              f"(found {r['cards_true']}, missed {r['cards_missed']}, wrong {r['cards_false']})")
    if args.json:
        args.json.write_text(json.dumps({str(b): r for b, r in res.items()}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
