"""The camera tracker of a live game under concurrent frames and answers (compare-and-swap).

The tracker's memory is one JSON per game in the database. Two frames of one game (two
WebSocket streams, a stream and POST …/detections, two server processes) or a frame and an
answer to a question may each read it, update it and store it; the store is a compare-and-swap,
so the one that loses the race reads again and applies its frame (or answer) to the fresh
tracker. The interleaving is forced: each request gets its own storage object (as a separate
process would) wrapped so that it waits, between its read and its store, until the other one
has read too.

Runs on a real SQLite file, and on the test PostgreSQL when it is reachable (as test_storage).
"""

from __future__ import annotations

import json
import random
import sqlite3
import threading
import time

import pytest

from api.config import Settings
from api.frames import TRACKER_ATTEMPTS, answer_question, process_scan
from api.games import GameConflict, GameService
from api.storage import open_storage
from test_api_support import deal
from vision.tracking import FrameTracker

TIMEOUT = 30


class Gated:
    """A storage whose first ``set_tracker`` waits until every party has read the game; with
    ``after`` it then also waits until that other party has stored its tracker (a fixed order).
    Counts the calls and the swaps that did not apply."""

    def __init__(self, inner, barrier: threading.Barrier, after: "Gated | None" = None) -> None:
        self._inner = inner
        self._barrier = barrier
        self._after = after
        self.stored = threading.Event()
        self.calls = 0
        self.lost = 0

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def set_tracker(self, game_id, tracker, *args, **kw):
        self.calls += 1
        if self.calls == 1:
            self._barrier.wait(TIMEOUT)
            if self._after is not None:
                assert self._after.stored.wait(TIMEOUT)
        try:
            ok = self._inner.set_tracker(game_id, tracker, *args, **kw)
        finally:
            if self.calls == 1:
                self.stored.set()
        if not ok:
            self.lost += 1
        return ok


def det(*cards, zone="table"):
    return {"cards": [{"card": c, "zone": zone, "confidence": 0.9} for c in cards]}


def new_game(service: GameService, seed: int) -> tuple[str, dict[str, list[str]]]:
    """A game in its play phase, N to lead, the user S with known cards."""
    hands = deal(seed)
    gid = service.create({"dealer": "N", "user_seat": "S", "hand": hands["S"]}).id
    for b in (3, 4, 3, 2):
        service.bid(gid, b)
    assert service.load(gid).state().to_act.name == "N"
    return gid, hands


def run_together(*jobs):
    """Runs the callables in threads at once; returns their results (re-raises an error)."""
    results: list = [None] * len(jobs)
    errors: list = []

    def run(i, job):
        try:
            results[i] = job()
        except BaseException as e:  # noqa: BLE001 - handed to the test thread
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i, j)) for i, j in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT * 2)
    assert not any(t.is_alive() for t in threads), "a request hung"
    if errors:
        raise errors[0]
    return results


def racing_services(storages, n: int = 2, ordered: bool = False) -> list[tuple[GameService, Gated]]:
    barrier = threading.Barrier(n)
    out: list[tuple[GameService, Gated]] = []
    for _ in range(n):
        g = Gated(storages(), barrier, after=out[-1][1] if ordered and out else None)
        out.append((GameService(g), g))
    return out


# ---------------------------------------------------------------- storage: compare-and-swap
def test_set_tracker_swaps_only_over_the_tracker_read(storages):
    s = storages()
    service = GameService(s)
    gid, _ = new_game(service, 1)
    assert s.game(gid).tracker is None
    assert s.set_tracker(gid, {"frame": 1}, expected=None) is True
    assert s.set_tracker(gid, {"frame": 2}, expected=None) is False  # someone wrote meanwhile
    assert s.game(gid).tracker == {"frame": 1}
    assert s.set_tracker(gid, {"frame": 2}, expected={"frame": 0}) is False
    assert s.set_tracker(gid, {"frame": 2, "é": "ż"}, expected={"frame": 1}) is True
    assert s.set_tracker(gid, None, expected={"frame": 2, "é": "ż"}) is True
    assert s.game(gid).tracker is None
    assert s.set_tracker("no-such-game-id", {"frame": 1}, expected=None) is False
    # without expected: written whatever is stored (as before)
    assert s.set_tracker(gid, {"frame": 9}) is True
    assert s.game(gid).tracker == {"frame": 9}


