"""vision/tracking.py: from per-frame detections to plays, without images (pure logic)."""

from __future__ import annotations

import json
import random

from advisor.cards import parse_card
from advisor.record import HandRecord, replay
from advisor.state import deal
from vision.tracking import FrameTracker, confirmed_plays

BIDS = {"N": 3, "E": 4, "S": 3, "W": 2}


def game(seed=1, known="NESW", bids=BIDS):
    hands = {s.name: [str(c) for c in cs] for s, cs in deal(random.Random(seed)).items()}
    rec = HandRecord.from_json({"dealer": "N", "hands": {s: hands[s] for s in known}, "bids": bids})
    return replay(rec), hands


def frame(*cards, zone="table", conf=0.9):
    return {"cards": [{"card": c, "zone": zone, "confidence": conf} for c in cards]}


def feed(tr, st, scan, n):
    out = None
    for _ in range(n):
        out = tr.update(scan, st)
        for ev in confirmed_plays(out):
            st.play(parse_card(ev["card"]))
    return out


def test_card_confirmed_only_after_stable_frames():
    st, hands = game()
    tr = FrameTracker(stable_frames=3)
    lead = st.legal_cards()[0]
    outs = [tr.update(frame(str(lead)), st) for _ in range(3)]
    assert [e["status"] for e in outs[0]["events"]] == ["proposed"]
    assert outs[1]["events"][0]["frames"] == 2
    assert [(e["status"], e["seat"], e["card"]) for e in outs[2]["events"]] == [("confirmed", "N", str(lead))]


def test_flicker_resets_the_count():
    st, _ = game()
    tr = FrameTracker(stable_frames=3)
    lead = str(st.legal_cards()[0])
    tr.update(frame(lead), st)
    tr.update(frame(lead), st)
    tr.update(frame(), st)  # lost for one frame
    out = tr.update(frame(lead), st)
    assert out["events"][0]["status"] == "proposed" and out["events"][0]["frames"] == 1


def test_low_confidence_and_hand_zone_are_ignored():
    st, _ = game()
    tr = FrameTracker(stable_frames=1, min_confidence=0.5)
    lead = str(st.legal_cards()[0])
    assert tr.update(frame(lead, conf=0.3), st)["events"] == []
    assert tr.update(frame(lead, zone="hand"), st)["events"] == []
    assert tr.update({"cards": [{"card": "nonsense", "zone": "table"}]}, st)["events"] == []


def test_two_new_cards_at_once_is_a_question():
    st, hands = game()
    a, b = [str(c) for c in st.legal_cards()[:2]]
    tr = FrameTracker(stable_frames=2)
    out = feed(tr, st, frame(a, b), 2)
    assert not confirmed_plays(out)
    q = out["questions"][0]
    assert q["kind"] == "several" and sorted(q["cards"]) == sorted([a, b]) and q["seat"] == "N"
    # asked once, not again every frame
    assert feed(tr, st, frame(a, b), 3)["questions"] == []
    assert len(tr.questions) == 1
    # its words in each language, whatever language the frame asked for
    assert q["reasons"]["en"] == q["reason"] == (f"2 new cards at once ({', '.join(sorted([a, b]))}):"
                                                 " which did N play? Type the plays in order.")
    assert q["reasons"]["pl"] == (f"2 nowe karty naraz ({', '.join(sorted([a, b]))}): którą zagrał N?"
                                  " Wpisz zagrania po kolei.")


def test_illegal_card_is_a_question_not_a_play():
    st, hands = game()
    e_card = hands["E"][0]  # E's card while N is to lead
    tr = FrameTracker(stable_frames=2)
    out = feed(tr, st, frame(e_card), 2)
    assert not confirmed_plays(out) and st.plays == []
    q = out["questions"][0]
    assert q["kind"] == "illegal" and q["cards"] == [e_card] and "E's hand" in q["reason"]
    # the user rejects it: it stays ignored
    assert tr.resolve(q["id"])["id"] == q["id"]
    assert feed(tr, st, frame(e_card), 3)["events"] == []


