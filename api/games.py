"""Live games: the event log of a game, its replay into hand records, and the operations on it.

A game spans one or more hands. Its log holds these events (JSON objects):

* ``{"type": "bid", "seat": "N", "bid": 3}`` (bid may be ``"blind_nil"``)
* ``{"type": "play", "seat": "E", "card": "KH", "source": "typed" | "camera"}``
* ``{"type": "hand", "seat": "S", "cards": [...]}`` — the known cards of a seat in this hand
* ``{"type": "next_hand", "cards": [...] | null}`` — start the next hand: score and bags carried,
  dealer rotated one seat to the left; ``cards`` is the user's new hand when known
* ``{"type": "undo"}`` — cancels the latest event still in effect (of any of the kinds above)

Every operation validates the event against the rules *before* it is stored; an illegal event
raises :class:`advisor.state.IllegalEvent` and nothing is written.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Callable

from advisor.bids import bid_to_json, parse_bid, BidParseError
from advisor.cards import Seat, mask_to_cards, parse_card, parse_seat, CardParseError, sort_for_display
from advisor.record import HandRecord, RecordError, replay, state_json
from advisor.state import HandState, IllegalEvent, Phase

from .messages import WordedProblem
from .storage import Conflict, Storage

_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


class GameConflict(WordedProblem):
    """An operation that does not fit the game's situation (nothing to undo, hand not over…)."""


def new_game_id() -> str:
    return secrets.token_urlsafe(16)


def _cards(values: Any, what: str) -> list[str]:
    if not isinstance(values, list):
        raise RecordError.worded_as("cards_not_list", what=what)
    out = []
    for i, v in enumerate(values):
        try:
            out.append(str(parse_card(v)))
        except CardParseError as e:
            raise RecordError.at(f"{what}[{i}]", e) from None
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise RecordError.worded_as("card_twice", what=what, card=dup)
    if len(out) > 13:
        raise RecordError.worded_as("too_many_cards", what=what, n=len(out))
    return out


def validate_meta(body: dict[str, Any]) -> dict[str, Any]:
    """The metadata of a new game, checked by building its first hand record."""
    user_seat = body.get("user_seat")
    if user_seat is not None:
        try:
            user_seat = parse_seat(user_seat).name
        except ValueError as e:
            raise RecordError.at("user_seat", e) from None
    hand = body.get("hand")
    if hand is not None:
        hand = _cards(hand, "hand")
        if user_seat is None:
            raise RecordError("a known 'hand' needs 'user_seat' (whose cards they are)")
    meta = {
        "rules": body.get("rules") if body.get("rules") is not None else "piki",
        "dealer": body.get("dealer"),
        "user_seat": user_seat,
        "score_before": body.get("score_before") or {"NS": 0, "EW": 0},
        "bags_before": body.get("bags_before") or {"NS": 0, "EW": 0},
        "hand": hand,
        "name": body.get("name"),
    }
    rec = HandRecord.from_json({
        "format": "piki-hand/1", "rules": meta["rules"], "dealer": meta["dealer"],
        "score_before": meta["score_before"], "bags_before": meta["bags_before"],
        "hands": {user_seat: hand} if hand else {},
    })
    meta["dealer"] = rec.dealer.name
    meta["score_before"] = {"NS": rec.score_before[0], "EW": rec.score_before[1]}
    meta["bags_before"] = {"NS": rec.bags_before[0], "EW": rec.bags_before[1]}
    return meta


@dataclass
class Game:
    """A game replayed from its log: the records of its hands, the last one in progress."""

    id: str
    created: float
    meta: dict[str, Any]
    log: list[dict[str, Any]]
    effective: list[dict[str, Any]] = field(default_factory=list)
    records: list[HandRecord] = field(default_factory=list)
    tracker: dict[str, Any] | None = None

    @property
    def seq(self) -> int:
        return len(self.log)

    @property
    def record(self) -> HandRecord:
        return self.records[-1]

    @property
    def user_seat(self) -> Seat | None:
        s = self.meta.get("user_seat")
        return None if s is None else parse_seat(s)

    def state(self) -> HandState:
        return replay(self.record)

    def view(self) -> dict[str, Any]:
        """The ``piki state`` object of the current hand plus the game's id and metadata."""
        st = self.state()
        out = state_json(st)
        user = self.user_seat
        out.update({
            "game_id": self.id,
            "created": self.created,
            "name": self.meta.get("name"),
            "user_seat": None if user is None else user.name,
            "user_to_act": user is not None and st.to_act == user,
            "user_hand": (None if user is None or user not in self.record.hands
                          else [str(c) for c in st.holding(user)]),
            # with the user's hand only partly known (a card the camera missed) the contract's
            # "legal" is null: the known cards the user may play, so the page can offer them
            "user_legal_known": (None if user is None or st.to_act != user or st.phase is not Phase.PLAY
                                 or st.complete[user] or not st.held[user]
                                 else [str(c) for c in sort_for_display(mask_to_cards(st.legal_for(st.held[user])))]),
            "hand_number": len(self.records),
            "seq": self.seq,
            "can_undo": bool(self.effective),
            "can_start_next_hand": st.phase is Phase.DONE and not st.game_result()[0],
            "record": self.record.to_json(),
            "questions": list((self.tracker or {}).get("questions", [])),
        })
        return out


