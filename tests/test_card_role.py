"""What the recommended card does, named from the acting seat's own view (advisor.card_role)."""
from __future__ import annotations

import random

import pytest

from advisor.advice import analyse_play_json, own_view
from advisor.card_role import card_role, contrast
from advisor.cards import parse_card
from advisor.explain import say
from advisor.record import HandRecord, replay
from advisor.search import analyse_play

BIDS = {"N": 4, "E": 3, "S": 3, "W": 3}
NORTH = "AH KH 2H 3S 4S 5S 6D 7D 8D 9C TC JC QC".split()


def position(seat: str, hand: str, plays: str = "") -> tuple:
    """The hand state with only ``seat``'s cards known (dealer N leads under `piki`), and its seat."""
    rec = {"dealer": "N", "hands": {seat: hand.split()}, "bids": BIDS, "plays": plays.split()}
    state = replay(HandRecord.from_json(rec))
    assert "NESW"[state._to_act] == seat
    return state, state._to_act


def role(state, seat, card: str) -> str:
    return card_role(state, seat, parse_card(card))[0]


def test_leads_cash_the_top_card_or_lead_low():
    st, n = position("N", " ".join(NORTH))
    assert role(st, n, "AH") == "cash"
    assert card_role(st, n, parse_card("6D")) == ("lead_low", {"card": "6D", "suit": 2, "top": "AD"})
    assert role(st, n, "7D") == "lead_low"  # 8D kept
    assert role(st, n, "KH") == "cash"  # only N's own ace is higher
    assert card_role(st, n, parse_card("2H"))[1]["top"] == "QH"


def test_a_lead_of_the_seats_highest_or_last_card_is_not_called_low():
    st, n = position("N", " ".join(NORTH))
    # N's highest diamond and club, though higher ones are out: no higher card kept for later
    assert card_role(st, n, parse_card("8D")) == ("lead_own_top", {"card": "8D", "suit": 2, "top": "AD"})
    assert role(st, n, "QC") == "lead_own_top"
    assert "your highest card in diamonds, though AD is still out" in say("en", "lead_own_top", card="8D", suit=2,
                                                                          top="AD")
    # trick 1: N cashes AH; trick 2 (N won): N leads again, KH cashes, 2H is N's last heart
    st, n = position("N", " ".join(NORTH), "AH 3H 4H 5H")
    assert role(st, n, "KH") == "cash"
    st, n = position("N", " ".join(NORTH), "AH 3H 4H 5H KH 6H 7H 8H")
    assert card_role(st, n, parse_card("2H")) == ("lead_last", {"card": "2H", "suit": 1, "top": "QH"})
    assert "after it you are out of hearts" in say("en", "lead_last", card="2H", suit=1, top="QH")
    assert "nie masz już tego koloru" in say("pl", "lead_last", card="2H", suit=1, top="QH")


def test_leads_into_a_partners_void_or_an_opponents_void():
    # trick 1: N's 8D wins; S shows it is out of diamonds
    st, n = position("N", " ".join(NORTH), "8D 2D 3H 4D")
    assert role(st, n, "7D") == "lead_partner_ruff"
    # trick 1: N's AH wins; E shows it is out of hearts: the king is top, but E may trump it
    st, n = position("N", " ".join(NORTH), "AH 3D 4H 5H")
    assert card_role(st, n, parse_card("KH")) == ("cash_ruff_risk", {"card": "KH", "suit": 1, "seat": "E"})


def test_a_void_with_every_spade_seen_cannot_trump():
    # N holds every spade but AS 2S 3S, and all three have been played
    hand = "AH KH KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"
    # trick 1: S, out of hearts, trumps N's AH with the AS; S leads 2S, N's 3S wins trick 2
    st, n = position("N", hand, "AH 2H AS 3H 2S 2C 3S 2D")
    assert role(st, n, "KH") == "cash"  # partner is out of hearts, but has no spade left
    # the same with E trumping: the king is top and nobody can trump it
    st, n = position("N", hand, "AH AS 2H 3H 2S 2C 2D 3S")
    assert role(st, n, "KH") == "cash"
    # 3S and 2S still out: E, out of hearts, may trump the king
    hand = hand.replace("3S", "QC")
    st, n = position("N", hand, "AH AS 2H 3H 2C 3C 4C QC")
    assert role(st, n, "KH") == "cash_ruff_risk"


def test_spade_leads():
    # trick 1: S, out of diamonds, trumps N's 8D with the 2S (spades broken) and leads trick 2
    st, s = position("S", "AS 7S 2S 3S 4H 5H 6H 7H 8H 9H TH JH QH", "8D 2D 2S 4D")
    assert role(st, s, "AS") == "cash_spade"
    assert role(st, s, "7S") == "lead_spade"


