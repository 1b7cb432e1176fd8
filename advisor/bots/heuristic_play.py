"""Card play of the heuristic bot.

One mode per situation, in this order of priority:

* **own nil** - duck under the trick, shed the dangerous high cards, lead the safest low card;
* **cover partner's nil** - play high before the partner, overtake the partner's winning card,
  lead masters and high cards (best in suits the partner is void in);
* **attack an opponent's nil** - lead low in suits the nil bidder holds, duck under the nil
  bidder's winning card, stay low when the nil bidder is still to play;
* **duck** - the contract is made and either the bags are near the limit or the opponents can no
  longer be set: shed high cards under the trick, give the opponents the tricks;
* **win tricks** - second hand low, third hand high, win as cheaply as possible, never overtake
  the partner's safe card, ruff and overruff, slough losers from short suits; on lead draw trumps
  with the master spade, cash safe masters, lead for the partner's ruffs or the partner's suit,
  lead singletons for ruffs, and avoid leading away from tenaces.
"""

from __future__ import annotations

from ..cards import Card, mask_to_cards
from ..state import HandState
from .knowledge import SPADES, Knowledge, above, beats, cards_in, rank_of, suit_of


def choose_card(view: HandState) -> Card:
    return choose_card_for(Knowledge(view), view.legal_mask())


def choose_card_for(k: Knowledge, legal: int) -> Card:
    """The card for the seat described by ``k``, among the ``legal`` ones (a mask)."""
    cards = mask_to_cards(legal)
    if len(cards) == 1:
        return cards[0]
    if k.me in k.us.nil_seats:
        return play_nil(k, cards)
    if k.partner in k.us.nil_seats:
        card = cover_nil(k, cards)
        if card is not None:
            return card
    if k.them.nil_seats:
        card = attack_nil(k, cards, k.them.nil_seats)
        if card is not None:
            return card
    if not want_tricks(k):
        return duck(k, cards)
    return lead_to_win(k, cards) if k.trick_len == 0 else follow_to_win(k, cards)


def want_tricks(k: Knowledge) -> bool:
    them = k.them
    can_set_them = them.contract > 0 and 0 < them.need <= k.tricks_left
    if not k.us.made:
        if k.us.need > k.tricks_left:
            return can_set_them  # we are set already: set them too, or hand them bags
        return True
    if k.bags_near_limit(k.us):
        return False
    return can_set_them  # setting the opponents is worth more than a bag


# ---------------------------------------------------------------- helpers
def winners(k: Knowledge, cards: list[Card]) -> list[Card]:
    if k.trick_len == 0:
        return list(cards)
    return [c for c in cards if beats(c, k.best_card, k.led)]


def non_winners(k: Knowledge, cards: list[Card]) -> list[Card]:
    if k.trick_len == 0:
        return []
    return [c for c in cards if not beats(c, k.best_card, k.led)]


def cheapest(cards: list[Card]) -> Card:
    """The least valuable card: side suits before spades, then the lowest rank."""
    return min(cards, key=lambda c: (suit_of(c) == SPADES, rank_of(c)))


def bottom_of_sequence(k: Knowledge, card: Card) -> Card:
    """The lowest of my cards equal to ``card`` (only played cards between) that still wins."""
    best = card
    c = int(card)
    while rank_of(c) > 0:
        c -= 1
        if k.hand >> c & 1:
            if k.trick_len and not beats(c, k.best_card, k.led):
                break
            best = Card(c)
        elif not k.view.played >> c & 1:
            break
    return best


def sure_winners(k: Knowledge, cards: list[Card]) -> list[Card]:
    return [c for c in winners(k, cards) if k.wins_for_sure(c)]


def slough(k: Knowledge, cards: list[Card]) -> Card:
    """A card to give away when not winning: the lowest loser, keeping masters and spades."""
    if k.trick_len and any(suit_of(c) == k.led for c in cards):
        return min(cards, key=rank_of)  # following suit: the lowest

    def key(c: Card):
        suit = suit_of(c)
        length = cards_in(k.hand, suit).bit_count()
        return (suit == SPADES, k.is_master(c), rank_of(c) >= 10, length, rank_of(c))

    losers = non_winners(k, cards) or cards
    return min(losers, key=key)


