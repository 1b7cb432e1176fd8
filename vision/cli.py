"""`piki scan` backend: scan image files and print the cards found."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from .errors import ImageError


def _annotation_path(annotate: str, image: str, many: bool) -> str:
    target = Path(annotate)
    if many or target.is_dir():
        target.mkdir(parents=True, exist_ok=True)
        return str(target / f"{Path(image).stem}.annotated.jpg")
    return str(target)


def _by_suit(cards: list[str]) -> str:
    """Card codes by suit (S, H, D, C), high to low, as a player sorts a hand."""
    from advisor.cards import parse_card, sort_for_display

    return " ".join(str(c) for c in sort_for_display(parse_card(x) for x in cards)) or "-"


_ZONES = {"en": ("hand", "table"), "pl": ("ręka", "stół")}


def _readable(image: str, result: dict, lang: str = "en") -> str:
    hand = _by_suit(result["hand"])
    table = _by_suit(result["table"])
    words = _ZONES.get(lang, _ZONES["en"])
    line = f"{image}: {words[0]} {hand} | {words[1]} {table}"
    if result["warnings"]:
        line += " | " + "; ".join(result["warnings"])
    return line


def run_scan(paths: list[str], as_json: bool, annotate: str | None, lang: str = "en") -> int:
    """Scan each image; one line per image on stdout (the warnings in ``lang``). Returns 0, or 2
    if any image was bad."""
    from .assemble import warnings_in
    from .image_io import load_image
    from .scan import default_detector

    status = 0
    for path in paths:
        try:
            img = load_image(path)
            result = default_detector().scan(img)
            result["warnings"] = warnings_in(result, lang)
        except ImageError as exc:
            print(f"piki scan: {exc.text(lang)}", file=sys.stderr)
            status = 2
            continue
        except OSError as exc:
            print(f"piki scan: {path}: {exc}", file=sys.stderr)
            status = 2
            continue
        if annotate:  # a place the drawing cannot go loses the drawing, not the scan
            from .annotate import write_annotated

            target = _annotation_path(annotate, path, len(paths) > 1)
            try:
                write_annotated(target, img, result)
            except OSError as exc:
                print(f"piki scan: cannot write the annotated image {target}: {exc.strerror or exc}",
                      file=sys.stderr)
                status = 2
        if as_json:
            print(json.dumps({"image": path, **result}), flush=True)
        else:
            print(_readable(path, result, lang), flush=True)
    return status


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m vision.cli", description="find playing cards in photos")
    ap.add_argument("images", nargs="+")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--annotate", metavar="PATH", help="write an annotated JPEG (a folder for several images)")
    ap.add_argument("--lang", choices=("en", "pl"), default="en", help="language of the warnings")
    args = ap.parse_args(argv)
    return run_scan(args.images, args.json, args.annotate, args.lang)


if __name__ == "__main__":
    sys.exit(main())
