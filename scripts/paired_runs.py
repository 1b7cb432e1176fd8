"""Two match runs' hands, compared where they met the same position.

    python scripts/paired_runs.py FIRST-hands.jsonl.gz SECOND-hands.jsonl.gz
    python scripts/paired_runs.py --games FIRST.jsonl SECOND.jsonl   # two match checkpoints

Runs of the same ``--seed`` deal the same cards to the same hand of the same game, but the games
drift apart (other scores, other dealers' turns once a game ends earlier). Where both runs reached
the same hand with the same situation (cards, dealer, score and bags before it), this compares:

- the bids of the team under test (``a_team``) made with the same bids before them: how often
  they differ, the mean difference of the bids of tricks, and the nils in each run;
- the hands where all four bids were the same: how often that team was set in each run (set in
  one only, in both) and its mean tricks.

It tells whether two engines decide differently in the same places, which a difference in their
match figures alone cannot (those also come from the positions each run happened to reach).

``--games`` pairs two runs' checkpoints game by game instead (the same deal set and seating):
the games side A won in each, those it won in one run only, and a two-sided sign test on those.
Given three or more checkpoints, it counts instead in how many of the runs side A won each game
that all of them reached: how many games every engine won, how many none did, and how many went
either way (a game decided by the sampling and the clock as much as by the cards).

    python scripts/paired_runs.py --games R3.jsonl R4.jsonl R5.jsonl

``--swings`` takes two runs' hands files and looks at the games side A won in one run only (each
game's result read from its last hand): in the hands the two runs both played (the same cards),
it finds the one whose margin (side A's hand points minus side B's) moved most towards the run
that won, and names what happened there — an opponent's nil made only in the lost game, a nil of
side A bid in one run only, a contract set in one run only. It says where the games that turn
over between two engines (or two runs of one) are decided.

    python scripts/paired_runs.py --swings FIRST-hands.jsonl.gz SECOND-hands.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor.bids import is_nil  # noqa: E402
from advisor.cards import Seat  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from hand_screen import sign_test  # noqa: E402
from set_anatomy import side_team  # noqa: E402


def load(path: str) -> dict[tuple[int, int, int], dict]:
    """A hands file's last copy of each (deal set, game, hand)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        rows = (json.loads(line) for line in f if line.strip())
        return {(r["deal_set"], r["game"], r["hand"]): r for r in rows}


def bidding_order(record: HandRecord) -> list[Seat]:
    """The seats in the order they bid, from the record's rules (who bids first) and dealer."""
    first = record.new_state().first
    return [Seat((first + i) & 3) for i in range(4)]


def same_situation(a: dict, b: dict) -> bool:
    keys = ("hands", "dealer", "score_before", "bags_before")
    return a["a_team"] == b["a_team"] and all(a["record"][k] == b["record"][k] for k in keys)


def compare(first: dict, second: dict) -> dict:
    bids = {"positions": 0, "differ": 0, "sum_diff": 0, "tricks_bids": 0, "nils": [0, 0]}
    hands = {"hands": 0, "set": [0, 0], "set_both": 0, "tricks": [0, 0]}
    for key in sorted(set(first) & set(second)):
        a, b = first[key], second[key]
        if not same_situation(a, b):
            continue
        ra, rb = HandRecord.from_json(a["record"]), HandRecord.from_json(b["record"])
        team = a["a_team"]
        order = bidding_order(ra)
        for i, seat in enumerate(order):
            if seat.name not in team:
                continue
            if any(ra.bids.get(s) != rb.bids.get(s) for s in order[:i]):
                break
            x, y = ra.bids.get(seat), rb.bids.get(seat)
            if x is None or y is None:
                break
            bids["positions"] += 1
            bids["differ"] += x != y
            bids["nils"][0] += is_nil(x)
            bids["nils"][1] += is_nil(y)
            if not is_nil(x) and not is_nil(y):
                bids["tricks_bids"] += 1
                bids["sum_diff"] += y - x
        if ra.bids != rb.bids or len(ra.plays) < 52 or len(rb.plays) < 52:
            continue
        hands["hands"] += 1
        sets = []
        for i, record in enumerate((ra, rb)):
            ns, ew = replay(record).score()
            ours = (ns if team == "NS" else ew).to_json()
            hands["tricks"][i] += ours["tricks"]
            sets.append(ours["contract"] > 0 and ours["made"] is False)
        hands["set_both"] += sets[0] and sets[1]
        for i in range(2):
            hands["set"][i] += sets[i] and not sets[1 - i]
    return {"bids": bids, "hands": hands}


