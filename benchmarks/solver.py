"""Double-dummy solver speed: ``advisor.solver.solve_moves`` against DDS (``endplay``).

Random deals (seeded); from each, random legal play for 0, 4 or 8 tricks gives a position with
13, 9 or 5 cards per hand and a random seat on lead. Both solvers value every card of the
player on lead, counting the tricks of the leader's team, with spades as trumps and spades
already broken (where the two games' rules coincide). Each position is timed as the best of
``--repeat`` runs (the machine may be shared); the table gives the median and mean per depth
and their ratio ours / DDS.  An extra row times our solver at 13 cards with spades unbroken
(the real start of a Spades hand; DDS has no such rule).

    python benchmarks/solver.py [--deals 20] [--repeat 3] [--seed 1] [--no-dds] [--nil]

``--nil`` adds nil-defence rows (no DDS equivalent): the weakest hand of each deal is the nil
(``count_seats`` = it, ``maximizer_seats`` = its opponents), with ``cap=1`` at 13 and 9 cards and
exact at 9 cards (exact at 13 cards can take minutes on one deal), one run each, stopped at
``NIL_NODE_LIMIT`` nodes.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from advisor.solver import search_stats, solve_moves  # noqa: E402

SUIT = 0x1FFF
RANKS = "23456789TJQKA"


def legal(hand: int, trick: list, broken: bool) -> list[int]:
    if trick:
        f = hand & (SUIT << 13 * (trick[0][1] // 13))
        h = f or hand
    else:
        o = hand & ~SUIT
        h = o if (not broken and o) else hand
    return [c for c in range(52) if h >> c & 1]


def beats(c: int, b: int) -> bool:
    return c > b if c // 13 == b // 13 else c // 13 == 0


def random_position(rng: random.Random, tricks_played: int):
    """(hands, leader) after ``tricks_played`` random legal tricks of a random deal."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << c for c in deck[13 * i:13 * i + 13]) for i in range(4)]
    leader = rng.randrange(4)
    broken = False
    for _ in range(tricks_played):
        trick = []
        for j in range(4):
            seat = (leader + j) & 3
            c = rng.choice(legal(hands[seat], trick, broken))
            if j and c // 13 == 0 and trick[0][1] // 13 != 0:
                broken = True
            hands[seat] &= ~(1 << c)
            trick.append((seat, c))
        best_seat, best = trick[0]
        for s, c in trick[1:]:
            if beats(c, best):
                best, best_seat = c, s
        leader = best_seat
    return tuple(hands), leader


def pbn(hands) -> str:
    return "N:" + " ".join(
        ".".join("".join(RANKS[r] for r in range(12, -1, -1) if h >> (13 * s + r) & 1) for s in range(4))
        for h in hands)


def dds_moves(hands, leader):
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    deal = Deal(pbn(hands), first=Player(leader), trump=Denom.spades)
    out = {}
    for card, tricks in solve_board(deal):
        r = {v: i for i, v in enumerate(RANKS)}[card.rank.abbr]
        out[int(card.suit) * 13 + r] = tricks
    return out


def ours(hands, leader, broken=True):
    team = 0b0101 << (leader & 1)
    return solve_moves(hands, leader, [], broken, False, team, team)


def strength(hand: int) -> int:
    """Rough playing strength: high cards (J..A) and spades."""
    return sum(max(0, c % 13 - 8) + 3 * (c < 13) for c in range(52) if hand >> c & 1)


NIL_NODE_LIMIT = 50_000_000  # a few seconds: some 13-card nils take minutes without it


def nil_solve(hands, leader, cap):
    nil = min(range(4), key=lambda s: strength(hands[s]))
    return solve_moves(hands, leader, [], False, False, 1 << nil, 0b1010 >> (nil & 1), cap=cap,
                       node_limit=NIL_NODE_LIMIT)


