"""Train the team-tricks network (advisor/tricknet.py) on double-dummy results of random deals.

    python scripts/fit_trick_net.py generate --out deals.jsonl [--start 20000000] [--count 20000]
    python scripts/fit_trick_net.py fit deals.jsonl [more.jsonl ...] [--epochs 40] [--seed 1]
        [--save advisor/data/team_tricks.npz]

``generate`` solves random deals (a random first leader, spades unbroken, N-S double-dummy
tricks), one JSON line a deal, appending to ``--out`` and skipping the seeds already there, so it
can be stopped and run again. The deals are those of ``scripts/fit_bid_model.py`` (seed
``fit-team:N``). ``fit`` holds out every deal whose seed ends in 0 or 1 (a fifth), trains with
the side suits permuted and the partners swapped, prints the held-out root-mean-square error
next to the linear estimate's, and saves the weights and the error (``PRIOR_SIGMA``).

The shipped weights (2026-12-01): 21,082 deals (those of seeds 20,000,000-20,010,984 and
20,100,000-20,110,567 that solve within the node limit; about 40 minutes on two cores):

    python scripts/fit_trick_net.py generate --out a.jsonl --start 20000000 --count 10985
    python scripts/fit_trick_net.py generate --out b.jsonl --start 20100000 --count 10568
    python scripts/fit_trick_net.py fit a.jsonl b.jsonl --epochs 20 --save advisor/data/team_tricks.npz

held-out root-mean-square error 0.872 tricks (4,211 deals; the linear estimate 1.008, the spread
of the tricks 2.578); 5 minutes of training on one core.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor import tricknet  # noqa: E402


def deal_row(seed: int) -> dict | None:
    """A solved deal as a JSON row: the same deals (and solves) as the linear fit's."""
    from fit_bid_model import team_row

    row = team_row(seed)
    if row is None:
        return None
    masks, leader, ns = row
    return {"seed": seed, "masks": list(masks), "leader": leader, "ns": ns}


def generate(out: str, start: int, count: int) -> None:
    done = set()
    if os.path.exists(out):
        with open(out) as f:
            done = {json.loads(line)["seed"] for line in f if line.strip()}
    t0, n = time.time(), 0
    with open(out, "a") as f:
        for seed in range(start, start + count):
            if seed in done:
                continue
            row = deal_row(seed)
            if row is not None:
                f.write(json.dumps(row) + "\n")
                f.flush()
            n += 1
            if n % 500 == 0:
                print(f"{n} deals, {n / (time.time() - t0):.1f}/s", flush=True)


def load(paths: list[str]) -> list[dict]:
    rows = {}
    for p in paths:
        with open(p) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    rows[r["seed"]] = r
    return [rows[k] for k in sorted(rows)]


def team_rows(rows: list[dict]):
    """Both partnerships of every deal: masks a, b, who leads, tricks."""
    a, b, la, lb, y = [], [], [], [], []
    for r in rows:
        m, lead = r["masks"], r["leader"]
        for s, t in ((0, r["ns"]), (1, 13 - r["ns"])):
            a.append(m[s]); b.append(m[s + 2])
            la.append(lead == s); lb.append(lead == s + 2)
            y.append(t)
    return (np.array(a, np.uint64), np.array(b, np.uint64), np.array(la, np.float32),
            np.array(lb, np.float32), np.array(y, np.float32))


def augment(x: np.ndarray, y: np.ndarray):
    """Every permutation of the side suits, and the partners swapped: 12 copies."""
    xs = []
    for perm in itertools.permutations((1, 2, 3)):
        order = np.concatenate([np.arange(13)] + [np.arange(13 * s, 13 * s + 13) for s in perm])
        cols = np.concatenate([order, 52 + order, [104, 105]])
        p = x[:, cols]
        xs.append(p)
        xs.append(np.concatenate([p[:, 52:104], p[:, :52], p[:, [105]], p[:, [104]]], axis=1))
    return np.concatenate(xs), np.tile(y, len(xs))


def init(rng: np.random.Generator, hidden: tuple[int, int]) -> dict:
    h1, h2 = hidden
    he = lambda n, m: (rng.standard_normal((n, m)) * np.sqrt(2.0 / n)).astype(np.float32)  # noqa: E731
    return {"w1": he(tricknet.FEATURES, h1), "b1": np.zeros(h1, np.float32),
            "w2": he(h1, h2), "b2": np.zeros(h2, np.float32),
            "w3": he(h2, 1)[:, 0] * 0.5, "b3": np.array(6.5, np.float32)}


