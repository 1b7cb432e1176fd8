"""What one seat can work out from its view: its cards, the unseen cards, who may still hold
what, which cards are masters, and where each team stands against its contract and bags.

Everything here reads only the seat's view (its own hand, the bids, the plays, the shown voids).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..bids import is_nil
from ..cards import FULL_DECK, SUIT_MASKS
from ..rules import NilTricks
from ..state import HandState

SPADES = 0


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def cards_in(mask: int, suit: int) -> int:
    return mask & SUIT_MASKS[suit]


def above(card: int) -> int:
    """Mask of the cards of the same suit ranked above ``card``."""
    suit_mask = SUIT_MASKS[card // 13]
    return suit_mask & ~((2 << card) - 1)


def beats(card: int, best: int, led: int) -> bool:
    """Whether ``card`` beats the trick's best card ``best`` (suit ``led`` led)."""
    cs, bs = card // 13, best // 13
    if cs == bs:
        return card > best
    return cs == SPADES


@dataclass
class TeamPosition:
    contract: int  # sum of the non-nil bids
    counted: int  # tricks taken by its non-nil bidders
    bags: int  # running bags before the hand
    nil_seats: tuple[int, ...]  # seats that bid nil and have not taken a trick yet

    @property
    def need(self) -> int:
        return self.contract - self.counted

    @property
    def made(self) -> bool:
        return self.counted >= self.contract

    @property
    def overtricks(self) -> int:
        return max(0, self.counted - self.contract) if self.contract else 0


class Knowledge:
    """One seat's picture of the hand, built from its view."""

    def __init__(self, view: HandState) -> None:
        self.view = view
        self.me = int(view.to_act)
        self.partner = (self.me + 2) & 3
        self.opponents = ((self.me + 1) & 3, (self.me + 3) & 3)
        self.hand = view.held[self.me]
        self.unseen = FULL_DECK & ~view.played & ~view.known[self.me]
        self.trick = view.current_trick  # [(seat, card)]
        self.trick_len = len(self.trick)
        self.led = view.led_suit if self.trick_len else -1
        self.best_card = view.best_card if self.trick_len else -1
        self.best_seat = view.best_seat if self.trick_len else -1
        self.tricks_left = 13 - len(view.trick_winners)
        self.rules = view.rules
        self.us = self._team(self.me)
        self.them = self._team(self.opponents[0])

    def with_hand(self, dealt: int) -> "Knowledge":
        """The same picture for another hand of the same seat (``dealt``: the 13 cards it was
        dealt), as when the other players ask what this seat would do with that hand."""
        other = Knowledge.__new__(Knowledge)
        other.__dict__.update(self.__dict__)
        other.hand = dealt & ~self.view.played
        other.unseen = FULL_DECK & ~self.view.played & ~dealt
        return other

    # ------------------------------------------------------------------ the teams
    def _team(self, seat: int) -> TeamPosition:
        v = self.view
        contract = counted = 0
        nils = []
        for s in (seat & 1, (seat & 1) + 2):
            b = v.bids[s]
            if b is None:
                continue
            if is_nil(b):
                if v.tricks[s] == 0:
                    nils.append(s)
                if v.rules.nil_tricks is NilTricks.PARTNER:
                    counted += v.tricks[s]
            else:
                contract += b
                counted += v.tricks[s]
        return TeamPosition(contract, counted, v.bags_before[seat & 1], tuple(nils))

    @property
    def bag_limit(self) -> int | None:
        return None if self.rules.bags is None else self.rules.bags.limit

    def bags_near_limit(self, team: TeamPosition, margin: int = 2) -> bool:
        limit = self.bag_limit
        return limit is not None and team.bags + team.overtricks >= limit - margin

    # ------------------------------------------------------------------ the cards
    def can_hold(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may still hold a card of ``suit`` (not shown void; unseen ones left)."""
        if seat == self.me:
            return bool(cards_in(self.hand, suit))
        return not (self.view.voids[seat] >> suit & 1) and bool(cards_in(self.unseen, suit))

    def is_master(self, card: int) -> bool:
        """No unseen card of its suit is higher."""
        return not (above(card) & self.unseen)

    def to_play_after(self) -> list[int]:
        """Seats still to play in this trick after me."""
        return [(self.me + i) & 3 for i in range(1, 4 - self.trick_len)]

    def opponents_after(self) -> list[int]:
        return [s for s in self.to_play_after() if s != self.partner]

    def may_ruff(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may be void in ``suit`` and still hold a spade."""
        if suit == SPADES:
            return False
        v = self.view
        return bool(v.voids[seat] >> suit & 1) and self.can_hold(seat, SPADES)

    def wins_for_sure(self, card: int) -> bool:
        """``card`` would win the trick whatever the players after me hold."""
        led = self.led if self.trick_len else card // 13
        if self.trick_len and not beats(card, self.best_card, led):
            return False
        return self.holds_against(card, led, self.opponents_after())

    def holds_against(self, card: int, led: int, threats: list[int]) -> bool:
        """Whether ``card``, now the best of a trick led in ``led``, survives ``threats``."""
        if not threats:
            return True
        suit = card // 13
        higher = above(card) & self.unseen
        if suit == led:
            if higher and any(self.can_hold(s, suit) for s in threats):
                return False
            if suit != SPADES:
                # a void opponent could ruff; unknown voids count only late in a suit
                for s in threats:
                    if self.may_ruff(s, suit):
                        return False
                    if not self.can_hold(s, suit) and self.can_hold(s, SPADES):
                        return False
            return True
        # a ruff: only a higher spade from a player also void in the led suit beats it
        if not higher:
            return True
        return not any(not self.can_hold(s, led) or self.view.voids[s] >> led & 1
                       for s in threats if self.can_hold(s, SPADES))

    def unseen_in(self, suit: int) -> int:
        return cards_in(self.unseen, suit).bit_count()
