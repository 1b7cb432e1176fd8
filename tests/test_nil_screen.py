"""scripts/nil_screen.py: the forced-nil deals are fit for nil, the same for a seed, and played out."""
from __future__ import annotations

import json

from advisor.bots import get_bot
from advisor.bots.heuristic_bid import can_bid_nil
from advisor.cards import Seat, cards_to_mask

from script_loader import load_script

nil_screen = load_script("scripts/nil_screen.py")


def test_screen_deals_are_fit_for_nil_and_repeatable():
    for index in range(5):
        dealer, hands, points, bags = nil_screen.nil_deal(7, index)
        assert can_bid_nil(cards_to_mask(hands[Seat.N]))
        assert sum(len(h) for h in hands.values()) == 52
        again = nil_screen.nil_deal(7, index)
        assert again[0] == dealer and again[2:] == (points, bags)
        assert {s: sorted(h) for s, h in again[1].items()} == {s: sorted(h) for s, h in hands.items()}
    assert nil_screen.nil_deal(7, 0)[1] != nil_screen.nil_deal(8, 0)[1]


def test_screen_plays_north_nil_and_resumes_its_file(tmp_path):
    heuristic = get_bot("heuristic")
    row = nil_screen.play(7, 0, heuristic, heuristic)
    assert row["bids"][Seat.N] == 0 and isinstance(row["made"], bool)
    out = tmp_path / "screen.jsonl"
    out.write_text(json.dumps(row) + "\n")
    assert nil_screen.load(out) == {0: row}
    assert "1 nils" in nil_screen.summary({0: row})
