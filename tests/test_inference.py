"""Sampling the hidden hands: every sampled deal fits what the observer knows, and the bids pull
the hidden hands towards hands that fit them."""

from __future__ import annotations

import random
import statistics

import pytest

from advisor.cards import Seat, cards_to_mask, mask_to_cards
from advisor.handeval import estimate_tricks
from advisor.inference import (
    PLAY_MISMATCH, NoConsistentDeal, draw_deals, duck_likelihood, nil_ducks, play_evidence,
    play_likelihood, systematic, weighted_deals,
)
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


def _nil_hands_drawn(monkeypatch, nil_seat: Seat, honours=None) -> list[int]:
    """The nil bidder's hands in the deals North draws after the nil of ``nil_seat`` (East, an
    opponent, or South, the partner; the same cards and draws), with ``honours`` as
    NIL_SPADE_HONOURS and NIL_LONG_SPADES 1.0 when given."""
    import advisor.inference as inference

    monkeypatch.setattr(inference, "NIL_SPADES_OF_PARTNER", True)
    if honours is not None:
        monkeypatch.setattr(inference, "NIL_SPADE_HONOURS", honours)
        monkeypatch.setattr(inference, "NIL_LONG_SPADES", 1.0)
    full = HandState(Rules(), Seat.N, deal(random.Random(11)))  # N (dealer) bids first, then E, S
    view = seat_view(full, Seat.N)
    for a in (4, 0 if nil_seat == Seat.E else 3, 0 if nil_seat == Seat.S else 2):
        full.apply(a)
        view.apply(a)
    deals, _ = draw_deals(view, int(Seat.N), 400, random.Random(4))
    return [d.initial[int(nil_seat)] for d in deals]


def test_with_the_partners_spades_on_a_nil_is_drawn_without_the_high_spades(monkeypatch):
    from advisor.cards import SPADES_MASK

    def shares(hands):
        high = statistics.fmean((h & SPADES_MASK) >> 10 != 0 for h in hands)  # Q, K or A
        ace = statistics.fmean(h >> 12 & 1 for h in hands)
        spades = statistics.fmean((h & SPADES_MASK).bit_count() for h in hands)
        return high, ace, spades

    partner = shares(_nil_hands_drawn(monkeypatch, Seat.S))
    partner_risk_only = shares(_nil_hands_drawn(monkeypatch, Seat.S, honours=()))
    opponent = shares(_nil_hands_drawn(monkeypatch, Seat.E))
    # the risk count alone leaves a queen of spades or higher in many drawn nil hands
    assert partner_risk_only[0] > 0.12 and partner_risk_only[1] > 0.03
    assert partner[0] < 0.5 * partner_risk_only[0] and partner[1] < 0.01
    assert partner[2] < partner_risk_only[2] - 0.1  # and fewer spades
    # an opponent's nil is drawn by the risk count alone
    assert opponent[0] > 0.12 and opponent[1] > 0.03


def test_the_ace_of_spades_all_but_rules_out_a_partners_nil(monkeypatch):
    # with the partner's spades on (off by default); a blind nil, bid without looking, says
    # nothing about the cards
    import advisor.inference as inference
    from advisor.bids import BLIND_NIL
    from advisor.cards import parse_card
    from advisor.inference import bid_likelihood

    ace_and_low = cards_to_mask(parse_card(c) for c in "AS 2S 3S 2H 3H 4H 2D 3D 4D 2C 3C 4C 5C".split())
    six_and_low = ace_and_low & ~(1 << 12) | 1 << 4
    assert inference.NIL_SPADES_OF_PARTNER is False
    assert bid_likelihood(0, ace_and_low) == bid_likelihood(0, ace_and_low, opponent=True)
    monkeypatch.setattr(inference, "NIL_SPADES_OF_PARTNER", True)
    assert bid_likelihood(0, ace_and_low) < 0.05 * bid_likelihood(0, six_and_low)
    assert bid_likelihood(0, ace_and_low, opponent=True) > 0.2 * bid_likelihood(0, six_and_low, opponent=True)
    assert bid_likelihood(BLIND_NIL, ace_and_low) == 1.0


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


