"""The web page (``/``), its static files, and card pictures (``/cards/{code}.svg``)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse, Response

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ART_DIR = Path(__file__).resolve().parents[2] / "datasets" / "artwork" / "web"
_CODE = re.compile(r"^([2-9TJQKA][SHDC]|back)$")

router = APIRouter(include_in_schema=False)

# The page loads nothing from elsewhere: its script, style, card pictures and API are all here.
CSP = ("default-src 'self'; img-src 'self' blob: data:; media-src 'self' blob: mediastream:; "
       "connect-src 'self' ws: wss:; style-src 'self'; script-src 'self'; object-src 'none'; "
       "base-uri 'none'; frame-ancestors 'none'")


@router.get("/", response_class=HTMLResponse)
def index() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", media_type="text/html; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP,
                                 "X-Content-Type-Options": "nosniff",
                                 "Referrer-Policy": "no-referrer"})


def drawn_card(code: str) -> str:
    """An SVG card drawn with text, used when the card artwork is not installed."""
    if code == "back":
        return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84"><rect x="1" y="1" '
                'width="58" height="82" rx="5" fill="#245" stroke="#123"/></svg>')
    rank = "10" if code[0] == "T" else code[0]
    suit = "♠♥♦♣"["SHDC".index(code[1])]
    color = "#c00" if code[1] in "HD" else "#111"
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 84">'
            '<rect x="1" y="1" width="58" height="82" rx="5" fill="#fff" stroke="#888"/>'
            f'<text x="6" y="20" font-size="16" font-family="sans-serif" fill="{color}">{rank}</text>'
            f'<text x="30" y="58" font-size="32" text-anchor="middle" fill="{color}">{suit}</text>'
            '</svg>')


@router.get("/cards/{name}")
def card_picture(name: str) -> Response:
    code = name.rsplit(".", 1)[0]
    if not _CODE.match(code):
        raise HTTPException(404, f"no card picture {name!r}")
    for ext, media in (("svg", "image/svg+xml"), ("png", "image/png")):
        path = ART_DIR / f"{code}.{ext}"
        if path.is_file():
            return FileResponse(path, media_type=media,
                                headers={"Cache-Control": "public, max-age=86400"})
    return Response(drawn_card(code), media_type="image/svg+xml")
