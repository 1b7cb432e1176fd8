"""Sampled deals solved on several threads (``advisor.search.solve_sampled``)."""

from __future__ import annotations

import math
import random
import threading
import time

import pytest

from advisor import search
from advisor.cards import Seat
from advisor.inference import draw_deals
from advisor.rules import Rules
from advisor.search import NODE_LIMIT, analyse_play, set_search_threads, solve_sampled
from advisor.solver import solve
from advisor.state import HandState, deal
from advisor.view import seat_view


@pytest.fixture
def threads():
    before = search.search_threads()
    yield set_search_threads
    set_search_threads(before)


def _mid_hand(seed: int, cards_played: int) -> HandState:
    rng = random.Random(seed)
    st = HandState(Rules(), dealer=Seat.N, hands=deal(rng))
    for b in (3, 4, 2, 3):
        st.bid(b)
    for _ in range(cards_played):
        st.play(rng.choice(st.legal_cards()))
    return st


def test_each_distinct_deal_is_solved_once_and_counts_as_often_as_drawn(threads):
    threads(2)
    st = _mid_hand(3, 22)
    view = seat_view(st, st.to_act)
    deals, keys = draw_deals(view, view.to_act, 40, random.Random(1))
    calls: list = []
    lock = threading.Lock()

    def solve_one(d, limit, fresh):
        with lock:
            calls.append(keys[deals.index(d)])
        return solve(d.remaining, int(view.to_act), [(int(s), int(c)) for s, c in view.current_trick],
                     view.spades_broken, False, 0b0101, 0b0101, node_limit=limit, fresh=fresh)

    got = solve_sampled(keys, deals, solve_one, start=0.0, budget=1e9, min_samples=1)
    assert sorted(calls) == sorted(set(keys))  # every distinct deal, once
    assert set(got) == set(keys)
    threads(1)
    calls.clear()
    assert solve_sampled(keys, deals, solve_one, start=0.0, budget=1e9, min_samples=1) == got


def test_searches_without_a_budget_are_fresh(threads):
    """Only without a time budget are the searches told to ignore the threads' history."""
    threads(2)
    seen = set()

    def solve_one(k, limit, fresh):
        seen.add((k, limit, fresh))
        return k

    assert solve_sampled([1, 2, 3], [1, 2, 3], solve_one, start=0.0, budget=math.inf, min_samples=1) == \
        {1: 1, 2: 2, 3: 3}
    assert {f for _, _, f in seen} == {True} and {lim for _, lim, _ in seen} == {NODE_LIMIT}
    seen.clear()
    solve_sampled([1, 2, 3], [1, 2, 3], solve_one, start=time.perf_counter(), budget=60.0, min_samples=1)
    assert {f for _, _, f in seen} == {False}


def test_an_exhausted_budget_still_gives_the_minimum_of_samples(threads):

    threads(2)
    keys = list(range(50))
    # past the budget (1 s) but not past 4 times it: the search goes on to the minimum
    got = solve_sampled(keys, keys, lambda k, limit, fresh: k * k, start=time.perf_counter() - 1.5, budget=1.0,
                        min_samples=5)
    assert 5 <= len(got) <= 6  # the second thread may have started one more
    assert all(got[k] == k * k for k in got)
    # past 4 times the budget: one sample is enough
    got = solve_sampled(keys, keys, lambda k, limit, fresh: k * k, start=time.perf_counter() - 10, budget=1.0,
                        min_samples=5)
    assert 1 <= len(got) <= 2


