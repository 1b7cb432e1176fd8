"""The six worked examples of shared/RULES.md, through the library and through `piki state`.

Each example is checked three ways:
- ``advisor.scoring`` directly (bids and tricks per seat),
- a full legal hand replayed through ``HandState`` that produces the example's trick counts,
- the same hand written as a ``piki-hand/1`` record and run through the real
  ``piki state RECORD.json --json`` command in a subprocess.

The hands are found by a seeded, steered random search: tricks are played at random, and a
trick is kept only when its winner still needs tricks for the example's counts.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from advisor.bids import BLIND_NIL, bid_to_json
from advisor.cards import Seat, Team
from advisor.record import HandRecord, replay
from advisor.rules import Rules
from advisor.scoring import game_result, score_hand
from advisor.state import HandState, deal

ROOT = Path(__file__).resolve().parents[1]
_ENTRY = Path(sys.executable).with_name("piki")
PIKI = [str(_ENTRY)] if _ENTRY.exists() else [sys.executable, "-m", "api.cli"]
SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def steered_hand(rules_spec, bids, target, *, dealer=Seat.N, score_before=(0, 0),
                 bags_before=(0, 0), seed=0) -> dict:
    """A complete legal record (deal, bids, 52 plays) whose tricks per seat are ``target``."""
    assert sum(target) == 13
    rules = Rules.from_spec(rules_spec)
    rng = random.Random(seed)
    for _ in range(500):
        hands = deal(rng)
        st = HandState(rules, dealer, hands, score_before, bags_before)
        while st.phase.value == "bidding":
            st.bid(bids[st.to_act])
        while not st.is_done:
            for _ in range(60):
                trial = st.clone()
                for _ in range(4):
                    trial.play(rng.choice(trial.legal_cards()))
                winner = trial.trick_winners[-1]
                if trial.tricks[winner] <= target[winner]:
                    st = trial
                    break
            else:
                break  # dead end: deal again
        if st.is_done:
            assert tuple(st.tricks) == tuple(target)
            return {
                "format": "piki-hand/1",
                "rules": rules_spec,
                "dealer": dealer.name,
                "score_before": {"NS": score_before[0], "EW": score_before[1]},
                "bags_before": {"NS": bags_before[0], "EW": bags_before[1]},
                "hands": {s.name: [str(c) for c in hands[s]] for s in SEATS},
                "bids": {s.name: bid_to_json(bids[s]) for s in SEATS},
                "plays": [str(c) for c in st.plays],
            }
    raise AssertionError("no hand found for the target tricks")  # pragma: no cover


def lib_state(record: dict) -> HandState:
    return replay(HandRecord.from_json(record))


def cli_state(record: dict, tmp_path: Path) -> dict:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    proc = subprocess.run([*PIKI, "state", str(path), "--json"], capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return json.loads(proc.stdout)


def check_both(record: dict, tmp_path: Path, expected: dict, game_over=False, winner=None):
    """``expected``: team -> (hand_points, points, bags); checked in the library and the CLI."""
    st = lib_state(record)
    assert st.is_done
    score = st.score()
    for team in (Team.NS, Team.EW):
        if team.name in expected:
            hp, pts, bags = expected[team.name]
            got = (score[team].hand_points, score[team].points, score[team].bags)
            assert got == (hp, pts, bags)
    assert st.game_result() == (game_over, winner)

    out = cli_state(record, tmp_path)
    assert out["phase"] == "done"
    assert out["to_act"] is None
    assert [out["tricks"][s.name] for s in SEATS] == list(st.tricks)
    for team, (hp, pts, bags) in expected.items():
        got = out["score"][team]
        assert (got["hand_points"], got["points"], got["bags"]) == (hp, pts, bags), (team, got)
    assert out["game_over"] is game_over
    assert out["winner"] == winner
    return out


# ------------------------------------------------------------------ example 1
def test_example1_library():
    ns, ew = score_hand(Rules(), bids=(4, 4, 3, 0), tricks=(5, 4, 3, 1))
    assert (ns.hand_points, ns.bags, ns.contract, ns.made) == (71, 1, 7, True)
    assert (ew.hand_points, ew.bags, ew.contract, ew.counted_tricks) == (-59, 1, 4, 4)
    assert ew.contract_points == 40
    assert [(n.seat, n.made, n.points, n.tricks) for n in ew.nils] == [(3, False, -100, 1)]


def test_example1_cli(tmp_path):
    rec = steered_hand("piki", {Seat.N: 4, Seat.E: 4, Seat.S: 3, Seat.W: 0}, (5, 4, 3, 1), seed=1)
    out = check_both(rec, tmp_path, {"NS": (71, 71, 1), "EW": (-59, -59, 1)})
    assert out["score"]["EW"]["nils"] == [
        {"seat": "W", "blind": False, "tricks": 1, "made": False, "points": -100}]
    assert out["score"]["NS"]["contract"] == 7 and out["score"]["EW"]["contract"] == 4


# ------------------------------------------------------------------ example 2
def test_example2_library():
    ns, _ = score_hand(Rules(), bids=(3, 3, 2, 2), tricks=(5, 3, 3, 2), bags_before=(8, 0))
    assert ns.contract_points == 53
    assert ns.bag_penalty == 100
    assert (ns.hand_points, ns.bags) == (-47, 1)


def test_example2_cli(tmp_path):
    rec = steered_hand("piki", {Seat.N: 3, Seat.E: 3, Seat.S: 2, Seat.W: 2}, (5, 3, 3, 2),
                       bags_before=(8, 0), seed=2)
    check_both(rec, tmp_path, {"NS": (-47, -47, 1), "EW": (50, 50, 0)})


# ------------------------------------------------------------------ example 3
EX3 = [  # NS tricks -> (hand points, total, bags)
    (7, 52, 389, 9),
    (8, -47, 290, 0),
    (9, -46, 291, 1),
]


@pytest.mark.parametrize("taken,hand,total,bags", EX3)
def test_example3_library(taken, hand, total, bags):
    ns, _ = score_hand(Rules(), bids=(3, 3, 2, 3), tricks=(taken - 2, 13 - taken, 2, 0),
                       points_before=(337, 0), bags_before=(7, 0))
    assert (ns.hand_points, ns.points, ns.bags) == (hand, total, bags)
    assert ns.contract_points == 50 + taken - 5


@pytest.mark.parametrize("taken,hand,total,bags", EX3)
def test_example3_cli(tmp_path, taken, hand, total, bags):
    rec = steered_hand("piki", {Seat.N: 3, Seat.E: 3, Seat.S: 2, Seat.W: 3},
                       (taken - 3, 13 - taken - 3, 3, 3),
                       score_before=(337, 100), bags_before=(7, 4), seed=30 + taken)
    ew_taken = 13 - taken
    ew_points = 60 if ew_taken >= 6 else -60
    check_both(rec, tmp_path, {"NS": (hand, total, bags),
                               "EW": (ew_points, 100 + ew_points, 4)})


# ------------------------------------------------------------------ example 4
def test_example4_library():
    ns, _ = score_hand(Rules(), bids=(4, 4, 2, 3), tricks=(3, 4, 2, 4))
    assert (ns.made, ns.hand_points, ns.bags) == (False, -60, 0)


def test_example4_cli(tmp_path):
    rec = steered_hand("piki", {Seat.N: 4, Seat.E: 4, Seat.S: 2, Seat.W: 3}, (3, 4, 2, 4), seed=4)
    check_both(rec, tmp_path, {"NS": (-60, -60, 0), "EW": (71, 71, 1)})


# ------------------------------------------------------------------ example 5
def test_example5_library():
    made, _ = score_hand(Rules(), bids=(BLIND_NIL, 5, 4, 4), tricks=(0, 5, 4, 4),
                         points_before=(0, 250))
    assert made.nils[0].blind and made.nils[0].made and made.nils[0].points == 200
    assert made.hand_points == 240
    failed, _ = score_hand(Rules(), bids=(BLIND_NIL, 5, 4, 4), tricks=(2, 4, 4, 3),
                           points_before=(0, 250))
    assert failed.nils[0].points == -200
    assert (failed.hand_points, failed.bags) == (40 - 200 + 2, 2)
    # the value comes from the rules object
    custom = Rules.from_spec({"blind_nil": {"trailing_by": 100, "value": 300}})
    assert score_hand(custom, (BLIND_NIL, 5, 4, 4), (0, 5, 4, 4))[0].hand_points == 340


@pytest.mark.parametrize("n_tricks,hand,bags", [(0, 240, 0), (2, -158, 2)])
def test_example5_cli(tmp_path, n_tricks, hand, bags):
    bids = {Seat.N: BLIND_NIL, Seat.E: 5, Seat.S: 4, Seat.W: 4}
    target = (n_tricks, 5, 4, 4 - n_tricks)
    rec = steered_hand("piki", bids, target, score_before=(0, 250), seed=50 + n_tricks)
    assert rec["bids"]["N"] == "blind_nil"
    out = check_both(rec, tmp_path, {"NS": (hand, hand, bags)})
    nil = out["score"]["NS"]["nils"][0]
    assert nil["blind"] is True and nil["seat"] == "N" and nil["made"] is (n_tricks == 0)
    assert nil["points"] == (200 if n_tricks == 0 else -200)


# ------------------------------------------------------------------ example 6
def test_example6_library():
    piki, pagat = Rules(), Rules.from_spec("pagat")
    assert game_result(piki, (510, 510)) == (True, "draw")
    assert game_result(piki, (510, 521)) == (True, "EW")
    assert game_result(piki, (530, 521)) == (True, "NS")
    assert game_result(pagat, (510, 510)) == (False, None)  # tie: play another hand
    assert game_result(pagat, (510, 521)) == (True, "EW")


def test_example6_draw_cli(tmp_path):
    # NS 449 + 61 = 510, EW 459 + 51 = 510: both pass 500 with equal scores.
    bids = {Seat.N: 3, Seat.E: 3, Seat.S: 3, Seat.W: 2}
    rec = steered_hand("piki", bids, (4, 3, 3, 3), score_before=(449, 459), seed=6)
    check_both(rec, tmp_path, {"NS": (61, 510, 1), "EW": (51, 510, 1)},
               game_over=True, winner="draw")


def test_example6_higher_wins_cli(tmp_path):
    bids = {Seat.N: 3, Seat.E: 3, Seat.S: 3, Seat.W: 2}
    rec = steered_hand("piki", bids, (4, 3, 3, 3), score_before=(449, 470), seed=7)
    check_both(rec, tmp_path, {"NS": (61, 510, 1), "EW": (51, 521, 1)},
               game_over=True, winner="EW")


def test_example6_tie_play_on_cli(tmp_path):
    # The same 510-510 under the `tie: play_on` override: the game is not over.
    spec = {"preset": "piki", "tie": "play_on"}
    bids = {Seat.N: 3, Seat.E: 3, Seat.S: 3, Seat.W: 2}
    rec = steered_hand(spec, bids, (4, 3, 3, 3), score_before=(449, 459), seed=8)
    check_both(rec, tmp_path, {"NS": (61, 510, 1), "EW": (51, 510, 1)},
               game_over=False, winner=None)
