"""What one seat may see: its own hand plus the public record (bids, plays, score).

Bots and the advisor decide from a view, never from the full deal.
"""

from __future__ import annotations

from .cards import Seat, mask_to_cards
from .record import HandRecord
from .state import HandState


def seat_record(state: HandState, seat: Seat, rules_spec=None) -> HandRecord:
    """A ``piki-hand/1`` record of ``state`` that shows only ``seat``'s cards (played ones too)."""
    record = full_record(state, rules_spec)
    record.hands = {seat: record.hands.get(seat, [])}
    record.seat = seat
    return record


def full_record(state: HandState, rules_spec=None) -> HandRecord:
    """A ``piki-hand/1`` record of ``state`` with every hand it knows (played cards too)."""
    bids = {Seat(s): b for s, b in enumerate(state.bids) if b is not None}
    return HandRecord(
        rules=state.rules,
        rules_spec=rules_spec if rules_spec is not None else _rules_spec(state),
        dealer=state.dealer,
        score_before=state.points_before,
        bags_before=state.bags_before,
        hands={Seat(s): mask_to_cards(m) for s, m in enumerate(state.known) if m},
        bids=bids,
        plays=list(state.plays),
    )


def seat_view(state: HandState, seat: Seat) -> HandState:
    """A state equal to ``state`` except that only ``seat``'s hand is known."""
    view = HandState(state.rules, state.dealer, {seat: mask_to_cards(state.known[seat])},
                     state.points_before, state.bags_before)
    for s in range(4):
        b = state.bids[(state.first + s) & 3]
        if b is None:
            break
        view.bid(b)
    for card in state.plays:
        view.play(card)
    return view


def _rules_spec(state: HandState):
    from .rules import PRESETS

    for name, preset in PRESETS.items():
        if preset == state.rules:
            return name
    return state.rules.to_json()  # every field spelled out over its preset
