"""From camera frames to game events: when does a card seen on the table count as played?

Pure logic, no images: each call gets the scan of one frame (the ``piki scan`` object: ``cards``
with ``card``, ``confidence``, ``zone``) and the current :class:`advisor.state.HandState`.

A card counts as played (a *confirmed* event the caller stores) only when

* it is new: not yet in the state's plays, not already asked about;
* it lies in the table zone with enough confidence for ``stable_frames`` frames in a row (with
  no known hand in view, a card read in the hand zone that no hand the game knows holds counts
  as on the table: up to four such cards, a trick's worth);
* it is the only such new card (two at once: whose was first is unknown → question);
* playing it now is legal for the seat whose turn it is (else → question with the reason).

While it is not yet stable it is reported as *proposed* (shown, never stored). After a trick's
fourth card the trick is complete in the state, but the tracker waits until the table has been
clear of that trick's cards for ``clear_frames`` frames before it accepts the next lead (a card
seen on the table meanwhile is held, then accepted once the old cards are gone). Anything
ambiguous becomes a *question* for the user (confirm by typing the play, or reject); a question
is never guessed into the state.

>>> from advisor.record import HandRecord, replay
>>> st = replay(HandRecord.from_json({"dealer": "N", "bids": {"N": 3, "E": 3, "S": 3, "W": 3}}))
>>> tr = FrameTracker(stable_frames=2)
>>> scan = {"cards": [{"card": "5H", "zone": "table", "confidence": 0.9}]}
>>> [e["status"] for e in tr.update(scan, st)["events"]]
['proposed']
>>> [(e["status"], e["seat"], e["card"]) for e in tr.update(scan, st)["events"]]
[('confirmed', 'N', '5H')]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from advisor.cards import CardParseError, parse_card
from advisor.explain import counted
from advisor.refusals import LANGS, refusal_text
from advisor.state import HandState, IllegalEvent, Phase

# What the tracker asks and warns about, per language; a question keeps its words in every
# language (``reasons``), a frame's warnings and event reasons come in the language asked for.
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "hand": "Are these your 13 cards ({seat})?",
        "seen_in_bidding": "{cards} seen on the table but the bidding is not finished",
        "seen_after_hand": "{cards} seen on the table but the hand is over",
        "several": "{n} new cards at once ({cards}): which did {seat} play? Type the plays in order.",
        "last_trick_on_table": "the last trick is still on the table",
        "played_earlier": "{card} is on the table but was played in an earlier trick",
    },
    "pl": {
        "hand": "Czy to twoje 13 kart ({seat})?",
        "seen_in_bidding": "{cards} widać na stole, ale licytacja jeszcze trwa",
        "seen_after_hand": "{cards} widać na stole, ale rozdanie się skończyło",
        "several": "{n} {new_cards} naraz ({cards}): którą zagrał {seat}? Wpisz zagrania po kolei.",
        "last_trick_on_table": "poprzednia lewa wciąż leży na stole",
        "played_earlier": "{card} leży na stole, ale została zagrana we wcześniejszej lewie",
    },
}
_NEW_CARDS = {"en": ("new card", "new cards"), "pl": ("nowa karta", "nowe karty", "nowych kart")}


def tracker_text(lang: str, code: str, params: dict[str, Any]) -> str:
    """The words of a tracker message (or of the rules' refusal it passes on) in ``lang``.

    >>> tracker_text("pl", "several", {"n": 5, "cards": ["2H", "3H", "4H", "5H", "6H"], "seat": "W"})
    '5 nowych kart naraz (2H, 3H, 4H, 5H, 6H): którą zagrał W? Wpisz zagrania po kolei.'
    """
    table = TEXTS.get(lang, TEXTS["en"])
    if code not in table:
        return refusal_text(lang, code, params)
    words = {k: ", ".join(v) if isinstance(v, list) else v for k, v in params.items()}
    if "n" in params:
        words["new_cards"] = counted(lang, params["n"], _NEW_CARDS)
    return table[code].format(**words)


@dataclass
class FrameTracker:
    stable_frames: int = 3
    clear_frames: int = 2
    min_confidence: float = 0.5
    frame: int = 0
    streak: dict[str, int] = field(default_factory=dict)  # card -> consecutive frames on table
    clearing: list[str] = field(default_factory=list)  # cards of the last complete trick
    clear_count: int = 0
    questions: list[dict[str, Any]] = field(default_factory=list)
    asked: list[str] = field(default_factory=list)  # cards with an open or rejected question
    next_id: int = 1
    trick_count: int = 0  # completed tricks the tracker has seen in the state
    hand_streak: dict[str, int] = field(default_factory=dict)  # card -> frames in the hand zone
    hand_asked: list[str] = field(default_factory=list)  # the last hand proposed to the user

    # ------------------------------------------------------------- persistence
    def to_json(self) -> dict[str, Any]:
        return {
            "stable_frames": self.stable_frames, "clear_frames": self.clear_frames,
            "min_confidence": self.min_confidence, "frame": self.frame,
            "streak": dict(self.streak), "clearing": list(self.clearing),
            "clear_count": self.clear_count, "questions": list(self.questions),
            "asked": list(self.asked), "next_id": self.next_id, "trick_count": self.trick_count,
            "hand_streak": dict(self.hand_streak), "hand_asked": list(self.hand_asked),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> "FrameTracker":
        if not data:
            return cls()
        known = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in known})

    # ------------------------------------------------------------- questions
    def resolve(self, question_id: int, accepted: bool = False) -> dict[str, Any] | None:
        """Close a question. Rejected: its cards stay ignored. Accepted (the user recorded the
        play): the question's other cards are watched again, e.g. the next seat's card that
        appeared in the same frame."""
        for i, q in enumerate(self.questions):
            if q["id"] == question_id:
                if accepted:
                    self.asked = [c for c in self.asked if c not in q["cards"]]
                return self.questions.pop(i)
        return None

    def _ask(self, kind: str, cards: list[str], seat: str | None, code: str, params: dict[str, Any],
             ignore_cards: bool = True) -> dict[str, Any]:
        """A new question; ``reason`` is its English words, ``reasons`` the words per language."""
        reasons = {lang: tracker_text(lang, code, params) for lang in LANGS}
        q = {"id": self.next_id, "kind": kind, "cards": cards, "seat": seat, "reason": reasons["en"],
             "reasons": reasons, "frame": self.frame}
        self.next_id += 1
        self.questions.append(q)
        if ignore_cards:
            for c in cards:
                if c not in self.asked:
                    self.asked.append(c)
        return q

    # ------------------------------------------------------------- one frame
    @staticmethod
    def _move_strays_to_table(hand: list[str], table: list[str], state: HandState) -> None:
        """Where the game knows whose cards are held and no known hand is in view, a card read in
        the hand zone that no known hand holds is a card on the table whose zone the scan
        misjudged (a trick's cards heaped together look like a fan). Only a few such cards: a
        whole fan of them is another player's hand in view. With the user's fan in view a stray
        may be a misread of one of its cards, so it is left alone."""
        held = {str(c) for seat in range(4) if state.complete[seat] for c in state.holding(seat)}
        if not held or sum(c in held for c in hand) > 2:
            return
        strays = [c for c in hand if c not in held]
        if 0 < len(strays) <= 4:
            for c in strays:
                hand.remove(c)
                if c not in table:
                    table.append(c)

    def update(self, scan: dict[str, Any], state: HandState,
               hand_seat: str | None = None, lang: str = "en") -> dict[str, Any]:
        """Feed one frame; returns ``events`` (proposed/confirmed plays, trick_closed),
        new ``questions``, ``table`` (cards seen there) and ``warnings``.

        ``hand_seat``: the user's seat when the game does not know the user's cards yet; 13
        cards held steadily in the hand zone are then proposed as that hand (a question).
        ``lang``: the language of the warnings and the events' reasons."""
        self.frame += 1
        events: list[dict[str, Any]] = []
        new_questions: list[dict[str, Any]] = []
        warnings: list[str] = []

        table: list[str] = []
        hand: list[str] = []
        for det in scan.get("cards") or []:
            try:
                card = str(parse_card(det.get("card")))
                conf = float(det.get("confidence", 1.0))
            except (CardParseError, AttributeError, TypeError, ValueError):
                continue
            if conf < self.min_confidence:
                continue
            into = table if det.get("zone", "table") == "table" else hand
            if card not in into:
                into.append(card)

        self._move_strays_to_table(hand, table, state)
        self.hand_streak = {c: self.hand_streak.get(c, 0) + 1 for c in hand}
        if hand_seat is not None:
            steady = sorted(c for c, n in self.hand_streak.items() if n >= self.stable_frames)
            if len(steady) == 13 and steady != sorted(self.hand_asked):
                self.hand_asked = steady
                new_questions.append(self._ask(
                    "hand", steady, hand_seat, "hand", {"seat": hand_seat}, ignore_cards=False))

        for c in list(self.streak):
            if c not in table:
                del self.streak[c]
        for c in table:
            self.streak[c] = self.streak.get(c, 0) + 1

        # A trick completed in the state since the last frame: its cards must leave the table.
        done = len(state.completed_tricks())
        if done > self.trick_count:
            last = state.completed_tricks()[-1]
            self.clearing = [str(c) for c in last[1]]
            self.clear_count = 0
        elif done < self.trick_count:  # an undo went back over a trick
            self.clearing = []
        self.trick_count = done
        if self.clearing:
            if any(c in table for c in self.clearing):
                self.clear_count = 0
            else:
                self.clear_count += 1
                if self.clear_count >= self.clear_frames:
                    winner = state.completed_tricks()[-1][2].name if done else None
                    events.append({"type": "trick_closed", "status": "confirmed",
                                   "trick": done, "winner": winner})
                    self.clearing = []

        played = {str(c) for c in state.plays}
        fresh = [c for c in table if c not in played and c not in self.asked]
        for c in table:
            if c in played and c not in self.clearing and c not in {
                    str(x) for _, x in state.current_trick}:
                warnings.append(tracker_text(lang, "played_earlier", {"card": c}))

        if not fresh:
            return self._result(events, new_questions, table, warnings)
        if state.phase is not Phase.PLAY:
            stable = [c for c in fresh if self.streak[c] >= self.stable_frames]
            if stable:
                code = "seen_in_bidding" if state.phase is Phase.BIDDING else "seen_after_hand"
                new_questions.append(self._ask("not_in_play", stable, None, code, {"cards": stable}))
            return self._result(events, new_questions, table, warnings)

        seat = state.to_act.name
        if self.clearing:
            for c in fresh:
                events.append({"type": "play", "status": "waiting", "seat": seat, "card": c,
                               "reason": tracker_text(lang, "last_trick_on_table", {})})
            return self._result(events, new_questions, table, warnings)

        stable = [c for c in fresh if self.streak[c] >= self.stable_frames]
        if len(stable) >= 2:
            new_questions.append(self._ask("several", sorted(stable), seat, "several",
                                           {"n": len(stable), "cards": sorted(stable), "seat": seat}))
            return self._result(events, new_questions, table, warnings)

        for c in fresh:
            refusal = _refusal(state, c)
            if c in stable:
                if refusal is None:
                    events.append({"type": "play", "status": "confirmed", "seat": seat, "card": c})
                    del self.streak[c]
                else:
                    new_questions.append(self._ask("illegal", [c], seat, refusal.code, refusal.params))
            else:
                ev = {"type": "play", "status": "proposed", "seat": seat, "card": c,
                      "frames": self.streak[c], "needed": self.stable_frames}
                if refusal is not None:
                    ev["reason"] = refusal.reason_in(lang)
                events.append(ev)
        return self._result(events, new_questions, table, warnings)

    def _result(self, events, new_questions, table, warnings) -> dict[str, Any]:
        return {"frame": self.frame, "events": events, "questions": new_questions,
                "open_questions": list(self.questions), "table": table, "warnings": warnings}


def _refusal(state: HandState, card: str) -> IllegalEvent | None:
    """Why ``card`` may not be played now by the seat to act, or None when it may."""
    trial = state.clone()
    try:
        trial.play(parse_card(card))
    except IllegalEvent as e:
        return e
    return None


def confirmed_plays(result: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of one frame result that the caller must store."""
    return [e for e in result["events"] if e["type"] == "play" and e["status"] == "confirmed"]

