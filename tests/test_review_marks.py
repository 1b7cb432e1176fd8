"""scripts/review_marks.py: the review's marks on few deals against a review on many."""
from __future__ import annotations

import re

import advisor.advice as advice
from script_loader import load_script

review_marks = load_script("scripts/review_marks.py")


def test_the_mark_rule_is_the_reviews_own(capsys, monkeypatch):
    monkeypatch.setitem(advice.REVIEW_CARD_SAMPLES, "fixed", advice.REVIEW_CARD_SAMPLES["fixed"])
    records = review_marks.hands(1)
    decisions = review_marks.card_decisions(records, 6, 1)
    assert len(decisions) == 52 and all(k[0] == 0 for k in decisions)
    for d in decisions.values():  # the script's rule at the review's own z gives the review's marks
        assert review_marks.marked(d, advice.REVIEW_CLEAR_Z) == bool(d["mark"]), d
    assert review_marks.main(["--hands", "1", "--samples", "4", "--reference", "6", "--seeds", "1",
                              "--z", "0,2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("52 card decisions in 1 hands")
    sums = [tuple(map(int, re.findall(r"summaries' points (\d+) \(every decision's cost (\d+)\)", line)[0]))
            for line in lines if "summaries" in line]
    assert len(sums) == 2 and all(shown <= every for shown, every in sums)
    counts = [tuple(map(int, re.findall(r"(\d+) marked, (\d+) of them no mistake, (\d+) of the", line)[0]))
              for line in lines if " marked, " in line]
    assert len(counts) == 2 and counts[1][0] <= counts[0][0]  # a stricter z marks fewer
    assert all(no <= m and caught <= m for m, no, caught in counts)