def game_winners(path: str) -> dict[tuple[int, bool], str]:
    """A match checkpoint's winner ("A", "B" or a draw's None) of each (deal set, swapped) game."""
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()][1:]  # the first line is the header
    return {(g["deal_set"], g["swapped"]): g["winner"] for line in lines for g in line["games"]}


def compare_games(first: dict, second: dict) -> dict:
    keys = sorted(set(first) & set(second))
    only = [sum(x[k] == "A" and y[k] != "A" for k in keys) for x, y in ((first, second), (second, first))]
    return {"games": len(keys), "wins": [sum(r[k] == "A" for k in keys) for r in (first, second)],
            "only": only, "p": sign_test(*only)}


def games(rows: dict) -> dict[tuple[int, int], dict[int, dict]]:
    """A hands file's finished hands (as :func:`load` gives them) by game, then by hand."""
    out: dict = {}
    for (deal_set, game, hand), row in rows.items():
        if len(row["record"]["plays"]) == 52:
            out.setdefault((deal_set, game), {})[hand] = row
    return out


MAX_HANDS = 40  # piki match's default --max-hands


def game_result(hands: dict[int, dict]) -> str | None:
    """"A", "B" or "draw" from a game's last hand; None when the file stops before the end (a
    game still running at the hand cap is decided on points, as the match decides it)."""
    row = hands[max(hands)]
    state = replay(HandRecord.from_json(row["record"]))
    over, winner = state.game_result()
    if not over:
        if max(hands) < MAX_HANDS:
            return None
        ns, ew = (t.points for t in state.score())
        winner = "draw" if ns == ew else "NS" if ns > ew else "EW"
    if winner == "draw":
        return "draw"
    return "A" if winner == row["a_team"] else "B"


def hand_outcome(row: dict) -> dict:
    """Per side (A, B) of a finished hand: its hand points, whether each of its nils made, and
    whether its contract was set."""
    record = HandRecord.from_json(row["record"])
    scores = replay(record).score()
    out = {}
    for side in "AB":
        sc = scores[side_team(row, side)]
        out[side] = {"points": sc.hand_points, "nils": [n.made for n in sc.nils],
                     "set": sc.contract > 0 and sc.made is False}
    return out


def swing_kind(won: dict, lost: dict) -> str:
    """What differs in one hand between the game side A won (``won``) and the one it lost."""
    for side, whose in (("B", "an opponent's nil"), ("A", "a nil of side A")):
        w, lo = won[side]["nils"], lost[side]["nils"]
        if w != lo:
            if len(w) != len(lo):
                return f"{whose} bid in one game only"
            return f"{whose} made only in the {'lost' if sum(lo) > sum(w) else 'won'} game"
    if won["A"]["set"] != lost["A"]["set"]:
        return "side A's contract set in one game only"
    if won["B"]["set"] != lost["B"]["set"]:
        return "the opponents' contract set in one game only"
    return "other"


