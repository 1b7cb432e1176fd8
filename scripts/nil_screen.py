"""A paired screen of nil play: the same forced nils played out by an engine, deal by deal.

    python scripts/nil_screen.py --deals 100 --seed 1 --out FILE.jsonl   # play (resumes FILE)
    python scripts/nil_screen.py --compare A.jsonl B.jsonl               # two engines, paired
    python scripts/nil_screen.py --north no-nil --out FILE.jsonl          # the same deals, no nil
    python scripts/nil_screen.py --choice NIL.jsonl NO_NIL.jsonl          # nil or not, by its odds
    python scripts/nil_screen.py --reask NIL.jsonl --out ADVICE.jsonl     # the bid advice again
    python scripts/nil_screen.py --choice NIL.jsonl NO_NIL.jsonl --advice ADVICE.jsonl
    python scripts/nil_screen.py --defend --out FILE.jsonl                # East's nil, the engine defending

Each deal is random (a random dealer and start score) among those where North's hand is fit for
nil by the trick-counting rules (``can_bid_nil``). North bids nil whatever its advice; South
bids and both play with the ``pimc`` bot of the engine on the path; East and West are the
heuristic bot (``--opponents NAME``: another bot of the registry, e.g. ``counter``). One JSON
line a deal: whether the nil made, the hand points of both teams, and the engine's fingerprint.
Run it from two checkouts (worktrees) on the same seed to compare
their nil play and cover on the same deals (the bidding of South may differ with the engine).

With ``--north no-nil`` North bids what the engine advises with the nil ruled out, and
``--choice`` pairs such a file with a nil file of the same seed: what the nil gained or lost
against the other bid, by the chance the advice gave the nil (``nil_p``, kept in both files).

``--reask NIL.jsonl --out FILE`` asks the engine on the path again for North's bid at each deal of
a nil file (the same ``--seed``; the bids before North's are the file's), without playing: its
bid and nil chance a deal. ``--choice NIL NO_NIL --advice FILE`` then also scores those choices
against the played outcomes — what an engine's nil decisions and quoted chances would have come to
on the same deals, without playing them again.

Screens played with the engine's clock (its default time budgets) differ from run to run: how
many deals a card is valued on depends on the machine's load: replayed with each of two engines,
seven deals where their files differed turned their nil's outcome in 10 of 14 plays
(2026-12-06). ``--samples N`` plays the engine without a clock (``pimc:samples=N``: each card
from N sampled deals, every search fresh; North's bid advice from the bid search's fixed count
of deals), so that two engines' files differ only where their decisions do.

With ``--defend`` the deal is turned a seat on: East (the heuristic or ``--opponents`` bot)
holds the hand fit for nil and bids nil, North and South (the engine) defend; ``made`` is East's
nil. ``--compare`` pairs two such files the same way.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor import advice  # noqa: E402
from advisor.advice import analyse_bid  # noqa: E402
from advisor.bids import NIL  # noqa: E402
from advisor.bots import BotUnavailable, get_bot  # noqa: E402
from advisor.bots.heuristic_bid import can_bid_nil  # noqa: E402
from advisor.cards import Seat, cards_to_mask  # noqa: E402
from advisor.match import wilson  # noqa: E402
from advisor.match_checkpoint import engine_fingerprint  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.search import hand_value  # noqa: E402
from advisor.state import HandState, deal  # noqa: E402
from hand_screen import append_rows, load, mean_se, play_out, sign_test  # noqa: E402


def nil_deal(seed: int, index: int):
    """(dealer, hands, points, bags) of the screen's deal ``index``: North fit for nil."""
    rng = random.Random(f"nil-screen:{seed}:{index}")
    while True:
        hands = deal(rng)
        if can_bid_nil(cards_to_mask(hands[Seat.N])):
            break
    dealer = Seat(rng.randrange(4))
    points = (rng.randrange(-100, 400, 10), rng.randrange(-100, 400, 10))
    bags = (rng.randrange(8), rng.randrange(8))
    return dealer, hands, points, bags


def north_bid(view, nil: bool, seen: dict, budget: float | None = None) -> int:
    """North's bid: nil, or the advice's bid with the nil ruled out; the advice's nil chance (the
    same whichever bids it may choose) is kept in ``seen``. ``budget``: the advice's time budget
    (None: its default; ``math.inf``: no clock, the bid search's fixed count of deals)."""
    keep = advice.NIL_MIN_PROBABILITY, advice.RULE_NIL_MIN_PROBABILITY
    if not nil:
        advice.NIL_MIN_PROBABILITY = advice.RULE_NIL_MIN_PROBABILITY = 2.0  # no nil can pass
    try:
        advised = analyse_bid(view, time_budget=budget, seed=0)
    finally:
        advice.NIL_MIN_PROBABILITY, advice.RULE_NIL_MIN_PROBABILITY = keep
    seen["nil_p"] = advised["nil_probability"]
    seen["advised"] = advised["bid"]
    if nil:
        return NIL
    if advised["bid"] != "blind_nil":
        return int(advised["bid"])
    # a blind nil comes from the score alone: take the best bid of tricks instead
    tricks = [c for c in advised["candidates"] if isinstance(c["bid"], int) and c["bid"] > 0]
    return max(tricks, key=lambda c: c["expected_points"])["bid"]