def test_late_solves_get_the_nodes_the_time_left_allows(threads):

    threads(1)
    limits: list = []

    def solve_one(k, limit, fresh):
        limits.append(limit)
        time.sleep(0.04)
        return k

    budget = 0.3
    solve_sampled(list(range(40)), list(range(40)), solve_one, start=time.perf_counter(), budget=budget,
                  min_samples=2)
    assert len(limits) >= 4
    assert limits == sorted(limits, reverse=True)  # the later, the fewer
    assert limits[0] <= min(search.NODE_LIMIT, budget * search.NODES_PER_SECOND)
    assert limits[-1] < limits[0] and all(lim >= search.MIN_NODE_LIMIT for lim in limits)
    # a deal's nil searches get half its limit, but never less than the floor
    assert search.sub_limit(1_000_000) == 500_000
    assert search.sub_limit(search.MIN_NODE_LIMIT) == search.MIN_NODE_LIMIT
    assert search.sub_limit(None) == search.NODE_LIMIT


def test_a_failing_solve_is_raised_not_lost(threads):
    threads(2)

    def solve_one(key, limit, fresh):
        if key == 7:
            raise RuntimeError("boom at 7")
        return key

    with pytest.raises(RuntimeError, match="boom at 7"):
        solve_sampled(list(range(20)), list(range(20)), solve_one, start=0.0, budget=1e9, min_samples=1)


def test_play_analysis_is_the_same_on_one_thread_and_two(threads):
    st = _mid_hand(5, 17)
    view = seat_view(st, st.to_act)
    deals, _ = draw_deals(view, view.to_act, 24, random.Random(2))
    results = []
    for n in (1, 2):
        threads(n)
        a = analyse_play(view, time_budget=1e9, deals=deals)
        results.append([(int(m.card), round(m.points, 9), round(m.tricks, 9), m.samples) for m in a.moves])
    assert results[0] == results[1]
    assert results[0][0][3] == 24


def test_thread_count_from_the_environment(monkeypatch):
    monkeypatch.setenv("PIKI_ADVISOR_THREADS", "3")
    assert search._default_threads() == 3
    monkeypatch.setenv("PIKI_ADVISOR_THREADS", "many")
    with pytest.raises(ValueError, match="PIKI_ADVISOR_THREADS must be a whole number"):
        search._default_threads()
    with pytest.raises(ValueError):
        set_search_threads(0)


def test_a_nil_search_counts_the_cards_it_did_not_value_as_keeping_the_nil(monkeypatch):
    """Each live nil is searched in two passes (a card limit, then the deal's nil limit); the cards
    valued keep their verdict, the rest count as keeping the nil; nothing valued: busted."""
    from advisor.inference import draw_deals

    rng = random.Random(4)
    st = HandState(Rules(), Seat.N, deal(rng))
    for b in (3, 0, 0, 3):  # E and S bid nil
        st.bid(b)
    for _ in range(26):
        st.play(rng.choice(st.legal_cards()))
    view = seat_view(st, st.to_act)
    (one,), _ = draw_deals(view, int(view.to_act), 1, random.Random(1))
    legal = [int(c) for c in view.legal_cards()]
    assert len(legal) >= 2
    busted = {c: 1 for c in legal}
    real = search.solve_moves
    answer = {}
    caps = {}

    def spy(**kw):
        if kw["count_seats"] in (search.seat_mask(1), search.seat_mask(2)):
            assert kw["card_node_limit"] == search.NIL_CARD_NODES
            caps.setdefault(kw["count_seats"], []).append(kw["cap"])
            return dict(answer)
        return real(**kw)

    monkeypatch.setattr(search, "nil_risk", lambda hand: 0.0)  # search both nils in this deal
    monkeypatch.setattr(search, "solve_moves", spy)
    answer.update({legal[0]: 1})
    team, nils = search._solve_for_play(view, one, [1, 2], busted, None)
    assert set(team) == set(legal)
    assert nils[1] == nils[2] == {c: 1 if c == legal[0] else 0 for c in legal}
    # the partner's nil is searched for one trick; an opponent's that a card busts, again for how
    # hard it can be pressed
    ours = int(view.to_act) & 1
    assert caps == {search.seat_mask(s): [1] if s & 1 == ours else [1, 2] for s in (1, 2)}
    answer.clear()
    _, nils = search._solve_for_play(view, one, [1, 2], busted, None)
    assert nils[1] == nils[2] == busted
