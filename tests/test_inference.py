"""Sampling the hidden hands: every sampled deal fits what the observer knows, and the bids pull
the hidden hands towards hands that fit them."""

from __future__ import annotations

import random
import statistics

import pytest

from advisor.cards import Seat, cards_to_mask
from advisor.handeval import estimate_tricks
from advisor.inference import NoConsistentDeal, draw_deals, systematic, weighted_deals
from advisor.rules import Rules
from advisor.search import bid_samples
from advisor.state import HandState, deal
from advisor.view import seat_view


@pytest.mark.parametrize("seed", range(4))
def test_systematic_counts_are_within_one_of_their_expectation(seed):
    rng = random.Random(seed)
    weights = [rng.random() ** 3 for _ in range(50)] + [0.0] * 5
    n = 120
    picks = systematic(weights, n, rng)
    assert len(picks) == n
    total = sum(weights)
    for i, w in enumerate(weights):
        assert abs(picks.count(i) - n * w / total) < 1.0 + 1e-9
    assert not any(picks.count(i) for i in range(50, 55))  # weight 0 is never drawn


def test_sampled_deals_respect_cards_played_and_voids():
    # N-S-E-W bid, then play until somebody has shown a void.
    full = HandState(Rules(), Seat.N, deal(random.Random(11)))
    for _ in range(4):
        full.apply(3)
    rng = random.Random(0)
    while not any(full.voids) and not full.is_done:
        full.apply(rng.choice(full.legal_cards()))
    assert any(full.voids)
    observer = int(Seat.S)
    view = seat_view(full, Seat.S)
    for deal_ in draw_deals(view, observer, 30, random.Random(1))[0]:
        assert deal_.remaining[observer] == full.held[observer]
        union = 0
        for s in range(4):
            assert deal_.remaining[s] & union == 0  # no card twice
            union |= deal_.remaining[s]
            assert deal_.remaining[s].bit_count() == full.held[s].bit_count()
            for suit in range(4):
                if full.voids[s] >> suit & 1:
                    assert deal_.remaining[s] >> (13 * suit) & 0x1FFF == 0
        assert union & full.played == 0
        assert union | full.played == (1 << 52) - 1


def test_the_partners_bid_pulls_the_sampled_hands():
    # Same cards for the bidder; the partner bid 1 in one auction and 6 in the other.
    hands = deal(random.Random(5))
    means = {}
    for partner_bid in (1, 6):
        full = HandState(Rules(), Seat.S, hands)  # S (dealer) bids first, then W, N (partner)
        view = seat_view(full, Seat.N)
        for a in (partner_bid, 3):
            full.apply(a)
            view.apply(a)
        assert full.to_act == Seat.N
        pool, weights = weighted_deals(view, int(Seat.N), 400, random.Random(2))
        picks = systematic(weights, 200, random.Random(3))
        means[partner_bid] = statistics.fmean(estimate_tricks(pool[i].initial[int(Seat.S)])
                                              for i in picks)
        unweighted = statistics.fmean(estimate_tricks(d.initial[int(Seat.S)]) for d in pool)
        # the bid moves the estimate of the partner's hand well away from the prior
        assert abs(means[partner_bid] - partner_bid) < abs(unweighted - partner_bid) - 0.5
    assert means[6] - means[1] > 3.0


def test_bid_model_team_tricks_follow_the_partners_bid():
    hands = deal(random.Random(8))
    tricks = {}
    for partner_bid in (1, 6):
        full = HandState(Rules(), Seat.S, hands)
        view = seat_view(full, Seat.N)
        for a in (partner_bid, 3):
            full.apply(a)
            view.apply(a)
        model = bid_samples(view, time_budget=0.3, rng=random.Random(1))
        assert len(model.means) == 240 and len(model.solved) >= 2
        tricks[partner_bid] = model.team_tricks
    assert tricks[6] - tricks[1] > 2.5


def test_contradictory_facts_are_a_clear_error():
    full = HandState(Rules(), Seat.N, deal(random.Random(1)))
    view = seat_view(full, Seat.N)
    view.voids[1] = 0b1111  # E shows a void in every suit but still holds 13 cards
    with pytest.raises(NoConsistentDeal, match="no deal fits"):
        draw_deals(view, 0, 5, random.Random(0))


def test_blind_nil_sampling_hides_the_observers_own_cards():
    full = HandState(Rules(), Seat.N, deal(random.Random(4)))
    view = seat_view(full, Seat.N)
    own = cards_to_mask(deal(random.Random(4))[Seat.N])
    seen = [d.initial[0] for d in draw_deals(view, 0, 12, random.Random(0), hide_observer=True)[0]]
    assert len(set(seen)) == 12 and own not in seen
    # looking, the observer's hand is its own in every deal
    assert {d.initial[0] for d in draw_deals(view, 0, 12, random.Random(0))[0]} == {own}


def test_search_deals_follow_the_bids_and_repeat_under_one_key():
    from advisor.search import analyse_play

    full = HandState(Rules(), Seat.N, deal(random.Random(21)))
    for b in (4, 2, 5, 1):  # N E S W
        full.apply(b)
    view = seat_view(full, Seat.N)
    deals, keys = draw_deals(view, int(Seat.N), 64, random.Random(0))
    assert len(deals) == len(keys) == 64
    by_key = {}
    for k, d in zip(keys, deals):
        assert by_key.setdefault(k, d) == d  # one key, one deal
    assert len(by_key) < 64  # the well-fitting deals come more than once
    # S bid 5, W bid 1: the drawn hands lean that way against unweighted ones
    s_est = statistics.fmean(estimate_tricks(d.initial[2]) for d in deals)
    w_est = statistics.fmean(estimate_tricks(d.initial[3]) for d in deals)
    assert s_est - w_est > 2.0
    analysis = analyse_play(view, time_budget=0.3, rng=random.Random(0))
    assert analysis.samples >= 1 and {m.card for m in analysis.moves} == set(view.legal_cards())
