"""One camera frame of a live game: scan it, feed the tracker, store the confirmed plays.

Shared by ``POST /v1/games/{id}/frames`` and the WebSocket ``/v1/games/{id}/frames``. The
tracker's memory (streaks, open questions) is kept with the game in the database, so frames of
one game may reach any server process. A play is acknowledged (in ``events`` with status
``confirmed``) only after it has been stored.

Frames of one game may arrive side by side (two WebSocket streams, a stream and POST …/frames or
…/detections, several server processes), so the tracker is updated by compare-and-swap: read
the game and its tracker, feed the frame, store the new tracker only if the stored one is still
the one read (:meth:`api.storage.Storage.set_tracker` with ``expected``); else read again and
feed the same frame to the fresh tracker. Only after the tracker is stored are the frame's
confirmed plays stored, so a retry never stores a play twice. (Should the process stop between
the two, the card is no longer counted as stable and is confirmed again by the next frames.)
Within one server process the frames and answers of one game also take turns on a lock, so
they never race there (a stream sending frames back to back could otherwise make another lose
the swap several times in a row); the swap is what keeps separate processes apart. An answer to a question closes it in the same way, so a frame saved meanwhile cannot bring it
back.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator

from advisor.state import IllegalEvent
from vision.tracking import FrameTracker, confirmed_plays

from .config import Settings
from .games import GameConflict, GameService
from .storage import Conflict

TRACKER_ATTEMPTS = 10  # compare-and-swap tries of one frame / one answer before a 409


_locks: dict[tuple[int, str], list] = {}  # (storage, game) -> [lock, number of users]
_locks_guard = threading.Lock()


@contextmanager
def _turn(service: GameService, game_id: str) -> Iterator[None]:
    """This process's turn at the tracker of the game (in the storage ``service`` uses)."""
    key = (id(service.storage), game_id)
    with _locks_guard:
        entry = _locks.setdefault(key, [threading.Lock(), 0])
        entry[1] += 1
    try:
        with entry[0]:
            yield
    finally:
        with _locks_guard:
            entry[1] -= 1
            if entry[1] == 0:
                del _locks[key]


def _tracker(data: dict[str, Any] | None, settings: Settings | None = None) -> FrameTracker:
    """The tracker stored with a game (a copy: updating it leaves ``data`` as read)."""
    if data:
        return FrameTracker.from_json(copy.deepcopy(data))
    return FrameTracker(stable_frames=settings.stable_frames) if settings else FrameTracker()


def _backoff(attempt: int) -> None:
    """A short random pause after a lost race (longer after each), so that the writers spread
    out instead of colliding again: at most 2, 4, 8, … ms, then 50 ms."""
    time.sleep(random.uniform(0, min(0.05, 0.002 * 2 ** attempt)))


def _busy(what: str, **params: Any) -> GameConflict:
    return GameConflict("tracker_busy", what=(what, params), times=TRACKER_ATTEMPTS)


def process_scan(service: GameService, game_id: str, scan: dict[str, Any],
                 settings: Settings, lang: str = "en") -> dict[str, Any]:
    """Feed one frame's scan to the game's tracker and store the plays it confirms; the
    answer's warnings and reasons are in ``lang`` (its questions carry every language)."""
    with _turn(service, game_id):
        for attempt in range(TRACKER_ATTEMPTS):
            game = service.load(game_id)
            tracker = _tracker(game.tracker, settings)
            user = game.user_seat
            unknown_hand = user is not None and len(game.record.hands.get(user, [])) < 13
            result = tracker.update(scan, game.state(),
                                    hand_seat=user.name if unknown_hand else None, lang=lang)
            saved = tracker.to_json()
            if service.storage.set_tracker(game_id, saved, expected=game.tracker):
                break
            _backoff(attempt)  # another process came first: feed this frame to its tracker
        else:
            raise _busy("frame_not_counted")
    for ev in confirmed_plays(result):
        try:
            game = service.play(game_id, ev["card"], ev["seat"], source="camera")
            ev["stored"] = True
            ev["seq"] = game.seq
        except (IllegalEvent, Conflict) as e:
            ev["status"] = "rejected"
            ev["reason"] = e.reason_in(lang) if isinstance(e, IllegalEvent) else str(e)
    game.tracker = saved
    return {
        "frame": result["frame"],
        "cards": scan.get("cards", []),
        "boxes": [c.get("box") for c in scan.get("cards", [])],
        "hand": scan.get("hand", []),
        "table": scan.get("table", []),
        "width": scan.get("width"),
        "height": scan.get("height"),
        "events": result["events"],
        "questions": result["questions"],
        "open_questions": result["open_questions"],
        "warnings": _scan_warnings_in(scan, lang) + result["warnings"],
        "game": game.view(),
    }


def _scan_warnings_in(scan: dict[str, Any], lang: str) -> list[str]:
    if lang == "en":  # as they are: the scanner's package is loaded only for another language
        return list(scan.get("warnings", []))
    from vision.assemble import warnings_in

    return warnings_in(scan, lang)


def answer_question(service: GameService, game_id: str, question_id: int, accept: bool,
                    card: str | None) -> dict[str, Any]:
    """The user's answer: accept records the play (typed), reject just closes the question."""
    game = service.load(game_id)
    seen = game.tracker  # as read: the question is closed in this tracker, stored only over it
    tracker = _tracker(seen)
    q = next((q for q in tracker.questions if q["id"] == question_id), None)
    if q is None:
        raise GameConflict("no_question", id=question_id)
    if accept and q["kind"] == "hand":
        service.set_hand(game_id, q["cards"], q["seat"])
    elif accept:
        if card is None:
            if len(q["cards"]) != 1:
                raise GameConflict("which_card", id=question_id, cards=q["cards"])
            card = q["cards"][0]
        game = service.play(game_id, card, None, source="confirmed")
    # The play or hand is stored: now close the question, in the tracker as it is now.
    with _turn(service, game_id):
        for attempt in range(TRACKER_ATTEMPTS):
            if attempt:
                _backoff(attempt - 1)
                seen = service.storage.game(game_id).tracker
                tracker = _tracker(seen)
            if tracker.resolve(question_id, accepted=accept) is None:
                break  # closed meanwhile by another answer to the same question
            if service.storage.set_tracker(game_id, tracker.to_json(), expected=seen):
                break
        else:
            raise _busy("question_open_recorded" if accept else "question_open", id=question_id)
    game = service.load(game_id)
    return game.view()
