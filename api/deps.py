"""FastAPI dependencies: settings, storage, the game service, the access token.

They are ``async def`` although none of them waits for anything: FastAPI runs a plain ``def``
dependency in the thread pool, one hop to a thread and back per dependency and request.
"""

from __future__ import annotations

import secrets

from fastapi import Depends, HTTPException, Query, Request, WebSocket

from .config import Settings
from .games import GameService
from .messages import message, request_lang


async def get_settings(request: Request) -> Settings:
    return request.app.state.settings


async def get_games(request: Request) -> GameService:
    return request.app.state.games


def presented_token(headers, query_params) -> str | None:
    auth = headers.get("authorization")
    if auth and auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return headers.get("x-piki-token") or query_params.get("token")


def token_ok(settings: Settings, given: str | None) -> bool:
    if not settings.token:
        return True
    return given is not None and secrets.compare_digest(given.encode(), settings.token.encode())


async def require_token(request: Request) -> None:
    settings: Settings = request.app.state.settings
    if not token_ok(settings, presented_token(request.headers, request.query_params)):
        raise HTTPException(401, message(request_lang(request.query_params), "token"),
                            headers={"WWW-Authenticate": "Bearer"})


# A frame's warnings and reasons; any endpoint's refusals (409) also follow ``?lang=pl``.
Lang = Query("en", pattern="^(en|pl)$", description="language of the warnings and reasons")


async def advice_options(
    settings: Settings = Depends(get_settings),
    time_budget: float | None = Query(None, gt=0, le=60, description="thinking time in seconds"),
    seed: int | None = Query(None, ge=0, le=2**31 - 1, description="random seed"),
    lang: str = Query("en", pattern="^(en|pl)$", description="language of the explanation"),
) -> dict:
    budget = time_budget if time_budget is not None else settings.advice_time_budget
    if budget is not None:
        budget = min(budget, settings.max_time_budget)
    return {"time_budget": budget, "seed": seed, "lang": lang}


def ws_token_ok(ws: WebSocket) -> bool:
    return token_ok(ws.app.state.settings, presented_token(ws.headers, ws.query_params))
