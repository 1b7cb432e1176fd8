"""Where a duplicate match's points come from, set against the twin game with the same cards.

In ``piki match`` each deal set is played twice with the seats swapped, so every hand of a game
has a twin: the same deal, the same seats, the other side playing them. For the games a side won
(or lost, or all), this sums the points of each hand two games share, by kind: the contract
(ten a trick bid, made or set), bag points (one an overtrick), bag penalties, nils and blind
nils; for each set of cards, once as played in the game and once by the other side in the twin.
What a side does with the cards that lost it the game, against what its opponent did with them.

    python scripts/twin_points.py CHECKPOINT.jsonl HANDS.jsonl[.gz]... [--side A|B] [--games lost|won|all]

(CHECKPOINT: ``piki match --checkpoint``; HANDS: ``--hands`` of the same match, with or without --dd.)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from advisor.cards import Team  # noqa: E402
from advisor.match_checkpoint import game_from_json  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from set_anatomy import read_rows  # noqa: E402

KINDS = ("contract", "bags", "bag penalty", "nil", "blind nil", "total")


def points_by_kind(record: dict, team: Team) -> dict[str, int]:
    """``team``'s points in the hand of ``record``, by kind (they add up to its hand points)."""
    s = replay(HandRecord.from_json(record)).score()[team]
    nil = sum(n.points for n in s.nils if not n.blind)
    blind = sum(n.points for n in s.nils if n.blind)
    return {"contract": s.hand_points - s.new_bags - nil - blind + s.bag_penalty, "bags": s.new_bags,
            "bag penalty": -s.bag_penalty, "nil": nil, "blind nil": blind, "total": s.hand_points}


def read_games(path: Path) -> dict[tuple[int, int], object]:
    """The games of a match checkpoint by (deal set, game number 1 or 2 as in a hands file)."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    out = {}
    for line in lines:
        for g in json.loads(line)["games"]:
            game = game_from_json(g)
            out[(game.deal_set, 2 if game.swapped else 1)] = game
    return out


def twin_sums(games: dict, rows: list[dict], side: str, outcome: str):
    """(number of games, {row label: {kind: points summed}}) over the games ``side`` had the
    ``outcome`` in, and the hands each of them shares with its twin."""
    other = "B" if side == "A" else "A"
    hands: dict[tuple[int, int], dict[int, dict]] = defaultdict(dict)
    for row in rows:
        hands[(row["deal_set"], row["game"])][row["hand"]] = row
    labels = (f"{side}'s cards, {side} playing", f"{side}'s cards, {other} playing (twin)",
              f"{other}'s cards, {other} playing", f"{other}'s cards, {side} playing (twin)")
    sums = {label: dict.fromkeys(KINDS, 0) for label in labels}
    count = 0
    for (deal_set, number), game in sorted(games.items()):
        result = "draw" if game.winner == "draw" else "won" if game.winner == side else "lost"
        twin = (deal_set, 3 - number)
        if (outcome != "all" and result != outcome) or (deal_set, number) not in hands or twin not in hands:
            continue
        count += 1
        for k in sorted(set(hands[(deal_set, number)]) & set(hands[twin])):
            row, twin_row = hands[(deal_set, number)][k], hands[twin][k]
            ours = Team.NS if (row["a_team"] == "NS") == (side == "A") else Team.EW
            for label, record, team in zip(labels, (row, twin_row, row, twin_row),
                                           (ours, ours, ours.other, ours.other)):
                for kind, v in points_by_kind(record["record"], team).items():
                    sums[label][kind] += v
    return count, sums


def report(count: int, sums: dict, outcome: str) -> str:
    lines = [f"{count} games ({outcome}); points a game, over the hands each shares with its twin",
             f"{'':<34}" + "".join(f"{k:>12}" for k in KINDS)]
    for label, d in sums.items():
        lines.append(f"{label:<34}" + "".join(f"{d[k] / count:>12.1f}" for k in KINDS))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("checkpoint", type=Path, help="the match's --checkpoint file")
    p.add_argument("hands", type=Path, nargs="+", help="its --hands files (.gz too)")
    p.add_argument("--side", choices=("A", "B"), default="A")
    p.add_argument("--games", choices=("lost", "won", "all"), default="lost",
                   help="the side's games to count (default lost)")
    args = p.parse_args(argv)
    try:
        games = read_games(args.checkpoint)
        rows = [row for path in args.hands for row in read_rows(path)]
    except (OSError, ValueError, KeyError) as e:
        print(f"twin_points: cannot read the match: {e}", file=sys.stderr)
        return 2
    count, sums = twin_sums(games, rows, args.side, args.games)
    if count == 0:
        print(f"twin_points: no {args.games} game of side {args.side} with both games' hands", file=sys.stderr)
        return 2
    print(report(count, sums, args.games))
    return 0


if __name__ == "__main__":
    sys.exit(main())
