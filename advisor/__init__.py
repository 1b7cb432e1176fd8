"""Pure game logic of piki: cards, rules, hand state, scoring, records, and the advisor."""

from .bids import BLIND_NIL, NIL, parse_bid
from .cards import CARDS, Card, Seat, Suit, Team, parse_card
from .record import HandRecord, RecordError, check, replay, state_json
from .rules import PRESETS, Rules
from .state import HandState, IllegalEvent, Phase

__all__ = [
    "BLIND_NIL", "NIL", "parse_bid", "CARDS", "Card", "Seat", "Suit", "Team", "parse_card",
    "HandRecord", "RecordError", "check", "replay", "state_json", "PRESETS", "Rules",
    "HandState", "IllegalEvent", "Phase",
]
