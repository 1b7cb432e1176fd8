"""Cards, suits, ranks, seats and teams in the notation of the contract.

A card is a small int subclass (0..51) so that hands can be kept as bitmasks:
``index = suit * 13 + rank`` with suits ordered S, H, D, C and ranks 2..A as 0..12.

>>> parse_card("10d"), parse_card("A♠"), str(parse_card("♦q"))
(TD, AS, 'QD')
>>> mask_to_cards(cards_to_mask([parse_card("2C"), parse_card("AS")]))
[AS, 2C]
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable

from .refusals import WordedError


class Suit(IntEnum):
    S = 0
    H = 1
    D = 2
    C = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def english(self) -> str:
        return ("spades", "hearts", "diamonds", "clubs")[self]

    @property
    def polish(self) -> str:
        return ("piki", "kiery", "kara", "trefle")[self]


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
SUIT_MASKS = tuple(0x1FFF << (13 * s) for s in range(4))
SPADES_MASK = SUIT_MASKS[Suit.S]
FULL_DECK = (1 << 52) - 1


class Card(int):
    """One of the 52 cards; use the singletons in ``CARDS`` or :func:`parse_card`."""

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """0 for the two … 12 for the ace."""
        return self % 13

    @property
    def bit(self) -> int:
        return 1 << self

    def __str__(self) -> str:
        return RANK_CHARS[self % 13] + SUIT_CHARS[self // 13]

    __repr__ = __str__

    def to_json(self) -> str:
        return str(self)


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))

_SUIT_ALIASES = {
    "S": 0, "♠": 0, "♤": 0,
    "H": 1, "♥": 1, "♡": 1,
    "D": 2, "♦": 2, "♢": 2,
    "C": 3, "♣": 3, "♧": 3,
}
# Polish decks print the jack and the queen as W (walet) and D (dama); D stays diamonds as a suit.
_RANK_ALIASES = {c: i for i, c in enumerate(RANK_CHARS)} | {"10": 8, "W": 9, "D": 10}


class CardParseError(WordedError):
    """Text that does not name a card."""


def _rank_index(text: str) -> int | None:
    return _RANK_ALIASES.get(text.upper())


def parse_card(text: object) -> Card:
    """Read a card in any accepted form: ``TD``, ``10d``, ``♠A``, ``A♠``, ``10♦``, and with the
    Polish letters for the jack and the queen, ``WH`` (walet) and ``D♠`` (dama).

    >>> [str(parse_card(t)) for t in ("10d", "♠A", "DD", "W♥", "HD")]
    ['TD', 'AS', 'QD', 'JH', 'QH']
    """
    if not isinstance(text, str):
        raise CardParseError("card_not_text", value=repr(text))
    t = text.strip().replace("\ufe0f", "")
    if len(t) >= 2:
        # rank first (e.g. "QH", "10♦"), then suit first (e.g. "♠A")
        suit = _SUIT_ALIASES.get(t[-1].upper())
        rank = _rank_index(t[:-1])
        if suit is not None and rank is not None:
            return CARDS[suit * 13 + rank]
        suit = _SUIT_ALIASES.get(t[0].upper())
        rank = _rank_index(t[1:])
        if suit is not None and rank is not None:
            return CARDS[suit * 13 + rank]
    raise CardParseError("card_unknown", value=repr(text))


def cards_to_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# Bit positions of every 16-bit value, so a mask is split into cards without a loop per bit.
_BITS16 = tuple(tuple(i for i in range(16) if v >> i & 1) for v in range(1 << 16))


def mask_to_cards(mask: int) -> list[Card]:
    """Cards of a bitmask in index order (2S … AS, 2H … AC)."""
    out: list[Card] = []
    base = 0
    while mask:
        chunk = mask & 0xFFFF
        if chunk:
            out.extend(CARDS[base + i] for i in _BITS16[chunk])
        mask >>= 16
        base += 16
    return out


def sort_for_display(cards: Iterable[Card]) -> list[Card]:
    """Order for showing a hand: suits S, H, D, C, each from high to low."""
    return sorted(cards, key=lambda c: (c // 13, -(c % 13)))


class Seat(IntEnum):
    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def team(self) -> "Team":
        return Team(self & 1)

    @property
    def partner(self) -> "Seat":
        return Seat((self + 2) & 3)

    def next(self, steps: int = 1) -> "Seat":
        return Seat((self + steps) & 3)


SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


class Team(IntEnum):
    NS = 0
    EW = 1

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self), Seat(self + 2))

    @property
    def other(self) -> "Team":
        return Team(1 - self)


def parse_seat(text: object) -> Seat:
    if isinstance(text, str) and text.strip().upper() in ("N", "E", "S", "W"):
        return Seat("NESW".index(text.strip().upper()))
    raise WordedError("seat_unknown", value=repr(text))


def parse_team(text: object) -> Team:
    if isinstance(text, str) and text.strip().upper() in ("NS", "EW"):
        return Team.NS if text.strip().upper() == "NS" else Team.EW
    raise ValueError(f"unknown team {text!r} (expected NS or EW)")


def describe_cards(cards: Iterable[Card]) -> str:
    return ", ".join(str(c) for c in sort_for_display(cards))
