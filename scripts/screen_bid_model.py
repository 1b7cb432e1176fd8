"""A low-variance screen for changes to the bid model: how well it predicts the team's tricks.

    python scripts/screen_bid_model.py [--positions 150] [--solves 8] [--seed 1] [--estimate net|linear]

Random deals, a random dealer; the heuristic bot bids for the seats before a random seat, which
then asks the advice's bid model (``advisor.search.bid_samples``, a fixed number of solved deals
so that machine load does not change it) for its team's trick distribution. The truth is the
team's double-dummy tricks on the real deal from the first lead. Prints the mean log-likelihood
of the truth under the model's distribution (higher is better), the mean absolute error of its
mean, and how often the truth is at least the model's 13%-quantile (the points-optimal contract
sits near it: one more trick bid pays only above P(make) = 0.87). A paired comparison: every
estimate sees the same deals, samples and solves.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor import bidmodel, search  # noqa: E402
from advisor.bids import is_nil  # noqa: E402
from advisor.bots.heuristic_bid import choose_bid  # noqa: E402
from advisor.cards import SEATS, Seat, cards_to_mask  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.solver import solve  # noqa: E402
from advisor.state import HandState, deal  # noqa: E402
from advisor.view import seat_view  # noqa: E402


def position(seed: int):
    """A hand in its bidding, the seat to act, and that team's double-dummy tricks."""
    rng = random.Random(f"screen-bid:{seed}")
    hands = deal(rng)
    dealer = Seat(rng.randrange(4))
    state = HandState(Rules(), dealer, hands)
    for _ in range(rng.randrange(4)):
        action = choose_bid(seat_view(state, Seat(state.to_act)))
        state.apply(action if action >= 0 else 1)  # no blind nil here
    seat = int(state.to_act)
    masks = [cards_to_mask(hands[s]) for s in SEATS]
    team = 0b0101 << (seat & 1)
    truth = solve(masks, int(state.first), [], False, False, team, team, node_limit=5_000_000)
    return state, seat, truth


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=150)
    ap.add_argument("--solves", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--estimate", choices=("net", "linear"), default="net")
    args = ap.parse_args()
    if args.estimate == "linear":
        search.team_tricks_estimates = bidmodel.linear_team_tricks_estimates
        bidmodel.PRIOR_SIGMA = bidmodel.LINEAR_PRIOR_SIGMA
    loglik, abs_err, made, n, skipped = 0.0, 0.0, 0, 0, 0
    for i in range(args.positions):
        state, seat, truth = position(args.seed * 100_000 + i)
        if truth is None or any(is_nil(b) for b in state.bids if b is not None):
            skipped += 1  # a nil in the bidding changes what the team's tricks mean
            continue
        view = seat_view(state, Seat(seat))
        model = search.bid_samples(view, time_budget=60.0, max_samples=args.solves, min_samples=args.solves,
                                   rng=random.Random(i))
        dist = [0.0] * 14
        for m in model.means:
            for t, p in enumerate(bidmodel.trick_distribution(m, model.sigma)):
                dist[t] += p / len(model.means)
        loglik += math.log(max(dist[truth], 1e-6))
        abs_err += abs(model.team_tricks - truth)
        cum, q13 = 0.0, 0
        for t in range(13, -1, -1):  # the most tricks the team makes with probability >= 0.87
            cum += dist[t]
            if cum >= 0.87:
                q13 = t
                break
        made += truth >= q13
        n += 1
    print(f"estimate {args.estimate}: {n} positions ({skipped} skipped), solves {args.solves}")
    print(f"  mean log-likelihood of the truth {loglik / n:.4f}")
    print(f"  mean absolute error of the mean  {abs_err / n:.3f}")
    print(f"  truth >= the 87%-sure contract   {made / n:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
