"""The bid model: fast trick estimates corrected by double-dummy solves, and the bids it values."""

from __future__ import annotations

import random

import pytest

from advisor.bidmodel import (
    correction, nil_play_prior, nil_prior, nil_probability, team_tricks_estimate, trick_distribution,
)
from advisor.cards import Seat, cards_to_mask, parse_card
from advisor.rules import Rules
from advisor.search import bid_evaluations, bid_samples
from advisor.solver import solve
from advisor.state import HandState, deal


def _mask(text: str) -> int:
    return cards_to_mask(parse_card(c) for c in text.split())


def test_estimate_tracks_double_dummy_tricks_on_random_deals():
    rng = random.Random(4)
    errors, spread = [], []
    for _ in range(40):
        hands = deal(rng)
        masks = tuple(cards_to_mask(hands[s]) for s in Seat)
        dd = solve(masks, rng.randrange(4), [], False, False, 0b0101, 0b0101, node_limit=3_000_000)
        if dd is None:
            continue
        errors.append(dd - team_tricks_estimate(masks[0], masks[2]))
        spread.append(dd)
    rmse = (sum(e * e for e in errors) / len(errors)) ** 0.5
    mean = sum(spread) / len(spread)
    sd = (sum((x - mean) ** 2 for x in spread) / len(spread)) ** 0.5
    assert abs(sum(errors) / len(errors)) < 0.5  # no large bias
    assert rmse < 0.6 * sd  # far better than guessing the average


@pytest.mark.parametrize("mean,sigma", [(0.2, 1.0), (6.5, 0.9), (12.3, 0.5), (7.0, 0.001)])
def test_trick_distribution_is_a_distribution_around_its_mean(mean, sigma):
    p = trick_distribution(mean, sigma)
    assert len(p) == 14 and all(x >= 0 for x in p)
    assert sum(p) == pytest.approx(1.0)
    expected = sum(t * x for t, x in enumerate(p))
    assert abs(expected - min(13, max(0, mean))) < 0.3


def test_correction_shrinks_a_few_residuals_towards_the_prior():
    shift, sigma = correction([])
    assert shift == 0.0 and sigma > 0.5
    few, _ = correction([2.0, 2.0])
    many, tight = correction([2.0] * 60)
    assert 0 < few < many < 2.0
    assert tight < sigma  # many agreeing deals: narrower than the prior


def test_nil_prior_prefers_low_cards():
    low = _mask("2S 3S 2H 3H 4H 5H 2D 3D 4D 6D 2C 3C 5C")
    high = _mask("AS KS AH KH QH JH AD KD QD AC KC QC JC")
    assert nil_prior(low) > 0.5 > nil_prior(high)


def test_bid_values_follow_the_hand_strength():
    rules = Rules()
    strong = "AS KS QS JS TS AH KH AD KD AC 2H 3D 4C"
    weak = "2S 3H 4H 5H 7H 8D 9D TD 5C 6C 7C 8C 9C"
    best = {}
    for name, text in (("strong", strong), ("weak", weak)):
        own = [parse_card(c) for c in text.split()]
        st = HandState(rules, Seat.N, {Seat.N: own})
        assert st.to_act is Seat.N
        model = bid_samples(st, time_budget=1.0, rng=random.Random(1))
        values = {b: points for b, (points, _) in bid_evaluations(st, model).items()}
        assert set(values) == set(range(14))
        best[name] = max(values, key=values.get)
        assert len(model.means) >= 100 and len(model.solved) >= 1
    assert best["strong"] >= 6
    assert best["weak"] <= 2


def test_nil_probability_moves_with_the_double_dummy_verdicts():
    hand = _mask("2S 3S 2H 3H 4H 6H 2D 3D 4D 7D 2C 3C 8C")
    low, prior, high = nil_probability(hand, 0, 12), nil_play_prior(hand), nil_probability(hand, 12, 12)
    assert low < prior < high
    assert nil_probability(hand, 0, 0) == pytest.approx(prior)


def test_a_nil_on_lead_is_quoted_lower_for_the_same_verdicts():
    # The first lead helps a nil double dummy and hurts it in real play: the same share of made
    # deals says less for a nil that leads, and its real-play prior is lower.
    hand = _mask("2S 3S 2H 3H 4H 6H 2D 3D 4D 7D 2C 3C JC")
    assert nil_prior(hand, leads=True) > nil_prior(hand) and nil_play_prior(hand, leads=True) < nil_play_prior(hand)
    for made, solved in ((0, 0), (0, 10), (5.5, 10), (10, 10)):
        assert nil_probability(hand, made, solved, leads=True) < nil_probability(hand, made, solved)


def _set_chance_of(outcomes) -> float:
    return sum(p for p, score in outcomes if score.made is False)


