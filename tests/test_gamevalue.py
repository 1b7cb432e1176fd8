"""The chance to win the game from a score, and bids that use it near the end of the game."""

from __future__ import annotations

import random

import numpy as np
import pytest

from advisor.advice import NIL_MIN_PROBABILITY, analyse_bid
from advisor.blind_nil import LOOK_POINTS, LOOK_SD
from advisor.cards import Seat
from advisor.gamevalue import win_table
from advisor.rules import Rules
from advisor.state import HandState, deal
from advisor.view import seat_view

GAME_END_TEXT = "the game is what counts"


@pytest.mark.parametrize("preset", ["piki", "pagat"])
def test_win_chance_is_symmetric_and_monotone(preset):
    table = win_table(Rules.from_spec(preset))
    scores = range(-150, 500, 70)
    for a in scores:
        for b in scores:
            assert table.chance(a, b) + table.chance(b, a) == pytest.approx(1.0, abs=1e-6)
            assert table.chance(a + 30, b) >= table.chance(a, b) - 1e-9
            assert table.chance(a, b + 30) <= table.chance(a, b) + 1e-9
    assert table.chance(0, 0) == pytest.approx(0.5, abs=1e-6)
    assert table.chance(450, 0) > 0.9 > 0.1 > table.chance(0, 450)


def test_scores_after_a_hand_that_end_the_game():
    table = win_table(Rules())
    assert float(table.after_hand(510, 300)) == 1.0
    assert float(table.after_hand(300, 510)) == 0.0
    assert float(table.after_hand(520, 520)) == 0.5  # a draw under piki
    assert float(table.after_hand(-200, 100)) == 0.0  # the losing score
    assert 0.0 < float(table.after_hand(490, 300)) < 1.0  # not over yet


def test_win_chance_matches_a_simulation_of_the_same_model():
    rules = Rules()
    table = win_table(rules)
    rng = random.Random(3)
    for start in ((300, 200), (0, 100), (420, 460)):
        wins = 0.0
        games = 6000
        for _ in range(games):
            a, b = start
            while True:
                a += rng.gauss(LOOK_POINTS, LOOK_SD)
                b += rng.gauss(LOOK_POINTS, LOOK_SD)
                if max(a, b) >= rules.win_at or min(a, b) <= rules.lose_at:
                    wins += a > b
                    break
        assert table.chance(*start) == pytest.approx(wins / games, abs=0.025)


def test_with_hand_averages_over_the_opponents_hand():
    table = win_table(Rules())
    # Reaching 520 against 300 wins unless the opponents score 220+ in the same hand.
    assert float(table.with_hand(520, 300)) > 0.98
    both = table.with_hand(np.array([520.0, 380.0]), 300)
    assert both.shape == (2,) and both[0] > both[1]


def _advice(points, seed):
    rng = random.Random(seed)
    st = HandState(Rules(), Seat.N, deal(rng), points_before=points)
    a = analyse_bid(seat_view(st, Seat.N), time_budget=0.3, seed=seed)
    allowed = [r for r in a["candidates"]
               if r["bid"] != "blind_nil" and (r["bid"] != 0 or a["nil_probability"] >= NIL_MIN_PROBABILITY)]
    by_points = max(allowed, key=lambda r: r["expected_points"])
    return a, by_points


def _order(bid):
    return -1 if bid == 0 else bid


def test_far_from_the_end_bids_follow_the_expected_points():
    for seed in range(4):
        a, by_points = _advice((0, 0), seed)
        assert GAME_END_TEXT not in a["explanation"]
        assert all(0.0 <= r["win_chance"] <= 1.0 for r in a["candidates"])
        if a["bid"] != by_points["bid"]:  # only the trick-counting rule may differ
            assert "counting the hand" in a["explanation"]


def test_a_team_about_to_win_bids_safe():
    """At 490 against 300 any made contract wins the game: the advice bids low to make sure of it."""
    lower = 0
    for seed in range(4):
        a, by_points = _advice((490, 300), seed)
        assert _order(a["bid"]) <= _order(by_points["bid"])
        chosen = next(r for r in a["candidates"] if r["bid"] == a["bid"])
        assert chosen["win_chance"] >= by_points["win_chance"]
        if a["bid"] != by_points["bid"]:
            lower += 1
            assert GAME_END_TEXT in a["explanation"]
    assert lower >= 2


def _late_position(points):
    from advisor.bots import get_bot

    rng = random.Random(21)
    st = HandState(Rules(), Seat.N, deal(rng), points_before=points)
    bot = get_bot("heuristic")
    while len(st.plays) < 28:  # the bidding and seven tricks
        st.apply(bot.act(seat_view(st, st.to_act)))
    return seat_view(st, st.to_act)


def test_card_play_ranks_by_win_chance_only_when_the_game_can_end():
    from advisor.search import analyse_play

    early = analyse_play(_late_position((0, 0)), time_budget=0.2, rng=random.Random(1))
    assert not early.game_at_stake
    assert all(m.value == m.points for m in early.moves)

    late = analyse_play(_late_position((490, 480)), time_budget=0.2, rng=random.Random(1))
    assert late.game_at_stake
    assert all(0.0 <= m.win <= 1.0 for m in late.moves)
    assert late.moves[0].win == max(m.win for m in late.moves)