def test_not_following_suit_is_a_question():
    st, hands = game()
    tr = FrameTracker(stable_frames=1)
    lead = next(c for c in st.legal_cards() if any(x[1] == str(c)[1] for x in hands["E"]))
    feed(tr, st, frame(str(lead)), 1)
    off = next(c for c in hands["E"] if c[1] != str(lead)[1])
    out = feed(tr, st, frame(str(lead), off), 1)
    assert out["questions"][0]["kind"] == "illegal" and "must follow" in out["questions"][0]["reason"]
    assert len(st.plays) == 1


def test_card_during_bidding_is_a_question():
    st, _ = game(bids={"N": 3})
    tr = FrameTracker(stable_frames=2)
    out = feed(tr, st, frame("AS"), 2)
    assert out["questions"][0]["kind"] == "not_in_play" and "bidding" in out["questions"][0]["reason"]
    assert out["questions"][0]["reasons"]["pl"] == "AS widać na stole, ale licytacja jeszcze trwa"


def test_a_frames_warnings_and_reasons_in_polish():
    st, hands = game()
    out = FrameTracker(stable_frames=2).update(frame(hands["E"][0]), st, lang="pl")  # N to lead
    assert [(e["status"], e["reason"]) for e in out["events"]] == [
        ("proposed", f"{hands['E'][0]} jest w ręce E, więc N nie może jej zagrać")]
    tr = FrameTracker(stable_frames=1)
    trick = []
    for _ in range(4):
        trick.append(str(st.legal_cards()[0]))
        feed(tr, st, frame(*trick), 1)
    leader_card = str(st.legal_cards()[0])
    out = tr.update(frame(*trick, leader_card), st, lang="pl")  # the old trick still lies there
    assert [(e["status"], e["reason"]) for e in out["events"]] == [
        ("waiting", "poprzednia lewa wciąż leży na stole")]
    for _ in range(3):  # the table clears, the lead is taken; then an old card shows up again
        feed(tr, st, frame(leader_card), 1)
    out = tr.update(frame(leader_card, trick[0]), st, lang="pl")
    assert f"{trick[0]} leży na stole, ale została zagrana we wcześniejszej lewie" in out["warnings"]


def test_full_trick_then_table_clears_then_next_lead():
    st, _ = game(seed=5)
    tr = FrameTracker(stable_frames=2, clear_frames=2)
    on_table = []
    for _ in range(4):
        c = str(st.legal_cards()[0])
        on_table.append(c)
        feed(tr, st, frame(*on_table), 2)
    assert len(st.plays) == 4 and st.trick_number == 2
    leader = st.to_act.name
    nxt = str(st.legal_cards()[0])
    out = feed(tr, st, frame(*on_table, nxt), 3)
    assert [e["status"] for e in out["events"]] == ["waiting"] and len(st.plays) == 4
    out1 = tr.update(frame(nxt), st)
    out2 = tr.update(frame(nxt), st)
    closed = [e for e in out1["events"] + out2["events"] if e["type"] == "trick_closed"]
    assert closed and closed[0]["winner"] == leader and closed[0]["trick"] == 1
    feed(tr, st, frame(nxt), 2)
    assert len(st.plays) == 5 and str(st.plays[-1]) == nxt


def test_unknown_hands_accept_any_unseen_card():
    st, hands = game(known="S")
    tr = FrameTracker(stable_frames=1)
    out = feed(tr, st, frame(hands["N"][5]), 1)
    assert confirmed_plays(out) and len(st.plays) == 1


def test_state_round_trips_through_json():
    st, _ = game()
    tr = FrameTracker(stable_frames=3)
    lead = str(st.legal_cards()[0])
    tr.update(frame(lead), st)
    tr.update(frame(lead), st)
    tr2 = FrameTracker.from_json(json.loads(json.dumps(tr.to_json())))
    out = tr2.update(frame(lead), st)
    assert confirmed_plays(out)