def north_view(seed: int, index: int, bids: list) -> HandState:
    """North's view of the screen's deal ``index`` at its bid: its own hand, the bids before it
    (``bids`` by seat, as a screen file keeps them)."""
    dealer, hands, points, bags = nil_deal(seed, index)
    view = HandState(Rules(), dealer, {Seat.N: hands[Seat.N]}, points, bags)
    while view.to_act != Seat.N:
        view.apply(bids[view.to_act])
    return view


def reask(seed: int, index: int, row: dict) -> dict:
    """The engine's bid advice for North at a played deal of the nil screen: its bid and nil chance."""
    advised = analyse_bid(north_view(seed, index, row["bids"]), seed=0)
    return {"deal": index, "advised": advised["bid"], "nil_p": advised["nil_probability"],
            "engine": engine_fingerprint()}


def defend(seed: int, index: int, pimc, others) -> dict:
    """The same deal turned a seat on: East (the rule-based bot) holds the hand fit for nil and
    bids it; North and South (the engine) defend against it."""
    dealer, hands, points, bags = nil_deal(seed, index)
    turned = {Seat((s + 1) & 3): cards for s, cards in hands.items()}
    state = play_out(seed, index, (Seat((dealer + 1) & 3), turned, points[::-1], bags[::-1]),
                     pimc, others, forced={Seat.E: NIL})
    ns, ew = state.score()
    nils = [n for n in ew.nils if n.seat == Seat.E]
    return {"deal": index, "made": bool(nils[0].made), "bids": list(state.bids),
            "ns_points": ns.hand_points, "ew_points": ew.hand_points,
            "ns_value": hand_value(state.rules, ns), "ew_value": hand_value(state.rules, ew),
            "engine": engine_fingerprint()}


def play(seed: int, index: int, pimc, others, nil: bool = True, bid_budget: float | None = None) -> dict:
    """The screen's deal ``index`` played with North's bid forced (``north_bid``; ``bid_budget``
    its advice's time budget)."""
    seen: dict = {}
    state = play_out(seed, index, nil_deal(seed, index), pimc, others,
                     forced={Seat.N: lambda view: north_bid(view, nil, seen, bid_budget)})
    ns, ew = state.score()
    nils = [n for n in ns.nils if n.seat == Seat.N]
    return {"deal": index, "made": bool(nils[0].made) if nils else None, "bids": list(state.bids),
            "nil_p": seen["nil_p"], "advised": seen["advised"], "ns_points": ns.hand_points, "ew_points": ew.hand_points,
            "ns_value": hand_value(state.rules, ns), "ew_value": hand_value(state.rules, ew),
            "engine": engine_fingerprint()}


def summary(rows: dict[int, dict]) -> str:
    made = sum(r["made"] for r in rows.values())
    lo, hi = wilson(made, len(rows))
    pts = sum(r["ns_points"] - r["ew_points"] for r in rows.values()) / max(1, len(rows))
    return (f"{len(rows)} nils, made {made} ({made / max(1, len(rows)):.3f}, 95% CI {lo:.3f}-{hi:.3f}); "
            f"hand points N-S minus E-W {pts:+.1f}")  # with --defend: East's nils


def compare(a: Path, b: Path) -> None:
    ra, rb = load(a), load(b)
    both = sorted(set(ra) & set(rb))
    print(f"{a}: {summary({k: ra[k] for k in both})}")
    print(f"{b}: {summary({k: rb[k] for k in both})}")
    only_a = sum(ra[k]["made"] and not rb[k]["made"] for k in both)
    only_b = sum(rb[k]["made"] and not ra[k]["made"] for k in both)
    p = sign_test(only_a, only_b)
    print(f"{len(both)} deals in both: made only in the first {only_a}, only in the second {only_b} "
          f"(sign test p = {p:.2f})")


# bands of the advice's nil chance in --choice
BANDS = [(0.0, 0.5), (0.5, 0.55), (0.55, 0.6), (0.6, 0.65), (0.65, 0.7), (0.7, 0.8), (0.8, 1.01)]


