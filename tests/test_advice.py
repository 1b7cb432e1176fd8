"""Advice through the library and the real ``piki bid`` / ``piki play`` / ``piki review`` commands."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
import subprocess
import sys

import pytest

from advisor.advice import bid_json, choose_action, play_json, review_json
from advisor.bids import BLIND_NIL
from advisor.cards import Seat, Suit, parse_card
from advisor.record import HandRecord, replay
from advisor.rules import Rules
from advisor.state import HandState, deal
from advisor.view import seat_record, seat_view


def _cards(text: str) -> list[str]:
    return text.split()


def _random_state(seed: int, rules: Rules, plays: int) -> HandState:
    rng = random.Random(seed)
    st = HandState(rules, Seat(seed % 4), deal(rng))
    for _ in range(4):
        st.bid(rng.choice([1, 2, 3, 4]))
    for _ in range(plays):
        st.play(rng.choice(st.legal_cards()))
    return st


@pytest.mark.parametrize("preset", ["piki", "pagat"])
@pytest.mark.parametrize("seed", range(6))
def test_play_advice_is_legal_from_a_partial_record(preset, seed):
    st = _random_state(seed, Rules.from_spec(preset), plays=(seed * 7) % 50)
    seat = st.to_act
    rec = seat_record(st, seat)  # only the acting seat's hand is in the record
    advice = play_json(rec, time_budget=0.05, seed=1)
    legal = {str(c) for c in st.legal_cards()}
    assert advice["card"] in legal
    assert {c["card"] for c in advice["candidates"]} == legal
    assert advice["explanation"]


def test_play_advice_ignores_other_hands_it_should_not_see():
    st = _random_state(3, Rules(), plays=6)
    full = HandRecord(rules=st.rules, dealer=st.dealer, hands={Seat(s): list(map(parse_card, map(str, _held(st, s)))) for s in range(4)},
                      bids={Seat(s): b for s, b in enumerate(st.bids)}, plays=list(st.plays))
    only_mine = seat_record(st, st.to_act)
    # A budget no loaded machine runs out of: both searches stop at the cap of deals, the same
    # deals (10 s ran out once under a loaded CI run, and the two then solved different numbers).
    a = play_json(full, time_budget=120, seed=5)
    b = play_json(only_mine, time_budget=120, seed=5)
    assert a["candidates"] == b["candidates"]


def _held(st: HandState, seat: int):
    from advisor.cards import mask_to_cards

    return mask_to_cards(st.known[seat])


def test_cover_partner_nil_overtakes_when_partner_would_win():
    # S bid nil holding the singleton QH. W leads 2H; if N plays low, E plays under the queen
    # and S is forced to win. N must cover with the ace.
    hands = {
        "N": _cards("AH 3H 4H AS KS QS JS AD KD QD AC KC QC"),
        "E": _cards("5H 6H 7H 5S 6S 7S 6D 7D 8D 7C 8C 9C TC"),
        "S": _cards("QH 2S 3S 4S 2D 3D 4D 5D 2C 3C 4C 5C 6C"),
        "W": _cards("2H 8H 9H TH JH KH 8S 9S TS 9D TD JD JC"),
    }
    rec = HandRecord.from_json({
        "dealer": "W", "hands": hands,
        "bids": {"W": 3, "N": 4, "E": 3, "S": 0},
        "plays": ["2H"],
    })
    st = replay(rec)
    assert st.to_act == Seat.N
    for lang, word in (("en", "nil"), ("pl", "zero")):
        advice = play_json(rec, time_budget=3, seed=3, lang=lang)
        assert advice["card"] == "AH", advice
        assert "Partner" in advice["explanation"] and word in advice["explanation"]
        # the ace is also the card that keeps the nil: its chance is quoted, no other card named
        assert ("survives" if lang == "en" else "przetrwa") in advice["explanation"]
        assert "worth less overall" not in advice["explanation"]


def test_bid_advice_through_cli_is_legal_and_explained(tmp_path):
    rng = random.Random(11)
    hands = deal(rng)
    rec = {"format": "piki-hand/1", "dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]},
           "bids": {}, "plays": []}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    for lang, word in (("en", "Bid"), ("pl", "Deklaruj")):
        out = subprocess.run([sys.executable, "-m", "api.cli", "bid", str(path), "--json", "--time", "0.3",
                              "--lang", lang], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        a = json.loads(out.stdout)
        assert a["bid"] in list(range(14))
        assert {c["bid"] for c in a["candidates"]} == set(range(14))
        assert 0.0 <= a["nil_probability"] <= 1.0
        assert word in a["explanation"]


def test_blind_nil_advice_does_not_depend_on_the_hand():
    answers = []
    for seed in (1, 2, 3):
        hands = deal(random.Random(seed))
        rec = HandRecord.from_json({
            "dealer": "N", "score_before": {"NS": 100, "EW": 420},
            "hands": {"N": [str(c) for c in hands[Seat.N]]}, "bids": {}, "plays": []})
        a = bid_json(rec, time_budget=0.4, seed=9)
        bn = next(c for c in a["candidates"] if c["bid"] == "blind_nil")
        answers.append((bn["expected_points"], a["blind_nil_probability"]))
    assert len(set(answers)) == 1, answers


def test_blind_nil_only_when_trailing_enough():
    hands = deal(random.Random(4))
    base = {"dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]}, "bids": {}, "plays": []}
    near = bid_json(HandRecord.from_json(base | {"score_before": {"NS": 100, "EW": 290}}), time_budget=0.2)
    assert all(c["bid"] != "blind_nil" for c in near["candidates"])
    far = HandRecord.from_json({"dealer": "N", "score_before": {"NS": -50, "EW": 450}, "bids": {}, "plays": []})
    a = bid_json(far, time_budget=0.3)  # the hand is not looked at: blind nil or not, from the score
    assert any(c["bid"] == "blind_nil" for c in a["candidates"])


def test_bid_advice_uses_a_hand_only_partly_known():
    # A scan that missed one card: the twelve found still decide the bid (the thirteenth is drawn
    # from the unseen cards), where before the whole hand was treated as not looked at.
    strong = "AS KS QS JS TS 9S AH AD AC KH KD KC".split()
    weak = "2S 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C 6C".split()

    def advice(hand, lang="en"):
        rec = HandRecord.from_json({"dealer": "N", "hands": {"N": hand} if hand else {}, "bids": {},
                                    "plays": []})
        return bid_json(rec, time_budget=0.3, seed=3, lang=lang)

    unseen, big, small = advice([]), advice(strong), advice(weak)
    assert (unseen["hand_cards_known"], big["hand_cards_known"]) == (0, 12)
    assert not big["looked_at_hand"] and not unseen["looked_at_hand"]
    assert int(big["bid"]) >= 8 > int(unseen["bid"]), (big["bid"], unseen["bid"])
    assert big["expected_team_tricks"] >= unseen["expected_team_tricks"] + 3
    assert small["nil_probability"] >= 0.5 > unseen["nil_probability"], (small, unseen)
    assert "only partly known (12 of 13 cards)" in big["explanation"]
    assert "missing cards (1)" in big["explanation"]
    assert "not in the record" in unseen["explanation"] and "partly" not in unseen["explanation"]
    assert "12 z 13 kart" in advice(strong, "pl")["explanation"]


@pytest.mark.parametrize("cards", ["AS KS QS JS TS 9S AH AD AC KH KD KC", "2S 3H 4H 5H 2D 3D 4D 2C 3C 4C 5C 6C",
                                   "AS 7S 4S KH QH 9H 6H 3H TD 8D 5D 9C"])
def test_counting_rules_bid_for_a_hand_only_partly_known(cards):
    # The rules' bid that breaks the advice's near-ties is, for twelve known cards, the one most
    # of the 40 possible thirteenth cards give (seeds differ in which completions vote).
    from collections import Counter

    from advisor.advice import _rule_bid_completed
    from advisor.bots.heuristic_bid import choose_bid
    from advisor.cards import cards_to_mask

    state = replay(HandRecord.from_json({"dealer": "N", "hands": {"N": cards.split()}, "bids": {}, "plays": []}))
    known = cards_to_mask(parse_card(c) for c in cards.split())
    every = Counter(choose_bid(state, hand=known | 1 << c) for c in range(52) if not known >> c & 1)
    assert every.most_common(1)[0][1] >= 26  # a clear majority: the vote should find it
    votes = {_rule_bid_completed(state, random.Random(seed)) for seed in range(5)}
    assert votes == {every.most_common(1)[0][0]}


def test_play_advice_with_a_hand_only_partly_known():
    """A card the camera missed: the advice picks among the known cards, the missing ones drawn
    from the unseen cards in each deal, and says how often a missing card would have had to go."""
    rng = random.Random(12)
    for _ in range(200):  # a real position: E to follow hearts, one of its non-hearts not known
        st = HandState(Rules(), Seat.N, deal(rng))
        for b in (3, 4, 2, 3):
            st.bid(b)
        st.play(max(st.legal_cards()))  # N leads
        hand = st.holding(Seat.E)
        if st.led_suit is not None and any(c // 13 == st.led_suit for c in hand) \
                and sum(c // 13 != st.led_suit for c in hand) >= 2:
            break
    missing = next(c for c in hand if c // 13 != st.led_suit)
    rec = seat_record(st, Seat.E).to_json()
    rec["hands"]["E"] = [str(c) for c in hand if c != missing]
    out = play_json(HandRecord.from_json(rec), time_budget=0.3, seed=2)
    assert out["card"] in {str(c) for c in st.legal_cards()} and out["card"] != str(missing)
    assert {m["card"] for m in out["candidates"]} == {str(c) for c in st.legal_cards()}
    assert out["explanation"].startswith("Only 12 of the 13 cards you hold are known")
    with pytest.raises(ValueError, match="N's hand is not known"):
        play_json(HandRecord.from_json({"dealer": "N", "bids": {"N": 3, "E": 4, "S": 2, "W": 3}, "plays": []}),
                  time_budget=0.2)


def test_play_advice_with_a_hand_only_partly_known_skips_deals_where_a_missing_card_must_go():
    # E knows no heart, hearts are led: in the deals that give E's missing card a heart it must
    # follow with it, so the known cards are valued over the other deals, and that share is said.
    rec = {"dealer": "N", "hands": {"E": "2S 3S 4S 5S 2D 3D 4D 5D 2C 3C 4C 5C".split()},
           "bids": {"N": 3, "E": 4, "S": 2, "W": 3}, "plays": ["AH"]}
    out = play_json(HandRecord.from_json(rec), time_budget=0.3, seed=1)
    assert out["card"] in rec["hands"]["E"]
    assert "a missing card would have to be played instead" in out["explanation"]
    pl = play_json(HandRecord.from_json(rec), time_budget=0.3, seed=1, lang="pl")
    assert "brakującą kartę" in pl["explanation"]


def test_blind_nil_advice_with_the_cards_in_the_record_also_gives_the_bid_after_looking():
    # Blind nil is chosen from the score alone; with the hand in the record the player may have
    # looked already, and then the advice's bid for that hand is named (here a very strong one).
    cards = "AS KS QS JS TS 9S AH AD AC KH KD KC QC".split()
    base = {"dealer": "N", "score_before": {"NS": 290, "EW": 490}, "bids": {}, "plays": []}
    seen = bid_json(HandRecord.from_json(base | {"hands": {"N": cards}}), time_budget=0.3, seed=1)
    unseen = bid_json(HandRecord.from_json(base), time_budget=0.3, seed=1)
    assert seen["bid"] == unseen["bid"] == "blind_nil"  # the hand does not decide it
    assert int(seen["bid_after_looking"]) >= 9
    assert f"then bid {seen['bid_after_looking']} (game won" in seen["explanation"]
    assert "already looked" not in unseen["explanation"]
    far = bid_json(HandRecord.from_json({**base, "score_before": {"NS": 100, "EW": 120}, "hands": {"N": cards}}),
                   time_budget=0.3, seed=1)
    assert far["bid_after_looking"] == far["bid"] != "blind_nil"
    # a player known to have looked (a photo of the hand) is not told to bid blind nil
    looked = bid_json(HandRecord.from_json(base | {"hands": {"N": cards}}), time_budget=0.3, seed=1, cards_seen=True)
    assert looked["bid"] == looked["bid_after_looking"] and int(looked["bid"]) >= 9
    assert "can no longer be bid" in looked["explanation"] and "Decide before" not in looked["explanation"]


def test_blind_nil_advised_only_when_the_game_needs_the_gamble():
    def advice(ns, ew):
        rec = HandRecord.from_json({"dealer": "N", "score_before": {"NS": ns, "EW": ew}, "bids": {}, "plays": []})
        return bid_json(rec, time_budget=0.2, seed=1)

    # Opponents at 490 win next hand unless something big happens: the swing is worth it.
    desperate = advice(290, 490)
    assert desperate["bid"] == "blind_nil", desperate
    assert "Blind nil: yes" in desperate["explanation"]
    # Trailing by 200 early in the game: the odds (about one in four) are not worth it.
    early = advice(100, 300)
    assert early["bid"] != "blind_nil"
    assert "not advised" in early["explanation"]


def test_a_nil_the_chance_floor_keeps_out_is_named_with_its_odds():
    """A nil that ranks above the advised bid but makes less often than the advice's floor (60%
    where the counting rules propose it) is not advised; the explanation says what it would bring
    and why it is not the advice, rather than only "Nil would make 56% of the time"."""
    rec = HandRecord.from_json({
        "dealer": "W", "bids": {"W": 2}, "plays": [],
        "hands": {"N": "5S 9S JH 6D 7D TD JD QD KD 4C 6C 8C TC".split()},
        "score_before": {"NS": 344, "EW": 377}, "bags_before": {"NS": 4, "EW": 7}})
    en = bid_json(rec, time_budget=20.0, seed=5)  # every deal solved: the same answer each run
    pct = 100 * en["nil_probability"]
    assert en["bid"] != 0 and pct < 60
    nil = next(c for c in en["candidates"] if c["bid"] == 0)
    advised = next(c for c in en["candidates"] if c["bid"] == en["bid"])
    assert nil["win_chance"] > advised["win_chance"]
    assert (f"Nil scores more on average here ({nil['expected_points']:+.0f} points, game won"
            f" {100 * nil['win_chance']:.0f}% of the time), but it makes only {pct:.0f}% of the time: the advice"
            " bids nil from about 60%") in en["explanation"], en["explanation"]
    assert "Nil would make" not in en["explanation"]
    pl = bid_json(rec, time_budget=20.0, seed=5, lang="pl")
    assert f"ale udaje się tylko w {pct:.0f}% przypadków: rada zaleca zero od ok. 60%" in pl["explanation"]


def test_texts_start_with_a_capital_where_a_bid_opens_them():
    from advisor.explain import say

    assert say("en", "bid_rule_level", bid=0, top=1).startswith("Nil is what counting")
    assert say("pl", "bid_rule_level", bid=0, top=1).startswith("Zero wynika")
    # a nil as the other bid of the game-chance line is named too, not "0"
    assert "3 wins it 52.0% of the time, nil (more points on average) 44.0%" in say(
        "en", "bid_game_end", bid=3, pct=52.0, other=0, other_pct=44.0)


def test_blind_nil_after_the_partners_bid_gives_its_chance_once_and_chances_that_differ():
    import re

    def explanation(ns, ew):
        rec = HandRecord.from_json({"dealer": "S", "bids": {"S": 3, "W": 4, "N": 1}, "plays": [],
                                    "score_before": {"NS": ns, "EW": ew}})
        return bid_json(rec, time_budget=0.2, seed=1)["explanation"]

    # E trails by 212 with partner W's 4 as cover: the chance that a blind nil makes comes once
    text = explanation(300, 88)
    assert "with that cover a blind nil makes about" in text and "makes only about" not in text, text
    assert text.count("Blind nil: yes.") == 1
    # trailing by 350 the game chance moves by less than a point: shown with a decimal, not "4% to 4%"
    text = explanation(450, 100)
    low, high = re.search(r"from (\d+\.\d)% to (\d+\.\d)%", text).groups()
    assert float(low) < float(high), text


def test_the_bags_line_of_a_bid_is_about_a_contract_not_a_nil():
    def advice(hand):
        rec = HandRecord.from_json({"dealer": "N", "hands": {"E": hand.split()}, "bids": {"N": 3}, "plays": [],
                                    "bags_before": {"NS": 0, "EW": 9}})
        return bid_json(rec, time_budget=20.0, seed=1)

    strong = advice("AS KS QS 4H AH 8H AD KD 9D 2C 4C 6C 9C")
    assert strong["bid"] >= 4 and "the bid is not raised to dodge them" in strong["explanation"]
    nil = advice("2S 3S 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C 9C")  # a nil at 9 bags: nothing to raise
    assert nil["bid"] == 0 and "bags" not in nil["explanation"], nil["explanation"]


def test_a_gap_of_one_point_is_one_point():
    from advisor.explain import say

    assert say("en", "contrast_win", card="QH", gap=0.8).endswith("worth 1 point less.")
    assert say("en", "contrast_duck", card="QH", gap=12.0).endswith("worth 12 points less.")
    assert "only 1 point below 2H" in say("en", "nil_technique", card="KH", top="2H", gap=1.2)


def test_blind_nil_not_advised_never_compares_a_chance_with_itself():
    from advisor.blind_nil import advise
    from advisor.rules import PRESETS

    # NS at 450 finish the game next hand whatever EW bid: blind nil changes EW's small chance by
    # less than a point, which the text says instead of "4% instead of 4%"
    verdict = advise(PRESETS["piki"], 1, (450, 120), None)
    assert not verdict.take and round(100 * verdict.win_blind) == round(100 * verdict.win_look)
    for lang, words in (("en", "either way"), ("pl", "tak czy inaczej")):
        rec = HandRecord.from_json({"dealer": "N", "score_before": {"NS": 450, "EW": 120}, "bids": {"N": 3},
                                    "plays": []})
        text = bid_json(rec, time_budget=0.2, seed=1, lang=lang)["explanation"]
        assert words in text, text
        assert not re.search(r"(\d+)% (instead of|zamiast) \1%", text), text


def test_blind_nil_never_doubles_a_partners_nil():
    def advice(bids):
        rec = HandRecord.from_json({"dealer": "N", "score_before": {"NS": 290, "EW": 490}, "bids": bids,
                                    "plays": []})
        return bid_json(rec, time_budget=0.2, seed=1)

    # At this score N, bidding first, is advised blind nil (see above). S, after N's blind nil
    # (or nil), would have nobody to cover it: the advice must not double it.
    for first in ("blind_nil", 0):
        second = advice({"N": first, "E": 3})
        assert second["bid"] != "blind_nil", second
        assert second["blind_nil_probability"] < 0.1
        assert "nobody would cover a blind nil" in second["explanation"]
    # A partner who bid six covers well: the blind nil is advised, with better odds than before.
    strong = advice({"N": 6, "E": 3})
    assert strong["bid"] == "blind_nil", strong
    assert strong["blind_nil_probability"] > advice({})["blind_nil_probability"]
    assert "Partner bid 6" in strong["explanation"]


def test_blind_nil_odds_follow_the_partners_bid():
    from advisor.bids import BLIND_NIL
    from advisor.blind_nil import BEFORE_PARTNER, advise, odds

    assert odds(None) is BEFORE_PARTNER
    assert odds(0) is odds(BLIND_NIL)
    made = [odds(b).success for b in (0, 1, 2, 3, 4, 5, 6, 9)]
    assert made == sorted(made) and made[0] < 0.1 < made[-1]
    # Early in the game, trailing by 200: not worth it in general, worth it behind a partner's 6.
    assert not advise(Rules(), 0, (100, 300)).take
    assert advise(Rules(), 0, (100, 300), 6).take
    assert not advise(Rules(), 0, (100, 300), 0).take


def test_overtricks_cost_their_bag_share_once_only_bags_are_at_stake():
    import advisor.search as search
    from advisor.bots import get_bot
    from advisor.inference import SampledDeal

    bot = get_bot("heuristic")
    for seed in range(40):
        st = HandState(Rules(), Seat.N, deal(random.Random(seed)), (100, 100), (0, 0))
        while st.phase.value == "bidding":
            st.apply(bot.act(seat_view(st, st.to_act)))
        if any(b == 0 for b in st.bids):
            continue
        assert not search.bags_only_at_stake(st, 0) and not search.bags_only_at_stake(st, 1)
        while not st.is_done:
            team = st.to_act & 1
            if search.bags_only_at_stake(st, team) and len(st.legal_cards()) >= 2:
                true_deal = [SampledDeal(tuple(st.held), tuple(st.known))]
                assert search.BAGS_AFTER_CONTRACT
                charged = {m.card: m for m in search.analyse_play(st, deals=true_deal).moves}
                search.BAGS_AFTER_CONTRACT = False
                try:
                    plain = {m.card: m for m in search.analyse_play(st, deals=true_deal).moves}
                finally:
                    search.BAGS_AFTER_CONTRACT = True
                contract = st.bids[team] + st.bids[team + 2]
                theirs = st.bids[1 - team] + st.bids[3 - team]
                for card, m in plain.items():
                    # each overtrick: +1 point now, -10 later (a tenth of the 100-point penalty),
                    # the opponents' too once their contract is made
                    their_over = max(0, 13 - m.tricks - theirs)
                    assert m.points - charged[card].points == pytest.approx(
                        10 * (m.tricks - contract) - 10 * their_over)
                best_plain = max(plain.values(), key=lambda m: m.points)
                best_charged = max(charged.values(), key=lambda m: m.points)
                if best_charged.tricks < best_plain.tricks:
                    return  # found a position where the charge makes the search duck
            st.apply(bot.act(seat_view(st, st.to_act)))
    pytest.fail("no position where the bag charge changes the best card")


def test_beside_a_partners_nil_the_bid_counts_only_the_bidders_own_tricks():
    from advisor.cards import cards_to_mask
    from advisor.handeval import estimate_tricks

    for seed in range(3):
        hand = deal(random.Random(seed))[Seat.S]
        own = estimate_tricks(cards_to_mask(hand))
        base = {"dealer": "N", "score_before": {"NS": 100, "EW": 350},
                "hands": {"S": [str(c) for c in hand]}, "plays": []}
        advice = {p: bid_json(HandRecord.from_json(base | {"bids": {"N": p, "E": 3}}), time_budget=0.4, seed=1)
                  for p in ("blind_nil", 0, 3)}
        # A blind nil's hand holds about three tricks, a nil's about one: they are the partner's,
        # and they do not count towards the contract (nor, made, are they taken at all).
        for p in ("blind_nil", 0):
            assert advice[p]["bid"] <= round(own) + 1, (seed, p, own, advice[p])
            assert advice[p]["expected_team_tricks"] < advice[3]["expected_team_tricks"] - 1.0


def test_choose_action_is_legal_for_views_of_both_presets():
    for seed in range(4):
        for preset in ("piki", "pagat"):
            st = HandState(Rules.from_spec(preset), Seat(seed), deal(random.Random(seed)))
            while not st.is_done:
                view = seat_view(st, st.to_act)
                if st.phase.value == "bidding":
                    b = choose_action(view, time_budget=0.02, seed=seed)
                    assert b in st.legal_bids()
                    st.bid(b)
                else:
                    c = choose_action(view, time_budget=0.01, seed=seed)
                    assert c in st.legal_cards()
                    st.play(c)
                if len(st.plays) > 12:
                    break


def _match_hand(line: int) -> dict:
    """The record of the ``line``-th hand (from 1) of the fifteenth 500-game run's committed hands."""
    import gzip
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "benchmarks/matches/pimc-heuristic-seed11-r15-hands.jsonl.gz"
    with gzip.open(path, "rt") as f:
        return json.loads([next(f) for _ in range(line)][-1])["record"]


