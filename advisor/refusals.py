"""Why the rules refuse a bid or a card, or why an input is not understood, in plain words, per
language.

The rules engine names each refusal by a code and its parameters (``IllegalEvent.code`` and
``.params``), the parsers each problem of their input (:class:`WordedError`); the words are
looked up here, so ``piki check --lang pl`` and the API's answers with ``?lang=pl`` say the same
thing in either language.

>>> refusal_text("en", "must_follow", {"seat": "E", "suit": 1, "cards": ["7H", "QH"]})
'E must follow hearts: holds 7H, QH'
>>> refusal_text("pl", "must_follow", {"seat": "E", "suit": 1, "cards": ["7H", "QH"]})
'E musi dołożyć do koloru (kiery): ma 7H, QH'
"""

from __future__ import annotations

from typing import Any

LANGS = ("en", "pl")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "bidding_over": "the bidding is over",
        "blind_nil_off": "blind nil is not played under these rules",
        "blind_nil_trails": "{seat} may not bid blind nil: {team} trails by {behind}, blind nil needs"
                            " a deficit of at least {needed}",
        "blind_nil_level": "{seat} may not bid blind nil: {team} is not behind, blind nil needs a"
                           " deficit of at least {needed}",
        "blind_nil_leads": "{seat} may not bid blind nil: {team} leads by {ahead}, blind nil needs a"
                           " deficit of at least {needed}",
        "bid_range": "a bid must be 0-13, got {bid}",
        "bid_missing": "{seat} has no bid, but {later} bid after {seat} (bidding starts with {first})",
        "bid_turn": "it is {to_act}'s turn to bid, not {seat}",
        "play_turn": "it is {to_act}'s turn to play, not {seat}",
        "play_in_bidding": "{card} is played before the bidding is over (no bid yet from {missing})",
        "hand_over": "the hand is over: all 13 tricks have been played",
        "already_played": "{card} was already played in trick {trick}",
        "in_other_hand": "{card} is in {other}'s hand, {seat} cannot play it",
        "not_held": "{seat} does not hold {card}",
        "hand_full": "{seat} cannot hold {card}: its 13 cards are already accounted for",
        "void_shown": "{shown}, so held no {suit}, but now plays {card}",
        "void_no_follow": "{seat} did not follow {led} in trick {trick}",
        "void_spade_lead": "{seat} led a spade before spades were broken in trick {trick}",
        "must_follow": "{seat} must follow {suit}: holds {cards}",
        "spades_unbroken": "spades not broken: {seat} leads {card} while holding {suits}",
        "too_many_plays": "too many plays",
        # The headline of a refusal, before its reason ("illegal play by S: …").
        "illegal_bid": "illegal bid by {seat}",
        "illegal_play": "illegal play by {seat}",
        "illegal_bid_at": "illegal bid #{number} by {seat}",
        "illegal_play_at": "illegal play #{number} (trick {trick}) by {seat}",
        # input that is not understood (malformed, not illegal)
        "at": "{where}: {problem}",
        "card_not_text": "a card must be a string like 'QH', got {value}",
        "card_unknown": "unknown card {value}",
        "bid_not_bid": "a bid must be an integer 0-13 or \"blind_nil\", got {value}",
        "bid_out_of_range": "a bid must be between 0 and 13, got {value}",
        "seat_unknown": "unknown seat {value} (expected N, E, S or W)",
        "cards_not_list": "{what} must be a list of cards",
        "card_twice": "{what}: {card} appears twice",
        "too_many_cards": "{what} has {n} cards; a hand has 13",
        "misspelt_field": "field \"{field}\" is not one of piki-hand/1's and is not read: did you mean \"{meant}\"?",
    },
    "pl": {
        "bidding_over": "licytacja już się skończyła",
        "blind_nil_off": "według tych zasad nie gra się zera w ciemno",
        "blind_nil_trails": "{seat} nie może zadeklarować zera w ciemno: {team} przegrywa o {behind} pkt, a"
                            " zero w ciemno wymaga straty co najmniej {needed} pkt",
        "blind_nil_level": "{seat} nie może zadeklarować zera w ciemno: {team} nie przegrywa, a zero w ciemno"
                           " wymaga straty co najmniej {needed} pkt",
        "blind_nil_leads": "{seat} nie może zadeklarować zera w ciemno: {team} prowadzi o {ahead} pkt, a"
                           " zero w ciemno wymaga straty co najmniej {needed} pkt",
        "bid_range": "deklaracja musi wynosić od 0 do 13, a nie {bid}",
        "bid_missing": "brak deklaracji {seat}, choć po nim licytowali już: {later} (licytację zaczyna"
                       " {first})",
        "bid_turn": "teraz licytuje {to_act}, nie {seat}",
        "play_turn": "teraz gra {to_act}, nie {seat}",
        "play_in_bidding": "{card} zagrana przed końcem licytacji (nie zgłosili jeszcze: {missing})",
        "hand_over": "rozdanie się skończyło: rozegrano wszystkie 13 lew",
        "already_played": "{card} została już zagrana w lewie {trick}",
        "in_other_hand": "{card} jest w ręce {other}, więc {seat} nie może jej zagrać",
        "not_held": "{seat} nie ma karty {card}",
        "hand_full": "{seat} nie może mieć karty {card}: znamy już wszystkie 13 kart tej ręki",
        "void_shown": "{shown}, więc nie miał koloru ({suit}), a teraz gra {card}",
        "void_no_follow": "w lewie {trick} {seat} nie dołożył do koloru ({led})",
        "void_spade_lead": "w lewie {trick} {seat} wyszedł w pika, zanim piki zostały rozbite",
        "must_follow": "{seat} musi dołożyć do koloru ({suit}): ma {cards}",
        "spades_unbroken": "piki nie są rozbite: {seat} wychodzi {card}, mając jeszcze {suits}",
        "too_many_plays": "za dużo zagranych kart",
        "illegal_bid": "niedozwolona deklaracja ({seat})",
        "illegal_play": "niedozwolone zagranie ({seat})",
        "illegal_bid_at": "niedozwolona deklaracja nr {number} ({seat})",
        "illegal_play_at": "niedozwolone zagranie nr {number} (lewa {trick}, {seat})",
        "at": "{where}: {problem}",
        "card_not_text": "karta musi być tekstem, np. 'QH', a jest {value}",
        "card_unknown": "nieznana karta {value}",
        "bid_not_bid": "deklaracja musi być liczbą 0-13 albo \"blind_nil\", a jest {value}",
        "bid_out_of_range": "deklaracja musi wynosić od 0 do 13, a nie {value}",
        "seat_unknown": "nieznane miejsce {value} (N, E, S albo W)",
        "cards_not_list": "{what}: potrzebna lista kart",
        "card_twice": "{what}: {card} występuje dwa razy",
        "too_many_cards": "{what}: kart jest {n}, a ręka ma 13",
        "misspelt_field": "pole \"{field}\" nie należy do formatu piki-hand/1 i nie jest czytane: czy chodziło o"
                          " \"{meant}\"?",
    },
}


