"""How well the bid search knows its team's tricks, from the hands of a match
(``piki match --dd --hands FILE``).

For every contract of the side without a nil, the team's last bid (the one that settles the
contract) is searched again from that bidder's view, as the advice does. Its expected team tricks
are set against the deal's double-dummy tricks (is the model biased, how wide is its error?),
and against the contract the team bid (how far under its own estimate it bids). Then the
question behind the bid-error goal: if every contract were the model's tricks less ``k``,
rounded, what would the bid error be and how often would the contract exceed the double-dummy
tricks? The same again with the partner's real hand in view (the trick network on both real
hands): what a bidder who could see the partner's cards would reach.

``--nils``: every nil (not blind) the side bid instead, with the chance the advice gives it at
that bid (and whether it would bid it again), whether it made, and whether it could make double
dummy (the defenders seeing every card): the made rate by the advised chance and by the nil's
place in the bidding, in real games; a match played by older advice is thus re-judged by this one.

``--sets``: how often real play sets a contract by how far it is above the team's double-dummy
tricks, and the two-slope logistic fit of it that the bid search uses (``advisor.bidmodel.SET_WEIGHTS``).
Several files may be given: their contracts are pooled.

    python scripts/bid_calibration.py HANDS.jsonl[.gz] [--side A|B] [--limit N] [--budget S] [--nils]
    python scripts/bid_calibration.py HANDS.jsonl[.gz]... --sets [--side A|B|AB]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from advisor.advice import DEFAULT_BID_BUDGET, analyse_bid  # noqa: E402
from advisor.bidmodel import set_chance, team_tricks_estimate  # noqa: E402
from advisor.cards import Seat, cards_to_mask  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from advisor.search import bid_samples, opponents_mask, seat_mask  # noqa: E402
from advisor.solver import solve  # noqa: E402
from advisor.view import seat_view  # noqa: E402
from set_anatomy import contracts, read_rows, side_team  # noqa: E402

SHADES = (0.0, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4)
NIL_BANDS = ((0.0, 0.55), (0.55, 0.6), (0.6, 0.65), (0.65, 0.7), (0.7, 0.8), (0.8, 1.01))


def decisions(rows: list[dict], side: str, budget: float, limit: int | None = None):
    """One dict per contract of ``side`` without a nil: the last bidder's model of the team's
    tricks, the network's estimate with both real hands, the double-dummy tricks, the contract."""
    count = 0
    for c in contracts(rows, side):
        if c["nil"] or c["dd"] is None:
            continue
        if limit is not None and count >= limit:
            return
        record, team = c["record"], int(c["team"])
        state = record.new_state()
        first = int(state.first)
        # the team bids second and fourth in the order, or first and third
        seat = (first + (2 if first % 2 == team else 3)) & 3
        while state._to_act != seat:
            state.bid(c["replayed"].bids[state._to_act])
        model = bid_samples(seat_view(state, Seat(seat)), time_budget=budget, rng=random.Random(1))
        partner = (seat + 2) & 3
        hands = {int(s): cards_to_mask(cards) for s, cards in record.hands.items()}
        count += 1
        yield {
            "model": model.team_tricks,
            "oracle": team_tricks_estimate(hands[seat], hands[partner], first == seat, first == partner),
            "dd": c["dd"],
            "contract": c["contract"],
            "team_first": c["team_first"],
        }


