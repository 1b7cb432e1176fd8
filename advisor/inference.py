"""Sampling the hidden hands: deals consistent with what one seat knows.

A sampled deal respects the observer's own cards, every card played and by whom, the voids each
seat has shown, any other cards known to be in a hand, and how many cards each seat still holds.
Deals are weighted by how well each hand fits its owner's bid, then drawn in proportion to that
weight.

>>> systematic([0.0, 3.0, 1.0], 4, random.Random(0))
[1, 1, 1, 2]
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .bids import BLIND_NIL, is_nil
from .bots.heuristic_play import choose_card_for
from .bots.knowledge import Knowledge
from .cards import FULL_DECK, SPADES_MASK, mask_to_cards
from .handeval import estimate_tricks, nil_risk
from .state import HandState

# How far (in tricks) a bid typically is from our estimate of the hand, and which way: measured
# on 4,000 bids, the rule-based bot's bids sit 0.11-0.18 tricks under estimate_tricks with a spread
# of 0.5, the advisor's own 0.21 under with 0.6. The spread is set wider, for players who bid
# less by the book. Replaying 107 of the advisor's contracts (known partner bid) against how they
# went, P(make) scored a Brier 0.131 at 0.8 (0.129 at 1.0, 0.134 at 0.6), 0.147 before (1.6, and
# the deals drawn without replacement, which let the misfits back in).
BID_SIGMA = 0.8
BID_BIAS = 0.15

# A nil bid says more than the risk count of its hand: the ace of spades always takes a trick, so
# nobody bids nil with it, and hardly anyone with the king or queen of spades or more than three
# spades. The risk count alone weighed a nil hand holding the ace of spades like a real nil hand
# with a few middling cards: the hands drawn for the rule-based bot's 300 nils of a 500-game run
# held a spade queen or higher in 19% of the deals (the real hands: never) and averaged 2.45
# spades (2.03). These factors (never zero: other players bid otherwise) bring that to 5% and 2.26.
# Not for an opponent's nil: drawn so, the defence set fewer nils and scored less (a paired screen:
# made only with them 29, only without 15 of 229 deals, -9.2 points a deal), as if the risk
# count's weaker nil hands stood in for the nil bidder's own misjudgements, which double dummy
# leaves out. For the partner's nil (cover, and the bid beside it) the same screen gave +1.8 points
# a deal (se 3.8; made only with them 9, only without 5 of 262), and played without a clock (the
# same deals played the same way but where a decision differs) -10.5 a deal (se 5.4) over 89: off
# (NIL_SPADES_OF_PARTNER; benchmarks/README.md, "The nil bidder's high spades").
NIL_SPADES_OF_PARTNER = False
NIL_SPADE_HONOURS = ((12, 0.02), (11, 0.15), (10, 0.4))  # (rank: A, K, Q; weight factor)
NIL_LONG_SPADES = 0.4  # weight factor for each spade beyond three

# The cards the other seats played tell about the cards they kept: a deal can be weighted by how
# many of their plays the rule-based player (:mod:`advisor.bots.heuristic_play`, a model of
# sensible play) would have made with that deal's hand. A play it would not have made multiplies
# the weight by this factor (an opponent's, the partner's), never by zero: other players play
# otherwise, and a deal is only made less likely, not impossible. Off (1.0) by default: with 0.2
# and 0.5 the sampled hands hold more of the right cards (about 0.50 of the hidden cards placed
# right against 0.42, rule-based play at every seat), but in play against the rule-based bot the
# advice did no better (benchmarks/README.md, "Inference from the cards played").
PLAY_MISMATCH = {"opponent": 1.0, "partner": 1.0}
MIN_PLAY_WEIGHT = 1e-3  # below this a deal's further plays are not checked (it is rarely drawn)

# A nil bidder who follows suit under the trick sheds the highest card that stays under (every
# nil player does, whatever else their style), so it holds no card of the suit between the one it
# played and the card on top (above it at all, once the trick is ruffed). A deal that gives an
# opponent's live nil such a card can be made this much less likely for each duck it contradicts.
# Off (1.0): at 0.2 the sampled deals gave the nil such a card about half as often, but the
# engine's defence set no more nils (300 paired deals, 181 made either way; benchmarks/README.md,
# "The nil bidder's ducks").
NIL_DUCK_MISMATCH = 1.0


class NoConsistentDeal(ValueError):
    """The known facts admit no deal (e.g. contradictory voids)."""


@dataclass(frozen=True)
class SampledDeal:
    remaining: tuple[int, int, int, int]  # cards each seat still holds
    initial: tuple[int, int, int, int]  # the 13 cards each seat was dealt


def played_by(state: HandState) -> list[int]:
    out = [0, 0, 0, 0]
    for seat, card in zip(state.play_seats, state.plays):
        out[seat] |= 1 << card
    return out


def bid_likelihood(bid: int | None, hand: int, opponent: bool = False) -> float:
    """How plausible ``bid`` is for a 13-card ``hand`` (unnormalised); a nil by its risk count,
    the partner's also by its spades when NIL_SPADES_OF_PARTNER is on."""
    if bid is None or bid == BLIND_NIL:
        return 1.0
    if bid == 0:
        risk_count = math.exp(-2.5 * nil_risk(hand))
        return risk_count * nil_spade_factor(hand) if NIL_SPADES_OF_PARTNER and not opponent else risk_count
    d = estimate_tricks(hand) - BID_BIAS - bid
    return math.exp(-d * d / (2 * BID_SIGMA * BID_SIGMA))


