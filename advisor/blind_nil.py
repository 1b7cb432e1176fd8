"""Blind-nil advice from the score alone: the rules forbid looking at the cards first.

The hand odds are measured once by ``scripts/blind_nil_table.py`` (random deals played out by
the heuristic bot at every seat, each from its own view) and kept here. The decision is about the *game*: the chance to win it if the team bids blind nil now
versus looking at the cards, from a quick simulation of the hands still to come. It is instant,
deterministic, and never depends on the hand.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .rules import Rules, Tie

# Measured by scripts/blind_nil_table.py --deals 3000 --seed 7 (heuristic bots at all seats).
DEALS = 3000
SUCCESS = 0.234  # the blind-nil bidder takes no trick
BLIND_POINTS = -77.5  # team hand points with a ±200 blind nil, the partner bidding its hand
PARTNER_POINTS = 28.8  # the partner's share of those points
PARTNER_SD = 24.7
LOOK_POINTS = 43.2  # team hand points when both partners look and bid their hands
LOOK_SD = 70.7
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
        ended = max(ours, theirs) >= rules.win_at or (
            rules.lose_at is not None and min(ours, theirs) <= rules.lose_at)
        if ended and (ours != theirs or rules.tie is Tie.DRAW):
            return 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5
        ours += rng.gauss(LOOK_POINTS, LOOK_SD)
        theirs += rng.gauss(LOOK_POINTS, LOOK_SD)
    return 1.0 if ours > theirs else 0.0 if ours < theirs else 0.5


def advise(rules: Rules, team: int, points: tuple[int, int]) -> BlindNilVerdict:
    value = rules.blind_nil.value if rules.blind_nil else _TABLE_VALUE
    expected = PARTNER_POINTS + (2 * SUCCESS - 1) * value
    ours, theirs = points[team], points[1 - team]
    rng = random.Random(f"{ours}:{theirs}:{value}:{rules.win_at}:{rules.lose_at}")
    win_blind = win_look = 0.0
    for _ in range(_GAMES):
        opp = theirs + rng.gauss(LOOK_POINTS, LOOK_SD)
        nil = value if rng.random() < SUCCESS else -value
        win_blind += _finish(rules, ours + nil + rng.gauss(PARTNER_POINTS, PARTNER_SD), opp, rng)
        win_look += _finish(rules, ours + rng.gauss(LOOK_POINTS, LOOK_SD), opp, rng)
    win_blind /= _GAMES
    win_look /= _GAMES
    return BlindNilVerdict(
        take=win_blind > win_look + 0.003, success=SUCCESS, expected_points=expected,
        look_points=LOOK_POINTS, win_blind=win_blind, win_look=win_look, behind=theirs - ours,
    )
