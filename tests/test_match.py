"""Duplicate matches: identical deals across the seat swap, reproducible figures, heuristic vs
random, outside bots (the example bot, garbage, a crash, a timeout) and the CLI."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from advisor.bots.outside import OutsideBot
from advisor.bots import get_bot
from advisor.match import (
    BotSpec, DealSet, MatchConfig, play_game, run_game, run_match, wilson,
)
from advisor.match_cli import main
from advisor.rules import PRESETS

EXAMPLE = f"{sys.executable} advisor/bots/example_outside_bot.py"
FIGURES = {"games", "wins", "draws", "losses", "win_rate", "win_rate_ci95", "hands",
           "points_per_hand", "set_rate", "nils", "nil_made_rate", "blind_nils", "blind_nils_made",
           "bags_per_hand", "bid_error", "bid_error_hands", "forfeits", "bot"}
TOP = {"games", "deal_sets", "seed", "rules", "max_hands", "hands", "capped_games", "seconds",
       "games_per_second", "hands_per_second", "jobs", "dd", "a", "b", "forfeits"}


def config(a="heuristic", b="random", sets=2, seed=1, **kw) -> MatchConfig:
    return MatchConfig(a=BotSpec(a), b=BotSpec(b), deal_sets=sets, seed=seed, **kw)


def outside(command: str, timeout: float = 10.0) -> BotSpec:
    return BotSpec("outside", command=command, timeout=timeout)


def test_deal_sets_are_identical_across_the_swap():
    cfg = config("heuristic", "heuristic", max_hands=6, rules=PRESETS["piki"])
    first = run_game(cfg, 0, swapped=False)
    second = run_game(cfg, 0, swapped=True)
    n = min(len(first.deals_played), len(second.deals_played))
    assert n >= 1
    assert first.deals_played[:n] == second.deals_played[:n]
    # the same deal set is the same in a new process-free rebuild, another set differs
    a, b, c = DealSet(1, 0), DealSet(1, 0), DealSet(1, 1)
    assert a.hand(3) == b.hand(3) and a.hand(0) != c.hand(0)
    # same bots, swapped seats: mirrored results
    assert first.points["A"] == second.points["B"] and first.winner != second.winner or \
        first.winner == "draw"


def test_heuristic_beats_random():
    # measured: 20 of 20 games (seed 1); assert a bound with margin
    result = run_match(config(sets=10, seed=1), jobs=1)
    data = result.to_json()
    assert data["games"] == 20
    assert data["a"]["wins"] >= 18
    assert data["a"]["points_per_hand"] > data["b"]["points_per_hand"] + 50
    assert data["a"]["set_rate"] < data["b"]["set_rate"]


def test_match_is_reproducible_and_jobs_do_not_change_it():
    def figures(jobs):
        d = run_match(config(sets=3, seed=4), jobs=jobs).to_json()
        return {k: v for k, v in d.items() if k not in ("seconds", "games_per_second",
                                                        "hands_per_second", "jobs")}
    one = figures(1)
    assert one == figures(1) == figures(2)


def test_game_cap_decides_on_points():
    data = run_match(config("heuristic", "heuristic", sets=1, max_hands=1), jobs=1).to_json()
    assert data["capped_games"] == 2 and data["hands"] == 2
    assert data["a"]["wins"] + data["a"]["draws"] + data["a"]["losses"] == 2


def test_wilson_interval():
    lo, hi = wilson(18, 20)
    assert 0.68 < lo < 0.70 and 0.97 < hi < 0.98
    assert wilson(0, 0) == (0.0, 1.0)


# ---------------------------------------------------------------- outside bots
def test_example_outside_bot_plays_whole_games():
    cfg = MatchConfig(a=BotSpec("heuristic"), b=outside(EXAMPLE), deal_sets=1, seed=2)
    data = run_match(cfg, jobs=1).to_json()
    assert data["forfeits"] == [] and data["b"]["forfeits"] == 0
    assert data["games"] == 2 and data["hands"] >= 2
    assert data["b"]["bot"] == f"cmd:{EXAMPLE}"


def test_a_served_bot_plays_exactly_as_the_bot_itself():
    """``python -m advisor.bots.serve counter`` sees only the records an outside program gets; the
    deterministic counter bot must play the same games through them as in the match's own process."""
    served = outside(f"{sys.executable} -m advisor.bots.serve counter")
    inside = run_match(MatchConfig(a=BotSpec("heuristic"), b=BotSpec("counter"), deal_sets=2, seed=8),
                       jobs=1).to_json()
    through = run_match(MatchConfig(a=BotSpec("heuristic"), b=served, deal_sets=2, seed=8), jobs=1).to_json()
    assert through["forfeits"] == []
    for side in ("a", "b"):
        inside[side].pop("bot"), through[side].pop("bot")
        assert through[side] == inside[side]
    assert through["hands"] == inside["hands"] > 4