def test_a_deal_without_voids_in_the_way_is_a_uniform_cut_of_the_unseen_cards():
    from collections import Counter

    from advisor.inference import _assign

    pool = list(range(13, 52))  # every heart, diamond and club
    need = [13, 13, 0, 13]
    seen = Counter()
    rng = random.Random(4)
    for _ in range(3000):
        hands = _assign(pool, need, [0, 1, 0, 0], rng)  # a void in spades: not among the cards
        assert [h.bit_count() for h in hands] == need
        assert sum(hands) == sum(1 << c for c in pool)  # each card once
        seen.update(s for s in range(4) if hands[s] >> 20 & 1)  # where the 9 of hearts goes
    assert seen[2] == 0 and all(900 <= seen[s] <= 1100 for s in (0, 1, 3))
    # a void among the unseen suits: no heart reaches seat 1
    for _ in range(200):
        hands = _assign(pool, need, [0, 2, 0, 0], rng)
        assert hands is None or hands[1] & (0x1FFF << 13) == 0


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


def _heuristic_hand(seed: int, plays: int, nil_seat: Seat | None = None):
    """A hand played by the rule-based bot at every seat up to ``plays`` cards: (full, views).
    With ``nil_seat`` that seat bids nil whatever its cards, and the hand stops when it busts."""
    from advisor.bots import get_bot

    rng = random.Random(seed)
    hands = deal(rng)
    full = HandState(Rules(), Seat(rng.randrange(4)), hands)
    views = {s: seat_view(full, s) for s in Seat}
    bot = get_bot("heuristic")
    while full.phase.name == "BIDDING" or (
            len(full.plays) < plays and not (nil_seat is not None and full.tricks[nil_seat])):
        if full.phase.name == "BIDDING" and full.to_act == nil_seat:
            action = 0
        else:
            action = bot.act(views[full.to_act].clone())
        full.apply(action)
        for v in views.values():
            v.apply(action)
    return full, views


@pytest.fixture
def play_evidence_on(monkeypatch):
    import advisor.inference as inference

    monkeypatch.setattr(inference, "PLAY_MISMATCH", {"opponent": 0.2, "partner": 0.5})
    return inference.PLAY_MISMATCH


def test_play_evidence_is_off_by_default():
    full, views = _heuristic_hand(3, 14)
    assert PLAY_MISMATCH == {"opponent": 1.0, "partner": 1.0}
    assert play_evidence(views[full.to_act], int(full.to_act)) == []


def test_play_evidence_lists_the_other_seats_plays_with_the_state_before_each(play_evidence_on):
    full, views = _heuristic_hand(3, 14)
    observer = int(full.to_act)
    evidence = play_evidence(views[full.to_act], observer)
    others = [(s, int(c)) for s, c in zip(full.play_seats, full.plays) if s != observer]
    assert [(e.seat, e.card) for e in evidence] == others
    for e in evidence:
        view = e.before.view
        assert view.to_act == e.seat and not view.played >> e.card & 1
        assert e.mismatch == play_evidence_on["partner" if e.seat == (observer + 2) & 3 else "opponent"]
    assert play_evidence(HandState(Rules(), Seat.N, deal(random.Random(1))), 0) == []  # no plays yet


def test_the_true_deal_explains_the_rule_based_plays_and_a_swapped_one_less(play_evidence_on):
    full, views = _heuristic_hand(4, 20)
    observer = int(full.to_act)
    evidence = play_evidence(views[full.to_act], observer)
    dealt = tuple(full.known)
    assert play_likelihood(evidence, dealt) == 1.0  # the bot's own plays, its own hands
    weights = []
    rng = random.Random(9)
    for _ in range(200):
        seats = [s for s in range(4) if s != observer]
        a, b = rng.sample(seats, 2)
        ca = rng.choice([c for c in range(52) if dealt[a] >> c & 1 and not full.played >> c & 1])
        cb = rng.choice([c for c in range(52) if dealt[b] >> c & 1 and not full.played >> c & 1])
        swapped = list(dealt)
        swapped[a] ^= (1 << ca) | (1 << cb)
        swapped[b] ^= (1 << ca) | (1 << cb)
        weights.append(play_likelihood(evidence, tuple(swapped)))
    assert max(weights) <= 1.0
    assert statistics.fmean(weights) < 0.9  # unplayed cards moved: some plays no longer fit


def test_sampled_deals_place_more_hidden_cards_right_after_rule_based_play(monkeypatch):
    import advisor.inference as inference

    right = {True: 0.0, False: 0.0}
    for use in (True, False):
        monkeypatch.setattr(inference, "PLAY_MISMATCH", {"opponent": 0.2 if use else 1.0,
                                                         "partner": 0.5 if use else 1.0})
        for seed in range(12):
            full, views = _heuristic_hand(seed, 24 + seed % 12)
            observer = int(full.to_act)
            deals, _ = draw_deals(views[full.to_act], observer, 32, random.Random(seed))
            right[use] += statistics.fmean(
                (d.remaining[s] & full.held[s]).bit_count() / full.held[s].bit_count()
                for d in deals for s in range(4) if s != observer)
    assert right[True] > right[False] + 0.4  # summed over 12 positions: 0.73 more when written


