"""The honest random bot: uniform over the legal actions (blind nil only when it is legal)."""

from __future__ import annotations

import random

from ..cards import mask_to_cards
from ..state import HandState, Phase


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def new_game(self, seed) -> None:
        self.rng = random.Random(seed)

    def act(self, view: HandState) -> int:
        if view.phase is Phase.BIDDING:
            return self.rng.choice(view.legal_bids())
        return self.rng.choice(mask_to_cards(view.legal_mask()))
