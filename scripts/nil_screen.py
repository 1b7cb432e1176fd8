"""A paired screen of nil play: the same forced nils played out by an engine, deal by deal.

    python scripts/nil_screen.py --deals 100 --seed 1 --out FILE.jsonl   # play (resumes FILE)
    python scripts/nil_screen.py --compare A.jsonl B.jsonl               # two engines, paired

Each deal is random (a random dealer and start score) among those where North's hand is fit for
nil by the trick-counting rules (``can_bid_nil``). North bids nil whatever its advice; South
bids and both play with the ``pimc`` bot of the engine on the path; East and West are the
heuristic bot. One JSON line a deal: whether the nil made, the hand points of both teams, and
the engine's fingerprint. Run it from two checkouts (worktrees) on the same seed to compare
their nil play and cover on the same deals (the bidding of South may differ with the engine).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor.bids import NIL  # noqa: E402
from advisor.bots import get_bot  # noqa: E402
from advisor.bots.heuristic_bid import can_bid_nil  # noqa: E402
from advisor.cards import Seat, cards_to_mask  # noqa: E402
from advisor.match import wilson  # noqa: E402
from advisor.match_checkpoint import engine_fingerprint  # noqa: E402
from advisor.state import deal  # noqa: E402
from hand_screen import append_rows, load, play_out  # noqa: E402


def nil_deal(seed: int, index: int):
    """(dealer, hands, points, bags) of the screen's deal ``index``: North fit for nil."""
    rng = random.Random(f"nil-screen:{seed}:{index}")
    while True:
        hands = deal(rng)
        if can_bid_nil(cards_to_mask(hands[Seat.N])):
            break
    dealer = Seat(rng.randrange(4))
    points = (rng.randrange(-100, 400, 10), rng.randrange(-100, 400, 10))
    bags = (rng.randrange(8), rng.randrange(8))
    return dealer, hands, points, bags


def play(seed: int, index: int, pimc, heuristic) -> dict:
    state = play_out(seed, index, nil_deal(seed, index), pimc, heuristic, forced={Seat.N: NIL})
    ns, ew = state.score()
    nil = next(n for n in ns.nils if n.seat == Seat.N)
    return {"deal": index, "made": bool(nil.made), "bids": list(state.bids),
            "ns_points": ns.hand_points, "ew_points": ew.hand_points, "engine": engine_fingerprint()}


def summary(rows: dict[int, dict]) -> str:
    made = sum(r["made"] for r in rows.values())
    lo, hi = wilson(made, len(rows))
    pts = sum(r["ns_points"] - r["ew_points"] for r in rows.values()) / max(1, len(rows))
    return (f"{len(rows)} nils, made {made} ({made / max(1, len(rows)):.3f}, 95% CI {lo:.3f}-{hi:.3f}); "
            f"hand points N-S minus E-W {pts:+.1f}")


def compare(a: Path, b: Path) -> None:
    ra, rb = load(a), load(b)
    both = sorted(set(ra) & set(rb))
    print(f"{a}: {summary({k: ra[k] for k in both})}")
    print(f"{b}: {summary({k: rb[k] for k in both})}")
    only_a = sum(ra[k]["made"] and not rb[k]["made"] for k in both)
    only_b = sum(rb[k]["made"] and not ra[k]["made"] for k in both)
    n = only_a + only_b
    p = min(1.0, 2 * sum(math.comb(n, i) for i in range(min(only_a, only_b) + 1)) / 2 ** n) if n else 1.0
    print(f"{len(both)} deals in both: made only in the first {only_a}, only in the second {only_b} "
          f"(sign test p = {p:.2f})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    args = ap.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    if args.out is None:
        ap.error("--out FILE is needed to play (or --compare A B)")
    pimc, heuristic = get_bot("pimc"), get_bot("heuristic")
    done = append_rows(args.out, range(args.deals), lambda index: play(args.seed, index, pimc, heuristic),
                       report=lambda rows, i: f"deal {i}: {'made' if rows[i]['made'] else 'set'}; {summary(rows)}")
    print(summary(done))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