def nil_decisions(rows: list[dict], side: str, budget: float, limit: int | None = None):
    """One dict per nil (not blind) ``side`` bid: the advice's chance for it at that bid, whether
    the advice bids the nil again, made or not, whether it makes double dummy (the nil's team
    against defenders who see every card), and the nil's place in the bidding (1-4)."""
    count = 0
    for row in rows:
        record = HandRecord.from_json(row["record"])
        full = replay(record)
        results = {n.seat: n for n in full.score()[side_team(row, side)].nils if not n.blind}
        if not results:
            continue
        hands = tuple(cards_to_mask(record.hands[Seat(s)]) for s in range(4))
        state = record.new_state()
        for position in range(1, 5):
            seat = state._to_act
            if seat in results:
                if limit is not None and count >= limit:
                    return
                advice = analyse_bid(seat_view(state, Seat(seat)), time_budget=budget, seed=1)
                takes = solve(hands=hands, to_act=int(state.first), trick=[], spades_broken=False,
                              allspade_lead_breaks=state.rules.allspade_lead_breaks,
                              count_seats=seat_mask(seat), maximizer_seats=opponents_mask(seat), cap=1)
                count += 1
                yield {"chance": advice["nil_probability"], "again": advice["bid"] == 0,
                       "made": results[seat].made, "dd_made": takes == 0, "position": position}
            state.bid(full.bids[seat])


def nil_report(items: list[dict], side: str) -> str:
    def row(label: str, group: list[dict], extra: str = "") -> str:
        n = len(group)
        return (f"{label:<12}{n:>6}{sum(d['made'] for d in group) / n:>8.2f}"
                f"{sum(d['chance'] for d in group) / n:>13.2f}{sum(d['dd_made'] for d in group) / n:>10.2f}"
                f"{sum(d['again'] for d in group) / n:>14.2f}{extra}")

    made = sum(d["made"] for d in items)
    head = f"{'':<12}{'nils':>6}{'made':>8}{'mean chance':>13}{'DD makes':>10}{'advised again':>14}"
    lines = [f"side {side}: {len(items)} nils, made {made} ({made / len(items):.1%}); by the advised chance",
             head.replace(" " * 6, "chance", 1)]
    for lo, hi in NIL_BANDS:
        group = [d for d in items if lo <= d["chance"] < hi]
        if group:
            lines.append(row(f"{lo:.2f}-{min(hi, 1.0):.2f}", group))
    lines += ["by the place in the bidding", head.replace(" " * 5, "place", 1)]
    for position in range(1, 5):
        group = [d for d in items if d["position"] == position]
        if group:
            again = [d for d in group if d["again"]]
            extra = f"   made when advised again {sum(d['made'] for d in again) / len(again):.2f}" if again else ""
            lines.append(row(str(position), group, extra))
    again = [d for d in items if d["again"]]
    if again:
        lines.append(f"the nils the advice bids again: {len(again)}, made "
                     f"{sum(d['made'] for d in again) / len(again):.1%}")
    return "\n".join(lines)


def fit_sets(items: list[tuple[int, bool]]) -> tuple[float, float, float]:
    """(intercept, slope under, slope over): logit P(set) = intercept + slope × d, the slope for
    d < 0 or d > 0, fitted by maximum likelihood (Newton) on (d, set) pairs, d = contract − DD."""
    d = np.array([x for x, _ in items], float)
    y = np.array([s for _, s in items], float)
    x = np.stack([np.ones_like(d), np.minimum(d, 0), np.maximum(d, 0)], 1)
    w = np.zeros(3)
    for _ in range(50):
        p = 1 / (1 + np.exp(-x @ w))
        h = x.T @ (x * (p * (1 - p))[:, None]) + 1e-6 * np.eye(3)
        step = np.linalg.solve(h, x.T @ (y - p))
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return float(w[0]), float(w[1]), float(w[2])


def sets_report(items: list[tuple[int, bool]], side: str) -> str:
    a, under, over = fit_sets(items)
    lines = [f"side {side}: {len(items)} contracts without a nil; set by contract - DD",
             f"{'d':>4}{'contracts':>11}{'set':>7}{'rate':>8}{'fit':>8}"]
    for d in sorted({x for x, _ in items}):
        group = [s for x, s in items if x == d]
        fit = set_chance(d, (a, under, over))
        lines.append(f"{d:>+4d}{len(group):>11}{sum(group):>7}{sum(group) / len(group):>8.3f}{fit:>8.3f}")
    lines.append(f"SET_WEIGHTS = ({a:.3f}, {under:.3f}, {over:.3f})")
    return "\n".join(lines)


