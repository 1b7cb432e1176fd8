"""An opponent's nil in the card search: a card that leaves the defence two tricks to force on it
counts its bust more (``advisor.search.NIL_PRESS_BONUS``), and so does one that leaves the nil
bidder winning the trick being played (``NIL_NOW_BONUS``)."""

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


def _trick_position(east: str, west: str, south: str, north: str, plays: str, dealer: Seat = Seat.N) -> HandState:
    """All four hands dealt, East at nil, the others at 3 or 4, then ``plays``."""
    from advisor.cards import parse_card
    hands = {Seat.N: north, Seat.E: east, Seat.S: south, Seat.W: west}
    st = HandState(Rules(), dealer, {s: [parse_card(c) for c in h.split()] for s, h in hands.items()})
    for _ in range(4):
        st.bid({Seat.N: 4, Seat.E: 0}.get(st.to_act, 3))
    for c in plays.split():
        st.play(parse_card(c))
    return st


# North leads a low heart, East (nil) plays its king: South holds the ace and four hearts under it
NORTH = "2H 3H 2S 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D"
EAST = "KH 5H 7D 8D 9D TD 2C 3C 4C 5C 6C 7C 8C"
SOUTH = "AH 8H 9H TH JH 8S 9S TS JS QS KS AS JD"
WEST_LOW = "4H 6H 7H QH QD KD AD 9C TC JC QC KC AC"   # QH: below the king, West cannot cover


def test_a_card_that_leaves_the_nil_bidder_winning_the_trick_is_a_sure_bust():
    from advisor.cards import cards_to_mask, parse_card as c
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "2H KH")
    assert st.to_act is Seat.S
    remaining = tuple(st.held)
    assert search.wins_this_trick(st, remaining, c("8H"), Seat.E)
    assert not search.wins_this_trick(st, remaining, c("AH"), Seat.E)
    assert not search.wins_this_trick(st, remaining, c("8H"), Seat.W)  # West's card is not winning
    # West, still to play, could take the king: with a spade and no heart left, or a higher heart
    void = list(remaining)
    void[Seat.W] = cards_to_mask([c("2S"), c("QD")])
    assert not search.wins_this_trick(st, tuple(void), c("8H"), Seat.E)
    void[Seat.W] = cards_to_mask([c("QD"), c("AD")])  # no heart and no spade: it cannot
    assert search.wins_this_trick(st, tuple(void), c("8H"), Seat.E)
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "")
    assert not search.wins_this_trick(st, tuple(st.held), c("2H"), Seat.E)  # a lead: no trick yet
    # East leads the king: South ducks, but North, still to play, may have to overtake
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "", dealer=Seat.E)
    assert st.to_act is Seat.E
    st.play(c("KH"))
    remaining = list(st.held)
    assert search.wins_this_trick(st, tuple(remaining), c("8H"), Seat.E)  # North's hearts are low
    remaining[Seat.N] = cards_to_mask([c("2S"), c("3S")])  # later in the hand: spades only
    assert not search.wins_this_trick(st, tuple(remaining), c("8H"), Seat.E)  # it has to trump


def valued_with_and_without(view: HandState, seed: int, constant: str, monkeypatch):
    """The cards of the seat to act valued on the same 12 drawn deals with ``advisor.search``'s
    ``constant`` as shipped and set to 0: (card text -> MoveStats) both ways, and the deals."""
    deals, _ = draw_deals(view, int(view.to_act), 12, random.Random(seed))
    shipped = {str(m.card): m for m in analyse_play(view, deals=deals, time_budget=math.inf).moves}
    monkeypatch.setattr(search, constant, 0.0)
    without = {str(m.card): m for m in analyse_play(view, deals=deals, time_budget=math.inf).moves}
    return shipped, without, deals


def test_the_sure_bust_ranks_the_duck_above_the_overtake_where_double_dummy_busts_either_way(monkeypatch):
    from advisor.cards import parse_card as c
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "2H KH")
    view = seat_view(st, Seat.S)
    with_bonus, without, deals = valued_with_and_without(view, 3, "NIL_NOW_BONUS", monkeypatch)
    for card, m in with_bonus.items():
        assert (m.points, m.tricks) == pytest.approx((without[card].points, without[card].tricks))
        # the ace never leaves East the trick; a low heart does wherever West cannot overtake
        gains = any(search.wins_this_trick(view, d.remaining, c(card), Seat.E) for d in deals)
        assert (m.value > without[card].value + 1e-9) == gains
    assert max(with_bonus.values(), key=lambda m: m.value).card != c("AH")
