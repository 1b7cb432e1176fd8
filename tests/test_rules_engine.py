"""Unit tests of the rules core: cards, rules objects, legal moves, tricks, scoring, records."""

from __future__ import annotations

import pytest

from advisor.bids import BLIND_NIL, BidParseError, parse_bid
from advisor.cards import CARDS, CardParseError, Seat, Suit, Team, parse_card
from advisor.record import HandRecord, RecordError, check, replay, state_json
from advisor.rules import (
    PRESETS, BagRule, BlindNil, FirstPlayer, NilTricks, Rules, RulesError, Tie,
)
from advisor.scoring import blind_nil_allowed, game_result, score_hand
from advisor.state import HandState, IllegalEvent, Phase

C = parse_card
BIDS = {"N": 3, "E": 3, "S": 3, "W": 3}


def cards(text: str) -> list:
    return [C(t) for t in text.split()]


def rec(plays: str = "", bids=BIDS, hands=None, dealer="N", rules="piki", **extra) -> HandRecord:
    data = {"format": "piki-hand/1", "rules": rules, "dealer": dealer, "bids": bids,
            "plays": plays.split()}
    if hands is not None:
        data["hands"] = {k: v.split() if isinstance(v, str) else v for k, v in hands.items()}
    data.update(extra)
    return HandRecord.from_json(data)


def only_error(record: HandRecord) -> IllegalEvent:
    errors = check(record)
    assert len(errors) == 1
    with pytest.raises(IllegalEvent) as info:
        replay(record)
    assert info.value.to_json() == errors[0].to_json()
    return errors[0]


# ===================================================================== cards
@pytest.mark.parametrize("text,canonical", [
    ("TD", "TD"), ("10D", "TD"), ("10d", "TD"), ("td", "TD"), ("tD", "TD"),
    ("qh", "QH"), ("2c", "2C"), ("as", "AS"),
    ("♠A", "AS"), ("A♠", "AS"), ("♤a", "AS"), ("10♦", "TD"), ("♦10", "TD"), ("♢Q", "QD"),
    ("♥K", "KH"), ("K♡", "KH"), ("♣2", "2C"), ("J♧", "JC"), ("♥\ufe0fQ", "QH"), (" 9h ", "9H"),
    ("D10", "TD"), ("SA", "AS"),
    # the Polish letters for the jack (walet) and the queen (dama)
    ("WH", "JH"), ("w♣", "JC"), ("DS", "QS"), ("dd", "QD"), ("♥D", "QH"), ("HD", "QH"),
])
def test_card_forms(text, canonical):
    card = parse_card(text)
    assert str(card) == canonical
    assert card.to_json() == canonical
    assert repr(card) == canonical


def test_card_canonical_round_trip_and_order():
    names = [str(c) for c in CARDS]
    assert len(set(names)) == 52
    assert names[:13] == "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS".split()
    assert [parse_card(n) for n in names] == list(CARDS)
    assert C("AS").suit is Suit.S and C("AS").rank == 12 and C("2C").rank == 0
    assert C("TD").suit is Suit.D and C("TD").rank == 8


@pytest.mark.parametrize("bad", ["", "A", "1D", "11D", "10", "ZZ", "AX", "QHH", "♠", "AS♠",
                                 "1♠0"])
def test_card_rejects(bad):
    with pytest.raises(CardParseError) as info:
        parse_card(bad)
    assert repr(bad) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [5, None, ["AS"], 12.0])
def test_card_rejects_non_strings(bad):
    with pytest.raises(CardParseError, match="must be a string"):
        parse_card(bad)


def test_cards_in_records_come_out_canonical():
    r = rec("10h ♥Q", hands={"N": ["10♥", "h5"]})
    assert r.hands[Seat.N] == [C("TH"), C("5H")]
    out = state_json(replay(r))
    assert out["played"] == ["TH", "QH"]
    assert out["current_trick"] == [{"seat": "N", "card": "TH"}, {"seat": "E", "card": "QH"}]
    assert r.to_json()["plays"] == ["TH", "QH"]


# ====================================================================== bids
def test_bid_parsing():
    assert parse_bid(0) == 0 and parse_bid(13) == 13 and parse_bid("7") == 7
    assert parse_bid("nil") == 0 and parse_bid("blind_nil") == BLIND_NIL
    assert parse_bid("Zero") == 0 and parse_bid("zero w ciemno") == BLIND_NIL  # the Polish words
    for bad, msg in [(14, "between 0 and 13"), (-1, "between 0 and 13"), (True, "integer"),
                     (3.0, "integer"), ("x", "integer"), (None, "integer")]:
        with pytest.raises(BidParseError, match=msg):
            parse_bid(bad)


