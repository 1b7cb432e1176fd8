"""scripts/decision_probe.py: positions repeat for a seed, and both cards are judged on the true deal."""
from __future__ import annotations


import advisor.inference as inference

from script_loader import load_script

decision_probe = load_script("scripts/decision_probe.py")


def test_positions_repeat_for_a_seed_and_the_seat_to_act_has_a_choice():
    found = [decision_probe.position(4, i) for i in range(3)]
    for i, f in enumerate(found):
        assert f is not None
        full, view = f
        again = decision_probe.position(4, i)[0]
        assert again.plays == full.plays and again.known == full.known
        assert view.held[view.to_act] == full.held[full.to_act]
        assert full.legal_mask().bit_count() >= 2


def test_probe_values_both_choices_on_the_true_deal_and_resumes(tmp_path):
    out = tmp_path / "probe.jsonl"
    rc = decision_probe.main(["--positions", "2", "--seed", "4", "--budget", "0.05", "--out", str(out)])
    assert rc == 0
    rows = decision_probe.load(out)
    assert sorted(rows) == [0, 1]
    for r in rows.values():
        assert r["loss_off"] >= 0 and r["loss_on"] >= 0
        assert r["deals_off"] >= 1 and r["deals_on"] >= 1
    assert inference.PLAY_MISMATCH == {"opponent": 1.0, "partner": 1.0}  # restored
    decision_probe.main(["--positions", "2", "--seed", "4", "--out", str(out)])  # nothing left to do
    assert decision_probe.load(out) == rows
    assert decision_probe.summary(list(rows.values())).startswith("2 positions")