def choice(nil_file: Path, other_file: Path, advice_file: Path | None = None) -> None:
    """Nil against the other bid on the same deals, by the nil chance the advice gave: N-S minus
    E-W hand value (bags at their long-run cost) with the nil less without it; with
    ``advice_file`` (rows of ``--reask``) also what that advice's own nil choices come to."""
    a, b = load(nil_file), load(other_file)
    advice_rows = load(advice_file) if advice_file else None
    both = sorted(k for k in set(a) & set(b) if "nil_p" in a[k])
    print(f"{len(both)} deals in both; nil less the other bid, N-S minus E-W a deal")
    print(f"{'nil chance':<12}{'deals':>6}{'nils made':>10}{'gain':>8}{'se':>6}")
    for lo, hi in BANDS:
        keys = [k for k in both if lo <= a[k]["nil_p"] < hi]
        if not keys:
            continue
        mean, se = mean_se([(a[k]["ns_value"] - a[k]["ew_value"])
                            - (b[k]["ns_value"] - b[k]["ew_value"]) for k in keys])
        made = sum(a[k]["made"] for k in keys) / len(keys)
        print(f"{lo:.2f}-{min(hi, 1.0):.2f}   {len(keys):>6}{made:>10.2f}{mean:>+8.1f}{se:>6.1f}")
    if advice_rows is None:
        return
    keys = [k for k in both if k in advice_rows]
    nils = [k for k in keys if advice_rows[k]["advised"] == 0]
    made = sum(a[k]["made"] for k in nils)
    mean, se = mean_se([(a[k]["ns_value"] - a[k]["ew_value"]) - (b[k]["ns_value"] - b[k]["ew_value"])
                        if k in nils else 0.0 for k in keys])
    brier = sum((advice_rows[k]["nil_p"] - a[k]["made"]) ** 2 for k in keys) / max(1, len(keys))
    quoted = sum(advice_rows[k]["nil_p"] for k in keys) / max(1, len(keys))
    print(f"the advice's choices on {len(keys)} deals: {len(nils)} nils, made {made} "
          f"({made / max(1, len(nils)):.3f}); gain over never bidding nil {mean:+.1f} a deal (se {se:.1f}); "
          f"its chance {quoted:.3f} against {sum(a[k]['made'] for k in keys) / max(1, len(keys)):.3f} "
          f"made, Brier {brier:.4f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0,
                    help="play deals FIRST to DEALS-1 only (to split one screen between processes, "
                         "each with its own --out; the files join by deal number)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--north", choices=("nil", "no-nil"), default="nil",
                    help="North bids nil (default), or the advice's bid with the nil ruled out")
    ap.add_argument("--defend", action="store_true",
                    help="East (the rule-based bot) bids the nil, North and South defend")
    ap.add_argument("--opponents", default="heuristic",
                    help="the bot at East and West (a registry name; default heuristic)")
    ap.add_argument("--samples", type=int, metavar="N",
                    help="the engine without a clock: each card from N sampled deals, every search "
                         "fresh, so that a deal plays the same on any machine and load (pimc:samples=N)")
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    ap.add_argument("--choice", type=Path, nargs=2, metavar=("NIL", "NO_NIL"))
    ap.add_argument("--advice", type=Path, metavar="FILE",
                    help="with --choice: rows of --reask, whose nil choices are scored")
    ap.add_argument("--reask", type=Path, metavar="NIL_FILE",
                    help="ask the engine again for North's bid at each deal of NIL_FILE (to --out)")
    args = ap.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    if args.choice:
        choice(*args.choice, args.advice)
        return 0
    if args.out is None:
        ap.error("--out FILE is needed to play (or --compare A B)")
    if args.reask:
        played = load(args.reask)
        append_rows(args.out, sorted(played), lambda index: reask(args.seed, index, played[index]),
                    report=lambda rows, i: f"deal {i}: {rows[i]['advised']} ({rows[i]['nil_p']:.2f})")
        return 0
    try:
        pimc = get_bot("pimc") if args.samples is None else get_bot("pimc", samples=args.samples)
        others = get_bot(args.opponents)
    except BotUnavailable as e:
        ap.error(str(e))
    nil = args.north == "nil" or args.defend
    mode = {} if args.samples is None else {"samples": args.samples}
    if args.defend:
        def make_row(index):
            return defend(args.seed, index, pimc, others) | mode
    else:
        def make_row(index):
            return play(args.seed, index, pimc, others, nil, math.inf if args.samples else None) | mode
    done = append_rows(args.out, range(args.first, args.deals), make_row,
                       report=lambda rows, i: f"deal {i}: bids {rows[i]['bids']}"
                                              + (f"; {summary(rows)}" if nil else ""))
    if nil:
        print(summary(done))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
