"""scripts/nil_screen.py: the forced-nil deals are fit for nil, the same for a seed, and played out."""
from __future__ import annotations

import json
import math

import pytest

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


def test_the_no_nil_screen_bids_tricks_and_pairs_with_the_nil_one(tmp_path, capsys):
    heuristic = get_bot("heuristic")
    nil_rows, other_rows = {}, {}
    for index in range(2):
        # North's advice without a clock: the same deal gives the same chance for its nil, whether
        # it then bids the nil or not, on any machine and load
        nil_rows[index] = nil_screen.play(7, index, heuristic, heuristic, nil=True, bid_budget=math.inf)
        other_rows[index] = nil_screen.play(7, index, heuristic, heuristic, nil=False, bid_budget=math.inf)
        assert other_rows[index]["bids"][Seat.N] > 0 and other_rows[index]["made"] is None
        assert other_rows[index]["nil_p"] == nil_rows[index]["nil_p"]
        assert 0 <= nil_rows[index]["nil_p"] <= 1
    files = []
    for name, rows in (("nil", nil_rows), ("other", other_rows)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows.values()))
        files.append(path)
    nil_screen.choice(*files)
    out = capsys.readouterr().out
    assert out.startswith("2 deals in both")
    gains = {i: (nil_rows[i]["ns_value"] - nil_rows[i]["ew_value"])
             - (other_rows[i]["ns_value"] - other_rows[i]["ew_value"]) for i in range(2)}
    # a line per band that holds a deal, with the mean gain of its deals
    for lo, hi in nil_screen.BANDS:
        inside = [g for i, g in gains.items() if lo <= nil_rows[i]["nil_p"] < hi]
        if inside:
            assert f"{lo:.2f}-{min(hi, 1.0):.2f}" in out
            assert f"{sum(inside) / len(inside):+.1f}" in out


def test_the_defence_screen_turns_the_nil_hand_to_east():
    heuristic = get_bot("heuristic")
    dealer, hands, points, bags = nil_screen.nil_deal(7, 1)
    row = nil_screen.defend(7, 1, heuristic, heuristic)
    assert row["bids"][Seat.E] == 0 and row["bids"][Seat.N] != 0
    assert nil_screen.defend(7, 1, heuristic, heuristic) == row
    turned = {Seat((s + 1) & 3): c for s, c in hands.items()}
    assert can_bid_nil(cards_to_mask(turned[Seat.E]))
    state = nil_screen.play_out(7, 1, (Seat((dealer + 1) & 3), turned, points[::-1], bags[::-1]),
                                heuristic, heuristic, forced={Seat.E: 0})
    assert row["made"] == (state.tricks[Seat.E] == 0)
    ns, ew = state.score()
    assert (row["ns_points"], row["ew_points"]) == (ns.hand_points, ew.hand_points)
    assert ew.points - ew.hand_points == points[0]  # East-West carry North-South's score


def test_the_screens_take_another_bot_at_east_and_west(tmp_path, capsys):
    heuristic, counter = get_bot("heuristic"), get_bot("counter")
    row = nil_screen.defend(7, 1, heuristic, counter)
    assert row["bids"][Seat.E] == 0
    dealer, hands, points, bags = nil_screen.nil_deal(7, 1)
    turned = {Seat((s + 1) & 3): c for s, c in hands.items()}
    state = nil_screen.play_out(7, 1, (Seat((dealer + 1) & 3), turned, points[::-1], bags[::-1]),
                                heuristic, counter, forced={Seat.E: 0})
    assert row["made"] == (state.tricks[Seat.E] == 0) and row["bids"] == list(state.bids)
    with pytest.raises(SystemExit) as exc:
        nil_screen.main(["--opponents", "nobody", "--out", str(tmp_path / "x.jsonl")])
    assert exc.value.code == 2 and "unknown bot 'nobody'" in capsys.readouterr().err


def test_reask_puts_north_back_at_its_bid_and_scores_the_advices_choices(tmp_path, capsys):
    heuristic = get_bot("heuristic")
    nil_rows = {i: nil_screen.play(7, i, heuristic, heuristic, nil=True) for i in range(2)}
    other_rows = {i: nil_screen.play(7, i, heuristic, heuristic, nil=False) for i in range(2)}
    for index, row in nil_rows.items():
        view = nil_screen.north_view(7, index, row["bids"])
        assert view.to_act == Seat.N and view.held[Seat.N].bit_count() == 13
        before = [s for s in Seat if view.bids[s] is not None]
        assert all(view.bids[s] == row["bids"][s] for s in before) and Seat.N not in before
        asked = nil_screen.reask(7, index, row)
        assert asked["deal"] == index and 0 <= asked["nil_p"] <= 1
        assert asked["advised"] == "blind_nil" or 0 <= asked["advised"] <= 13
    advice_rows = {0: {"deal": 0, "advised": 0, "nil_p": 1.0}, 1: {"deal": 1, "advised": 3, "nil_p": 0.0}}
    files = []
    for name, rows in (("nil", nil_rows), ("other", other_rows), ("advice", advice_rows)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows.values()))
        files.append(path)
    nil_screen.choice(*files)
    last = capsys.readouterr().out.strip().splitlines()[-1]
    gain = ((nil_rows[0]["ns_value"] - nil_rows[0]["ew_value"])
            - (other_rows[0]["ns_value"] - other_rows[0]["ew_value"])) / 2  # one nil of two deals
    made = int(nil_rows[0]["made"])
    assert last.startswith(f"the advice's choices on 2 deals: 1 nils, made {made} ")
    assert f"gain over never bidding nil {gain:+.1f} a deal" in last
    brier = ((1.0 - made) ** 2 + (0.0 - int(nil_rows[1]["made"])) ** 2) / 2
    assert f"Brier {brier:.4f}" in last


def test_the_screen_without_a_clock_plays_a_deal_the_same_way_twice(tmp_path):
    rows = []
    for name in ("a", "b"):
        out = tmp_path / f"{name}.jsonl"
        assert nil_screen.main(["--defend", "--samples", "2", "--deals", "1", "--seed", "7",
                                "--out", str(out)]) == 0
        rows.append(json.loads(out.read_text()))
    assert rows[0] == rows[1]
    assert rows[0]["samples"] == 2 and rows[0]["bids"][Seat.E] == 0


def test_a_screen_split_between_processes_plays_each_deal_once(tmp_path):
    part = tmp_path / "part.jsonl"
    assert nil_screen.main(["--defend", "--samples", "1", "--first", "1", "--deals", "2", "--seed", "7",
                            "--out", str(part)]) == 0
    rows = nil_screen.load(part)
    assert list(rows) == [1] and rows[1]["deal"] == 1 and rows[1]["bids"][Seat.E] == 0
