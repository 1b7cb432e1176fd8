"""The counter bot (advisor.bots.counter), the second rule-based opponent: its trick count and
nil rule, and its play in constructed positions (nil cover, nil busting, make / set / duck)."""

from __future__ import annotations

import random

from advisor.bots import get_bot
from advisor.bots.counter import choose_bid, count_tricks, nil_fit, sure_spade_tricks
from advisor.bots.knowledge import Knowledge
from advisor.cards import CARDS, Seat, cards_to_mask, parse_card
from advisor.match import BotSpec, MatchConfig, run_match
from advisor.rules import Rules
from advisor.state import HandState
from advisor.view import seat_view
from test_bots import position


def mask(text: str) -> int:
    return cards_to_mask(parse_card(t) for t in text.split())


def act(st: HandState) -> str:
    return str(get_bot("counter").act(seat_view(st, st.to_act)))


def bid_for(hand: str, seat: Seat, bids_before: list[int]) -> int:
    """The counter bot's bid holding ``hand`` at ``seat`` after ``bids_before`` (dealer N, who
    bids first under `piki`), the other hands dealt from the rest of the deck."""
    rest = [CARDS[c] for c in range(52) if not mask(hand) >> c & 1]
    random.Random(1).shuffle(rest)
    hands = {}
    for s in Seat:
        hands[s] = [parse_card(t) for t in hand.split()] if s is seat else [rest.pop() for _ in range(13)]
    st = HandState(Rules(), Seat.N, hands)
    for b in bids_before:
        st.bid(b)
    assert st.to_act is seat
    return choose_bid(seat_view(st, seat))


# ---------------------------------------------------------------- bidding
def test_count_values_ruffs_spade_quality_and_guarded_honours():
    assert count_tricks(mask("AS KS 2S AH KH 3H 4D 5D 6D 7C 8C 9C TC")) == 4.0
    # a void takes two spades for ruffing; the two highest stay for drawing trumps
    assert count_tricks(mask("AS KS 5S 2S AH KH 3H 4D 5D 6D 7D 8D 9D")) == 6.0
    # an unguarded king counts nothing, a guarded one a trick; a long suit's ace half
    assert count_tricks(mask("KH 2D 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C")) == 0.0
    assert count_tricks(mask("KH 2H 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C")) == 1.0
    assert count_tricks(mask("AD 2D 3D 4D 5D 6D 7D 8D 2C 3C 4C 5C 6C")) == 0.5


def test_bids_the_floor_of_its_count_and_at_least_one():
    assert bid_for("AS KS 2S AH KH 3H 4D 5D 6D 7C 8C 9C TC", Seat.N, []) == 4
    weak = "5S 4S 3S 2S 9H 8H 7H 9D 8D 7D 9C 8C 7C"  # four spades: no nil, yet no trick counted
    assert count_tricks(mask(weak)) == 0.0
    assert bid_for(weak, Seat.N, []) == 1
    # the partner's bid caps the team at 13
    strong = "AS KS QS JS TS 9S 8S AH KH AD KD AC KC"
    assert bid_for(strong, Seat.N, []) == 12  # 12.75 counted
    assert bid_for(strong, Seat.S, [4, 3]) == 9


def test_nil_rule():
    nil = "TS 3S 2S 9H 4H 3H JD 5D 2D 9C 7C 4C 3C"
    assert nil_fit(mask(nil), count_tricks(mask(nil)))
    assert bid_for(nil, Seat.N, []) == 0
    assert bid_for(nil, Seat.S, [0, 3]) == 1  # no second nil beside the partner's
    assert not nil_fit(mask("AH 3S 2S 9H 4H 3H JD 5D 2D 9C 7C 4C 3C"), 0.5)  # a top card
    assert not nil_fit(mask("5S 3S 2S 4S 4H 3H JD 5D 2D 9C 7C 4C 3C"), 0.0)  # four spades
    assert not nil_fit(mask("TS 3S 2S QH KH 3H JD 5D 2D 9C 7C 4C 3C"), 0.5)  # QH KH over one low


# ---------------------------------------------------------------- play
def test_sure_spade_tricks_count_the_gaps():
    st = position({"N": "AS QS JS 2H"}, "N", {"N": 3, "E": 3, "S": 3, "W": 3})
    k = Knowledge(seat_view(st, Seat.N))
    assert sure_spade_tricks(k) == 2  # AS, and one of QS JS once the king falls


def test_covers_partner_nil_high_before_the_partner_and_by_overtaking():
    st = position({"S": "KH 3H 2C 3C", "E": "5H"}, "E", {"E": 3, "S": 4, "W": 3, "N": 0}, "5H")
    assert act(st) == "KH"
    st = position({"W": "2D", "N": "QD", "E": "3D", "S": "KD 4D 2C"}, "W",
                  {"W": 3, "N": 0, "E": 3, "S": 4}, "2D QD 3D")
    assert act(st) == "KD"
    # without the nil the partner's queen is left alone (S last: it takes the trick anyway)
    st = position({"W": "2D", "N": "QD", "E": "3D", "S": "KD 4D 2C"}, "W",
                  {"W": 3, "N": 3, "E": 3, "S": 4}, "2D QD 3D")
    assert act(st) == "4D"


def test_busts_an_opponents_nil_by_staying_under_it():
    st = position({"E": "5H", "S": "6H", "W": "9H", "N": "KH 2H 2C"}, "E",
                  {"E": 3, "S": 3, "W": 0, "N": 3}, "5H 6H 9H")
    assert act(st) == "2H"


def test_takes_tricks_until_the_contract_is_made_then_ducks():
    hands = {"N": "AH AD 5C", "E": "2H 2D KC", "S": "3H 3D AC 2C 9H", "W": "4H 4D 3C"}
    plays = "AH 2H 3H 4H AD 2D 3D 4D 5C KC"  # N-S have 2 tricks; E's KC leads trick 3
    st = position(hands, "N", {"N": 2, "E": 4, "S": 2, "W": 4}, plays)
    assert act(st) == "AC"  # two more needed
    # contract made, and setting E-W would cost more bags than it allows: duck
    st = position(hands, "N", {"N": 1, "E": 4, "S": 1, "W": 4}, plays, bags=(8, 0))
    assert act(st) != "AC"


def test_beats_random_in_a_match():
    result = run_match(MatchConfig(a=BotSpec("counter"), b=BotSpec("random"), deal_sets=5, seed=5), jobs=1)
    a = result.to_json()["a"]
    assert a["wins"] == 10 and a["forfeits"] == 0