@pytest.mark.parametrize("stored", [None, "", '{"frame": 1, "streak": {"5H": 1}}'])
def test_older_spellings_of_the_tracker_are_swapped_by_meaning(tmp_path, stored):
    """A NULL or empty tracker (an older or fresh game) and JSON written with other spacing
    (an older version) are still replaced: compared by what they mean, then swapped on that text."""
    path = str(tmp_path / "old.db")
    s = open_storage(path)
    try:
        service = GameService(s)
        gid, hands = new_game(service, 2)
        with sqlite3.connect(path) as c:
            c.execute("UPDATE games SET tracker = ? WHERE id = ?", (stored, gid))
        read = s.game(gid).tracker
        assert read == (json.loads(stored) if stored else None)
        assert s.set_tracker(gid, {"frame": 7}, expected=read) is True
        assert s.game(gid).tracker == {"frame": 7}
        assert s.set_tracker(gid, {"frame": 8}, expected=read) is False
        # and a frame goes through the whole path
        with sqlite3.connect(path) as c:
            c.execute("UPDATE games SET tracker = ? WHERE id = ?", (stored, gid))
        out = process_scan(service, gid, det(hands["N"][0]), Settings())
        assert out["frame"] == (2 if stored and stored.strip() else 1)
    finally:
        s.close()


# ---------------------------------------------------------------- frames
def _race_two_frames(storages, seed: int, stable_frames: int):
    """A new game, one frame showing N's first non-spade card, then two more frames of it sent
    at once through two services that race. -> (setup service, game id, card, the two answers,
    the two services' gates)."""
    setup = GameService(storages())
    gid, hands = new_game(setup, seed)
    lead = next(c for c in hands["N"] if c[1] != "S")
    settings = Settings(stable_frames=stable_frames)
    process_scan(setup, gid, det(lead), settings)
    (a, ga), (b, gb) = racing_services(storages)
    outs = run_together(lambda: process_scan(a, gid, det(lead), settings),
                        lambda: process_scan(b, gid, det(lead), settings))
    return setup, gid, lead, outs, (ga, gb)


def test_two_concurrent_frames_both_count(storages):
    """Both frames read the same tracker before either stores it: the frame counter still goes
    up by two and the card's streak counts both frames."""
    setup, gid, lead, outs, (ga, gb) = _race_two_frames(storages, seed=3, stable_frames=5)
    tracker = setup.load(gid).tracker
    assert tracker["frame"] == 3
    assert tracker["streak"] == {lead: 3}
    assert sorted(o["frame"] for o in outs) == [2, 3]
    assert ga.lost + gb.lost == 1  # one of them lost the race once and applied its frame again
    for o in outs:
        assert [(e["status"], e["card"]) for e in o["events"]] == [("proposed", lead)]
        assert o["game"]["questions"] == []
    assert setup.load(gid).state().plays == []


def test_concurrent_frames_confirm_a_card_once(storages):
    """The card becomes stable on the third frame: exactly one of two concurrent frames
    confirms it and it is stored once (before, both saw two frames and neither confirmed it)."""
    setup, gid, lead, outs, _ = _race_two_frames(storages, seed=4, stable_frames=3)
    confirmed = [e for o in outs for e in o["events"] if e["status"] == "confirmed"]
    assert len(confirmed) == 1 and confirmed[0]["card"] == lead and confirmed[0]["stored"] is True
    assert all(e["status"] != "rejected" for o in outs for e in o["events"])
    game = setup.load(gid)
    assert [str(c) for c in game.state().plays] == [lead]
    assert [e for e in game.log if e["type"] == "play"] == [
        {"type": "play", "seat": "N", "card": lead, "source": "camera"}]
    assert game.tracker["frame"] == 3


@pytest.mark.parametrize("shared", [False, True], ids=["processes", "threads"])
def test_many_concurrent_frames_none_lost(storages, shared):
    """Three streams sending frames at once, with no forced order: every frame is counted once,
    whether they share one storage (threads of one server process, which take turns) or have
    their own (as separate server processes, kept apart by the compare-and-swap)."""
    setup = GameService(storages())
    gid, hands = new_game(setup, 5)
    lead = next(c for c in hands["N"] if c[1] != "S")
    settings = Settings(stable_frames=1000)
    one = GameService(storages())
    services = [one if shared else GameService(storages()) for _ in range(3)]

    def stream(service):
        rng = random.Random()
        frames = []
        for _ in range(8):
            frames.append(process_scan(service, gid, det(lead), settings)["frame"])
            time.sleep(rng.uniform(0, 0.005))  # a camera sends frames at some pace
        return frames

    frames = run_together(*[lambda s=s: stream(s) for s in services])
    assert sorted(f for fs in frames for f in fs) == list(range(1, 25))
    assert setup.load(gid).tracker["frame"] == 24
    assert setup.load(gid).tracker["streak"] == {lead: 24}


