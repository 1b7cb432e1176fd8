"""Live games: ``/v1/games…`` (create, events typed by hand, frames, undo, state, advice)."""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Depends, File, Path, Request, UploadFile, WebSocket, WebSocketDisconnect
from starlette.concurrency import run_in_threadpool

from advisor.state import Phase

from ..config import Settings
from ..deps import Lang, advice_options, get_games, get_settings, ws_token_ok
from ..frames import answer_question, process_scan
from ..games import GameConflict, GameService
from ..messages import message, request_lang
from ..scanning import scan_upload
from ..schemas import AnswerIn, BidIn, DetectionsIn, ErrorOut, GameCreate, HandIn, NextHandIn, PlayIn
from .records import run_advice
from .scan import read_upload

router = APIRouter(prefix="/games", tags=["games"])
ws_router = APIRouter(tags=["games"])

GameId = Path(..., min_length=8, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
              description="the id returned when the game was created")
_ERR = {404: {"model": ErrorOut, "description": "no such game"},
        409: {"model": ErrorOut, "description": "illegal or out-of-turn event"},
        422: {"model": ErrorOut, "description": "malformed request"}}


@router.post("", status_code=201, summary="create a live game", responses={422: _ERR[422]})
def create_game(body: GameCreate, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.create(body.model_dump(exclude_unset=True)).view()


@router.get("/{game_id}", summary="the game's state: `piki state` plus id and metadata",
            responses=_ERR)
def get_game(game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.load(game_id).view()


@router.get("/{game_id}/state", summary="same as GET /v1/games/{game_id}", responses=_ERR)
def get_state(game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.load(game_id).view()


@router.post("/{game_id}/bids", summary="add the next bid", responses=_ERR)
def add_bid(body: BidIn, game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.bid(game_id, body.bid, body.seat).view()


@router.post("/{game_id}/plays", summary="add the next card played", responses=_ERR)
def add_play(body: PlayIn, game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.play(game_id, body.card, body.seat).view()


@router.put("/{game_id}/hand", summary="set the known cards of a seat (default: the user's)",
            responses=_ERR)
def set_hand(body: HandIn, game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.set_hand(game_id, body.cards, body.seat).view()


@router.post("/{game_id}/undo", summary="undo the latest event", responses=_ERR)
def undo(game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.undo(game_id).view()


@router.get("/{game_id}/hands", summary="the hands of the game, with their scores", responses=_ERR)
def list_hands(game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    return {"game_id": game_id, "hands": games.hands(game_id)}


@router.post("/{game_id}/hands", status_code=201, responses=_ERR,
             summary="start the next hand (score carried, dealer rotated)")
def next_hand(body: NextHandIn | None = None, game_id: str = GameId,
              games: GameService = Depends(get_games)) -> dict[str, Any]:
    return games.next_hand(game_id, body.cards if body else None).view()


@router.get("/{game_id}/events", summary="the stored event log", responses=_ERR)
def list_events(game_id: str = GameId, games: GameService = Depends(get_games)) -> dict[str, Any]:
    game = games.load(game_id)
    return {"game_id": game_id, "seq": game.seq, "events": game.log}


@router.get("/{game_id}/advice", summary="bid or card advice for the seat to act", responses=_ERR)
async def game_advice(request: Request, game_id: str = GameId, games: GameService = Depends(get_games),
                      opts: dict = Depends(advice_options)) -> dict[str, Any]:
    game = await run_in_threadpool(games.load, game_id)
    st = game.state()
    if st.phase is Phase.BIDDING:
        # cards of the seat in the game (seen by the camera or typed in): too late for blind nil
        seen = bool(game.record.hands.get(st.to_act))
        out = await run_advice(request, "bid", game.record, {**opts, "cards_seen": seen})
    elif st.phase is Phase.PLAY:
        out = await run_advice(request, "play", game.record, opts)
    else:
        raise GameConflict("no_decision")
    return {"kind": "bid" if st.phase is Phase.BIDDING else "play",
            "seat": st.to_act.name, "user_to_act": game.user_seat == st.to_act, **out}


@router.post("/{game_id}/frames", responses={**_ERR, 413: {"model": ErrorOut}, 415: {"model": ErrorOut}},
             summary="one camera frame: cards seen, proposed/confirmed plays, questions")
async def add_frame(request: Request, game_id: str = GameId, image: UploadFile = File(...),
                    lang: str = Lang, games: GameService = Depends(get_games),
                    settings: Settings = Depends(get_settings)) -> dict[str, Any]:
    data = await read_upload(image, settings)
    return await frame(request.app, games, game_id, data, settings, lang)


async def frame(app, games: GameService, game_id: str, data: bytes, settings: Settings,
                lang: str = "en") -> dict[str, Any]:
    """One camera frame: 404 before the (slower) scan, the scan in a scan slot, then the tracker."""
    await run_in_threadpool(games.load, game_id)
    scan = await scan_upload(app, data, settings)
    return await run_in_threadpool(process_scan, games, game_id, scan, settings, lang)


@router.post("/{game_id}/detections", responses=_ERR,
             summary="one frame's detections (no image): same answer as …/frames")
def add_detections(body: DetectionsIn, game_id: str = GameId, lang: str = Lang,
                   games: GameService = Depends(get_games),
                   settings: Settings = Depends(get_settings)) -> dict[str, Any]:
    games.load(game_id)
    return process_scan(games, game_id, scan_from_detections(body.model_dump()), settings, lang)


@router.post("/{game_id}/questions/{question_id}", responses=_ERR,
             summary="answer a question of the camera tracker (accept records the play)")
def answer(body: AnswerIn, game_id: str = GameId, question_id: int = Path(..., ge=1, le=10**9),
           games: GameService = Depends(get_games)) -> dict[str, Any]:
    return answer_question(games, game_id, question_id, body.accept, body.card)


@ws_router.websocket("/games/{game_id}/frames")
async def frames_ws(ws: WebSocket, game_id: str):
    """Binary messages: JPEG frames, each answered with one JSON object (as POST …/frames).

    Text messages: ``{"type": "ping"}`` → ``{"type": "pong"}``. A bad frame is answered with
    ``{"error": …, "status": 4xx}`` and the connection stays open. Closes with 4401 on a missing
    token and 4404 when the game does not exist. ``?lang=pl``: the answers' warnings and reasons
    in Polish.
    """
    from ..errors import ImageRejected, Unavailable
    from ..storage import NotFound
    from advisor.record import RecordError
    from advisor.state import IllegalEvent
    from pydantic import ValidationError

    await ws.accept()
    if not ws_token_ok(ws):
        await ws.send_json({"error": message(request_lang(ws.query_params), "token"), "status": 401})
        await ws.close(code=4401)
        return
    games: GameService = ws.app.state.games
    settings: Settings = ws.app.state.settings
    lang = request_lang(ws.query_params)
    try:
        await run_in_threadpool(games.load, game_id)
    except NotFound:
        await ws.send_json({"error": message(lang, "no_game"), "status": 404})
        await ws.close(code=4404)
        return
    try:
        while True:
            msg = await ws.receive()
            if msg["type"] == "websocket.disconnect":
                break
            data = msg.get("bytes")
            if data is None:
                text = msg.get("text") or ""
                try:
                    obj = json.loads(text)
                except ValueError:
                    obj = None
                if isinstance(obj, dict) and obj.get("type") == "ping":
                    await ws.send_json({"type": "pong"})
                elif isinstance(obj, dict) and obj.get("type") == "detections":
                    try:
                        body = DetectionsIn.model_validate({k: v for k, v in obj.items() if k != "type"})
                        out = await run_in_threadpool(process_scan, games, game_id,
                                                      scan_from_detections(body.model_dump()), settings,
                                                      lang)
                    except ValidationError as e:
                        out = {"error": f"bad detections: {e.errors()[0]['msg']}", "status": 422}
                    except (RecordError, IllegalEvent, GameConflict, ValueError) as e:
                        out = {"error": _words(e, lang), "status": 409}
                    await ws.send_json(out)
                else:
                    await ws.send_json({"error": "send frames as binary JPEG messages (or JSON "
                                                 "{\"type\": \"detections\", \"cards\": [...]} "
                                                 "or {\"type\": \"ping\"})", "status": 400})
                continue
            try:
                out = await frame(ws.app, games, game_id, data, settings, lang)
            except ImageRejected as e:
                out = {"error": e.text(lang), "status": e.status}
            except Unavailable as e:
                out = {"error": str(e), "status": 503}
            except (RecordError, IllegalEvent, GameConflict, ValueError) as e:
                out = {"error": _words(e, lang), "status": 409}
            await ws.send_json(out)
    except WebSocketDisconnect:
        pass


def _words(e: Exception, lang: str) -> str:
    """An error's words in ``lang`` where they have been written (as the HTTP answers give them)."""
    from advisor.refusals import words
    from advisor.state import IllegalEvent

    return e.describe(lang) if isinstance(e, IllegalEvent) else words(e, lang)


def scan_from_detections(body: dict[str, Any]) -> dict[str, Any]:
    cards = [{k: v for k, v in c.items() if v is not None} for c in body["cards"]]
    return {"cards": cards, "hand": [c["card"] for c in cards if c["zone"] == "hand"],
            "table": [c["card"] for c in cards if c["zone"] == "table"], "warnings": [],
            "width": body.get("width"), "height": body.get("height")}
