"""Random legal full hands per second through the public state API, in one process.

Each hand: a random deal, four random legal bids, 52 random legal cards (``legal_cards`` +
``play``), then ``score()``. Choices come from a seeded ``random.Random``.

    python benchmarks/playouts.py [--seconds 5] [--rules piki] [--seed 1]

The last line is ``piki playouts: <N> hands/s``.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.cards import CARDS, Seat  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.state import HandState  # noqa: E402

SEATS = tuple(Seat)


def playout(rules: Rules, rng: random.Random, dealer: Seat) -> int:
    """One random legal hand; returns NS's hand points (so the work is not optimised away)."""
    deck = list(CARDS)
    rng.shuffle(deck)
    hands = {s: deck[13 * s:13 * s + 13] for s in SEATS}
    state = HandState(rules, dealer, hands)
    choice = rng.choice
    for _ in range(4):
        state.bid(choice(state.legal_bids()))
    for _ in range(52):
        state.play(choice(state.legal_cards()))
    return state.score()[0].hand_points


def run(seconds: float, rules: Rules, seed: int) -> tuple[int, float, int]:
    rng = random.Random(seed)
    hands = 0
    checksum = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(100):
            checksum += playout(rules, rng, SEATS[hands & 3])
            hands += 1
        now = time.perf_counter()
        if now >= deadline:
            return hands, now - start, checksum


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=5.0, help="how long to run (default 5)")
    p.add_argument("--rules", default="piki", help="preset name (default piki)")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    rules = Rules.from_spec(args.rules)
    run(0.3, rules, args.seed)  # warm-up
    hands, elapsed, checksum = run(args.seconds, rules, args.seed)
    print(f"python {platform.python_version()}, rules {args.rules}, {hands} hands in "
          f"{elapsed:.2f} s (checksum {checksum})")
    print(f"piki playouts: {hands / elapsed:.0f} hands/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
