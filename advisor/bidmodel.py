"""How many tricks a team takes, as a distribution, for judging bids.

A 13-card double-dummy solve costs about 0.1 s here, so a bid decision can afford only a handful
of them, and choosing the best of 14 bids on a handful of deals overbids (the best-looking bid is
the one whose few deals happened to go well). So every sampled deal also gets a fast estimate of
the team's double-dummy tricks from the two partners' hands (a small network,
:mod:`advisor.tricknet`; :func:`team_tricks_estimates`), and the deals that are solved exactly
correct it: their mean residual shifts all estimates (a control variate) and their spread sets
the width of each deal's trick distribution. Bids are then valued over many deals at the cost of
a few solves. (Before 2026-12-01 the estimate was a linear fit over 15 hand features, kept as
:func:`linear_team_tricks_estimate` for comparison: held-out error 1.01 tricks against 0.87.)

>>> from advisor.cards import parse_card as c, cards_to_mask
>>> strong = cards_to_mask(c(x) for x in "AS KS QS JS AH KH AD KD 2C 3C 4C 5D 6D".split())
>>> weak = cards_to_mask(c(x) for x in "2S 3H 4H 5H 7H 8D 9D TD 5C 6C 7C 8C 9C".split())
>>> team_tricks_estimate(strong, weak) > team_tricks_estimate(weak, weak) + 3
True
>>> linear_team_tricks_estimate(strong, weak) > linear_team_tricks_estimate(weak, weak) + 3
True
>>> p = trick_distribution(6.3, 1.0)
>>> round(sum(p), 6), max(range(14), key=p.__getitem__)
(1.0, 6)
"""

from __future__ import annotations

import math

import numpy as np

from . import tricknet
from .handeval import estimate_tricks

# Root-mean-square error of the network on held-out deals (scripts/fit_trick_net.py): the spread
# of double-dummy tricks around the estimate, used until enough deals of the position itself are
# solved.
PRIOR_SIGMA = 0.87
PRIOR_WEIGHT = 4  # how many solved deals the prior is worth

# The linear estimate, fitted by least squares on double-dummy results of 700 random deals (1,346
# team rows; `python scripts/fit_bid_model.py --deals 700 --nil-deals 700 --nil-plays 3000`):
# intercept, then one weight per feature of team_features, in that order.
LINEAR_WEIGHTS = (-4.3362, 0.21, 0.0762, 0.3832, 0.2027, 0.1805, 1.5805, 0.9736, 0.6015, 0.3841, 0.2123,
           1.2367, 0.6559, 0.2853, 0.4292, -0.0096)
LINEAR_PRIOR_SIGMA = 1.137  # its held-out error when it was fitted (1.006 on 3,369 other deals)


def _suit(hand: int, suit: int) -> int:
    return (hand >> (13 * suit)) & 0x1FFF


def team_features(a: int, b: int) -> list[float]:
    """Features of a partnership's 26 cards (``a`` and ``b`` are the two 13-card hands)."""
    from .bots.heuristic_bid import count_tricks  # the heuristic bot's trick count

    sa, sb = _suit(a, 0), _suit(b, 0)
    spades = sa | sb
    na, nb = sa.bit_count(), sb.bit_count()
    f = [1.0, count_tricks(a) + count_tricks(b), estimate_tricks(a) + estimate_tricks(b),
         float(na + nb), float(max(na, nb)), float(min(na, nb))]
    f += [float(spades >> r & 1) for r in (12, 11, 10, 9, 8)]  # A K Q J T of spades
    aces = kings = queens = ruffs = long8 = 0
    for s in (1, 2, 3):
        x, y = _suit(a, s), _suit(b, s)
        held = x | y
        aces += held >> 12 & 1
        kings += held >> 11 & 1
        queens += held >> 10 & 1
        lx, ly = x.bit_count(), y.bit_count()
        ruffs += (lx <= 1 and na >= 2) + (ly <= 1 and nb >= 2)
        long8 += lx + ly >= 8
    return f + [float(aces), float(kings), float(queens), float(ruffs), float(long8)]


def linear_team_tricks_estimate(a: int, b: int) -> float:
    """The linear estimate of the double-dummy tricks of the partnership holding ``a`` and ``b``."""
    return sum(w * x for w, x in zip(LINEAR_WEIGHTS, team_features(a, b)))


def linear_team_tricks_estimates(a, b, a_leads=None, b_leads=None) -> np.ndarray:
    """:func:`linear_team_tricks_estimate` of each pair (the lead is not among its features)."""
    return np.array([linear_team_tricks_estimate(int(x), int(y)) for x, y in zip(a, b)], np.float64)


def team_tricks_estimates(a, b, a_leads=None, b_leads=None) -> np.ndarray:
    """Estimated double-dummy tricks of each partnership (``a[i]``, ``b[i]``: 52-bit hand masks;
    ``a_leads`` / ``b_leads``: that partner leads to the first trick, per pair or one value for all)."""
    return tricknet.team_tricks(np.asarray(a, np.uint64), np.asarray(b, np.uint64), a_leads, b_leads)


def team_tricks_estimate(a: int, b: int, a_leads: bool = False, b_leads: bool = False) -> float:
    """Estimated double-dummy tricks of the partnership holding hands ``a`` and ``b``."""
    return float(team_tricks_estimates([a], [b], float(a_leads), float(b_leads))[0])


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def trick_distribution(mean: float, sigma: float, low: int = 0, high: int = 13) -> list[float]:
    """P(tricks = t) for t in 0..13: a normal around ``mean`` rounded to whole tricks in [low, high]."""
    out = [0.0] * 14
    sigma = max(sigma, 1e-3)
    prev = 0.0
    for t in range(low, high):
        cdf = _phi((t + 0.5 - mean) / sigma)
        out[t] = cdf - prev
        prev = cdf
    out[high] = 1.0 - prev
    return out


