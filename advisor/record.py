"""The ``piki-hand/1`` hand record: load, validate, replay, save, and the state as JSON.

>>> rec = HandRecord.from_json({"format": "piki-hand/1", "dealer": "N",
...                             "bids": {"N": 3, "E": 4, "S": 3, "W": 2}, "plays": ["5H"]})
>>> st = replay(rec)
>>> state_json(st)["to_act"], state_json(st)["current_trick"]
('E', [{'seat': 'N', 'card': '5H'}])
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import Any

from .bids import BidParseError, bid_to_json, parse_bid
from .cards import (
    FULL_DECK, Card, CardParseError, Seat, Team, cards_to_mask, mask_to_cards, parse_card,
    parse_seat, sort_for_display,
)
from .refusals import refusal_text
from .rules import MAX_POINTS, Rules, RulesError
from .state import HandState, IllegalEvent, Phase

FORMAT = "piki-hand/1"
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
_KNOWN_KEYS = {"format", "rules", "dealer", "score_before", "bags_before", "hands", "bids",
               "plays", "seat"}


class RecordError(ValueError):
    """A record that is not well-formed (the input is malformed, not the game illegal).

    Most say what is wrong in English only; those made by :meth:`at` (a field and the problem
    a parser found in it) or :meth:`worded_as` also in the other languages (``text(lang)``)."""

    def __init__(self, message: str, worded: tuple[str, dict] | None = None) -> None:
        super().__init__(message)
        self.worded = worded

    @classmethod
    def at(cls, where: str, problem: Exception) -> "RecordError":
        """``where: problem``, e.g. ``card: unknown card 'XX'``."""
        return cls.worded_as("at", where=where, problem=problem)

    @classmethod
    def worded_as(cls, code: str, **params: Any) -> "RecordError":
        return cls(refusal_text("en", code, params), (code, params))

    def text(self, lang: str) -> str:
        return refusal_text(lang, *self.worded) if self.worded else str(self)


@dataclass
class HandRecord:
    rules: Rules = field(default_factory=Rules)
    dealer: Seat = Seat.N
    score_before: tuple[int, int] = (0, 0)
    bags_before: tuple[int, int] = (0, 0)
    hands: dict[Seat, list[Card]] = field(default_factory=dict)
    bids: dict[Seat, int] = field(default_factory=dict)
    plays: list[Card] = field(default_factory=list)
    rules_spec: Any = "piki"
    seat: Seat | None = None  # set in records sent to outside bots
    extra: dict[str, Any] = field(default_factory=dict)

    # ----------------------------------------------------------------- parsing
    @classmethod
    def from_text(cls, text: str) -> "HandRecord":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"bad JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
        except RecursionError:
            raise RecordError("bad JSON: nested too deeply") from None
        except ValueError as e:  # e.g. an integer with more digits than Python converts
            raise RecordError(f"bad JSON: {e}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> "HandRecord":
        if not isinstance(data, dict):
            raise RecordError("a hand record must be a JSON object")
        fmt = data.get("format", FORMAT)
        if fmt != FORMAT:
            raise RecordError(f"unknown format {fmt!r} (expected {FORMAT!r})")
        rec = cls()
        rec.extra = {k: v for k, v in data.items() if k not in _KNOWN_KEYS}
        rec.rules_spec = data.get("rules", "piki")
        try:
            rec.rules = Rules.from_spec(rec.rules_spec)
        except RulesError as e:
            raise RecordError(str(e)) from None
        if "dealer" not in data:
            raise RecordError("missing field 'dealer' (N, E, S or W)")
        rec.dealer = _seat(data["dealer"], "dealer")
        if data.get("seat") is not None:
            rec.seat = _seat(data["seat"], "seat")
        rec.score_before = _team_numbers(data.get("score_before"), "score_before")
        rec.bags_before = _team_numbers(data.get("bags_before"), "bags_before")
        if any(b < 0 for b in rec.bags_before):
            raise RecordError("bags_before must not be negative")
        rec.hands = _hands(data.get("hands"))
        rec.bids = _bids(data.get("bids"))
        plays = data.get("plays", [])
        if plays is None:
            plays = []
        if not isinstance(plays, list):
            raise RecordError("'plays' must be a list of cards")
        if len(plays) > 52:
            raise RecordError(f"'plays' has {len(plays)} cards; a hand has at most 52")
        rec.plays = [_card(p, f"plays[{i}]") for i, p in enumerate(plays)]
        return rec

    # ----------------------------------------------------------------- printing
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "rules": self.rules_spec,
            "dealer": self.dealer.name,
            "score_before": {"NS": self.score_before[0], "EW": self.score_before[1]},
            "bags_before": {"NS": self.bags_before[0], "EW": self.bags_before[1]},
            "hands": {s.name: [str(c) for c in self.hands.get(s, [])] for s in _SEATS},
            "bids": {s.name: bid_to_json(self.bids[s]) for s in _SEATS if s in self.bids},
            "plays": [str(c) for c in self.plays],
        }
        if self.seat is not None:
            out["seat"] = self.seat.name
        out.update(self.extra)
        return out

    def misspelt_fields(self) -> list[tuple[str, str]]:
        """(field, the format's field it looks meant for) for each extra field that looks like a
        misspelt one. Extra fields are welcome and kept, but are not read: a ``"score"`` written
        for ``"score_before"`` would leave the score at 0 without a word.

        >>> HandRecord.from_json({"dealer": "N", "score": {"NS": 120}, "venue": "club"}).misspelt_fields()
        [('score', 'score_before')]
        """
        return [(key, meant) for key in self.extra if (meant := _field_meant(key)) is not None]

    def notes(self, lang: str = "en") -> list[str]:
        """What the record's reader should know though nothing is wrong, in ``lang``: each
        misspelt-looking field and the one it looks meant for."""
        return [refusal_text(lang, "misspelt_field", {"field": key, "meant": meant})
                for key, meant in self.misspelt_fields()]

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def new_state(self) -> HandState:
        hands = completed_hands(self.hands)
        return HandState(self.rules, self.dealer, hands, self.score_before, self.bags_before)


def _field_meant(key: str) -> str | None:
    """The format's field that ``key`` (not one of them) looks meant for: the same in other case
    or with spaces, the start of one (``"bid"``, ``"score"``), or a near spelling (``"plyas"``)."""
    k = key.strip().lower()
    if k in _KNOWN_KEYS:
        return k
    starts = sorted(known for known in _KNOWN_KEYS if len(k) >= 3 and known.startswith(k))
    if starts:
        return starts[0]
    close = difflib.get_close_matches(k, sorted(_KNOWN_KEYS), n=1, cutoff=0.8)
    return close[0] if close else None


def completed_hands(hands: dict[Seat, list[Card]]) -> dict[Seat, list[Card]]:
    """Fill in the one hand that is determined by the other three being fully known."""
    full = [s for s in _SEATS if len(hands.get(s, [])) == 13]
    if len(full) != 3:
        return hands
    missing = next(s for s in _SEATS if s not in full)
    rest = FULL_DECK & ~cards_to_mask(c for s in full for c in hands[s])
    if not cards_to_mask(hands.get(missing, [])) & ~rest:
        out = dict(hands)
        out[missing] = mask_to_cards(rest)
        return out
    return hands


def _seat(value: Any, what: str) -> Seat:
    try:
        return parse_seat(value)
    except ValueError as e:
        raise RecordError.at(what, e) from None


def _card(value: Any, where: str) -> Card:
    try:
        return parse_card(value)
    except CardParseError as e:
        raise RecordError.at(where, e) from None


def _team_numbers(value: Any, what: str) -> tuple[int, int]:
    if value is None:
        return (0, 0)
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be an object like {{\"NS\": 0, \"EW\": 0}}")
    out = [0, 0]
    for key, v in value.items():
        if key not in ("NS", "EW"):
            raise RecordError(f"{what}: unknown team {key!r} (expected NS or EW)")
        if isinstance(v, bool) or not isinstance(v, int):
            raise RecordError(f"{what}.{key} must be an integer, got {v!r}")
        if abs(v) > MAX_POINTS:
            raise RecordError(f"{what}.{key} must be between {-MAX_POINTS} and {MAX_POINTS}, got {v}")
        out[0 if key == "NS" else 1] = v
    return (out[0], out[1])


def _hands(value: Any) -> dict[Seat, list[Card]]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError("'hands' must be an object with seats N, E, S, W")
    hands: dict[Seat, list[Card]] = {}
    owner: dict[Card, Seat] = {}
    for key, cards in value.items():
        seat = _seat(key, "hands")
        if cards is None:
            continue
        if not isinstance(cards, list):
            raise RecordError(f"hands.{seat.name} must be a list of cards")
        parsed = [_card(c, f"hands.{seat.name}[{i}]") for i, c in enumerate(cards)]
        seen: set[Card] = set()
        for c in parsed:
            if c in seen:
                raise RecordError(f"{c} appears twice in {seat.name}'s hand")
            seen.add(c)
            if c in owner:
                raise RecordError(f"{c} is in two hands: {owner[c].name} and {seat.name}")
            owner[c] = seat
        if len(parsed) > 13:
            raise RecordError(f"{seat.name} has {len(parsed)} cards; a hand has 13")
        hands[seat] = parsed
    return hands


def _bids(value: Any) -> dict[Seat, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise RecordError("'bids' must be an object like {\"N\": 3, \"E\": \"blind_nil\"}")
    bids: dict[Seat, int] = {}
    for key, v in value.items():
        seat = _seat(key, "bids")
        if v is None:
            continue
        try:
            bids[seat] = parse_bid(v)
        except BidParseError as e:
            raise RecordError.at(f"bids.{seat.name}", e) from None
    return bids


# --------------------------------------------------------------------- replaying
def replay(record: HandRecord) -> HandState:
    """The state after every event of the record; raises IllegalEvent at the first bad one."""
    state = record.new_state()
    order = [state.first.next(i) for i in range(4)]
    for i, seat in enumerate(order):
        if seat not in record.bids:
            later = [s.name for s in order[i + 1:] if s in record.bids]
            if later:
                raise IllegalEvent("bid", i, seat, "bid_missing",
                                   {"seat": seat.name, "later": later, "first": order[0].name})
            break
        state.bid(record.bids[seat])
    for card in record.plays:
        state.play(card)
    return state


def check(record: HandRecord) -> list[IllegalEvent]:
    """The first illegal event of the record, as a list (empty when the record is legal)."""
    try:
        replay(record)
    except IllegalEvent as e:
        return [e]
    return []


def check_json(record: HandRecord, lang: str = "en") -> dict[str, Any]:
    """The contract's answer of ``piki check`` (and ``POST /v1/check``): ``legal``, the first
    illegal event as ``errors``, and ``notes`` (:meth:`HandRecord.notes`), in ``lang``."""
    errors = check(record)
    return {"legal": not errors, "errors": [e.to_json(lang) for e in errors], "notes": record.notes(lang)}


def state_json(state: HandState) -> dict[str, Any]:
    """The contract's answer of ``piki state``."""
    to_act = state.to_act
    phase = state.phase
    legal: list | None
    if phase is Phase.BIDDING:
        legal = [bid_to_json(b) for b in state.legal_bids()]
    elif phase is Phase.PLAY:
        cards = state.legal_cards()
        legal = None if cards is None else [str(c) for c in sort_for_display(cards)]
    else:
        legal = None
    score = state.score()
    over, winner = state.game_result()
    return {
        "phase": phase.value,
        "to_act": None if to_act is None else to_act.name,
        "legal": legal,
        "dealer": state.dealer.name,
        "bids": {s.name: bid_to_json(b) for s in _SEATS if (b := state.bids[s]) is not None},
        "spades_broken": state.spades_broken,
        "played": [str(c) for c in state.plays],
        "current_trick": [{"seat": s.name, "card": str(c)} for s, c in state.current_trick],
        "trick_number": state.trick_number if phase is Phase.PLAY else None,
        "tricks": {s.name: state.tricks[s] for s in _SEATS},
        "team_tricks": {t.name: state.team_tricks(t) for t in (Team.NS, Team.EW)},
        "completed_tricks": [
            {"leader": leader.name, "cards": [str(c) for c in cards], "winner": winner.name}
            for leader, cards, winner in state.completed_tricks()
        ],
        "voids": {s.name: [suit.name for suit in state.shown_voids(s)] for s in _SEATS},
        "score": None if score is None else {t.team.name: t.to_json() for t in score},
        "game_over": over,
        "winner": winner,
    }