def grads(p: dict, x: np.ndarray, y: np.ndarray):
    z1 = x @ p["w1"] + p["b1"]; h1 = np.maximum(z1, 0)
    z2 = h1 @ p["w2"] + p["b2"]; h2 = np.maximum(z2, 0)
    out = h2 @ p["w3"] + p["b3"]
    d = 2 * (out - y) / len(y)
    g = {"w3": h2.T @ d, "b3": np.array(d.sum(), np.float32)}
    dh2 = np.outer(d, p["w3"]) * (z2 > 0)
    g["w2"] = h1.T @ dh2; g["b2"] = dh2.sum(0)
    dh1 = (dh2 @ p["w2"].T) * (z1 > 0)
    g["w1"] = x.T @ dh1; g["b1"] = dh1.sum(0)
    return g, float(np.mean((out - y) ** 2))


def train(x, y, xv, yv, epochs: int, seed: int, hidden=(96, 48), lr=2e-3, batch=256, decay=1e-5):
    rng = np.random.default_rng(seed)
    p = init(rng, hidden)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(w) for k, w in p.items()}
    step, best = 0, (float("inf"), None)
    steps = epochs * (len(y) // batch)
    for ep in range(epochs):
        order = rng.permutation(len(y))
        for i in range(0, len(y) - batch + 1, batch):
            idx = order[i:i + batch]
            g, _ = grads(p, x[idx], y[idx])
            step += 1
            rate = lr * 0.5 * (1 + np.cos(np.pi * step / steps))  # cosine decay to 0
            for k in p:
                gk = g[k] + (decay * p[k] if k.startswith("w") else 0)
                m[k] = 0.9 * m[k] + 0.1 * gk
                v[k] = 0.999 * v[k] + 0.001 * gk * gk
                p[k] -= rate * (m[k] / (1 - 0.9 ** step)) / (np.sqrt(v[k] / (1 - 0.999 ** step)) + 1e-8)
        rmse = float(np.sqrt(np.mean((np.clip(tricknet.forward(p, xv), 0, 13) - yv) ** 2)))
        print(f"epoch {ep + 1}/{epochs}: held-out rmse {rmse:.4f}", flush=True)
        if rmse < best[0]:
            best = (rmse, {k: w.copy() for k, w in p.items()})
    return best


def fit(paths: list[str], epochs: int, seed: int, save: str | None, hidden: tuple[int, int]) -> None:
    from advisor.bidmodel import linear_team_tricks_estimate

    rows = load(paths)
    held = [r for r in rows if r["seed"] % 10 in (0, 1)]
    fit_rows = [r for r in rows if r["seed"] % 10 not in (0, 1)]
    a, b, la, lb, y = team_rows(fit_rows)
    av, bv, lav, lbv, yv = team_rows(held)
    x, xv = tricknet.encode(a, b, la, lb), tricknet.encode(av, bv, lav, lbv)
    lin = np.array([linear_team_tricks_estimate(int(p), int(q)) for p, q in zip(av, bv)])
    print(f"deals: {len(fit_rows)} to fit, {len(held)} held out; tricks sd {yv.std():.3f}; "
          f"linear estimate rmse {np.sqrt(np.mean((lin - yv) ** 2)):.4f}", flush=True)
    xa, ya = augment(x, y)
    rmse, params = train(xa, ya, xv, yv, epochs, seed, hidden)
    print(f"network {hidden}: held-out rmse {rmse:.4f}")
    if save:
        Path(save).parent.mkdir(parents=True, exist_ok=True)
        np.savez(save, **params, rmse=np.array(rmse, np.float32))
        print(f"saved {save}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("generate")
    g.add_argument("--out", required=True)
    g.add_argument("--start", type=int, default=20_000_000)
    g.add_argument("--count", type=int, default=20_000)
    f = sub.add_parser("fit")
    f.add_argument("data", nargs="+")
    f.add_argument("--epochs", type=int, default=40)
    f.add_argument("--seed", type=int, default=1)
    f.add_argument("--hidden", default="96,48")
    f.add_argument("--save")
    args = ap.parse_args()
    if args.cmd == "generate":
        generate(args.out, args.start, args.count)
    else:
        h = tuple(int(v) for v in args.hidden.split(","))
        fit(args.data, args.epochs, args.seed, args.save, h)
    return 0


if __name__ == "__main__":
    sys.exit(main())
