"""What the defence's leads against a live nil were, and whether the nil busted after them.

    python scripts/nil_leads.py HANDS.jsonl[.gz] [...] [--side B]

HANDS are ``piki match --hands`` files. For each hand where one seat of ``--side`` (``B``: the
other bot, the ``--a`` bot defending; ``A``: the ``--a`` bot's own nils) bid nil, every lead by a
defender while the nil has taken no trick is described from the leader's view: the suit, whether
the nil bidder or its partner has shown out of it, and whether the card is a *low lead*: under
every card of its suit the leader has not seen (so any card of the suit the nil still holds beats
it), in a side suit the nil has not shown out of. A row says whether the nil took that trick and
whether it busted in the hand.

Because the engine's card search gives most cards the same double-dummy verdict against a nil, the
sampled deals pick among them nearly at random, and the hands where a low lead was available to
the first such defender's lead are a natural experiment: the summary compares how often the nil
busted when that lead was made and when another card was led, also for the low lead into a suit
the nil's partner has shown out of (it cannot cover by following).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from advisor.cards import Card, Suit  # noqa: E402
from advisor.record import HandRecord, replay  # noqa: E402
from nil_pressure import last_copies  # noqa: E402
from set_anatomy import side_team  # noqa: E402

FIRST_LATE_TRICK = 6


def lead_rows(row: dict, side: str = "B") -> list[dict]:
    """One dict per defender's lead while the single nil of ``side``'s team was live."""
    record = HandRecord.from_json(row["record"])
    final = replay(record)
    team = int(side_team(row, side))
    nils = [s for s in range(4) if s & 1 == team and final.bids[s] == 0]
    if len(nils) != 1 or not final.is_done:
        return []
    nil = nils[0]
    busted_at = next((t for t, w in enumerate(final.trick_winners) if w == nil), None)
    state = replay(dataclasses.replace(record, plays=[]))  # stepped through the play, trick by trick
    out = []
    for t in range(13 if busted_at is None else busted_at + 1):
        leader = state.to_act
        if leader.value & 1 != team:
            unseen = [int(c) for c in state.unseen(leader)]
            lead = _describe(record.plays[4 * t], unseen, state.voids[nil], state.voids[nil ^ 2])
            options = [_describe(c, unseen, state.voids[nil], state.voids[nil ^ 2]) for c in state.legal_cards()]
            out.append({
                "trick": t + 1, "card": int(record.plays[4 * t]), **lead,
                "low_available": any(o["low"] for o in options),
                "low_partner_void_available": any(o["low"] and o["partner_void"] for o in options),
                "bust_now": final.trick_winners[t] == nil, "busted": busted_at is not None,
            })
        for card in record.plays[4 * t:4 * t + 4]:
            state.play(card)
    return out


def _describe(card: Card, unseen: list[int], nil_voids: int, partner_voids: int) -> dict:
    """``card`` as a lead, given the cards the leader has not seen and the suits the nil bidder
    and its partner have shown out of (bit masks by suit, as ``HandState.voids``)."""
    suit = card.suit
    others = [c for c in unseen if c // 13 == suit]
    nil_void = bool(nil_voids >> suit & 1)
    return {"suit": int(suit), "nil_void": nil_void, "partner_void": bool(partner_voids >> suit & 1),
            "low": bool(others) and all(c > card for c in others) and suit != Suit.S and not nil_void}


def first_chances(hands: list[list[dict]], available: str, chosen, last_trick: int = 13) -> tuple[list, list]:
    """Busted flags of the hands whose first lead with ``available`` (up to ``last_trick``) made
    the ``chosen`` lead, and of those where it led another card."""
    made, other = [], []
    for rows in hands:
        first = next((r for r in rows if r["trick"] <= last_trick and r[available]), None)
        if first is not None:
            (made if chosen(first) else other).append(first["busted"])
    return made, other


def summary(hands: list[list[dict]]) -> str:
    rows = [r for h in hands for r in h]
    lines = [f"{len(hands)} hands with a live nil and a defender's lead, {len(rows)} leads", "",
             "leads by kind: count, nil took that trick, nil busted in the hand"]
    for label, late in (("tricks 1-5", False), (f"tricks {FIRST_LATE_TRICK}+", True)):
        part = [r for r in rows if (r["trick"] >= FIRST_LATE_TRICK) == late]
        for kind, keep in (("low lead", lambda r: r["low"]),
                           ("low lead, partner shown out", lambda r: r["low"] and r["partner_void"]),
                           ("other lead, a low one available", lambda r: r["low_available"] and not r["low"]),
                           ("into the nil's void", lambda r: r["nil_void"]),
                           ("spade", lambda r: r["suit"] == Suit.S)):
            sel = [r for r in part if keep(r)]
            if sel:
                lines.append(f"  {label:11s} {kind:33s} {len(sel):6d} {_rate(sel, 'bust_now'):.3f}"
                             f" {_rate(sel, 'busted'):.3f}")
    lines += ["", "first chance in a hand (natural experiment): busted when led / when another card was led"]
    for kind, available, chosen in (
            ("low lead", "low_available", lambda r: r["low"]),
            ("low lead, partner shown out", "low_partner_void_available",
             lambda r: r["low"] and r["partner_void"])):
        for last in (5, 13):
            made, other = first_chances(hands, available, chosen, last)
            if made and other:
                a, b = sum(made) / len(made), sum(other) / len(other)
                se = math.sqrt(a * (1 - a) / len(made) + b * (1 - b) / len(other))
                lines.append(f"  {kind:28s} by trick {last:2d}: {len(made):5d} {a:.3f} / {len(other):5d} {b:.3f}"
                             f"  difference {a - b:+.3f} (se {se:.3f})")
    return "\n".join(lines)


def _rate(rows: list[dict], key: str) -> float:
    return sum(r[key] for r in rows) / len(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hands", nargs="+", type=Path, help="piki match --hands files (.jsonl or .jsonl.gz)")
    ap.add_argument("--side", choices=("A", "B"), default="B", help="whose nils (default B: the other bot's)")
    args = ap.parse_args(argv)
    hands = [rows for row in last_copies(args.hands) if (rows := lead_rows(row, args.side))]
    if not hands:
        print("no hand with a live nil and a defender's lead", file=sys.stderr)
        return 1
    print(summary(hands))
    return 0


if __name__ == "__main__":
    sys.exit(main())