def _random_hand(seed: int, bids: tuple) -> HandRecord:
    """A finished hand: a seeded deal (dealer N), the given bids, random legal cards."""
    rng = random.Random(seed)
    st = HandState(Rules(), Seat.N, deal(rng))
    for b in bids:
        st.bid(b)
    while not st.is_done:
        st.play(rng.choice(st.legal_cards()))
    return HandRecord(rules=st.rules, dealer=st.dealer,
                      hands={Seat(s): _held(st, s) for s in range(4)},
                      bids={Seat(s): b for s, b in enumerate(st.bids)}, plays=list(st.plays))


def test_review_without_a_budget_is_the_same_every_time():
    """No time budget: each decision is judged on a fixed set of deals, so a second review of the
    same hand (here with the machine made busy by a search on another thread) says the same."""
    import threading

    rec = _random_hand(8, (4, 2, 3, 3))
    first = review_json(rec, seat="S")
    busy = threading.Thread(target=lambda: review_json(rec, seat="W"))
    busy.start()
    second = review_json(rec, seat="S")
    busy.join()
    assert second == first
    plays = [d for d in first["decisions"] if d["kind"] == "play"]
    assert len(plays) == 13 and sum(d["mark"] != "" for d in plays) >= 2
    # each decision says whether the review lists it (the text and the web page both read it)
    from advisor.advice import worth_a_line
    from api.text import render_review

    assert [d["listed"] for d in first["decisions"]] == [worth_a_line(d) for d in first["decisions"]]
    listed = [d for d in first["decisions"] if d["listed"]]
    assert listed and len(listed) < len(first["decisions"])
    text = render_review(first)
    assert all(f" {d['played']}, best {d['best']} " in text for d in listed if d["kind"] == "play")
    assert all(f" {d['played']}, best " not in text for d in first["decisions"] if not d["listed"])


