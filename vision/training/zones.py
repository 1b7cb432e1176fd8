"""Train the hand/table zone model on rendered scenes, through the real detector and classifiers.

    python -m vision.training.zones --scenes 4000 --out runs/zones            # collect, fit, write
    python -m vision.training.zones --out runs/zones --fit-only               # refit on what is there
    python -m vision.training.zones --evaluate 200 --seed 1100000             # shipped model vs rule

Each scene (training designs, ``--seed`` + k, at 640 px or as a 1280-1920-px photo) goes through
``CardDetector`` as a user's photo would; the cards it reports that are really in the scene
become examples (the card's features, hand or not). The fit: a one-hidden-layer network
(``vision.zones.ZoneModel``) by full-batch Adam on the log loss, with weight decay, on 80 % of
the scenes; the other 20 % (whole scenes) pick the epoch. Writes ``zone_model.json`` to
``--models`` (default: the shipped models folder).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from ..zones import FEATURES, ZONE_MODEL_FILE, ZoneModel, assign_zones, card_features

SCALES = (1.0, 1.0, 2.0, 3.0)  # 640-px frames and phone-size photos


def scene_examples(seed: int, designs, scale: float, detector=None):
    """(features, is hand, card codes) of the cards the scanner finds in a rendered scene that
    are really there (a misread card has no true zone)."""
    from ..assemble import assign_cards
    from ..scan import CardDetector
    from ..synth.scene import render_scene

    det = detector or CardDetector()
    img, corners = render_scene(seed, list(designs), scale=scale)
    truth = {c.card: c.zone for c in corners}
    boxes, scores, rank_p, suit_p = det.corners(img)
    cards = assign_cards(boxes, scores, rank_p, suit_p, det.bar(img))
    x = card_features(boxes, cards)
    keep = [i for i, c in enumerate(cards) if c.code in truth]
    return x[keep], np.array([truth[cards[i].code] == "hand" for i in keep]), [cards[i].code for i in keep]


def _collect_chunk(job):
    seeds, designs = job
    from ..scan import CardDetector

    det = CardDetector()
    rows = []
    for seed in seeds:
        x, y, _ = scene_examples(seed, designs, SCALES[seed % len(SCALES)], det)
        rows.append((seed, x, y))
    return rows


def collect(n: int, seed: int, designs, workers: int, log=print):
    """Examples from ``n`` scenes: (features, labels, scene ids)."""
    seeds = [seed + k for k in range(n)]
    chunks = [seeds[i:i + 25] for i in range(0, n, 25)]
    xs, ys, ids = [], [], []
    start = time.time()
    with Pool(workers) as pool:
        for done, rows in enumerate(pool.imap(_collect_chunk, [(c, tuple(designs)) for c in chunks]), 1):
            for s, x, y in rows:
                xs.append(x)
                ys.append(y)
                ids.append(np.full(len(y), s))
            log(f"zones: {min(done * 25, n)}/{n} scenes, {time.time() - start:.0f} s")
    return np.concatenate(xs), np.concatenate(ys).astype(float), np.concatenate(ids)


def fit(x: np.ndarray, y: np.ndarray, scenes: np.ndarray, hidden: int = 16, epochs: int = 3000,
        lr: float = 0.01, decay: float = 1e-4, seed: int = 0, log=print) -> ZoneModel:
    """The network with the lowest log loss on the held-back fifth of the scenes."""
    rng = np.random.default_rng(seed)
    held = np.isin(scenes, rng.permutation(np.unique(scenes))[: max(1, len(np.unique(scenes)) // 5)])
    mean, scale = x[~held].mean(0), x[~held].std(0) + 1e-6
    z = (x - mean) / scale
    params = [rng.normal(0, 1 / np.sqrt(z.shape[1]), (z.shape[1], hidden)), np.zeros(hidden),
              rng.normal(0, 1 / np.sqrt(hidden), hidden), np.zeros(1)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    best, best_loss = None, np.inf
    zt, yt = z[~held], y[~held]
    for t in range(1, epochs + 1):
        w1, b1, w2, b2 = params
        h = np.tanh(zt @ w1 + b1)
        p = 1 / (1 + np.exp(-(h @ w2 + b2[0])))
        g = (p - yt) / len(yt)
        gh = np.outer(g, w2) * (1 - h ** 2)
        grads = [zt.T @ gh + decay * w1, gh.sum(0), h.T @ g + decay * w2, np.array([g.sum()])]
        for i, (p_, g_) in enumerate(zip(params, grads)):
            m[i] = 0.9 * m[i] + 0.1 * g_
            v[i] = 0.999 * v[i] + 0.001 * g_ ** 2
            p_ -= lr * (m[i] / (1 - 0.9 ** t)) / (np.sqrt(v[i] / (1 - 0.999 ** t)) + 1e-8)
        if t % 50 == 0 or t == epochs:
            model = ZoneModel(mean, scale, params[0].copy(), params[1].copy(), params[2].copy(), float(params[3][0]))
            ph = np.clip(model.hand_probability(x[held]), 1e-6, 1 - 1e-6)
            loss = float(-np.mean(y[held] * np.log(ph) + (1 - y[held]) * np.log(1 - ph)))
            if loss < best_loss:
                best, best_loss = model, loss
            if t % 500 == 0:
                acc = float(np.mean((ph >= 0.5) == (y[held] > 0.5)))
                log(f"zones: epoch {t}, held-back log loss {loss:.4f}, accuracy {acc:.4f}")
    return best


def evaluate(n: int, seed: int, scales=(1.0, 3.0), log=print) -> dict:
    """Zone accuracy of the cards found right, shipped model against the linking rule alone."""
    from ..assemble import assign_cards
    from ..scan import CardDetector
    from ..synth.artwork import HELD_OUT
    from ..synth.scene import render_scene
    from ..zones import default_model

    det = CardDetector()
    model = default_model()
    out = {}
    for scale in scales:
        right = {"model": 0, "rule": 0}
        total = 0
        for k in range(n):
            img, corners = render_scene(seed + k, list(HELD_OUT), scale=scale)
            truth = {c.card: c.zone for c in corners}
            boxes, scores, rank_p, suit_p = det.corners(img)
            cards = assign_cards(boxes, scores, rank_p, suit_p, det.bar(img))
            total += sum(c.code in truth for c in cards)  # a misread card has no true zone
            for name, m in (("model", model), ("rule", None)):
                assign_zones(boxes, cards, model=m)
                right[name] += sum(truth.get(c.code) == c.zone for c in cards)
        out[f"scale {scale:g}"] = {"cards": total, **{k: round(v / max(1, total), 4) for k, v in right.items()}}
        log(f"zones: scale {scale:g}: {out[f'scale {scale:g}']}")
    return out


def main(argv: list[str] | None = None) -> int:
    from ..runtime import MODELS_DIR
    from ..synth.artwork import training_designs

    ap = argparse.ArgumentParser(description="train the hand/table zone model")
    ap.add_argument("--scenes", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=None,
                    help="first scene's seed (default 4200000 to train, 1100000 to --evaluate)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=Path("runs/zones"))
    ap.add_argument("--models", type=Path, default=Path(MODELS_DIR))
    ap.add_argument("--fit-only", action="store_true", help="refit on the examples already in --out")
    ap.add_argument("--hidden", type=int, default=16)
    ap.add_argument("--epochs", type=int, default=3000)
    ap.add_argument("--evaluate", type=int, default=0, metavar="N",
                    help="only measure: N fresh scenes of the held-out designs per scale")
    args = ap.parse_args(argv)
    if args.evaluate:
        print(json.dumps(evaluate(args.evaluate, 1_100_000 if args.seed is None else args.seed), indent=1))
        return 0
    data = args.out / "examples.npz"
    if not args.fit_only:
        args.out.mkdir(parents=True, exist_ok=True)
        x, y, ids = collect(args.scenes, 4_200_000 if args.seed is None else args.seed, training_designs(),
                            args.workers)
        np.savez_compressed(data, x=x, y=y, scenes=ids, features=np.array(FEATURES))
    elif not data.exists():
        ap.error(f"{data} is not there: collect first (without --fit-only)")
    d = np.load(data)
    if tuple(d["features"]) != FEATURES:
        ap.error(f"{data} holds other features than this version's: collect again")
    print(f"zones: {len(d['y'])} cards from {len(np.unique(d['scenes']))} scenes, {d['y'].mean():.3f} in a hand")
    model = fit(d["x"], d["y"], d["scenes"], hidden=args.hidden, epochs=args.epochs)
    args.models.mkdir(parents=True, exist_ok=True)
    (args.models / ZONE_MODEL_FILE).write_text(json.dumps(model.to_json()) + "\n")
    print(f"zones: wrote {args.models / ZONE_MODEL_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
