"""Events of a live game sent at once (two bids typed in quick succession, two phones at a table).

An event is stored at the position after the events its request read; a second request that read
the same log loses that position and must build its event again on the game as it is now. The
interleaving is forced: each request gets its own storage object (as a separate process would),
wrapped so that its first store waits until every request has read the game.

Runs on a real SQLite file, and on the test PostgreSQL when it is reachable (as test_storage).
"""

from __future__ import annotations

import threading

from advisor.record import HandRecord, replay
from advisor.state import IllegalEvent
from api.games import GameConflict, GameService
from test_api_support import deal
from test_tracker_race import TIMEOUT, run_together


class ReadThenWait:
    """A storage whose first ``append_event`` waits until every party has read the game; counts
    the appends that lost their position to another writer."""

    def __init__(self, inner, barrier: threading.Barrier) -> None:
        self._inner = inner
        self._barrier = barrier
        self.appends = 0

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def append_event(self, game_id, seq, event):
        self.appends += 1
        if self.appends == 1:
            self._barrier.wait(TIMEOUT)
        return self._inner.append_event(game_id, seq, event)


def racing(storages, n: int = 2) -> list[tuple[GameService, ReadThenWait]]:
    barrier = threading.Barrier(n)
    gates = [ReadThenWait(storages(), barrier) for _ in range(n)]
    return [(GameService(g), g) for g in gates]


def race(refusal: type[Exception], *calls) -> list[str]:
    """Runs ``calls`` at once: per call, in their order, "done", or the refusal's ``code`` (its
    type's name where it has none)."""
    outcomes = [""] * len(calls)

    def attempt(i):
        try:
            calls[i]()
            outcomes[i] = "done"
        except refusal as e:
            outcomes[i] = getattr(e, "code", type(e).__name__)

    run_together(*(lambda i=i: attempt(i) for i in range(len(calls))))
    return outcomes


def test_two_bids_without_a_seat_are_the_next_two_bids(storages):
    """The player types 3 and, before its answer, 4: both are stored, for the two seats in turn
    (the one that lost the race was refused as "not S's turn" before)."""
    setup = GameService(storages())
    gid = setup.create({"dealer": "N", "user_seat": "E", "hand": deal(11)["E"]}).id
    setup.bid(gid, 3)
    setup.bid(gid, 4)
    (a, ga), (b, gb) = racing(storages)
    run_together(lambda: a.bid(gid, 3), lambda: b.bid(gid, 2))
    assert ga.appends + gb.appends == 3  # one of them stored again after losing the race
    game = setup.load(gid)
    bids = [(e["seat"], e["bid"]) for e in game.log if e["type"] == "bid"]
    assert [s for s, _ in bids] == ["N", "E", "S", "W"]  # the dealer bids first (the piki preset)
    assert [b for _, b in bids[:2]] == [3, 4]
    assert sorted(b for _, b in bids[2:]) == [2, 3]
    assert game.state().phase.value == "play"


def test_two_plays_without_a_seat_are_the_next_two_cards(storages):
    setup = GameService(storages())
    hands = deal(12)
    gid = setup.create({"dealer": "N", "user_seat": "S", "hand": hands["S"]}).id
    for bid in (3, 4, 3, 2):
        setup.bid(gid, bid)
    lead = next(c for c in hands["N"] if c[1] != "S")
    follow = next(c for c in hands["E"] if c[1] != lead[1])  # a card E may hold: not N's
    (a, _), (b, _) = racing(storages)
    run_together(lambda: a.play(gid, lead), lambda: b.play(gid, follow))
    plays = [(e["seat"], e["card"]) for e in setup.load(gid).log if e["type"] == "play"]
    assert [s for s, _ in plays] == ["N", "E"]
    assert sorted(c for _, c in plays) == sorted([lead, follow])


def test_a_bid_for_a_named_seat_is_refused_when_another_took_that_turn(storages):
    """Naming the seat is how a client says 'only if it is still N's turn': the loser of the race
    is refused with the reason, and nothing of it is stored."""
    setup = GameService(storages())
    gid = setup.create({"dealer": "N", "user_seat": "E", "hand": deal(13)["E"]}).id
    (a, _), (b, _) = racing(storages)
    outcomes = race(IllegalEvent, lambda: a.bid(gid, 3, seat="N"), lambda: b.bid(gid, 5, seat="N"))
    assert sorted(outcomes) == ["bid_turn", "done"]
    stored = (3, 5)[outcomes.index("done")]
    assert [(e["seat"], e["bid"]) for e in setup.load(gid).log] == [("N", stored)]


def test_two_next_hands_at_once_start_one_hand(storages):
    """Both 'next hand' presses read a finished hand; the one that lost finds the new hand
    unfinished and is refused, instead of starting a third."""
    setup = GameService(storages())
    hands = deal(14)
    gid = setup.create({"dealer": "N", "user_seat": "S"}).id
    for bid in (3, 4, 3, 2):
        setup.bid(gid, bid)
    rec = HandRecord.from_json({"dealer": "N", "hands": hands, "bids": {"N": 3, "E": 4, "S": 3, "W": 2}, "plays": []})
    st = replay(rec)
    while st.phase.value == "play":
        card = st.legal_cards()[0]
        setup.play(gid, str(card))
        st.play(card)
    (a, _), (b, _) = racing(storages)
    outcomes = race(GameConflict, lambda: a.next_hand(gid), lambda: b.next_hand(gid))
    assert sorted(outcomes) == ["done", "hand_not_over"]
    assert len(setup.load(gid).records) == 2


def test_two_undos_at_once_undo_one_event_and_refuse_the_other(storages):
    """An undo names no event: two pressed at once (a double click, two phones) must not take back
    two events; the one that lost the race is refused (409, "reload the game and try again")."""
    from api.storage import Conflict

    setup = GameService(storages())
    gid = setup.create({"dealer": "N", "user_seat": "E", "hand": deal(15)["E"]}).id
    for bid in (3, 4):
        setup.bid(gid, bid)
    (a, _), (b, _) = racing(storages)
    outcomes = race(Conflict, lambda: a.undo(gid), lambda: b.undo(gid))
    assert sorted(outcomes) == ["Conflict", "done"]
    assert [e["bid"] for e in setup.load(gid).effective] == [3]