def test_only_card_is_not_dressed_up_as_nil_technique():
    # N bid nil and has one legal card: the advice says so and gives no nil technique for it.
    for seed in range(200):
        rng = random.Random(seed)
        st = HandState(Rules(), Seat.N, deal(rng))
        for b in (0, 3, 4, 3):
            st.bid(b)
        while not st.is_done and not (st.to_act is Seat.N and len(st.legal_cards()) == 1 and st.tricks[0] == 0
                                      and st.trick_number > 2):
            st.play(rng.choice(st.legal_cards()))
        if not st.is_done:
            break
    else:
        pytest.fail("no such position")
    out = play_json(seat_record(st, Seat.N), time_budget=0.1)
    assert out["explanation"].startswith(f"{out['card']} is your only legal card.")
    assert "nil" not in out["explanation"], out["explanation"]
    # the forced card is still valued: what the hand is expected to bring (not 0 tricks, 0% to win)
    (only,) = out["candidates"]
    assert out["samples"] > 0 and 0 < only["win_chance"] < 1
    assert st.tricks[0] + st.tricks[2] <= only["expected_tricks"] <= 13 - st.tricks[1] - st.tricks[3]
    assert f"Your team expects {only['expected_tricks']:.1f} tricks" in out["explanation"]


def test_review_knows_a_hand_from_its_plays():
    """A finished hand recorded as it was played, with only N's hand listed: every other seat's
    hand is known from the cards it played, and its review is the one with that hand listed."""
    rec = _random_hand(8, (4, 2, 3, 3))
    plays_only = dataclasses.replace(rec, hands={Seat.N: rec.hands[Seat.N]})
    listed = review_json(rec, seat="W")
    from_plays = review_json(plays_only, seat="W")
    assert len(from_plays["decisions"]) == 14  # the bid and 13 cards
    assert from_plays == listed


