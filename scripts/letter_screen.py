"""How the card detector reads jacks and queens on decks that print them as W and D (Polish decks).

Renders scenes of procedural decks (vision.synth.procedural) that print W and D for the jack and
the queen, and of as many decks that print J and Q, and counts per rank how many of the cards
whose index shows the scan finds, and how many cards it reports that are not there:

    python scripts/letter_screen.py [--scenes 30] [--scale 3] [--decks 8] [--seed 700000]

The models are those in ``models/`` (a refit to compare: export it there, run again).
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GROUPS = {"J": "J", "Q": "Q", "K": "K", "A": "A", "2-10": "23456789T"}


def tally(detector, img, every, counts, partly_wrong: bool = True) -> None:
    """Adds one render's cards by rank to ``counts`` (present, found, reported though absent
    Counters); ``partly_wrong``: a card reported whose index shows only in part counts as wrong."""
    from vision.synth.scene import MIN_VISIBLE

    present, found, wrong = counts
    cards = {c.card for c in every if c.visible >= MIN_VISIBLE}
    got = {c["card"] for c in detector.scan(img)["cards"]}
    for c in cards:
        present[c[0]] += 1
        found[c[0]] += c in got
    partly = set() if partly_wrong else {c.card for c in every if 0 < c.visible < MIN_VISIBLE}
    for c in got - cards - partly:
        wrong[c[0]] += 1


def by_group(counts) -> dict:
    """{rank group: [present, found, reported though absent]} of ``tally``'s counts."""
    return {name: [sum(n[r] for r in ranks) for n in counts] for name, ranks in GROUPS.items()}


def screen(detector, seeds: list[int], scenes: int, scale: float, first_seed: int) -> dict:
    """{group: [cards present, found, reported though absent]} over ``scenes`` renders of the
    procedural decks ``seeds``."""
    from vision.synth.procedural import procedural_name
    from vision.synth.scene import render_scene

    counts = (collections.Counter(), collections.Counter(), collections.Counter())
    for k in range(scenes):
        img, every = render_scene(first_seed + k, [procedural_name(s) for s in seeds], scale=scale,
                                  min_visible=0.0)
        tally(detector, img, every, counts)
    return by_group(counts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=30)
    ap.add_argument("--scale", type=float, default=3.0, help="times the 640-px scene (3: 1920 px)")
    ap.add_argument("--decks", type=int, default=8, help="procedural decks of each kind")
    ap.add_argument("--seed", type=int, default=700000, help="the first scene's seed")
    args = ap.parse_args(argv)
    from vision.scan import default_detector
    from vision.synth.procedural import polish_letters

    detector = default_detector()
    lettered = [s for s in range(10_000) if polish_letters(s)][:args.decks]
    plain = [s for s in range(10_000) if not polish_letters(s)][:args.decks]
    for label, seeds in (("W and D", lettered), ("J and Q", plain)):
        rows = screen(detector, seeds, args.scenes, args.scale, args.seed)
        cells = ", ".join(f"{name} {f}/{p} ({f / max(p, 1):.3f}, {w} wrong)"
                          for name, (p, f, w) in rows.items())
        print(f"{label} decks {seeds}: {cells}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
