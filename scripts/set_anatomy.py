"""Where a side's contracts are set, from the hands of a match (``piki match --dd --hands FILE``).

Each contract a side bid is put in one of three kinds:

- **beyond double dummy**: the team bid more tricks than it could take with every card in view
  (no nil in the team, so the double-dummy tricks are the contract's);
- **lost in the play**: the contract was within the team's double-dummy tricks and still set;
- **beside a nil**: the team had a nil, whose tricks do not count, so the double-dummy figure
  says little about the contract.

and counted by the situation it was bid in: the score (the side's lead before the hand), whether
the opponents were near the goal, whether the team's seats bid first and third or second and last,
and whether an opponent bid nil (before the team's last bid, or after it): beside an opponent's
nil the team spends tricks on busting it, which double dummy (both teams playing for tricks)
does not, so the bid error is told apart there.

    python scripts/set_anatomy.py HANDS.jsonl [--side A|B]
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from advisor.bids import is_nil  # noqa: E402
from advisor.cards import Team  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402


def side_team(row: dict, side: str) -> Team:
    """The team that ``side`` (A or B) played in the hand of ``row``."""
    return Team.NS if (row["a_team"] == "NS") == (side == "A") else Team.EW


def contracts(rows, side: str):
    """One dict per hand where ``side``'s team had a contract (with the hand's record and its
    replayed state, for a closer look)."""
    for row in rows:
        record = HandRecord.from_json(row["record"])
        state = replay(record)
        team = side_team(row, side)
        score = state.score()[team]
        if score.contract == 0:
            continue
        dd = row.get("dd_ns")
        if dd is not None and team is Team.EW:
            dd = 13 - dd
        own, opp = record.score_before[team], record.score_before[1 - team]
        yield {
            "opponent_nil": opponent_nil(state, team),
            "made": bool(score.made),
            "contract": score.contract,
            "tricks": score.counted_tricks,
            "dd": dd,
            "nil": bool(score.nils),
            "lead": own - opp,
            "opp_near": opp >= record.rules.win_at - 100,
            "own_near": own >= record.rules.win_at - 100,
            "team_first": int(state.first) % 2 == int(team),
            "bags": record.bags_before[team],
            "team": team,
            "record": record,
            "replayed": state,
        }


def opponent_nil(state, team: Team) -> str:
    """``"none"``, or when an opponent bid nil: ``"before"`` (the team's last bid knew it) or
    ``"after"``."""
    order = [int(state.first.next(i)) for i in range(4)]
    nils = [order.index(s) for s in range(4) if (s & 1) != int(team) and is_nil(state.bids[s])]
    if not nils:
        return "none"
    last = max(order.index(s) for s in range(4) if (s & 1) == int(team))
    return "before" if min(nils) < last else "after"


def kind(c: dict) -> str:
    if c["nil"] or c["dd"] is None:
        return "beside a nil"
    return "beyond double dummy" if c["contract"] > c["dd"] else "lost in the play"


def lead_bucket(lead: int) -> str:
    for top, name in ((-150, "behind by >150"), (0, "behind by 1-150"), (150, "ahead by 0-149")):
        if lead < top:
            return name
    return "ahead by 150+"


def table(title: str, groups: dict[str, list[dict]]) -> list[str]:
    lines = [f"{title:<24}{'contracts':>10}{'set':>6}{'rate':>7}{'beyond DD':>11}{'in play':>9}"
             f"{'by nil':>8}"]
    for name, items in groups.items():
        sets = [c for c in items if not c["made"]]
        kinds = Counter(kind(c) for c in sets)
        rate = len(sets) / len(items) if items else 0.0
        lines.append(f"{name:<24}{len(items):>10}{len(sets):>6}{rate:>7.3f}"
                     f"{kinds['beyond double dummy']:>11}{kinds['lost in the play']:>9}"
                     f"{kinds['beside a nil']:>8}")
    return lines


def report(rows: list[dict], side: str) -> str:
    items = list(contracts(rows, side))
    lines = [f"side {side}: {len(items)} contracts"]
    lines += table("all", {"all": items})
    by_lead: dict[str, list[dict]] = defaultdict(list)
    for c in items:
        by_lead[lead_bucket(c["lead"])].append(c)
    order = ["behind by >150", "behind by 1-150", "ahead by 0-149", "ahead by 150+"]
    lines += table("score before", {k: by_lead[k] for k in order if k in by_lead})
    lines += table("near the goal", {
        "opponents within 100": [c for c in items if c["opp_near"]],
        "we within 100": [c for c in items if c["own_near"] and not c["opp_near"]],
        "neither": [c for c in items if not c["own_near"] and not c["opp_near"]]})
    lines += table("team", {"with a nil": [c for c in items if c["nil"]],
                            "no nil": [c for c in items if not c["nil"]]})
    lines += table("bidding order", {"first and third": [c for c in items if c["team_first"]],
                                     "second and last": [c for c in items if not c["team_first"]]})
    plain = [c for c in items if not c["nil"] and c["dd"] is not None]
    if plain:
        diff = [c["contract"] - c["dd"] for c in plain]
        short = [c["tricks"] - c["dd"] for c in plain]
        hist = Counter(diff)
        lines.append(f"no nil, {len(plain)} contracts: contract - DD mean {sum(diff) / len(diff):+.2f}"
                     f", |error| {sum(map(abs, diff)) / len(diff):.3f}; tricks taken - DD mean "
                     f"{sum(short) / len(short):+.2f}")
        lines.append("contract - DD: " + ", ".join(f"{d:+d}: {hist[d]}" for d in sorted(hist)))
        for d in sorted(hist):
            group = [c for c in plain if c["contract"] - c["dd"] == d]
            sets = sum(not c["made"] for c in group)
            lines.append(f"  {d:+d}: set {sets} of {len(group)}")
        lines.append(f"{'opponent nil':<24}{'contracts':>10}{'rate':>7}{'|error|':>9}"
                     f"{'contract-DD':>13}{'taken-DD':>10}")
        for name in ("none", "before", "after"):
            group = [c for c in plain if c["opponent_nil"] == name]
            if group:
                n = len(group)
                lines.append(f"{name:<24}{n:>10}{sum(not c['made'] for c in group) / n:>7.3f}"
                             f"{sum(abs(c['contract'] - c['dd']) for c in group) / n:>9.3f}"
                             f"{sum(c['contract'] - c['dd'] for c in group) / n:>+13.2f}"
                             f"{sum(c['tricks'] - c['dd'] for c in group) / n:>+10.2f}")
    return "\n".join(lines)


def read_rows(path: Path) -> list[dict]:
    """The rows of a hands file (gzipped when its name ends in .gz)."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("hands", type=Path, help="a piki match --hands file (with --dd; .gz too)")
    p.add_argument("--side", choices=("A", "B"), action="append",
                   help="the side to report (default both)")
    args = p.parse_args(argv)
    rows = read_rows(args.hands)
    for side in args.side or ["A", "B"]:
        print(report(rows, side))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