def nil_spade_factor(hand: int) -> float:
    """How much less likely a nil is with ``hand``'s high or many spades than its risk count says.

    >>> from advisor.cards import parse_card as c, cards_to_mask
    >>> nil_spade_factor(cards_to_mask(c(x) for x in "2S 5S 9S 3H 4H 8H 2D 6D TD 3C 5C 7C 9C".split()))
    1.0
    >>> round(nil_spade_factor(cards_to_mask(c(x) for x in "AS 2S 5S 9S 3H 4H 8H 2D 6D 3C 5C 7C 9C".split())), 4)
    0.008
    """
    spades = hand & SPADES_MASK
    factor = NIL_LONG_SPADES ** max(0, spades.bit_count() - 3)
    for rank, f in NIL_SPADE_HONOURS:
        if spades >> rank & 1:
            factor *= f
    return factor


@dataclass(frozen=True)
class PlayEvidence:
    """One play by another seat: that seat's picture of the hand just before it (its own cards
    left blank), who played and what."""

    before: Knowledge
    seat: int
    card: int
    mismatch: float  # weight factor when the model would have played another card


def play_evidence(state: HandState, observer: int) -> list[PlayEvidence]:
    """The plays so far by the seats other than ``observer``, each with the state before it."""
    if state._bid_count < 4 or not state.plays or min(PLAY_MISMATCH.values()) >= 1.0:
        return []
    replay = HandState(state.rules, state.dealer, None, state.points_before, state.bags_before)
    for i in range(4):
        replay.bid(state.bids[(int(state.first) + i) & 3])
    out = []
    for seat, card in zip(state.play_seats, state.plays):
        if seat != observer:
            kind = "partner" if seat == (observer + 2) & 3 else "opponent"
            out.append(PlayEvidence(Knowledge(replay.clone()), int(seat), int(card), PLAY_MISMATCH[kind]))
        replay.play(card)
    return out