def _ducks(plays, observer=Seat.S, bids=None):
    from advisor.record import HandRecord, replay

    rec = HandRecord.from_json({"format": "piki-hand/1", "dealer": "N", "plays": plays,
                                "bids": bids or {"N": 3, "E": 0, "S": 4, "W": 3}})
    return [(Seat(s).name, [str(c) for c in mask_to_cards(m)])
            for s, m in nil_ducks(replay(rec), int(observer))]


def test_nil_ducks_name_the_cards_between_the_duck_and_the_top_card():
    assert _ducks(["JH", "7H"]) == [("E", ["8H", "9H", "TH"])]
    assert _ducks(["JH", "TH"]) == []  # nothing between the ten and the jack
    assert _ducks(["JH", "QH"]) == []  # over the top: a bust, not a duck
    assert _ducks(["JH", "7H"], observer=Seat.W) == []  # the partner's nil, not an opponent's
    assert _ducks(["JH", "7H"], bids={"N": 3, "E": 3, "S": 4, "W": 3}) == []  # no nil
    # the nil (E) took the first trick: its later ducks (the 7 under the jack) tell nothing more
    assert _ducks(["KD", "AD", "3D", "4D", "2C", "KC", "3C", "4C", "JH", "5H", "6H", "7H"]) == []
    # the nil live: both ducks count
    assert _ducks(["KD", "5D", "AD", "2D", "JH", "5H", "6H", "7H"]) \
        == [("E", ["6D", "7D", "8D", "9D", "TD", "JD", "QD"]), ("E", ["8H", "9H", "TH"])]
    # a discard (void in the suit led) is not a duck
    assert _ducks(["JH", "7D"]) == []


def test_a_ruffed_trick_means_the_nil_bidder_held_no_higher_card_of_the_suit():
    # W bids nil; N leads a club, E ruffs, S follows with the nine, W follows with the seven:
    # under the spade any club stays under, so W would have shed a higher one (not the nine: gone)
    got = _ducks(["5C", "2S", "9C", "7C"], observer=Seat.N, bids={"N": 3, "E": 3, "S": 4, "W": 0})
    assert got == [("W", ["8C", "TC", "JC", "QC", "KC", "AC"])]
    # the nil's first duck stays on record after more tricks, and a later one is added
    got = _ducks(["5C", "2S", "9C", "7C", "4H", "AH", "JH", "6H"], observer=Seat.N,
                 bids={"N": 3, "E": 3, "S": 4, "W": 0})
    assert got == [("W", ["8C", "TC", "JC", "QC", "KC", "AC"]), ("W", ["QH", "KH"])]


def test_the_rule_based_nil_bidder_never_contradicts_its_ducks():
    count = 0
    for seed in range(8):
        full, views = _heuristic_hand(seed, 28, Seat.E)
        ducks = nil_ducks(views[Seat.S], int(Seat.S))
        assert all(seat == int(Seat.E) for seat, _ in ducks)
        assert duck_likelihood(ducks, tuple(full.known)) == 1.0  # it sheds the highest card under
        count += len(ducks)
    assert count >= 8  # 23 ducks with something between when written


def test_sampled_deals_follow_the_nil_bidders_ducks(monkeypatch):
    import advisor.inference as inference

    assert inference.NIL_DUCK_MISMATCH == 1.0  # off as shipped: the weights ignore the ducks
    shipped = 0.2
    checked = 0
    totals = {1.0: 0.0, shipped: 0.0}
    for seed in range(20):
        full, views = _heuristic_hand(seed, 20, Seat.E)
        observer = int(Seat.S)
        ducks = nil_ducks(views[Seat.S], observer)
        forbidden = 0
        for seat, cards in ducks:
            forbidden |= cards & ~full.played & ~full.held[observer]
        if not forbidden:
            continue
        checked += 1
        share = {}
        for factor in (1.0, shipped):
            monkeypatch.setattr(inference, "NIL_DUCK_MISMATCH", factor)
            deals, _ = draw_deals(views[Seat.S], observer, 64, random.Random(seed))
            share[factor] = statistics.fmean(bool(d.remaining[Seat.E] & forbidden) for d in deals)
        assert share[shipped] <= share[1.0]
        for factor in share:
            totals[factor] += share[factor]
    assert checked >= 3
    assert totals[shipped] < 0.7 * totals[1.0]  # 0.50 when written
