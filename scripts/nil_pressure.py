"""How often a nil busts in real play, by the tricks the defence can force on it double dummy.

    python scripts/nil_pressure.py HANDS.jsonl[.gz] [...] --side B --nils 400 --out ROWS.jsonl
    python scripts/nil_pressure.py --summary ROWS.jsonl
    python scripts/nil_pressure.py HANDS.jsonl.gz --quoted 300 --out QUOTED.jsonl    # then --summary

HANDS are ``piki match --hands`` files. For each nil of the chosen side (``B``: the other bot's,
the ``--a`` bot defending; ``A``: the ``--a`` bot's own) and each trick start while the nil has
taken no trick (after the first trick up to the last), the true deal is solved for the tricks the
defenders can force the nil seat to take, up to ``--cap`` (default 2), and the row records
whether the nil busted in the game. The summary gives the bust rate by those tricks, before
six tricks have been played and after (``advisor.search.NIL_PRESS_BONUS`` rests on it).

``--quoted N`` takes instead, for N nils of each side, one random trick start with the nil live
and the card search of the seat to lead (its default budget, without the press bonus): the share
of its sampled deals in which double dummy lets the nil make after the card that was played, and
whether the nil made. The summary then fits, by side and before or after six tricks, the straight
line from that share to the chance to make: ``advisor.advice.NIL_CHANCE_FIT``.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor import search  # noqa: E402
from advisor.advice import DEFAULT_PLAY_BUDGET, LATE_NIL_TRICKS as LATE  # noqa: E402
from advisor.bids import is_nil  # noqa: E402
from advisor.cards import Seat  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from advisor.search import _solver_args, opponents_mask, seat_mask  # noqa: E402
from advisor.solver import solve  # noqa: E402
from advisor.state import HandState  # noqa: E402
from advisor.view import seat_view  # noqa: E402
from set_anatomy import read_rows  # noqa: E402


def last_copies(paths: list[Path]) -> list[dict]:
    """The hands of the files, the last copy of each (a run stopped mid-way writes a hand again
    when it goes on), finished hands only, in file order."""
    rows: dict = {}
    for path in paths:
        for row in read_rows(path):
            rows[(str(path), row["deal_set"], row["game"], row["hand"])] = row
    return [r for r in rows.values() if len(r["record"]["plays"]) == 52]


def trick_starts(record: dict) -> list[HandState]:
    """The hand's state at the start of tricks 2 to 13 (after 1 to 12 tricks)."""
    hand = HandRecord.from_json(record)
    state = replay(dataclasses.replace(hand, plays=[]))
    out = []
    for i, card in enumerate(hand.plays[:48]):
        state.play(card)
        if (i + 1) % 4 == 0:
            out.append(state.clone())
    return out


def nil_rows(row: dict, side: str, cap: int, node_limit: int, blind: bool = False):
    """One row per trick start at which a nil of ``side`` is still live."""
    record = row["record"]
    a_team = 0 if row["a_team"] == "NS" else 1
    final = replay(HandRecord.from_json(record))
    states = None
    for seat in range(4):
        bid = final.bids[seat]
        if bid is None or not is_nil(bid) or (bid != 0 and not blind):
            continue
        if ((seat & 1) == a_team) != (side == "A"):
            continue
        states = states or trick_starts(record)
        for k, state in enumerate(states, 1):
            if state.tricks[seat] > 0:
                break
            forced = solve(**_solver_args(state, tuple(state.held)), count_seats=seat_mask(seat),
                           maximizer_seats=opponents_mask(seat), cap=cap, node_limit=node_limit, fresh=True)
            yield {"deal_set": row["deal_set"], "game": row["game"], "hand": row["hand"], "seat": "NESW"[seat],
                   "bid": bid, "tricks_played": k, "forced": forced, "busted": final.tricks[seat] > 0}


