"""Bids: an int 0–13 (0 is nil) or ``BLIND_NIL``.

>>> parse_bid("blind_nil") == BLIND_NIL, parse_bid(4), bid_to_json(BLIND_NIL)
(True, 4, 'blind_nil')
"""

from __future__ import annotations

from .refusals import WordedError

BLIND_NIL = -1
NIL = 0
MAX_BID = 13


class BidParseError(WordedError):
    """A value that is not a bid."""


def parse_bid(value: object) -> int:
    if isinstance(value, str):
        v = value.strip().lower()
        if v in ("blind_nil", "blind nil", "blind-nil", "bn", "zero w ciemno"):
            return BLIND_NIL
        if v in ("nil", "zero"):
            return NIL
        if v.isdigit():
            value = int(v)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BidParseError("bid_not_bid", value=repr(value))
    if not 0 <= value <= MAX_BID:
        raise BidParseError("bid_out_of_range", value=value)
    return value


def is_nil(bid: int) -> bool:
    return bid <= 0


def bid_to_json(bid: int) -> int | str:
    return "blind_nil" if bid == BLIND_NIL else bid


def describe_bid(bid: int) -> str:
    if bid == BLIND_NIL:
        return "blind nil"
    return "nil" if bid == NIL else str(bid)