def test_a_served_bot_answers_bad_lines_and_its_own_failures_with_an_error_line():
    from advisor.bots.serve import answer

    class Broken:
        name = "broken"

        def act(self, view):
            raise RuntimeError("boom")

    hand = "AS KS 2S AH KH 3H 4D 5D 6D 7C 8C 9C TC".split()
    line = json.dumps({"format": "piki-hand/1", "dealer": "N", "hands": {"N": hand}, "bids": {},
                       "plays": [], "seat": "N"})
    assert answer(get_bot("counter"), line) == {"bid": 4}
    assert answer(Broken(), line) == {"error": "broken could not decide: RuntimeError: boom"}
    assert answer(get_bot("counter"), "garbage")["error"].startswith("not a piki-hand/1 record")
    wrong_seat = json.loads(line) | {"seat": "E"}
    assert "E" in answer(get_bot("counter"), json.dumps(wrong_seat))["error"]
    blind = json.loads(line) | {"hands": {"E": hand}}  # N to act, N's hand not given
    assert "does not give its 13 cards" in answer(get_bot("counter"), json.dumps(blind))["error"]


def test_serving_an_unknown_bot_exits_2():
    import subprocess
    out = subprocess.run([sys.executable, "-m", "advisor.bots.serve", "nope"], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown bot 'nope'" in out.stderr and out.stdout == ""


def _script(tmp_path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return f"{sys.executable} {path}"


def test_garbage_answers_forfeit_and_the_match_finishes(tmp_path):
    cmd = _script(tmp_path, "garbage.py", """
        import sys
        for line in sys.stdin:
            print("hello", flush=True)
    """)
    data = run_match(MatchConfig(a=BotSpec("random"), b=outside(cmd), deal_sets=2, seed=3),
                     jobs=1).to_json()
    assert data["games"] == 4
    assert data["b"]["forfeits"] == 4 and data["a"]["wins"] == 4
    assert all("not JSON" in f["reason"] and f["side"] == "B" for f in data["forfeits"])


def test_illegal_answer_forfeits(tmp_path):
    cmd = _script(tmp_path, "illegal.py", """
        import json, sys
        for line in sys.stdin:
            rec = json.loads(line)
            print(json.dumps({"bid": 3} if len(rec["bids"]) < 4 else {"card": "AS"}), flush=True)
    """)
    data = run_match(MatchConfig(a=BotSpec("heuristic"), b=outside(cmd), deal_sets=1, seed=5),
                     jobs=1).to_json()
    assert data["b"]["forfeits"] == 2
    reasons = [f["reason"] for f in data["forfeits"]]
    assert all("illegal card" in r or "must play" in r for r in reasons), reasons


def test_crashing_program_is_restarted_for_the_next_game(tmp_path):
    # answers one bid, then dies: each game is forfeited, and each starts a fresh program
    cmd = _script(tmp_path, "crash.py", """
        import sys
        sys.stdin.readline()
        print('{"bid": 2}', flush=True)
        sys.stdin.readline()
        sys.exit(3)
    """)
    bot = OutsideBot(cmd)
    cfg = MatchConfig(a=BotSpec("heuristic"), b=outside(cmd), deal_sets=1, seed=6)
    try:
        games = [play_game(cfg, 0, swapped, {"A": get_bot("heuristic"), "B": bot})
                 for swapped in (False, True)]
    finally:
        bot.close()
    assert bot.restarts == 1
    for g in games:
        assert g.winner == "A" and g.forfeit.side == "B" and g.forfeit.hand == 1
        assert "exited" in g.forfeit.reason
    # through the match as well: the match finishes, every game forfeited
    data = run_match(MatchConfig(a=BotSpec("heuristic"), b=outside(cmd), deal_sets=2, seed=6),
                     jobs=1).to_json()
    assert data["b"]["forfeits"] == 4 and data["a"]["wins"] == 4


def test_silent_program_times_out(tmp_path):
    cmd = _script(tmp_path, "silent.py", """
        import sys, time
        for line in sys.stdin:
            time.sleep(30)
    """)
    cfg = MatchConfig(a=BotSpec("heuristic"), b=outside(cmd, timeout=0.3), deal_sets=1, seed=7)
    data = run_match(cfg, jobs=1).to_json()
    assert data["b"]["forfeits"] == 2
    assert all("no answer within 0.3 s" in f["reason"] for f in data["forfeits"])


def test_missing_program_forfeits_without_a_crash():
    cfg = MatchConfig(a=BotSpec("random"), b=outside("/nonexistent/bot --x"), deal_sets=1)
    data = run_match(cfg, jobs=1).to_json()
    assert data["b"]["forfeits"] == 2
    assert "cannot start" in data["forfeits"][0]["reason"]


# ---------------------------------------------------------------- CLI
def test_cli_json_has_the_documented_keys(capsys):
    code = main(["--a", "heuristic", "--b", "random", "--games", "4", "--seed", "1",
                 "--jobs", "2", "--json", "--quiet"])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert TOP <= set(data)
    assert FIGURES <= set(data["a"]) and FIGURES <= set(data["b"])
    assert data["a"]["bot"] == "heuristic" and data["games"] == 4
    lo, hi = data["a"]["win_rate_ci95"]
    assert lo <= data["a"]["win_rate"] <= hi


def test_cli_vs_cmd_and_table(capsys):
    code = main(["--a", "heuristic", "--vs-cmd", EXAMPLE, "--games", "2", "--jobs", "1"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "win rate" in out and "cmd:" in out
    assert "2/2 games" in err  # the progress bar


@pytest.mark.parametrize("args, message", [
    (["--a", "nosuchbot"], "unknown bot 'nosuchbot'"),
    (["--b", "alpha"], "unknown bot 'alpha'"),
    (["--games", "0"], "--games must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--a", "pimc:time_budget=soon"], "bad options"),
    (["--rules", "bridge"], "unknown rules preset"),
    (["--a", "heuristic:depth"], "bad bot option"),
    (["--frobnicate"], "unrecognized arguments"),
    (["--b", "random", "--vs-cmd", "x"], "--b and --vs-cmd"),
    (["--vs-cmd", " "], "--vs-cmd needs a command"),
])
def test_cli_errors_exit_2(capsys, args, message):
    assert main(args + ["--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# ---------------------------------------------------------------- double dummy
def test_bid_error_against_double_dummy():
    import random

    from advisor.cards import Seat
    from advisor.match import DoubleDummy
    from advisor.rules import Rules
    from advisor.solver import solve
    from advisor.state import HandState, deal

    result = run_match(config("heuristic", "heuristic", sets=1, max_hands=3, dd=True), jobs=1)
    tally = result.tally("A")
    assert tally.dd_hands > 0
    data = result.to_json()
    assert data["a"]["bid_error"] == round(tally.dd_error / tally.dd_hands, 3)
    assert 0 <= data["a"]["bid_error"] <= 13
    # The figure rests on the real solver's N-S tricks of the deal from the first lead.
    st = HandState(Rules(), Seat.E, deal(random.Random(3)))
    expected = solve(tuple(st.known), int(st.first), [], False, False, 0b0101, 0b0101)
    assert DoubleDummy(Rules())(st, 0, 0) == expected


def test_dd_without_the_solver_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "advisor.solver", None)
    assert main(["--games", "2", "--dd", "--quiet"]) == 2
    assert "solver" in capsys.readouterr().err


# ---------------------------------------------------------------- checkpoints
def _cli_figures(capsys, games, path, *extra):
    code = main(["--a", "heuristic", "--b", "random", "--games", str(games), "--seed", "7",
                 "--max-hands", "5", "--jobs", "1", "--json", "--quiet", "--checkpoint", str(path),
                 *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


def _same_figures(data):
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second",
                                                       "hands_per_second", "jobs")}


def test_checkpoint_goes_on_where_it_stopped(tmp_path, capsys):
    path = tmp_path / "match.jsonl"
    code, first, _ = _cli_figures(capsys, 2, path)
    assert code == 0 and first["games"] == 2
    assert len(path.read_text().splitlines()) == 2  # header + one deal set
    code, more, _ = _cli_figures(capsys, 6, path)
    assert code == 0 and more["games"] == 6
    lines = path.read_text().splitlines()
    assert len(lines) == 4  # the first deal set was not played again
    straight = run_match(config(sets=3, seed=7, max_hands=5), jobs=1).to_json()
    assert _same_figures(more) == _same_figures(straight)
    # A smaller --games than the file holds counts only the first deal sets.
    code, fewer, _ = _cli_figures(capsys, 4, path)
    assert code == 0 and _same_figures(fewer) == _same_figures(
        run_match(config(sets=2, seed=7, max_hands=5), jobs=1).to_json())
    assert len(path.read_text().splitlines()) == 4
    # A run killed while writing leaves a torn last line: that deal set is played again.
    path.write_text("\n".join(lines[:-1] + [lines[-1][:40]]) + "\n")
    code, again, _ = _cli_figures(capsys, 6, path)
    assert code == 0 and _same_figures(again) == _same_figures(straight)


def test_checkpoint_of_another_match_or_engine_is_refused(tmp_path, capsys):
    path = tmp_path / "match.jsonl"
    assert _cli_figures(capsys, 2, path)[0] == 0
    code, _, err = _cli_figures(capsys, 2, path, "--rules", "pagat")
    assert code == 2 and "belongs to another match" in err and "rules" in err
    assert err.count("\n") == 1
    head, *rest = path.read_text().splitlines()
    other = json.loads(head)
    other["engine"] = "0123456789ab"
    path.write_text("\n".join([json.dumps(other), *rest]) + "\n")
    code, _, err = _cli_figures(capsys, 2, path)
    assert code == 2 and "other advisor code" in err and "0123456789ab" in err
    junk = tmp_path / "notes.txt"
    junk.write_text("shopping list\n")
    code, _, err = _cli_figures(capsys, 2, junk)
    assert code == 2 and "not a piki match checkpoint" in err
    damaged = tmp_path / "damaged.jsonl"
    assert _cli_figures(capsys, 4, damaged)[0] == 0
    head, first, second = damaged.read_text().splitlines()
    damaged.write_text("\n".join([head, "{oops", second]) + "\n")
    code, _, err = _cli_figures(capsys, 4, damaged)
    assert code == 2 and "line 2 is damaged" in err


# ---------------------------------------------------------------- hand log
def test_hands_file_holds_every_hand_as_a_replayable_record(tmp_path, capsys):
    from advisor.record import HandRecord, replay

    path = tmp_path / "hands.jsonl"
    code = main(["--a", "heuristic", "--b", "random", "--games", "4", "--seed", "3",
                 "--jobs", "2", "--json", "--quiet", "--dd", "--hands", str(path)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(rows) == data["hands"]
    assert {(r["deal_set"], r["game"]) for r in rows} == {(s, g) for s in (0, 1) for g in (1, 2)}
    for key in {(r["deal_set"], r["game"]) for r in rows}:  # numbered from 1 in each game
        numbers = [r["hand"] for r in rows if (r["deal_set"], r["game"]) == key]
        assert numbers == list(range(1, len(numbers) + 1))
    points = {"A": 0, "B": 0}
    for row in rows:
        state = replay(HandRecord.from_json(row["record"]))
        assert state.is_done and len(row["record"]["plays"]) == 52
        assert 0 <= row["dd_ns"] <= 13
        a = 0 if row["a_team"] == "NS" else 1
        ns, ew = state.score()
        points["A"] += (ns, ew)[a].hand_points
        points["B"] += (ns, ew)[1 - a].hand_points
    # the records are the hands the figures were taken from
    assert points["A"] == round(data["a"]["points_per_hand"] * data["hands"])
    assert points["B"] == round(data["b"]["points_per_hand"] * data["hands"])


def test_hands_file_that_cannot_be_written_is_a_clear_error(tmp_path, capsys):
    code = main(["--games", "2", "--quiet", "--hands", str(tmp_path / "no" / "such" / "f")])
    assert code == 2
    err = capsys.readouterr().err
    assert "--hands: cannot write" in err and err.count("\n") == 1
