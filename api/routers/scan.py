"""``POST /v1/scan``: find the cards in one photo."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, File, Query, Request, UploadFile

from ..config import Settings
from ..deps import get_settings
from ..errors import ImageRejected
from ..scanning import scan_upload
from ..schemas import ErrorOut

router = APIRouter(tags=["scan"])


async def read_upload(image: UploadFile, settings: Settings) -> bytes:
    data = await image.read(settings.max_upload_bytes + 1)
    if len(data) > settings.max_upload_bytes:
        raise ImageRejected(413, "upload_larger", limit=settings.max_upload_bytes)
    return data


@router.post("/scan", summary="cards in a photo (as `piki scan`)",
             responses={413: {"model": ErrorOut}, 415: {"model": ErrorOut},
                        422: {"model": ErrorOut}, 503: {"model": ErrorOut}})
async def post_scan(request: Request, image: UploadFile = File(..., description="JPEG, PNG or WebP photo"),
                    lang: str = Query("en", pattern="^(en|pl)$", description="language of the warnings"),
                    settings: Settings = Depends(get_settings)) -> dict[str, Any]:
    data = await read_upload(image, settings)
    result = await scan_upload(request.app, data, settings)
    if lang != "en":
        from vision.assemble import warnings_in  # the scanner's package, loaded with it

        result = {**result, "warnings": warnings_in(result, lang)}
    return {"image": image.filename or "upload", **result}
