"""How often a bid's nil search is cut short at the engine's node limits, and what the cut ones are.

    python scripts/bid_nil_cuts.py [--hands 40] [--seed 5000] [--dealer E] [--bids '{}'] [--time 0.7]

Random hands fit for nil (a double-dummy nil prior of at least 0.25) for East, the bid advice's
deal sampling and solving at its usual budget (``advisor.search.bid_samples``; run with
``PIKI_ADVISOR_THREADS=1`` for a match's conditions). Every nil search the bid makes ("does the
nil take a trick?") is recorded; each one cut short at its node limit is solved again to the end.
One JSON line a hand, then the totals: searches, nils that make within the limit, cut short, and
of those how many really make — the share ``advisor.search.NIL_CUT_MADE`` counts them as.
``--dealer`` and ``--bids`` place East in the bidding (the dealer bids first and leads).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor import search  # noqa: E402
from advisor.bidmodel import nil_prior  # noqa: E402
from advisor.cards import Seat, cards_to_mask  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from advisor.state import deal  # noqa: E402

TO_THE_END = 30_000_000  # nodes for solving a cut-short search again


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--dealer", default="E")
    ap.add_argument("--bids", default="{}", help="bids before East's, as in a hand record")
    ap.add_argument("--time", type=float, default=0.7, help="seconds a bid (the advice's default)")
    args = ap.parse_args(argv)
    searched: list[tuple[dict, int | None]] = []
    solve = search.solve

    def recording(**kw):
        v = solve(**kw)
        if kw.get("cap") == 1:
            searched.append((kw, v))
        return v

    search.solve = recording  # the bid's own searches, recorded as they run
    try:
        rows, i = [], 0
        while len(rows) < args.hands:
            rng = random.Random(args.seed + i)
            i += 1
            hand = deal(rng)[Seat.E]
            if nil_prior(cards_to_mask(hand)) < 0.25:
                continue
            record = HandRecord.from_json({"dealer": args.dealer, "hands": {"E": [str(c) for c in hand]},
                                           "bids": json.loads(args.bids), "plays": []})
            searched.clear()
            model = search.bid_samples(replay(record), time_budget=args.time, rng=random.Random(i))
            cut = [kw for kw, v in searched if v is None]
            again = [solve(**{**kw, "node_limit": TO_THE_END, "fresh": True}) for kw in cut]
            row = {"searches": len(searched), "made": sum(v == 0 for _, v in searched), "cut": len(cut),
                   "cut_made": sum(v == 0 for v in again), "cut_unknown": sum(v is None for v in again),
                   "limits": [kw["node_limit"] for kw in cut], "nil_p": round(model.nil_p, 3)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        search.solve = solve
    total = {k: sum(r[k] for r in rows) for k in ("searches", "made", "cut", "cut_made", "cut_unknown")}
    print(f"{total['searches']} nil searches: {total['made']} nils make within the limit, {total['cut']} cut"
          f" short, of which {total['cut_made']} make when solved to the end"
          f" ({total['cut_made'] / max(1, total['cut'] - total['cut_unknown']):.2f};"
          f" {total['cut_unknown']} still unsolved); made share counting a cut one as busted"
          f" {total['made'] / max(1, total['searches']):.3f}, solved to the end"
          f" {(total['made'] + total['cut_made']) / max(1, total['searches']):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
