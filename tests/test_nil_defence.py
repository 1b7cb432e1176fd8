"""An opponent's nil in the card search: a card that leaves the defence two tricks to force on it
counts its bust more (``advisor.search.NIL_PRESS_BONUS``)."""

from __future__ import annotations

import math
import random

import pytest

from advisor import search
from advisor.cards import Seat
from advisor.handeval import nil_risk
from advisor.inference import draw_deals
from advisor.rules import Rules
from advisor.search import _solver_args, analyse_play, opponents_mask, seat_mask
from advisor.solver import solve_moves
from advisor.state import HandState, deal
from advisor.view import seat_view


def _defending(seed: int, cards_played: int) -> HandState:
    """North or South to play, East's nil still live, ``cards_played`` cards in."""
    for attempt in range(200):
        rng = random.Random(f"{seed}:{attempt}")
        st = HandState(Rules(), Seat.N, deal(rng))
        for _ in range(4):
            st.bid(0 if st.to_act is Seat.E else 3)
        while len(st.plays) < cards_played and st.tricks[Seat.E] == 0:
            st.play(rng.choice(st.legal_cards()))
        if st.tricks[Seat.E] == 0 and int(st.to_act) in (0, 2) and len(st.legal_cards()) >= 2:
            return st
    raise AssertionError("no position found")


@pytest.mark.parametrize("seed,cards_played", [(1, 16), (2, 24), (3, 30), (4, 20)])
def test_a_card_gains_where_it_leaves_the_defence_two_tricks_to_force(seed, cards_played, monkeypatch):
    st = _defending(seed, cards_played)
    view = seat_view(st, st.to_act)
    deals, _ = draw_deals(view, int(view.to_act), 8, random.Random(seed))
    with_bonus = {int(m.card): m for m in analyse_play(view, deals=deals, time_budget=math.inf).moves}
    monkeypatch.setattr(search, "NIL_PRESS_BONUS", 0.0)
    without = {int(m.card): m for m in analyse_play(view, deals=deals, time_budget=math.inf).moves}
    pressed = {c: False for c in with_bonus}
    made = {c: 0 for c in with_bonus}
    for d in deals:
        if nil_risk(d.remaining[Seat.E]) > search.NIL_HOPELESS:
            continue  # sure winners: busted whatever the card, not searched
        args = dict(**_solver_args(view, d.remaining), count_seats=seat_mask(Seat.E),
                    maximizer_seats=opponents_mask(Seat.E))
        one, two = solve_moves(**args, cap=1), solve_moves(**args, cap=2)
        for c in pressed:
            assert min(two[c], 1) == one[c]
            made[c] += one[c] == 0
            pressed[c] |= any(one.values()) and two[c] == 2
    for c, m in with_bonus.items():
        # the figures are double dummy's either way; the bonus only adds to the ranking's value,
        # where a deal is pressed
        assert m.nil_ok[Seat.E] == without[c].nil_ok[Seat.E] == pytest.approx(made[c] / len(deals))
        assert (m.tricks, m.points, m.win) == pytest.approx((without[c].tricks, without[c].points, without[c].win))
        if pressed[c]:
            assert m.value > without[c].value + 1e-9
        else:
            assert m.value == pytest.approx(without[c].value)
    assert any(pressed.values())  # these positions have cards that press the nil harder
    assert seed == 2 or not all(pressed.values())  # … and cards that do not
