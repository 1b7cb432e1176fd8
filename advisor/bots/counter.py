"""The counter bot: a second rule-based player, of another school than :mod:`.heuristic`.

It exists to check that the search is strong against more than one style of opponent (the
acceptance applies the strength bar to a bot this project has never played). Its rules are the
common "count and floor" style of online Spades bots (the counting follows the published rules of
TricksterBots' Spades bot, by Ted Johnson, MIT; the code here is written for this project):

* **Bid** the whole tricks the hand counts, rounded down (at least 1): a spade for each void (two),
  singleton (one) or doubleton (a quarter) it can ruff with, then the remaining spades by how
  well their gaps are covered, aces, kings with a guard and middle-length queens.
  **Nil** with a count under one, no top card of any suit, at most three spades and no suit with
  more high cards (queen and up) than low ones. Never a blind nil.
* **Play** in one mode a card, the first that applies: duck its own nil; cover the partner's nil;
  bust an opponent's nil (when the team's own contract is small); take tricks while the contract
  needs more than the sure spade tricks, or the opponents can still be set at an affordable
  number of bags; otherwise shed high cards under the trick.

It differs from the heuristic bot on purpose: lower bids (a floor, not a rounding up from 0.6), a
stricter nil, no blind nil, no third-hand-high or tenace rules, masters cashed from the longest
suit, and bags judged by a fixed allowance.

>>> from advisor.cards import parse_card
>>> def mask(text): return sum(1 << int(parse_card(c)) for c in text.split())
>>> count_tricks(mask("AS KS 2S AH KH 3H 4D 5D 6D 7C 8C 9C TC"))  # AS KS, AH KH
4.0
>>> count_tricks(mask("AS KS 5S 2S AH KH 3H 4D 5D 6D 7D 8D 9D"))  # two ruffs of clubs as well
6.0
>>> hand = mask("TS 3S 2S 9H 4H 3H JD 5D 2D 9C 7C 4C 3C")
>>> count_tricks(hand), nil_fit(hand, count_tricks(hand))
(0.25, True)
"""

from __future__ import annotations

from ..bids import BLIND_NIL, is_nil
from ..cards import Card, mask_to_cards
from ..state import HandState
from .base import RuleBot
from .knowledge import SPADES, Knowledge, beats, cards_in, rank_of, suit_of

QUEEN, KING, ACE = 10, 11, 12  # ranks: 0 is the two


def _ranks(mask: int, suit: int) -> list[int]:
    """Ranks held in ``suit``, highest first."""
    m = cards_in(mask, suit) >> (13 * suit)
    return [r for r in range(12, -1, -1) if m >> r & 1]


# ---------------------------------------------------------------------- bidding
def count_tricks(hand: int) -> float:
    """The hand's trick count by the bot's rules (see the module docstring)."""
    spades = _ranks(hand, SPADES)
    lengths = {s: len(_ranks(hand, s)) for s in (1, 2, 3)}
    est = 0.0
    spare = float(len(spades))
    for s in (1, 2, 3):  # short side suits take a spade each to ruff them
        if lengths[s] <= 2:
            use = min(spare, 0.25 if lengths[s] == 2 else 2 - lengths[s])
            spare -= use
            est += use
    kept = spades[:round(spare)]  # the high spades stay for drawing trumps
    for i, r in enumerate(kept):
        below = len(kept) - 1 - i
        gaps = (ACE - r) - i  # ranks above it that are not among the kept spades
        if below >= gaps:
            est += 1
        elif below == gaps - 1:
            est += 0.75
        elif below == gaps - 2:
            est += 0.25
    for s in (1, 2, 3):
        ranks, n = _ranks(hand, s), lengths[s]
        if ACE in ranks:
            est += 1 if n <= 6 else 0.5
        if KING in ranks and n > 1:
            est += 1 if n <= 5 else 0.25
        if QUEEN in ranks and 2 < n <= 4:
            est += 0.5
    return est


