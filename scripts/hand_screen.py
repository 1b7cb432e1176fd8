"""A paired screen of whole hands: where one North-South player gains or loses points, by kind.

    python scripts/hand_screen.py --ns pimc --deals 300 --seed 1 --out A.jsonl   # play (resumes)
    python scripts/hand_screen.py --ns heuristic --deals 300 --seed 1 --out B.jsonl
    python scripts/hand_screen.py --compare A.jsonl B.jsonl                       # by kind, paired

Each deal is random (a random dealer, start scores and bags); North and South are the bot named
by ``--ns`` (``pimc`` is the engine on the path), East and West the heuristic bot. One JSON line a
deal: the bids, each seat's tricks and both teams' scores (contract, nils, bags). ``--compare``
splits the points of the two files' common deals into the teams' contracts, nils and bags (bags
charged their share of the penalty, 10 under ``piki``, instead of the point they score now) and
prints the mean difference of each with its standard error, so that the kind of hand where one
player loses to the other shows.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from advisor.bots import get_bot  # noqa: E402
from advisor.cards import Seat  # noqa: E402
from advisor.match_checkpoint import engine_fingerprint  # noqa: E402
from advisor.rules import Rules  # noqa: E402
from advisor.state import HandState, deal  # noqa: E402

BAG_CHARGE = 10  # points a bag costs in the long run under `piki` (10 bags, 100 points)


def screen_deal(seed: int, index: int):
    """(dealer, hands, points, bags) of the screen's deal ``index``."""
    rng = random.Random(f"hand-screen:{seed}:{index}")
    hands = deal(rng)
    dealer = Seat(rng.randrange(4))
    points = (rng.randrange(-100, 400, 10), rng.randrange(-100, 400, 10))
    bags = (rng.randrange(8), rng.randrange(8))
    return dealer, hands, points, bags


def play_out(seed: int, index: int, dealt, ns_bot, ew_bot, forced: dict | None = None) -> HandState:
    """The hand ``dealt`` ((dealer, hands, points, bags)) played to its end: ``ns_bot`` at North
    and South, ``ew_bot`` at East and West, each seeing only its own cards; a seat in ``forced``
    makes that bid whatever its bot would (or the bid a callable there gives for the seat's view)."""
    dealer, hands, points, bags = dealt
    for bot in (ns_bot, ew_bot):
        if hasattr(bot, "new_game"):
            bot.new_game(seed * 100_003 + index)
    rules = Rules()
    state = HandState(rules, dealer, hands, points, bags)
    views = {s: HandState(rules, dealer, {s: hands[s]}, points, bags) for s in hands}
    while not state.is_done:
        seat = state.to_act
        if forced and seat in forced and state.bids[seat] is None:
            action = forced[seat]
            if callable(action):
                action = action(views[seat].clone())
        else:
            bot = ns_bot if seat in (Seat.N, Seat.S) else ew_bot
            action = bot.act(views[seat].clone())
        state.apply(action)
        for view in views.values():
            view.apply(action)
    return state


def play(seed: int, index: int, ns_bot, heuristic) -> dict:
    state = play_out(seed, index, screen_deal(seed, index), ns_bot, heuristic)
    ns, ew = state.score()
    return {"deal": index, "bids": [int(b) for b in state.bids], "tricks": list(state.tricks),
            "ns": ns.to_json(), "ew": ew.to_json(), "engine": engine_fingerprint()}


def load(path: Path, key: str = "deal") -> dict[int, dict]:
    """The rows of a screen file (JSON lines), by their ``key``."""
    if not path.exists():
        return {}
    return {r[key]: r for r in map(json.loads, path.read_text().splitlines()) if r}