def shed(k: Knowledge, cards: list[Card]) -> Card:
    """When avoiding the trick: the most dangerous card that stays under the trick."""
    under = non_winners(k, cards)
    if under:
        return max(under, key=lambda c: (rank_of(c) + (3 if suit_of(c) == SPADES else 0),
                                         -cards_in(k.hand, suit_of(c)).bit_count()))
    # every card wins the trick: the last hand takes it with its highest card; earlier
    # hands play the lowest, which a later player may still beat
    if not k.opponents_after() and k.partner not in k.to_play_after():
        return max(cards, key=lambda c: (suit_of(c) != SPADES, rank_of(c)))
    return min(cards, key=lambda c: (suit_of(c) == SPADES, rank_of(c)))


def lead_low(k: Knowledge, cards: list[Card], prefer=None) -> Card:
    """The low lead most likely to be beaten: many unseen cards above it, side suits first."""
    def key(c: Card):
        higher = (above(c) & k.unseen).bit_count()
        return (prefer(c) if prefer else 0, suit_of(c) == SPADES, -higher, rank_of(c))
    return min(cards, key=key)


# ---------------------------------------------------------------- nil modes
def play_nil(k: Knowledge, cards: list[Card]) -> Card:
    if k.trick_len == 0:
        return lead_low(k, cards)
    return shed(k, cards)


def cover_nil(k: Knowledge, cards: list[Card]) -> Card | None:
    partner = k.partner
    played_seats = [s for s, _ in k.trick]
    if k.trick_len == 0:
        def key(c: Card):
            suit = suit_of(c)
            partner_void = bool(k.view.voids[partner] >> suit & 1)
            return (not k.is_master(c), not partner_void, (above(c) & k.unseen).bit_count(),
                    -rank_of(c))
        return min(cards, key=key)
    if partner in played_seats:
        if k.best_seat != partner:
            return None  # the partner is safe in this trick: play it normally
        over = winners(k, cards)
        if over:
            sure = [c for c in over if k.wins_for_sure(c)]
            return cheapest(sure) if sure else max(over, key=rank_of)
        return None
    # the partner plays after me: make the trick as high as I can
    over = winners(k, cards)
    if over:
        following = [c for c in over if suit_of(c) == k.led]
        if following:
            return max(following, key=rank_of)
        return min(over, key=rank_of)  # ruff with the cheapest spade that takes the lead
    return slough(k, cards)


def attack_nil(k: Knowledge, cards: list[Card], nil_seats: tuple[int, ...]) -> Card | None:
    if k.trick_len == 0:
        holders = [c for c in cards if any(k.can_hold(s, suit_of(c)) for s in nil_seats)]
        if not holders:
            return None
        return min(holders, key=lambda c: (suit_of(c) == SPADES, rank_of(c),
                                           -(above(c) & k.unseen).bit_count()))
    played_seats = [s for s, _ in k.trick]
    if k.best_seat in nil_seats:
        under = non_winners(k, cards)
        if under:
            return max(under, key=lambda c: (suit_of(c) != SPADES, rank_of(c)))
        return None
    still_to_play = [s for s in nil_seats if s not in played_seats]
    if still_to_play and k.best_seat != k.partner:
        # stay low and let the nil bidder be forced over it
        following = [c for c in cards if suit_of(c) == k.led]
        if following:
            return min(following, key=rank_of)
        under = non_winners(k, cards)
        return slough(k, under or cards)
    return None


# ---------------------------------------------------------------- ducking
def duck(k: Knowledge, cards: list[Card]) -> Card:
    if k.trick_len == 0:
        return lead_low(k, cards)
    if k.best_seat == k.partner:
        under = non_winners(k, cards)
        if under:
            return max(under, key=rank_of)
    return shed(k, cards)