def nil_fit(hand: int, est: float) -> bool:
    """Nil: almost no tricks counted, no top card, few spades, every suit's high cards covered."""
    if est >= 1 or len(_ranks(hand, SPADES)) > 3:
        return False
    for s in range(4):
        ranks = _ranks(hand, s)
        if ACE in ranks:
            return False
        high = sum(r >= QUEEN for r in ranks)
        if high > len(ranks) - high:
            return False
    return True


def choose_bid(view: HandState) -> int:
    me = view.to_act
    hand = view.held[me]
    partner_bid = view.bids[me.partner]
    est = count_tricks(hand)
    if not (partner_bid is not None and is_nil(partner_bid)) and nil_fit(hand, est):
        return 0
    top = 13 - (partner_bid if partner_bid is not None and not is_nil(partner_bid) else 0)
    return max(1, min(top, int(est)))


# ---------------------------------------------------------------------- play helpers
def _low(cards: list[Card]) -> Card:
    return min(cards, key=lambda c: (rank_of(c), suit_of(c) == SPADES))


def _high(cards: list[Card]) -> Card:
    return max(cards, key=lambda c: (rank_of(c), suit_of(c) != SPADES))


def _non_spades(cards: list[Card]) -> list[Card]:
    return [c for c in cards if suit_of(c) != SPADES]


def _lowest_safe(cards: list[Card]) -> Card:
    """The lowest non-spade, else the lowest spade."""
    return _low(_non_spades(cards) or cards)


def _trick_has_spade(k: Knowledge) -> bool:
    return any(suit_of(c) == SPADES for _, c in k.trick)


def _void(k: Knowledge, seat: int, suit: int) -> bool:
    return bool(k.view.voids[seat] >> suit & 1)


def sure_spade_tricks(k: Knowledge) -> int:
    """Spade tricks the seat takes however it plays: walking the spades it knows of (its own and
    the played ones) from the ace down, each of its own spades counts once every unknown higher
    spade has been matched by one of its own."""
    known = cards_in(k.hand | k.view.played, SPADES)
    mine = cards_in(k.hand, SPADES)
    lost = sure = 0
    expect = ACE
    for r in range(ACE, -1, -1):
        if not known >> r & 1:
            continue
        lost += expect - r
        if mine >> r & 1:
            if lost <= 0:
                sure += 1
            else:
                lost -= 1
        expect = r - 1
    return sure


def weakest_discard(k: Knowledge, cards: list[Card]) -> Card:
    """A card to throw: a losing singleton of the suit with most cards out, a doubleton's low card
    where it gives nothing up, else the lowest card of the longest side suit."""
    side = _non_spades(cards)
    if not side:
        return _low(cards)
    by_suit: dict[int, list[Card]] = {}
    for c in side:
        by_suit.setdefault(suit_of(c), []).append(c)
    singles = [v[0] for v in by_suit.values() if len(v) == 1 and not k.is_master(v[0])]
    if singles:
        return max(singles, key=lambda c: k.unseen_in(suit_of(c)))
    for s, v in sorted(by_suit.items(), key=lambda kv: -k.unseen_in(kv[0])):
        if len(v) == 2:
            lo, hi = sorted(v)
            if (k.is_master(hi) and int(hi) - int(lo) > 1) or all(rank_of(c) != KING for c in v):
                return lo
    longest = max(by_suit.values(), key=len)
    return min(longest)


