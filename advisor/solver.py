"""Exact perfect-information ("double-dummy") solver for Spades positions.

The search is in C (``advisor/_solver.c``, built by ``pip install -e .``); this module checks
and converts the arguments.

A position is four hands (52-bit masks of the cards still held, ``index = suit*13 + rank``),
the seat to act, the cards already in the current trick, and whether spades are broken (the
state *now*, after the cards of the current trick). Its value is the number of the remaining
tricks, the current one included, won by the seats in ``count_seats`` (a bitmask, bit ``s`` for
seat ``s``) when the seats in ``maximizer_seats`` play to make it as high as possible and the
others as low as possible, every card visible to all.

* team tricks: ``count_seats = maximizer_seats = 0b0101`` (N+S) or ``0b1010`` (E+W);
* nil defence: ``count_seats = 1 << nil_seat``, ``maximizer_seats`` = the nil bidder's opponents
  (add ``cap=1`` when only "is the nil set?" matters: much faster early in a hand).

>>> from advisor.cards import parse_card as c, cards_to_mask as m
>>> hands = (m([c("AS"), c("2H")]), m([c("KH"), c("3H")]), m([c("QH"), c("4H")]), m([c("5H"), c("6H")]))
>>> solve_moves(hands, 0, [], False, False, 0b0101, 0b0101)  # spades unbroken: 2H only
{13: 1}
>>> solve_moves(hands, 0, [], True, False, 0b0101, 0b0101)  # broken: AS (12) or 2H (13)
{12: 1, 13: 1}
"""

from __future__ import annotations

from typing import Sequence

try:
    from . import _solver
except ImportError as exc:  # pragma: no cover - only without the compiled extension
    raise ImportError(
        "advisor._solver (the C double-dummy solver) is not built: reinstall the project with "
        "`pip install -e .` (needs a C compiler and the Python headers)"
    ) from exc

Hands = tuple[int, int, int, int]

__all__ = ["solve", "solve_moves", "solve_state", "search_stats", "set_table_size"]


def _args(hands, to_act, trick, spades_broken, allspade_lead_breaks, count_seats, maximizer_seats,
          cap, node_limit, fresh=False, card_node_limit=None):
    args = (
        (int(hands[0]), int(hands[1]), int(hands[2]), int(hands[3])),
        int(to_act),
        [(int(s), int(c)) for s, c in trick],
        bool(spades_broken),
        bool(allspade_lead_breaks),
        int(count_seats),
        int(maximizer_seats),
    )
    # the C side's optional tail, in order: cap (99: none), node limit (0: none), fresh, card
    # limit (0: none)
    return args + (99 if cap is None else int(cap), int(node_limit or 0), bool(fresh), int(card_node_limit or 0))


def solve(
    hands: Sequence[int],
    to_act: int,
    trick: Sequence[tuple[int, int]],
    spades_broken: bool,
    allspade_lead_breaks: bool,
    count_seats: int,
    maximizer_seats: int,
    cap: int | None = None,
    node_limit: int | None = None,
    fresh: bool = False,
) -> int | None:
    """Tricks the counted seats take from here (the current trick included) under optimal play.

    ``trick`` lists (seat, card) of the cards already played to the current trick, in order;
    they must have been played by the seats before ``to_act``. Raises ValueError on an
    inconsistent position (shared cards, wrong hand sizes).

    ``cap``: return ``min(value, cap)``, which is much cheaper when only "at least ``cap``"
    matters (a nil: ``cap=1`` tells whether the maximizers can make the nil seat take a trick).

    ``node_limit``: give up after that many search nodes (roughly 10-20 M a second) and return
    None; the search cannot be interrupted otherwise, so this is the way to bound its time.

    ``fresh``: search without the thread's first guess (the value of the last position of this
    size it solved), so that the node count, and with it whether ``node_limit`` is reached,
    depends on the position alone and not on what the thread solved before. Slower on average.
    """
    return _solver.solve(*_args(hands, to_act, trick, spades_broken, allspade_lead_breaks,
                                count_seats, maximizer_seats, cap, node_limit, fresh))


def solve_moves(
    hands: Sequence[int],
    to_act: int,
    trick: Sequence[tuple[int, int]],
    spades_broken: bool,
    allspade_lead_breaks: bool,
    count_seats: int,
    maximizer_seats: int,
    cap: int | None = None,
    node_limit: int | None = None,
    fresh: bool = False,
    card_node_limit: int | None = None,
) -> dict[int, int] | None:
    """``{card: tricks}`` for every legal card of the seat to act (same arguments as :func:`solve`).

    ``tricks`` is the value of the position after that card, i.e. what the counted seats take
    from the current trick on when everybody plays optimally afterwards (capped at ``cap`` when
    given; None past ``node_limit`` nodes, and ``fresh``, as in :func:`solve`).

    ``card_node_limit``: the cards are searched in two passes, first each with that many nodes,
    then the ones left out with what ``node_limit`` leaves of the call's nodes; the answer holds
    the cards valued within it (possibly none), never None. A card that takes long to value does
    not keep the quick ones from being valued.
    """
    return _solver.solve_moves(*_args(hands, to_act, trick, spades_broken, allspade_lead_breaks,
                                      count_seats, maximizer_seats, cap, node_limit, fresh,
                                      card_node_limit))


def _state_args(state):
    if state.to_act is None:
        raise ValueError("the hand is over")
    if not all(state.complete):
        raise ValueError("solve_state needs all four hands known")
    trick = [(int(s), int(c)) for s, c in state.current_trick]
    return (tuple(state.held), int(state.to_act), trick, state.spades_broken,
            state.rules.allspade_lead_breaks)


def solve_state(state, count_seats: int, maximizer_seats: int,
                cap: int | None = None, node_limit: int | None = None) -> dict[int, int] | None:
    """:func:`solve_moves` on a :class:`~advisor.state.HandState` whose four hands are all known.

    The keys are :class:`~advisor.cards.Card` objects.
    """
    from .cards import CARDS

    moves = solve_moves(*_state_args(state), count_seats, maximizer_seats, cap, node_limit)
    return None if moves is None else {CARDS[c]: v for c, v in moves.items()}


def search_stats() -> dict:
    """Counters of the C search in the calling thread (nodes visited since import; the table size;
    ``grown``: the solves that moved to the larger table, see :func:`set_table_growth`).

    Each thread that solves keeps its own counters and transposition table (freed when the
    thread ends); the search runs without the GIL, so threads solve at once.
    """
    return _solver.stats()


def set_table_size(log2_buckets: int) -> None:
    """Resize the transposition tables to ``2**log2_buckets`` buckets of 64 entries (32 B each);
    each thread remakes its table at the new size on its next solve."""
    _solver.set_tt_log2(log2_buckets)


def set_table_growth(evictions: int) -> None:
    """A solve that evicts more than ``evictions`` entries of its own (default 100,000: a 13-card
    solve usually evicts hundreds to tens of thousands; a crossruff deal millions) moves on, with
    its entries, to a table 4x as large that files them by more of the top cards;
    ``search_stats()["grown"]`` counts such solves. The larger table (72 MiB at the default
    size; none past 2**16 buckets) is kept by the thread for its later solves."""
    if evictions < 0:
        raise ValueError("evictions must be 0 or more")
    _solver.set_growth(int(evictions))