def first_record(meta: dict[str, Any]) -> HandRecord:
    user = meta.get("user_seat")
    return HandRecord.from_json({
        "format": "piki-hand/1", "rules": meta["rules"], "dealer": meta["dealer"],
        "score_before": meta["score_before"], "bags_before": meta["bags_before"],
        "hands": {user: meta["hand"]} if meta.get("hand") and user else {},
    })


def next_record(prev: HandRecord, user_seat: str | None, cards: list[str] | None) -> HandRecord:
    st = replay(prev)
    score = st.score()
    if score is None:
        raise GameConflict("hand_not_over")
    over, winner = st.game_result()
    if over:
        raise GameConflict("game_drawn") if winner == "draw" else GameConflict("game_over", winner=winner)
    return HandRecord.from_json({
        "format": "piki-hand/1", "rules": prev.rules_spec, "dealer": prev.dealer.next().name,
        "score_before": {"NS": score[0].points, "EW": score[1].points},
        "bags_before": {"NS": score[0].bags, "EW": score[1].bags},
        "hands": {user_seat: cards} if cards and user_seat else {},
    })


def apply_event(records: list[HandRecord], meta: dict[str, Any], ev: dict[str, Any]) -> None:
    """Add one (already validated) event to the records, in place."""
    t = ev["type"]
    rec = records[-1]
    if t == "bid":
        rec.bids[parse_seat(ev["seat"])] = parse_bid(ev["bid"])
    elif t == "play":
        rec.plays.append(parse_card(ev["card"]))
    elif t == "hand":
        rec.hands[parse_seat(ev["seat"])] = [parse_card(c) for c in ev["cards"]]
    elif t == "next_hand":
        records.append(next_record(rec, meta.get("user_seat"), ev.get("cards")))


def build(row_id: str, created: float, meta: dict[str, Any], log: list[dict[str, Any]],
          tracker: dict[str, Any] | None = None) -> Game:
    effective: list[dict[str, Any]] = []
    for ev in log:
        if ev.get("type") == "undo":
            if effective:
                effective.pop()
        else:
            effective.append(ev)
    records = [first_record(meta)]
    for ev in effective:
        apply_event(records, meta, ev)
    return Game(row_id, created, meta, log, effective, records, tracker)


def _copy_records(records: list[HandRecord]) -> list[HandRecord]:
    return [HandRecord.from_json(r.to_json()) for r in records]