# ===================================================================== rules
def test_presets_match_the_rules_table():
    piki, pagat = PRESETS["piki"], PRESETS["pagat"]
    assert Rules() == piki == Rules.from_spec("piki") == Rules.from_spec(None)
    assert piki.to_json() == {
        "preset": "piki", "first": "dealer", "allspade_lead_breaks": False, "nil_tricks": "bags",
        "nil_value": 100, "blind_nil": {"trailing_by": 200, "value": 200},
        "bags": {"limit": 10, "penalty": 100}, "win_at": 500, "lose_at": -200, "tie": "draw"}
    assert pagat.to_json() == {
        "preset": "pagat", "first": "left_of_dealer", "allspade_lead_breaks": True,
        "nil_tricks": "bags", "nil_value": 100, "blind_nil": None,
        "bags": {"limit": 10, "penalty": 100}, "win_at": 500, "lose_at": None, "tie": "play_on"}
    for r in (piki, pagat):
        assert Rules.from_spec(r.to_json()) == r


@pytest.mark.parametrize("field,value,expected", [
    ("first", "left_of_dealer", FirstPlayer.LEFT_OF_DEALER),
    ("first", "dealer", FirstPlayer.DEALER),
    ("allspade_lead_breaks", True, True),
    ("nil_tricks", "partner", NilTricks.PARTNER),
    ("nil_tricks", "lost", NilTricks.LOST),
    ("nil_tricks", "bags", NilTricks.BAGS),
    ("nil_value", 50, 50),
    ("blind_nil", None, None),
    ("blind_nil", {"trailing_by": 100}, BlindNil(trailing_by=100, value=200)),
    ("blind_nil", {"trailing_by": 100, "value": 150}, BlindNil(100, 150)),
    ("bags", None, None),
    ("bags", {"limit": 5, "penalty": 50}, BagRule(5, 50)),
    ("bags", {"penalty": 50}, BagRule(10, 50)),
    ("win_at", 300, 300),
    ("win_at", 1000, 1000),
    ("lose_at", -500, -500),
    ("lose_at", None, None),
    ("tie", "play_on", Tie.PLAY_ON),
    ("tie", "draw", Tie.DRAW),
])
def test_every_field_can_be_overridden(field, value, expected):
    r = Rules.from_spec({"preset": "piki", field: value})
    assert getattr(r, field) == expected
    base = Rules().to_json()
    for other, v in r.to_json().items():  # nothing else changed
        if other != field:
            assert v == base[other], other
    # overrides work over the other preset too, and the record accepts them
    p = Rules.from_spec({"preset": "pagat", field: value})
    assert getattr(p, field) == expected and p.preset == "pagat"
    assert rec(rules={"preset": "pagat", field: value}).rules == p


def test_override_without_preset_starts_from_piki():
    r = Rules.from_spec({"win_at": 250})
    assert r.win_at == 250 and r.first is FirstPlayer.DEALER and r.preset == "piki"