def test_a_frame_that_keeps_losing_is_a_409_and_stores_nothing(storages):
    setup = GameService(storages())
    gid, hands = new_game(setup, 6)
    lead = next(c for c in hands["N"] if c[1] != "S")
    settings = Settings(stable_frames=1)
    setup.storage.set_tracker(gid, FrameTracker(stable_frames=1).to_json())

    class AlwaysLate:
        def __init__(self, inner):
            self._inner = inner
            self.calls = 0

        def __getattr__(self, name):
            return getattr(self._inner, name)

        def set_tracker(self, game_id, tracker, expected=None):
            self.calls += 1  # another writer stores a tracker just before each of ours
            t = self._inner.game(game_id).tracker
            self._inner.set_tracker(game_id, {**t, "frame": t["frame"] + 1})
            return self._inner.set_tracker(game_id, tracker, expected=expected)

    late = AlwaysLate(storages())
    with pytest.raises(GameConflict, match="send it again"):
        process_scan(GameService(late), gid, det(lead), settings)
    assert late.calls == TRACKER_ATTEMPTS
    assert setup.load(gid).state().plays == []  # the confirmed card was not stored
    # the next frame goes through
    out = process_scan(setup, gid, det(lead), settings)
    assert [e["status"] for e in out["events"]] == ["confirmed"]


# ---------------------------------------------------------------- answers
def _game_with_question(setup: GameService, seed: int):
    """Two new cards at once, three frames: a question 'several' about them."""
    gid, hands = new_game(setup, seed)
    x, y = [c for c in hands["N"] if c[1] != "S"][:2]
    settings = Settings(stable_frames=3)
    for _ in range(3):
        out = process_scan(setup, gid, det(x, y), settings)
    q = out["questions"][0]
    assert q["kind"] == "several" and sorted(q["cards"]) == sorted([x, y])
    return gid, q, x, y, settings


@pytest.mark.parametrize("accept", [False, True], ids=["reject", "accept"])
@pytest.mark.parametrize("first", ["answer", "frame"])
def test_an_answer_concurrent_with_a_frame_is_not_undone(storages, accept, first):
    """The answer and a frame both read the tracker with the question open; whichever stores
    first, the question stays closed and the frame is counted."""
    setup = GameService(storages())
    gid, q, x, y, settings = _game_with_question(setup, 10 + accept)
    (s1, g1), (s2, g2) = racing_services(storages, ordered=True)
    if first == "answer":
        jobs = (lambda: answer_question(s1, gid, q["id"], accept, x if accept else None),
                lambda: process_scan(s2, gid, det(x, y), settings))
    else:
        jobs = (lambda: process_scan(s1, gid, det(x, y), settings),
                lambda: answer_question(s2, gid, q["id"], accept, x if accept else None))
    outs = run_together(*jobs)
    assert (g1.lost, g2.lost) == (0, 1)  # the second one lost the race and applied itself again
    game = setup.load(gid)
    assert q["id"] not in [o["id"] for o in game.tracker["questions"]]
    assert game.tracker["frame"] == 4
    view = outs[0] if first == "answer" else outs[1]
    assert q["id"] not in [o["id"] for o in view["questions"]]
    plays = [e for e in game.log if e["type"] == "play"]
    if accept:
        assert plays[0] == {"type": "play", "seat": "N", "card": x, "source": "confirmed"}
        assert [e["card"] for e in plays].count(x) == 1
    else:
        assert plays == []
        assert sorted(game.tracker["asked"]) == sorted([x, y])  # rejected: still ignored
    # answering again: the question is gone
    with pytest.raises(GameConflict, match="no open question"):
        answer_question(setup, gid, q["id"], False, None)


def test_two_answers_to_one_question_close_it_once(storages):
    setup = GameService(storages())
    gid, q, x, y, settings = _game_with_question(setup, 20)
    (s1, _), (s2, _) = racing_services(storages)
    outs = run_together(lambda: answer_question(s1, gid, q["id"], False, None),
                        lambda: answer_question(s2, gid, q["id"], False, None))
    game = setup.load(gid)
    assert game.tracker["questions"] == [] and all(o["questions"] == [] for o in outs)
    assert game.tracker["frame"] == 3
