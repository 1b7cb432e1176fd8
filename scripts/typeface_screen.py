"""How the card detector reads decks printed in typefaces its models never saw.

The procedural decks (vision.synth.procedural) split the machine's typefaces in two: the fifteen
families of ``TRAINING_FACES``, which a training run may draw, and the rest ("screen"), which none
may; OpenCV's Hershey stroke faces are a third group. This renders ``--per`` scenes of each of
``--decks`` decks of the screen faces (and ``--hershey`` decks of the Hershey faces), all printing J
and Q, and counts per rank group how many of the cards whose index shows the scan finds, and how
many cards it reports that are not there:

    python scripts/typeface_screen.py [--decks 27] [--hershey 13] [--per 3] [--scale 3] [--json]

Deck ``d``'s scenes are seeds 3000000 + 1000 d + k. The models are those of ``PIKI_MODELS_DIR``
(default ``models/``).
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from letter_screen import by_group, tally  # noqa: E402  (scripts/ is on the path when run)

SCENE_SEED = 3_000_000


def screen(detector, decks: list[int], per: int, scale: float) -> dict:
    """{rank group: [cards present, found, reported though absent]} over ``per`` renders of each
    procedural deck of ``decks``; a card reported that shows only in part is neither right nor
    wrong (as vision.evaluate counts it)."""
    from vision.synth.procedural import procedural_name
    from vision.synth.scene import render_scene

    counts = (collections.Counter(), collections.Counter(), collections.Counter())
    for d in decks:
        for k in range(per):
            img, every = render_scene(SCENE_SEED + 1000 * d + k, [procedural_name(d)], scale=scale,
                                      min_visible=0.0)
            tally(detector, img, every, counts, partly_wrong=False)
    return by_group(counts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=27, help="decks of the screen typefaces")
    ap.add_argument("--hershey", type=int, default=13, help="decks of OpenCV's Hershey faces")
    ap.add_argument("--per", type=int, default=3, help="scenes of each deck")
    ap.add_argument("--scale", type=float, default=3.0, help="times the 640-px scene (3: 1920 px)")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    args = ap.parse_args(argv)
    from vision.scan import default_detector
    from vision.synth.procedural import deck_seeds

    detector = default_detector()
    result = {}
    for group, count in (("screen", args.decks), ("hershey", args.hershey)):
        if count > 0:
            result[group] = screen(detector, deck_seeds(count, group, lettered=False), args.per, args.scale)
    if args.json:
        print(json.dumps(result))
        return 0
    for group, rows in result.items():
        total = [sum(v[i] for v in rows.values()) for i in range(3)]
        cells = ", ".join(f"{name} {f}/{p}" + (f" ({w} wrong)" if w else "") for name, (p, f, w) in rows.items())
        print(f"{group} typefaces: {cells}; all {total[1]}/{total[0]} ({total[1] / max(total[0], 1):.3f}),"
              f" {total[2]} wrong")
    return 0


if __name__ == "__main__":
    sys.exit(main())