@pytest.mark.parametrize("spec,message", [
    ("nope", "unknown rules preset 'nope' (known: piki, pagat)"),
    ({"preset": "nope"}, "unknown rules preset 'nope'"),
    ({"colour": "red"}, "unknown rules field 'colour'"),
    ({"first": "north"},
     "rules field 'first' must be one of 'dealer', 'left_of_dealer', got 'north'"),
    ({"first": []}, "rules field 'first' must be one of"),
    ({"allspade_lead_breaks": "yes"}, "rules field 'allspade_lead_breaks' must be true or false"),
    ({"allspade_lead_breaks": 1}, "must be true or false, got 1"),
    ({"nil_tricks": "partners"},
     "rules field 'nil_tricks' must be one of 'bags', 'partner', 'lost'"),
    ({"nil_value": "100"}, "rules field 'nil_value' must be an integer, got '100'"),
    ({"nil_value": True}, "rules field 'nil_value' must be an integer"),
    ({"blind_nil": 200}, "rules field 'blind_nil' must be null or"),
    ({"blind_nil": {"trailing": 100}}, "rules field 'blind_nil' must be null or"),
    ({"blind_nil": {"trailing_by": "x"}}, "rules field 'blind_nil.trailing_by' must be an integer"),
    ({"blind_nil": {"value": 2.5}}, "rules field 'blind_nil.value' must be an integer"),
    ({"bags": 10}, "rules field 'bags' must be null or"),
    ({"bags": {"limit": 0}}, "rules field 'bags.limit' must be positive, got 0"),
    ({"bags": {"limit": -5}}, "rules field 'bags.limit' must be positive"),
    ({"bags": {"penalty": "100"}}, "rules field 'bags.penalty' must be an integer"),
    ({"win_at": 1.5}, "rules field 'win_at' must be an integer, got 1.5"),
    ({"win_at": None}, "rules field 'win_at' must be an integer, got None"),
    ({"lose_at": "-200"}, "rules field 'lose_at' must be an integer"),
    ({"win_at": 10**20}, "rules field 'win_at' must be between -1000000 and 1000000, got 100000000000000000000"),
    ({"lose_at": -10**7}, "rules field 'lose_at' must be between -1000000 and 1000000"),
    ({"bags": {"penalty": 10**19}}, "rules field 'bags.penalty' must be between"),
    ({"blind_nil": {"trailing_by": 10**30}}, "rules field 'blind_nil.trailing_by' must be between"),
    ({"tie": "replay"}, "rules field 'tie' must be one of 'draw', 'play_on', got 'replay'"),
    (5, "rules must be a preset name or an object"),
    (["piki"], "rules must be a preset name or an object"),
])
def test_bad_rules_are_rejected_with_a_clear_message(spec, message):
    with pytest.raises(RulesError) as info:
        Rules.from_spec(spec)
    assert message in str(info.value)
    with pytest.raises(RecordError) as info2:  # the same message through a record
        rec(rules=spec)
    assert message in str(info2.value)


def test_first_player_field():
    for dealer in Seat:
        st = HandState(Rules(), dealer)
        assert st.to_act == dealer
        st2 = HandState(Rules.from_spec("pagat"), dealer)
        assert st2.to_act == dealer.next()
        for b in (1, 2, 3, 4):
            st.bid(b)
            st2.bid(b)
        assert st.phase is Phase.PLAY and st.to_act == dealer  # the first leader too
        assert st2.to_act == dealer.next()
    out = state_json(replay(rec("", bids={"N": 2, "E": 3}, dealer="W", rules="pagat")))
    assert out["phase"] == "bidding" and out["to_act"] == "S"


def test_nil_value_and_blind_value_fields():
    r = Rules.from_spec({"nil_value": 50, "blind_nil": {"trailing_by": 200, "value": 300}})
    ns, ew = score_hand(r, (0, BLIND_NIL, 4, 4), (0, 1, 5, 7))
    assert ns.nils[0].points == 50 and ns.hand_points == 50 + 41
    assert ew.nils[0].points == -300 and ew.hand_points == 43 - 300 + 1


# =================================================================== following
NORTH = "2S 3S 4S 5S 6S 7S AH KH QH JH TH 9H 8H"
EAST = "AS KS 2H 3H 4H 5H 6H 7H AD KD QD JD TD"


def test_follow_suit_legal_cards():
    r = rec("AH", hands={"N": NORTH, "E": EAST})
    st = replay(r)
    assert st.to_act is Seat.E
    assert [str(c) for c in st.legal_cards()] == ["2H", "3H", "4H", "5H", "6H", "7H"]
    assert state_json(st)["legal"] == ["7H", "6H", "5H", "4H", "3H", "2H"]
    # void in the led suit: any card, trumping is not compulsory
    st2 = replay(rec("AH 2H 2C 3C KH 3H 4C 5C QH 4H 6C 7C JH 5H 8C 9C TH 6H TC JC 9H 7H QC KC 8H",
                     hands={"N": NORTH, "E": EAST}))
    assert st2.to_act is Seat.E
    assert len(st2.legal_cards()) == 7 and {c.suit for c in st2.legal_cards()} == {Suit.S, Suit.D}


def test_revoke_is_reported_with_the_cards_held():
    hands = {"S": "7H QH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"}
    err = only_error(rec("2H 3H 2C", hands=hands))
    assert err.to_json() == {"kind": "play", "index": 2, "seat": "S", "card": "2C", "bid": None,
                             "code": "must_follow", "reason": "S must follow hearts: holds 7H, QH"}


# ============================================================ spades breaking
def test_spade_lead_before_broken_is_illegal():
    hands = {"W": "4S 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"}
    err = only_error(rec("4S", hands=hands, dealer="W"))
    assert (err.index, err.seat, str(err.card)) == (0, Seat.W, "4S")
    assert err.reason == "spades not broken: W leads 4S while holding clubs"
    st = replay(rec("", hands=hands, dealer="W"))
    assert st.legal_cards() == cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC")
    two = {"W": "4S 2H 3C 4C 5C 6C 7C 8C 9C TC JC QC KC"}
    assert only_error(rec("4S", hands=two, dealer="W")).reason == \
        "spades not broken: W leads 4S while holding hearts, clubs"


