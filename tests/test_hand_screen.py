"""scripts/hand_screen.py: the same deals for a seed, played out, and split by kind of points."""
from __future__ import annotations

import json

from advisor.bots import get_bot
from advisor.rules import Rules
from advisor.scoring import score_hand

from script_loader import load_script

hand_screen = load_script("scripts/hand_screen.py")


def test_screen_deals_repeat_for_a_seed():
    for index in range(3):
        dealer, hands, points, bags = hand_screen.screen_deal(5, index)
        again = hand_screen.screen_deal(5, index)
        assert again[0] == dealer and again[2:] == (points, bags)
        assert {s: sorted(h) for s, h in again[1].items()} == {s: sorted(h) for s, h in hands.items()}
    assert hand_screen.screen_deal(5, 0)[1] != hand_screen.screen_deal(6, 0)[1]


def test_a_played_deal_splits_into_contract_nil_and_bag_points(tmp_path, capsys):
    heuristic = get_bot("heuristic")
    rows = [hand_screen.play(5, i, heuristic, heuristic) for i in range(6)]
    for row in rows:
        assert sum(row["tricks"]) == 13
        ns, ew = score_hand(Rules(), tuple(row["bids"]), tuple(row["tricks"]))
        assert (row["ns"]["contract"], row["ew"]["contract"]) == (ns.contract, ew.contract)
        kinds = hand_screen.kinds(row)
        # bags at 10 points each instead of their 1: the parts add up to the hand points less 11 a bag
        for team, key in (("ns", "N-S"), ("ew", "E-W")):
            parts = kinds[f"{key} contract"] + kinds[f"{key} nils"] + kinds[f"{key} bags"]
            assert parts == row[team]["hand_points"] + row[team]["bag_penalty"] - 11 * row[team]["new_bags"]
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text("".join(json.dumps(r) + "\n" for r in rows))
    b.write_text("".join(json.dumps(r) + "\n" for r in rows[:4]))
    assert hand_screen.load(a) == {i: r for i, r in enumerate(rows)}
    hand_screen.compare(a, b)
    out = capsys.readouterr().out
    assert "4 deals in both" in out and "same four bids in 4 of 4 deals" in out
