"""scripts/set_anatomy.py: a match's sets, split by kind and situation, from its hands file."""
from __future__ import annotations

import json

from advisor.match_cli import main as match_main

from script_loader import load_script

set_anatomy = load_script("scripts/set_anatomy.py")


def test_sets_add_up_to_the_match_figures(tmp_path, capsys):
    hands = tmp_path / "hands.jsonl"
    assert match_main(["--a", "heuristic", "--b", "random", "--games", "4", "--seed", "5",
                       "--jobs", "1", "--dd", "--json", "--quiet", "--hands", str(hands)]) == 0
    figures = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in hands.read_text().splitlines()]
    for side in "AB":
        items = list(set_anatomy.contracts(rows, side))
        sets = [c for c in items if not c["made"]]
        # the same contracts and sets as the match counted
        assert round(len(sets) / len(items), 4) == figures[side.lower()]["set_rate"]
        for c in sets:
            k = set_anatomy.kind(c)
            if k == "beyond double dummy":
                assert c["contract"] > c["dd"]
            elif k == "lost in the play":
                assert c["contract"] <= c["dd"] and c["tricks"] < c["contract"]
            else:
                assert c["nil"]
        plain = [c for c in items if not c["nil"]]
        error = sum(abs(c["contract"] - c["dd"]) for c in plain) / len(plain)
        assert round(error, 3) == figures[side.lower()]["bid_error"]
    # random bids far beyond what its cards take, and is set far more often
    b = list(set_anatomy.contracts(rows, "B"))
    assert sum(set_anatomy.kind(c) == "beyond double dummy" for c in b if not c["made"]) > 0
    assert set_anatomy.main([str(hands), "--side", "A"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("side A: ") and "contract - DD" in out
    assert "opponent nil" in out and "\nnone " in out


def test_an_opponents_nil_is_placed_before_or_after_the_teams_last_bid():
    from advisor.cards import Seat, Team
    from advisor.rules import Rules
    from advisor.state import HandState

    def label(bids, team):
        state = HandState(Rules(), Seat.N, None)  # N bids first under piki
        for b in bids:
            state.bid(b)
        return set_anatomy.opponent_nil(state, team)

    assert label([3, 0, 4, 3], Team.NS) == "before"  # E's nil came before S's bid
    assert label([3, 0, 4, 3], Team.EW) == "none"  # E's own nil is not an opponent's
    assert label([3, 3, 4, 0], Team.NS) == "after"  # W bid nil after S, the team's last bid
    assert label([0, 3, 4, 3], Team.EW) == "before"
    assert label([3, 3, 4, 3], Team.NS) == "none"