# ---------------------------------------------------------------- winning tricks
def follow_to_win(k: Knowledge, cards: list[Card]) -> Card:
    over = winners(k, cards)
    if k.best_seat == k.partner:
        partner_card = k.best_card
        safe = k.holds_against(partner_card, k.led, k.opponents_after())
        if safe or not over:
            return slough(k, cards)
        sure = [c for c in over if k.wins_for_sure(c)]
        return cheapest(sure) if sure else slough(k, cards)
    if not over:
        return slough(k, cards)
    sure = [c for c in over if k.wins_for_sure(c)]
    if sure:
        return min(sure, key=lambda c: (suit_of(c) == SPADES and k.led != SPADES, rank_of(c)))
    following = [c for c in over if suit_of(c) == k.led]
    if k.trick_len == 1:
        # second hand low, unless ruffing: ruff with the cheapest spade that wins
        if following:
            return slough(k, cards)
        return min(over, key=rank_of)
    # third hand high (the bottom of my top sequence); fourth hand can always be sure
    if following:
        return bottom_of_sequence(k, max(following, key=rank_of))
    return min(over, key=rank_of)


def lead_to_win(k: Knowledge, cards: list[Card]) -> Card:
    spades = [c for c in cards if suit_of(c) == SPADES]
    side = [c for c in cards if suit_of(c) != SPADES]
    unseen_spades = k.unseen_in(SPADES)
    # draw trumps with the master spade while holding as many as the others together
    if spades:
        top = max(spades)
        mine = cards_in(k.hand, SPADES).bit_count()
        if k.is_master(top) and unseen_spades and mine >= unseen_spades:
            return top
    # cash safe masters in the side suits, the suit with most cards out first
    masters = [c for c in side if k.is_master(c) and k.wins_for_sure(c)]
    if masters:
        return max(masters, key=lambda c: k.unseen_in(suit_of(c)))
    if not side:
        if spades and k.is_master(max(spades)):
            return max(spades)
        return min(spades)
    partner = k.partner
    rho = (k.me + 3) & 3
    # the partner is void and may ruff; the player after the partner is not void
    for c in sorted(side, key=rank_of):
        suit = suit_of(c)
        if (k.view.voids[partner] >> suit & 1 and k.can_hold(partner, SPADES)
                and not k.view.voids[rho] >> suit & 1):
            return c
    # the partner's suit: one the partner led before
    partner_suits = [suit_of(cs[0]) for leader, cs, _ in k.view.completed_tricks()
                     if leader == partner and suit_of(cs[0]) != SPADES]
    for suit in partner_suits:
        mine = [c for c in side if suit_of(c) == suit]
        if mine:
            return _lead_from_suit(k, mine)
    # a singleton for a ruff when I still hold a spade to ruff with
    if cards_in(k.hand, SPADES):
        singles = [c for c in side if cards_in(k.hand, suit_of(c)).bit_count() == 1
                   and not k.is_master(c) and rank_of(c) < 11]
        if singles:
            return min(singles, key=rank_of)
    # otherwise the suit where leading gives least away
    by_suit: dict[int, list[Card]] = {}
    for c in side:
        by_suit.setdefault(suit_of(c), []).append(c)
    suit = min(by_suit, key=lambda s: _lead_cost(k, by_suit[s]))
    return _lead_from_suit(k, by_suit[suit])


def _lead_from_suit(k: Knowledge, mine: list[Card]) -> Card:
    """Top of a sequence (K from K-Q), otherwise the lowest card."""
    top = max(mine, key=rank_of)
    below_top = Card(top - 1) if rank_of(top) > 0 else None
    if rank_of(top) >= 9 and below_top is not None and k.hand >> below_top & 1:
        return top
    return min(mine, key=rank_of)


def _lead_cost(k: Knowledge, mine: list[Card]) -> tuple:
    """Leading away from an unsupported honour or a tenace costs; long weak suits are cheap."""
    mine = sorted(mine)
    top = mine[-1]
    cost = 0
    if rank_of(top) >= 10 and not k.is_master(top) and not k.hand >> (top - 1) & 1:
        cost += 2  # K-x or Q-x with a higher card out: leading sets up the opponents' honour
    if k.is_master(top) and len(mine) >= 2:
        second = mine[-2]
        if rank_of(second) >= 9 and (above(second) & k.unseen).bit_count() == 1:
            cost += 1  # a tenace such as A-Q: wait for the lead to come to me
    return (cost, -len(mine), rank_of(mine[0]))
