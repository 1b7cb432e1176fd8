"""Plain-text renderings of the command answers (the ``--json`` forms are the answers themselves)."""

from __future__ import annotations

from typing import Any

from advisor.explain import NIL_WORD, decimal_commas
from advisor.refusals import headline


def _score_lines(score: dict[str, Any] | None, lang: str) -> list[str]:
    if not score:
        return []
    return ["  " + word(lang, "score_line", team=team, hand=f"{score[team]['hand_points']:+d}",
                        points=score[team]["points"], bags=score[team]["bags"])
            for team in ("NS", "EW")]


def render_state(s: dict[str, Any], lang: str = "en") -> str:
    head = word(lang, "phase", phase=word(lang, "phase_" + s["phase"]))
    lines = [head + (word(lang, "to_act", seat=s["to_act"]) if s["to_act"] else "")]
    if s["bids"]:
        lines.append(word(lang, "bids") + ": "
                     + ", ".join(f"{k} {bid_name(lang, v)}" for k, v in s["bids"].items()))
    if s["legal"] is not None:
        lines.append(word(lang, "legal") + ": " + " ".join(bid_name(lang, x) for x in s["legal"]))
    if s["phase"] != "bidding":
        lines.append(word(lang, "tricks_taken") + ": " + ", ".join(f"{k} {v}" for k, v in s["tricks"].items())
                     + "; " + word(lang, "spades_broken" if s["spades_broken"] else "spades_unbroken"))
    if s["current_trick"]:
        lines.append(word(lang, "this_trick") + ": "
                     + ", ".join(f"{p['seat']} {p['card']}" for p in s["current_trick"]))
    lines += _score_lines(s["score"], lang)
    if s["game_over"]:
        lines.append(word(lang, "game_drawn") if s["winner"] == "draw"
                     else word(lang, "game_won_by", team=s["winner"]))
    return "\n".join(lines)


def render_check(c: dict[str, Any], lang: str = "en") -> str:
    if c["legal"]:
        return word(lang, "record_legal")
    return "\n".join(f"{headline(lang, e['kind'], e['seat'], e['index'])}: {e['reason']}"
                     for e in c["errors"])


# The words of the plain-text advice, per language (the explanations themselves come translated
# from advisor.explain; these are the labels around them).
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "bid": "bid {bid}", "play": "play {card}", "points": "{value} points",
        "tricks": "{value} tricks", "game_won": "game won {pct}%", "contract_makes": "contract makes {pct}%",
        "nil_makes": "nil makes {pct}% of the time", "blind_nil": "blind nil",
        "bidding": "bidding", "trick": "trick {n}", "did_bid": "bid", "did_play": "played",
        "best": "best", "costs": "costs", "hand": "hand", "warning": "warning",
        "phase": "phase: {phase}", "to_act": ", {seat} to act", "phase_bidding": "bidding",
        "phase_play": "play", "phase_done": "done", "bids": "bids", "legal": "legal",
        "tricks_taken": "tricks", "spades_broken": "spades broken", "spades_unbroken": "spades not broken",
        "this_trick": "trick", "score_line": "{team}: {hand} this hand, {points} in all, {bags} bags",
        "game_drawn": "game over: draw", "game_won_by": "game over: {team} wins", "record_legal": "legal",
    },
    "pl": {
        "bid": "deklaruj {bid}", "play": "zagraj {card}", "points": "{value} pkt",
        "tricks": "{value} lewy", "game_won": "wygrana partii {pct}%",
        "contract_makes": "kontrakt wychodzi {pct}%", "nil_makes": "zero udaje się w {pct}% przypadków",
        "blind_nil": "zero w ciemno", "bidding": "licytacja", "trick": "lewa {n}",
        "did_bid": "zgłoszono", "did_play": "zagrano", "best": "najlepiej", "costs": "koszt",
        "hand": "ręka", "warning": "uwaga",
        "phase": "faza: {phase}", "to_act": ", ruch: {seat}", "phase_bidding": "licytacja",
        "phase_play": "rozgrywka", "phase_done": "koniec rozdania", "bids": "deklaracje",
        "legal": "dozwolone", "tricks_taken": "lewy", "spades_broken": "piki rozbite",
        "spades_unbroken": "piki nierozbite", "this_trick": "bieżąca lewa",
        "score_line": "{team}: {hand} w tym rozdaniu, {points} razem, worki: {bags}",
        "game_drawn": "koniec partii: remis", "game_won_by": "koniec partii: wygrywa {team}",
        "record_legal": "zapis zgodny z zasadami",
    },
}


