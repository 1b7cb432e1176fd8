"""Blind-nil advice from the score alone: the rules forbid looking at the cards first.

The hand odds are measured once by ``scripts/blind_nil_table.py`` (random deals played out by
the heuristic bot at every seat, each from its own view) and kept here, before the partner's
bid and after each partner bid. The decision is about the *game*: the chance to win it if the
team bids blind nil now versus looking at the cards, from a quick simulation of the hands still
to come. It is instant, deterministic, and never depends on the hand (only on the score and on
the partner's bid, which are public).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .bids import is_nil
from .rules import Rules, Tie


@dataclass(frozen=True)
class BlindNilOdds:
    """Measured outcomes of a ±200 blind nil in one bidding situation (heuristic play)."""
    deals: int
    success: float  # the blind-nil bidder takes no trick
    partner_points: float  # team hand points besides the blind nil's own ±200
    partner_sd: float
    look_points: float  # team hand points when the same seat looks and bids its hand instead
    look_sd: float


# Measured by scripts/blind_nil_table.py (heuristic bots at all seats). Before the partner bids,
# the partner can still shape its bid around the blind nil; after it, the partner's bid says how
# well the blind nil will be covered: after a partner's nil it almost never makes.
BEFORE_PARTNER = BlindNilOdds(deals=3000, success=0.234, partner_points=28.8, partner_sd=24.7, look_points=43.2, look_sd=70.7)
AFTER_PARTNER = {
    "nil": BlindNilOdds(deals=1588, success=0.077, partner_points=10.8, partner_sd=101.0, look_points=67.1, look_sd=103.3),
    "1": BlindNilOdds(deals=1115, success=0.143, partner_points=14.2, partner_sd=4.8, look_points=32.8, look_sd=44.9),
    "2": BlindNilOdds(deals=2822, success=0.213, partner_points=23.2, partner_sd=6.2, look_points=40.6, look_sd=48.8),
    "3": BlindNilOdds(deals=2790, success=0.251, partner_points=31.4, partner_sd=11.1, look_points=42.5, look_sd=58.4),
    "4": BlindNilOdds(deals=1891, success=0.317, partner_points=38.0, partner_sd=19.4, look_points=45.2, look_sd=67.7),
    "5": BlindNilOdds(deals=1127, success=0.409, partner_points=43.1, partner_sd=29.3, look_points=47.3, look_sd=79.9),
    "6": BlindNilOdds(deals=667, success=0.555, partner_points=54.2, partner_sd=37.2, look_points=42.1, look_sd=98.4),
}
# Ordinary hands (both partners look and bid): the spread of team hand points that the game
# value assumes for every hand to come.
LOOK_POINTS = BEFORE_PARTNER.look_points
LOOK_SD = BEFORE_PARTNER.look_sd
_TABLE_VALUE = 200
_GAMES = 3000
_MAX_HANDS = 30


@dataclass(frozen=True)
class BlindNilVerdict:
    take: bool
    success: float
    expected_points: float  # team hand points with blind nil
    look_points: float  # team hand points when looking instead
    win_blind: float  # chance to win the game (a draw counts half) after a blind nil
    win_look: float  # … after looking
    behind: int


def _finish(rules: Rules, ours: float, theirs: float, rng: random.Random) -> float:
    """Play out the rest of the game with ordinary hands; 1 win, 0.5 draw, 0 loss."""
    for _ in range(_MAX_HANDS):
        ended = rules.ends_game(ours) or rules.ends_game(theirs)
        if ended and (ours != theirs or rules.tie is Tie.DRAW):
            return 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5
        ours += rng.gauss(LOOK_POINTS, LOOK_SD)
        theirs += rng.gauss(LOOK_POINTS, LOOK_SD)
    return 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5


def partner_key(partner_bid: int) -> str:
    """The key of AFTER_PARTNER for a partner's bid: "nil" (nil or blind nil), "1".."5", "6" (six
    or more)."""
    return "nil" if is_nil(partner_bid) else str(min(partner_bid, 6))


def odds(partner_bid: int | None) -> BlindNilOdds:
    """The measured odds of a blind nil, given the partner's bid (None: not made yet)."""
    return BEFORE_PARTNER if partner_bid is None else AFTER_PARTNER[partner_key(partner_bid)]


def advise(rules: Rules, team: int, points: tuple[int, int],
           partner_bid: int | None = None) -> BlindNilVerdict:
    """Blind nil or look, from the score and the partner's bid (public; never the hand)."""
    o = odds(partner_bid)
    value = rules.blind_nil.value if rules.blind_nil else _TABLE_VALUE
    expected = o.partner_points + (2 * o.success - 1) * value
    ours, theirs = points[team], points[1 - team]
    rng = random.Random(f"{ours}:{theirs}:{value}:{rules.win_at}:{rules.lose_at}"
                        + ("" if partner_bid is None else f":{partner_bid}"))
    win_blind = win_look = 0.0
    for _ in range(_GAMES):
        opp = theirs + rng.gauss(LOOK_POINTS, LOOK_SD)
        nil = value if rng.random() < o.success else -value
        win_blind += _finish(rules, ours + nil + rng.gauss(o.partner_points, o.partner_sd), opp, rng)
        win_look += _finish(rules, ours + rng.gauss(o.look_points, o.look_sd), opp, rng)
    win_blind /= _GAMES
    win_look /= _GAMES
    return BlindNilVerdict(
        take=win_blind > win_look + 0.003, success=o.success, expected_points=expected,
        look_points=o.look_points, win_blind=win_blind, win_look=win_look, behind=theirs - ours,
    )
