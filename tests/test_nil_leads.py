"""scripts/nil_leads.py: the defence's leads against a live nil, checked against the rules engine."""
from __future__ import annotations

import dataclasses
import json

from advisor.cards import Seat, Suit
from advisor.match_cli import main as match_main
from advisor.record import HandRecord, replay

from script_loader import load_script

nil_leads = load_script("scripts/nil_leads.py")


def test_leads_agree_with_the_engines_view_of_each_position(tmp_path, capsys):
    hands = tmp_path / "hands.jsonl"
    assert match_main(["--a", "counter", "--b", "heuristic", "--games", "6", "--seed", "5",
                       "--jobs", "1", "--quiet", "--hands", str(hands)]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in hands.read_text().splitlines()]
    checked = 0
    for row in rows:
        leads = nil_leads.lead_rows(row, "B")
        if not leads:
            continue
        record = HandRecord.from_json(row["record"])
        final = replay(record)
        a_is_ns = row["a_team"] == "NS"
        nil = next(s for s in range(4) if (s % 2 == 0) != a_is_ns and final.bids[s] == 0)
        assert all(r["busted"] == (final.tricks[nil] > 0) for r in leads)
        assert sum(r["bust_now"] for r in leads) <= 1
        for r in leads:
            # the position at the lead, as the engine sees it from the leader's seat
            state = replay(dataclasses.replace(record, plays=record.plays[:4 * (r["trick"] - 1)]))
            leader = state.to_act
            assert leader.value % 2 != nil % 2 and state.tricks[nil] == 0  # a defender, the nil live
            card = record.plays[4 * (r["trick"] - 1)]
            assert int(card) == r["card"]
            unseen_of_suit = [int(c) for c in state.unseen(leader) if c.suit == card.suit]
            shown_out = Suit(card.suit) in state.shown_voids(Seat(nil))
            assert r["nil_void"] == shown_out
            assert r["low"] == (bool(unseen_of_suit) and all(u > int(card) for u in unseen_of_suit)
                                and card.suit != Suit.S and not shown_out)
            assert not r["low"] or r["low_available"]
            checked += 1
    assert checked >= 5
    assert nil_leads.main([str(hands)]) == 0
    out = capsys.readouterr().out
    assert "hands with a live nil" in out and "first chance in a hand" in out


def test_a_low_lead_into_a_suit_the_nils_partner_has_shown_out_of():
    """A hand written out: E bids nil; W shows out of hearts at the first trick; N then leads the 2 of
    hearts, under every heart N has not seen, and E must take the trick."""
    deal = {"N": "AH KH QH JH 2H 3H AS KS QS JS TS 9S 8S", "E": "4H 5H 6H 7H 8H 9H TH 2D 3D 4D 5D 6D 7D",
            "S": "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C", "W": "7S 6S 5S 4S 3S 2S 8D 9D TD JD QD KD AD"}
    raw = {"format": "piki-hand/1", "rules": "piki", "dealer": "N",
           "hands": {s: v.split() for s, v in deal.items()}, "bids": {"N": 5, "E": 0, "S": 1, "W": 4},
           "plays": ["AH", "4H", "2C", "8D", "2H", "TH", "3C", "9D"]}
    state = replay(HandRecord.from_json(raw))
    assert state.trick_winners == [0, 1]  # N took the first trick, E (the nil) the second
    while not state.is_done:  # the rest does not matter: each seat plays its lowest legal card
        card = min(state.legal_cards(), key=int)
        raw["plays"].append(str(card))
        state.play(card)
    leads = nil_leads.lead_rows({"deal_set": 1, "game": 1, "hand": 1, "a_team": "NS", "record": raw}, "B")
    assert [(r["trick"], r["low"], r["partner_void"], r["bust_now"]) for r in leads] == [
        (1, False, False, False),  # the ace: lower hearts are out; W had not shown out yet
        (2, True, True, True),
    ]
    assert all(r["busted"] and r["low_available"] for r in leads)  # the 2 of hearts was there at trick 1
    assert leads[1]["low_partner_void_available"] and not leads[0]["low_partner_void_available"]
    assert nil_leads.lead_rows({"deal_set": 1, "game": 1, "hand": 1, "a_team": "NS", "record": raw}, "A") == []
