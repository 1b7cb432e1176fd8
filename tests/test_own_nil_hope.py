"""The acting team's own nil in the card search: where double dummy busts it but the card does not
leave the nil bidder taking the trick being played, part of that deal counts as a made nil in the
ranking (``advisor.search.OWN_NIL_HOPE``); a card that surely does gets no such hope, nor a nil
bidder holding the highest spade still out."""

from __future__ import annotations

import pytest

from advisor import search
from advisor.cards import Seat, cards_to_mask, parse_card as c
from advisor.search import takes_trick_now
from advisor.view import seat_view

from test_nil_defence import EAST, NORTH, SOUTH, WEST_LOW, _trick_position, valued_with_and_without


def test_a_card_takes_the_trick_when_it_is_best_and_no_one_after_it_must_or_may_take_it():
    # North leads the 2 of hearts; East (nil) holds the king and the 5, South the ace and four
    # hearts over the 5, West (East's partner) hearts under the king
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "2H")
    assert st.to_act is Seat.E
    remaining = tuple(st.held)
    assert takes_trick_now(st, remaining, c("KH"))  # South ducks, West cannot cover
    assert not takes_trick_now(st, remaining, c("5H"))  # South has only hearts over it
    covering = list(remaining)
    covering[Seat.W] = cards_to_mask([c("AH"), c("QD")])  # the partner could take it over
    assert not takes_trick_now(st, tuple(covering), c("KH"))
    no_hearts = list(remaining)
    no_hearts[Seat.S] = cards_to_mask([c("2S"), c("3S")])  # South, out of hearts, has to trump
    assert not takes_trick_now(st, tuple(no_hearts), c("KH"))
    no_hearts[Seat.S] = cards_to_mask([c("2S"), c("JD")])  # … or may throw a diamond
    assert takes_trick_now(st, tuple(no_hearts), c("KH"))
    # a card under the trick's best never takes it: South leads the ace
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "AH 4H 2H", dealer=Seat.S)
    assert st.to_act is Seat.E
    assert not takes_trick_now(st, tuple(st.held), c("KH"))
    # East's lead: the king, with every hand after it able to play under it
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "", dealer=Seat.E)
    assert st.to_act is Seat.E
    assert takes_trick_now(st, tuple(st.held), c("KH"))
    assert not takes_trick_now(st, tuple(st.held), c("5H"))  # South has to go over it


def test_the_hope_lifts_only_cards_that_leave_the_trick_to_others(monkeypatch):
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "2H")
    view = seat_view(st, Seat.E)
    hoped, without, deals = valued_with_and_without(view, 3, "OWN_NIL_HOPE", monkeypatch)
    assert set(hoped) == {"5H", "KH"}
    for card, m in hoped.items():
        # the figures stay double dummy's: the hope is in the ranking only
        assert (m.points, m.tricks, m.win) == pytest.approx((without[card].points, without[card].tricks,
                                                            without[card].win))
        assert m.nil_ok == without[card].nil_ok
    # double dummy busts East's nil with either card in every drawn deal; the 5 never takes this
    # trick, the king does unless West, unseen, can go over it
    assert hoped["5H"].nil_ok[Seat.E] == 0.0 and hoped["KH"].nil_ok[Seat.E] == 0.0
    taken = {card: sum(takes_trick_now(view, d.remaining, int(c(card))) for d in deals) for card in hoped}
    assert taken["5H"] == 0 and 0 < taken["KH"] < len(deals)
    gain = {card: hoped[card].value - without[card].value for card in hoped}
    assert gain["5H"] > gain["KH"] > 0
    assert gain["KH"] == pytest.approx(gain["5H"] * (len(deals) - taken["KH"]) / len(deals), rel=0.35)
    assert hoped["5H"].value > hoped["KH"].value
    assert without["5H"].value == pytest.approx(without["KH"].value)  # a tie without the hope


def test_the_highest_spade_still_out_is_a_trick_the_nil_cannot_escape():
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "")
    remaining = list(st.held)
    assert search.holds_top_spade(st, tuple(remaining), Seat.S)  # South holds the ace
    assert not search.holds_top_spade(st, tuple(remaining), Seat.E)
    remaining[Seat.S] &= ~cards_to_mask([c("AS"), c("KS")])
    remaining[Seat.E] |= cards_to_mask([c("KS")])
    assert not search.holds_top_spade(st, tuple(remaining), Seat.S)  # the ace is gone, the king East's
    assert search.holds_top_spade(st, tuple(remaining), Seat.E)
    # a higher spade played to the trick being played still counts: it may take the king's trick
    st = _trick_position(EAST, WEST_LOW, SOUTH, NORTH, "2C AS", dealer=Seat.E)  # South has no club
    assert st.to_act is Seat.W
    remaining = list(st.held)
    remaining[Seat.E] |= cards_to_mask([c("KS")])
    assert not search.holds_top_spade(st, tuple(remaining), Seat.E)


def test_the_partner_of_a_nil_bidder_keeps_hoping_only_where_it_does_not_leave_the_nil_winning(monkeypatch):
    # North leads a low heart, East (nil) plays its king, South ducks: West, East's partner, can
    # go over the king with its ace or leave the trick to East
    st = _trick_position(EAST, "AH 6H 7H 4H QD KD AD 9C TC JC QC KC AC", SOUTH.replace("AH", "QH"), NORTH,
                         "2H KH 8H")
    assert st.to_act is Seat.W
    view = seat_view(st, Seat.W)
    hoped, without, deals = valued_with_and_without(view, 5, "OWN_NIL_HOPE", monkeypatch)
    busted_later = [d for d in deals if not search.holds_top_spade(view, d.remaining, Seat.E)]
    for card, m in hoped.items():
        assert (m.points, m.tricks) == pytest.approx((without[card].points, without[card].tricks))
        if card == "AH":  # the cover: East does not take this trick
            assert m.value > without[card].value + 1.0
        else:  # a low heart leaves the king winning: a sure bust, no hope for it
            assert all(search.wins_this_trick(view, d.remaining, c(card), Seat.E) for d in busted_later)
            assert m.value == pytest.approx(without[card].value)
    # double dummy busts East's nil later whatever West plays, so without the hope West keeps its
    # ace for its own contract; with it, West covers
    assert all(m.nil_ok[Seat.E] == 0.0 for m in hoped.values())
    assert max(without.values(), key=lambda m: m.value).card != c("AH")
    assert max(hoped.values(), key=lambda m: m.value).card == c("AH")