def test_review_says_which_hands_are_not_known():
    # Twelve cards listed and the thirteenth played: N's hand is whole, its bid and card reviewed.
    rec = HandRecord.from_json({"dealer": "N", "hands": {"N": "AS KS QS JS TS 9S AH AD AC KH KD KC".split()},
                                "bids": {"N": 3, "E": 4, "S": 2, "W": 3}, "plays": ["QH"]})
    assert [d["kind"] for d in review_json(rec, seat="N", time_budget=0.1)["decisions"]] == ["bid", "play"]
    out = review_json(rec, seat="E", time_budget=0.1)
    assert out["decisions"] == [] and "(cards known: E 0/13)" in out["summary"]
    short = HandRecord.from_json({"dealer": "N", "hands": {"N": "AS KS QS".split()}, "bids": {}, "plays": []})
    assert "(cards known: N 3/13)" in review_json(short, seat="N")["summary"]
    assert "(cards known: N 3/13 E 0/13 S 0/13 W 0/13)" in review_json(short)["summary"]
    assert "(znane karty: N 3/13)" in review_json(short, seat="N", lang="pl")["summary"]
    fresh = HandRecord.from_json({"dealer": "N", "hands": {"N": "AS KS QS JS TS 9S AH AD AC KH KD KC QC".split()},
                                  "bids": {}, "plays": []})
    assert review_json(fresh)["summary"] == "Nothing to review yet: the record has no bid or card of N."


# A hand of the pimc-counter match (deal set 1, hand 4): S bid nil and, under partner's winning
# AH, AD and KH, shed JH, KD and 8H; the counter bot's defence still set the nil later.
NIL_SHEDS = {
    "dealer": "W", "score_before": {"NS": 144, "EW": 192}, "bags_before": {"NS": 4, "EW": 2},
    "hands": {
        "N": "2S 5S KS 4H KH AH 6D 7D 9D AD 6C 7C 9C".split(),
        "E": "3S 9S JS AS 2H 3H 7H 9H QH JD QD 8C JC".split(),
        "S": "7S 5H 6H 8H JH 2D 3D 4D 5D TD KD 3C QC".split(),
        "W": "4S 6S 8S TS QS TH 8D 2C 4C 5C TC KC AC".split(),
    },
    "bids": {"N": 4, "E": 2, "S": 0, "W": 4},
    "plays": ("2C 9C 8C 3C AH QH JH TH AD QD KD 8D KH 9H 8H TS 4C 7C JC QC 2D 4S 6D JD AC 6C 2H 7S 5H 6S "
              "4H 3H 8S 2S AS 6H 7H 3D 5C 5S 7D 3S 4D TC 9S 5D QS KS 9D JS TD KC").split(),
}


def test_review_does_not_call_nil_technique_a_mistake():
    """Double dummy sees no reason for a nil bidder to shed a high card under the partner's
    winner (the defenders see every card): the advice plays such cards unless the search finds
    them far worse, and the review must not mark them as mistakes either."""
    r = review_json(HandRecord.from_json(NIL_SHEDS), seat="S")
    sheds = {d["played"]: d for d in r["decisions"] if d["kind"] == "play" and d["played"] in ("JH", "KD", "8H")}
    assert len(sheds) == 3
    for d in sheds.values():
        assert d["mark"] == "" and d["cost"] == 0 and d["best"] == d["played"], d


def test_review_flags_a_thrown_trick(tmp_path):
    # Play a hand where N, holding the AS late, discards it under partner's... simpler: play
    # random legal cards, then check that review costs are non-negative, best is legal, and a
    # deliberately bad card (a needless ace under partner's winning card) is flagged.
    rec = _random_hand(21, (3, 3, 3, 3))
    r = review_json(rec, seat="N", time_budget=0.03, seed=2)
    plays = [d for d in r["decisions"] if d["kind"] == "play"]
    assert len(plays) == 13 and all(d["seat"] == "N" for d in plays)
    assert all(d["cost"] >= 0 for d in r["decisions"])
    # Random play makes mistakes: some must be flagged, and flagged ones cost tricks.
    flagged = [d for d in plays if d["mark"]]
    assert flagged
    assert "N" in r["summary"]
    # each card's note says what it did and, where another card was better, what that one does
    from advisor.card_role import card_role
    from advisor.explain import say

    def does(view, card):
        key, params = card_role(view, 0, card)
        return say("en", key, **params)

    by_index = {d["index"]: d for d in plays}
    replayed = rec.new_state()
    for b in (3, 3, 3, 3):
        replayed.bid(b)
    for i, card in enumerate(rec.plays):
        if i in by_index:
            d, view = by_index[i], seat_view(replayed, Seat.N)
            did, better = does(view, card), does(view, parse_card(d["best"]))
            assert d["note"] == (did if d["best"] == d["played"] else f"{did} Better: {better}")
        replayed.play(card)
    assert any("Better: " in d["note"] for d in plays)
    # the bid's note: how often the team's contract (3 + partner's 3) makes, beside the best bid's
    (bid,) = [d for d in r["decisions"] if d["kind"] == "bid"]
    assert bid["note"].startswith("With 3, your team's contract makes in about ")
    assert (f"; with {bid['best']}, in " in bid["note"]) == (bid["best"] not in (3, 0))  # 0: a nil has no contract


@pytest.mark.parametrize("seed", range(4))
def test_nil_advice_stays_within_the_nil_window_and_says_why(seed):
    from advisor.search import NIL_TIE_POINTS

    rng = random.Random(100 + seed)
    st = HandState(Rules(), Seat(seed % 4), deal(rng))
    for i in range(4):
        st.bid(0 if i == 1 else rng.choice([3, 4]))
    nil_seat = st.first.next(1)
    for _ in range(rng.randrange(0, 12)):
        st.play(rng.choice(st.legal_cards()))
    while st.to_act not in (nil_seat, nil_seat.partner):
        st.play(rng.choice(st.legal_cards()))
    rec = seat_record(st, st.to_act)
    advice = play_json(rec, time_budget=0.4, seed=seed)
    values = {c["card"]: c["expected_points"] for c in advice["candidates"]}
    top = max(values.values())
    assert values[advice["card"]] >= top - NIL_TIE_POINTS - 0.1
    assert advice["candidates"][0]["card"] == advice["card"]
    if values[advice["card"]] < top - 1.0 and st.tricks[nil_seat] == 0:
        assert "nil technique" in advice["explanation"]