# ---------------------------------------------------------------------- play modes
def duck(k: Knowledge, cards: list[Card], still_need: bool = False, safe: bool = True) -> Card:
    """Try not to take the trick."""
    if k.trick_len == 0:
        return _low(cards)
    led = k.led
    if suit_of(cards[0]) == led:
        if led != SPADES and _trick_has_spade(k):
            pick = [c for c in cards if rank_of(c) < QUEEN] if still_need else cards
            if pick:
                return _high(pick)
        else:
            under = [c for c in cards if c < k.best_card]
            if under:
                return max(under)
            if not safe or k.trick_len == 3:
                return max(cards)
        return _lowest_safe(cards)
    if still_need:
        low_side = [c for c in _non_spades(cards) if rank_of(c) < QUEEN]
        return _high(low_side) if low_side else _lowest_safe(cards)
    if _trick_has_spade(k):
        top = max(c for _, c in k.trick if suit_of(c) == SPADES)
        under = [c for c in cards if suit_of(c) == SPADES and c < top]
        if under:
            return max(under)
    side = _non_spades(cards)
    return _high(side) if side else _high(cards)


def take(k: Knowledge, cards: list[Card]) -> Card:
    """Try to take tricks."""
    partner_winning = k.trick_len and k.best_seat == k.partner
    if k.trick_len == 0:
        pool = cards
        for opp in k.opponents:  # leave suits an opponent can ruff
            if not _void(k, opp, SPADES):
                keep = [c for c in pool if not _void(k, opp, suit_of(c))]
                pool = keep or pool
        masters = [c for c in pool if k.is_master(c)]
        if masters:
            length = {s: sum(suit_of(c) == s for c in pool) for s in range(4)}
            return max(masters, key=lambda c: (length[suit_of(c)], c))
        if not _void(k, k.partner, SPADES):
            ruffs = [c for c in pool if _void(k, k.partner, suit_of(c))]
            pool = ruffs or pool
        return weakest_discard(k, pool)
    led = k.led
    last = k.trick_len == 3
    partner_safe = partner_winning and (last or k.is_master(k.best_card))
    if suit_of(cards[0]) == led:
        if led == SPADES or not _trick_has_spade(k):
            if partner_safe:
                return min(cards)
            if last:
                over = [c for c in cards if c > k.best_card]
                if over:
                    return min(over)
            elif k.is_master(max(cards)) and max(cards) > k.best_card:
                return max(cards)
        return min(cards)
    spades = [c for c in cards if suit_of(c) == SPADES]
    if spades:
        lho = (k.me + 1) & 3
        if k.trick_len == 1 and _void(k, lho, led):
            pass  # the next opponent ruffs too: leave it to the partner
        elif partner_safe:
            pass
        elif not _trick_has_spade(k):
            return min(spades)
        else:
            over = [c for c in spades if c > k.best_card]
            if over:
                return min(over)
    if len(spades) == len(cards):
        return min(cards)
    return weakest_discard(k, cards)


def cover_partner_nil(k: Knowledge, cards: list[Card]) -> Card:
    """Take the tricks the nil partner might otherwise have to win."""
    partner = k.partner
    partner_played = any(s == partner for s, _ in k.trick)
    if not partner_played:
        if k.trick_len == 0:
            spades = [c for c in cards if suit_of(c) == SPADES]
            if spades and not _void(k, partner, SPADES):
                return max(spades)
            masters = [c for c in cards if k.is_master(c)]
            if masters:
                return _high(masters)
            voids = [c for c in cards if _void(k, partner, suit_of(c))]
            if voids:
                return _low(voids)
            return _high(cards)
        led = k.led
        if suit_of(cards[0]) == led:
            if led == SPADES or (not _trick_has_spade(k) and not _void(k, partner, led)):
                top = max(cards)
                if top > k.best_card:
                    return top
        elif any(suit_of(c) == SPADES for c in cards):
            if not _trick_has_spade(k) and not _void(k, partner, led) and not k.is_master(k.best_card):
                return min(c for c in cards if suit_of(c) == SPADES)
    elif k.best_seat == partner:
        over = [c for c in cards if beats(c, k.best_card, k.led)]
        same = [c for c in over if suit_of(c) == suit_of(k.best_card)]
        if same or over:
            return min(same or over)
    return _lowest_safe(cards)


