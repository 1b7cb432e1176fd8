"""Fit the bid model's constants (advisor/bidmodel.py) on double-dummy results of random deals.

    python scripts/fit_bid_model.py [--deals 600] [--nil-deals 600] [--seed 11] [--jobs 2] [--nil-only]

1. Team tricks: random deals, a random first leader, N-S double-dummy tricks; each deal gives two
   rows (N-S and E-W). Least squares of tricks on ``team_features``; prints the weights and the
   root-mean-square error on the last quarter (held out from the fit used for that figure).
2. Nil: random deals where N's hand has ``nil_risk`` <= 1.6, a random first leader; does N's nil
   take a trick double-dummy (partner covering, opponents attacking)? Logistic fit on nil_risk,
   nil_danger and whether the nil bidder leads the first trick.
3. Nil in real play: random deals, one seat whose hand has ``nil_risk`` <= 1.6 bids nil, the
   others bid and all four play as the heuristic bot; the same logistic fit on the outcome.
``--nil-only`` skips the team rows.
Copy the printed numbers into LINEAR_WEIGHTS, LINEAR_PRIOR_SIGMA, NIL_WEIGHTS and NIL_PLAY_WEIGHTS
(the estimate the advice uses is the network of scripts/fit_trick_net.py).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.bidmodel import team_features  # noqa: E402
from advisor.bots.heuristic_bid import nil_danger  # noqa: E402
from advisor.cards import SEATS, cards_to_mask  # noqa: E402
from advisor.handeval import nil_risk  # noqa: E402
from advisor.search import NIL_HOPELESS  # noqa: E402
from advisor.solver import solve  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.state import Phase, deal  # noqa: E402

LIMIT = 3_000_000  # nodes; the rare deal that needs more is skipped


def _masks(rng: random.Random) -> tuple[int, ...]:
    hands = deal(rng)
    return tuple(cards_to_mask(hands[s]) for s in SEATS)


def team_row(seed: int):
    """Deal ``fit-team:seed``: (the four hands' masks, the first leader, N–S double-dummy tricks),
    or None when the solve runs over LIMIT (scripts/fit_trick_net.py fits on the same deals)."""
    rng = random.Random(f"fit-team:{seed}")
    masks = _masks(rng)
    leader = rng.randrange(4)
    ns = solve(masks, leader, [], False, False, 0b0101, 0b0101, node_limit=LIMIT)
    return None if ns is None else (masks, leader, ns)


def nil_row(seed: int):
    rng = random.Random(f"fit-nil:{seed}")
    while True:
        masks = _masks(rng)
        if nil_risk(masks[0]) <= NIL_HOPELESS:
            break
    leader = rng.randrange(4)
    took = solve(masks, leader, [], False, False, 0b0001, 0b1010, cap=1, node_limit=LIMIT)
    return None if took is None else (masks[0], took == 0, leader == 0)


def nil_play_row(seed: int):
    from advisor.bids import is_nil
    from advisor.bots.heuristic_bid import choose_bid
    from advisor.bots.heuristic_play import choose_card
    from advisor.cards import Seat
    from advisor.state import HandState

    rng = random.Random(f"fit-nil-play:{seed}")
    while True:
        hands = deal(rng)
        seats = [s for s in SEATS if nil_risk(cards_to_mask(hands[s])) <= NIL_HOPELESS]
        if seats:
            break
    nil_seat = rng.choice(seats)
    dealer = Seat(rng.randrange(4))
    state = HandState(Rules(), dealer, hands)
    views = {s: HandState(Rules(), dealer, {s: hands[s]}) for s in SEATS}
    while not state.is_done:
        seat = state.to_act
        if state.phase is Phase.BIDDING:
            action = 0 if seat == nil_seat else choose_bid(views[seat])
            if seat != nil_seat and (is_nil(action) and seat == nil_seat.partner or action < 0):
                action = 1  # one nil per team, and no blind nil
        else:
            action = choose_card(views[seat])
        state.apply(action)
        for v in views.values():
            v.apply(action)
    return cards_to_mask(hands[nil_seat]), state.tricks[nil_seat] == 0, state.first == nil_seat


def fit_team(rows) -> None:
    x, y = [], []
    for masks, _leader, ns in rows:
        x += [team_features(masks[0], masks[2]), team_features(masks[1], masks[3])]
        y += [ns, 13 - ns]
    x, y = np.array(x), np.array(y, float)
    cut = int(len(y) * 0.75) // 2 * 2
    w, *_ = np.linalg.lstsq(x[:cut], y[:cut], rcond=None)
    rmse = float(np.sqrt(np.mean((y[cut:] - x[cut:] @ w) ** 2)))
    w, *_ = np.linalg.lstsq(x, y, rcond=None)
    print(f"team rows {len(y)}, held-out rmse {rmse:.3f} (tricks sd {y.std():.3f})")
    print("LINEAR_WEIGHTS =", tuple(round(float(v), 4) for v in w))
    print(f"LINEAR_PRIOR_SIGMA = {rmse:.3f}")


def fit_nil(rows, name: str = "NIL_WEIGHTS") -> None:
    x = np.array([[1.0, nil_risk(m), nil_danger(m), float(leads)] for m, _, leads in rows])
    y = np.array([ok for _, ok, _ in rows], float)
    w = np.zeros(4)
    for _ in range(20000):  # plain gradient ascent on the log-likelihood: 4 parameters
        p = 1 / (1 + np.exp(-x @ w))
        w += 0.05 * x.T @ (y - p) / len(y)
    print(f"nil rows {len(y)}, made {y.mean():.3f}")
    print(f"{name} =", tuple(round(float(v), 3) for v in w))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=600)
    ap.add_argument("--nil-deals", type=int, default=600)
    ap.add_argument("--nil-plays", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--nil-only", action="store_true", help="fit the nil weights only")
    args = ap.parse_args()
    with multiprocessing.Pool(args.jobs) as pool:
        base = args.seed * 1_000_000
        deals = 0 if args.nil_only else args.deals
        team = [r for r in pool.map(team_row, range(base, base + deals), chunksize=8) if r]
        nil = [r for r in pool.map(nil_row, range(base, base + args.nil_deals), chunksize=8) if r]
        played = pool.map(nil_play_row, range(base, base + args.nil_plays), chunksize=32)
    if team:
        fit_team(team)
    fit_nil(nil)
    fit_nil(played, "NIL_PLAY_WEIGHTS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