@pytest.mark.parametrize("deal_seed", [308, 171, 225, 39])
def test_a_rule_nil_needs_the_simulations_chance(deal_seed):
    # Hands the trick-counting rules would bid nil with (N, dealer, bids first). The advice
    # follows them only when the simulation gives the nil a fair chance: 308 and 171 are weak
    # nils (about 0.2-0.3 here), 225 and 39 sound ones (about 0.8).
    from advisor.advice import RULE_NIL_MIN_PROBABILITY, analyse_bid
    from advisor.bots.heuristic_bid import choose_bid

    st = HandState(Rules(), Seat.N, deal(random.Random(deal_seed)))
    view = seat_view(st, Seat.N)
    assert choose_bid(view) == 0
    a = analyse_bid(view, time_budget=0.7, seed=1)
    if a["nil_probability"] < RULE_NIL_MIN_PROBABILITY:
        assert a["bid"] != 0
        assert deal_seed in (308, 171)
    else:
        assert deal_seed in (225, 39)


def test_the_nil_window_grows_with_the_nils_stake():
    from advisor.search import NIL_TIE_POINTS, PlayAnalysis, _nil_window

    st = HandState(Rules(), Seat.N, deal(random.Random(2)), points_before=(0, 250))
    st.bid(BLIND_NIL)  # N, 250 behind
    for b in (3, 4, 3):
        st.bid(b)
    blind = PlayAnalysis(seat=2, moves=[], samples=0, elapsed=0.0, nils=[0])  # S covers N
    assert _nil_window(st, blind) == 2 * NIL_TIE_POINTS
    st2 = HandState(Rules(), Seat.N, deal(random.Random(2)))
    for b in (0, 3, 4, 3):
        st2.bid(b)
    assert _nil_window(st2, PlayAnalysis(seat=0, moves=[], samples=0, elapsed=0.0, nils=[0])) == NIL_TIE_POINTS
    # an opponent's nil does not widen our window
    assert _nil_window(st2, PlayAnalysis(seat=1, moves=[], samples=0, elapsed=0.0, nils=[0, 1])) \
        == NIL_TIE_POINTS


def test_a_bag_costs_its_long_run_share_whatever_the_bag_count():
    from advisor.scoring import score_hand
    from advisor.search import hand_value, play_value

    rules = Rules()
    for bags in range(10):
        for tricks in range(4, 10):
            ns, _ = score_hand(rules, (3, 2, 3, 2), (tricks, 3, 0, 13 - tricks - 3), (100, 100),
                               (bags, 0))
            made = tricks >= 6
            over = max(0, tricks - 6)
            assert ns.bag_penalty == (100 if made and bags + over >= 10 else 0)
            # the penalty of a limit reached is not this hand's: every bag costs 10 instead
            assert hand_value(rules, ns) == (60 + over - 10 * over if made else -60)
            assert play_value(ns) == (60 + over if made else -60)


def test_bid_advice_near_the_bag_limit_says_how_bags_are_counted():
    hands = deal(random.Random(4))
    rec = HandRecord.from_json({
        "dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]},
        "bags_before": {"NS": 9, "EW": 0}, "score_before": {"NS": 100, "EW": 100},
    })
    assert replay(rec).to_act == Seat.N
    for lang, words in (("en", ("9 bags", "about 10 points in the long run")),
                        ("pl", ("9 worków", "około 10 pkt"))):
        text = bid_json(rec, time_budget=0.3, seed=1, lang=lang)["explanation"]
        assert all(w in text for w in words), text
    # far from the limit it is not said
    rec.bags_before = (2, 0)
    assert "bags" not in bid_json(rec, time_budget=0.3, seed=1)["explanation"]


def test_the_bag_warning_agrees_with_its_numbers():
    """Near the bag limit the advice says how many bags the team has and how many more cost the
    penalty, its words in the number's form: "1 more costs", "jeszcze 2 kosztują", "3 worki"."""
    from advisor.explain import say

    assert "has 9 bags: avoid overtricks, 1 more costs 100 points" in say("en", "bags_near", bags=9, left=1, penalty=100)
    assert "has 1 bag (2 more cost 50 points)" in say("en", "bags_near_bid", bags=1, left=2, penalty=50, share=17)
    assert "ma 9 worków: unikaj nadróbek, jeszcze 1 kosztuje 100 pkt" in say("pl", "bags_near", bags=9, left=1,
                                                                              penalty=100)
    assert "ma 8 worków (jeszcze 2 kosztują 100 pkt)" in say("pl", "bags_near_bid", bags=8, left=2, penalty=100,
                                                             share=10)
    # a lower limit of the rules: the same through the bid advice
    hands = deal(random.Random(4))
    rec = HandRecord.from_json({
        "dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]},
        "rules": {"preset": "piki", "bags": {"limit": 5, "penalty": 50}},
        "bags_before": {"NS": 3, "EW": 0}, "score_before": {"NS": 100, "EW": 100},
    })
    text = bid_json(rec, time_budget=0.2, seed=1, lang="pl")["explanation"]
    assert "Twoja para ma 3 worki (jeszcze 2 kosztują 50 pkt)" in text, text
    # a count past the limit (the penalty falls due this hand): the bags towards the next one
    rec.bags_before = (9, 0)
    assert "(jeszcze 1 kosztuje 50 pkt)" in bid_json(rec, time_budget=0.2, seed=1, lang="pl")["explanation"]
    rec.bags_before = (6, 0)
    assert "bags" not in bid_json(rec, time_budget=0.2, seed=1)["explanation"]


def test_near_the_goal_the_real_score_decides_not_the_long_run_bag_cost():
    from advisor.scoring import score_hand
    from advisor.search import hand_value, score_after

    rules = Rules()

    def after(before, bags, tricks_ns):
        # N-S bid 3 + 2 and take tricks_ns (N all of them); E-W bid 4 + 4
        ns, _ = score_hand(rules, (3, 4, 2, 4), (tricks_ns, 13 - tricks_ns, 0, 0), (before, 100),
                           (bags, 0))
        return ns, score_after(rules, before, ns, hand_value(rules, ns))

    # 460 with 9 bags, 6 taken: 51 points less the limit's 100, so 411 and no win, though the
    # long-run value (+41) would put the team over the goal
    ns, score = after(460, 9, 6)
    assert (ns.points, hand_value(rules, ns)) == (411, 41) and score == 411
    # far from the goal the long-run value counts: 100 + 41, not the real 51
    assert after(100, 9, 6)[1] == 141
    # the goal reached for real
    assert after(480, 0, 6)[1] == 531
    # the floor: set by one from -160, -210 ends the game
    ns, score = after(-160, 0, 4)
    assert ns.points == -210 and score == -210


def test_the_last_bid_near_the_end_names_the_opponents_contract():
    from advisor.advice import analyse_bid

    # East-West at 490 have bid 5 (3 + 2); North, last to bid, needs them set
    st = HandState(Rules(), Seat.E, deal(random.Random(2)), (300, 490))
    for b in (3, 4, 2):
        st.bid(b)
    view = seat_view(st, Seat.N)
    en = analyse_bid(view, seed=1, time_budget=0.3)
    assert "With this score the game is what counts" in en["explanation"]
    assert "The opponents bid 5 together at 490 points: making it takes them to 540 or more" \
        in en["explanation"]
    assert "beyond 8 sets them" in en["explanation"]
    pl = analyse_bid(view, seed=1, time_budget=0.3, lang="pl")
    assert "Przeciwnicy zadeklarowali razem 5 przy 490 pkt" in pl["explanation"]


def test_words_after_a_number_take_its_form():
    from advisor.explain import say

    assert say("en", "contract_need", need=1, contract=3) == "Your team needs 1 more trick for its contract of 3."
    assert say("en", "contract_need", need=4, contract=5) == "Your team needs 4 more tricks for its contract of 5."
    assert "brakuje 1 lewy do" in say("pl", "contract_need", need=1, contract=3)
    assert "brakuje 4 lew do" in say("pl", "contract_need", need=4, contract=5)
    assert "need 1 more trick for 6" in say("en", "set_them", need=1, contract=6, value=70)
    # Polish writes a decimal comma, and a fraction of tricks takes "lewy"
    assert "oczekuje 5,4 lewy i +12 pkt" in say("pl", "best_card", card="KH", tricks=5.4, points=12, samples=9)
    assert "expects 5.4 tricks" in say("en", "best_card", card="KH", tricks=5.4, points=12, samples=9)


