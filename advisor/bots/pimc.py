"""Adapter from the advisor's PIMC search (``advisor.advice.choose_action``) to the bot interface."""

from __future__ import annotations

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

    def __init__(self, time_budget: float | None = None, seed: int | None = None) -> None:
        # None: the advice's own budgets (0.7 s a bid, 0.35 s a card), so that a match measures
        # the strength that `piki bid` / `piki play` give at their benchmarked latency.
        self.time_budget = None if time_budget is None else float(time_budget)
        self.seed = seed
        self._calls = 0
        self._choose = _choose_action()

    def new_game(self, seed) -> None:
        self.seed = seed
        self._calls = 0

    def act(self, view: HandState) -> int:
        self._calls += 1
        seed = None if self.seed is None else hash((self.seed, self._calls)) & 0x7FFFFFFF
        return self._choose(view, time_budget=self.time_budget, seed=seed)
