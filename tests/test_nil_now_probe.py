"""scripts/nil_now_probe.py: the defence's card with and without the bonus for a sure nil bust."""
from __future__ import annotations

import json
from pathlib import Path

from script_loader import load_script

probe = load_script("scripts/nil_now_probe.py")
HANDS = Path(__file__).resolve().parents[1] / "benchmarks/matches/pimc-heuristic-seed11-r12-hands.jsonl.gz"


def test_positions_and_choices_from_a_match_file(capsys):
    assert probe.main([str(HANDS), "--side", "A", "--deals", "4", "--limit", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [json.loads(line) for line in lines if line.startswith("{")]
    assert len(rows) == 4
    hands = {(h["deal_set"], h["game"], h["hand"]): h for h in probe.last_copies([HANDS])}
    for row in rows:
        hand = hands[(row["deal_set"], row["game"], row["hand"])]
        team = hand["a_team"]
        assert row["seat"] in team and row["nil"] not in team  # side A defends side B's nil
        assert hand["record"]["bids"][row["nil"]] == 0
        assert {row["without"], row["with"]} <= {"duck", "over"}
        # the bonus adds only to cards that leave the nil the trick: a duck stays a duck
        assert row["without"] == "over" or row["with"] == "duck"
    assert sum(int(line.rsplit(": ", 1)[1]) for line in lines if line.startswith("without")) == 4


def test_each_position_has_the_nil_winning_and_both_kinds_of_card():
    hand = next(h for h in probe.last_copies([HANDS]) if any(True for _ in probe.positions(h, "A")))
    for state, seat, nil, ducks in probe.positions(hand, "A"):
        assert state.best_seat == nil and state.tricks[nil] == 0 and state.to_act == seat
        legal = state.legal_cards()
        assert ducks and set(ducks) < set(legal)
        assert all(not probe.search.beats(c, state.best_card) for c in ducks)
