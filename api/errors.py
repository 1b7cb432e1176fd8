"""Every failure becomes a JSON answer with a ``detail`` naming the problem — never a traceback.

=====================================  ======  ============================================
exception                              status  meaning
=====================================  ======  ============================================
RecordError, BidParseError, ...        422     malformed input (the record, a card, a seat)
IllegalEvent                           409     a well-formed event the rules do not allow
GameConflict, storage Conflict         409     does not fit the game's situation now
NotFound                               404     no game with that id
ImageError, ImageRejected              422/413/415  unreadable, too big, or not an image
StorageError                           503     the database cannot be reached
anything else                          500     a bug: logged, answered with a JSON detail
=====================================  ======  ============================================
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from advisor.record import RecordError
from advisor.refusals import words
from advisor.state import IllegalEvent

from .games import GameConflict
from .messages import WordedProblem, message, request_lang
from .storage import Conflict, NotFound, StorageError

log = logging.getLogger("piki.api")


class ImageRejected(WordedProblem):
    """An upload that is refused before it reaches the detector, with its HTTP status (a
    parameter may be the detector's own ImageError, worded in turn); ``detail`` is the English
    words."""

    def __init__(self, status: int, code: str, **params: Any) -> None:
        self.status = status
        super().__init__(code, **params)
        self.detail = str(self)


class Unavailable(Exception):
    """A part of the service that is not installed or not ready (503)."""


_TYPE_TAGS = {"str", "int", "float", "bool", "list", "dict", "none", "json-or-python"}


def _loc(loc: Any) -> str:
    """``["body", "bids", "N", "int"]`` → ``bids.N`` (pydantic's union-member tags dropped)."""
    if not isinstance(loc, (list, tuple)):
        return str(loc)
    parts = [str(p) for p in loc if p != "body"]
    parts = [p for p in parts if p not in _TYPE_TAGS and "[" not in p and not p.startswith("function-")]
    return ".".join(parts) or "body"


def validation_detail(exc: RequestValidationError) -> tuple[str, list[dict[str, Any]]]:
    errors = []
    for e in exc.errors():
        msg = str(e.get("msg", "invalid"))
        if e.get("type") == "json_invalid":
            ctx = e.get("ctx") or {}
            msg = f"bad JSON: {ctx.get('error', msg)}"
        errors.append({"loc": [str(p) for p in e.get("loc", ())], "msg": msg,
                       "type": str(e.get("type", ""))})
    if not errors:
        return "invalid request", []
    first = errors[0]
    where = _loc(first["loc"])
    text = first["msg"] if first["type"] == "json_invalid" else f"{where}: {first['msg']}"
    if len(errors) > 1:
        text += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return text, errors


def _json(status: int, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, **extra}, status_code=status)


def install(app: FastAPI) -> None:
    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError):
        text, errors = validation_detail(exc)
        return _json(422, text, errors=errors)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException):
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        return JSONResponse({"detail": detail}, status_code=exc.status_code,
                            headers=getattr(exc, "headers", None))

    @app.exception_handler(RecordError)
    async def _record(request: Request, exc: RecordError):
        return _json(422, exc.text(request_lang(request.query_params)))

    @app.exception_handler(IllegalEvent)
    async def _illegal(request: Request, exc: IllegalEvent):
        lang = request_lang(request.query_params)
        return _json(409, exc.describe(lang), error=exc.to_json(lang))

    @app.exception_handler(GameConflict)
    async def _conflict(request: Request, exc: GameConflict):
        return _json(409, exc.text(request_lang(request.query_params)))

    @app.exception_handler(Conflict)
    async def _storage_conflict(request: Request, exc: Conflict):
        return _json(409, message(request_lang(request.query_params), "stored_meanwhile"))

    @app.exception_handler(NotFound)
    async def _not_found(request: Request, exc: NotFound):
        return _json(404, message(request_lang(request.query_params), "no_game"))

    @app.exception_handler(ImageRejected)
    async def _image(request: Request, exc: ImageRejected):
        return _json(exc.status, exc.text(request_lang(request.query_params)))

    from .workers import AdviceProblem

    @app.exception_handler(AdviceProblem)
    async def _advice(request: Request, exc: AdviceProblem):
        return _json(exc.status, exc.detail, **exc.extra)

    @app.exception_handler(Unavailable)
    async def _unavailable(request: Request, exc: Unavailable):
        return _json(503, str(exc))

    @app.exception_handler(StorageError)
    async def _storage(request: Request, exc: StorageError):
        log.error("storage: %s", exc)
        return _json(503, f"storage unavailable: {exc}")

    @app.exception_handler(ValueError)
    async def _value(request: Request, exc: ValueError):
        return _json(422, words(exc, request_lang(request.query_params)) or type(exc).__name__)

    @app.exception_handler(Exception)
    async def _last_resort(request: Request, exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return _json(500, f"internal error ({type(exc).__name__}); the server log has the details")