def test_bids_are_valued_against_real_play_not_a_double_dummy_cut(monkeypatch):
    import advisor.search as search
    from advisor.bidmodel import set_chance
    from advisor.search import BidModel, bid_outcomes

    st = HandState(Rules(), Seat.S, deal(random.Random(4)))
    st.bid(3)  # South, North's partner
    st.bid(2)  # West
    assert st.to_act is Seat.N
    model = BidModel(solved=[], means=[6.0] * 8, partner_bids=[3] * 8, sigma=1.0, nil_p=0.0)
    dist = trick_distribution(6.0, 1.0)
    for bid in (3, 5):  # contracts of 6 (the mean) and 8 (two over it)
        contract = bid + 3
        monkeypatch.setattr(search, "REAL_PLAY_SETS", False)
        hard = bid_outcomes(st, model, bid)
        assert sum(p for p, _ in hard) == pytest.approx(1.0)
        assert _set_chance_of(hard) == pytest.approx(sum(dist[:contract]))
        monkeypatch.setattr(search, "REAL_PLAY_SETS", True)
        real = bid_outcomes(st, model, bid)
        assert sum(p for p, _ in real) == pytest.approx(1.0)
        expected = sum(p * set_chance(contract - t) for t, p in enumerate(dist))
        assert _set_chance_of(real) == pytest.approx(expected)
        if contract == 8:  # two over double dummy: not a sure set in real play
            assert _set_chance_of(real) < _set_chance_of(hard)


def test_beside_a_partners_nil_the_contract_keeps_the_hard_cut(monkeypatch):
    import advisor.search as search
    from advisor.search import BidModel, bid_outcomes

    st = HandState(Rules(), Seat.S, deal(random.Random(4)))
    st.bid(0)  # South bids nil
    st.bid(2)
    model = BidModel(solved=[], means=[3.0] * 8, partner_bids=[0] * 8, sigma=1.0, nil_p=0.0)
    monkeypatch.setattr(search, "REAL_PLAY_SETS", True)
    dist = trick_distribution(3.0, 1.0)
    assert _set_chance_of(bid_outcomes(st, model, 4)) == pytest.approx(sum(dist[:4]))


def _last_bidder(points, east_west_bids):
    """North bids last (East dealt; under `piki` the dealer bids first): South has bid 4."""
    st = HandState(Rules(), Seat.E, deal(random.Random(9)), points_before=points)
    st.bid(east_west_bids[0])  # East
    st.bid(4)  # South
    st.bid(east_west_bids[1])  # West
    assert st.to_act is Seat.N
    return st


def test_the_last_bidder_weighs_the_opponents_known_contract(monkeypatch):
    import advisor.search as search
    from advisor.gamevalue import win_table
    from advisor.search import BidModel

    # East-West at 490 bid 5 together: they win unless North-South take 9 tricks and set them.
    st = _last_bidder((300, 490), (3, 2))
    model = BidModel(solved=[], means=[9.0] * 8, partner_bids=[4] * 8, sigma=1.0, nil_p=0.0)
    dist = trick_distribution(9.0, 1.0)
    monkeypatch.setattr(search, "JOINT_END", False)
    generic = bid_evaluations(st, model, [4, 5])
    monkeypatch.setattr(search, "JOINT_END", True)
    joint = bid_evaluations(st, model, [4, 5])
    assert joint[4][0] == generic[4][0]  # the expected points do not change, only the chance
    table = win_table(st.rules)
    # by hand: set (9+ tricks to us) they fall to 440 and the game goes on; else they are over 500
    # (our overtricks at their long-run cost: a point now, 10 later)
    ours_after = {t: 300 + (80 - 9 * (t - 8) if t >= 8 else -80) for t in range(14)}
    expected = sum(p * (table.chance(ours_after[t], 440) if t >= 9 else 0.0) for t, p in enumerate(dist))
    assert joint[4][1] == pytest.approx(expected, abs=1e-9)
    assert joint[4][1] > generic[4][1] + 0.1
    # bidding 5 (a contract of 9) scores more in just the outcomes where they are set
    assert joint[5][1] > joint[4][1]


def test_an_opponents_nil_leaves_their_hand_to_the_usual_spread(monkeypatch):
    import advisor.search as search
    from advisor.search import BidModel

    st = _last_bidder((300, 490), (0, 5))
    model = BidModel(solved=[], means=[9.0] * 8, partner_bids=[4] * 8, sigma=1.0, nil_p=0.0)
    values = {}
    for joint in (False, True):
        monkeypatch.setattr(search, "JOINT_END", joint)
        values[joint] = bid_evaluations(st, model, [4, 5])
    assert values[True] == values[False]


def test_a_nil_search_cut_short_counts_as_the_measured_share_of_made_nils():
    # Deal 98, East to bid and lead with a hand fit for nil: at 300,000 nodes the team's tricks
    # are solved but the nil's search (half the limit) is cut short; with the full limit it ends.
    from advisor import search
    from advisor.cards import SEATS
    from advisor.inference import SampledDeal

    hands = deal(random.Random(98))
    masks = tuple(cards_to_mask(hands[s]) for s in SEATS)
    state = HandState(Rules(), Seat.E, hands)
    sample = SampledDeal(masks, masks)
    team, nil_ok, partner_alone = search._solve_for_bid(state, sample, 300_000, fresh=True)
    assert nil_ok == search.NIL_CUT_MADE
    assert partner_alone == team  # not searched for a nil that is not known to make
    full_team, full_nil, _ = search._solve_for_bid(state, sample, None, fresh=True)
    assert full_team == team and full_nil in (0.0, 1.0)
    assert 0.5 < search.NIL_CUT_MADE < 1.0
