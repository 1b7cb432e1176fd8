"""The state of one hand: bidding, play, legal moves, tricks, and the score at the end.

Modelled on OpenSpiel's game interface: the state knows whose turn it is, lists the legal
actions, applies one, and gives the returns (the score) when the hand is done.

>>> from advisor.cards import parse_card as c, Seat
>>> from advisor.rules import Rules
>>> st = HandState(Rules(), dealer=Seat.N)
>>> for b in (3, 4, 3, 2): st.bid(b)
>>> st.phase, st.to_act
(<Phase.PLAY: 'play'>, <Seat.N: 0>)
>>> st.play(c("5H")); st.play(c("KH")); st.current_trick
[(<Seat.N: 0>, 5H), (<Seat.E: 1>, KH)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Iterable, Mapping

from .bids import BLIND_NIL, MAX_BID, describe_bid
from .cards import (
    CARDS, FULL_DECK, SPADES_MASK, SUIT_MASKS, Card, Seat, Suit, Team, cards_to_mask,
    mask_to_cards,
)
from .refusals import headline, refusal_text
from .rules import FirstPlayer, Rules
from .scoring import TeamScore, blind_nil_allowed, game_result, score_hand


class Phase(str, Enum):
    BIDDING = "bidding"
    PLAY = "play"
    DONE = "done"


@dataclass
class IllegalEvent(Exception):
    """An event that the rules do not allow; ``index`` is into the plays (or the bidding order).

    Why is named by ``code`` and ``params`` (see :mod:`advisor.refusals`): ``reason`` is the
    English words, ``reason_in("pl")`` the Polish.
    """

    kind: str  # "bid" or "play"
    index: int
    seat: Seat
    code: str
    params: dict = field(default_factory=dict)
    card: Card | None = None
    bid: int | None = None

    def __str__(self) -> str:
        return self.reason

    @property
    def reason(self) -> str:
        return self.reason_in("en")

    def reason_in(self, lang: str) -> str:
        return refusal_text(lang, self.code, self.params)

    def describe(self, lang: str = "en", numbered: bool = False) -> str:
        """"illegal play by S: …" (``numbered``: "illegal play #5 (trick 2) by S: …") in ``lang``."""
        head = headline(lang, self.kind, self.seat.name, self.index if numbered else None)
        return f"{head}: {self.reason_in(lang)}"

    def to_json(self, lang: str = "en") -> dict:
        from .bids import bid_to_json
        return {
            "kind": self.kind,
            "index": self.index,
            "seat": self.seat.name,
            "card": None if self.card is None else str(self.card),
            "bid": None if self.bid is None else bid_to_json(self.bid),
            "code": self.code,
            "reason": self.reason_in(lang),
        }


_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_NON_SPADES = FULL_DECK & ~SPADES_MASK


class HandState:
    """One hand in progress. Seats' hands may be fully known, partly known or unknown."""

    __slots__ = (
        "rules", "dealer", "first", "points_before", "bags_before",
        "known", "complete", "held", "extra", "played",
        "bids", "_bid_count", "plays", "play_seats", "trick_winners",
        "leader", "_to_act", "trick_len", "led_suit", "best_card", "best_seat",
        "tricks", "spades_broken", "voids", "void_notes",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: Seat,
        hands: Mapping[Seat, Iterable[Card]] | None = None,
        points_before: tuple[int, int] = (0, 0),
        bags_before: tuple[int, int] = (0, 0),
    ) -> None:
        self.rules = rules
        self.dealer = Seat(dealer)
        self.first = self.dealer if rules.first is FirstPlayer.DEALER else self.dealer.next()
        self.points_before = tuple(points_before)
        self.bags_before = tuple(bags_before)
        self.known = [0, 0, 0, 0]  # cards known to be dealt to each seat
        self.complete = [False] * 4  # all 13 known
        self.held = [0, 0, 0, 0]  # known cards not yet played
        self.extra = [0, 0, 0, 0]  # cards played that were not among the known ones
        if hands:
            for seat, cards in hands.items():
                mask = cards_to_mask(cards)
                self.known[seat] = self.held[seat] = mask
                self.complete[seat] = mask.bit_count() == 13
        self.played = 0
        self.bids: list[int | None] = [None] * 4
        self._bid_count = 0
        self.plays: list[Card] = []
        self.play_seats: list[int] = []
        self.trick_winners: list[int] = []
        self.leader = int(self.first)
        self._to_act = int(self.first)
        self.trick_len = 0
        self.led_suit = -1
        self.best_card = -1
        self.best_seat = -1
        self.tricks = [0, 0, 0, 0]
        self.spades_broken = False
        self.voids = [0, 0, 0, 0]  # bit s: the seat has shown it holds no card of suit s
        self.void_notes: dict[tuple[int, int], tuple[str, dict]] = {}  # (seat, suit) -> refusal words

    # ------------------------------------------------------------------ queries
    @property
    def phase(self) -> Phase:
        if self._bid_count < 4:
            return Phase.BIDDING
        return Phase.PLAY if len(self.plays) < 52 else Phase.DONE

    @property
    def to_act(self) -> Seat | None:
        return None if len(self.plays) == 52 else _SEATS[self._to_act]

    @property
    def is_done(self) -> bool:
        return len(self.plays) == 52

    @property
    def current_trick(self) -> list[tuple[Seat, Card]]:
        n = self.trick_len
        if n == 0:
            return []
        return [(_SEATS[s], c) for s, c in zip(self.play_seats[-n:], self.plays[-n:])]

    @property
    def trick_number(self) -> int:
        """1-based number of the trick being played (or the last one when done)."""
        return min(len(self.plays) // 4 + 1, 13)

    def hand_known(self, seat: Seat) -> bool:
        return self.complete[seat]

    def holding(self, seat: Seat) -> list[Card]:
        """Known cards of ``seat`` not yet played."""
        return mask_to_cards(self.held[seat])

    def unseen(self, seat: Seat) -> list[Card]:
        """Cards still unseen from ``seat``'s view: not its own and not played yet."""
        return mask_to_cards(FULL_DECK & ~self.played & ~self.known[seat])

    def shown_voids(self, seat: Seat) -> list[Suit]:
        return [Suit(s) for s in range(4) if self.voids[seat] >> s & 1]

    def completed_tricks(self) -> list[tuple[Seat, list[Card], Seat]]:
        """(leader, four cards in play order, winner) for each finished trick."""
        out = []
        for t, winner in enumerate(self.trick_winners):
            out.append((_SEATS[self.play_seats[4 * t]], self.plays[4 * t:4 * t + 4], _SEATS[winner]))
        return out

    def legal_bids(self) -> list[int]:
        if self._bid_count >= 4:
            return []
        bids = list(range(MAX_BID + 1))
        if blind_nil_allowed(self.rules, _SEATS[self._to_act].team, self.points_before):
            bids.append(BLIND_NIL)
        return bids

    def legal_mask(self) -> int:
        """Bitmask of the legal cards for the seat to act (its known, unplayed cards)."""
        return self.legal_for(self.held[self._to_act])

    def legal_for(self, held: int) -> int:
        """Bitmask of the cards of ``held`` that the seat to act may play now."""
        if self.trick_len:
            follow = held & SUIT_MASKS[self.led_suit]
            return follow if follow else held
        if not self.spades_broken:
            other = held & _NON_SPADES
            if other:
                return other
        return held

    def legal_cards(self) -> list[Card] | None:
        """Legal cards for the seat to act, or None when its hand is not fully known."""
        if self._bid_count < 4 or len(self.plays) == 52 or not self.complete[self._to_act]:
            return None
        return mask_to_cards(self.legal_mask())

    def legal_actions(self) -> list:
        """Bids in the bidding, cards in the play (empty when unknown or done)."""
        if self._bid_count < 4:
            return self.legal_bids()
        return self.legal_cards() or []

    # ------------------------------------------------------------------ events
    def bid(self, bid: int) -> None:
        seat = _SEATS[self._to_act]
        index = self._bid_count
        if index >= 4:
            raise IllegalEvent("bid", index, seat, "bidding_over", bid=bid)
        if bid == BLIND_NIL:
            bn = self.rules.blind_nil
            if bn is None:
                raise IllegalEvent("bid", index, seat, "blind_nil_off", bid=bid)
            team = seat.team
            behind = self.points_before[team.other] - self.points_before[team]
            if behind < bn.trailing_by:
                if behind > 0:
                    code, standing = "blind_nil_trails", {"behind": behind}
                elif behind == 0:
                    code, standing = "blind_nil_level", {}
                else:
                    code, standing = "blind_nil_leads", {"ahead": -behind}
                raise IllegalEvent("bid", index, seat, code, {"seat": seat.name, "team": team.name,
                                                              "needed": bn.trailing_by, **standing},
                                   bid=bid)
        elif not 0 <= bid <= MAX_BID:
            raise IllegalEvent("bid", index, seat, "bid_range", {"bid": bid}, bid=bid)
        self.bids[seat] = bid
        self._bid_count += 1
        self._to_act = (self._to_act + 1) & 3

    def play(self, card: Card) -> None:
        """Play ``card`` for the seat to act; raises IllegalEvent (state unchanged) if not allowed."""
        seat = self._to_act
        bit = 1 << card
        if self._bid_count < 4 or len(self.plays) == 52 or not (
            self.complete[seat] and self.legal_mask() & bit
        ):
            self._check_play(card)  # raises when illegal; else the hand was only partly known
            if not self.known[seat] >> card & 1:
                self.extra[seat] += 1
        suit = card // 13
        n = self.trick_len
        if n == 0:
            self.led_suit = suit
            self.best_card = card
            self.best_seat = seat
            if suit == 0 and not self.spades_broken:
                # Only a hand of nothing but spades may lead one now.
                for s in (1, 2, 3):
                    self._note_void(seat, s, "void_spade_lead", {})
                if self.rules.allspade_lead_breaks:
                    self.spades_broken = True
        else:
            led = self.led_suit
            if suit != led:
                if not self.voids[seat] >> led & 1:
                    self._note_void(seat, led, "void_no_follow", {"led": led})
                if suit == 0:
                    self.spades_broken = True
                    if self.best_card // 13 != 0 or card > self.best_card:
                        self.best_card = card
                        self.best_seat = seat
            elif card > self.best_card and (suit == 0 or self.best_card // 13 == led):
                self.best_card = card
                self.best_seat = seat
        self.played |= bit
        self.held[seat] &= ~bit
        self.plays.append(card)
        self.play_seats.append(seat)
        if n == 3:
            winner = self.best_seat
            self.tricks[winner] += 1
            self.trick_winners.append(winner)
            self.leader = winner
            self._to_act = winner
            self.trick_len = 0
        else:
            self.trick_len = n + 1
            self._to_act = (seat + 1) & 3

    def apply(self, action) -> None:
        """OpenSpiel-style: a bid in the bidding, a card in the play."""
        if self._bid_count < 4:
            self.bid(action)
        else:
            self.play(action)

    def _note_void(self, seat: int, suit: int, code: str, params: dict) -> None:
        """Record that ``seat`` holds no ``suit`` now, and how it showed it (a refusal's words)."""
        self.voids[seat] |= 1 << suit
        self.void_notes.setdefault((seat, suit), (code, {"seat": _SEATS[seat].name, **params,
                                                         "trick": len(self.plays) // 4 + 1}))

    def _check_play(self, card: Card) -> None:
        """Raise IllegalEvent naming why ``card`` may not be played now."""
        index = len(self.plays)
        seat = _SEATS[self._to_act]
        trick = index // 4 + 1

        def illegal(code: str, **params) -> IllegalEvent:
            return IllegalEvent("play", index, seat, code, params, card=card)

        if self._bid_count < 4:
            missing = [_SEATS[(self.first + i) & 3].name for i in range(self._bid_count, 4)]
            raise illegal("play_in_bidding", card=str(card), missing=missing)
        if index >= 52:
            raise illegal("hand_over")
        bit = 1 << card
        if self.played & bit:
            first = self.plays.index(card)
            raise illegal("already_played", card=str(card), trick=first // 4 + 1)
        for other in _SEATS:
            if other != seat and self.known[other] & bit:
                raise illegal("in_other_hand", card=str(card), other=other.name, seat=seat.name)
        if not self.known[seat] & bit:
            if self.complete[seat]:
                raise illegal("not_held", seat=seat.name, card=str(card))
            if self.known[seat].bit_count() + self.extra[seat] >= 13:
                raise illegal("hand_full", seat=seat.name, card=str(card))
        suit = card // 13
        held = self.held[seat]
        if self.voids[seat] >> suit & 1:
            raise illegal("void_shown", shown=list(self.void_notes[(seat, suit)]), suit=suit,
                          card=str(card))
        if self.trick_len:
            led = self.led_suit
            follow = held & SUIT_MASKS[led]
            if suit != led and follow:
                # low to high, as in "S must follow hearts: holds 7H, QH"
                raise illegal("must_follow", seat=seat.name, suit=led,
                              cards=[str(c) for c in mask_to_cards(follow)])
        elif suit == 0 and not self.spades_broken:
            others = held & _NON_SPADES
            if others:
                suits = [s for s in (1, 2, 3) if others & SUIT_MASKS[s]]
                raise illegal("spades_unbroken", seat=seat.name, card=str(card), suits=suits)
        if trick > 13:  # pragma: no cover - guarded by the 52-play check
            raise illegal("too_many_plays")

    # ------------------------------------------------------------------ results
    def score(self) -> tuple[TeamScore, TeamScore] | None:
        if len(self.plays) < 52:
            return None
        return score_hand(self.rules, tuple(self.bids), tuple(self.tricks),
                          self.points_before, self.bags_before)

    def game_result(self) -> tuple[bool, str | None]:
        s = self.score()
        if s is None:
            return False, None
        return game_result(self.rules, (s[0].points, s[1].points))

    def returns(self) -> tuple[int, int]:
        """Hand points for NS and EW (OpenSpiel's returns), zeros before the end."""
        s = self.score()
        return (0, 0) if s is None else (s[0].hand_points, s[1].hand_points)

    def clone(self) -> "HandState":
        new = HandState.__new__(HandState)
        for name in HandState.__slots__:
            v = getattr(self, name)
            setattr(new, name, v.copy() if isinstance(v, (list, dict)) else v)
        return new

    def team_tricks(self, team: Team) -> int:
        return self.tricks[team] + self.tricks[team + 2]

    def describe_bids(self) -> str:
        return ", ".join(f"{s.name} {describe_bid(b)}" for s in _SEATS if (b := self.bids[s]) is not None)


def deal(rng, first: Seat = Seat.N) -> dict[Seat, list[Card]]:
    """A random deal from a ``random.Random``-like generator."""
    deck = list(CARDS)
    rng.shuffle(deck)
    return {seat: sorted(deck[13 * i:13 * i + 13]) for i, seat in enumerate(_SEATS)}
