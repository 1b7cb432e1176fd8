"""Card choices of the search with and without inference from the cards played, judged on the
true deal.

    python scripts/decision_probe.py --positions 500 --seed 3 --out FILE.jsonl   # resumes FILE
    python scripts/decision_probe.py --summary FILE.jsonl [FILE.jsonl ...]

Each position is a random hand (random dealer, start scores and bags) played by the rule-based
bot at every seat up to a random card where the seat to act has a choice. The search
(:func:`advisor.search.analyse_play` and :func:`~advisor.search.best_move`, at ``--budget``
seconds) picks a card from that seat's view twice: with the play evidence off, and with
``--mismatch`` factors (:data:`advisor.inference.PLAY_MISMATCH`). Both cards are then valued
double-dummy on the true deal (hand points, ours minus theirs, as the search counts them), and
the loss of each against the best card there is written, one JSON line a position. A smaller
loss means better choices; the double-dummy value of the true deal is a proxy (everybody plays
perfectly afterwards), so this screens a change quickly, it does not replace a match.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor import inference  # noqa: E402
from advisor.bots import get_bot  # noqa: E402
from advisor.cards import Seat  # noqa: E402
from advisor.inference import SampledDeal, played_by  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.search import analyse_play, best_move  # noqa: E402
from advisor.state import HandState, Phase, deal  # noqa: E402
from hand_screen import append_rows, load as load_rows, mean_se  # noqa: E402


def position(seed: int, index: int):
    """(full state, the acting seat's view) of the probe's position ``index``, or None when the
    hand ended before the chosen card."""
    rng = random.Random(f"decision-probe:{seed}:{index}")
    hands = deal(rng)
    dealer = Seat(rng.randrange(4))
    points = (rng.randrange(-100, 400, 10), rng.randrange(-100, 400, 10))
    bags = (rng.randrange(8), rng.randrange(8))
    full = HandState(Rules(), dealer, hands, points, bags)
    views = {s: HandState(Rules(), dealer, {s: hands[s]}, points, bags) for s in hands}
    stop = rng.randrange(5, 46)
    bot = get_bot("heuristic")
    while not full.is_done:
        if full.phase is Phase.PLAY and len(full.plays) >= stop:
            legal = full.legal_mask()
            if legal & (legal - 1):
                return full, views[full.to_act]
        action = bot.act(views[full.to_act].clone())
        full.apply(action)
        for view in views.values():
            view.apply(action)
    return None


def probe(seed: int, index: int, mismatch: dict[str, float], budget: float) -> dict | None:
    found = position(seed, index)
    if found is None:
        return None
    full, view = found
    picks = {}
    saved = inference.PLAY_MISMATCH
    try:
        for name, factors in (("off", {"opponent": 1.0, "partner": 1.0}), ("on", mismatch)):
            inference.PLAY_MISMATCH = factors
            analysis = analyse_play(view.clone(), time_budget=budget, rng=random.Random(index))
            picks[name] = (int(best_move(view, analysis).card), analysis.samples)
    finally:
        inference.PLAY_MISMATCH = saved
    by_seat = played_by(full)
    truth = SampledDeal(tuple(full.held), tuple(full.held[s] | by_seat[s] for s in range(4)))
    exact = analyse_play(view.clone(), deals=[truth], time_budget=60.0, min_samples=1)
    points = {int(m.card): m.points for m in exact.moves}
    top = max(points.values())
    return {"position": index, "plays": len(full.plays), "off": picks["off"][0], "on": picks["on"][0],
            "loss_off": top - points[picks["off"][0]], "loss_on": top - points[picks["on"][0]],
            "deals_off": picks["off"][1], "deals_on": picks["on"][1]}


def load(path: Path) -> dict[int, dict]:
    """The rows of a probe file, by position."""
    return load_rows(path, "position")


def summary(rows: list[dict]) -> str:
    n = len(rows)
    if n < 2:
        return f"{n} positions"
    mean, se = mean_se([r["loss_on"] - r["loss_off"] for r in rows])
    differ = sum(r["on"] != r["off"] for r in rows)
    return (f"{n} positions, {differ} with another card; points lost a decision: off "
            f"{sum(r['loss_off'] for r in rows) / n:.2f}, on {sum(r['loss_on'] for r in rows) / n:.2f}, "
            f"on - off {mean:+.2f} (se {se:.2f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=float, default=0.35, help="seconds a search (the advice's default)")
    ap.add_argument("--mismatch", type=float, nargs=2, default=(0.2, 0.5), metavar=("OPPONENT", "PARTNER"))
    ap.add_argument("--out", type=Path)
    ap.add_argument("--summary", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [r for p in args.summary for r in load(p).values()]
        print(summary(rows))
        return 0
    if args.out is None:
        ap.error("--out FILE is needed to probe (or --summary FILE...)")
    mismatch = {"opponent": args.mismatch[0], "partner": args.mismatch[1]}
    done = append_rows(args.out, range(args.positions),
                       lambda index: probe(args.seed, index, mismatch, args.budget), key="position")
    print(summary(list(done.values())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