def best_times(fns, positions, repeat: int) -> list[list[float]]:
    """Best time of each of ``fns`` on each position; on every position the functions take their
    turn one after the other, so that a drift in the machine's speed falls on all of them alike."""
    best = [[float("inf")] * len(positions) for _ in fns]
    for _ in range(repeat):
        for i, (hands, leader) in enumerate(positions):
            for f, b in zip(fns, best):
                t = time.perf_counter()
                f(hands, leader)
                b[i] = min(b[i], time.perf_counter() - t)
    return best


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-dds", action="store_true")
    ap.add_argument("--nil", action="store_true", help="add nil-defence rows")
    args = ap.parse_args(argv)
    have_dds = not args.no_dds and importlib.util.find_spec("endplay") is not None
    if not have_dds and not args.no_dds:
        print("endplay not installed: timing our solver only")
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (cores: {os.cpu_count()})")
    rows = []
    grown = {}  # cards a hand: positions whose solve moved to the larger table (advisor.solver)
    for played in (0, 4, 8):
        rng = random.Random(args.seed * 1000 + played)
        positions = [random_position(rng, played) for _ in range(args.deals)]
        if have_dds:
            # warm up DDS on a deal outside the set: DDS reuses its table for a deal given twice
            # in a row, so warming up on the first position would time that one from a full table
            dds_moves(*random_position(random.Random(-1 - played), played))
        nodes = []
        g0 = search_stats()["grown"]
        for hands, leader in positions:
            n0 = search_stats()["nodes"]
            a = ours(hands, leader)
            nodes.append(search_stats()["nodes"] - n0)
            if have_dds:
                b = dds_moves(hands, leader)
                if a != b:
                    raise SystemExit(f"mismatch at {pbn(hands)} leader {leader}: ours {a} dds {b}")
        grown[13 - played] = search_stats()["grown"] - g0
        # DDS keeps its table when it is given the same deal twice in a row: time the positions
        # in turn, never one twice in a row, and keep each one's best time; the two solvers take
        # turns position by position, so that a change in the machine's speed during the run
        # (seen here: 20% from one minute to the next) falls on both alike
        if have_dds:
            t_ours, t_dds = best_times([ours, dds_moves], positions, args.repeat)
        else:
            (t_ours,), t_dds = best_times([ours], positions, args.repeat), []
        rows.append((13 - played, "broken", t_ours, t_dds, nodes))
        if played == 0:
            nodes_unb = []
            for hands, leader in positions:
                n0 = search_stats()["nodes"]
                ours(hands, leader, False)
                nodes_unb.append(search_stats()["nodes"] - n0)
            (t_unb,) = best_times([lambda h, l: ours(h, l, False)], positions, args.repeat)
            rows.append((13, "unbroken", t_unb, [], nodes_unb))
    if args.nil:
        for played, cap in ((0, 1), (4, 1), (4, None)):
            rng = random.Random(args.seed * 1000 + 500 + played)
            positions = [random_position(rng, played) for _ in range(args.deals)]
            nodes, gave_up = [], 0
            for hands, leader in positions:
                n0 = search_stats()["nodes"]
                gave_up += nil_solve(hands, leader, cap) is None
                nodes.append(search_stats()["nodes"] - n0)
            (t,) = best_times([lambda h, l: nil_solve(h, l, cap)], positions, 1)
            rows.append((13 - played, f"nil cap={cap}", t, [], nodes))
            if gave_up:
                print(f"nil, {13 - played} cards, cap={cap}: {gave_up} of {len(positions)} positions "
                      f"stopped at the node limit {NIL_NODE_LIMIT:,} (their time is the time to give up)")
    ms = lambda xs: f"{1000 * statistics.median(xs):8.2f} {1000 * statistics.mean(xs):8.2f}"  # noqa: E731
    print(f"\n{args.deals} positions per depth, best of {args.repeat}; times in ms (median, mean)")
    print(f"{'cards':>5} {'case':>14} | {'ours med':>8} {'mean':>8} | {'DDS med':>8} {'mean':>8} | "
          f"{'ratio med':>9} {'mean':>6} | {'nodes med':>9} {'mean':>9}")
    for depth, sp, to, td, nodes in rows:
        line = f"{depth:>5} {sp:>14} | {ms(to)} | "
        if td:
            line += f"{ms(td)} | {statistics.median(to) / statistics.median(td):9.2f} " \
                    f"{statistics.mean(to) / statistics.mean(td):6.2f} | "
        else:
            line += f"{'-':>8} {'-':>8} | {'-':>9} {'-':>6} | "
        line += f"{int(statistics.median(nodes)):>9} {int(statistics.mean(nodes)):>9}"
        print(line)
    for depth, n in grown.items():
        if n:
            print(f"{depth} cards, spades broken: {n} of {args.deals} solves thrashed the usual table and "
                  f"moved to the larger one (advisor.solver.set_table_growth)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
