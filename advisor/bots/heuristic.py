"""The heuristic bot: rule-based bidding (:mod:`.heuristic_bid`) and play (:mod:`.heuristic_play`)."""

from __future__ import annotations

from ..state import HandState, Phase
from .heuristic_bid import choose_bid
from .heuristic_play import choose_card


class HeuristicBot:
    name = "heuristic"

    def new_game(self, seed) -> None:  # deterministic: nothing to reset
        pass

    def act(self, view: HandState) -> int:
        if view.phase is Phase.BIDDING:
            return choose_bid(view)
        return choose_card(view)
