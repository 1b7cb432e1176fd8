"""Measure the blind-nil figures that the bid advice uses (``advisor/blind_nil.py``).

    python scripts/blind_nil_table.py [--deals 400] [--seed 7]

Random deals, N the blind-nil bidder (N deals and leads, ``piki``), S its partner. For each deal:
does N take no trick against the best defence while S covers (double dummy, capped search), and
how many tricks S takes alone; S bids its hand by the trick-count estimate. Also the points of
looking instead: N and S each bid their estimate. Prints the figures as Python constants.
"""

from __future__ import annotations

import argparse
import random

from advisor.cards import Seat, cards_to_mask
from advisor.handeval import estimate_tricks
from advisor.rules import Rules
from advisor.scoring import score_hand
from advisor.solver import solve
from advisor.state import deal


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rules = Rules()
    made = 0
    blind_points = 0.0
    look_points = 0.0
    n = 0
    for _ in range(args.deals):
        h = deal(rng)
        hands = tuple(cards_to_mask(h[Seat(s)]) for s in range(4))
        common = dict(hands=hands, to_act=0, trick=[], spades_broken=False, allspade_lead_breaks=False)
        nil = solve(**common, count_seats=0b0001, maximizer_seats=0b1010, cap=1, node_limit=20_000_000)
        alone = solve(**common, count_seats=0b0100, maximizer_seats=0b0101, node_limit=20_000_000)
        team = solve(**common, count_seats=0b0101, maximizer_seats=0b0101, node_limit=20_000_000)
        if nil is None or alone is None or team is None:
            continue
        n += 1
        made += nil == 0
        s_bid = max(1, min(13, round(estimate_tricks(hands[2]))))
        n_bid = max(1, min(13, round(estimate_tricks(hands[0]))))
        blind = score_hand(rules, (-1, 3, s_bid, 3), (0 if nil == 0 else 1, 3, alone, 3))[0]
        look = score_hand(rules, (n_bid, 3, s_bid, 3), (team, 3, 0, 3))[0]
        blind_points += blind.hand_points
        look_points += look.hand_points
    print(f"# {n} deals, seed {args.seed}")
    print(f"SUCCESS = {made / n:.3f}")
    print(f"BLIND_POINTS = {blind_points / n:.1f}  # team hand points with blind nil ±200")
    print(f"LOOK_POINTS = {look_points / n:.1f}  # team hand points when both partners bid their hands")


if __name__ == "__main__":
    main()
