"""Errors raised by the card detector, with their words in English and Polish."""

from __future__ import annotations

from typing import Any

# Why an image cannot be read, per language (``ImageError.text``; ``piki scan --lang pl``).
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "image": "the image",
        "heif_missing": "{name} is a HEIC/HEIF photo, which this installation cannot read (pillow-heif"
                        " is missing): send it as JPEG or PNG (on an iPhone: Settings > Camera > Formats"
                        " > Most Compatible, or share it as JPEG)",
        "heif_broken": "{name} is a HEIC/HEIF file that cannot be decoded ({detail})",
        "too_many_pixels": "image is too large: {w}x{h} pixels (limit {limit} megapixels)",
        "too_small": "image is too small: {w}x{h} pixels (need at least {side} on each side)",
        "empty": "{name} is empty",
        "too_many_bytes": "{name} is too large: {size} bytes (limit {limit} bytes)",
        "unreadable": "{name} is not a readable image (corrupt file or unsupported format)",
        "array_type": "image array must be uint8, got {dtype}",
        "array_shape": "image array must be HxW, HxWx3 or HxWx4, got shape {shape}",
        "no_file": "{name}: no such file",
        "not_a_file": "{name}: not a file",
        "file_too_large": "{name}: file is too large ({size} bytes, limit {limit})",
        "cannot_read": "{name}: cannot read ({detail})",
        "bad_source": "unsupported image source of type {kind}",
    },
    "pl": {
        "image": "obraz",
        "heif_missing": "{name} to zdjęcie HEIC/HEIF, którego ta instalacja nie odczyta (brak"
                        " pillow-heif): wyślij je jako JPEG albo PNG (na iPhonie: Ustawienia > Aparat >"
                        " Formaty > Najbardziej zgodne, albo udostępnij jako JPEG)",
        "heif_broken": "{name} to plik HEIC/HEIF, którego nie da się zdekodować ({detail})",
        "too_many_pixels": "obraz jest za duży: {w}x{h} pikseli (najwyżej {limit} megapikseli)",
        "too_small": "obraz jest za mały: {w}x{h} pikseli (potrzeba co najmniej {side} na każdym boku)",
        "empty": "{name}: pusty plik",
        "too_many_bytes": "{name} jest za duży: {size} bajtów (najwyżej {limit})",
        "unreadable": "{name} nie jest czytelnym obrazem (uszkodzony plik albo nieobsługiwany format)",
        "array_type": "tablica obrazu musi być typu uint8, a jest {dtype}",
        "array_shape": "tablica obrazu musi mieć kształt HxW, HxWx3 albo HxWx4, a ma {shape}",
        "no_file": "{name}: nie ma takiego pliku",
        "not_a_file": "{name}: to nie jest plik",
        "file_too_large": "{name}: plik jest za duży ({size} bajtów, najwyżej {limit})",
        "cannot_read": "{name}: nie da się odczytać ({detail})",
        "bad_source": "nieobsługiwane źródło obrazu typu {kind}",
    },
}


class ImageError(ValueError):
    """The input is not an image the detector can read (missing, empty, corrupt, too big...),
    named by a code of :data:`TEXTS` and its parameters: ``str()`` is the English words,
    ``text(lang)`` another language's. A ``name`` of ``None`` is "image" in the language."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code, self.params = code, params
        super().__init__(self.text("en"))

    def text(self, lang: str) -> str:
        table = TEXTS.get(lang, TEXTS["en"])
        params = dict(self.params)
        if params.get("name", "") is None:
            params["name"] = table["image"]
        return table[self.code].format(**params)


class UnsupportedFormat(ImageError):
    """An image in a format this installation has no decoder for (HEIC without pillow-heif)."""