class WordedError(ValueError):
    """Input that is not understood, named by a code of :data:`TEXTS` and its parameters;
    ``str()`` is the English words, ``text(lang)`` those of another language."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(refusal_text("en", code, params))

    def text(self, lang: str) -> str:
        return refusal_text(lang, self.code, self.params)


def words(error: BaseException, lang: str) -> str:
    """An error's words in ``lang`` where they have been written, else its (English) message."""
    text = getattr(error, "text", None)
    return text(lang) if callable(text) else str(error)


def _suit_word(lang: str, suit: int) -> str:
    from .cards import Suit  # cards' parse errors are worded here: imported late

    return Suit(suit).polish if lang == "pl" else Suit(suit).english


def _value(lang: str, key: str, value: Any) -> str:
    if key in ("suit", "led"):
        return _suit_word(lang, value)
    if key == "suits":
        return ", ".join(_suit_word(lang, s) for s in value)
    if key == "shown":  # a void shown earlier: [code, params]
        return refusal_text(lang, value[0], value[1])
    if isinstance(value, BaseException):
        return words(value, lang)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def refusal_text(lang: str, code: str, params: dict[str, Any] | None = None) -> str:
    """The words for refusal ``code`` with ``params`` in ``lang`` (English for a language it
    lacks): suits are given as numbers and named in the language, lists joined with commas."""
    table = TEXTS.get(lang, TEXTS["en"])
    params = params or {}
    return table[code].format(**{k: _value(lang, k, v) for k, v in params.items()})


def headline(lang: str, kind: str, seat: str, index: int | None = None) -> str:
    """"illegal play by S" (with ``index``, into the plays or the bidding order: counted from 1 as
    a person counts, a play with its trick) in ``lang``.

    >>> headline("en", "play", "S", 4), headline("en", "bid", "E", 0)
    ('illegal play #5 (trick 2) by S', 'illegal bid #1 by E')
    """
    if index is None:
        return refusal_text(lang, f"illegal_{kind}", {"seat": seat})
    return refusal_text(lang, f"illegal_{kind}_at", {"seat": seat, "number": index + 1, "trick": index // 4 + 1})
