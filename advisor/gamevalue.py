"""The chance to win the game from a score, for bids that depend on how close the end is.

Far from the end every point counts the same and the best bid is the one with the most expected
points. Near the end it is not: a team at 460 against 300 wants the safe bid that crosses 500,
a team far behind late in the game wants the bid that can still catch up. So a bid is also
judged by the team's chance to win the game after the hand.

The chance is computed once per set of end-of-game rules by value iteration on a grid of scores
(10-point steps): each hand adds to each team's score an independent draw from a normal
distribution with the mean and spread of team hand points measured in play
(``blind_nil.LOOK_POINTS``, ``blind_nil.LOOK_SD``), and the game ends as the rules say
(``win_at``, ``lose_at``, what a tie does). A draw counts half a win.

>>> from advisor.rules import Rules
>>> table = win_table(Rules())
>>> round(table.chance(0, 0), 2)
0.5
>>> table.chance(480, 300) > table.chance(300, 480)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .blind_nil import LOOK_POINTS, LOOK_SD
from .rules import Rules, Tie, score_ends_game

STEP = 10  # grid step in points (coarser for long games: at most MAX_CELLS steps from floor to goal)
MAX_CELLS = 150
SPAN_DOWN, SPAN_UP = 300, 400  # one hand's points, per team, are taken within these bounds
NO_FLOOR_DEPTH = 1000  # without a losing score, the grid reaches this far below win_at


@lru_cache(maxsize=8)
def _increments(step: int) -> tuple[np.ndarray, np.ndarray]:
    """Hand points in whole grid steps and their probabilities (a discretised normal)."""
    steps = np.arange(-(SPAN_DOWN // step), SPAN_UP // step + 1)
    edges = (np.append(steps, steps[-1] + 1) - 0.5) * step
    cdf = np.array([0.5 * (1 + math.erf((e - LOOK_POINTS) / (LOOK_SD * math.sqrt(2)))) for e in edges])
    p = np.diff(cdf)
    return steps, p / p.sum()


@dataclass(frozen=True)
class WinTable:
    """P(win) + P(draw) / 2 for the team with ``ours`` points, before a hand, by the grid."""

    low: int  # grid origin (the losing score, or far below the goal)
    step: int  # grid step in points
    win_at: int
    lose_at: int | None
    tie_draws: bool
    values: np.ndarray  # values[i, j]: ours = low + step * i, theirs = low + step * j

    def game_over(self, ours, theirs) -> np.ndarray:
        """Whether scores after a hand end the game."""
        return self._ended(np.asarray(ours, float), np.asarray(theirs, float))[0]

    def margin_slope(self, ours: float, theirs: float) -> float:
        """What a point more for us, or less for them, adds to the chance to win (from a score
        before a hand; never below a tiny floor, so that it can divide)."""
        d = 25.0
        return max((self.chance(ours + d, theirs - d) - self.chance(ours - d, theirs + d)) / (4 * d), 1e-9)

    def points_slope(self, ours_after: float, theirs_before: float) -> float:
        """What one more point of ours this hand adds to the chance to win, around a score of
        ``ours_after`` after the hand (floored like :meth:`margin_slope`)."""
        d = 25.0
        return max(float(self.with_hand(ours_after + d, theirs_before)
                         - self.with_hand(ours_after - d, theirs_before)) / (2 * d), 1e-9)

    def _ended(self, ours: np.ndarray, theirs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(game over, result for us) for scores after a hand."""
        over = score_ends_game(ours, self.win_at, self.lose_at) | score_ends_game(theirs, self.win_at, self.lose_at)
        result = np.where(ours > theirs, 1.0, np.where(ours < theirs, 0.0, 0.5))
        if not self.tie_draws:
            over &= ours != theirs
        return over, result

    def _interpolate(self, ours: np.ndarray, theirs: np.ndarray) -> np.ndarray:
        n = self.values.shape[0] - 1
        x = np.clip((ours - self.low) / self.step, 0, n)
        y = np.clip((theirs - self.low) / self.step, 0, n)
        i = np.minimum(np.floor(x).astype(int), n - 1)
        j = np.minimum(np.floor(y).astype(int), n - 1)
        fx, fy = x - i, y - j
        v = self.values
        return ((1 - fx) * (1 - fy) * v[i, j] + fx * (1 - fy) * v[i + 1, j]
                + (1 - fx) * fy * v[i, j + 1] + fx * fy * v[i + 1, j + 1])

    def after_hand(self, ours, theirs) -> np.ndarray:
        """Chance to win from the scores just after a hand (the game may be over)."""
        ours = np.asarray(ours, float)
        theirs = np.asarray(theirs, float)
        over, result = self._ended(ours, theirs)
        return np.where(over, result, self._interpolate(ours, theirs))

    def chance(self, ours: float, theirs: float) -> float:
        """Chance to win from a score with the next hand still to play."""
        return float(self._interpolate(np.asarray(float(ours)), np.asarray(float(theirs))))

    def with_hand(self, ours_after, theirs_before: float) -> np.ndarray:
        """Chance to win when our score after this hand is ``ours_after`` (any shape) and the
        opponents' hand, not known yet, adds the usual spread of points to ``theirs_before``."""
        steps, p = _increments(self.step)
        ours = np.asarray(ours_after, float)[..., None]
        theirs = theirs_before + self.step * steps
        return (self.after_hand(ours, theirs) * p).sum(-1)


@lru_cache(maxsize=8)
def _table(win_at: int, lose_at: int | None, tie_draws: bool) -> WinTable:
    low = lose_at if lose_at is not None else win_at - NO_FLOOR_DEPTH
    step = STEP * max(1, math.ceil((win_at - low) / (STEP * MAX_CELLS)))
    n = max(2, (win_at - low) // step)
    steps, p = _increments(step)
    pad_lo, pad_hi = -steps[0], steps[-1]
    ext = low + step * np.arange(-pad_lo, n + 1 + pad_hi)  # every score one hand can reach
    a, b = np.meshgrid(ext, ext, indexing="ij")
    shell = WinTable(low, step, win_at, lose_at, tie_draws, np.zeros((n + 1, n + 1)))
    over, result = shell._ended(a, b)
    inner = np.ix_(*[np.clip(np.arange(len(ext)) - pad_lo, 0, n)] * 2)  # below the grid (no floor): its edge
    values = np.full((n + 1, n + 1), 0.5)
    for _ in range(400):
        grid = np.where(over, result, values[inner])
        rows = sum(w * grid[pad_lo + k: pad_lo + k + n + 1, :] for k, w in zip(steps, p))
        new = sum(w * rows[:, pad_lo + k: pad_lo + k + n + 1] for k, w in zip(steps, p))
        done = np.max(np.abs(new - values)) < 1e-7
        values = new
        if done:
            break
    return WinTable(low, step, win_at, lose_at, tie_draws, values)


def win_table(rules: Rules) -> WinTable:
    return _table(rules.win_at, rules.lose_at, rules.tie is Tie.DRAW)