def test_discarding_a_spade_breaks_spades():
    # N wins hearts; E discards a spade on the 7th heart trick; then E... N leads again.
    plays = "AH 2H 2C 3C KH 3H 4C 5C QH 4H 6C 7C JH 5H 8C 9C TH 6H TC JC 9H 7H QC KC"
    st = replay(rec(plays, hands={"N": NORTH, "E": EAST}))
    assert not st.spades_broken
    st.play(C("8H"))
    st.play(C("KS"))  # E is out of hearts and trumps: spades are broken
    assert st.spades_broken
    st.play(C("AC"))
    st.play(C("2D"))
    assert st.trick_winners[-1] == Seat.E
    assert st.to_act is Seat.E
    # E may now lead a spade although it holds diamonds
    assert C("AS") in st.legal_cards() and C("AD") in st.legal_cards()


HEART_RUN = "AH 2H 2C 3C KH 3H 4C 5C QH 4H 6C 7C JH 5H 8C 9C TH 6H TC JC 9H 7H QC KC 8H TD AC 2D"


@pytest.mark.parametrize("rules,dealer,breaks", [
    ("piki", "N", False),
    ({"preset": "piki", "allspade_lead_breaks": True}, "N", True),
    ("pagat", "W", True),  # left of dealer W is N
    ({"preset": "pagat", "allspade_lead_breaks": False}, "W", False),
])
def test_all_spade_lead(rules, dealer, breaks):
    # After seven heart tricks N holds only spades: leading one is legal in every preset.
    r = rec(HEART_RUN, hands={"N": NORTH, "E": EAST}, rules=rules, dealer=dealer)
    st = replay(r)
    assert st.to_act is Seat.N and st.holding(Seat.N) == cards("2S 3S 4S 5S 6S 7S")
    assert st.legal_cards() == cards("2S 3S 4S 5S 6S 7S")
    for card in ("2S", "AS", "8S", "9S"):  # E takes the trick with the ace
        st.play(C(card))
    assert st.to_act is Seat.E
    assert st.spades_broken is breaks
    legal = st.legal_cards()
    assert (C("KS") in legal) is breaks
    assert set(cards("AD KD QD JD")) <= set(legal)
    if not breaks:
        err = only_error(rec(HEART_RUN + " 2S AS 8S 9S KS", hands={"N": NORTH, "E": EAST},
                             rules=rules, dealer=dealer))
        assert (err.index, err.seat, str(err.card)) == (32, Seat.E, "KS")
        assert err.reason == "spades not broken: E leads KS while holding diamonds"
    else:
        assert check(rec(HEART_RUN + " 2S AS 8S 9S KS", hands={"N": NORTH, "E": EAST},
                         rules=rules, dealer=dealer)) == []


def test_unknown_hand_may_lead_a_spade_and_shows_it_has_only_spades():
    st = replay(rec("3S"))
    assert st.shown_voids(Seat.N) == [Suit.H, Suit.D, Suit.C]
    assert not st.spades_broken
    assert state_json(st)["voids"]["N"] == ["H", "D", "C"]


# ============================================================== trick winners
@pytest.mark.parametrize("plays,winner", [
    ("5H KH 3D AH", Seat.W),  # highest of the led suit; a discard never wins
    ("5H KH 2S AH", Seat.S),  # a spade trumps
    ("5H 2S 3S AH", Seat.S),  # the highest spade
    ("5H 3S 2S 9H", Seat.E),
    ("2C AD KH 3C", Seat.W),  # only the led suit counts
    ("9D 8D 7D 6D", Seat.N),
    ("2D 3D 4D AS", Seat.W),
])
def test_trick_winner(plays, winner):
    st = replay(rec(plays))
    assert st.trick_winners == [winner]
    assert st.tricks[winner] == 1 and sum(st.tricks) == 1
    assert st.to_act is winner
    assert st.completed_tricks() == [(Seat.N, cards(plays), winner)]
    out = state_json(st)
    assert out["completed_tricks"] == [
        {"leader": "N", "cards": plays.split(), "winner": winner.name}]
    assert out["current_trick"] == [] and out["trick_number"] == 2


def test_spade_led_after_break_highest_spade_wins():
    st = replay(rec("5H KH 2S AH 4S 9S KS 3H"))  # S trumped, broke spades and leads 4S
    assert st.trick_winners == [Seat.S, Seat.N]


