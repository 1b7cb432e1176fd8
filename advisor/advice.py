"""Bid advice, play advice and hand review: the answers of ``piki bid``, ``piki play`` and
``piki review`` (and of the HTTP API), built on the sampled double-dummy search.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections import Counter
from typing import Any

from .bids import BLIND_NIL, NIL, bid_to_json, is_nil
from .cards import Card, Seat, mask_to_cards, parse_seat
from .card_role import card_role, contrast
from . import blind_nil
from .explain import join, say
from .record import HandRecord, completed_hands, replay
from . import search
from .search import (
    BidModel, MoveStats, PlayAnalysis, analyse_play, best_move, bid_evaluations, bid_samples, make_chance,
    opponents_contract_known,
)
from .gamevalue import win_table
from .inference import SampledDeal, draw_deals, played_by
from .state import HandState, Phase
from .bots.heuristic_bid import choose_bid
from .handeval import estimate_tricks
from .view import seat_view

DEFAULT_PLAY_BUDGET = 0.35
DEFAULT_BID_BUDGET = 0.7
NIL_MIN_PROBABILITY = 0.7  # a nil proposed by the simulation alone needs this chance to make
BID_TIE_POINTS = 15.0  # expected points within which the trick-counting bid is preferred
NIL_BID_TIE_POINTS = 40.0  # the same for a nil chosen by the nil rules
# … when the simulation gives that nil at least this chance: a made nil is +100, a failed one
# -100 and usually the partner's contract too. Against the rule-based bot, nils forced on 400
# deals gained nothing measurable over the other bid at a chance of 0.55-0.6 (+5 points a deal,
# se 21; from 0.6 up +50 to +75), and of the third acceptance run's last 391 nils, those the
# advice gives 0.55-0.6 again made 67% against 78% for all (benchmarks/README.md, "Nil or not").
# With the chance calibrated (search.NIL_CUT_MADE), 0.6 still gives the most points on two
# forced-nil screens; 0.68 would lift the made rate from 76.5% to 80.6% for 4.6 points a nil-fit deal.
RULE_NIL_MIN_PROBABILITY = 0.6
# The bid with the best chance to win the game replaces the one with the most expected points
# when it is worth this much more, counted in points at the current score (see _points_slope).
GAME_END_POINTS = 2.0
GAME_END_CHANCE = 0.005  # … and raises that chance by at least half a percentage point
# A live nil's chance of surviving is quoted in the play advice where the cards differ by at
# least this many percentage points.
NIL_CHANCE_SHOWN = 5.0
# A live nil's chance to make in real play, quoted by the play advice, from the share of the
# sampled deals in which double dummy lets it make (which is 0% in most positions: the simulated
# defenders see every card): a straight line from the chance at a share of 0 to the chance at 1,
# for the team's own nil and an opponent's, before LATE_NIL_TRICKS tricks and after. Fitted on one
# random trick start of each of 300 nils a side of the fifth 500-game run (the engine's own, the
# rule-based bot defending; the rule-based bot's, the engine defending) by
# ``scripts/nil_pressure.py --quoted``; on the ninth run's own nils the Brier score of the quoted
# chance is 0.176 against 0.282 for the share itself (benchmarks/README.md, "Pressing an
# opponent's nil").
NIL_CHANCE_FIT = {
    "ours": ((0.485, 0.806), (0.545, 0.970)),
    "theirs": ((0.447, 0.604), (0.467, 0.967)),
}
LATE_NIL_TRICKS = 6
RULE_COMPLETIONS = 24  # completions of a hand only partly known that vote on the counting rules' bid
PARTIAL_PLAY_DEALS = 64  # deals drawn for a card decision with the hand only partly known


def _rng(seed: int | None) -> random.Random:
    return random.Random(0 if seed is None else seed)


def _decision_rng(seed: int | None, kind: str, index: int) -> random.Random:
    """The random numbers of one reviewed decision, from the seed and the decision alone: a seat's
    review is the same whether it is reviewed alone or with the others."""
    return random.Random(f"{0 if seed is None else seed}:{kind}:{index}")


# --------------------------------------------------------------------- bidding
def _rule_bid_completed(state: HandState, rng: random.Random, n: int = RULE_COMPLETIONS) -> int:
    """The counting rules' bid for a hand only partly known: the commonest over ``n`` of its
    completions drawn from the unseen cards (as the bid's simulated deals are)."""
    seat = state._to_act
    deals, _ = draw_deals(state, seat, n, rng)
    votes = Counter(choose_bid(state, hand=d.initial[seat]) for d in deals)
    return votes.most_common(1)[0][0]


def _bid_table(state: HandState, model: BidModel) -> list[dict[str, Any]]:
    rows = [{"bid": bid_to_json(b), "expected_points": round(pts, 1), "win_chance": round(win, 4)}
            for b, (pts, win) in bid_evaluations(state, model).items()]
    if not _partner_nil(state):
        for r in rows:
            if r["bid"] != 0:  # the chance the team's contract makes (double dummy)
                r["make_chance"] = round(make_chance(model, r["bid"]), 3)
    return rows


def _partner_bid(state: HandState):
    """The bid of the partner of the seat to act, None before it."""
    return state.bids[(state._to_act + 2) & 3]


def _partner_nil(state: HandState) -> bool:
    pbid = _partner_bid(state)
    return pbid is not None and is_nil(pbid)


def _their_contract_reason(state: HandState, team: int) -> tuple[str, dict]:
    """The opponents' contract, known before this bid, and what making it does for them."""
    contract = sum(state.bids[s] for s in range(4) if s & 1 != team)
    score = state.points_before[1 - team]
    return ("bid_their_contract", {"contract": contract, "score": score,
                                   "reach": score + 10 * contract, "spare": 13 - contract})


def _points_slope(state: HandState, team: int, gain: float) -> float:
    """What one more point this hand adds to the chance to win the game, around ``gain``."""
    return win_table(state.rules).points_slope(state.points_before[team] + gain, state.points_before[1 - team])


def analyse_bid(state: HandState, *, time_budget: float | None = None, seed: int | None = None,
                lang: str = "en", cards_seen: bool = False) -> dict[str, Any]:
    """Bid advice for the seat to act. Blind nil is advised from the score alone, unless
    ``cards_seen`` says the player has looked at the cards (a photo of the hand), when it is too
    late for it."""
    if state.phase is not Phase.BIDDING:
        raise ValueError(f"the bidding is over (phase: {state.phase.value}); ask for play advice")
    seat = state._to_act
    team = seat & 1
    partner = (seat + 2) & 3
    pbid = state.bids[partner]
    budget = DEFAULT_BID_BUDGET if time_budget is None else time_budget
    rng = _rng(seed)
    looked = state.complete[seat]
    known = state.held[seat].bit_count()  # a hand only partly known: the rest is sampled
    reasons: list[tuple[str, dict]] = []
    rows: list[dict[str, Any]] = []
    blind_p = None
    take_blind = False
    if BLIND_NIL in state.legal_bids():
        # From the score alone (the rules forbid looking first), with measured odds.
        # The partner's bid is public: after a nil there is no cover, after a big bid a good one.
        verdict = blind_nil.advise(state.rules, team, state.points_before, pbid)
        blind_p = verdict.success
        take_blind = verdict.take
        if pbid is not None:
            reasons.append(("blind_nil_after_nil" if is_nil(pbid) else "blind_nil_after_bid",
                            {"bid": bid_to_json(pbid), "pct": 100 * blind_p}))
        # not advised, and the two chances read alike as whole percentages: "4% instead of 4%"
        # says nothing, "about 4% either way" does
        no_gain = not take_blind and round(100 * verdict.win_blind) == round(100 * verdict.win_look)
        if take_blind:
            blind_key = "blind_nil_too_late" if cards_seen else "blind_nil_yes"
        else:
            blind_key = "blind_nil_no_gain" if no_gain else "blind_nil_no"
        if pbid is not None and blind_key != "blind_nil_too_late":
            blind_key += "_said"  # the sentence above gave the chance that a blind nil makes
        take_blind = take_blind and not cards_seen
        blind, look = percent_pair(verdict.win_blind, verdict.win_look)
        if no_gain:
            look = f"{100 * verdict.win_look:.0f}"
        reasons.append((blind_key, {"behind": verdict.behind, "pct": 100 * blind_p, "blind": blind, "look": look}))
        rows.append({"bid": "blind_nil", "expected_points": round(verdict.expected_points, 1),
                     "win_chance": round(verdict.win_blind, 4)})
    model = bid_samples(state, time_budget=budget, rng=rng, hide_hand=known == 0)
    rows += _bid_table(state, model)
    rows.sort(key=lambda r: -r["expected_points"])
    # A nil is advised only when it makes often enough: its expected points hide a swing of
    # twice the nil value, and a failed nil usually sinks the partner's contract too.
    allowed = [r for r in rows if r["bid"] != "blind_nil"
               and (r["bid"] != 0 or model.nil_p >= NIL_MIN_PROBABILITY)]
    best = allowed[0]
    # Bids are compared by the chance to win the game, in points: far from the end that is the
    # expected points; near it a point is worth more or less depending on what it does to the
    # result (a safe bid that reaches the goal, a risky one that can still catch up).
    slope = _points_slope(state, team, best["expected_points"])
    for r in rows:
        r["_worth"] = r["win_chance"] / slope
    by_chance = max(allowed, key=lambda r: r["_worth"])
    game_reason = None
    if by_chance["_worth"] - best["_worth"] > GAME_END_POINTS \
            and by_chance["win_chance"] - best["win_chance"] >= GAME_END_CHANCE:
        game_reason = ("bid_game_end", {"bid": by_chance["bid"], "other": best["bid"],
                                        "pct": 100 * by_chance["win_chance"],
                                        "other_pct": 100 * best["win_chance"]})
        best = by_chance
    nil_row = next(r for r in rows if r["bid"] == 0)
    # the nil the chance floor kept out, though it ranks above the bid advised
    nil_kept_out = nil_row not in allowed and nil_row["_worth"] > best["_worth"]
    nil_floor = NIL_MIN_PROBABILITY  # the chance that nil needs, as the text quotes it
    rule_reason = None
    if known:
        # The trick-counting bid wins near-ties: in duplicate matches its bids, played by the
        # search, scored about 20 points a hand more than the simulation's own top bid (whose
        # nil choices in particular are noisier than the counting rules).
        rule = choose_bid(state) if looked else _rule_bid_completed(state, rng)
        rule_row = next((r for r in rows if r["bid"] == rule), None)
        if rule == 0:
            nil_floor = RULE_NIL_MIN_PROBABILITY
            if model.nil_p < RULE_NIL_MIN_PROBABILITY:
                rule_row = None
        if rule_row is not None and rule_row is not best:
            gap = best["_worth"] - rule_row["_worth"]
            if gap <= (NIL_BID_TIE_POINTS if rule == 0 else BID_TIE_POINTS):
                # the points' top can rank below the rule's bid once the game chance counts
                rule_reason = ("bid_rule" if gap >= 0.5 else "bid_rule_level",
                               {"bid": rule, "top": best["bid"], "gap": gap})
                best = rule_row
                game_reason = None
    for r in rows:
        del r["_worth"]
    recommend = "blind_nil" if take_blind else best["bid"]
    nil_p = model.nil_p
    tricks = model.team_tricks
    if not take_blind:
        reasons.append(("bid_best", {"bid": recommend, "points": best["expected_points"],
                                     "tricks": tricks, "samples": len(model.means),
                                     "solved": len(model.solved)}))
        if "make_chance" in best:
            pct = 100 * best["make_chance"]
            reasons.append(("bid_make", {"contract": recommend + pbid, "pct": pct}) if pbid is not None
                           else ("bid_make_estimated", {"pct": pct}))
        if looked and recommend != 0:
            reasons.append(("hand_count", {"tricks": estimate_tricks(state.held[seat])}))
        if not looked:
            reasons.append(("hand_partial", {"known": known, "missing": 13 - known}) if known
                           else ("hand_unseen", {}))
        if game_reason is not None:
            reasons.append(game_reason)
            if search.JOINT_END and opponents_contract_known(state):
                reasons.append(_their_contract_reason(state, team))
        if rule_reason is not None:
            reasons.append(rule_reason)
        if pbid is None:
            reasons.append(("bid_partner_unknown", {}))
        elif is_nil(pbid):
            reasons.append(("partner_nil", {}))
        else:
            reasons.append(("bid_partner", {"bid": bid_to_json(pbid)}))
        if recommend == 0:
            reasons.append(("nil_best", {"pct": 100 * nil_p}))
        elif nil_kept_out:
            reasons.append(("nil_kept_out", {"pct": 100 * nil_p, "points": nil_row["expected_points"],
                                             "win": 100 * nil_row["win_chance"], "floor": 100 * nil_floor}))
        elif nil_p >= 0.2:
            reasons.append(("nil_chance", {"pct": 100 * nil_p, "points": nil_row["expected_points"]}))
        if (recommend == 0 or nil_p >= 0.2) and int(state.first) == seat:
            reasons.append(("nil_on_lead", {}))  # the chance counts it (bidmodel's lead term)
        if recommend != 0:  # "the bid is not raised to dodge them" is about a contract, not a nil
            _bag_reason(state, team, reasons, bidding=True)
    elif known:
        # Blind nil is chosen from the score alone, before looking; a player whose cards are in
        # the record may already have looked, and then the bid for the hand is what counts.
        reasons.append(("blind_nil_looked", {"bid": best["bid"], "pct": 100 * best["win_chance"]}))
    return {
        "seat": "NESW"[seat],
        "bid": recommend,
        "bid_after_looking": best["bid"],
        "candidates": rows,
        "nil_probability": round(nil_p, 3),
        "blind_nil_probability": None if blind_p is None else round(blind_p, 3),
        "expected_team_tricks": round(tricks, 2),
        "samples": len(model.solved),
        "deals_estimated": len(model.means),
        "looked_at_hand": looked,
        "hand_cards_known": known,
        "explanation": join(lang, reasons),
    }


def _bag_reason(state: HandState, team: int, reasons: list, bidding: bool = False) -> None:
    bag_rule = state.rules.bags
    if bag_rule is None:
        return
    bags = state.bags_before[team]
    left = bag_rule.limit - bags % bag_rule.limit  # a record's count may be past the limit already
    if left <= 3:
        reasons.append(("bags_near_bid" if bidding else "bags_near",
                        {"bags": bags, "left": left, "penalty": bag_rule.penalty,
                         "share": bag_rule.penalty / bag_rule.limit}))


# --------------------------------------------------------------------- play
def cards_alike(moves: list) -> bool:
    """Every card's expected points and tricks within 0.05 of every other's: "all your legal
    cards are worth the same". All of them, not only the chosen card and the worst: the choice
    may be the cheapest of near-equal cards and the worst another of them, with a card that
    takes more tricks between."""
    return all(max(f(m) for m in moves) - min(f(m) for m in moves) < 0.05
               for f in (lambda m: m.points, lambda m: m.tricks))


def analyse_play_json(state: HandState, *, time_budget: float | None = None, seed: int | None = None,
                      lang: str = "en") -> dict[str, Any]:
    seat = state._to_act
    view = own_view(state)
    if not view.held[seat]:
        raise ValueError(f"{'NESW'[seat]}'s hand is not known: list its cards in 'hands'")
    budget = DEFAULT_PLAY_BUDGET if time_budget is None else time_budget
    reasons: list[tuple[str, dict]] = []
    if view.complete[seat]:
        # a forced card too: its figures are what the hand is expected to bring
        analysis = analyse_play(view, time_budget=budget, rng=_rng(seed), value_single=True)
        best = best_move(view, analysis)
    else:
        analysis, partial = _analyse_partial_hand(view, budget, _rng(seed))
        best = analysis.moves[0]  # (the rule-based tie-break needs the whole hand)
        reasons.append(("hand_partial_play_forced" if partial["pct"] >= 0.5 else "hand_partial_play", partial))
    moves = [best] + [m for m in analysis.moves if m is not best]
    if len(moves) == 1:
        reasons.append(("only_card" if view.complete[seat] else "only_known_card", {"card": str(best.card)}))
        if analysis.samples:
            reasons.append(("outlook", {"tricks": best.tricks, "points": best.points, "samples": analysis.samples}))
    else:
        if view.trick_len and all(m.card // 13 == view.led_suit for m in moves):
            reasons.append(("must_follow", {"suit": view.led_suit}))
        if not view.trick_len and not view.spades_broken and all(m.card // 13 != 0 for m in moves) \
                and view.held[seat] & 0x1FFF:
            reasons.append(("spades_unbroken", {}))
        reasons.append(card_role(view, seat, best.card))
        if cards_alike(moves):
            reasons.append(("all_equal", {}))
        else:
            reasons.append(("best_card", {"card": str(best.card), "tricks": best.tricks,
                                          "points": best.points, "samples": analysis.samples}))
            top = analysis.moves[0]
            by_points = max(analysis.moves, key=lambda m: m.points)
            if analysis.game_at_stake and by_points is not best and best.win - by_points.win >= GAME_END_CHANCE:
                reasons.append(("play_game_end", {"card": str(best.card), "pct": 100 * best.win,
                                                  "other": str(by_points.card), "other_pct": 100 * by_points.win}))
            # a tie within the search's noise, settled by the rules of play (best_move), the best
            # card by the figures being another; an exact tie is said below ("equal_card")
            tied = best is not top and top.value - best.value >= 0.05
            if tied:  # the gap by the value the cards are ranked by (near the game's end, the win
                # chance in points): in expected points alone the chosen card may even be ahead
                reasons.append(("nil_technique" if analysis.team_nil_live else "tied_top",
                                {"card": str(best.card), "top": str(top.card), "gap": top.value - best.value}))
            second = moves[1]
            other = contrast(view, seat, best, analysis.moves)
            if abs(second.points - best.points) < 0.05 and abs(second.tricks - best.tricks) < 0.05:
                reasons.append(("equal_card", {"card": str(second.card)}))
            elif tied and second is top:
                pass  # named above, with why it is not the card
            elif other is None or other[1]["card"] != str(second.card):
                reasons.append(("next_card", {"card": str(second.card), "tricks": second.tricks,
                                              "points": second.points}))
            if other is not None:
                reasons.append(other)
    for s in analysis.nils if len(moves) > 1 else ():  # one card: no technique to advise
        reasons.append(nil_reason(seat, s, moves, len(view.plays) // 4))
    _contract_reasons(view, seat, reasons)
    return {
        "seat": "NESW"[seat],
        "card": str(best.card),
        "candidates": [
            {"card": str(m.card), "expected_tricks": round(m.tricks, 2),
             "expected_points": round(m.points, 1), "expected_team_points": round(m.our_points, 1),
             "win_chance": round(m.win, 4)}
            for m in moves
        ],
        "samples": analysis.samples,
        "explanation": join(lang, reasons),
    }


def _analyse_partial_hand(view: HandState, budget: float, rng: random.Random) -> tuple[PlayAnalysis, dict]:
    """Play advice for a seat whose hand is only partly known (a card the camera missed): its
    missing cards are drawn from the unseen ones in each simulated deal, and its known cards are
    valued over the deals in which exactly those of them are legal (in the others a missing card
    would have to be played: a suit led that only a missing card follows)."""
    seat = view._to_act
    known = view.held[seat]
    legal = view.legal_for(known)
    deals, _ = draw_deals(view, seat, PARTIAL_PLAY_DEALS, rng)
    kept = [d for d in deals if view.legal_for(d.remaining[seat]) & known == legal]
    left = 13 - played_by(view)[seat].bit_count()
    if not kept:
        raise ValueError(f"only {known.bit_count()} of the {left} cards {'NESW'[seat]} still holds are known,"
                         " and in every simulated deal one of the missing cards would have to be played:"
                         " list all its cards in 'hands'")
    analysis = analyse_play(view, time_budget=budget, rng=rng, deals=kept, cards=mask_to_cards(legal))
    return analysis, {"known": known.bit_count(), "left": left,
                      "pct": 100 * (len(deals) - len(kept)) / len(deals)}


def nil_chance(dd_made: float, ours: bool, tricks_played: int) -> float:
    """A live nil's chance to make in real play, from the share of sampled deals in which double
    dummy lets it make (``dd_made``), for the seat's own team's nil or an opponent's, after
    ``tricks_played`` tricks (NIL_CHANCE_FIT).

    >>> round(nil_chance(0.0, False, 2), 3), round(nil_chance(1.0, False, 2), 3)
    (0.447, 0.604)
    >>> nil_chance(0.5, True, 8) == (0.545 + 0.970) / 2
    True
    """
    at_none, at_all = NIL_CHANCE_FIT["ours" if ours else "theirs"][tricks_played >= LATE_NIL_TRICKS]
    return at_none + dd_made * (at_all - at_none)


def nil_reason(seat: int, nil_seat: int, moves: list[MoveStats], tricks_played: int = 0) -> tuple[str, dict]:
    """What the play advice says about ``nil_seat``'s live nil; ``moves[0]`` is the recommended card.

    The nil's chance (:func:`nil_chance`) is quoted where the choice of card moves it: the same
    after every card it says nothing about the card. Where another card would serve the nil
    better (ours: keep it; the opponents': bust it), that card is named.

    >>> a, b = MoveStats(Card(0), nil_ok={2: 0.0}), MoveStats(Card(1), nil_ok={2: 0.5})
    >>> nil_reason(0, 2, [a, b])
    ('cover_partner_nil_vs', {'seat': 'S', 'pct': 48.5, 'card': '2S', 'other': '3S', 'other_pct': 64.5})
    >>> nil_reason(0, 2, [b, a])[0]  # the best card is also the nil's best
    'cover_partner_nil'
    >>> c, d = MoveStats(Card(0), nil_ok={1: 0.6}), MoveStats(Card(1), nil_ok={1: 0.1})
    >>> nil_reason(0, 1, [c, d])[0], nil_reason(0, 1, [d, c])[0]  # E's nil: the lower, the better
    ('attack_nil_vs', 'attack_nil')
    >>> nil_reason(0, 2, [a, MoveStats(Card(1), nil_ok={2: 0.1})])[0]  # 48.5% against 51.7%
    'cover_partner_nil_any'
    """
    def chance(m: MoveStats) -> float:
        return nil_pct(seat, nil_seat, m, tricks_played)

    best = moves[0]
    pct = chance(best)
    key = "own_nil" if nil_seat == seat else "cover_partner_nil" if nil_seat == (seat + 2) & 3 else "attack_nil"
    params = {"seat": "NESW"[nil_seat], "pct": pct, "card": str(best.card)}
    chances = [chance(m) for m in moves]
    if max(chances) - min(chances) < NIL_CHANCE_SHOWN:
        return key + "_any", params
    i = chances.index((min if key == "attack_nil" else max)(chances))
    if abs(chances[i] - pct) >= NIL_CHANCE_SHOWN:
        params.update(other=str(moves[i].card), other_pct=chances[i])
        return key + "_vs", params
    return key, params


def nil_pct(seat: int, nil_seat: int, move: MoveStats, tricks_played: int) -> float:
    """``nil_seat``'s chance (:func:`nil_chance`, in per cent to one place) after ``move`` by ``seat``."""
    ours = (nil_seat & 1) == (seat & 1)
    return round(100 * nil_chance(move.nil_ok.get(nil_seat, 1.0), ours, tricks_played), 1)


def _nil_moved(seat: int, nils, played: MoveStats, best: MoveStats, tricks_played: int) -> list[dict]:
    """For each live nil whose chance the card played moved (by NIL_CHANCE_SHOWN or more) from
    what the best card gives it: its seat, both cards and both chances, for the review's note.

    >>> a, b = MoveStats(Card(0), nil_ok={3: 1.0}), MoveStats(Card(1), nil_ok={3: 0.0})
    >>> _nil_moved(0, [3], a, b, 2)
    [{'seat': 'W', 'card': '2S', 'pct': 60.4, 'best': '3S', 'best_pct': 44.7}]
    >>> _nil_moved(0, [3], a, a, 2)
    []
    """
    out = []
    for s in nils:
        pct, best_pct = nil_pct(seat, s, played, tricks_played), nil_pct(seat, s, best, tricks_played)
        if abs(pct - best_pct) >= NIL_CHANCE_SHOWN:
            out.append({"seat": "NESW"[s], "card": str(played.card), "pct": pct, "best": str(best.card),
                        "best_pct": best_pct})
    return out


def own_view(state: HandState) -> HandState:
    """``state`` as the seat to act sees it: other seats' cards hidden (a copy only if needed)."""
    seat = state._to_act
    if all(state.known[s] == 0 for s in range(4) if s != seat):
        return state
    return seat_view(state, Seat(seat))


def _contract_reasons(state: HandState, seat: int, reasons: list) -> None:
    team = seat & 1
    contract = sum(b for s, b in enumerate(state.bids) if s & 1 == team and b is not None and b > 0)
    if contract:
        have = sum(state.tricks[s] for s in (team, team + 2) if not is_nil(state.bids[s]))
        if have >= contract:
            reasons.append(("contract_made", {"contract": contract}))
            _bag_reason(state, team, reasons)
        else:
            reasons.append(("contract_need", {"need": contract - have, "contract": contract}))


# --------------------------------------------------------------------- review
# Sampled deals a card decision is judged on, and double-dummy solves that correct a bid's
# trick estimates: exactly these without a time budget, at most these with one.
REVIEW_CARD_SAMPLES = {"fixed": 32, "timed": 32}
REVIEW_BID_SAMPLES = {"fixed": 8, "timed": 24}
# Without a time budget, a bid that costs at least this many points on those solves is judged
# again on this many: a nil's chance rests on how many of the solved deals it makes, and on eight
# a bid was marked in one or two of three seeds as often as in all three (benchmarks/README.md).
REVIEW_BID_SECOND_LOOK = (5.0, 32)


# A decision costing this many points is marked "?" (a card also by the tricks it lost, _mark).
MARK_POINTS = 10.0

# A card is marked only where what it lost stands clear of the sampling: at least this many
# standard errors of the difference over the same deals (a nil made or busted in a few of 16
# deals moves a card's mean by tens of points either way).
REVIEW_CLEAR_Z = 2.0


def card_mark(cost: float, cost_error: float, tricks_lost: float, tricks_error: float,
              z: float | None = None) -> str:
    """A reviewed card's mark: "??" / "?" by the tricks it lost (:func:`_mark`), else "?" for 10
    points or more, each only where the loss is at least ``z`` (REVIEW_CLEAR_Z) standard errors.

    >>> card_mark(12.0, 5.0, 0.0, 0.0), card_mark(12.0, 7.0, 0.0, 0.0), card_mark(3.0, 1.0, 0.7, 0.1)
    ('?', '', '??')
    """
    z = REVIEW_CLEAR_Z if z is None else z

    def clear(loss: float, error: float) -> bool:
        return loss > 0 and loss >= z * error

    return (_mark(tricks_lost) if clear(tricks_lost, tricks_error) else "") or \
        ("?" if cost >= MARK_POINTS and clear(cost, cost_error) else "")


# Without a time budget, a card whose loss is a mark's size (10 points, or over 0.1 of a trick)
# but within this many standard errors of the sampling, from the first to the second figure, is
# judged again on this many fresh deals (about 7 % of the cards of a hand): a nil made or busted
# in a few of 32 deals still leaves a mean that stands near the line either way.
REVIEW_SECOND_LOOK = (1.0, 4.0)
REVIEW_SECOND_LOOK_SAMPLES = 128


def needs_second_look(cost: float, cost_error: float, tricks_lost: float, tricks_error: float) -> bool:
    """A card's loss is a mark's size but stands within REVIEW_SECOND_LOOK standard errors.

    >>> needs_second_look(25.0, 10.0, 0.0, 0.0), needs_second_look(25.0, 5.0, 0.0, 0.0), needs_second_look(8.0, 4.0, 0.3, 0.2)
    (True, False, True)
    """
    low, high = REVIEW_SECOND_LOOK

    def near(loss: float, error: float) -> bool:
        return low * error <= loss < high * error

    return (cost >= MARK_POINTS and near(cost, cost_error)) or \
        (bool(_mark(tricks_lost)) and near(tricks_lost, tricks_error))


def _rounded(x: float, places: int) -> float | None:
    return round(x, places) if math.isfinite(x) else None


def _mark(tricks_lost: float) -> str:
    if tricks_lost > 0.6:
        return "??"
    if tricks_lost > 0.1:
        return "?"
    return ""


def review_json(record: HandRecord, *, seat: str | None = None, time_budget: float | None = None,
                seed: int | None = None, lang: str = "en") -> dict[str, Any]:
    """Every bid and card of the reviewed seats: what was played, the best, and the cost."""
    final = replay(record)
    seats = [parse_seat(seat)] if seat else [Seat(s) for s in range(4)]
    # A seat's hand is known from the record's plays too: a finished hand recorded as it was
    # played (only the player's own hand photographed) can be reviewed for every seat.
    record = dataclasses.replace(record, hands=hands_with_plays(final))
    hands = completed_hands(record.hands)
    # Without a time budget the review is the same on every run and machine: each decision is
    # judged on a fixed number of sampled deals (the seed's), however long they take.
    per_decision = math.inf if time_budget is None else time_budget
    state = record.new_state()
    decisions: list[dict[str, Any]] = []
    order = [state.first.next(i) for i in range(4)]
    for i, s in enumerate(order):
        if s not in record.bids:
            break
        if s in seats and state.complete[s]:
            decisions.append(_review_bid(state, record.bids[s], i, per_decision, _decision_rng(seed, "bid", i), lang))
        state.bid(record.bids[s])
    for index, card in enumerate(record.plays):
        s = state._to_act
        if Seat(s) in seats and state.complete[s]:
            decisions.append(_review_card(state, card, index, per_decision, _decision_rng(seed, "play", index),
                                          hands, lang))
        state.play(card)
    for d in decisions:
        # one rule for every reader of the review (the text lists these, the web page names their
        # better bid): the JSON carries it instead of each re-deriving it
        d["listed"] = worth_a_line(d)
    by_seat = [{"seat": s.name, **seat_tally(mine), "summary": seat_summary(lang, s.name, mine)}
               for s in seats if (mine := [d for d in decisions if d["seat"] == s.name])]
    summary = [line["summary"] for line in by_seat]
    if not summary:
        whole = [s.name for s in seats if len(hands.get(s, [])) == 13]
        summary = [say(lang, "review_nothing_yet", seats=" ".join(whole)) if whole else
                   say(lang, "review_nothing", seats=" ".join(f"{s.name} {len(hands.get(s, []))}/13" for s in seats))]
    return {
        "decisions": decisions,
        "summary": " ".join(summary),
        "seats": by_seat,
        "finished": final.is_done,
        "score": None if final.score() is None else {t.team.name: t.to_json() for t in final.score()},
    }


def hands_with_plays(final: HandState) -> dict[Seat, list[Card]]:
    """Each seat's cards known in the record (listed, or the one hand the other three leave)
    together with the cards it played there."""
    played = played_by(final)
    return {s: mask_to_cards(cards) for s in Seat if (cards := final.known[s] | played[s])}


def seat_tally(decisions: list[dict]) -> dict[str, Any]:
    """What a seat's summary says, in figures: its marked decisions, the points and tricks they
    lost, and the points the smaller choices lost where that stands clear of the sampling."""
    costly, lost, tricks, smaller = _tally(decisions)
    return {"costly_decisions": costly, "points_lost": round(lost, 1), "tricks_lost": round(tricks, 2),
            "smaller_points_lost": round(smaller, 1)}


def _tally(decisions: list[dict]) -> tuple[int, float, float, float]:
    bad = [d for d in decisions if d["mark"]]
    return (len(bad), sum((d["cost"] for d in bad), 0.0), sum((d.get("tricks_lost", 0.0) for d in bad), 0.0),
            sum((d["cost"] for d in decisions if not d["mark"] and cost_stands_clear(d)), 0.0))


def seat_summary(lang: str, seat_text: str, decisions: list[dict]) -> str:
    """One seat's line under a review: its marked decisions and what they cost, then what the
    smaller choices cost where that stands clear of the sampling (:func:`cost_stands_clear`).

    Only those: a cost is the best card's mean over the played one's and never below 0, so over
    the twenty-odd cards of a hand the sampling's noise alone adds up to tens of points."""
    costly, lost, tricks, smaller = _tally(decisions)
    if not costly:
        return say(lang, "review_clean_small" if smaller >= 1 else "review_clean", seat_text=seat_text, lost=smaller)
    # no tricks where a nil or the bags cost the points
    text = say(lang, "review_summary" if tricks >= 0.05 else "review_summary_points", seat_text=seat_text,
               mistakes=costly, lost=lost, tricks=tricks)
    return text + (" " + say(lang, "review_smaller", lost=smaller) if smaller >= 1 else "")


def worth_a_line(decision: dict) -> bool:
    """A reviewed decision the text review lists: marked, or costing LISTED_COST points or more
    that stand clear of the sampling (the costs the summary counts; a smaller or noisier one would
    name a "best" card by chance).

    >>> worth_a_line({"kind": "play", "cost": 0.1, "cost_error": 0.1, "mark": ""})
    False
    >>> worth_a_line({"kind": "play", "cost": 3.0, "cost_error": 1.0, "mark": ""})
    True
    """
    return bool(decision.get("mark")) or (decision["cost"] >= LISTED_COST and cost_stands_clear(decision))


LISTED_COST = 1.0  # points


def cost_stands_clear(decision: dict) -> bool:
    """A reviewed decision's cost is above 0 by more than the sampling explains: for a card, by
    REVIEW_CLEAR_Z standard errors (``cost_error``); a bid's cost, read off the bid model's
    evaluation of every bid on the same deals, counts as it is.

    >>> cost_stands_clear({"kind": "play", "cost": 4.5, "cost_error": 10.6})
    False
    >>> cost_stands_clear({"kind": "play", "cost": 4.5, "cost_error": 2.0}), cost_stands_clear({"kind": "bid", "cost": 1.4})
    (True, True)
    """
    if decision["cost"] <= 0:
        return False
    if decision["kind"] == "bid":
        return True
    error = decision.get("cost_error")
    return error is not None and decision["cost"] >= REVIEW_CLEAR_Z * error


def _review_bid(state: HandState, bid: int, index: int, budget: float, rng: random.Random,
                lang: str = "en") -> dict:
    seat = state._to_act
    view = seat_view(state, Seat(seat))
    fixed = math.isinf(budget)
    model = bid_samples(view, time_budget=budget * 3,
                        max_samples=REVIEW_BID_SAMPLES["fixed" if fixed else "timed"], rng=rng)
    rows, best, cost = _bid_judged(view, model, bid)
    if fixed and cost >= REVIEW_BID_SECOND_LOOK[0] and REVIEW_BID_SECOND_LOOK[1] > REVIEW_BID_SAMPLES["fixed"]:
        # judged again, on the fresh solves alone (as a card's second look)
        model = bid_samples(view, time_budget=budget * 3, max_samples=REVIEW_BID_SECOND_LOOK[1], rng=rng)
        rows, best, cost = _bid_judged(view, model, bid)
    return {
        "kind": "bid", "index": index, "seat": "NESW"[seat], "label": f"bid {index + 1}",
        "played": bid_to_json(bid), "best": bid_to_json(best), "cost": round(cost, 1),
        "mark": "?" if cost >= MARK_POINTS else "", "expected_points": round(rows[bid][0], 1),
        "best_expected_points": round(rows[best][0], 1),
        "win_chance": round(rows[bid][1], 4), "best_win_chance": round(rows[best][1], 4),
        "deals_solved": len(model.solved),  # the double-dummy solves behind its estimates
        "note": " ".join(filter(None, (_bid_note(lang, view, model, bid, best, rows),
                                       _for_the_game(lang, rows, bid, best)))),
    }


def _bid_judged(view: HandState, model: BidModel, bid: int) -> tuple[dict, int, float]:
    """-> every bid's (expected points, win chance), the best bid, and what the bid made cost
    against it, in points (as the advice does: the chance to win the game, counted in points at
    this score)."""
    rows = bid_evaluations(view, model)
    if bid == BLIND_NIL:
        rows.update(bid_evaluations(view, model, [BLIND_NIL]))
    slope = _points_slope(view, view._to_act & 1, max(pts for pts, _ in rows.values()))
    worth = {b: win / slope for b, (_, win) in rows.items()}
    best = max((b for b in rows if b != BLIND_NIL), key=worth.get)
    return rows, best, max(0.0, worth[best] - worth[bid])


def percent_pair(a: float, b: float) -> tuple[str, str]:
    """Two chances as percentages for a text that sets them side by side: whole ones, or with a
    decimal where whole ones would read alike ("from 4% to 4%").

    >>> percent_pair(0.1362, 0.1139), percent_pair(0.0412, 0.0438)
    (('14', '11'), ('4.1', '4.4'))
    """
    digits = 0 if round(100 * a) != round(100 * b) else 1
    return f"{100 * a:.{digits}f}", f"{100 * b:.{digits}f}"


def _for_the_game(lang: str, rows: dict[int, tuple[float, float]], bid: int, best: int) -> str:
    """Where the better bid expects fewer points than the bid made, the game decided it (near the
    end a bid is judged by the chance to win the game): the two chances, in the words of the bid
    advice's own line for it ("bid_game_end").

    >>> _for_the_game("en", {1: (24.8, 0.1139), 0: (6.5, 0.1362)}, 1, 0)
    'With this score the game is what counts: nil wins it 13.6% of the time, 1 (more points on average) 11.4%.'
    >>> _for_the_game("en", {3: (30.0, 0.52), 4: (35.0, 0.55)}, 3, 4)
    ''
    """
    if best == bid or bid not in rows or rows[best][0] >= rows[bid][0]:
        return ""
    return say(lang, "bid_game_end", bid=best, pct=100 * rows[best][1], other=bid, other_pct=100 * rows[bid][1])


def _bid_note(lang: str, view: HandState, model: BidModel, bid: int, best: int,
              rows: dict[int, tuple[float, float]]) -> str:
    """How often the bid made (a nil; a blind nil by its measured odds) or its team contract made
    (double dummy), beside the best's; beside a partner's nil, whose team contract is the bidder's
    alone, the bids' expected points (``rows``, as from :func:`_bid_judged`)."""
    if bid == BLIND_NIL:  # its measured odds, given the partner's bid before it (never the hand)
        return say(lang, "review_bid_blind_nil", pct=100 * blind_nil.odds(_partner_bid(view)).success)
    if is_nil(bid):
        return say(lang, "review_bid_nil", pct=100 * model.nil_p)
    if _partner_nil(view):
        if best == bid or is_nil(best):
            return say(lang, "review_bid_beside_nil", bid=bid, points=rows[bid][0])
        return say(lang, "review_bid_beside_nil_best", bid=bid, points=rows[bid][0], best=best,
                   best_points=rows[best][0])
    pct = 100 * make_chance(model, bid)
    if best == NIL:  # the better bid was a nil: how often it would have made
        return " ".join((say(lang, "review_bid_make", bid=bid, pct=pct),
                         say(lang, "review_bid_nil", pct=100 * model.nil_p)))
    if best == bid or is_nil(best):
        return say(lang, "review_bid_make", bid=bid, pct=pct)
    return say(lang, "review_bid_make_best", bid=bid, pct=pct, best=best, best_pct=100 * make_chance(model, best))


def _does(lang: str, view: HandState, card: Card) -> str:
    """What ``card`` does for the seat to act, in words (advisor.card_role)."""
    key, params = card_role(view, view._to_act, card)
    return say(lang, key, **params)


def _judged(view: HandState, analysis, card: Card):
    """-> the played card's stats, the best card's, and the cost in points and tricks with their
    standard errors over the analysis's deals."""
    played = next(m for m in analysis.moves if int(m.card) == int(card))
    best = analysis.moves[0]
    if analysis.team_nil_live and best.value - played.value <= search.tie_window(view, analysis):
        # the team's nil is at stake: double dummy cannot judge nil technique (shedding a high
        # card under a partner's winner, covering), and the advice itself plays such a card
        # unless the search finds it far worse; neither is it a mistake here
        best = played
    cost = max(0.0, best.value - played.value)  # points, or near the end the win chance in points
    tricks_lost = max(0.0, best.tricks - played.tricks)
    _, cost_error, _, tricks_error = (0.0, 0.0, 0.0, 0.0) if best is played else analysis.difference(best.card, card)
    return played, best, cost, tricks_lost, cost_error, tricks_error


def _review_card(state: HandState, card: Card, index: int, budget: float, rng: random.Random,
                 hands: dict, lang: str = "en") -> dict:
    seat = state._to_act
    view = seat_view(state, Seat(seat))
    fixed = math.isinf(budget)
    samples = REVIEW_CARD_SAMPLES["fixed" if fixed else "timed"]
    analysis = analyse_play(view, time_budget=budget, max_samples=samples,
                            min_samples=samples if fixed else 4, rng=rng)
    played, best, cost, tricks_lost, cost_error, tricks_error = _judged(view, analysis, card)
    if fixed and REVIEW_SECOND_LOOK_SAMPLES > samples and needs_second_look(cost, cost_error, tricks_lost, tricks_error):
        # judged on the fresh deals alone: the first look chose to look again, so its own
        # figures lean towards a loss
        analysis = analyse_play(view, time_budget=budget, max_samples=REVIEW_SECOND_LOOK_SAMPLES,
                                min_samples=REVIEW_SECOND_LOOK_SAMPLES, rng=rng)
        played, best, cost, tricks_lost, cost_error, tricks_error = _judged(view, analysis, card)
    out = {
        "kind": "play", "index": index, "seat": "NESW"[seat],
        "label": f"trick {index // 4 + 1}", "played": str(card), "best": str(best.card),
        "cost": round(cost, 1), "tricks_lost": round(tricks_lost, 2),
        "cost_error": _rounded(cost_error, 1), "tricks_lost_error": _rounded(tricks_error, 2),
        "deals": analysis.samples,  # the sampled deals it was judged on (more after a second look)
        "mark": card_mark(cost, cost_error, tricks_lost, tricks_error),
        "alternatives": [{"card": str(m.card), "expected_tricks": round(m.tricks, 2),
                          "expected_points": round(m.points, 1)} for m in analysis.moves],
        # what the card played did and, where another was better, what that one would have done
        "note": _does(lang, view, card) + ("" if int(best.card) == int(card) else
                                            " " + say(lang, "review_better", text=_does(lang, view, best.card))),
    }
    if best is not played:
        out["note"] += "".join(" " + say(lang, "review_nil", **params)
                               for params in _nil_moved(seat, analysis.nils, played, best, len(view.plays) // 4))
    if all(len(hands.get(Seat(s), [])) == 13 for s in range(4)):
        # Hindsight: the same decision with every hand face up.
        actual = SampledDeal(tuple(state.held), tuple(state.known))
        dd = analyse_play(state, deals=[actual], rng=rng)
        dd_by = {int(m.card): m for m in dd.moves}
        out["double_dummy_tricks_lost"] = round(dd.moves[0].tricks - dd_by[int(card)].tricks, 2)
    return out


# --------------------------------------------------------------------- entry points
def bid_json(record: HandRecord, *, time_budget: float | None = None, seed: int | None = None,
             lang: str = "en", cards_seen: bool = False) -> dict[str, Any]:
    return analyse_bid(own_view(replay(record)), time_budget=time_budget, seed=seed, lang=lang,
                       cards_seen=cards_seen)


def play_json(record: HandRecord, *, time_budget: float | None = None, seed: int | None = None,
              lang: str = "en") -> dict[str, Any]:
    state = replay(record)
    if state.phase is Phase.BIDDING:
        raise ValueError("the hand is still in the bidding; ask for bid advice")
    if state.phase is Phase.DONE:
        raise ValueError("the hand is over: all 13 tricks have been played")
    return analyse_play_json(state, time_budget=time_budget, seed=seed, lang=lang)


def choose_action(view: HandState, *, time_budget: float | None = None, seed: int | None = None,
                  max_samples: int | None = None) -> int:
    """The advisor's choice for the seat to act (the ``pimc`` bot); ``max_samples`` caps the
    deals a card is valued on (the search's own cap when None)."""
    if view.phase is Phase.BIDDING:
        b = analyse_bid(view, time_budget=time_budget, seed=seed)["bid"]
        return BLIND_NIL if b == "blind_nil" else int(b)
    legal = view.legal_cards()
    if legal is not None and len(legal) == 1:
        return legal[0]
    caps = {} if max_samples is None else {"max_samples": max_samples}
    analysis = analyse_play(view, time_budget=DEFAULT_PLAY_BUDGET if time_budget is None else time_budget,
                            rng=_rng(seed), **caps)
    return best_move(view, analysis).card


__all__ = ["bid_json", "play_json", "review_json", "choose_action"]