def nil_ducks(state: HandState, observer: int) -> list[tuple[int, int]]:
    """``(seat, cards)`` for each duck by an opponent of ``observer`` whose nil was live: the
    cards of the led suit it would have shed instead had it held them (still unplayed then).

    >>> from advisor.record import HandRecord, replay
    >>> rec = HandRecord.from_json({"format": "piki-hand/1", "dealer": "N",
    ...     "bids": {"N": 3, "E": 0, "S": 4, "W": 3}, "plays": ["JH", "7H"]})
    >>> [(seat, [str(c) for c in mask_to_cards(cards)]) for seat, cards in nil_ducks(replay(rec), 2)]
    [(1, ['8H', '9H', 'TH'])]
    """
    if state._bid_count < 4:
        return []
    nils = {s for s in range(4) if (s - observer) & 1 and is_nil(state.bids[s])}
    out = []
    played = 0
    for i, (seat, card) in enumerate(zip(state.play_seats, state.plays)):
        start = i - i % 4
        if i > start and seat in nils and seat not in state.trick_winners[:i // 4]:
            led = state.plays[start] // 13
            top = max(state.plays[start:i], key=lambda c: (c // 13 == 0, c // 13 == led, c))
            if card // 13 == led and (card < top or top // 13 != led):
                # under the top card of the suit, or under a ruff: anything of the suit
                end = top if top // 13 == led else (led + 1) * 13
                between = ((1 << end) - 1) & ~((2 << card) - 1) & ~played
                if between:
                    out.append((seat, between))
        played |= 1 << card
    return out


def duck_likelihood(ducks: list[tuple[int, int]], initial: tuple[int, int, int, int]) -> float:
    """How well the deal ``initial`` fits the nil bidders' ducks in ``ducks``."""
    w = 1.0
    for seat, cards in ducks:
        if initial[seat] & cards:
            w *= NIL_DUCK_MISMATCH
    return w


def play_likelihood(evidence: list[PlayEvidence], initial: tuple[int, int, int, int]) -> float:
    """How well the deal ``initial`` (each seat's 13 cards) explains the plays in ``evidence``."""
    w = 1.0
    for e in evidence:
        k = e.before.with_hand(initial[e.seat])
        legal = e.before.view.legal_for(k.hand)
        if legal & (legal - 1) and int(choose_card_for(k, legal)) != e.card:
            w *= e.mismatch
            if w < MIN_PLAY_WEIGHT:
                break
    return w


def _assign(pool_cards: list[int], need: list[int], voids: list[int], rng: random.Random) -> list[int] | None:
    """Deal ``pool_cards`` so that seat s gets need[s] cards and none of its void suits."""
    pool_suits = 0
    for c in pool_cards:
        pool_suits |= 1 << (c // 13)
    if not any(need[s] and voids[s] & pool_suits for s in range(4)):
        # no void in the way: a shuffle cut into the hands is the same uniform deal as the
        # card-by-card one below, about twenty times faster (it is most of the cost of a draw)
        cards = list(pool_cards)
        rng.shuffle(cards)
        hands, at = [0, 0, 0, 0], 0
        for s in range(4):
            for c in cards[at:at + need[s]]:
                hands[s] |= 1 << c
            at += need[s]
        return hands
    hands = [0, 0, 0, 0]
    cap = list(need)
    eligible = []
    for c in pool_cards:
        suit = c // 13
        seats = [s for s in range(4) if cap[s] > 0 and not voids[s] >> suit & 1]
        if not seats:
            return None
        eligible.append((len(seats), rng.random(), c, seats))
    eligible.sort()  # most constrained cards first
    for _, _, c, seats in eligible:
        open_seats = [s for s in seats if cap[s] > 0]
        if not open_seats:
            return None
        total = sum(cap[s] for s in open_seats)
        pick = rng.random() * total
        for s in open_seats:
            pick -= cap[s]
            if pick < 0:
                break
        hands[s] |= 1 << c
        cap[s] -= 1
    return hands


def _bidders(state: HandState, observer: int, hide_observer: bool) -> list[int]:
    """The seats whose bids tell ``observer`` something about their hands."""
    return [s for s in range(4) if (s != observer or hide_observer) and state.bids[s] is not None]


def weighted_deals(
    state: HandState, observer: int, n: int, rng: random.Random, *, hide_observer: bool = False,
) -> tuple[list[SampledDeal], list[float]]:
    """``n`` deals drawn uniformly from those consistent with what ``observer`` knows, each with
    its weight: how well every other hand fits its owner's bid (all 1.0 before any bid).

    With ``hide_observer`` the observer's own unplayed cards are treated as unknown too (used for
    blind nil, which must be judged without looking).
    """
    by_seat = played_by(state)
    known_rest = list(state.held)
    if hide_observer:
        known_rest[observer] = 0
    known_all = 0
    for s in range(4):
        known_all |= known_rest[s]
    need = [13 - by_seat[s].bit_count() - known_rest[s].bit_count() for s in range(4)]
    if any(x < 0 for x in need):
        raise NoConsistentDeal("a seat has more than 13 cards accounted for")
    pool = FULL_DECK & ~state.played & ~known_all
    pool_cards = [int(c) for c in mask_to_cards(pool)]
    if len(pool_cards) != sum(need):
        raise NoConsistentDeal("the unseen cards do not match the cards the seats still hold")
    voids = list(state.voids)
    bids = state.bids
    weigh = [s for s in _bidders(state, observer, hide_observer) if need[s] > 0]
    evidence = [e for e in play_evidence(state, observer) if need[e.seat] > 0]
    ducks = [] if NIL_DUCK_MISMATCH >= 1.0 else \
        [d for d in nil_ducks(state, observer) if need[d[0]] > 0]
    deals: list[SampledDeal] = []
    weights: list[float] = []
    attempts = 0
    while len(deals) < n:
        attempts += 1
        if attempts > 50 * n + 200:
            if deals:
                break
            raise NoConsistentDeal("no deal fits the voids shown and the cards known")
        hands = _assign(pool_cards, need, voids, rng)
        if hands is None:
            continue
        remaining = tuple(known_rest[s] | hands[s] for s in range(4))
        initial = tuple(remaining[s] | by_seat[s] for s in range(4))
        w = 1.0
        for s in weigh:
            w *= bid_likelihood(bids[s], initial[s], opponent=(s ^ observer) & 1 == 1)
        if evidence:
            w *= play_likelihood(evidence, initial)
        if ducks:
            w *= duck_likelihood(ducks, initial)
        deals.append(SampledDeal(remaining, initial))  # type: ignore[arg-type]
        weights.append(w)
    return deals, weights


def systematic(weights: list[float], n: int, rng: random.Random) -> list[int]:
    """``n`` indices drawn with replacement in proportion to ``weights`` (systematic resampling:
    one random offset, then evenly spaced, so each index appears within one of its expected count).
    """
    total = sum(weights)
    if total <= 0:
        return [i * len(weights) // n for i in range(n)]
    step = total / n
    u = rng.random() * step
    out: list[int] = []
    acc = 0.0
    for i, w in enumerate(weights):
        acc += w
        while u < acc and len(out) < n:
            out.append(i)
            u += step
    while len(out) < n:  # rounding at the very end
        out.append(len(weights) - 1)
    return out


def draw_deals(
    state: HandState, observer: int, n: int, rng: random.Random,
    *, oversample: int = 4, hide_observer: bool = False,
) -> tuple[list[SampledDeal], list[int]]:
    """``n`` deals for ``observer``, in random order: once any other seat has bid, drawn with
    replacement from ``oversample * n`` candidates in proportion to how well they fit the bids
    (a well-fitting deal can come several times; drawing without replacement would let the
    misfits back in), else ``n`` uniform ones. Also a key per deal, equal for repeats, so that a
    repeated deal need not be solved twice.
    """
    informed = bool(_bidders(state, observer, hide_observer))
    pool, weights = weighted_deals(state, observer, n * (oversample if informed else 1), rng,
                                   hide_observer=hide_observer)
    keys = systematic(weights, n, rng) if informed else list(range(len(pool)))
    rng.shuffle(keys)
    return [pool[k] for k in keys], keys