@pytest.mark.parametrize("card, expected", [
    ("JC", "win_cheap"),  # the lowest club over E's ten
    ("AC", "win_top"),  # the top club still out, with W still to play
    ("QC", "win"),  # beats the ten, but the king is out and W plays after
    ("3C", "duck"),  # could win, does not
])
def test_following_suit_against_an_opponents_card(card, expected):
    st, s = position("S", "JC QC AC 3C 2H 3H 4H 5H 6H 7H 8H 9H TH", "2C TC")
    assert role(st, s, card) == expected


def test_the_top_spade_on_a_spade_lead_cannot_be_beaten():
    # trick 1: S trumps N's 8D (spades broken) and leads the 5S to trick 2
    st, w = position("W", "AS KS 3D 2H 3H 4H 5H 6H 7H 8H 9H TH JH", "8D 4D 2S 3D 5S")
    assert role(st, w, "AS") == "win_top_spade"
    assert role(st, w, "KS") == "win_cheap"  # the queen is still out, and N and E play after W


def test_last_to_play_partner_winning_and_nothing_to_beat_with():
    st, w = position("W", "JC AC 3C 2H 3H 4H 5H 6H 7H 8H 9H TH QH", "2C 4C TC")  # S's ten wins
    assert role(st, w, "JC") == "win_cheap_last"
    st, s = position("S", "2C 5C AC 3H 4H 5H 6H 7H 8H 9H TH JH QH", "KC 3C")
    assert role(st, s, "5C") == "partner_winning"
    assert role(st, s, "AC") == "overtake"
    st, s = position("S", "2C 5C 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", "3C AC")  # E's ace
    assert card_role(st, s, parse_card("2C")) == ("cannot_beat_low", {"card": "2C", "best": "AC", "suit": 3})
    assert role(st, s, "5C") == "cannot_beat"


def test_out_of_the_suit_ruff_overruff_or_discard():
    st, s = position("S", "3S 6S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "2C 9C")
    assert role(st, s, "3S") == "ruff"
    assert role(st, s, "5H") == "discard"
    st, s = position("S", "3S 6S 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "2C 5S")  # E trumped
    assert role(st, s, "6S") == "overruff"
    assert role(st, s, "3S") == "discard"


def test_every_role_reads_in_both_languages():
    st, s = position("S", "JC QC AC 3C 2H 3H 4H 5H 6H 7H 8H 9H TH", "2C TC")
    key, params = card_role(st, s, parse_card("JC"))
    assert say("en", key, **params) == "JC is the cheapest card that beats TC."
    assert say("pl", key, **params) == "JC to najtańsza karta, która bije TC."
    st, n = position("N", " ".join(NORTH))
    key, params = card_role(st, n, parse_card("8D"))
    assert "diamonds" in say("en", key, **params) and "kara" in say("pl", key, **params)


def test_the_advice_says_what_its_card_does_and_what_the_other_choice_costs():
    rec = {"dealer": "N", "hands": {"S": "JC QC AC 3C 2H 3H 4H 5H 6H 7H 8H 9H TH".split()}, "bids": BIDS,
           "plays": ["2C", "TC"]}
    state = replay(HandRecord.from_json(rec))
    view = own_view(state)
    out = analyse_play_json(state, seed=3, time_budget=0.3)
    key, params = card_role(view, 2, parse_card(out["card"]))
    assert say("en", key, **params) in out["explanation"]
    # a time budget is not a sample count: under load the second call may pick another card, so each
    # explanation is checked against the role of the card it recommends
    pl = analyse_play_json(state, seed=3, time_budget=0.3, lang="pl")
    key, params = card_role(view, 2, parse_card(pl["card"]))
    assert say("pl", key, **params) in pl["explanation"]
    # the contrast: the best card that does the opposite (wins the trick or lets it go), by its value
    analysis = analyse_play(view, time_budget=0.3, rng=random.Random(3))
    best = analysis.moves[0]
    wins = best.card in [parse_card(c) for c in ("JC", "QC", "AC")]
    others = [m for m in analysis.moves if (m.card in [parse_card(c) for c in ("JC", "QC", "AC")]) != wins]
    alt = max(others, key=lambda m: m.value)
    got = contrast(view, 2, best, analysis.moves)
    if best.points - alt.points < 0.5:
        assert got is None
    else:
        assert got == ("contrast_duck" if wins else "contrast_win", {"card": str(alt.card), "gap": best.points - alt.points})


def test_no_contrast_on_a_lead():
    st, n = position("N", " ".join(NORTH))
    analysis = analyse_play(st, time_budget=0.1, rng=random.Random(1))
    assert contrast(st, n, analysis.moves[0], analysis.moves) is None
