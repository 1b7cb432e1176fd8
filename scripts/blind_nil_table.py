"""Measure the blind-nil figures that the bid advice uses (``advisor/blind_nil.py``).

    python scripts/blind_nil_table.py [--deals 3000] [--after-deals 12000] [--seed 7]

Random deals played out by the heuristic bot at all four seats, each seat deciding from its own
view (so the defenders do not see the nil's cards, as at a real table). N–S trail by 200, so N
may bid blind nil. Each deal is played twice: once with N bidding blind nil (the others bid as
the bot does), once with N looking and bidding as the bot does.

Two situations, because the partner's bid changes the odds a great deal (a partner who bid nil
cannot cover; one who bid six usually can):

* N bids first (N deals): the partner S bids after hearing the blind nil;
* S bids first (S deals): N decides knowing S's bid; the figures are kept per S's bid
  (nil, 1, 2, 3, 4, 5, six or more). S's bid is the same in both plays of a deal.

Prints the figures as Python constants for ``advisor/blind_nil.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics

from advisor.bids import BLIND_NIL
from advisor.blind_nil import partner_key
from advisor.bots import get_bot
from advisor.cards import Seat
from advisor.rules import Rules
from advisor.state import HandState, deal
from advisor.view import seat_view


def play(rules: Rules, dealer: Seat, hands, blind: bool, bot) -> HandState:
    st = HandState(rules, dealer, hands, points_before=(0, 200))
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


def measure(rules: Rules, dealer: Seat, deals: int, rng: random.Random, bot) -> dict[str, list[tuple]]:
    """Per partner key ("any" when the partner bids after N): one (made, blind nil's points,
    team points, team points when looking) per deal."""
    rows: dict[str, list[tuple]] = {}
    for _ in range(deals):
        hands = deal(rng)
        blind = play(rules, dealer, hands, True, bot)
        team = blind.score()[0]
        own = next(n for n in team.nils if n.seat == int(Seat.N))
        look = play(rules, dealer, hands, False, bot).score()[0]
        key = "any" if dealer == Seat.N else partner_key(blind.bids[int(Seat.S)])
        rows.setdefault(key, []).append((own.made, own.points, team.hand_points, look.hand_points))
    return rows


def odds_line(rows: list[tuple]) -> str:
    """``BlindNilOdds(...)`` source for one situation's deals."""
    partner = [team - own for _, own, team, _ in rows]
    look = [lk for *_, lk in rows]
    made = sum(m for m, *_ in rows) / len(rows)
    return (f"BlindNilOdds(deals={len(rows)}, success={made:.3f}, "
            f"partner_points={statistics.fmean(partner):.1f}, partner_sd={statistics.pstdev(partner):.1f}, "
            f"look_points={statistics.fmean(look):.1f}, look_sd={statistics.pstdev(look):.1f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=3000, help="deals with N bidding first")
    ap.add_argument("--after-deals", type=int, default=12000, help="deals with N bidding after S")
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rules = Rules()
    bot = get_bot("heuristic")
    first = measure(rules, Seat.N, args.deals, rng, bot)["any"]
    after = measure(rules, Seat.S, args.after_deals, rng, bot)
    print(f"# scripts/blind_nil_table.py --deals {args.deals} --after-deals {args.after_deals} --seed {args.seed}")
    print(f"BEFORE_PARTNER = {odds_line(first)}")
    print("AFTER_PARTNER = {")
    for key in ("nil", "1", "2", "3", "4", "5", "6"):
        if key in after:
            print(f'    "{key}": {odds_line(after[key])},')
    print("}")


if __name__ == "__main__":
    main()
