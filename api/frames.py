"""One camera frame of a live game: scan it, feed the tracker, store the confirmed plays.

Shared by ``POST /v1/games/{id}/frames`` and the WebSocket ``/v1/games/{id}/frames``. The
tracker's memory (streaks, open questions) is kept with the game in the database, so frames of
one game may reach any server process. A play is acknowledged (in ``events`` with status
``confirmed``) only after it has been stored.
"""

from __future__ import annotations

from typing import Any

from advisor.state import IllegalEvent
from vision.tracking import FrameTracker, confirmed_plays

from .config import Settings
from .games import GameService
from .storage import Conflict


def process_scan(service: GameService, game_id: str, scan: dict[str, Any],
                 settings: Settings) -> dict[str, Any]:
    game = service.load(game_id)
    tracker = FrameTracker.from_json(game.tracker) if game.tracker else FrameTracker(
        stable_frames=settings.stable_frames)
    user = game.user_seat
    unknown_hand = user is not None and len(game.record.hands.get(user, [])) < 13
    result = tracker.update(scan, game.state(), hand_seat=user.name if unknown_hand else None)
    for ev in confirmed_plays(result):
        try:
            game = service.play(game_id, ev["card"], ev["seat"], source="camera")
            ev["stored"] = True
            ev["seq"] = game.seq
        except (IllegalEvent, Conflict) as e:
            ev["status"] = "rejected"
            ev["reason"] = str(e)
    service.storage.set_tracker(game_id, tracker.to_json())
    game.tracker = tracker.to_json()
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
        "warnings": list(scan.get("warnings", [])) + result["warnings"],
        "game": game.view(),
    }


def answer_question(service: GameService, game_id: str, question_id: int, accept: bool,
                    card: str | None) -> dict[str, Any]:
    """The user's answer: accept records the play (typed), reject just closes the question."""
    from .games import GameConflict

    game = service.load(game_id)
    tracker = FrameTracker.from_json(game.tracker)
    q = next((q for q in tracker.questions if q["id"] == question_id), None)
    if q is None:
        raise GameConflict(f"no open question {question_id}")
    if accept and q["kind"] == "hand":
        service.set_hand(game_id, q["cards"], q["seat"])
    elif accept:
        if card is None:
            if len(q["cards"]) != 1:
                raise GameConflict(f"question {question_id} is about {', '.join(q['cards'])}: "
                                   "say which card with 'card'")
            card = q["cards"][0]
        game = service.play(game_id, card, None, source="confirmed")
    tracker.resolve(question_id, accepted=accept)
    service.storage.set_tracker(game_id, tracker.to_json())
    game = service.load(game_id)
    return game.view()
