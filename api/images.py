"""Checks on uploaded images before they reach the detector, and the scan call itself."""

from __future__ import annotations

import io
import warnings
from typing import Any

from .config import Settings
from .errors import ImageRejected, Unavailable

ALLOWED_FORMATS = {"JPEG", "PNG", "WEBP", "BMP", "HEIF"}


def _heif_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a HEIC/HEIF upload (an iPhone's photo) from its header; 415 for
    anything else Pillow cannot identify."""
    try:
        from vision.errors import ImageError, UnsupportedFormat
        from vision.image_io import heif_size, is_heif
    except ImportError:  # the API without the card detector installed
        is_heif = None
    if is_heif is None or not is_heif(data):
        raise ImageRejected(415, "not_an_image")
    try:
        return heif_size(data)
    except UnsupportedFormat as e:  # pillow-heif is not installed
        raise ImageRejected(415, "as_detector_says", problem=e) from None
    except ImageError as e:  # a cut or corrupt file
        raise ImageRejected(422, "as_detector_says", problem=e) from None


def check_image(data: bytes, settings: Settings) -> tuple[int, int]:
    """Refuse empty, oversized, non-image or decompression-bomb uploads; return (width, height).

    Only the header is read here (Pillow opens lazily), so a huge-dimension bomb is refused
    before any pixel is decoded.
    """
    if not data:
        raise ImageRejected(422, "upload_empty")
    if len(data) > settings.max_upload_bytes:
        raise ImageRejected(413, "upload_too_big", size=len(data), limit=settings.max_upload_bytes)
    from PIL import Image, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as im:
                fmt, (w, h) = im.format, im.size
    except UnidentifiedImageError:
        fmt, (w, h) = "HEIF", _heif_size(data)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRejected(413, "bomb") from None
    except Exception as e:  # truncated headers and the like
        raise ImageRejected(422, "unreadable_upload", problem=e) from None
    if fmt not in ALLOWED_FORMATS:
        raise ImageRejected(415, "format_refused", format=fmt)
    if w <= 0 or h <= 0:
        raise ImageRejected(422, "no_pixels")
    if w > settings.max_image_side or h > settings.max_image_side or w * h > settings.max_image_pixels:
        raise ImageRejected(413, "upload_too_many_pixels", w=w, h=h, side=settings.max_image_side,
                            limit=settings.max_image_pixels // 1_000_000)
    return w, h


def _upright(data: bytes):
    """(BGR array, (w, h)) of the image turned by its EXIF orientation, or None when upright."""
    from PIL import Image, ImageOps

    try:
        with Image.open(io.BytesIO(data)) as im:
            if im.getexif().get(0x0112, 1) in (0, 1):
                return None
            turned = ImageOps.exif_transpose(im).convert("RGB")
    except Exception:  # unreadable EXIF: let the detector read the bytes as they are
        return None
    import numpy as np

    return np.ascontiguousarray(np.asarray(turned)[:, :, ::-1]), turned.size


def scan_bytes(data: bytes, settings: Settings) -> dict[str, Any]:
    """Check the upload, then run the card detector on it (the ``piki scan`` object)."""
    w, h = check_image(data, settings)
    try:
        from vision.scan import scan_image
    except ImportError as e:
        raise Unavailable(f"card detection is not available on this server ({e})") from None
    try:
        from vision.errors import ImageError
    except ImportError:  # pragma: no cover - comes with vision.scan
        ImageError = ValueError  # type: ignore[misc,assignment]
    source: Any = data
    upright = _upright(data)
    if upright is not None:  # a phone photo stored sideways: scan it the way browsers show it
        source, (w, h) = upright
    try:
        result = scan_image(source)
    except ImageError as e:
        raise ImageRejected(422, "unreadable_upload", problem=e) from None
    except (ImportError, FileNotFoundError) as e:  # runtime or model files not installed
        raise Unavailable(f"card detection is not available on this server ({e})") from None
    out = dict(result)
    out.setdefault("width", w)
    out.setdefault("height", h)
    return out
