"""``piki advise PHOTO``: scan a photo of a hand, then advise the bid for it."""

from __future__ import annotations

import argparse
import json
import sys

from advisor.bids import BidParseError, bid_to_json, parse_bid
from advisor.cards import parse_card, parse_seat, sort_for_display
from advisor.record import HandRecord, RecordError, replay
from advisor.refusals import words
from advisor.state import IllegalEvent
from vision.assemble import warning_text, warnings_in


def _pairs(text: str, what: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"--{what}: expected KEY:VALUE pairs separated by commas, got {part!r}")
        out[key.strip().upper()] = value.strip()
    return out


def _numbers(text: str, what: str) -> dict[str, int]:
    out = {}
    for k, v in _pairs(text, what).items():
        if k not in ("NS", "EW"):
            raise ValueError(f"--{what}: unknown team {k!r} (expected NS or EW)")
        try:
            out[k] = int(v)
        except ValueError:
            raise ValueError(f"--{what}: {v!r} is not a whole number") from None
    return out


# This command's own warnings, per language (the scan's come from vision.assemble).
WARNINGS = {
    "en": {
        "more_than_a_hand": "{n} cards in view, more than one hand: bidding with {kept}, leaving out {left};"
                            " photograph your hand alone for a sure answer",
        "not_13": "{n} of 13 cards found in the hand: the advice samples the missing ones; re-shoot"
                  " with every corner visible for a sharper answer",
    },
    "pl": {
        "more_than_a_hand": "kart w kadrze: {n}, więcej niż jedna ręka: podpowiedź dla {kept} z nich, bez {left};"
                            " sfotografuj samą swoją rękę, a odpowiedź będzie pewna",
        "not_13": "kart w ręce: {n} zamiast 13: podpowiedź losuje brakujące; zrób zdjęcie jeszcze raz tak, żeby"
                  " widać było każdy róg, a odpowiedź będzie pewniejsza",
    },
}


def hand_from_scan(scan: dict, lang: str = "en") -> tuple[list[str], list[str]]:
    """The cards to bid with, and the scan's warnings (in ``lang``) with any of this choice's own.

    Before the bidding ends no card has been played, so every card in view is the user's: all of
    them, whatever zone the scan gave them, up to 13. More than 13 cannot be one hand: then the
    hand zone's cards, the most confident 13 if there are more.

    >>> scan = {"cards": [{"card": "AS", "zone": "hand", "confidence": 0.9},
    ...                   {"card": "KD", "zone": "table", "confidence": 0.8}], "warnings": []}
    >>> hand_from_scan(scan)
    (['AS', 'KD'], [])
    """
    cards = scan.get("cards") or []
    warnings = warnings_in(scan, lang)
    if len(cards) <= 13:
        return [c["card"] for c in cards], warnings
    held = [c for c in cards if c.get("zone") == "hand"] or cards
    keep = {c["card"] for c in sorted(held, key=lambda c: -c.get("confidence", 0.0))[:13]}
    hand = [c["card"] for c in cards if c["card"] in keep]
    left = [c["card"] for c in cards if c["card"] not in keep]
    warnings.append(WARNINGS[lang]["more_than_a_hand"].format(n=len(cards), kept=len(hand), left=" ".join(left)))
    return hand, warnings


def run_advise(args: argparse.Namespace) -> int:
    from advisor.advice import bid_json
    from vision.errors import ImageError
    from vision.scan import scan_image

    try:
        seat = parse_seat(args.seat)
        dealer = parse_seat(args.dealer) if args.dealer else seat
        bids = {}
        for k, v in _pairs(args.bids, "bids").items():
            bids[parse_seat(k).name] = bid_to_json(parse_bid(v))
        score = _numbers(args.score, "score")
        bags = _numbers(args.bags, "bags")
        scan = scan_image(args.image)
    except ImageError as e:  # (a ValueError too: first)
        text = e.text(args.lang)
        print(f"piki: {text}" if text.startswith(args.image) else f"piki: {args.image}: {text}",
              file=sys.stderr)
        return 2
    except (ValueError, BidParseError) as e:
        print(f"piki: {words(e, args.lang)}", file=sys.stderr)
        return 2
    hand, warnings = hand_from_scan(scan, args.lang)
    if not hand:  # a bid for no card seen would be the bid for any hand: not this photo's answer
        print(f"piki: {args.image}: {warning_text(args.lang, 'none')}", file=sys.stderr)
        return 2
    if len(hand) != 13:
        warnings.append(WARNINGS[args.lang]["not_13"].format(n=len(hand)))
    try:
        record = HandRecord.from_json({
            "rules": args.rules, "dealer": dealer.name, "score_before": score, "bags_before": bags,
            "hands": {seat.name: hand}, "bids": bids, "plays": [],
        })
        state = replay(record)
        if seat.name in bids:
            raise ValueError(f"--bids already has {seat.name}'s own bid: give only the bids made before yours")
        if state.to_act != seat:
            raise ValueError(f"it is {state.to_act.name}'s turn to bid, not {seat.name}'s: give the"
                             " earlier bids with --bids")
        advice = bid_json(record, time_budget=args.time, lang=args.lang, cards_seen=True)  # photographed
    except (RecordError, ValueError) as e:
        print(f"piki: {e}", file=sys.stderr)
        return 2
    except IllegalEvent as e:
        print(f"piki: {e.reason_in(args.lang)}", file=sys.stderr)
        return 1
    out = {"image": args.image, "hand": hand, "advice": advice, "warnings": warnings}
    if args.json:
        print(json.dumps(out, ensure_ascii=False))
    else:
        shown = sort_for_display(parse_card(c) for c in hand)  # by suit, high to low
        from .text import render_bid, word

        print(f"{word(args.lang, 'hand')} ({len(hand)}): {' '.join(str(c) for c in shown)}")
        for w in warnings:
            print(f"{word(args.lang, 'warning')}: {w}")
        print(render_bid(advice, lang=args.lang))
    return 0
