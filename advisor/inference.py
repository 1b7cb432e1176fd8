"""Sampling the hidden hands: deals consistent with what one seat knows.

A sampled deal respects the observer's own cards, every card played and by whom, the voids each
seat has shown, any other cards known to be in a hand, and how many cards each seat still holds.
Deals are weighted by how well each hand fits its owner's bid, then resampled.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from .bids import BLIND_NIL
from .cards import FULL_DECK, mask_to_cards
from .handeval import estimate_tricks, nil_risk
from .state import HandState

BID_SIGMA = 1.6  # how far (in tricks) a bid typically is from our estimate of the hand


class NoConsistentDeal(ValueError):
    """The known facts admit no deal (e.g. contradictory voids)."""


@dataclass(frozen=True)
class SampledDeal:
    remaining: tuple[int, int, int, int]  # cards each seat still holds
    initial: tuple[int, int, int, int]  # the 13 cards each seat was dealt


def played_by(state: HandState) -> list[int]:
    out = [0, 0, 0, 0]
    for seat, card in zip(state.play_seats, state.plays):
        out[seat] |= 1 << card
    return out


def bid_likelihood(bid: int | None, hand: int) -> float:
    """How plausible ``bid`` is for a 13-card ``hand`` (unnormalised)."""
    if bid is None or bid == BLIND_NIL:
        return 1.0
    if bid == 0:
        return math.exp(-2.5 * nil_risk(hand))
    d = estimate_tricks(hand) - bid
    return math.exp(-d * d / (2 * BID_SIGMA * BID_SIGMA))


def _assign(pool_cards: list[int], need: list[int], voids: list[int], rng: random.Random) -> list[int] | None:
    """Deal ``pool_cards`` so that seat s gets need[s] cards and none of its void suits."""
    hands = [0, 0, 0, 0]
    cap = list(need)
    eligible = []
    for c in pool_cards:
        suit = c // 13
        seats = [s for s in range(4) if cap[s] > 0 and not voids[s] >> suit & 1]
        if not seats:
            return None
        eligible.append((len(seats), rng.random(), c, seats))
    eligible.sort()  # most constrained cards first
    for _, _, c, seats in eligible:
        open_seats = [s for s in seats if cap[s] > 0]
        if not open_seats:
            return None
        total = sum(cap[s] for s in open_seats)
        pick = rng.random() * total
        for s in open_seats:
            pick -= cap[s]
            if pick < 0:
                break
        hands[s] |= 1 << c
        cap[s] -= 1
    return hands


def sample_deals(
    state: HandState, observer: int, n: int, rng: random.Random,
    *, oversample: int = 4, hide_observer: bool = False,
) -> list[SampledDeal]:
    """``n`` deals (drawn with replacement from ``oversample * n`` weighted candidates).

    With ``hide_observer`` the observer's own unplayed cards are treated as unknown too (used for
    blind nil, which must be judged without looking).
    """
    by_seat = played_by(state)
    known_rest = list(state.held)
    if hide_observer:
        known_rest[observer] = 0
    known_all = 0
    for s in range(4):
        known_all |= known_rest[s]
    need = [13 - by_seat[s].bit_count() - known_rest[s].bit_count() for s in range(4)]
    if any(x < 0 for x in need):
        raise NoConsistentDeal("a seat has more than 13 cards accounted for")
    pool = FULL_DECK & ~state.played & ~known_all
    pool_cards = [int(c) for c in mask_to_cards(pool)]
    if len(pool_cards) != sum(need):
        raise NoConsistentDeal("the unseen cards do not match the cards the seats still hold")
    voids = list(state.voids)
    bids = state.bids
    weigh = any(bids[s] is not None for s in range(4) if s != observer or hide_observer)
    candidates: list[tuple[float, SampledDeal]] = []
    attempts = 0
    target = n * (oversample if weigh else 1)
    while len(candidates) < target:
        attempts += 1
        if attempts > 50 * target + 200:
            if candidates:
                break
            raise NoConsistentDeal("no deal fits the voids shown and the cards known")
        hands = _assign(pool_cards, need, voids, rng)
        if hands is None:
            continue
        remaining = tuple(known_rest[s] | hands[s] for s in range(4))
        initial = tuple(remaining[s] | by_seat[s] for s in range(4))
        w = 1.0
        if weigh:
            for s in range(4):
                if s != observer or hide_observer:
                    w *= bid_likelihood(bids[s], initial[s])
        candidates.append((w, SampledDeal(remaining, initial)))  # type: ignore[arg-type]
    if not weigh:
        return [d for _, d in candidates[:n]]
    weights = [w for w, _ in candidates]
    if sum(weights) <= 0:
        weights = [1.0] * len(candidates)
    # Draw without replacement, proportionally to weight (Efraimidis–Spirakis keys).
    keyed = sorted(candidates, key=lambda wd: -(rng.random() ** (1.0 / max(wd[0], 1e-12))))
    return [d for _, d in keyed[:n]]
