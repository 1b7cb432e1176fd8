"""The heuristic bot: rule-based bidding (:mod:`.heuristic_bid`) and play (:mod:`.heuristic_play`)."""

from __future__ import annotations

from .base import RuleBot
from .heuristic_bid import choose_bid
from .heuristic_play import choose_card


class HeuristicBot(RuleBot):
    name = "heuristic"
    bid_rule = staticmethod(choose_bid)
    card_rule = staticmethod(choose_card)
