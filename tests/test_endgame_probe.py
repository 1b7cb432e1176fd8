"""scripts/endgame_probe.py: North bids last, both advices on the same deals, judged on the true deal."""
from __future__ import annotations

from advisor import search
from advisor.cards import Seat
from advisor.gamevalue import win_table
from advisor.scoring import score_hand

from script_loader import load_script

probe = load_script("scripts/endgame_probe.py")


def test_positions_put_north_last_and_skip_nils():
    kept = 0
    for index in range(4):  # position 0 has a nil among the bids
        state = probe.position(3, index, (250, 500))
        if state is None:
            continue
        kept += 1
        assert state.to_act is Seat.N and state.bids[Seat.N] is None
        assert all(b is not None and b > 0 for b in state.bids[1:])
        assert all(250 <= p < 500 for p in state.points_before)
        if index == 1:  # the same position on a loaded machine as on an idle one
            again = probe.position(3, index, (250, 500))
            assert again.bids == state.bids and again.known == state.known
    assert kept >= 2


def test_the_true_deal_decides_the_win_chance():
    state = probe.position(3, 0, (250, 500)) or probe.position(3, 1, (250, 500))
    bids = list(state.bids)
    bids[Seat.N] = 3
    for tricks in (2, 7, 12):
        ns, ew = score_hand(state.rules, tuple(bids), (tricks, 13 - tricks, 0, 0),
                            state.points_before, state.bags_before)
        assert probe.win_after(state, 3, tricks) == float(win_table(state.rules).after_hand(ns.points, ew.points))
    assert probe.win_after(state, 3, 12) > probe.win_after(state, 3, 2)


def test_probe_rows_and_summary(tmp_path):
    rows = [r for r in (probe.probe(3, i, (250, 500), budget=0.2) for i in range(4)) if r]
    assert rows and search.JOINT_END is True  # the switch is put back
    for r in rows:
        assert 0 <= r["dd"] <= 13
        state = probe.position(3, r["position"], (250, 500))
        for key in ("generic", "joint"):
            b = r[key]
            assert r["win"][key] == (None if b == 0 or not isinstance(b, int)
                                     else probe.win_after(state, b, r["dd"]))
    text = probe.summary(rows)
    assert text.startswith(f"{len(rows)} positions")
    differ = [{"generic": 2, "joint": 4, "win": {"generic": 0.25, "joint": 0.75}},
              {"generic": 3, "joint": 1, "win": {"generic": 0.5, "joint": 0.25}},
              {"generic": 3, "joint": 3, "win": {"generic": 0.5, "joint": 0.5}}]
    assert "+0.1250" in probe.summary(differ) and "better 1, worse 1" in probe.summary(differ)
