"""What a card does in the trick, in the words a player would use, from what the player can see.

The search ranks cards by numbers; a player also wants to know what the recommended card *does*:
takes the trick as cheaply as possible, stays under a partner who is winning, trumps, cashes the
highest card of a suit, leads into a partner's void. :func:`card_role` names that from the seat's
own view (its hand, the cards played, the voids shown), and :func:`contrast` sets it against the
best card that does the opposite (winning the trick or not), with what the difference costs.

>>> from advisor.cards import parse_card
>>> from advisor.record import HandRecord, replay
>>> rec = {"dealer": "N", "hands": {"N": "AH KH 2H 3S 4S 5S 6D 7D 8D 9C TC JC QC".split()},
...        "bids": {"N": 4, "E": 3, "S": 3, "W": 3}}
>>> st = replay(HandRecord.from_json(rec))  # the dealer leads under `piki`
>>> card_role(st, 0, parse_card("AH"))
('cash', {'card': 'AH', 'suit': 1})
>>> card_role(st, 0, parse_card("6D"))
('lead_low', {'card': '6D', 'suit': 2, 'top': 'AD'})
>>> card_role(st, 0, parse_card("8D"))[0]  # N's highest diamond, not the highest still out
'lead_own_top'
"""

from __future__ import annotations

from .bots.knowledge import SPADES, beats, cards_in
from .cards import FULL_DECK, Card
from .state import HandState


def _unseen(state: HandState, seat: int) -> int:
    """The cards ``seat`` has not seen: neither its own nor played."""
    return FULL_DECK & ~state.played & ~state.known[seat]


def _top_out(state: HandState, seat: int, suit: int) -> int | None:
    """The highest card of ``suit`` that ``seat`` has not seen (neither held nor played), if any."""
    unseen = cards_in(_unseen(state, seat), suit)
    return unseen.bit_length() - 1 if unseen else None


def _may_trump(state: HandState, seat: int, other: int, suit: int) -> bool:
    """Whether ``other`` has shown a void in ``suit`` and, as far as ``seat`` can see, may still
    hold a spade to trump it with (not shown out of spades, and a spade left unseen)."""
    if suit == SPADES or not state.voids[other] >> suit & 1 or state.voids[other] & 1:
        return False
    return bool(cards_in(_unseen(state, seat), SPADES))


def card_role(state: HandState, seat: int, card: Card) -> tuple[str, dict]:
    """(text key, parameters) saying what ``card`` does for ``seat`` to act in ``state``."""
    c = int(card)
    suit = c // 13
    partner = (seat + 2) & 3
    if state.trick_len == 0:
        if _may_trump(state, seat, partner, suit):
            return "lead_partner_ruff", {"card": str(card), "suit": suit}
        top = _top_out(state, seat, suit)
        if top is None or c > top:
            ruffers = [s for s in range(4) if s & 1 != seat & 1 and _may_trump(state, seat, s, suit)]
            if ruffers:
                return "cash_ruff_risk", {"card": str(card), "suit": suit, "seat": "NESW"[ruffers[0]]}
            return ("cash_spade" if suit == SPADES else "cash"), {"card": str(card), "suit": suit}
        if suit == SPADES:
            return "lead_spade", {"card": str(card)}
        own = cards_in(state.held[seat], suit)  # this card among them
        p = {"card": str(card), "suit": suit, "top": str(Card(top))}
        if own == 1 << c:
            return "lead_last", p
        return ("lead_low" if own >> (c + 1) else "lead_own_top"), p
    led, best, winner = state.led_suit, state.best_card, state.best_seat
    legal = state.legal_cards() or [card]
    wins = beats(c, best, led)
    winners = sorted(int(x) for x in legal if beats(int(x), best, led))
    last = state.trick_len == 3
    p = {"card": str(card), "best": str(Card(best)), "suit": led}
    if suit != led:
        if suit == SPADES and wins:
            return ("overruff" if best // 13 == SPADES else "ruff"), p
        return "discard", p
    if winner == partner:
        return ("overtake" if wins else "partner_winning"), p
    if wins:
        if c == winners[0]:
            return ("win_cheap_last" if last else "win_cheap"), p
        top = _top_out(state, seat, led)
        if not last and (top is None or c > top):
            return ("win_top_spade" if led == SPADES else "win_top"), p
        return "win", p
    if winners:
        return "duck", p
    return ("cannot_beat_low" if c == min(int(x) for x in legal) else "cannot_beat"), p


def contrast(state: HandState, seat: int, best, moves: list) -> tuple[str, dict] | None:
    """Inside a trick: the best card that does the opposite of ``best`` (win the trick, or let it
    go), with how many points a hand it is worse; None where every card does the same."""
    if state.trick_len == 0:
        return None
    top, led = state.best_card, state.led_suit
    wins = beats(int(best.card), top, led)
    other = [m for m in moves if m is not best and beats(int(m.card), top, led) != wins]
    if not other:
        return None
    alt = max(other, key=lambda m: m.value)
    gap = best.points - alt.points
    if gap < 0.5:
        return None
    return ("contrast_win" if not wins else "contrast_duck"), {"card": str(alt.card), "gap": gap}