# ============================================================= blind nil
@pytest.mark.parametrize("points,seat,allowed", [
    ((0, 200), Seat.N, True), ((0, 200), Seat.S, True), ((0, 200), Seat.E, False),
    ((0, 199), Seat.N, False), ((-150, 60), Seat.N, True), ((300, 50), Seat.E, True),
    ((300, 101), Seat.W, False), ((0, 0), Seat.N, False),
])
def test_blind_nil_eligibility_from_the_score(points, seat, allowed):
    st = HandState(Rules(), seat, points_before=points)
    assert st.to_act is seat
    assert (BLIND_NIL in st.legal_bids()) is allowed
    assert st.legal_bids()[:14] == list(range(14))
    assert blind_nil_allowed(Rules(), seat.team, points) is allowed
    out = state_json(st)
    assert ("blind_nil" in out["legal"]) is allowed
    if allowed:
        st.bid(BLIND_NIL)
        assert st.bids[seat] == BLIND_NIL
    else:
        with pytest.raises(IllegalEvent) as info:
            st.bid(BLIND_NIL)
        assert info.value.seat is seat and info.value.index == 0
        assert "may not bid blind nil" in info.value.reason
        assert "needs a deficit of at least 200" in info.value.reason
        assert st.bids[seat] is None and st.to_act is seat  # unchanged


def test_blind_nil_messages_and_overrides():
    err = only_error(rec("", bids={"N": 3, "E": "blind_nil"}, score_before={"NS": 100, "EW": -50}))
    assert err.to_json() == {
        "kind": "bid", "index": 1, "seat": "E", "card": None, "bid": "blind_nil",
        "code": "blind_nil_trails", "reason": "E may not bid blind nil: EW trails by 150, blind nil needs a deficit of at "
                  "least 200"}
    assert "NS is not behind" in only_error(rec("", bids={"N": "blind_nil"})).reason
    assert "NS leads by 20" in only_error(
        rec("", bids={"N": "blind_nil"}, score_before={"NS": 20})).reason
    # trailing by 100 is enough under an override, and never under pagat
    ok = rec("", bids={"N": "blind_nil"}, score_before={"EW": 100},
             rules={"preset": "piki", "blind_nil": {"trailing_by": 100, "value": 200}})
    assert check(ok) == []
    err = only_error(rec("", bids={"W": "blind_nil"}, dealer="S", rules="pagat",
                         score_before={"NS": 400}))
    assert err.reason == "blind nil is not played under these rules"
    assert "blind_nil" not in state_json(
        replay(rec("", bids={}, dealer="S", rules="pagat", score_before={"NS": 400})))["legal"]


# ================================================================== scoring
@pytest.mark.parametrize("mode,points,bags,counted", [
    ("bags", -40 - 100 + 2, 2, 3),  # set; the nil's two tricks are bags
    ("partner", 40 + 1 - 100, 1, 5),  # they make the partner's contract
    ("lost", -40 - 100, 0, 3),  # they count for nothing
])
def test_nil_tricks(mode, points, bags, counted):
    r = Rules.from_spec({"nil_tricks": mode})
    ns, ew = score_hand(r, bids=(0, 3, 4, 3), tricks=(2, 4, 3, 4))
    assert (ns.hand_points, ns.bags, ns.counted_tricks) == (points, bags, counted)
    assert ns.nils[0].made is False and ns.nils[0].points == -100
    assert ew.hand_points == 62


@pytest.mark.parametrize("mode,points,bags", [("bags", 3, 3), ("partner", 3, 3), ("lost", 0, 0)])
def test_both_partners_nil(mode, points, bags):
    r = Rules.from_spec({"nil_tricks": mode})
    ns, _ = score_hand(r, bids=(0, 5, 0, 5), tricks=(3, 10, 0, 0))
    assert ns.contract == 0 and ns.made is None
    assert [n.points for n in ns.nils] == [-100, 100]
    assert (ns.hand_points, ns.bags) == (points, bags)