def swings(first: dict, second: dict) -> list[dict]:
    """For each game side A won in one run only: the hand (played in both) whose margin moved most
    towards the run that won, how far, and what differed there."""
    a, b = games(first), games(second)
    out = []
    for key in sorted(set(a) & set(b)):
        ra, rb = game_result(a[key]), game_result(b[key])
        if ra is None or rb is None or (ra == "A") == (rb == "A"):
            continue
        won, lost = (a[key], b[key]) if ra == "A" else (b[key], a[key])
        best = None
        for hand in sorted(set(won) & set(lost)):
            w, l_ = hand_outcome(won[hand]), hand_outcome(lost[hand])
            swing = (w["A"]["points"] - w["B"]["points"]) - (l_["A"]["points"] - l_["B"]["points"])
            if best is None or swing > best["swing"]:
                best = {"game": key, "hand": hand, "swing": swing, "kind": swing_kind(w, l_),
                        "won_in": "first" if ra == "A" else "second"}
        if best is not None:
            out.append(best)
    return out


def tally_games(runs: list[dict]) -> dict:
    """Over the games every run reached: each run's wins for side A, and how many games side A
    won in 0, 1, … of the runs (a draw counts as not won)."""
    keys = sorted(set.intersection(*(set(r) for r in runs)))
    by_count = [0] * (len(runs) + 1)
    for k in keys:
        by_count[sum(r[k] == "A" for r in runs)] += 1
    return {"games": len(keys), "wins": [sum(r[k] == "A" for k in keys) for r in runs],
            "won_by": by_count}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("more", nargs="*", help="with --games: more checkpoints, to tally together")
    ap.add_argument("--games", action="store_true", help="the files are match checkpoints: pair the games")
    ap.add_argument("--swings", action="store_true",
                    help="hands files: where the games won in one run only were decided")
    args = ap.parse_args(argv)
    if args.swings:
        if args.games or args.more:
            ap.error("--swings takes two hands files")
        found = swings(load(args.first), load(args.second))
        by_kind: dict[str, list[int]] = {}
        for f in found:
            by_kind.setdefault(f["kind"], []).append(f["swing"])
        won_first = sum(f["won_in"] == "first" for f in found)
        print(f"games side A won in one run only: {len(found)} (in the first {won_first}, in the second"
              f" {len(found) - won_first}); the hand of each whose margin moved most towards the winner:")
        for kind, values in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
            print(f"  {len(values):4d}  {kind} (mean swing {sum(values) / len(values):+.0f} points)")
        return 0
    if args.more and not args.games:
        ap.error("only --games takes more than two files")
    if args.games and args.more:
        t = tally_games([game_winners(p) for p in [args.first, args.second, *args.more]])
        n = len(t["won_by"]) - 1
        print(f"{t['games']} games in all {n} runs: side A won " + ", ".join(map(str, t["wins"])))
        print(f"won in every run {t['won_by'][n]}, in none {t['won_by'][0]}, in some"
              f" {t['games'] - t['won_by'][n] - t['won_by'][0]}; games by the runs that won them: "
              + ", ".join(f"{i}: {c}" for i, c in enumerate(t["won_by"])))
        return 0
    if args.games:
        g = compare_games(game_winners(args.first), game_winners(args.second))
        print(f"{g['games']} games in both: side A won {g['wins'][0]} in the first, {g['wins'][1]} in the"
              f" second; only in the first {g['only'][0]}, only in the second {g['only'][1]}"
              f" (sign test p = {g['p']:.2f})")
        return 0
    out = compare(load(args.first), load(args.second))
    b, h = out["bids"], out["hands"]
    mean = b["sum_diff"] / max(1, b["tricks_bids"])
    print(f"bids with the same situation and bids before them: {b['positions']}, differing {b['differ']};"
          f" nils {b['nils'][0]} / {b['nils'][1]}; bids of tricks (second - first) {mean:+.3f} on {b['tricks_bids']}")
    n = max(1, h["hands"])
    print(f"hands with the same four bids: {h['hands']}; set only in the first {h['set'][0]}, only in the"
          f" second {h['set'][1]}, in both {h['set_both']}; tricks {h['tricks'][0] / n:.2f} /"
          f" {h['tricks'][1] / n:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
