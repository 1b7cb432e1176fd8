"""Where the defence can leave an opponent's nil winning the trick: the engine's card with and
without ``advisor.search.NIL_NOW_BONUS``, on the same drawn deals.

    python scripts/nil_now_probe.py HANDS.jsonl[.gz] ... [--side A] [--deals 16] [--limit N]

HANDS are ``piki match --hands`` files. At every card of side ``--side`` (the engine's seat)
played while an opponent's nil is live and winning the trick so far, with one legal card that
plays under it and one that overtakes, the seat's view is valued twice on the same ``--deals``
drawn deals with no clock (bonus 0, then the shipped bonus), and each choice is classed as a duck
or an overtake. ``sure`` says whether a duck leaves the nil the trick on the true deal (its
partner cannot overtake). One line a position, then the counts by (without, with, sure).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import Counter
from itertools import islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor import search  # noqa: E402
from advisor.cards import parse_card  # noqa: E402
from advisor.inference import draw_deals  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from advisor.view import seat_view  # noqa: E402
from nil_pressure import last_copies  # noqa: E402


def positions(hand: dict, side: str):
    """``(state, seat, nil_seat, ducks)`` before each card of ``side`` that can duck under a live,
    winning nil of the other side or overtake it."""
    record = hand["record"]
    if len(record.get("plays", [])) != 52:
        return
    team = hand["a_team"] if side == "A" else ("EW" if hand["a_team"] == "NS" else "NS")
    nils = [i for i, s in enumerate("NESW") if record["bids"].get(s) == 0 and s not in team]
    if not nils:
        return
    state = replay(HandRecord.from_json({**record, "plays": []}))
    for played in record["plays"]:
        seat = state._to_act
        if "NESW"[seat] in team and state.trick_len:
            for nil in nils:
                if state.tricks[nil] or state.best_seat != nil:
                    continue
                legal = [int(c) for c in state.legal_cards()]
                ducks = [c for c in legal if not search.beats(c, state.best_card)]
                if ducks and len(ducks) < len(legal):
                    yield state.clone(), seat, nil, ducks
        state.play(parse_card(played))


def choices(state, seat: int, ducks: list[int], deals: int, seed: int) -> tuple[str, str]:
    """The card's class (``duck`` / ``over``) without the bonus and with it, on the same deals."""
    view = seat_view(state, seat)
    drawn, _ = draw_deals(view, seat, deals, random.Random(seed))
    shipped = search.NIL_NOW_BONUS
    out = []
    try:
        for bonus in (0.0, shipped):
            search.NIL_NOW_BONUS = bonus
            best = search.analyse_play(view, deals=drawn, time_budget=math.inf).moves[0].card
            out.append("duck" if best in ducks else "over")
    finally:
        search.NIL_NOW_BONUS = shipped
    return out[0], out[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", type=Path, nargs="+")
    ap.add_argument("--side", choices=("A", "B"), default="A", help="the engine's side in the files")
    ap.add_argument("--deals", type=int, default=16)
    ap.add_argument("--limit", type=int, help="stop after this many positions")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    counts: Counter = Counter()
    found = ((path, hand, *position) for path in args.hands for hand in last_copies([path])
             for position in positions(hand, args.side))
    for path, hand, state, seat, nil, ducks in islice(found, args.limit):
        sure = search.wins_this_trick(state, tuple(state.held), ducks[0], nil)
        without, with_bonus = choices(state, seat, ducks, args.deals, args.seed)
        counts[without, with_bonus, "sure" if sure else "not sure"] += 1
        print(json.dumps({"file": path.name, "deal_set": hand["deal_set"], "game": hand["game"],
                          "hand": hand["hand"], "cards_played": len(state.plays), "seat": "NESW"[seat],
                          "nil": "NESW"[nil], "without": without, "with": with_bonus, "sure": sure}),
              flush=True)
    for key in sorted(counts):
        print(f"without {key[0]}, with {key[1]}, {key[2]}: {counts[key]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