def word(lang: str, key: str, **params: Any) -> str:
    """One label of the plain-text advice in ``lang`` (English for a language it lacks)."""
    return WORDS.get(lang, WORDS["en"])[key].format(**params)


def number(lang: str, value: float, places: int, sign: bool = False) -> str:
    """``value`` with ``places`` decimals (a decimal comma in Polish), signed if ``sign``.

    >>> number("pl", -10.04, 1, sign=True), number("en", 7.925, 2)
    ('-10,0', '7.92')
    """
    return decimal_commas(lang, f"{value:+.{places}f}" if sign else f"{value:.{places}f}")


def bid_name(lang: str, bid: Any) -> str:
    """A bid as the text shows it: a number, or nil / blind nil in words (in JSON nil is 0).

    >>> [bid_name("en", b) for b in (0, 3, "blind_nil")], bid_name("pl", 0)
    (['nil', '3', 'blind nil'], 'zero')
    """
    if (bid == 0 and not isinstance(bid, bool)) or bid == "nil":
        return NIL_WORD.get(lang, NIL_WORD["en"])  # the advice's own word for it
    return word(lang, bid) if bid == "blind_nil" else str(bid)


def render_bid(a: dict[str, Any], lang: str = "en") -> str:
    lines = [word(lang, "bid", bid=bid_name(lang, a["bid"]))]
    for c in a["candidates"][:6]:
        row = [word(lang, "points", value=number(lang, c["expected_points"], 1, sign=True))]
        if c.get("win_chance") is not None:
            row.append(word(lang, "game_won", pct=f"{100 * c['win_chance']:.0f}"))
        if c.get("make_chance") is not None:
            row.append(word(lang, "contract_makes", pct=f"{100 * c['make_chance']:.0f}"))
        lines.append(f"  {bid_name(lang, c['bid']):>9}: " + ", ".join(row))
    if a.get("nil_probability") is not None:
        lines.append("  " + word(lang, "nil_makes", pct=f"{100 * a['nil_probability']:.0f}"))
    lines.append(a["explanation"])
    return "\n".join(lines)


def render_play(a: dict[str, Any], lang: str = "en") -> str:
    lines = [word(lang, "play", card=a["card"])]
    for c in a["candidates"]:
        lines.append(f"  {c['card']}: " + word(lang, "tricks", value=number(lang, c["expected_tricks"], 2))
                     + ", " + word(lang, "points", value=number(lang, c["expected_points"], 1, sign=True)))
    lines.append(a["explanation"])
    return "\n".join(lines)


def render_review(r: dict[str, Any], lang: str = "en") -> str:
    lines = []
    for d in r["decisions"]:
        if d["listed"]:
            mark = d.get("mark") or ""
            # the marks are by tricks lost (ben's rule), the cost in points: both are shown, the
            # points with their standard error over the deals judged on where there is one
            value = number(lang, d["cost"], 1)
            if d.get("cost_error"):
                value += " ± " + number(lang, d["cost_error"], 1)
            cost = word(lang, "points", value=value)
            if d.get("tricks_lost"):
                cost += ", " + word(lang, "tricks", value=number(lang, d["tricks_lost"], 1))
            is_bid = d.get("kind") == "bid"
            label = word(lang, "bidding") if is_bid else word(lang, "trick", n=d["index"] // 4 + 1)
            played, best = d["played"], d["best"]
            if is_bid:
                played, best = bid_name(lang, played), bid_name(lang, best)
            lines.append(f"{label:>10} {d['seat']}: {word(lang, 'did_bid' if is_bid else 'did_play')} {played},"
                         f" {word(lang, 'best')} {best} ({word(lang, 'costs')} {cost}) {mark}".rstrip())
            if d.get("note"):
                lines.append(f"{'':>13}{d['note']}")
    lines.extend([line["summary"] for line in r["seats"]] if r.get("seats") else [r["summary"]])  # a line a seat
    return "\n".join(lines)