# The bidder's own double-dummy tricks beside a partner's nil, less the network's estimate of
# both partners' tricks (which counts the nil's winners too): mean and spread over 150 random
# deals each (the partner's hand fit for nil by the heuristic's rule; any other hand, as a blind
# nil's is): the prior of the correction below when the partner bid nil or blind nil.
BESIDE_NIL = (-1.18, 0.93)
BESIDE_BLIND_NIL = (-3.16, 1.57)
UNBIASED = (0.0, PRIOR_SIGMA)  # otherwise: no shift, the estimate's own error


# Real play is not double dummy: the defenders do not see the cards, so a contract of a trick or
# two more than the team's double-dummy tricks often makes, and one within them is now and then
# set. P(set) given d = contract − double-dummy tricks: logistic in d, one slope under the
# double-dummy tricks and one over (intercept, slope under, slope over), fitted on the contracts
# (no nil in the team) of SET_FIT_SOURCE (`scripts/bid_calibration.py --sets`). Counting a bid as
# made only when the double-dummy tricks reach it bid about a trick under them, where real play
# set 3% (benchmarks/README.md, "Bids against real play").
SET_WEIGHTS = (-2.701, 0.481, 0.862)
SET_FIT_SOURCE = "pimc against the rule-based bot, 3,810 contracts of the third 500-game run"


def set_chance(over: int, weights: tuple[float, float, float] = SET_WEIGHTS) -> float:
    """Probability that a contract ``over`` tricks above the team's double-dummy tricks is set in
    real play (``over`` < 0: under them), by the fit ``weights`` (see SET_WEIGHTS).

    >>> set_chance(-2) < set_chance(0) < set_chance(1) < set_chance(3)
    True
    """
    slope = weights[1] if over < 0 else weights[2]
    return 1.0 / (1.0 + math.exp(-(weights[0] + slope * over)))


def correction(residuals: list[float], prior: tuple[float, float] = UNBIASED) -> tuple[float, float]:
    """(shift, spread) from the solved deals' residuals (solved − estimated), shrunk to the prior
    (its shift and spread)."""
    k = len(residuals)
    shift = (sum(residuals) + PRIOR_WEIGHT * prior[0]) / (k + PRIOR_WEIGHT)
    var = (sum((r - shift) ** 2 for r in residuals) + PRIOR_WEIGHT * prior[1] ** 2) / (k + PRIOR_WEIGHT)
    return shift, math.sqrt(var)


# Logistic fit of "the nil takes no trick double-dummy" on random deals with nil_risk <= 1.6
# (scripts/fit_bid_model.py): intercept, nil_risk, the heuristic bot's nil_danger, and whether
# the nil bidder leads the first trick.
NIL_WEIGHTS = (0.695, -1.29, -0.729, 0.29)
# The same fit on nils played out by the heuristic bot at all four seats: real play makes far
# more nils than double dummy, where the defenders see every card (0.72 against 0.38 for the
# hands the heuristic bot bids nil with). The first lead helps a nil double dummy (it chooses the
# suit) and hurts it in real play: without this term the double-dummy verdicts of a nil on lead
# rose above the prior and lifted its quoted chance, and the dealer's nils (who bids first and
# leads) made 0.57 on the forced-nil screens at a quoted 0.64.
NIL_PLAY_WEIGHTS = (1.949, -1.239, -0.547, -0.123)
NIL_DD_WEIGHT = 0.5  # how far the position's own double-dummy verdicts move the real-play prior


def _logistic(weights, hand: int, leads: bool) -> float:
    from .bots.heuristic_bid import nil_danger
    from .handeval import nil_risk

    z = weights[0] + weights[1] * nil_risk(hand) + weights[2] * nil_danger(hand) + weights[3] * leads
    return 1.0 / (1.0 + math.exp(-z))


def _logit(p: float) -> float:
    p = min(max(p, 1e-4), 1 - 1e-4)
    return math.log(p / (1 - p))


def nil_prior(hand: int, leads: bool = False) -> float:
    """Probability that a nil with this 13-card hand makes double-dummy, from the hand alone (and
    whether its bidder leads the first trick)."""
    return _logistic(NIL_WEIGHTS, hand, leads)


def nil_play_prior(hand: int, leads: bool = False) -> float:
    """Probability that a nil with this 13-card hand makes in real play, from the hand alone (and
    whether its bidder leads the first trick)."""
    return _logistic(NIL_PLAY_WEIGHTS, hand, leads)


def nil_probability(hand: int | list[int], made: float, solved: int, leads: bool = False) -> float:
    """Real-play probability that a nil makes, given ``made`` of ``solved`` sampled deals made it
    double-dummy: the hand's real-play prior, moved by how this position's double-dummy verdicts
    differ from what the hand alone predicts (they see the bids, the partner, the shown voids).
    ``leads``: the nil bidder leads the first trick (both priors know what that does).

    ``hand`` may be a list of 13-card hands: the sampled completions of a hand only partly known,
    whose priors are averaged."""
    hands = hand if isinstance(hand, list) else [hand]
    dd_prior = sum(nil_prior(h, leads) for h in hands) / len(hands)
    play_prior = sum(nil_play_prior(h, leads) for h in hands) / len(hands)
    p_dd = (made + PRIOR_WEIGHT * dd_prior) / (solved + PRIOR_WEIGHT)
    z = _logit(play_prior) + NIL_DD_WEIGHT * (_logit(p_dd) - _logit(dd_prior))
    return 1.0 / (1.0 + math.exp(-z))
