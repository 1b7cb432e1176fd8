"""scripts/paired_runs.py: two runs' hands compared where they reached the same position."""
from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path

from advisor.record import HandRecord
from script_loader import load_script

paired_runs = load_script("scripts/paired_runs.py")
HANDS = Path(__file__).resolve().parents[1] / "benchmarks/matches/pimc-heuristic-seed11-r5-hands.jsonl.gz"


def _first_rows(n: int) -> list[dict]:
    with gzip.open(HANDS, "rt") as f:
        rows = [json.loads(line) for _, line in zip(range(n), f)]
    return [r for r in rows if len(r["record"]["plays"]) == 52]


def test_the_same_run_twice_agrees_everywhere_and_one_changed_bid_shows(tmp_path, capsys):
    rows = _first_rows(12)
    first = {(r["deal_set"], r["game"], r["hand"]): r for r in rows}
    same = paired_runs.compare(first, first)
    assert same["bids"]["differ"] == 0 and same["bids"]["sum_diff"] == 0
    assert same["hands"]["hands"] == len(rows) and same["hands"]["set"] == [0, 0]
    assert same["bids"]["positions"] >= len(rows)  # at least the team's first bidder each hand
    # raise the team's first bid of tricks in one hand by one
    second = copy.deepcopy(first)

    def team_first_bidder(row: dict) -> str:
        order = paired_runs.bidding_order(HandRecord.from_json(row["record"]))
        return next(s.name for s in order if s.name in row["a_team"])

    row = next(r for r in second.values() if r["record"]["bids"][team_first_bidder(r)] not in (0, "blind_nil"))
    row["record"]["bids"][team_first_bidder(row)] += 1
    out = paired_runs.compare(first, second)
    assert out["bids"]["differ"] == 1 and out["bids"]["sum_diff"] == 1
    assert out["hands"]["hands"] == len(rows) - 1  # that hand's bids are no longer the same
    paths = []
    for name, rows_by_key in (("a", first), ("b", second)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows_by_key.values()))
        paths.append(str(path))
    assert paired_runs.main(paths) == 0
    assert ", differing 1;" in capsys.readouterr().out


def test_games_are_paired_by_deal_set_and_seating(tmp_path, capsys):
    def checkpoint(path, winners):
        header = {"format": "piki-match-checkpoint/1"}
        games = [{"deal_set": k // 2, "swapped": bool(k % 2), "winner": w} for k, w in enumerate(winners)]
        path.write_text(json.dumps(header) + "\n" + json.dumps({"games": games[:3]}) + "\n"
                        + json.dumps({"games": games[3:]}) + "\n")
        return str(path)

    first = checkpoint(tmp_path / "a.jsonl", ["A", "A", "B", "A", None, "A"])
    second = checkpoint(tmp_path / "b.jsonl", ["A", "B", "B", "B", "A", "B"])
    out = paired_runs.compare_games(paired_runs.game_winners(first), paired_runs.game_winners(second))
    assert out == {"games": 6, "wins": [4, 2], "only": [3, 1], "p": paired_runs.sign_test(3, 1)}
    assert paired_runs.sign_test(3, 1) == 2 * (1 + 4) / 16 and paired_runs.sign_test(0, 0) == 1.0
    assert paired_runs.main(["--games", first, second]) == 0
    assert "only in the first 3, only in the second 1" in capsys.readouterr().out


def test_several_runs_tally_how_many_won_each_game(tmp_path, capsys):
    def checkpoint(name, winners):
        path = tmp_path / name
        games = [{"deal_set": k // 2, "swapped": bool(k % 2), "winner": w} for k, w in enumerate(winners)]
        path.write_text(json.dumps({"format": "piki-match-checkpoint/1"}) + "\n"
                        + json.dumps({"games": games}) + "\n")
        return str(path)

    runs = [checkpoint("a.jsonl", ["A", "A", "B", "A"]),
            checkpoint("b.jsonl", ["A", "B", "B", None]),
            checkpoint("c.jsonl", ["A", "A", "B", "A", "A", "A"])]  # two games the others lack
    out = paired_runs.tally_games([paired_runs.game_winners(p) for p in runs])
    assert out == {"games": 4, "wins": [3, 1, 3], "won_by": [1, 0, 2, 1]}
    assert paired_runs.main(["--games", *runs]) == 0
    printed = capsys.readouterr().out
    assert "side A won 3, 1, 3" in printed and "won in every run 1, in none 1, in some 2" in printed


def _rows_of_deal_sets(path: Path, deal_sets: int) -> dict:
    with gzip.open(path, "rt") as f:
        rows = (json.loads(line) for line in f)
        return {(r["deal_set"], r["game"], r["hand"]): r for r in rows if r["deal_set"] < deal_sets}


def test_swings_find_the_games_won_in_one_run_only_and_their_largest_swing():
    matches = HANDS.parent
    first = _rows_of_deal_sets(HANDS, 12)
    second = _rows_of_deal_sets(matches / "pimc-heuristic-seed11-r11-hands.jsonl.gz", 12)
    # the games' results read from their last hands are the checkpoints' winners
    winners = [paired_runs.game_winners(str(matches / f"pimc-heuristic-seed11-{r}.jsonl")) for r in ("r5", "r11")]
    for rows, won in zip((first, second), winners):
        for (deal_set, game), hands in paired_runs.games(rows).items():
            assert paired_runs.game_result(hands) == won[(deal_set, game == 2)]
    flipped = {(d, 2 if s else 1) for (d, s), w in winners[0].items()
               if d < 12 and (w == "A") != (winners[1][(d, s)] == "A")}
    found = paired_runs.swings(first, second)
    assert flipped and {f["game"] for f in found} == flipped
    g1, g2 = paired_runs.games(first), paired_runs.games(second)
    for f in found:
        won, lost = (g1, g2) if f["won_in"] == "first" else (g2, g1)
        margins = []
        for hand in set(won[f["game"]]) & set(lost[f["game"]]):
            w = paired_runs.hand_outcome(won[f["game"]][hand])
            lo = paired_runs.hand_outcome(lost[f["game"]][hand])
            margins.append((w["A"]["points"] - w["B"]["points"]) - (lo["A"]["points"] - lo["B"]["points"]))
        assert f["swing"] == max(margins) > 0


def test_a_swing_is_named_by_the_first_thing_that_differs():
    def side(points=50, nils=(), set_=False):
        return {"points": points, "nils": list(nils), "set": set_}

    kind = paired_runs.swing_kind
    assert kind({"A": side(), "B": side(nils=[False])}, {"A": side(), "B": side(nils=[True])}) \
        == "an opponent's nil made only in the lost game"
    assert kind({"A": side(), "B": side(nils=[True])}, {"A": side(), "B": side()}) \
        == "an opponent's nil bid in one game only"
    assert kind({"A": side(nils=[True]), "B": side()}, {"A": side(nils=[False]), "B": side()}) \
        == "a nil of side A made only in the won game"
    assert kind({"A": side(), "B": side()}, {"A": side(set_=True), "B": side()}) \
        == "side A's contract set in one game only"
    assert kind({"A": side(), "B": side(set_=True)}, {"A": side(), "B": side()}) \
        == "the opponents' contract set in one game only"
    assert kind({"A": side(80), "B": side()}, {"A": side(), "B": side()}) == "other"