def test_bag_penalty_carry():
    r = Rules()
    ns, _ = score_hand(r, (3, 3, 2, 3), (5, 3, 3, 2), bags_before=(9, 0))  # 9 + 3 = 12
    assert (ns.bag_penalty, ns.bags, ns.hand_points) == (100, 2, 53 - 100)
    ns, _ = score_hand(r, (0, 0, 0, 0), (7, 0, 6, 0), bags_before=(9, 0))  # 9 + 13 = 22
    assert (ns.bag_penalty, ns.bags, ns.hand_points) == (200, 2, 13 - 200 - 200)
    ns, _ = score_hand(r, (3, 3, 2, 3), (5, 3, 3, 2), bags_before=(6, 0))  # 9: no penalty yet
    assert (ns.bag_penalty, ns.bags) == (0, 9)
    ns, _ = score_hand(r, (3, 3, 3, 3), (2, 3, 2, 6), bags_before=(9, 0))  # set: no overtricks
    assert (ns.bag_penalty, ns.bags, ns.hand_points) == (0, 9, -60)
    five = Rules.from_spec({"bags": {"limit": 5, "penalty": 50}})
    ns, _ = score_hand(five, (3, 3, 2, 3), (5, 3, 3, 2), bags_before=(3, 0))
    assert (ns.bag_penalty, ns.bags, ns.hand_points) == (50, 1, 3)
    free = Rules.from_spec({"bags": None})
    ns, _ = score_hand(free, (3, 3, 2, 3), (5, 3, 3, 2), bags_before=(9, 0))
    assert (ns.bag_penalty, ns.bags, ns.hand_points) == (0, 12, 53)
    # a huge count from a record is settled at once (it used to loop once per penalty)
    ns, _ = score_hand(r, (3, 3, 2, 3), (5, 3, 3, 2), bags_before=(10**15 + 7, 0))
    assert (ns.bag_penalty, ns.bags) == (10**16 + 100, 0)


def test_boston_and_contract_made_exactly():
    ns, ew = score_hand(Rules(), (7, 2, 6, 2), (7, 0, 6, 0))
    assert (ns.hand_points, ns.tricks, ns.bags) == (130, 13, 0)
    assert (ew.made, ew.hand_points) == (False, -40)


# ================================================================ game end
@pytest.mark.parametrize("rules,points,result", [
    ("piki", (499, 300), (False, None)),
    ("piki", (500, 300), (True, "NS")),
    ("piki", (300, 500), (True, "EW")),
    ("piki", (-200, 100), (True, "EW")),
    ("piki", (-199, 100), (False, None)),
    ("piki", (-250, -210), (True, "EW")),
    ("piki", (-200, -200), (True, "draw")),
    ("piki", (520, 520), (True, "draw")),
    ("pagat", (-400, 100), (False, None)),
    ("pagat", (520, 520), (False, None)),
    ("pagat", (520, 519), (True, "NS")),
    ({"win_at": 300}, (300, 0), (True, "NS")),
    ({"win_at": 300}, (299, 0), (False, None)),
    ({"lose_at": -500}, (-499, 0), (False, None)),
    ({"lose_at": -500}, (-500, 0), (True, "EW")),
    ({"lose_at": None}, (-900, 0), (False, None)),
    ({"tie": "play_on"}, (500, 500), (False, None)),
    ({"tie": "play_on"}, (-200, -200), (False, None)),
])
def test_game_end(rules, points, result):
    assert game_result(Rules.from_spec(rules), points) == result


# ============================================================ partial records
def test_record_without_hands():
    r = rec("", bids={})
    st = replay(r)
    out = state_json(st)
    assert out["phase"] == "bidding" and out["to_act"] == "N" and out["legal"] == list(range(14))
    st = replay(rec("5H KH 2H 9H 3C"))
    out = state_json(st)
    assert out["phase"] == "play" and out["to_act"] == "S" and out["legal"] is None
    assert out["tricks"] == {"N": 0, "E": 1, "S": 0, "W": 0}
    assert out["current_trick"] == [{"seat": "E", "card": "3C"}]
    assert out["trick_number"] == 2 and out["score"] is None
    assert out["game_over"] is False and out["winner"] is None


def test_partial_hand():
    hands = {"E": "KH 3C 4C"}
    st = replay(rec("5H", hands=hands))
    assert st.to_act is Seat.E and state_json(st)["legal"] is None  # E's hand is not known
    assert not st.hand_known(Seat.E)
    err = only_error(rec("5H 2D", hands=hands))  # E holds KH: must follow hearts
    assert err.reason == "E must follow hearts: holds KH"
    assert only_error(rec("5H 3H KH", hands=hands)).reason == "KH is in E's hand, S cannot play it"
    assert check(rec("5H KH 2H 9H", hands=hands)) == []


