"""The bots: the registry, legality from every view, and the heuristic's judgement in
constructed positions (nil cover, nil attack, ducking near the bag limit, nil and blind nil bids)."""

from __future__ import annotations

import random
import sys
import types

import pytest

from advisor.bids import BLIND_NIL
from advisor.bots import BOTS, BotUnavailable, get_bot
from advisor.bots.heuristic_bid import can_bid_nil, choose_bid, count_tricks
from advisor.cards import CARDS, Seat, cards_to_mask, parse_card
from advisor.rules import PRESETS, Rules
from advisor.state import HandState, Phase, deal
from advisor.view import seat_view


def cards(text: str) -> list:
    return [parse_card(t) for t in text.split()]


def position(hands: dict[str, str], dealer: str, bids: dict[str, int], plays: str = "",
             points=(0, 0), bags=(0, 0), rules: Rules | None = None) -> HandState:
    """A full state from explicit hands (the rest of the deck shared out to make 13 each)."""
    given = {Seat[s]: cards(h) for s, h in hands.items()}
    used = cards_to_mask(c for cs in given.values() for c in cs)
    rest = [c for c in CARDS if not used >> c & 1]
    full = {}
    for seat in Seat:
        have = list(given.get(seat, []))
        while len(have) < 13:
            have.append(rest.pop())
        full[seat] = have
    assert not rest
    st = HandState(rules or Rules(), Seat[dealer], full, points, bags)
    for i in range(4):
        st.bid(bids[st.first.next(i).name])
    for c in cards(plays):
        st.play(c)
    return st


def heuristic_action(st: HandState):
    return get_bot("heuristic").act(seat_view(st, st.to_act))


# ---------------------------------------------------------------- registry
def test_registry_names_and_unknown_bot():
    assert {"random", "heuristic", "counter", "pimc"} <= set(BOTS)
    for name in ("random", "heuristic", "counter"):
        assert get_bot(name).name == name
    with pytest.raises(BotUnavailable, match="unknown bot 'nope'"):
        get_bot("nope")
    with pytest.raises(BotUnavailable, match="bad options"):
        get_bot("heuristic", depth=3)
    with pytest.raises(BotUnavailable, match="bad options .*could not convert"):
        get_bot("pimc", time_budget="soon")  # a value of the wrong kind (pimc:time_budget=soon)


def test_pimc_adapter_calls_choose_action(monkeypatch):
    calls = []
    fake = types.ModuleType("advisor.advice")

    def choose_action(view, *, time_budget=None, seed=None):
        calls.append((view.to_act, time_budget, seed))
        return view.legal_actions()[0]

    fake.choose_action = choose_action
    monkeypatch.setitem(sys.modules, "advisor.advice", fake)
    bot = get_bot("pimc", time_budget=0.05, seed=7)
    st = HandState(Rules(), Seat.E, deal(random.Random(1)))
    assert bot.act(seat_view(st, st.to_act)) == 0
    assert calls == [(Seat.E, 0.05, calls[0][2])] and calls[0][2] is not None


def test_pimc_without_a_clock_plays_a_position_the_same_way_whatever_the_load():
    # samples=N: no time budget, a fixed number of deals, fresh searches: the same card however
    # long each search took (here with a busy thread beside the second call)
    import threading

    st = HandState(Rules(), Seat.N, deal(random.Random(4)))
    for b in (3, 0, 4, 3):
        st.bid(b)
    rng = random.Random(5)
    for _ in range(5):
        st.play(rng.choice(st.legal_cards()))
    view = seat_view(st, st.to_act)
    first = [get_bot("pimc", samples=6, seed=s).act(view.clone()) for s in range(4)]
    stop = threading.Event()
    busy = threading.Thread(target=lambda: [sum(range(10_000)) for _ in iter(stop.is_set, True)])
    busy.start()
    try:
        again = [get_bot("pimc", samples=6, seed=s).act(view.clone()) for s in range(4)]
    finally:
        stop.set()
        busy.join()
    assert first == again
    assert all(c in view.legal_cards() for c in first)
    with pytest.raises(BotUnavailable, match="samples"):
        get_bot("pimc", samples=0)
    with pytest.raises(BotUnavailable, match="samples"):
        get_bot("pimc", samples=8, time_budget=0.2)