def set_items(rows: list[dict], side: str) -> list[tuple[int, bool]]:
    return [(c["contract"] - c["dd"], not c["made"]) for c in contracts(rows, side)
            if not c["nil"] and c["dd"] is not None]


def _line(name: str, items: list[dict]) -> str:
    err = [d["model"] - d["dd"] for d in items]
    under = [d["contract"] - d["model"] for d in items]
    return (f"{name:<18}{len(items):>6}{statistics.mean(err):>+9.2f}{statistics.pstdev(err):>6.2f}"
            f"{statistics.mean(under):>+11.2f}{statistics.pstdev(under):>6.2f}"
            f"{statistics.mean(abs(d['contract'] - d['dd']) for d in items):>8.3f}")


def shaded(items: list[dict], key: str, k: float) -> tuple[float, float]:
    """(bid error, share of contracts above the double-dummy tricks) for contract = round(key − k)."""
    contracts = [max(1, math.floor(d[key] - k + 0.5)) for d in items]
    n = len(items)
    return (sum(abs(c - d["dd"]) for c, d in zip(contracts, items)) / n,
            sum(c > d["dd"] for c, d in zip(contracts, items)) / n)


def report(items: list[dict], side: str) -> str:
    lines = [f"side {side}: {len(items)} contracts without a nil, the team's last bid searched again",
             f"{'':<18}{'n':>6}{'model-DD':>9}{'sd':>6}{'contract-model':>15}{'sd':>6}{'|c-DD|':>8}",
             _line("all", items)]
    for name, first in (("first and third", True), ("second and last", False)):
        group = [d for d in items if d["team_first"] == first]
        if len(group) > 1:
            lines.append(_line(name, group))
    lines.append("contract = round(estimate - k): bid error / contracts above DD")
    lines.append(f"{'k':<18}" + "".join(f"{k:>13.1f}" for k in SHADES))
    for key, name in (("model", "the bid model"), ("oracle", "partner in view")):
        cells = [shaded(items, key, k) for k in SHADES]
        lines.append(f"{name:<18}" + "".join(f"{e:>7.3f}/{a:.2f}" for e, a in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("hands", type=Path, nargs="+", help="piki match --hands files (with --dd; .gz too)")
    p.add_argument("--side", choices=("A", "B", "AB"), default="A",
                   help="the side to report (default A; AB: both sides pooled, with --sets)")
    p.add_argument("--limit", type=int, default=None, help="at most this many contracts")
    p.add_argument("--nils", action="store_true", help="the side's nils by the advised chance instead")
    p.add_argument("--sets", action="store_true", help="the set rate by contract - DD, and its fit")
    p.add_argument("--budget", type=float, default=DEFAULT_BID_BUDGET,
                   help=f"seconds of search per bid (default {DEFAULT_BID_BUDGET}, the advice's)")
    args = p.parse_args(argv)
    rows = [row for path in args.hands for row in read_rows(path)]
    if args.side == "AB" and not args.sets:
        print("bid_calibration: --side AB (both sides pooled) goes with --sets", file=sys.stderr)
        return 2
    if args.sets:
        items = [pair for side in args.side for pair in set_items(rows, side)]
        if len(items) < 2:
            print("bid_calibration: fewer than two contracts without a nil in these files", file=sys.stderr)
            return 2
        print(sets_report(items, args.side))
        return 0
    if args.nils:
        nils = list(nil_decisions(rows, args.side, args.budget, args.limit))
        if not nils:
            print("bid_calibration: no nil by this side in this file", file=sys.stderr)
            return 2
        print(nil_report(nils, args.side))
        return 0
    items = list(decisions(rows, args.side, args.budget, args.limit))
    if len(items) < 2:
        print("bid_calibration: fewer than two contracts without a nil in this file", file=sys.stderr)
        return 2
    print(report(items, args.side))
    return 0


if __name__ == "__main__":
    sys.exit(main())