def test_every_reason_reads_in_both_languages_with_the_same_figures():
    import string

    from advisor.explain import TEXTS

    assert set(TEXTS["en"]) == set(TEXTS["pl"])
    for key, text in TEXTS["en"].items():
        fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
        assert fields == {f for _, f, _, _ in string.Formatter().parse(TEXTS["pl"][key]) if f}, key


def test_a_rule_bid_the_game_chance_ranks_above_the_top_is_not_called_worse():
    record = {"format": "piki-hand/1", "rules": "piki", "dealer": "E", "score_before": {"NS": 300, "EW": 490},
              "hands": {"N": "AS KS 2H 3H 4H 5D 6D 7D 8C 9C TC JC QC".split()},
              "bids": {"E": 3, "S": 4, "W": 2}}
    from advisor.advice import analyse_bid

    texts = [analyse_bid(replay(HandRecord.from_json(record)), seed=s, time_budget=0.3)["explanation"]
             for s in (1, 2, 3, 4)]
    assert not any("only -" in t for t in texts)
    assert any("at least as high as 1" in t for t in texts)  # 2 by the counting rules, 1 on points


def test_bid_advice_gives_each_contract_its_chance_to_make():
    from advisor.advice import analyse_bid
    from advisor.bidmodel import trick_distribution
    from advisor.handeval import estimate_tricks
    from advisor.search import bid_samples, make_chance

    hand = "AS KS 7S 4S AH QH 5H KD 9D 3D 8C 6C 2C".split()
    state = replay(HandRecord.from_json({"dealer": "N", "hands": {"S": hand}, "bids": {"N": 4, "E": 3}}))
    model = bid_samples(state, time_budget=0.3, rng=random.Random(5))
    chances = [make_chance(model, b) for b in range(1, 14)]
    assert all(a >= b for a, b in zip(chances, chances[1:])) and chances[0] > 0.9 > chances[-1]
    # deal by deal: the team's tricks reach the bid plus the partner's (known here: 4)
    assert set(model.partner_bids) == {4}
    by_deal = sum(sum(trick_distribution(m, model.sigma)[4 + 4:]) for m in model.means) / len(model.means)
    assert make_chance(model, 4) == pytest.approx(by_deal)

    out = analyse_bid(state, seed=5, time_budget=0.3)
    rows = {r["bid"]: r for r in out["candidates"]}
    assert "make_chance" not in rows[0] and all("make_chance" in r for b, r in rows.items() if b != 0)
    pct = 100 * rows[out["bid"]]["make_chance"]
    assert f"contract of {out['bid'] + 4} makes in about {pct:.0f}%" in out["explanation"]
    assert f"gives about {estimate_tricks(state.held[2]):.1f} tricks" in out["explanation"]
    # beside a partner's nil the team's contract is the bidder's alone: no chance is given
    nil = replay(HandRecord.from_json({"dealer": "N", "hands": {"S": hand}, "bids": {"N": 0, "E": 3}}))
    assert all("make_chance" not in r for r in analyse_bid(nil, seed=5, time_budget=0.3)["candidates"])


def test_review_text_names_bids_and_shows_tricks_lost_beside_points():
    from advisor.advice import worth_a_line
    from api.text import render_review

    review = {"summary": "N: 1 costly decision.", "decisions": [
        {"kind": "bid", "index": 0, "label": "bid 1", "seat": "N", "played": 2, "best": 3, "cost": 5.5,
         "mark": "", "note": "With 2, ..."},
        {"kind": "play", "index": 28, "label": "trick 8", "seat": "N", "played": "JS", "best": "2H",
         "cost": 0.8, "tricks_lost": 0.4, "mark": "?", "note": "JS: ..."},
        {"kind": "play", "index": 30, "label": "trick 8", "seat": "S", "played": "AD", "best": "2D",
         "cost": 41.75, "cost_error": 9.6, "tricks_lost": 0.0, "mark": "?", "note": "AD: ..."},
        {"kind": "play", "index": 33, "label": "trick 9", "seat": "N", "played": "3C", "best": "3C",
         "cost": 0.0, "tricks_lost": 0.0, "mark": "", "note": "3C: ..."},
        {"kind": "bid", "index": 2, "label": "bid 3", "seat": "S", "played": "blind_nil", "best": "nil",
         "cost": 40.0, "mark": "?", "note": ""},
        # unmarked: a cost within the sampling's noise, or under a point, names no better card
        {"kind": "play", "index": 36, "label": "trick 10", "seat": "S", "played": "4H", "best": "QH",
         "cost": 0.1, "cost_error": 0.1, "tricks_lost": 0.0, "mark": "", "note": "4H: ..."},
        {"kind": "play", "index": 40, "label": "trick 11", "seat": "S", "played": "5H", "best": "6H",
         "cost": 3.0, "cost_error": 2.5, "tricks_lost": 0.0, "mark": "", "note": "5H: ..."},
        {"kind": "bid", "index": 3, "label": "bid 4", "seat": "W", "played": 3, "best": 4,
         "cost": 0.4, "mark": "", "note": ""},
        {"kind": "play", "index": 44, "label": "trick 12", "seat": "S", "played": "7H", "best": "8H",
         "cost": 3.0, "cost_error": 1.0, "tricks_lost": 0.0, "mark": "", "note": "7H: ..."},
    ]}
    for d in review["decisions"]:  # as advisor.advice.review_json marks them
        d["listed"] = worth_a_line(d)
    lines = render_review(review).splitlines()
    assert lines[0] == "   bidding N: bid 2, best 3 (costs 5.5 points)"
    assert lines[2] == "   trick 8 N: played JS, best 2H (costs 0.8 points, 0.4 tricks) ?"
    assert lines[4] == "   trick 8 S: played AD, best 2D (costs 41.8 ± 9.6 points) ?"  # with its error
    assert lines[6] == "   bidding S: bid blind nil, best nil (costs 40.0 points) ?"
    assert lines[7] == "  trick 12 S: played 7H, best 8H (costs 3.0 ± 1.0 points)"  # clear of the noise
    for hidden in ("trick 9", "trick 10", "trick 11", "bidding W"):
        assert hidden not in render_review(review)
    assert lines[-1] == "N: 1 costly decision."
    # in Polish the labels around the (already translated) notes are Polish too, with decimal commas
    pl = render_review(review, lang="pl").splitlines()
    assert pl[0] == " licytacja N: zgłoszono 2, najlepiej 3 (koszt 5,5 pkt)"
    assert pl[2] == "    lewa 8 N: zagrano JS, najlepiej 2H (koszt 0,8 pkt, 0,4 lewy) ?"
    assert pl[4] == "    lewa 8 S: zagrano AD, najlepiej 2D (koszt 41,8 ± 9,6 pkt) ?"
    assert pl[6] == " licytacja S: zgłoszono zero w ciemno, najlepiej zero (koszt 40,0 pkt) ?"
    # with the seats' own lines, one line a seat
    review["seats"] = [{"seat": "N", "summary": "N: 1 costly decision."}, {"seat": "S", "summary": "S: 2 costly decisions."}]
    assert render_review(review).splitlines()[-2:] == ["N: 1 costly decision.", "S: 2 costly decisions."]


