"""Plain-text renderings of the command answers (the ``--json`` forms are the answers themselves)."""

from __future__ import annotations

from typing import Any


def _score_lines(score: dict[str, Any] | None) -> list[str]:
    if not score:
        return []
    lines = []
    for team in ("NS", "EW"):
        t = score[team]
        lines.append(f"  {team}: {t['hand_points']:+d} this hand, {t['points']} in all, {t['bags']} bags")
    return lines


def render_state(s: dict[str, Any]) -> str:
    lines = [f"phase: {s['phase']}" + (f", {s['to_act']} to act" if s["to_act"] else "")]
    if s["bids"]:
        lines.append("bids: " + ", ".join(f"{k} {v}" for k, v in s["bids"].items()))
    if s["legal"] is not None:
        lines.append("legal: " + " ".join(str(x) for x in s["legal"]))
    if s["phase"] != "bidding":
        lines.append("tricks: " + ", ".join(f"{k} {v}" for k, v in s["tricks"].items())
                     + f"; spades {'broken' if s['spades_broken'] else 'not broken'}")
    if s["current_trick"]:
        lines.append("trick: " + ", ".join(f"{p['seat']} {p['card']}" for p in s["current_trick"]))
    lines += _score_lines(s["score"])
    if s["game_over"]:
        lines.append(f"game over: {'draw' if s['winner'] == 'draw' else s['winner'] + ' wins'}")
    return "\n".join(lines)


def render_check(c: dict[str, Any]) -> str:
    if c["legal"]:
        return "legal"
    return "\n".join(
        f"illegal {e['kind']} #{e['index']} by {e['seat']}: {e['reason']}" for e in c["errors"]
    )


def render_bid(a: dict[str, Any]) -> str:
    lines = [f"bid {a['bid']}"]
    for c in a["candidates"][:6]:
        won = f", game won {100 * c['win_chance']:.0f}%" if c.get("win_chance") is not None else ""
        makes = f", contract makes {100 * c['make_chance']:.0f}%" if c.get("make_chance") is not None else ""
        lines.append(f"  {str(c['bid']):>9}: {c['expected_points']:+.1f} points{won}{makes}")
    if a.get("nil_probability") is not None:
        lines.append(f"  nil makes {100 * a['nil_probability']:.0f}% of the time")
    lines.append(a["explanation"])
    return "\n".join(lines)


def render_play(a: dict[str, Any]) -> str:
    lines = [f"play {a['card']}"]
    for c in a["candidates"]:
        lines.append(f"  {c['card']}: {c['expected_tricks']:.2f} tricks, {c['expected_points']:+.1f} points")
    lines.append(a["explanation"])
    return "\n".join(lines)


def render_review(r: dict[str, Any]) -> str:
    lines = []
    for d in r["decisions"]:
        if d["cost"] > 0.05 or d.get("mark"):
            mark = d.get("mark") or ""
            # the marks are by tricks lost (ben's rule), the cost in points: both are shown
            tricks = f", {d['tricks_lost']:.1f} tricks" if d.get("tricks_lost") else ""
            did = "bid" if d.get("kind") == "bid" else "played"
            label = "bidding" if d.get("kind") == "bid" else d["label"]
            lines.append(f"{label:>10} {d['seat']}: {did} {d['played']}, best {d['best']}"
                         f" (costs {d['cost']:.1f} points{tricks}) {mark}".rstrip())
            if d.get("note"):
                lines.append(f"{'':>13}{d['note']}")
    lines.append(r["summary"])
    return "\n".join(lines)
