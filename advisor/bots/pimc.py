"""Adapter from the advisor's PIMC search (``advisor.advice.choose_action``) to the bot interface."""

from __future__ import annotations

import math

from .base import BotUnavailable
from ..state import HandState


def _choose_action():
    try:
        from ..advice import choose_action
    except ImportError as e:  # the module, or the function in it, is not there yet
        raise BotUnavailable(
            "bot 'pimc' needs advisor.advice.choose_action(view, time_budget=..., seed=...), "
            f"which is not available: {e}") from None
    return choose_action


class PimcBot:
    name = "pimc"

    def __init__(self, time_budget: float | None = None, seed: int | None = None,
                 samples: int | None = None) -> None:
        # None: the advice's own budgets (0.7 s a bid, 0.35 s a card), so that a match measures
        # the strength that `piki bid` / `piki play` give at their benchmarked latency.
        self.time_budget = None if time_budget is None else float(time_budget)
        # ``samples``: no clock at all: each card from that many sampled deals, each bid from the
        # bid search's fixed count, every search fresh, so that the same game is played the same
        # way on any machine and under any load (paired screens of two engines compare only
        # where their decisions differ); slower than the default budgets early in a hand.
        self.samples = None if samples is None else int(samples)
        if self.samples is not None and (self.samples < 1 or self.time_budget is not None):
            raise ValueError("samples is a whole number of deals, 1 or more, and replaces time_budget")
        self.seed = seed
        self._calls = 0
        self._choose = _choose_action()

    def new_game(self, seed) -> None:
        self.seed = seed
        self._calls = 0

    def act(self, view: HandState) -> int:
        self._calls += 1
        seed = None if self.seed is None else hash((self.seed, self._calls)) & 0x7FFFFFFF
        if self.samples is not None:
            return self._choose(view, time_budget=math.inf, seed=seed, max_samples=self.samples)
        return self._choose(view, time_budget=self.time_budget, seed=seed)