def bust_nil(k: Knowledge, cards: list[Card], target: int, still_need: bool) -> Card:
    """Make the opponent ``target``, who bid nil and has no trick yet, take one."""
    if k.trick_len == 0:
        their_partner = (target + 2) & 3
        pool = [c for c in cards if not _void(k, target, suit_of(c))
                and (_void(k, their_partner, SPADES) or not _void(k, their_partner, suit_of(c)))]
        return duck(k, pool or cards, still_need)
    played = dict(k.trick)
    if target in played:
        if k.best_seat == target:
            return duck(k, cards, still_need, safe=False)
        if still_need:
            if k.best_seat == k.partner:
                return duck(k, cards, True)
            over = [c for c in cards if suit_of(c) == suit_of(k.best_card) and c > k.best_card]
            if over:
                modest = [c for c in over if rank_of(c) < QUEEN]
                return max(modest) if modest else min(over)
            spades = [c for c in cards if suit_of(c) == SPADES]
            if suit_of(k.best_card) != SPADES and spades:
                modest = [c for c in spades if rank_of(c) < QUEEN]
                return max(modest) if modest else min(spades)
            side = _non_spades(cards)
            modest = [c for c in side if rank_of(c) < QUEEN]
            return max(modest) if modest else (min(side) if side else min(cards))
        spades = [c for c in cards if suit_of(c) == SPADES]
        return max(spades) if spades else _high(cards)
    return duck(k, cards, still_need)


def should_bust(k: Knowledge) -> int | None:
    """The opponent nil to go after, if the team's own contract leaves room for it."""
    if not k.them.nil_seats:
        return None
    ours = k.us.contract
    total = ours + k.them.contract
    if ours < 9 and (total < 12 or ours < 6):
        # the nil bidder to act soonest after the seat, counting backwards round the table
        return min(k.them.nil_seats, key=lambda s: (k.me - s) % 4)
    return None


def should_make(k: Knowledge, sure: int) -> bool:
    need = k.us.need
    return need - sure > 0 and k.tricks_left >= need


def _points_if_made(v: HandState, seats) -> int:
    """The seats' points if every contract makes and every live nil holds."""
    pts = 0
    for s in seats:
        b = v.bids[s]
        if b is None:
            continue
        if is_nil(b):
            value = v.rules.nil_stake(b == BLIND_NIL)
            pts += -value if v.tricks[s] else value
        else:
            pts += 10 * b
    return pts


def should_set(k: Knowledge, sure: int) -> bool:
    them, us = k.them, k.us
    v = k.view
    win_at = v.rules.win_at
    team = int(k.me) & 1
    # making the own contract wins the game outright: no need to chase a set
    mine = v.points_before[team] + _points_if_made(v, (k.me, k.partner))
    theirs = v.points_before[1 - team] + _points_if_made(v, k.opponents)
    if mine >= win_at and theirs < mine:
        return False
    need = them.need
    if them.contract <= 0:
        return False
    limit = k.bag_limit
    if limit is not None:
        allowed = min(them.contract // 3, limit - 1 - us.bags)
        required = max(13 - them.contract - us.contract + 1, 0)
        if required > allowed:
            return False
    return need - sure > 0 and k.tricks_left >= need


def choose_card(view: HandState) -> Card:
    k = Knowledge(view)
    cards = mask_to_cards(view.legal_mask())
    if len(cards) == 1:
        return cards[0]
    own_bid = view.bids[k.me]
    if own_bid is not None and is_nil(own_bid):
        return duck(k, cards)  # even a busted nil keeps ducking
    if k.partner in k.us.nil_seats:
        return cover_partner_nil(k, cards)
    sure = sure_spade_tricks(k)
    make = should_make(k, sure)
    target = should_bust(k)
    if target is not None:
        return bust_nil(k, cards, target, make)
    if make or should_set(k, sure):
        return take(k, cards)
    return duck(k, cards)


class CounterBot(RuleBot):
    name = "counter"
    bid_rule = staticmethod(choose_bid)
    card_rule = staticmethod(choose_card)
