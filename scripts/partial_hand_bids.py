"""How close the bid advice for a hand with one card missing comes to the whole hand's advice.

A scan that misses a card leaves the advice 12 cards. For random first-seat hands this asks the
bid advice three times: with the whole hand, with one card dropped at random (the rest of the hand
is sampled from the unseen cards), and with no hand at all (the bid for a hand not looked at),
and counts how often each gives the whole hand's bid.

    python scripts/partial_hand_bids.py [--hands 60] [--seed 1000] [--time 0.7]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.advice import bid_json  # noqa: E402
from advisor.cards import Seat  # noqa: E402
from advisor.record import HandRecord  # noqa: E402
from advisor.state import deal  # noqa: E402


def tricks(bid) -> int:
    return 0 if bid == "blind_nil" else int(bid)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--time", type=float, default=None, help="seconds a bid (default: the advice's)")
    args = ap.parse_args(argv)
    rows = []
    for i in range(args.hands):
        rng = random.Random(args.seed + i)
        whole = [str(c) for c in deal(rng)[Seat.N]]
        drop = rng.randrange(13)
        row = {}
        for name, hand in (("whole", whole), ("partial", whole[:drop] + whole[drop + 1:]), ("unseen", [])):
            record = HandRecord.from_json({"dealer": "N", "hands": {"N": hand} if hand else {}, "bids": {},
                                           "plays": []})
            row[name] = bid_json(record, time_budget=args.time, seed=i)["bid"]
        rows.append(row)
        print(json.dumps(row), flush=True)
    n = len(rows)
    for name in ("partial", "unseen"):
        same = sum(r[name] == r["whole"] for r in rows)
        diffs = [tricks(r[name]) - tricks(r["whole"]) for r in rows]
        print(f"{name}: the whole hand's bid {same} of {n}, mean |difference| {sum(map(abs, diffs)) / n:.2f},"
              f" mean difference {sum(diffs) / n:+.2f}, nils {sum(r[name] == 0 for r in rows)}"
              f" (whole hands {sum(r['whole'] == 0 for r in rows)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