def test_unknown_cards_beyond_thirteen():
    twelve = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    r = rec("AH 2H 3H 4H AC 5H", hands={"N": twelve}, bids={"N": 3, "E": 3, "S": 3, "W": 3})
    # N leads AH (its 13th card, unknown); N wins and leads AC: that is a 14th card
    err = only_error(r)
    assert (err.index, err.seat, str(err.card)) == (4, Seat.N, "AC")
    assert err.reason == "N cannot hold AC: its 13 cards are already accounted for"


def test_complete_hand_does_not_hold():
    err = only_error(rec("2D", hands={"N": NORTH}))
    assert err.reason == "N does not hold 2D"


def test_hand_in_progress_with_known_hands():
    st = replay(rec("AH 2H 2C 3C KH", hands={"N": NORTH, "E": EAST}))
    out = state_json(st)
    assert out["to_act"] == "E" and out["legal"] == ["7H", "6H", "5H", "4H", "3H"]
    assert out["played"] == ["AH", "2H", "2C", "3C", "KH"]
    assert out["tricks"]["N"] == 1 and out["team_tricks"] == {"NS": 1, "EW": 0}
    assert out["spades_broken"] is False


def test_missing_hand_completed_from_the_other_three():
    full = {s: [str(c) for c in CARDS[13 * i:13 * i + 13]] for i, s in enumerate("NESW")}
    three = {k: v for k, v in full.items() if k != "S"}
    r = rec("", hands=three)
    st = r.new_state()
    assert st.hand_known(Seat.S)
    assert st.holding(Seat.S) == [C(c) for c in full["S"]]
    # S must follow: its hand is known from the other three
    st = replay(rec("2S 3H", hands=three))  # N leads from its all-spade hand, E discards
    assert st.to_act is Seat.S
    assert st.legal_cards() == [C(c) for c in full["S"]]  # S has no spades: any card
    # partly given fourth hand is completed too
    three["S"] = full["S"][:4]
    assert rec("", hands=three).new_state().hand_known(Seat.S)
    # two known hands are not enough
    two = {k: full[k] for k in ("N", "E")}
    st = rec("", hands=two).new_state()
    assert not st.hand_known(Seat.S) and not st.hand_known(Seat.W)


def test_voids_shown_and_unseen_cards():
    st = replay(rec("AH 2H 2C 3C KH 3H 4C 5C", hands={"N": NORTH, "E": EAST}))
    assert st.shown_voids(Seat.S) == [Suit.H] and st.shown_voids(Seat.W) == [Suit.H]
    assert st.shown_voids(Seat.N) == [] and st.shown_voids(Seat.E) == []
    out = state_json(st)
    assert out["voids"] == {"N": [], "E": [], "S": ["H"], "W": ["H"]}
    unseen_n = st.unseen(Seat.N)
    assert len(unseen_n) == 52 - 13 - 6  # own cards and the others' six played cards
    assert not set(unseen_n) & set(cards(NORTH + " 2H 2C 3C 3H 4C 5C"))
    assert len(st.unseen(Seat.S)) == 52 - 8  # S's hand is unknown: only the plays are seen
    # a void is remembered: S, who discarded on hearts, may not play a heart later
    err = only_error(rec("AH 2H 2C 3C KH 3H 4C 5C QH 4H 7H", hands={"N": NORTH}))
    assert (err.index, err.seat, str(err.card)) == (10, Seat.S, "7H")
    assert err.reason == ("S did not follow hearts in trick 1, so held no hearts, "
                          "but now plays 7H")


# ====================================================================== refusals in words
def test_every_refusal_has_the_same_words_in_polish():
    from string import Formatter

    from advisor.refusals import TEXTS

    assert set(TEXTS["pl"]) == set(TEXTS["en"])
    for code, en in TEXTS["en"].items():
        names = lambda text: {f for _, f, _, _ in Formatter().parse(text) if f}
        assert names(TEXTS["pl"][code]) == names(en), code


@pytest.mark.parametrize("record,english,polish", [
    (lambda: rec("5H 3H 2C", hands={"S": "7H QH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"}),
     "S must follow hearts: holds 7H, QH", "S musi dołożyć do koloru (kiery): ma 7H, QH"),
    (lambda: rec("2H", bids={"N": 3, "E": 3}),
     "2H is played before the bidding is over (no bid yet from S, W)",
     "2H zagrana przed końcem licytacji (nie zgłosili jeszcze: S, W)"),
    (lambda: rec("5H 3H KH", hands={"E": "KH 3H"}),
     "KH is in E's hand, S cannot play it", "KH jest w ręce E, więc S nie może jej zagrać"),
    (lambda: rec("", bids={"E": 3, "S": 3}),
     "N has no bid, but E, S bid after N (bidding starts with N)",
     "brak deklaracji N, choć po nim licytowali już: E, S (licytację zaczyna N)"),
    (lambda: rec("", bids={"N": "blind_nil"}, score_before={"NS": 20}),
     "N may not bid blind nil: NS leads by 20, blind nil needs a deficit of at least 200",
     "N nie może zadeklarować zera w ciemno: NS prowadzi o 20 pkt, a zero w ciemno wymaga straty co najmniej"
     " 200 pkt"),
])
def test_refusals_in_english_and_polish(record, english, polish):
    err = only_error(record())
    assert err.reason == english and err.reason_in("en") == english
    words = err.reason_in("pl")
    assert words == polish
    assert err.to_json("pl")["reason"] == words and err.to_json("pl")["code"] == err.code