def test_after_an_accepted_question_the_other_card_is_watched_again():
    st, hands = game(seed=9)
    tr = FrameTracker(stable_frames=2)
    lead = st.legal_cards()[0]
    follow = next((c for c in hands["E"] if c[1] == str(lead)[1]), hands["E"][0])
    out = feed(tr, st, frame(str(lead), follow), 2)
    q = out["questions"][0]
    assert q["kind"] == "several"
    st.play(lead)  # the user says N played the lead card
    tr.resolve(q["id"], accepted=True)
    out = feed(tr, st, frame(str(lead), follow), 1)  # already stable: taken at once
    assert [(e["seat"], e["card"]) for e in confirmed_plays(out)] == [("E", follow)]
    assert [str(c) for c in st.plays] == [str(lead), follow]


def test_thirteen_steady_cards_in_the_hand_zone_are_proposed_as_the_users_hand():
    st, hands = game(known="")
    tr = FrameTracker(stable_frames=2)
    scan = frame(*hands["S"], zone="hand")
    assert tr.update(scan, st, hand_seat="S")["questions"] == []
    q = tr.update(scan, st, hand_seat="S")["questions"]
    assert len(q) == 1 and q[0]["kind"] == "hand" and sorted(q[0]["cards"]) == sorted(hands["S"])
    assert tr.update(scan, st, hand_seat="S")["questions"] == []  # asked once
    assert tr.asked == []  # those cards will be played later: not ignored on the table
    # without hand_seat (the hand is known) nothing is asked
    tr2 = FrameTracker(stable_frames=1)
    assert tr2.update(scan, st)["questions"] == []


def test_a_trick_card_read_in_the_hand_zone_is_played_once_the_users_hand_is_known():
    """The camera sees the trick only; the scan called East's card "hand" (heaped with the
    lead). North's cards are known and nobody known holds it, so it is on the table."""
    st, hands = game(known="N")
    tr = FrameTracker(stable_frames=2)
    lead = str(st.legal_cards()[0])
    feed(tr, st, frame(lead), 2)
    assert [str(c) for c in st.plays] == [lead]
    east = ([c for c in hands["E"] if c[1] == lead[1]] or hands["E"])[0]  # following suit if East can
    scan = {"cards": [{"card": east, "zone": "hand", "confidence": 0.9},
                      {"card": lead, "zone": "table", "confidence": 0.9}]}
    out = feed(tr, st, scan, 2)
    assert [str(c) for c in st.plays] == [lead, east]
    assert out["table"].count(east) == 1


def test_with_the_users_fan_in_view_a_stray_in_the_hand_zone_is_not_played():
    """A card in the fan that no known hand holds may be a misread of one of the user's cards."""
    st, hands = game(known="N")
    tr = FrameTracker(stable_frames=1)
    lead = str(st.legal_cards()[0])
    feed(tr, st, frame(lead), 1)
    east = ([c for c in hands["E"] if c[1] == lead[1]] or hands["E"])[0]
    fan = [c for c in hands["N"] if c != lead]
    scan = {"cards": [{"card": c, "zone": "hand", "confidence": 0.9} for c in fan + [east]]
            + [{"card": lead, "zone": "table", "confidence": 0.9}]}
    feed(tr, st, scan, 3)
    assert [str(c) for c in st.plays] == [lead]


def test_a_whole_other_hand_in_the_hand_zone_is_not_played():
    st, hands = game(known="N")
    tr = FrameTracker(stable_frames=1)
    lead = str(st.legal_cards()[0])
    feed(tr, st, frame(lead), 1)
    scan = {"cards": [{"card": c, "zone": "hand", "confidence": 0.9} for c in hands["E"]]
            + [{"card": lead, "zone": "table", "confidence": 0.9}]}
    feed(tr, st, scan, 3)
    assert [str(c) for c in st.plays] == [lead]


def test_every_message_has_the_same_words_in_polish():
    from string import Formatter

    from api.messages import MESSAGES
    from vision.tracking import TEXTS

    def names(text):
        return {f for _, f, _, _ in Formatter().parse(text) if f}

    for table, extra in ((MESSAGES, set()), (TEXTS, {"new_cards"})):
        assert set(table["pl"]) == set(table["en"])
        for code, en in table["en"].items():
            assert names(table["pl"][code]) - extra == names(en), code
