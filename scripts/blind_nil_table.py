"""Measure the blind-nil figures that the bid advice uses (``advisor/blind_nil.py``).

    python scripts/blind_nil_table.py [--deals 4000] [--seed 7]

Random deals played out by the heuristic bot at all four seats, each seat deciding from its own
view (so the defenders do not see the nil's cards, as at a real table). N–S trail by 200, so N
may bid blind nil. Each deal is played twice: once with N bidding blind nil (the others bid as
the bot does), once with N looking and bidding as the bot does. Prints the figures as Python
constants for ``advisor/blind_nil.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics

from advisor.bids import BLIND_NIL
from advisor.bots import get_bot
from advisor.cards import Seat
from advisor.rules import Rules
from advisor.state import HandState, deal
from advisor.view import seat_view


def play(rules: Rules, hands, blind: bool, bot) -> HandState:
    st = HandState(rules, Seat.N, hands, points_before=(0, 200))
    views = {s: seat_view(st, s) for s in Seat}
    while not st.is_done:
        seat = st.to_act
        if blind and st.phase.value == "bidding" and seat == Seat.N:
            action = BLIND_NIL
        else:
            action = bot.act(views[seat])
        st.apply(action)
        for v in views.values():
            v.apply(action)
    return st


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rules = Rules()
    bot = get_bot("heuristic")
    made = 0
    blind_points: list[float] = []
    partner_points: list[float] = []
    look_points: list[float] = []
    for _ in range(args.deals):
        hands = deal(rng)
        b = play(rules, hands, True, bot).score()[0]
        made += b.nils[0].made
        blind_points.append(b.hand_points)
        partner_points.append(b.hand_points - sum(n.points for n in b.nils))
        look_points.append(play(rules, hands, False, bot).score()[0].hand_points)
    n = args.deals
    print(f"# scripts/blind_nil_table.py --deals {n} --seed {args.seed}")
    print(f"DEALS = {n}")
    print(f"SUCCESS = {made / n:.3f}")
    print(f"BLIND_POINTS = {statistics.fmean(blind_points):.1f}")
    print(f"PARTNER_POINTS = {statistics.fmean(partner_points):.1f}")
    print(f"PARTNER_SD = {statistics.pstdev(partner_points):.1f}")
    print(f"LOOK_POINTS = {statistics.fmean(look_points):.1f}")
    print(f"LOOK_SD = {statistics.pstdev(look_points):.1f}")


if __name__ == "__main__":
    main()