def append_rows(path: Path, indices, make_row, key: str = "deal", report=None) -> dict[int, dict]:
    """Make the row of each index not yet in the file ``path`` and append it there, so that a run
    stopped anywhere goes on where it was; ``make_row`` may give None (nothing to keep), and
    ``report(rows, index)`` says a line of progress. -> every row in the file, by index."""
    done = load(path, key)
    with path.open("a") as f:
        for index in indices:
            if index in done:
                continue
            row = make_row(index)
            if row is None:
                continue
            done[index] = row
            f.write(json.dumps(row) + "\n")
            f.flush()
            if report:
                print(report(done, index), flush=True)
    return done


def mean_se(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    n = len(values)
    mean = sum(values) / n
    return mean, math.sqrt(sum((x - mean) ** 2 for x in values) / max(1, n - 1) / n)


def sign_test(a: int, b: int) -> float:
    """Two-sided p of a split ``a`` : ``b`` of the cases one side won alone (a sign test)."""
    n = a + b
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(min(a, b) + 1)) / 2 ** n) if n else 1.0


def parts(team: dict) -> dict[str, float]:
    """A team's hand points split by kind; bags at their long-run cost, not their point."""
    nil_points = sum(n["points"] for n in team["nils"])
    # the hand's points before any bag penalty are the contract's, the nils' and a point a bag
    contract = team["hand_points"] + team["bag_penalty"] - nil_points - team["new_bags"]
    return {"contract": contract, "nils": nil_points, "bags": -BAG_CHARGE * team["new_bags"]}


def kinds(row: dict) -> dict[str, float]:
    ns, ew = parts(row["ns"]), parts(row["ew"])
    out = {f"N-S {k}": v for k, v in ns.items()}
    out.update({f"E-W {k}": v for k, v in ew.items()})
    out["N-S minus E-W"] = sum(ns.values()) - sum(ew.values())
    out["N-S set"] = float(row["ns"]["made"] is False)
    out["E-W set"] = float(row["ew"]["made"] is False)
    out["N-S nils bid"] = float(len(row["ns"]["nils"]))
    out["N-S nils made"] = float(sum(n["made"] for n in row["ns"]["nils"]))
    out["E-W nils bid"] = float(len(row["ew"]["nils"]))
    out["E-W nils made"] = float(sum(n["made"] for n in row["ew"]["nils"]))
    out["N-S contract (bid)"] = float(row["ns"]["contract"])
    return out


def compare(a: Path, b: Path) -> None:
    ra, rb = load(a), load(b)
    both = sorted(set(ra) & set(rb))
    n = len(both)
    print(f"{n} deals in both; mean a deal: first, second, first - second (standard error)")
    ka = [kinds(ra[k]) for k in both]
    kb = [kinds(rb[k]) for k in both]
    for name in ka[0] if ka else []:
        xa = [r[name] for r in ka]
        xb = [r[name] for r in kb]
        mean, se = mean_se([x - y for x, y in zip(xa, xb)])
        print(f"  {name:20s} {sum(xa) / n:8.2f} {sum(xb) / n:8.2f} {mean:+8.2f} ({se:.2f})")
    same_bids = sum(ra[k]["bids"] == rb[k]["bids"] for k in both)
    print(f"  same four bids in {same_bids} of {n} deals")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ns", default="pimc", help="the bot at North and South (a registry name)")
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--first", type=int, default=0, help="first deal index (to split a run)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--compare", type=Path, nargs=2, metavar=("A", "B"))
    args = ap.parse_args(argv)
    if args.compare:
        compare(*args.compare)
        return 0
    if args.out is None:
        ap.error("--out FILE is needed to play (or --compare A B)")
    ns_bot, heuristic = get_bot(args.ns), get_bot("heuristic")

    def report(rows: dict, index: int) -> str:
        row = rows[index]
        return f"deal {index}: bids {row['bids']} N-S {row['ns']['hand_points']} E-W {row['ew']['hand_points']}"

    append_rows(args.out, range(args.first, args.first + args.deals),
                lambda index: play(args.seed, index, ns_bot, heuristic), report=report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
