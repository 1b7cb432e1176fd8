"""Latency of the advice logic behind ``piki play`` and ``piki bid`` (the library calls, in process).

    python benchmarks/advice.py [--positions 40] [--seed 1] [--play-budget S] [--bid-budget S]

Random deals; bid positions at every seat of the bidding, play positions at random points of
hands played by random legal cards. Prints p50/p95/max per kind; goals: card p95 ≤ 0.5 s, bid
p95 ≤ 1 s on 2 cores. A third kind, "play, live nil" (``--nil-positions``, default 20): cards in
the first three tricks of hands where a seat whose hand fits a nil (the rule-based bot's test)
bid it and has taken no trick yet; every such card also searches the nil, the slowest case.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from advisor.advice import bid_json, play_json
from advisor.bots.heuristic_bid import can_bid_nil
from advisor.cards import Seat, cards_to_mask
from advisor.rules import Rules
from advisor.state import HandState, deal
from advisor.view import seat_record


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--play-budget", type=float, default=None)
    ap.add_argument("--bid-budget", type=float, default=None)
    ap.add_argument("--nil-positions", type=int, default=20)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    bid_times: list[float] = []
    play_times: list[float] = []
    for i in range(args.positions):
        st = HandState(Rules(), Seat(i % 4), deal(rng))
        for _ in range(rng.randrange(4)):
            st.bid(rng.choice([1, 2, 3, 4, 0]))
        rec = seat_record(st, st.to_act)
        t = time.perf_counter()
        bid_json(rec, time_budget=args.bid_budget, seed=i)
        bid_times.append(time.perf_counter() - t)
        while st.phase.value == "bidding":
            st.bid(rng.choice([2, 3, 4]))
        for _ in range(rng.randrange(52)):
            st.play(rng.choice(st.legal_cards()))
        rec = seat_record(st, st.to_act)
        t = time.perf_counter()
        play_json(rec, time_budget=args.play_budget, seed=i)
        play_times.append(time.perf_counter() - t)
    nil_times: list[float] = []
    while len(nil_times) < args.nil_positions:
        hands = deal(rng)
        nil_seat = next((s for s in Seat if can_bid_nil(cards_to_mask(hands[s]))), None)
        if nil_seat is None:
            continue
        st = HandState(Rules(), Seat(rng.randrange(4)), hands)
        while st.phase.value == "bidding":
            st.bid(0 if st.to_act == nil_seat else rng.choice([2, 3, 4]))
        for _ in range(rng.randrange(12)):
            st.play(rng.choice(st.legal_cards()))
        if st.tricks[nil_seat] or st.to_act is None:
            continue
        rec = seat_record(st, st.to_act)
        t = time.perf_counter()
        play_json(rec, time_budget=args.play_budget, seed=len(nil_times))
        nil_times.append(time.perf_counter() - t)
    for name, xs in (("bid", bid_times), ("play", play_times), ("play, live nil", nil_times)):
        if not xs:
            continue
        print(f"{name}: n={len(xs)} p50={statistics.median(xs):.3f}s p95={_pct(xs, 0.95):.3f}s "
              f"max={max(xs):.3f}s")


if __name__ == "__main__":
    main()
