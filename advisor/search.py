"""Monte-Carlo search over sampled deals, scored by the exact double-dummy solver.

For every sampled deal the solver gives, for each legal card, the tricks the acting team still
takes and whether each live nil survives. Those are turned into the hand score of both teams, and
a card's value is the expected point difference (ours minus theirs).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from .bids import BLIND_NIL, is_nil
from .cards import Card
from .handeval import nil_risk
from .inference import SampledDeal, sample_deals
from .scoring import score_hand
from .solver import solve, solve_moves
from .state import HandState

TEAM_MASK = (0b0101, 0b1010)
# Search nodes one solve may use (about 0.1-0.3 s here); a deal that needs more is skipped.
NODE_LIMIT = 1_500_000
NIL_HOPELESS = 1.6  # handeval.nil_risk above which a nil is not searched (it never makes)


def seat_mask(seat: int) -> int:
    return 1 << seat


def opponents_mask(seat: int) -> int:
    return TEAM_MASK[1 - (seat & 1)]


def live_nils(state: HandState) -> list[int]:
    """Seats that bid nil (or blind nil) and have not taken a trick yet."""
    return [s for s in range(4) if state.bids[s] is not None and is_nil(state.bids[s])
            and state.tricks[s] == 0]


def final_tricks(state: HandState, ns_more: int, nil_more: dict[int, int]) -> tuple[int, ...]:
    """Per-seat trick counts at the end, from the NS team's remaining tricks and each live nil's."""
    remaining = 13 - len(state.plays) // 4
    more = (ns_more, remaining - ns_more)
    tricks = list(state.tricks)
    for team in (0, 1):
        seats = (team, team + 2)
        team_more = more[team]
        for s in seats:
            if s in nil_more:
                take = min(nil_more[s], team_more)
                tricks[s] += take
                team_more -= take
        # The rest goes to a non-nil seat (or to a nil that is already busted).
        target = next((s for s in seats if not is_nil(state.bids[s])), None)
        if target is None:
            target = next((s for s in seats if s not in nil_more), seats[0])
        tricks[target] += team_more
    return tuple(tricks)


def _out_of_time(start: float, budget: float, done: int, min_samples: int) -> bool:
    """Stop at the budget once ``min_samples`` deals are in, and at 4× the budget after one."""
    elapsed = time.perf_counter() - start
    return (done >= min_samples and elapsed > budget) or (done >= 1 and elapsed > 4 * budget)


@dataclass
class MoveStats:
    card: Card
    tricks: float = 0.0  # acting team's expected tricks for the whole hand
    points: float = 0.0  # expected (our hand points − their hand points)
    our_points: float = 0.0
    nil_ok: dict[int, float] = field(default_factory=dict)  # live nil seat → P(survives)
    samples: int = 0


@dataclass
class PlayAnalysis:
    seat: int
    moves: list[MoveStats]  # best first
    samples: int
    elapsed: float
    nils: list[int]


def _solver_args(state: HandState, remaining: tuple[int, int, int, int]):
    n = state.trick_len
    trick = list(zip(state.play_seats[len(state.plays) - n:], state.plays[len(state.plays) - n:]))
    return dict(hands=remaining, to_act=state._to_act, trick=[(int(s), int(c)) for s, c in trick],
                spades_broken=state.spades_broken,
                allspade_lead_breaks=state.rules.allspade_lead_breaks)


def analyse_play(
    state: HandState, *, time_budget: float = 0.4, max_samples: int = 64, min_samples: int | None = None,
    rng: random.Random | None = None, deals: list[SampledDeal] | None = None,
) -> PlayAnalysis:
    """Value every legal card of the seat to act, from that seat's knowledge."""
    rng = rng or random.Random(0)
    if min_samples is None:  # a tiny budget still looks at a couple of deals
        min_samples = max(2, min(6, int(time_budget * 20)))
    seat = state._to_act
    legal = state.legal_cards()
    if legal is None:
        raise ValueError(f"{'NESW'[seat]}'s hand is not known, so its cards cannot be advised")
    start = time.perf_counter()
    team = seat & 1
    stats = {int(c): MoveStats(card=c) for c in legal}
    nils = live_nils(state)
    if len(legal) == 1 and deals is None:
        return PlayAnalysis(seat, list(stats.values()), 0, 0.0, nils)
    if deals is None:
        deals = sample_deals(state, seat, max_samples, rng)
    done = 0
    busted = {c: 1 for c in stats}  # a nil holding sure winners: not worth a search
    for i, deal in enumerate(deals):
        if _out_of_time(start, time_budget, done, min_samples):
            break
        # The last deal is searched without a limit when every earlier one was too hard.
        limit = NODE_LIMIT if done or i < len(deals) - 1 else None
        args = _solver_args(state, deal.remaining)
        team_vals = solve_moves(**args, count_seats=TEAM_MASK[team], maximizer_seats=TEAM_MASK[team],
                                node_limit=limit)
        if team_vals is None:  # a pathological deal: leave it out rather than stall
            continue
        nil_vals = {}
        for s in nils:
            v = None
            if nil_risk(deal.remaining[s]) <= NIL_HOPELESS:
                v = solve_moves(**args, count_seats=seat_mask(s), maximizer_seats=opponents_mask(s),
                                cap=1, node_limit=NODE_LIMIT)
            nil_vals[s] = busted if v is None else v
        for card, st in stats.items():
            ours = team_vals[card]
            ns_more = ours if team == 0 else (13 - len(state.plays) // 4) - ours
            nil_more = {s: v[card] for s, v in nil_vals.items()}
            tricks = final_tricks(state, ns_more, nil_more)
            ns, ew = score_hand(state.rules, tuple(state.bids), tricks,
                                state.points_before, state.bags_before)
            mine, theirs = (ns, ew) if team == 0 else (ew, ns)
            st.tricks += tricks[team] + tricks[team + 2]
            st.points += mine.hand_points - theirs.hand_points
            st.our_points += mine.hand_points
            for s, v in nil_more.items():
                st.nil_ok[s] = st.nil_ok.get(s, 0.0) + (v == 0)
        done += 1
    for st in stats.values():
        st.samples = done
        if done:
            st.tricks /= done
            st.points /= done
            st.our_points /= done
            st.nil_ok = {s: v / done for s, v in st.nil_ok.items()}
    moves = sorted(stats.values(), key=lambda m: (-m.points, -m.tricks, m.card % 13))
    return PlayAnalysis(seat, moves, done, time.perf_counter() - start, nils)


# --------------------------------------------------------------------- bidding
@dataclass
class BidSample:
    team_tricks: int  # double-dummy tricks of the bidder's team
    nil_ok: bool  # the bidder, as a nil, takes no trick against best defence
    partner_alone: int  # partner's tricks when the bidder is nil (double-dummy, team covering)
    partner_bid: int | None  # the partner's (known or estimated) bid
    own_hand: int = 0  # the bidder's 13 cards in this sample


def bid_samples(
    state: HandState, *, time_budget: float = 0.8, max_samples: int = 48, min_samples: int | None = None,
    rng: random.Random | None = None, hide_hand: bool = False,
) -> list[BidSample]:
    """Double-dummy outcomes for the bidder over sampled deals."""
    from .handeval import estimate_tricks

    rng = rng or random.Random(0)
    if min_samples is None:
        min_samples = max(2, min(6, int(time_budget * 10)))
    seat = state._to_act
    team = seat & 1
    partner = (seat + 2) & 3
    start = time.perf_counter()
    deals = sample_deals(state, seat, max_samples, rng, hide_observer=hide_hand)
    first = int(state.first)
    out: list[BidSample] = []
    for i, deal in enumerate(deals):
        if _out_of_time(start, time_budget, len(out), min_samples):
            break
        limit = NODE_LIMIT if out or i < len(deals) - 1 else None
        common = dict(hands=deal.remaining, to_act=first, trick=[], spades_broken=False,
                      allspade_lead_breaks=state.rules.allspade_lead_breaks)
        team_tricks = solve(**common, count_seats=TEAM_MASK[team], maximizer_seats=TEAM_MASK[team],
                            node_limit=limit)
        if team_tricks is None:  # a pathological deal: leave it out rather than stall
            continue
        nil_takes, partner_alone = 1, team_tricks
        if nil_risk(deal.initial[seat]) <= NIL_HOPELESS:
            # Only "does the nil take a trick?" matters: a capped search answers it cheaply.
            nil = solve(**common, count_seats=seat_mask(seat), maximizer_seats=opponents_mask(seat),
                        cap=1, node_limit=NODE_LIMIT)
            nil_takes = 1 if nil is None else nil
            if nil_takes == 0:
                alone = solve(**common, count_seats=seat_mask(partner), maximizer_seats=TEAM_MASK[team],
                              node_limit=NODE_LIMIT)
                partner_alone = team_tricks if alone is None else alone
        # else: aces and high spades, nil is out of the question
        pb = state.bids[partner]
        if pb is None:
            pb = max(1, min(13, round(estimate_tricks(deal.initial[partner]))))
        out.append(BidSample(team_tricks, nil_takes == 0, partner_alone, pb, deal.initial[seat]))
    return out


def bid_points(state: HandState, bid: int, sample: BidSample) -> int:
    """The bidder's team hand points if it bids ``bid`` and the deal goes as in ``sample``."""
    seat = state._to_act
    team = seat & 1
    partner = (seat + 2) & 3
    bids = list(state.bids)
    bids[seat] = bid
    pb = sample.partner_bid if bids[partner] is None else bids[partner]
    bids[partner] = pb
    for s in range(4):
        if bids[s] is None:
            bids[s] = 3  # opponents yet to bid: does not change our team's score
    tricks = [0, 0, 0, 0]
    if is_nil(bid):
        tricks[seat] = 0 if sample.nil_ok else 1
        tricks[partner] = max(0, sample.partner_alone)
    else:
        tricks[seat] = sample.team_tricks
    scores = score_hand(state.rules, tuple(bids), tuple(tricks), state.points_before, state.bags_before)
    return scores[team].hand_points


def candidate_bids(state: HandState) -> list[int]:
    return [b for b in state.legal_bids() if b != BLIND_NIL]
