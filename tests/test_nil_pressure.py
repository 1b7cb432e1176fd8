"""scripts/nil_pressure.py: nils' real outcomes beside the tricks double dummy says the defence can force."""
from __future__ import annotations

import json

import pytest

from advisor.match_cli import main as match_main

from script_loader import load_script

pressure = load_script("scripts/nil_pressure.py")


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    """The hands of two games of the rule-based bot against itself (it bids many nils)."""
    path = tmp_path_factory.mktemp("nil-pressure") / "hands.jsonl"
    assert match_main(["--a", "heuristic", "--b", "heuristic", "--games", "2", "--seed", "3",
                       "--jobs", "1", "--quiet", "--hands", str(path)]) == 0
    return path


def test_rows_follow_each_nil_until_it_takes_a_trick(hands, tmp_path, capsys):
    out = tmp_path / "rows.jsonl"
    assert pressure.main([str(hands), "--side", "B", "--nils", "4", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows
    games = {(r["deal_set"], r["game"], r["hand"]): r for r in map(json.loads, hands.read_text().splitlines())}
    by_nil: dict = {}
    for r in rows:
        by_nil.setdefault((r["deal_set"], r["game"], r["hand"], r["seat"]), []).append(r)
    assert 1 <= len(by_nil) <= 4
    for (ds, game, hand, seat), nil in by_nil.items():
        row = games[(ds, game, hand)]
        assert row["record"]["bids"][seat] == 0
        a_ns = row["a_team"] == "NS"
        assert (seat in "NS") != a_ns  # side B's nils only
        assert [r["tricks_played"] for r in nil] == list(range(1, len(nil) + 1))
        assert all(r["forced"] in (0, 1, 2) for r in nil)
        if not nil[0]["busted"]:
            # never took a trick: followed to the last trick start, where the defence forced nothing
            assert len(nil) == 12 and nil[-1]["forced"] == 0
    text = pressure.summary(rows)
    assert text.startswith(f"{len(rows)} positions of {len(by_nil)} nils")
    assert pressure.main(["--summary", str(out)]) == 0
    assert capsys.readouterr().out.strip().endswith(text.splitlines()[-1])


def test_quoted_rows_and_their_fit(hands, tmp_path, capsys):
    out = tmp_path / "quoted.jsonl"
    assert pressure.main([str(hands), "--quoted", "2", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["side"] for r in rows} == {"ours", "theirs"} and len(rows) == 4
    games = {(r["deal_set"], r["game"], r["hand"]): r for r in map(json.loads, hands.read_text().splitlines())}
    for r in rows:
        record = games[(r["deal_set"], r["game"], r["hand"])]["record"]
        assert record["bids"][r["seat"]] == 0 and 1 <= r["tricks_played"] <= 12
        assert 0.0 <= r["share"] <= 1.0
    assert capsys.readouterr().out.startswith("4 quoted positions")
    # the fit is least squares: on two points per group it passes through them
    pts = [{"side": "ours", "tricks_played": 2, "share": 0.0, "made": False},
           {"side": "ours", "tricks_played": 3, "share": 1.0, "made": True}]
    assert pressure.fit_lines(pts) == {("ours", False): (0.0, 1.0, 2)}
