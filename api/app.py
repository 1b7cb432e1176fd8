"""The FastAPI application: ``create_app(settings)``.

Layout ("bigger applications"): :mod:`api.routers` holds one router per resource, request models
are in :mod:`api.schemas`, dependencies in :mod:`api.deps`, error mapping in :mod:`api.errors`,
storage in :mod:`api.storage`, live-game logic in :mod:`api.games` and :mod:`api.frames`.
"""

from __future__ import annotations

from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from . import docs_page, errors
from .config import Settings
from .deps import require_token
from .gate import Admission, send_json_error
from .games import GameService
from .routers import games, health, records, scan, web
from .storage import Storage, open_storage
from .workers import AdvicePool

DESCRIPTION = """Spades (piki) coach: the rules engine, advice and card detection over HTTP.

Hand records are `piki-hand/1` objects (see CONTRACT.md). Errors are JSON objects whose
`detail` names the problem: 422 malformed input, 409 an illegal event or one that does not fit
the game, 404 no such game, 413/415 a refused upload, 401 a missing token. When the server
has an access token, send it as `Authorization: Bearer <token>` (or `X-Piki-Token`, or
`?token=` for the WebSocket).
"""


class BodyLimit:
    """Refuse request bodies over a size limit (413), also when they arrive without a length."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings

    def limit_for(self, path: str) -> int:
        if path.endswith("/scan") or path.endswith("/frames"):
            return self.settings.max_upload_bytes + 64 * 1024  # multipart overhead
        return self.settings.max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > limit
                except ValueError:
                    too_big = False
                if too_big:
                    await send_json_error(send, 413, f"request body over {limit} bytes")
                    return
        seen = 0

        async def limited() -> dict:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > limit:
                    from fastapi import HTTPException

                    raise HTTPException(413, f"request body over {limit} bytes")
            return msg

        await self.app(scope, limited, send)


def create_app(settings: Settings | None = None, storage: Storage | None = None) -> FastAPI:
    settings = settings or Settings()
    @asynccontextmanager
    async def lifespan(app: FastAPI):
        from anyio import CapacityLimiter

        app.state.scan_limiter = CapacityLimiter(settings.scan_slots)
        yield
        app.state.advice.close()
        app.state.storage.close()

    app = FastAPI(title="piki", version="0.1.0", description=DESCRIPTION, lifespan=lifespan,
                  license_info={"name": "AGPL-3.0-or-later"},
                  docs_url=None, redoc_url=None)  # their pages load scripts from a CDN
    app.state.settings = settings
    app.state.storage = storage or open_storage(settings.db)
    app.state.games = GameService(app.state.storage)
    app.state.advice = AdvicePool(timeout=settings.advice_timeout)

    errors.install(app)
    app.include_router(health.router)
    protected = [Depends(require_token)]
    app.include_router(records.router, prefix="/v1", dependencies=protected)
    app.include_router(scan.router, prefix="/v1", dependencies=protected)
    app.include_router(games.router, prefix="/v1", dependencies=protected)
    app.include_router(games.ws_router, prefix="/v1")  # checks the token itself
    app.include_router(web.router)
    docs_page.install(app, token_prefixes=("/v1/",))  # /docs: the API reference, built here from the schema; /redoc -> /docs
    app.mount("/static", StaticFiles(directory=str(web.WEB_DIR)), name="static")

    if settings.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=settings.cors_origins,
                           allow_methods=["*"], allow_headers=["*"])
    app.add_middleware(Admission, limit=settings.active_requests)
    app.add_middleware(BodyLimit, settings=settings)  # outermost: sizes are checked before the queue

    return app
