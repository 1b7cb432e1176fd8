from __future__ import annotations

from fastapi import APIRouter, Request

from ..schemas import HealthOut

router = APIRouter(tags=["health"])


@router.get("/health", response_model=HealthOut, summary="liveness and storage check")
def health(request: Request) -> dict:
    storage = request.app.state.storage
    storage.ping()  # StorageError -> 503
    return {"status": "ok", "storage": storage.kind}
