"""The bot interface: a player that decides from its own seat's view.

A bot gets ``view``, a :class:`~advisor.state.HandState` in which only its own hand is known
(``view.to_act`` is its seat), and answers with a bid during the bidding (0-13 or
:data:`advisor.bids.BLIND_NIL`) or a card during the play.
"""

from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

from ..state import HandState, Phase


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, view: HandState) -> int:
        """A bid in the bidding, a card (int or Card) in the play."""
        ...


class RuleBot:
    """A deterministic bot made of two rules: ``bid_rule(view)`` in the bidding and
    ``card_rule(view)`` in the play (subclasses set both, and ``name``)."""

    name = "rules"
    bid_rule: Callable[[HandState], int]
    card_rule: Callable[[HandState], int]

    def new_game(self, seed) -> None:  # deterministic: nothing to reset
        pass

    def act(self, view: HandState) -> int:
        return self.bid_rule(view) if view.phase is Phase.BIDDING else self.card_rule(view)


class BotFailure(Exception):
    """A bot could not answer (an outside program timed out, crashed or answered garbage).

    The match turns it into a forfeit of the game, never a crash.
    """


class BotUnavailable(RuntimeError):
    """A bot that cannot be built here (a missing dependency, an unknown name, a bad option)."""


def start_game(bot: object, seed: int) -> None:
    """Call the bot's optional ``new_game(seed)``."""
    hook = getattr(bot, "new_game", None)
    if hook is not None:
        hook(seed)
