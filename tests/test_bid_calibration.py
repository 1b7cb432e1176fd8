"""scripts/bid_calibration.py: the bid model's team tricks against double dummy, from a match's hands."""
from __future__ import annotations

import json
import statistics

from advisor.match_cli import main as match_main

from script_loader import load_script

bid_calibration = load_script("scripts/bid_calibration.py")


def test_calibration_covers_the_matchs_contracts(tmp_path, capsys):
    hands = tmp_path / "hands.jsonl"
    assert match_main(["--a", "heuristic", "--b", "heuristic", "--games", "2", "--seed", "5",
                       "--jobs", "1", "--dd", "--json", "--quiet", "--hands", str(hands)]) == 0
    figures = json.loads(capsys.readouterr().out)["a"]
    rows = bid_calibration.read_rows(hands)
    items = list(bid_calibration.decisions(rows, "A", budget=0.02))
    # the same contracts as the match's bid error, and the same error
    assert len(items) == figures["bid_error_hands"]
    assert round(statistics.mean(abs(d["contract"] - d["dd"]) for d in items), 3) == figures["bid_error"]
    assert all(0 <= d["model"] <= 13 and 0 <= d["oracle"] <= 13 for d in items)
    # the search sees the bidder's cards: its estimate follows the deal's real tricks
    assert statistics.correlation([d["model"] for d in items], [d["dd"] for d in items]) > 0.5
    assert bid_calibration.main([str(hands), "--side", "A", "--budget", "0.02", "--limit", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("side A: 3 contracts") and "partner in view" in out
    # the nils: the same ones the match counted, each with the advised chance
    nils = list(bid_calibration.nil_decisions(rows, "A", budget=0.02))
    assert len(nils) == figures["nils"] > 0
    assert round(sum(d["made"] for d in nils) / len(nils), 4) == figures["nil_made_rate"]
    assert all(0.0 <= d["chance"] <= 1.0 and isinstance(d["dd_made"], bool) and isinstance(d["again"], bool)
               for d in nils)
    # each nil's place in the bidding (under the piki preset the dealer bids first)
    places = []
    for row in rows:
        rec = row["record"]
        order = ["NESW"[("NESW".index(rec["dealer"]) + k) % 4] for k in range(4)]
        team = row["a_team"]
        places += [k + 1 for k, s in enumerate(order) if s in team and rec["bids"][s] in (0, "nil")]
    assert [d["position"] for d in nils] == places
    assert bid_calibration.main([str(hands), "--nils", "--budget", "0.02"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"side A: {len(nils)} nils") and "by the place in the bidding" in out
    # set by contract - DD: the same contracts, and sets exactly where tricks fell short
    pairs = bid_calibration.set_items(rows, "A")
    assert sorted(d for d, _ in pairs) == sorted(d["contract"] - d["dd"] for d in items)
    assert bid_calibration.main([str(hands), str(hands), "--sets"]) == 0
    assert capsys.readouterr().out.startswith(f"side A: {2 * len(pairs)} contracts")
    assert bid_calibration.main([str(hands), "--sets", "--side", "AB"]) == 0
    assert capsys.readouterr().out.startswith("side AB: ")
    assert bid_calibration.main([str(hands), "--side", "AB"]) == 2  # pooled sides only for --sets
    assert "goes with --sets" in capsys.readouterr().err


def test_shading_counts_error_and_contracts_above_double_dummy():
    items = [{"model": 7.2, "dd": 7}, {"model": 4.9, "dd": 4}]
    # k = 0: contracts 7 and 5 against 7 and 4
    assert bid_calibration.shaded(items, "model", 0.0) == (0.5, 0.5)
    # k = 1: contracts 6 and 4
    assert bid_calibration.shaded(items, "model", 1.0) == (0.5, 0.0)


def test_set_fit_recovers_a_known_curve():
    import math
    import random

    truth = (-2.5, 0.5, 0.9)
    rng = random.Random(3)
    items = []
    for _ in range(20000):
        d = rng.randint(-4, 3)
        p = 1 / (1 + math.exp(-(truth[0] + (truth[1] if d < 0 else truth[2]) * d)))
        items.append((d, rng.random() < p))
    fitted = bid_calibration.fit_sets(items)
    assert all(abs(f - t) < 0.15 for f, t in zip(fitted, truth)), fitted
    report = bid_calibration.sets_report(items, "A")
    assert report.startswith("side A: 20000 contracts") and "SET_WEIGHTS = (" in report