def test_pimc_adapter_without_the_search_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "advisor.advice", types.ModuleType("advisor.advice"))
    with pytest.raises(BotUnavailable, match="choose_action"):
        get_bot("pimc")


# ---------------------------------------------------------------- legality
@pytest.mark.parametrize("name", ["heuristic", "counter"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_action_is_legal_from_random_views(preset, name):
    rules = PRESETS[preset]
    rng = random.Random(f"legal-{preset}")
    bots = [get_bot(name), get_bot("random", seed=3)]
    decisions = 0
    for hand in range(40):
        # random scores and bags so that blind nil, bag pressure and endgames all come up
        points = (rng.choice((0, 120, 380, 460, -150)), rng.choice((0, 90, 300, 470, -120)))
        bags = (rng.randrange(10), rng.randrange(10))
        st = HandState(rules, Seat(rng.randrange(4)), deal(rng), points, bags)
        mix = [bots[(hand >> (s & 1)) & 1 if hand % 3 else 0] for s in range(4)]
        while not st.is_done:
            view = seat_view(st, st.to_act)
            action = mix[st.to_act].act(view)
            if st.phase is Phase.BIDDING:
                assert action in st.legal_bids()
            else:
                assert st.legal_mask() >> action & 1, (preset, hand, str(CARDS[action]))
            st.apply(action)
            decisions += 1
    assert decisions == 40 * 56


def test_random_bot_is_uniform_over_legal_bids():
    st = HandState(Rules(), Seat.N, deal(random.Random(2)), points_before=(0, 300))
    bot = get_bot("random", seed=1)
    seen = {bot.act(seat_view(st, Seat.N)) for _ in range(600)}
    assert seen == set(range(14)) | {BLIND_NIL}  # N-S trails by 300: blind nil is legal
    st = HandState(Rules(), Seat.N, deal(random.Random(2)))
    assert BLIND_NIL not in {bot.act(seat_view(st, Seat.N)) for _ in range(300)}


# ---------------------------------------------------------------- bidding
NIL_HAND = "2S 3S 2H 4H 6H 8H 3D 5D 7D 2C 4C 6C 7C"


def test_bids_nil_with_a_nil_hand():
    hand = cards_to_mask(cards(NIL_HAND))
    assert can_bid_nil(hand)
    view = HandState(Rules(), Seat.E, {Seat.S: cards(NIL_HAND)})
    view.bid(3)
    assert choose_bid(view) == 0


def test_no_nil_when_partner_bid_nil():
    view = HandState(Rules(), Seat.N, {Seat.S: cards(NIL_HAND)})
    view.bid(0)  # N nil
    view.bid(3)  # E
    assert choose_bid(view) >= 1


def test_never_nil_with_top_spades():
    low = "AS KS QS 2H 3H 4H 5H 2D 3D 4D 2C 3C 4C"
    view = HandState(Rules(), Seat.S, {Seat.S: cards(low)})
    assert choose_bid(view) >= 3
    rng = random.Random(5)
    checked = 0
    for _ in range(2000):
        hands = deal(rng)
        for seat, hand in hands.items():
            if {str(c) for c in hand} & {"AS", "KS", "QS"}:
                v = HandState(Rules(), seat, {seat: hand})
                assert choose_bid(v) != 0
                checked += 1
    assert checked > 1000


def test_trick_count_reads_strength():
    strong = cards_to_mask(cards("AS KS QS JS 5S AH KH AD KD AC 2C 3C 4C"))
    weak = cards_to_mask(cards(NIL_HAND))
    assert count_tricks(strong) >= 8
    assert count_tricks(weak) < 1
    # a void with spades to spare adds ruffs
    ruffer = cards_to_mask(cards("5S 4S 3S 2S AH 2H 3H 4H 5H 6H 2D 3D 4D"))
    no_void = cards_to_mask(cards("5S 4S 3S 2S AH 2H 3H 4H 5H 2C 2D 3D 4D"))
    assert count_tricks(ruffer) > count_tricks(no_void)


def test_blind_nil_from_the_score_alone():
    rng = random.Random(9)
    far_behind = (120, 420)  # N-S trail by 300, E-W close to winning
    for _ in range(5):  # whatever the cards
        view = HandState(Rules(), Seat.N, {Seat.N: deal(rng)[Seat.N]}, points_before=far_behind)
        assert get_bot("heuristic").act(view) == BLIND_NIL
    # not when ahead, not under rules without blind nil, not early in the game
    for points, rules in (((420, 120), Rules()), (far_behind, PRESETS["pagat"]),
                          ((-50, 160), Rules())):
        view = HandState(rules, Seat.N, {Seat.N: cards(NIL_HAND)}, points_before=points)
        assert get_bot("heuristic").act(view) != BLIND_NIL


# ---------------------------------------------------------------- play
def test_covers_partner_nil_by_playing_high_before_the_partner():
    # N bid nil. E leads 5H; S plays before N and takes the trick high so N can duck.
    st = position({"S": "KH 3H 2C 3C", "E": "5H"}, "E", {"E": 3, "S": 4, "W": 3, "N": 0}, "5H")
    assert st.to_act is Seat.S
    assert str(heuristic_action(st)) == "KH"
    # the same trick without a nil: second hand low (the ace is still out)
    st = position({"S": "KH 3H 2C 3C", "E": "5H"}, "E", {"E": 3, "S": 4, "W": 3, "N": 3}, "5H")
    low = min(c for c in st.holding(Seat.S) if str(c).endswith("H"))
    assert heuristic_action(st) == low


def test_covers_partner_nil_by_overtaking_the_partner():
    # N (nil) is winning with QD; S plays last and overtakes with KD.
    st = position({"W": "2D", "N": "QD", "E": "3D", "S": "KD 4D 2C"}, "W",
                  {"W": 3, "N": 0, "E": 3, "S": 4}, "2D QD 3D")
    assert st.to_act is Seat.S
    assert str(heuristic_action(st)) == "KD"
    st = position({"W": "2D", "N": "QD", "E": "3D", "S": "KD 4D 2C"}, "W",
                  {"W": 3, "N": 3, "E": 3, "S": 4}, "2D QD 3D")
    assert str(heuristic_action(st)) == "4D"  # partner's card is safe: don't overtake


def test_leads_high_to_cover_partner_nil():
    st = position({"S": "AC KC 2C 9D 2D 3H"}, "S", {"S": 4, "W": 3, "N": 0, "E": 3})
    assert str(heuristic_action(st)) in ("AC", "KC")


def test_attacks_opponent_nil_by_ducking_under_it():
    # W bid nil and is winning with 9H; N plays last and stays under it.
    st = position({"E": "5H", "S": "6H", "W": "9H", "N": "KH 2H 2C"}, "E",
                  {"E": 3, "S": 3, "W": 0, "N": 3}, "5H 6H 9H")
    assert st.to_act is Seat.N
    assert str(heuristic_action(st)) == "2H"


def test_leads_low_into_the_opponent_nil():
    st = position({"S": "AC KC 2C 9D 8D 3H"}, "S", {"S": 4, "W": 0, "N": 3, "E": 3})
    assert str(heuristic_action(st)) == "2C"


DUCK_HANDS = {"N": "AH AD 5C", "E": "2H 2D KC", "S": "3H 3D AC 2C 9H", "W": "4H 4D 3C"}
DUCK_PLAYS = "AH 2H 3H 4H AD 2D 3D 4D 5C KC"  # N-S made 2 already; E's KC leads trick 3


def test_ducks_when_contract_made_and_bags_near_the_limit():
    bids = {"N": 1, "E": 4, "S": 1, "W": 4}
    st = position(DUCK_HANDS, "N", bids, DUCK_PLAYS, bags=(8, 0))
    assert st.to_act is Seat.S and st.team_tricks(0) == 2
    assert str(heuristic_action(st)) != "AC"
    # with no bag pressure the opponents can still be set: take the trick
    st = position(DUCK_HANDS, "N", bids, DUCK_PLAYS, bags=(0, 0))
    assert str(heuristic_action(st)) == "AC"


def test_does_not_overtake_partner_or_waste_trumps():
    # partner N wins with AH (master) ; S is void in hearts and must not ruff it
    st = position({"W": "2H", "N": "AH", "E": "3H",
                   "S": "5S 2C 9C 2D 3D 4D 5D 6D 7D 8D 9D TD JD"},
                  "W", {"W": 3, "N": 3, "E": 3, "S": 4}, "2H AH 3H")
    assert str(heuristic_action(st)) == "2C"
