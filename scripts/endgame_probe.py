"""The last bid of the hand with and without the opponents' known contract in the win chance,
judged on the true deal.

    python scripts/endgame_probe.py --positions 400 --seed 1 --out FILE.jsonl   # resumes FILE
    python scripts/endgame_probe.py --positions 300 --seed 2 --scores -100 300 --out MID.jsonl
    python scripts/endgame_probe.py --summary FILE.jsonl [FILE.jsonl ...]

Each position is a random deal with East dealing, so that North bids last (under ``piki`` the
dealer bids first), both teams' scores drawn from ``--scores`` (default 250-490: near the end)
and random bags. East and West bid as the rule-based bot, South as the engine (on all its sampled
deals, whatever the time); positions with a
nil or blind nil among those bids are skipped. North's bid is then advised twice from North's
view on the same sampled deals (:func:`advisor.advice.analyse_bid`), once with
:data:`advisor.search.JOINT_END` off (the opponents' hand drawn from the usual spread of hand
points) and once on (their score from the tricks each outcome leaves them). Each bid other than
a nil is judged by the win chance after the hand on the true deal: North-South take their
double-dummy tricks, East-West the rest (:mod:`advisor.gamevalue`; 1 or 0 when the hand ends
the game). Double dummy is a proxy for the play: this screens the bid, it does not replace a match.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor import advice, search  # noqa: E402
from advisor.advice import analyse_bid  # noqa: E402
from advisor.bids import is_nil  # noqa: E402
from advisor.bots import get_bot  # noqa: E402
from advisor.cards import Seat  # noqa: E402
from advisor.gamevalue import win_table  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.scoring import score_hand  # noqa: E402
from advisor.solver import solve  # noqa: E402
from advisor.state import HandState, deal  # noqa: E402
from advisor.view import seat_view  # noqa: E402
from hand_screen import append_rows, load, mean_se  # noqa: E402


def position(seed: int, index: int, scores: tuple[int, int]) -> HandState | None:
    """The full state of position ``index`` with North to bid last, or None when East, South or
    West bid a nil."""
    rng = random.Random(f"endgame-probe:{seed}:{index}")
    hands = deal(rng)
    lo, hi = scores
    points = (rng.randrange(lo, hi, 10), rng.randrange(lo, hi, 10))
    bags = (rng.randrange(8), rng.randrange(8))
    state = HandState(Rules(), Seat.E, hands, points, bags)
    # South bids on all its sampled deals, not as many as a time budget allows, so that a
    # position is the same on a loaded machine as on an idle one.
    heuristic, engine = get_bot("heuristic"), get_bot("pimc", seed=index, time_budget=math.inf)
    for seat in (Seat.E, Seat.S, Seat.W):
        bot = engine if seat == Seat.S else heuristic
        state.bid(bot.act(seat_view(state, seat)))
    if any(is_nil(b) for b in state.bids if b is not None):
        return None
    return state


def win_after(state: HandState, north_bid: int, ns_tricks: int) -> float:
    """North-South's chance to win the game after the hand when North bids ``north_bid`` and
    their team takes ``ns_tricks`` (East-West the rest)."""
    bids = list(state.bids)
    bids[Seat.N] = north_bid
    ns, ew = score_hand(state.rules, tuple(bids), (ns_tricks, 13 - ns_tricks, 0, 0),
                        state.points_before, state.bags_before)
    return float(win_table(state.rules).after_hand(ns.points, ew.points))


def probe(seed: int, index: int, scores: tuple[int, int], budget: float | None = None) -> dict | None:
    state = position(seed, index, scores)
    if state is None:
        return None
    view = seat_view(state, Seat.N)
    model = search.bid_samples(view, time_budget=budget or advice.DEFAULT_BID_BUDGET,
                               rng=random.Random(index))
    keep_samples, keep_joint = advice.bid_samples, search.JOINT_END
    advice.bid_samples = lambda *a, **k: model  # both advices on the same sampled deals
    try:
        choice = {}
        for joint in (False, True):
            search.JOINT_END = joint
            choice[joint] = analyse_bid(view, seed=index)["bid"]
    finally:
        advice.bid_samples, search.JOINT_END = keep_samples, keep_joint
    dd = solve(tuple(state.known), int(state.first), [], False, state.rules.allspade_lead_breaks,
               0b0101, 0b0101, node_limit=5_000_000)  # North-South's tricks from the first lead
    if dd is None:
        return None
    win = {key: None if not isinstance(b, int) or b == 0 else win_after(state, b, dd)
           for key, b in (("generic", choice[False]), ("joint", choice[True]))}
    return {"position": index, "points": list(state.points_before), "bids": state.bids[1:],
            "generic": choice[False], "joint": choice[True], "dd": dd, "win": win}


def summary(rows: list[dict]) -> str:
    differ = [r for r in rows if r["generic"] != r["joint"]]
    judged = [r for r in differ if None not in r["win"].values()]
    lines = [f"{len(rows)} positions, North's bid differs in {len(differ)}, {len(judged)} of them "
             "without a nil"]
    if judged:
        gains = [r["win"]["joint"] - r["win"]["generic"] for r in judged]
        mean, se = mean_se(gains) if len(gains) > 1 else (gains[0], 0.0)
        lines.append(f"win chance after the hand, joint - generic: {mean:+.4f} (se {se:.4f}) a "
                     f"differing position, {sum(gains):+.2f} in all; better {sum(g > 0 for g in gains)}, "
                     f"worse {sum(g < 0 for g in gains)}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="first position index (to split a run)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scores", type=int, nargs=2, default=(250, 500), metavar=("LO", "HI"),
                    help="both teams' scores from LO up to (not including) HI, in steps of 10")
    ap.add_argument("--budget", type=float, default=None, help="seconds for the bid model")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--summary", type=Path, nargs="+", metavar="FILE")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [r for path in args.summary for r in load(path, "position").values()]
        print(summary(rows))
        return 0
    if args.out is None:
        ap.error("--out FILE is needed to probe (or --summary FILE...)")
    scores = tuple(args.scores)
    rows = append_rows(args.out, range(args.first, args.first + args.positions),
                       lambda i: probe(args.seed, i, scores, args.budget), key="position",
                       report=lambda rows, i: f"position {i}: {rows[i]['generic']} / {rows[i]['joint']}")
    print(summary(list(rows.values())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
