"""How right are the review's marks? The same hands reviewed on few deals and on many.

    python scripts/review_marks.py [--hands 12] [--samples 32] [--reference 256] [--seeds 1,2]

Takes every 37th hand of the fifteenth 500-game run (``benchmarks/matches/...-r15-hands``),
reviews each (all seats, no time budget) once with ``--reference`` deals a card decision as the
reference and once per seed with ``--samples`` deals (a card near the line judged again on
``advisor.advice.REVIEW_SECOND_LOOK_SAMPLES``, as the review does, where that is more), and counts, per ``--z`` (the standard
errors a loss must stand clear by, ``advisor.advice.REVIEW_CLEAR_Z``): the cards marked, how many
of them the reference finds no mistake at all (under 5 points and 0.05 tricks lost), and how many
of the reference's gross mistakes (20 points or 0.3 tricks) they catch; and the points the
review's summaries add up over the hands (:func:`totals`).
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HANDS = ROOT / "benchmarks" / "matches" / "pimc-heuristic-seed11-r15-hands.jsonl.gz"


def hands(n: int, every: int = 37) -> list[dict]:
    out = []
    with gzip.open(HANDS, "rt") as f:
        for i, line in enumerate(f):
            if i % every == 0:
                out.append(json.loads(line)["record"])
            if len(out) >= n:
                break
    return out


def card_decisions(records: list[dict], samples: int, seed: int) -> dict[tuple, dict]:
    """(hand, index) -> the review's card decision, judged on ``samples`` deals."""
    import advisor.advice as advice
    from advisor.record import HandRecord

    advice.REVIEW_CARD_SAMPLES["fixed"] = samples
    out = {}
    for h, r in enumerate(records):
        for d in advice.review_json(HandRecord.from_json(r), seed=seed)["decisions"]:
            if d["kind"] == "play":
                out[(h, d["index"])] = d
    return out


def marked(d: dict, z: float) -> bool:
    """The review's mark rule (``advisor.advice.card_mark``) at ``z`` standard errors, for a
    decision of its JSON (a null error: judged on under two deals)."""
    from advisor.advice import card_mark

    def error(key):
        return math.inf if d[key] is None else d[key]
    return bool(card_mark(d["cost"], error("cost_error"), d["tricks_lost"], error("tricks_lost_error"), z))


def totals(decisions: dict[tuple, dict]) -> str:
    """The card decisions' costs added up as the summaries of the review add them
    (``advisor.advice.seat_tally``: the marked ones, then the others that stand clear of the
    sampling), beside every decision's cost added up (as the summaries did before)."""
    from advisor.advice import seat_tally

    tally = seat_tally(list(decisions.values()))
    shown = tally["points_lost"] + tally["smaller_points_lost"]
    every = sum(d["cost"] for d in decisions.values())
    return f"the summaries' points {shown:.0f} (every decision's cost {every:.0f})"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=12)
    ap.add_argument("--samples", type=int, default=32)
    ap.add_argument("--reference", type=int, default=256)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--z", default="0,1.5,2,2.5")
    args = ap.parse_args(argv)
    records = hands(args.hands)
    ref = card_decisions(records, args.reference, 99)
    fine = {k for k, d in ref.items() if d["cost"] < 5 and d["tricks_lost"] < 0.05}
    gross = {k for k, d in ref.items() if d["cost"] >= 20 or d["tricks_lost"] >= 0.3}
    print(f"{len(ref)} card decisions in {len(records)} hands; the reference ({args.reference} deals) finds"
          f" {len(gross)} gross mistakes", flush=True)
    print(f"reference: {totals(ref)}", flush=True)
    for seed in (int(s) for s in args.seeds.split(",")):
        run = card_decisions(records, args.samples, seed)
        print(f"{args.samples} deals, seed {seed}: {totals(run)}", flush=True)
        for z in (float(x) for x in args.z.split(",")):
            m = {k for k, d in run.items() if marked(d, z)}
            print(f"{args.samples} deals, seed {seed}, z {z}: {len(m)} marked, {len(m & fine)} of them no mistake,"
                  f" {len(m & gross)} of the {len(gross)} gross ones", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
