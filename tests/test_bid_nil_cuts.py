"""scripts/bid_nil_cuts.py: the bid's own nil searches recorded, the cut-short ones solved again."""
from __future__ import annotations

import json

from advisor import search, solver
from script_loader import load_script

bid_nil_cuts = load_script("scripts/bid_nil_cuts.py")


def test_every_nil_search_is_counted_and_the_totals_add_up(capsys):
    assert bid_nil_cuts.main(["--hands", "2", "--seed", "5000", "--time", "0.3"]) == 0
    assert search.solve is solver.solve  # the recording is taken off again
    lines = capsys.readouterr().out.strip().splitlines()
    rows = [json.loads(line) for line in lines[:-1]]
    assert len(rows) == 2
    for row in rows:
        assert row["searches"] >= row["made"] + row["cut"]
        assert row["cut"] == len(row["limits"]) and row["cut_made"] + row["cut_unknown"] <= row["cut"]
        assert all(limit >= 150_000 for limit in row["limits"])  # MIN_NODE_LIMIT at the least
        assert 0 <= row["nil_p"] <= 1
    total = sum(r["searches"] for r in rows)
    assert total > 0 and lines[-1].startswith(f"{total} nil searches: {sum(r['made'] for r in rows)} nils make")
