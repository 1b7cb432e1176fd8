"""advisor.rollout: playouts by the rule-based player, and the opponents' nils judged by them."""
from __future__ import annotations

import random

import pytest

from advisor import search
from advisor.bots.heuristic_play import choose_card
from advisor.cards import Seat
from advisor.inference import draw_deals
from advisor.rollout import full_state, nil_busted_after
from advisor.rules import Rules
from advisor.search import analyse_play
from advisor.state import HandState, deal
from advisor.view import seat_view


def _hand(seed: int, bids=(3, 0, 2, 3), plays: int = 0) -> HandState:
    """A hand with every card known, North first to bid and lead; ``plays`` cards played by the
    rule-based player."""
    st = HandState(Rules(), dealer=Seat.N, hands=deal(random.Random(seed)))
    for b in bids:
        st.bid(b)
    for _ in range(plays):
        st.play(choose_card(st))
    return st


def test_full_state_holds_the_sampled_hands_and_plays_on_like_the_view():
    st = _hand(4, plays=9)
    seat = st._to_act
    view = seat_view(st, Seat(seat))
    deals, _ = draw_deals(view, seat, 6, random.Random(2))
    for sampled in deals:
        whole = full_state(view, sampled)
        assert whole.held == list(sampled.remaining)
        assert all(whole.complete)
        assert whole.legal_cards() == view.legal_cards()
        assert whole.bids == view.bids and whole.plays == view.plays
        while not whole.is_done:  # every seat's cards are there to the end
            whole.play(choose_card(whole))
        assert sum(whole.tricks) == 13
    assert not view.complete[(seat + 1) & 3]  # the view itself is untouched


@pytest.mark.parametrize("seed", range(6))
def test_playout_verdict_is_the_rule_based_play_to_the_end(seed):
    st = _hand(seed, plays=seed)
    card = choose_card(st)
    verdict = nil_busted_after(st, card, (1,))
    replay = st.clone()
    while not replay.is_done:
        replay.play(choose_card(replay) if replay.plays != st.plays else card)
    assert verdict == {1: int(replay.tricks[1] > 0)}
    assert st.plays == _hand(seed, plays=seed).plays  # the state given is not played on


def test_last_trick_verdict_follows_the_forced_cards():
    rng = random.Random(11)
    for _ in range(20):
        st = HandState(Rules(), dealer=Seat.N, hands=deal(rng))
        for b in (3, 0, 2, 3):
            st.bid(b)
        while len(st.plays) < 48:
            st.play(rng.choice(st.legal_cards()))
        if st.tricks[1]:
            continue
        last = st.clone()
        for _ in range(4):
            last.play(last.legal_cards()[0])
        assert nil_busted_after(st, st.legal_cards()[0], (1,)) == {1: int(last.tricks[1] == 1)}


def _east_nil_position() -> HandState:
    """North to play after the first trick, East's nil still live."""
    rng = random.Random(5)
    while True:
        st = _hand(rng.randrange(10_000), plays=4)
        if st.tricks[1] == 0 and st._to_act == Seat.N:
            return st


def test_opponents_nil_is_judged_by_playouts_as_well(monkeypatch):
    st = _east_nil_position()
    view = seat_view(st, Seat.N)
    deals, _ = draw_deals(view, 0, 10, random.Random(1))
    monkeypatch.setattr(search, "NIL_PLAYOUT_DEALS", 0)
    plain = analyse_play(view, deals=deals, time_budget=60, min_samples=10)
    monkeypatch.setattr(search, "NIL_PLAYOUT_DEALS", 10)
    mixed = analyse_play(view, deals=deals, time_budget=60, min_samples=10)
    whole = [full_state(view, d) for d in deals]
    w = search.NIL_PLAYOUT_WEIGHT
    for before in plain.moves:
        after = next(m for m in mixed.moves if m.card == before.card)
        played_ok = sum(1 - nil_busted_after(x, before.card, (1,))[1] for x in whole) / len(whole)
        assert after.nil_ok[1] == pytest.approx((1 - w) * before.nil_ok[1] + w * played_ok)