def test_a_void_shown_earlier_is_named_in_polish():
    # S's hand unknown: the void shown in trick 1 is what refuses its heart in trick 3
    err = only_error(rec("AH 2H 2C 3C KH 3H 4C 5C QH 4H 7H", hands={"N": NORTH}))
    assert err.reason == "S did not follow hearts in trick 1, so held no hearts, but now plays 7H"
    assert err.reason_in("pl") == ("w lewie 1 S nie dołożył do koloru (kiery), więc nie miał koloru"
                                   " (kiery), a teraz gra 7H")


# ====================================================================== check
def test_card_played_twice():
    err = only_error(rec("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AS AS"))
    assert err.to_json() == {"kind": "play", "index": 12, "seat": "E", "card": "AS", "bid": None,
                             "code": "already_played", "reason": "AS was already played in trick 3"}


def test_first_illegal_event_is_the_one_reported():
    hands = {"S": "7H QH 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"}
    # the revoke at index 2 comes before the repeated 2H at index 5
    r = rec("2H 3H 2C 4H 5H 2H", hands=hands)
    err = only_error(r)
    assert (err.index, err.seat, str(err.card)) == (2, Seat.S, "2C")
    # a bad bid comes before any play
    r = rec("2H 3H 2C", hands=hands, bids={"N": 3, "E": "blind_nil", "S": 3, "W": 3})
    err = only_error(r)
    assert (err.kind, err.index, err.seat, err.card, err.bid) == ("bid", 1, Seat.E, None, BLIND_NIL)


def test_play_before_the_bidding_is_over():
    err = only_error(rec("2H", bids={"N": 3, "E": 4}))
    assert err.index == 0 and err.seat is Seat.S
    assert err.reason == "2H is played before the bidding is over (no bid yet from S, W)"


def test_bids_out_of_order():
    err = only_error(rec("", bids={"N": 3, "S": 4}))
    assert (err.kind, err.index, err.seat) == ("bid", 1, Seat.E)
    assert err.reason == "E has no bid, but S bid after E (bidding starts with N)"


def test_illegal_play_leaves_the_state_unchanged():
    st = replay(rec("AH", hands={"N": NORTH, "E": EAST}))
    before = state_json(st)
    with pytest.raises(IllegalEvent):
        st.play(C("AD"))
    assert state_json(st) == before


def test_clone_is_independent():
    st = replay(rec("AH", hands={"N": NORTH, "E": EAST}))
    cl = st.clone()
    cl.play(C("2H"))
    assert len(st.plays) == 1 and len(cl.plays) == 2
    assert C("2H") in st.holding(Seat.E) and C("2H") not in cl.holding(Seat.E)


def test_done_state_and_apply():
    full = {s: [str(c) for c in CARDS[13 * i:13 * i + 13]] for i, s in enumerate("NESW")}
    st = rec("", hands=full).new_state()
    for b in (3, 3, 3, 3):
        st.apply(b)
    while not st.is_done:
        st.apply(st.legal_cards()[0])
    # N holds all spades: it leads them all (never broken under piki) and takes 13 tricks
    assert st.tricks == [13, 0, 0, 0] and not st.spades_broken
    assert st.phase is Phase.DONE and st.to_act is None and st.legal_actions() == []
    assert st.returns() == (3 * 10 * 2 + 7, -60)
    with pytest.raises(IllegalEvent, match="the hand is over"):
        st.play(C("2S"))
    with pytest.raises(IllegalEvent, match="the bidding is over"):
        st.bid(3)


def test_team_helpers():
    assert Seat.N.team is Team.NS and Seat.W.team is Team.EW
    assert Seat.E.partner is Seat.W and Seat.W.next() is Seat.N
    assert Team.EW.seats == (Seat.E, Seat.W) and Team.NS.other is Team.EW