class GameService:
    """The operations of the ``/v1/games`` endpoints on top of a :class:`Storage`."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ------------------------------------------------------------------ reading
    def create(self, body: dict[str, Any]) -> Game:
        meta = validate_meta(body)
        gid = new_game_id()
        self.storage.create_game(gid, meta)
        return self.load(gid)

    def load(self, game_id: str) -> Game:
        row = self.storage.game(game_id)
        return build(row.id, row.created, row.meta, self.storage.events(game_id), row.tracker)

    # ------------------------------------------------------------------ writing
    def _store(self, game: Game, make_event: Callable[[Game], dict[str, Any]]) -> Game:
        """Append the event ``make_event`` builds from ``game`` after validating it.

        When another request stored an event first, the game is read again and the event built
        again from the request as it came (a bid that named no seat is the next bidder's bid), so
        its checks see the game as it is now; tried three times in all.
        """
        for attempt in range(3):
            ev = make_event(game)
            records = _copy_records(game.records)
            apply_event(records, game.meta, ev)
            replay(records[-1])  # raises IllegalEvent: nothing stored
            try:
                self.storage.append_event(game.id, game.seq, ev)
            except Conflict:
                if attempt == 2:
                    raise
                game = self.load(game.id)
                continue
            # stored at position game.seq: the log is now exactly the one read plus ev
            return Game(game.id, game.created, game.meta, game.log + [ev], game.effective + [ev],
                        records, game.tracker)
        raise AssertionError("unreachable")  # pragma: no cover

    def _bid_event(self, game: Game, bid: Any, seat: Any) -> dict[str, Any]:
        try:
            b = parse_bid(bid)
        except BidParseError as e:
            raise RecordError.at("bid", e) from None
        st = game.state()
        if st.phase is not Phase.BIDDING:
            raise IllegalEvent("bid", 4, st.to_act or Seat.N, "bidding_over", bid=b)
        to_act = st.to_act
        if seat is not None:
            try:
                s = parse_seat(seat)
            except ValueError as e:
                raise RecordError.at("seat", e) from None
            if s != to_act:
                idx = sum(1 for x in st.bids if x is not None)
                raise IllegalEvent("bid", idx, s, "bid_turn", {"to_act": to_act.name, "seat": s.name},
                                   bid=b)
        return {"type": "bid", "seat": to_act.name, "bid": bid_to_json(b)}

    def _play_event(self, game: Game, card: Any, seat: Any, source: str) -> dict[str, Any]:
        try:
            c = parse_card(card)
        except CardParseError as e:
            raise RecordError.at("card", e) from None
        st = game.state()
        to_act = st.to_act
        if seat is not None and to_act is not None:
            try:
                s = parse_seat(seat)
            except ValueError as e:
                raise RecordError.at("seat", e) from None
            if s != to_act:
                raise IllegalEvent("play", len(st.plays), s, "play_turn",
                                   {"to_act": to_act.name, "seat": s.name}, card=c)
        return {"type": "play", "seat": None if to_act is None else to_act.name, "card": str(c),
                "source": source}

    def bid(self, game_id: str, bid: Any, seat: Any = None) -> Game:
        return self._store(self.load(game_id), lambda g: self._bid_event(g, bid, seat))

    def play(self, game_id: str, card: Any, seat: Any = None, source: str = "typed") -> Game:
        return self._store(self.load(game_id), lambda g: self._play_event(g, card, seat, source))

    def set_hand(self, game_id: str, cards: Any, seat: Any = None) -> Game:
        game = self.load(game_id)
        if seat is None:
            if game.user_seat is None:
                raise RecordError("'seat' is needed: the game has no user_seat")
            s = game.user_seat
        else:
            try:
                s = parse_seat(seat)
            except ValueError as e:
                raise RecordError.at("seat", e) from None
        ev = {"type": "hand", "seat": s.name, "cards": _cards(cards, "cards")}

        def checked(g: Game) -> dict[str, Any]:
            # no card in two hands (RecordError, 422); what the seat already played must be
            # among its cards (checked by the replay in _store: IllegalEvent, 409)
            records = _copy_records(g.records)
            apply_event(records, g.meta, ev)
            HandRecord.from_json(records[-1].to_json())
            return ev

        return self._store(game, checked)

    def undo(self, game_id: str) -> Game:
        game = self.load(game_id)
        if not game.effective:
            raise GameConflict("nothing_to_undo")
        self.storage.append_event(game.id, game.seq, {"type": "undo"})
        game = self.load(game_id)
        return game

    def next_hand(self, game_id: str, cards: Any = None) -> Game:
        game = self.load(game_id)
        ev: dict[str, Any] = {"type": "next_hand", "cards": None}
        if cards is not None:
            if game.user_seat is None:
                raise RecordError("a known hand for the next hand needs the game's user_seat")
            ev["cards"] = _cards(cards, "cards")

        def checked(g: Game) -> dict[str, Any]:
            next_record(g.record, g.meta.get("user_seat"), ev["cards"])  # raises GameConflict
            return ev

        return self._store(game, checked)

    def hands(self, game_id: str) -> list[dict[str, Any]]:
        game = self.load(game_id)
        out = []
        for i, rec in enumerate(game.records):
            st = replay(rec)
            score = st.score()
            over, winner = st.game_result()
            out.append({
                "hand_number": i + 1,
                "dealer": rec.dealer.name,
                "phase": st.phase.value,
                "score_before": {"NS": rec.score_before[0], "EW": rec.score_before[1]},
                "bags_before": {"NS": rec.bags_before[0], "EW": rec.bags_before[1]},
                "score": None if score is None else {t.team.name: t.to_json() for t in score},
                "game_over": over,
                "winner": winner,
                "record": rec.to_json(),
            })
        return out
