"""Read an image from a path, bytes or an array into a BGR uint8 array, with clear errors."""
from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from .errors import ImageError, UnsupportedFormat

# OpenCV's decoders print warnings of their own on stderr (a TIFF of 32-bit float samples: "[ WARN:0]
# ... OpenCV TIFF: Sorry, can not handle images ..."), beside the one line that names the problem
cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)

MAX_PIXELS = 50_000_000
MAX_BYTES = 200 * 1024 * 1024
MIN_SIDE = 16
# ISO base media "ftyp" brands of HEIC/HEIF stills (what iPhones save by default), decoded by
# pillow-heif (libheif); AVIF, WebP, TIFF and the rest decode with OpenCV
HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"}
# said only where pillow-heif is not installed


def is_heif(data: bytes) -> bool:
    """Whether ``data`` starts like a HEIC/HEIF still image."""
    return data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS


def _open_heif(data: bytes, name: str):
    """The primary image of a HEIC/HEIF file, not yet decoded; ImageError where pillow-heif is
    missing or the file is broken."""
    try:
        import pillow_heif
    except ImportError:
        raise UnsupportedFormat("heif_missing", name=name) from None
    try:
        return pillow_heif.open_heif(data, convert_hdr_to_8bit=True)
    except Exception as exc:  # libheif's own errors: a cut or corrupt file
        raise ImageError("heif_broken", name=name, detail=exc) from None


def heif_size(data: bytes, name: str | None = None) -> tuple[int, int]:
    """(width, height) of a HEIC/HEIF photo as shown (turned as the file says), from its header."""
    return tuple(_open_heif(data, name).size)


def _decode_heif(data: bytes, name: str) -> np.ndarray:
    """A HEIC/HEIF photo as a BGR array, 8 bits a channel. libheif applies the file's rotation and
    mirroring (an iPhone's sideways shot comes out the way it is shown); the pixel limit is checked
    on the header before anything is decoded."""
    heif = _open_heif(data, name)
    _check_size(*heif.size)
    try:
        arr = np.asarray(heif)
    except Exception as exc:
        raise ImageError("heif_broken", name=name, detail=exc) from None
    if arr.ndim == 3 and arr.shape[2] == 3:
        return np.ascontiguousarray(arr[:, :, ::-1])
    if arr.ndim == 3 and arr.shape[2] == 4:
        return cv2.cvtColor(np.ascontiguousarray(arr), cv2.COLOR_RGBA2BGR)
    return from_array(np.ascontiguousarray(arr))


def _header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) read from a PNG or JPEG header without decoding, or None if unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
                i += 1 if marker == 0xFF else 2
                continue
            (length,) = struct.unpack(">H", data[i + 2:i + 4])
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            i += 2 + length
    return None


def _check_size(w: int, h: int) -> None:
    if w * h > MAX_PIXELS:
        raise ImageError("too_many_pixels", w=w, h=h, limit=MAX_PIXELS // 1_000_000)
    if min(w, h) < MIN_SIDE:
        raise ImageError("too_small", w=w, h=h, side=MIN_SIDE)


def decode_bytes(data: bytes, name: str | None = None) -> np.ndarray:
    if not data:
        raise ImageError("empty", name=name)
    if len(data) > MAX_BYTES:
        raise ImageError("too_many_bytes", name=name, size=len(data), limit=MAX_BYTES)
    if is_heif(data):
        return _decode_heif(data, name)
    size = _header_size(data)
    if size is not None:
        _check_size(*size)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if img is None:
        raise ImageError("unreadable", name=name)
    _check_size(img.shape[1], img.shape[0])
    return img


def from_array(arr: np.ndarray) -> np.ndarray:
    if arr.dtype != np.uint8:
        raise ImageError("array_type", dtype=arr.dtype)
    if arr.ndim == 2:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_BGRA2BGR)
    elif arr.ndim == 3 and arr.shape[2] == 1:
        arr = cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    elif not (arr.ndim == 3 and arr.shape[2] == 3):
        raise ImageError("array_shape", shape=arr.shape)
    _check_size(arr.shape[1], arr.shape[0])
    return np.ascontiguousarray(arr)


def load_image(source) -> np.ndarray:
    """A file path, bytes or a BGR/gray/BGRA uint8 array -> BGR uint8 array. Raises ImageError."""
    if isinstance(source, np.ndarray):
        return from_array(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_bytes(bytes(source))
    if isinstance(source, (str, Path)):
        path = Path(source)
        if not path.exists():
            raise ImageError("no_file", name=path)
        if not path.is_file():
            raise ImageError("not_a_file", name=path)
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise ImageError("file_too_large", name=path, size=size, limit=MAX_BYTES)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ImageError("cannot_read", name=path, detail=exc.strerror or exc) from exc
        return decode_bytes(data, str(path))
    raise ImageError("bad_source", kind=type(source).__name__)