def quoted_rows(rows: list[dict], per_side: int, seed: int = 5):
    """For ``per_side`` nils of each side: one random trick start with the nil live, the share of
    the lead's sampled deals in which the nil makes after the card played, and the outcome."""
    rng = random.Random(seed)
    rows = list(rows)
    rng.shuffle(rows)
    count = {"ours": 0, "theirs": 0}
    keep = search.NIL_PRESS_BONUS
    search.NIL_PRESS_BONUS = 0.0  # the share of double dummy alone
    try:
        for row in rows:
            record = row["record"]
            final = replay(HandRecord.from_json(record))
            states = None
            for nil_seat in range(4):
                if final.bids[nil_seat] != 0:
                    continue
                states = states or trick_starts(record)
                live = [st for st in states if st.tricks[nil_seat] == 0]
                if not live:
                    continue
                state = rng.choice(live)
                seat = int(state.to_act)
                side = "ours" if (seat & 1) == (nil_seat & 1) else "theirs"
                if count[side] >= per_side:
                    continue
                k = len(state.plays) // 4
                analysis = search.analyse_play(seat_view(state, Seat(seat)), time_budget=DEFAULT_PLAY_BUDGET,
                                               rng=random.Random(k))
                played = record["plays"][4 * k]
                move = next(m for m in analysis.moves if str(m.card) == played)
                count[side] += 1
                yield {"deal_set": row["deal_set"], "game": row["game"], "hand": row["hand"],
                       "seat": "NESW"[nil_seat], "side": side, "tricks_played": k,
                       "share": move.nil_ok.get(nil_seat, 1.0), "made": final.tricks[nil_seat] == 0}
            if all(n >= per_side for n in count.values()):
                return
    finally:
        search.NIL_PRESS_BONUS = keep


def fit_lines(rows: list[dict]) -> dict:
    """{(side, late): (chance at a share of 0, chance at 1, positions)}: least squares."""
    out = {}
    for side in ("ours", "theirs"):
        for late in (False, True):
            part = [r for r in rows if r["side"] == side and (r["tricks_played"] >= LATE) == late]
            if len(part) < 2:
                continue
            xs, ys = [r["share"] for r in part], [float(r["made"]) for r in part]
            mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
            sxx = sum((x - mx) ** 2 for x in xs)
            slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
            out[(side, late)] = (my - slope * mx, my - slope * mx + slope, len(part))
    return out


def quoted_summary(rows: list[dict]) -> str:
    lines = [f"{len(rows)} quoted positions", "side | tricks played | positions | chance at share 0 | at 1"]
    for (side, late), (at0, at1, n) in fit_lines(rows).items():
        lines.append(f"{side} | {f'{LATE}+' if late else f'1-{LATE - 1}'} | {n} | {at0:.3f} | {at1:.3f}")
    return "\n".join(lines)


def summary(rows: list[dict], cap: int = 2) -> str:
    if rows and "share" in rows[0]:
        return quoted_summary(rows)
    table = defaultdict(lambda: [0, 0])
    for r in rows:
        key = (r["tricks_played"] >= LATE, "over the node limit" if r["forced"] is None else min(r["forced"], cap))
        table[key][0] += 1
        table[key][1] += r["busted"]
    nils = len({(r["deal_set"], r["game"], r["hand"], r["seat"]) for r in rows})
    lines = [f"{len(rows)} positions of {nils} nils", "tricks played | tricks forced | positions | busted"]
    for (late, forced), (n, busted) in sorted(table.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        played = f"{LATE}+" if late else f"1-{LATE - 1}"
        label = f"{forced}+" if forced == cap else str(forced)
        lines.append(f"{played} | {label} | {n} | {busted / n:.3f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("hands", type=Path, nargs="*")
    ap.add_argument("--side", choices=("A", "B"), default="B")
    ap.add_argument("--nils", type=int, default=400, help="nils to read (default 400)")
    ap.add_argument("--cap", type=int, default=2)
    ap.add_argument("--node-limit", type=int, default=2_000_000)
    ap.add_argument("--blind", action="store_true", help="blind nils too")
    ap.add_argument("--quoted", type=int, metavar="N", help="the quoted chance's rows, N nils a side")
    ap.add_argument("--out", type=Path)
    ap.add_argument("--summary", type=Path, nargs="+")
    args = ap.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for p in args.summary for line in p.read_text().splitlines() if line.strip()]
        print(summary(rows, args.cap))
        return 0
    if not args.hands or args.out is None:
        ap.error("give hands files and --out, or --summary")
    if args.quoted:
        rows = []
        with args.out.open("w") as out:
            for r in quoted_rows(last_copies(args.hands), args.quoted):
                out.write(json.dumps(r) + "\n")
                rows.append(r)
        print(quoted_summary(rows))
        return 0
    seen, rows = set(), []
    with args.out.open("w") as out:
        for row in last_copies(args.hands):
            for r in nil_rows(row, args.side, args.cap, args.node_limit, args.blind):
                seen.add((r["deal_set"], r["game"], r["hand"], r["seat"]))
                if len(seen) > args.nils:
                    break
                out.write(json.dumps(r) + "\n")
                rows.append(r)
            if len(seen) > args.nils:
                break
    print(summary(rows, args.cap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