def test_play_and_bid_text_in_polish_through_the_cli(tmp_path):
    """``--lang pl`` without ``--json``: the whole answer is Polish, not only the explanation."""
    rng = random.Random(12)
    hands = deal(rng)
    lead = max(c for c in hands[Seat.N] if c.suit != Suit.S)  # spades are not broken yet
    rec = {"format": "piki-hand/1", "dealer": "N", "hands": {"E": [str(c) for c in hands[Seat.E]]},
           "bids": {"N": 3, "E": 2, "S": 4, "W": 3}, "plays": [str(lead)]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    out = subprocess.run([sys.executable, "-m", "api.cli", "play", str(path), "--time", "0.2", "--seed", "1",
                          "--lang", "pl"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("zagraj ")
    legal = {str(c) for c in hands[Seat.E] if c.suit == lead.suit} or {str(c) for c in hands[Seat.E]}
    assert lines[0].split()[1] in legal
    rows = [line for line in lines[1:] if line.startswith("  ")]
    assert rows and all(re.fullmatch(r"  \w\w: \d+,\d\d lewy, [+-]\d+,\d pkt", row) for row in rows)
    assert "tricks" not in out.stdout and "points" not in out.stdout
    rec = {"format": "piki-hand/1", "dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]}}
    path.write_text(json.dumps(rec))
    out = subprocess.run([sys.executable, "-m", "api.cli", "bid", str(path), "--time", "0.3", "--seed", "1",
                          "--lang", "pl"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("deklaruj ") and "zero udaje się w " in out.stdout
    assert " pkt" in out.stdout and "points" not in out.stdout


def test_review_summary_counts_the_points_that_stand_clear_of_the_sampling():
    """A bid 5.5 points under the best is not marked, yet the summary must not call the seat's
    play clean without saying what it cost; a seat that lost nothing is plainly clean. A card's
    cost within two standard errors of 0 is the sampling's noise: it is counted nowhere."""
    from advisor.advice import seat_summary

    small = [{"kind": "bid", "cost": 5.5, "mark": ""}, {"kind": "play", "cost": 0.0, "tricks_lost": 0.0, "mark": ""}]
    assert seat_summary("en", "N", small) == "N: no costly decisions found; 6 points lost in smaller choices."
    assert "6 pkt" in seat_summary("pl", "N", small)
    assert seat_summary("en", "N", [dict(small[1])]) == "N: no costly decisions found."
    noise = {"kind": "play", "cost": 8.0, "cost_error": 6.0, "tricks_lost": 0.1, "mark": ""}
    assert seat_summary("en", "N", [noise]) == "N: no costly decisions found."
    clear = dict(noise, cost_error=3.0)
    assert seat_summary("en", "N", [noise, clear]) == "N: no costly decisions found; 8 points lost in smaller choices."
    marked = small + [noise, {"kind": "play", "cost": 12.0, "cost_error": 2.0, "tricks_lost": 0.7, "mark": "??"}]
    assert seat_summary("en", "E", marked) == ("E: 1 costly decision (12 points, about 0.7 tricks)."
                                               " Smaller choices cost 6 points more.")
    from advisor.advice import seat_tally  # the same in figures, as the review's JSON gives them by seat
    assert seat_tally(marked) == {"costly_decisions": 1, "points_lost": 12.0, "tricks_lost": 0.7,
                                  "smaller_points_lost": 5.5}
    assert seat_summary("pl", "E", marked) == ("E: 1 kosztowna decyzja (12 pkt, ok. 0,7 lewy)."
                                               " Drobniejsze wybory kosztowały jeszcze 6 pkt.")
    assert seat_summary("en", "E", marked[1:] + marked[3:]) == "E: 2 costly decisions (24 points, about 1.4 tricks)."
    assert seat_summary("pl", "E", marked + marked[3:]).startswith("E: 2 kosztowne decyzje (24 pkt, ")
    one = [{"kind": "play", "cost": 0.6, "cost_error": 0.1, "tricks_lost": 0.2, "mark": "?"}]
    assert seat_summary("en", "W", one) == "W: 1 costly decision (1 point, about 0.2 tricks)."
    # points lost without a trick (a partner's nil busted, bags): no "about 0.0 tricks"
    nil = [{"kind": "play", "cost": 113.5, "cost_error": 20.0, "tricks_lost": 0.0, "mark": "?"}]
    assert seat_summary("en", "E", nil) == "E: 1 costly decision (114 points)."
    assert seat_summary("pl", "E", nil) == "E: 1 kosztowna decyzja (114 pkt)."


def test_a_nil_hand_on_lead_is_told_that_the_lead_counts():
    hand = _cards("2S 3S 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C 9C")
    led = HandRecord.from_json({"dealer": "E", "hands": {"E": hand}, "bids": {}, "plays": []})
    second = HandRecord.from_json({"dealer": "N", "hands": {"E": hand}, "bids": {"N": 3}, "plays": []})
    for lang, words in (("en", "You lead the first trick"), ("pl", "Wychodzisz do pierwszej lewy")):
        on_lead = bid_json(led, time_budget=0.2, seed=1, lang=lang)
        assert on_lead["nil_probability"] >= 0.2 and words in on_lead["explanation"]
        assert words not in bid_json(second, time_budget=0.2, seed=1, lang=lang)["explanation"]


def test_a_review_whose_better_bid_was_nil_says_so_in_words_and_how_often_it_makes():
    """The review's text names a nil "nil" / "zero" (0 in JSON), and where the better bid was a nil,
    the note beside the bid says how often that nil would have made."""
    from advisor.advice import _bid_judged, _bid_note
    from advisor.bids import NIL
    from advisor.search import bid_samples
    from api.text import render_review

    hands = deal(random.Random(4))
    rec = HandRecord.from_json({"dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]}})
    view = seat_view(replay(rec), Seat.N)
    model = bid_samples(view, time_budget=0.2, max_samples=16, rng=random.Random(1))
    rows = _bid_judged(view, model, 3)[0]
    for lang, nil_words in (("en", "A nil here makes about {:.0f}%"), ("pl", "Zero udaje się tu w ok. {:.0f}%")):
        note = _bid_note(lang, view, model, 3, NIL, rows)
        assert nil_words.format(100 * model.nil_p) in note, note
        assert "3" in note.split(".")[0]  # the bid's own contract first
    assert "nil" not in _bid_note("en", view, model, 3, 4, rows).lower()
    decision = {"kind": "bid", "index": 0, "seat": "N", "played": 2, "best": 0, "cost": 12.0, "mark": "?",
                "note": "n", "listed": True}
    text = render_review({"decisions": [decision], "summary": ""}, "en")
    assert "bid 2, best nil (costs 12.0 points) ?" in text
    assert "zgłoszono 2, najlepiej zero" in render_review({"decisions": [decision], "summary": ""}, "pl")


def test_a_reviewed_bid_beside_a_partners_nil_gets_the_bids_points():
    """Beside a partner's nil the team's contract is the bidder's alone, so the note gives the
    bids' expected points instead of how often a team contract makes (it was left empty)."""
    from advisor.advice import _bid_judged, _bid_note
    from advisor.search import bid_samples

    hands = deal(random.Random(4))
    rec = HandRecord.from_json({"dealer": "N", "hands": {"S": [str(c) for c in hands[Seat.S]]},
                                "bids": {"N": 0, "E": 3}})
    view = seat_view(replay(rec), Seat.S)
    model = bid_samples(view, time_budget=0.2, max_samples=16, rng=random.Random(1))
    rows, best, _ = _bid_judged(view, model, 5)
    other = next(b for b in rows if b not in (best, 0) and b > 0)
    en = _bid_note("en", view, model, other, best, rows)
    assert en == f"Beside partner's nil, {other} is worth about {rows[other][0]:+.0f} points, {best} {rows[best][0]:+.0f}."
    assert _bid_note("pl", view, model, best, best, rows).startswith(f"Przy zerze partnera {best} daje średnio")
    assert "contract makes" not in en


def test_a_card_chosen_among_near_ties_says_why_the_top_card_is_not_it():
    """The advice plays the rule-based player's card among cards within TIE_POINTS of the best: the
    explanation says the top card's edge is too small to count, instead of calling it "the next
    best" with more tricks; an exact tie is "just as good", never "0.0 points more"."""
    from advisor.advice import analyse_play_json

    record = _match_hand(22)
    # S to play at trick 10 with its contract made: JD (a discard) or a spade to trump clubs
    state = replay(HandRecord.from_json({**record, "plays": record["plays"][:38], "hands": {"S": record["hands"]["S"]}}))
    near = analyse_play_json(state, time_budget=5.0, seed=6)
    assert near["card"] == "JD" and near["candidates"][1]["card"] == "6S"
    gap = near["candidates"][1]["expected_points"] - near["candidates"][0]["expected_points"]
    assert 0 < gap <= 1.0
    assert ("6S scores 0.2 points more in the simulation, too little to tell them apart: among cards this"
            " close, JD is the one good play picks.") in near["explanation"]
    assert "next best" not in near["explanation"]
    exact = analyse_play_json(state, time_budget=5.0, seed=5)
    assert exact["card"] == "JD" and "2S is just as good." in exact["explanation"]
    assert "scores 0.0" not in exact["explanation"]


def test_a_reviewed_blind_nil_says_how_often_a_blind_nil_makes():
    from advisor import blind_nil

    hands = deal(random.Random(4))
    rec = HandRecord.from_json({"dealer": "N", "hands": {"N": [str(c) for c in hands[Seat.N]]},
                                "bids": {"N": "blind_nil", "E": 3, "S": 4, "W": 3},
                                "score_before": {"NS": 100, "EW": 400}})
    (bid,) = [d for d in review_json(rec, seat="N")["decisions"] if d["kind"] == "bid"]
    assert bid["played"] == "blind_nil"
    pct = 100 * blind_nil.odds(None).success  # N bid first: no partner's bid to go by
    assert bid["note"].startswith(f"A blind nil makes about {pct:.0f}% of the time."), bid["note"]
    pl = [d for d in review_json(rec, seat="N", lang="pl")["decisions"] if d["kind"] == "bid"][0]
    assert pl["note"].startswith(f"Zero w ciemno udaje się w ok. {pct:.0f}% przypadków.")


def test_a_card_difference_over_the_same_deals_has_its_standard_error():
    from advisor.search import analyse_play

    rec = _random_hand(5, (3, 4, 2, 3))
    rec.plays = rec.plays[:9]
    view = seat_view(replay(rec), replay(rec).to_act)
    a = analyse_play(view, time_budget=math.inf, max_samples=12, rng=random.Random(3))
    best, worst = a.moves[0], a.moves[-1]
    mean, error, tricks, tricks_error = a.difference(best.card, worst.card)
    assert mean == pytest.approx(best.value - worst.value) and tricks == pytest.approx(best.tricks - worst.tricks)
    per_deal = a.deal_values[int(best.card)] - a.deal_values[int(worst.card)]
    assert len(per_deal) == a.samples == 12
    assert error == pytest.approx(per_deal.std(ddof=1) / math.sqrt(12)) and math.isfinite(tricks_error)
    assert a.difference(best.card, best.card) == (0.0, 0.0, 0.0, 0.0)


def test_a_review_marks_a_card_only_where_its_loss_stands_clear_of_the_sampling(monkeypatch):
    """A card whose loss is within REVIEW_CLEAR_Z standard errors of nothing over the deals it was
    judged on is not marked, however large its mean (a nil made or busted in a few deals moves a
    mean by tens of points); one that loses in every deal is. (Without the second look, which
    would judge most of those means again: test_a_card_near_the_line_is_judged_again_on_more_deals.)"""
    import advisor.advice as advice
    from advisor.advice import REVIEW_CLEAR_Z

    monkeypatch.setattr(advice, "REVIEW_SECOND_LOOK_SAMPLES", 0)

    def error(d, key):  # None where a decision was judged on fewer than two deals
        return math.inf if d[key] is None else d[key]

    # without a budget (each card judged on the same 32 deals whatever the machine's load), and
    # with one so small that some decisions see one deal
    for budget in (None, 0.01):
        r = review_json(_random_hand(21, (3, 0, 3, 3)), time_budget=budget, seed=1)
        plays = [d for d in r["decisions"] if d["kind"] == "play"]
        if budget is None:
            assert sum(bool(d["mark"]) for d in plays) >= 3
            assert sum(d["cost"] >= 10 and not d["mark"] for d in plays) >= 1  # a mean the deals do not bear out
        for d in plays:
            points_clear = d["cost"] >= 10 and d["cost"] >= REVIEW_CLEAR_Z * error(d, "cost_error")
            tricks_clear = d["tricks_lost"] > 0.1 and d["tricks_lost"] >= REVIEW_CLEAR_Z * error(d, "tricks_lost_error")
            assert bool(d["mark"]) == (points_clear or tricks_clear), d
            if d["best"] == d["played"]:
                assert d["cost_error"] == 0 and not d["mark"]


def test_the_readmes_review_example_is_what_piki_review_prints(tmp_path, capsys):
    """README.md shows `piki review` of a committed match hand: without a time budget the review
    is the same on every run, so the example must be its output to the letter."""
    from pathlib import Path

    from api.cli import main

    root = Path(__file__).resolve().parents[1]
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(_match_hand(5)))
    assert main(["review", str(path), "--seat", "S"]) == 0
    printed = capsys.readouterr().out
    readme = (root / "README.md").read_text()
    start = readme.index("```text\n", readme.index("A finished hand, reviewed for S")) + len("```text\n")
    assert readme[start:readme.index("```", start)] == printed


def test_a_seat_reviewed_alone_gets_the_review_it_gets_among_all_four(monkeypatch):
    """Each decision draws its deals from the seed and the decision alone: N's cards reviewed with
    `--seat N` are judged on the deals they are judged on when every seat is reviewed (the web page
    reviews all four), so the two reviews never disagree about N."""
    import advisor.advice as advice

    monkeypatch.setitem(advice.REVIEW_CARD_SAMPLES, "fixed", 6)
    record = _random_hand(21, (3, 0, 3, 3))
    every = review_json(record, seed=4)
    for seat in "NE":
        alone = review_json(record, seat=seat, seed=4)
        assert alone["decisions"] == [d for d in every["decisions"] if d["seat"] == seat]
        assert alone["summary"] in every["summary"]
        assert alone["seats"] == [line for line in every["seats"] if line["seat"] == seat]
    assert [line["seat"] for line in every["seats"]] == list("NESW")
    assert " ".join(line["summary"] for line in every["seats"]) == every["summary"]
    for line in every["seats"]:
        marked = [d for d in every["decisions"] if d["seat"] == line["seat"] and d["mark"]]
        assert line["costly_decisions"] == len(marked)
        assert line["points_lost"] == pytest.approx(sum(d["cost"] for d in marked), abs=0.051)
    # and another seed draws other deals
    assert review_json(record, seat="N", seed=5)["decisions"] != review_json(record, seat="N", seed=4)["decisions"]


def test_a_card_near_the_line_is_judged_again_on_more_deals(monkeypatch):
    """Without a time budget, a card whose loss is a mark's size but within REVIEW_SECOND_LOOK
    standard errors is judged again on REVIEW_SECOND_LOOK_SAMPLES fresh deals, and its figures
    (and mark) are those of the second look; every other card keeps its first look's deals."""
    import advisor.advice as advice

    monkeypatch.setitem(advice.REVIEW_CARD_SAMPLES, "fixed", 8)
    monkeypatch.setattr(advice, "REVIEW_SECOND_LOOK_SAMPLES", 24)
    second = first = 0
    for seed in (21, 22, 23):
        r = review_json(_random_hand(seed, (3, 0, 3, 3)), seed=1)
        for d in (d for d in r["decisions"] if d["kind"] == "play" and len(d["alternatives"]) > 1):
            assert 2 <= d["deals"] <= 24, d  # a deal over the solver's node limit is left out
            if d["deals"] <= 8:
                first += 1
                # a first look that stands near the line is never the last word
                assert not advice.needs_second_look(d["cost"], d["cost_error"], d["tricks_lost"],
                                                    d["tricks_lost_error"] or 0.0), d
            else:
                second += 1
    assert second >= 1 and first > second
    # under a time budget a review has no second look
    timed = review_json(_random_hand(21, (3, 0, 3, 3)), seed=1, time_budget=0.05)
    assert all(d["deals"] <= advice.REVIEW_CARD_SAMPLES["timed"] for d in timed["decisions"] if d["kind"] == "play")


def test_cards_are_called_alike_only_when_every_one_is():
    """The chosen card (the cheapest of near-equal ones) and the worst alike, but a card between
    them taking 0.17 tricks more: not "all your legal cards are worth the same"."""
    from advisor.advice import cards_alike
    from advisor.cards import parse_card
    from advisor.search import MoveStats

    def move(card, points, tricks):
        return MoveStats(card=parse_card(card), points=points, tricks=tricks)

    chosen, worst = move("5H", -123.80, 3.17), move("JH", -123.82, 3.19)
    assert cards_alike([chosen, worst])
    assert not cards_alike([chosen, move("8H", -123.78, 3.34), worst])
    assert not cards_alike([chosen, move("9H", -121.7, 3.18), worst])
    assert cards_alike([chosen, move("9H", -123.79, 3.18), worst])


def test_a_costly_bid_is_judged_again_on_more_solves():
    """Without a time budget, a bid that costs REVIEW_BID_SECOND_LOOK[0] points or more on the
    first solves is judged again on REVIEW_BID_SECOND_LOOK[1]; a bid that costs nothing is not."""
    import advisor.advice as advice

    first = advice.REVIEW_BID_SAMPLES["fixed"]
    low, more = advice.REVIEW_BID_SECOND_LOOK
    r = review_json(_random_hand(21, (9, 3, 3, 3)), seed=1)  # N's 9 far above what N-S can take
    bids = {d["index"]: d for d in r["decisions"] if d["kind"] == "bid"}
    assert bids[0]["cost"] >= 10 and bids[0]["mark"] == "?" and first < bids[0]["deals_solved"] <= more
    for d in bids.values():
        assert d["deals_solved"] <= more, d
        # a second look is taken wherever the first solves cost that much (it may end under the
        # line): a bid judged on the first solves alone costs less
        if d["deals_solved"] <= first:
            assert d["cost"] < low, d
