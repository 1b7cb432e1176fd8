"""Stateless endpoints on one hand record: state, check, advice, review."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request

from advisor.record import HandRecord, check_json, replay, state_json

from ..deps import Lang, advice_options
from ..gate import leave
from ..schemas import ErrorOut, HandRecordIn

router = APIRouter(tags=["records"])

_ERRORS = {422: {"model": ErrorOut, "description": "malformed record"},
           409: {"model": ErrorOut, "description": "an illegal event, or advice asked in the wrong phase"}}


def _record(body: HandRecordIn) -> HandRecord:
    return HandRecord.from_json(body.record_json())


async def run_advice(request: Request, kind: str, record: HandRecord, opts: dict) -> dict[str, Any]:
    """Advice computed in the worker processes (see :mod:`api.workers`), outside the gate."""
    record_json = record.to_json()
    leave(request.scope)
    return await request.app.state.advice.run(kind, record_json, opts)


# state and check run on the event loop: a replay of at most 52 cards (the body is already
# parsed there) costs less than the hop to a worker thread and back.
@router.post("/state", summary="the state after a hand record (as `piki state`)", responses=_ERRORS)
async def post_state(body: HandRecordIn, lang: str = Lang) -> dict[str, Any]:
    return state_json(replay(_record(body)))  # an illegal record: 409, its reason in ``lang``


@router.post("/check", summary="is the record legal? (as `piki check`, HTTP 200 either way)",
             responses={422: _ERRORS[422]})
async def post_check(body: HandRecordIn, lang: str = Lang) -> dict[str, Any]:
    return check_json(_record(body), lang)


@router.post("/advice/bid", summary="bid advice for the seat to act (as `piki bid`)", responses=_ERRORS)
async def post_bid(request: Request, body: HandRecordIn, opts: dict = Depends(advice_options),
                   cards_seen: bool = Query(False, description="the player has looked at the cards (typed in or "
                                            "photographed): too late for blind nil, which is otherwise "
                                            "advised from the score alone")) -> dict[str, Any]:
    record = _record(body)
    replay(record)  # an illegal record is answered 409 before the advisor runs
    return await run_advice(request, "bid", record, {**opts, "cards_seen": cards_seen})


@router.post("/advice/play", summary="card advice for the seat to act (as `piki play`)", responses=_ERRORS)
async def post_play(request: Request, body: HandRecordIn,
                    opts: dict = Depends(advice_options)) -> dict[str, Any]:
    record = _record(body)
    replay(record)
    return await run_advice(request, "play", record, opts)


@router.post("/review", summary="review of a finished hand (as `piki review`)", responses=_ERRORS)
async def post_review(request: Request, body: HandRecordIn, opts: dict = Depends(advice_options),
                      seat: str | None = Query(None, pattern="^[NESWnesw]$",
                                               description="review only this seat")) -> dict[str, Any]:
    record = _record(body)
    replay(record)
    return await run_advice(request, "review", record,
                            {**opts, "seat": seat.upper() if seat else None})
