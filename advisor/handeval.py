"""Quick estimates of a hand's trick-taking strength (used to weight sampled deals by the bids).

>>> from advisor.cards import parse_card as c, cards_to_mask
>>> round(estimate_tricks(cards_to_mask(c(x) for x in "AS KS QS JS AH KH AD 2C 3C 4C 5D 6D 7H".split())), 1)
6.2
"""

from __future__ import annotations

from .cards import SUIT_MASKS

_ACE, _KING, _QUEEN = 12, 11, 10


def _suit_ranks(hand: int, suit: int) -> list[int]:
    bits = (hand >> (13 * suit)) & 0x1FFF
    return [r for r in range(12, -1, -1) if bits >> r & 1]


def estimate_tricks(hand: int) -> float:
    """Expected tricks of a 13-card hand with average partner and opponents (a rough count)."""
    total = 0.0
    spades = _suit_ranks(hand, 0)
    n_sp = len(spades)
    # Spades: top honours by their guard, then length beyond three.
    for i, r in enumerate(spades):
        need = 12 - r  # cards needed below it to protect it
        if i >= 3:
            break
        if n_sp - 1 >= need:
            total += 1.0 if need == 0 else (0.9 if need == 1 else 0.7)
        elif n_sp - 1 == need - 1:
            total += 0.35
    total += max(0, n_sp - 3) * 0.85
    for suit in (1, 2, 3):
        ranks = _suit_ranks(hand, suit)
        n = len(ranks)
        if n and ranks[0] == _ACE:
            total += 1.0 if n <= 6 else 0.8
        if _KING in ranks and n >= 2:
            total += 0.75 if n <= 5 else 0.5
        if _QUEEN in ranks and n >= 3 and n <= 5:
            total += 0.35
        # Short suits with spare trumps to ruff.
        if n <= 1 and n_sp >= 3:
            total += 0.6 if n == 0 else 0.35
        elif n == 2 and n_sp >= 4:
            total += 0.15
    return total


def nil_risk(hand: int) -> float:
    """0 (a safe nil) … 1+ (hopeless): high cards and high spades that will win tricks."""
    risk = 0.0
    spades = _suit_ranks(hand, 0)
    for r in spades:
        if r >= 9:  # J and above
            risk += 0.6 if r >= 11 else 0.35
    risk += max(0, len(spades) - 3) * 0.25
    for suit in (1, 2, 3):
        ranks = _suit_ranks(hand, suit)
        n = len(ranks)
        low = sum(1 for r in ranks if r <= 5)  # 7 and below
        for r in ranks:
            if r >= 10:
                risk += 0.35 if n >= 4 else 0.5 if r >= 11 else 0.25
        if n and low == 0:
            risk += 0.1 * n
    return risk


def suit_length(hand: int, suit: int) -> int:
    return (hand & SUIT_MASKS[suit]).bit_count()
