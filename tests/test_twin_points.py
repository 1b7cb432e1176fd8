"""scripts/twin_points.py: a duplicate match's points by kind, each hand against its twin."""
from __future__ import annotations

from advisor.match_cli import main as match_main

from script_loader import load_script

twin_points = load_script("scripts/twin_points.py")


def test_points_by_kind_add_up_to_the_match_tally(tmp_path, capsys):
    hands, checkpoint = tmp_path / "hands.jsonl", tmp_path / "match.jsonl"
    # two hands a game (with this seed no game ends sooner): both games of a deal set last as
    # long, so every hand has its twin
    assert match_main(["--a", "heuristic", "--b", "random", "--games", "4", "--seed", "2", "--jobs", "1",
                       "--max-hands", "2", "--quiet", "--checkpoint", str(checkpoint),
                       "--hands", str(hands)]) == 0
    capsys.readouterr()
    games = twin_points.read_games(checkpoint)
    rows = twin_points.read_rows(hands)
    assert len(games) == 4 and len(rows) == 8
    for row in rows:  # the kinds add up to the hand's points
        for team in (twin_points.Team.NS, twin_points.Team.EW):
            kinds = twin_points.points_by_kind(row["record"], team)
            assert sum(v for k, v in kinds.items() if k != "total") == kinds["total"]
    # at nine bags a team's overtricks cost it the penalty
    record = dict(rows[0]["record"], bags_before={"NS": 9, "EW": 9})
    for team in (twin_points.Team.NS, twin_points.Team.EW):
        kinds = twin_points.points_by_kind(record, team)
        assert sum(v for k, v in kinds.items() if k != "total") == kinds["total"]
        assert kinds["bag penalty"] == (-100 if kinds["bags"] else 0)
    assert any(twin_points.points_by_kind(record, t)["bags"] for t in twin_points.Team)
    count, sums = twin_points.twin_sums(games, rows, "A", "all")
    assert count == 4
    labels = list(sums)
    for side, (mine, twin) in (("A", (labels[0], labels[3])), ("B", (labels[2], labels[1]))):
        tally_points = sum(g.tally[side].points for g in games.values())
        tally_bags = sum(g.tally[side].bags for g in games.values())
        # each game once as played and once as its twin's twin: the match's own figures
        assert sums[mine]["total"] == sums[twin]["total"] == tally_points
        assert sums[mine]["bags"] == sums[twin]["bags"] == tally_bags
    # a hand and its twin: the same cards in the same seats, the sides swapped
    by_key = {(r["deal_set"], r["game"], r["hand"]): r for r in rows}
    for (deal_set, game, hand), row in by_key.items():
        twin = by_key[(deal_set, 3 - game, hand)]
        assert twin["record"]["hands"] == row["record"]["hands"] and twin["a_team"] != row["a_team"]
    won = [g for g in games.values() if g.winner == "A"]
    if won:
        assert twin_points.main([str(checkpoint), str(hands), "--games", "won"]) == 0
        assert capsys.readouterr().out.startswith(f"{len(won)} games (won)")
    assert twin_points.main([str(checkpoint), str(tmp_path / "none.jsonl")]) == 2
    assert "cannot read" in capsys.readouterr().err
