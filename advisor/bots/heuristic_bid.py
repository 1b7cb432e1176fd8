"""Bidding of the heuristic bot: count the hand's tricks, then adjust for the table.

Tricks are counted suit by suit: aces, protected kings and queens in the side suits (less in
long suits, which the others ruff early), high spades and spade length, and ruffs from voids,
singletons and doubletons with spades to spare. The count is then rounded with an eye on the
partner's bid, the bids already made and the bags. A nil needs a hand that can duck every suit;
a blind nil is chosen from the score alone, before looking at the cards.
"""

from __future__ import annotations

from ..bids import BLIND_NIL, is_nil
from ..cards import SUIT_MASKS, mask_to_cards
from ..state import HandState

A, K, Q, J, T = 12, 11, 10, 9, 8


def _ranks(hand: int, suit: int) -> list[int]:
    """Ranks held in ``suit``, high to low."""
    return sorted((c % 13 for c in mask_to_cards(hand & SUIT_MASKS[suit])), reverse=True)


def side_suit_tricks(ranks: list[int]) -> float:
    n = len(ranks)
    if not n:
        return 0.0
    held = set(ranks)
    t = 0.0
    if A in held:
        t += 1.0 if n <= 5 else 0.8
    if K in held:
        if A in held:
            t += 0.9 if n <= 4 else 0.6 if n == 5 else 0.3
        elif n >= 2:
            t += 0.7 if n <= 4 else 0.5
        else:
            t += 0.1
    if Q in held and n >= 3:
        if A in held and K in held:
            t += 0.5 if n <= 4 else 0.2
        elif A in held or K in held:
            t += 0.35 if n <= 4 else 0.15
        else:
            t += 0.2 if n <= 4 else 0.1
    return t


def spade_tricks(ranks: list[int]) -> tuple[float, int]:
    """(tricks from high spades and length, number of spades spent on them)."""
    n = len(ranks)
    held = set(ranks)
    t = 0.0
    used = 0
    if A in held:
        t += 1.0
        used += 1
    if K in held:
        t += 1.0 if n >= 2 else 0.5
        used += 1
    if Q in held:
        t += 1.0 if n >= 3 else 0.5 if n == 2 else 0.15
        used += 1
    if J in held and n >= 4:
        t += 0.6
        used += 1
    extra = max(0, n - max(3, used))
    t += 0.85 * extra
    return t, used + extra


def ruff_tricks(hand: int, spare_spades: int) -> float:
    """Ruffs from short side suits, limited by the spades not already counted."""
    t = 0.0
    spare = spare_spades
    for suit in (1, 2, 3):
        n = (hand & SUIT_MASKS[suit]).bit_count()
        if spare <= 0:
            break
        if n == 0:
            use = min(spare, 2)
            t += 0.9 * use
            spare -= use
        elif n == 1:
            t += 0.6
            spare -= 1
        elif n == 2 and spare >= 2:
            t += 0.25
            spare -= 1
    return t


def count_tricks(hand: int) -> float:
    spades = _ranks(hand, 0)
    t, used = spade_tricks(spades)
    t += ruff_tricks(hand, len(spades) - used)
    for suit in (1, 2, 3):
        t += side_suit_tricks(_ranks(hand, suit))
    return t


# ---------------------------------------------------------------------- nil
# The i-th lowest card of a side suit must be at most this rank to be safe (2 = 0 … A = 12).
_SIDE_SAFE = (5, 7, 9, 10, 11, 11, 11, 11, 11, 11, 11, 11, 11)
_SPADE_SAFE = (5, 7, 8)
NIL_DANGER = 1.5  # tuned in duplicate self-play (100 deal sets): stricter limits lose clearly
NIL_MAX_TRICKS = 2.5
# a count of n + f tricks bids n + 1 when f >= this; 0.45 lost 41% of duplicate self-play games
# against 0.6, and 0.6-0.9 were level (100 deal sets each)
BID_ROUNDING = 0.7


def nil_danger(hand: int) -> float:
    """How many cards are likely to take a trick when trying to take none (0 = a clean nil)."""
    danger = 0.0
    spades = sorted(_ranks(hand, 0))
    if len(spades) > len(_SPADE_SAFE):
        danger += 1.0 * (len(spades) - len(_SPADE_SAFE))
    for i, r in enumerate(spades[:len(_SPADE_SAFE)]):
        if r > _SPADE_SAFE[i]:
            danger += 1.0 if r >= Q else 0.6
    for suit in (1, 2, 3):
        ranks = sorted(_ranks(hand, suit))
        for i, r in enumerate(ranks):
            if r == A:
                danger += 1.0
            elif r > _SIDE_SAFE[i]:
                danger += 0.5
    return danger


def can_bid_nil(hand: int) -> bool:
    """A hand fit for nil: no ace, king or queen of spades, at most three low spades, and low
    cards under the high ones in every suit (see :func:`nil_danger`)."""
    spades = _ranks(hand, 0)
    if A in spades or K in spades or Q in spades or len(spades) > 3:
        return False
    return nil_danger(hand) <= NIL_DANGER and count_tricks(hand) < NIL_MAX_TRICKS


# ---------------------------------------------------------------------- the bid
def blind_nil_wanted(view: HandState) -> bool:
    """Blind nil from the score alone: far behind, late in the game, partner not nil."""
    me = view.to_act
    if BLIND_NIL not in view.legal_bids():
        return False
    partner_bid = view.bids[me.partner]
    if partner_bid is not None and (is_nil(partner_bid) or partner_bid < 4):
        return False
    team = me.team
    ours, theirs = view.points_before[team], view.points_before[team.other]
    win_at = view.rules.win_at
    # only when the opponents are about to win and a normal hand cannot catch up
    return theirs - ours >= 300 and theirs >= win_at - 100


def choose_bid(view: HandState, hand: int | None = None) -> int:
    """The counting rules' bid for the seat to act, with its known hand or ``hand`` (13 cards)."""
    me = view.to_act
    if blind_nil_wanted(view):
        return BLIND_NIL
    hand = view.held[me] if hand is None else hand
    partner_bid = view.bids[me.partner]
    partner_nil = partner_bid is not None and is_nil(partner_bid)
    if not partner_nil and can_bid_nil(hand):
        return 0
    tricks = count_tricks(hand)
    if partner_nil:
        tricks += 0.4  # we play to win tricks over the partner's cards
    bids_made = [b for b in view.bids if b is not None]
    others = sum(max(b, 0) for b in bids_made)
    team = me.team
    bags = view.bags_before[team]
    limit = view.rules.bags.limit if view.rules.bags else None
    rounding = BID_ROUNDING
    if limit is not None and bags >= limit - 3:
        rounding -= 0.2  # near the bag limit: bid up, overtricks cost
    if len(bids_made) == 3 and others + tricks < 10.5:
        rounding -= 0.1  # many tricks left unclaimed: claim them rather than take bags
    ours, theirs = view.points_before[team], view.points_before[team.other]
    if ours >= view.rules.win_at - 100 and ours > theirs:
        rounding = max(rounding, 0.85)  # close to winning: make the contract safely
    bid = int(tricks + (1 - rounding))
    if len(bids_made) == 3 and others + bid > 13:
        bid = max(1, bid - 1, 13 - others)  # the table overbid: shade by one trick at most
    if partner_bid is not None and not partner_nil and partner_bid + bid > 13:
        bid = max(1, 13 - partner_bid)
    return max(1, min(13, bid))
