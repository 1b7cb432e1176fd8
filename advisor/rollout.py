"""Playouts of a sampled deal by the rule-based player, for what double dummy cannot see.

Double dummy lets a nil bidder see every card, so it ducks and discards perfectly and a nil
looks safe far more often than it is against real players. Playing the rest of the hand out with
the rule-based player at every seat (each seat choosing from its own cards and the public play,
as :mod:`advisor.bots.heuristic_play` does) shows whether a nil falls to ordinary, sighted-only
play after a given card.

>>> from advisor.cards import parse_card as c, Seat
>>> from advisor.rules import Rules
>>> from advisor.state import HandState, deal
>>> import random
>>> hands = deal(random.Random(3))
>>> st = HandState(Rules(), Seat.N, hands)
>>> for b in (0, 3, 4, 3): st.bid(b)
>>> busted = nil_busted_after(st, st.legal_cards()[0], (0,))
>>> busted[0] in (0, 1)
True
"""

from __future__ import annotations

from .bots.heuristic_play import choose_card
from .cards import Card
from .inference import SampledDeal
from .state import HandState


def full_state(view: HandState, sampled: SampledDeal) -> HandState:
    """``view`` (one seat's picture of the hand) with every hand as ``sampled`` deals them."""
    state = view.clone()
    for s in range(4):
        state.known[s] = sampled.initial[s]
        state.held[s] = sampled.remaining[s]
        state.complete[s] = True
        state.extra[s] = 0
    return state


def nil_busted_after(state: HandState, card: Card, nil_seats: tuple[int, ...]) -> dict[int, int]:
    """Per seat of ``nil_seats`` (nils still live): 1 when it takes a trick once ``card`` is played
    and every seat then plays as the rule-based player, else 0. ``state`` must know every hand."""
    st = state.clone()
    st.play(card)
    live = [s for s in nil_seats if st.tricks[s] == 0]
    while live and not st.is_done:
        st.play(choose_card(st))
        if st.trick_len == 0:
            live = [s for s in live if st.tricks[s] == 0]
    return {s: int(st.tricks[s] > 0) for s in nil_seats}
