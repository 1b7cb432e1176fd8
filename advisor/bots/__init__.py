"""Bots that play piki from one seat's view, and the registry that builds them by name.

>>> get_bot("random").name, get_bot("heuristic").name
('random', 'heuristic')
"""

from __future__ import annotations

from typing import Any, Callable

from .base import Bot, BotFailure, BotUnavailable, start_game


def _random(**options: Any) -> Bot:
    from .random_bot import RandomBot
    return RandomBot(**options)


def _heuristic(**options: Any) -> Bot:
    from .heuristic import HeuristicBot
    return HeuristicBot(**options)


def _counter(**options: Any) -> Bot:
    from .counter import CounterBot
    return CounterBot(**options)


def _pimc(**options: Any) -> Bot:
    from .pimc import PimcBot  # lazy: the advisor's search is heavy and may be missing
    return PimcBot(**options)


BOTS: dict[str, Callable[..., Bot]] = {"random": _random, "heuristic": _heuristic, "counter": _counter,
                                     "pimc": _pimc}


def get_bot(name: str, **options: Any) -> Bot:
    """A new bot by registry name; raises BotUnavailable for an unknown name or bad options."""
    factory = BOTS.get(name)
    if factory is None:
        raise BotUnavailable(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    try:
        return factory(**options)
    except (TypeError, ValueError) as e:  # an unknown option, or a value of the wrong kind
        raise BotUnavailable(f"bot {name!r}: bad options {options}: {e}") from None


__all__ = ["BOTS", "Bot", "BotFailure", "BotUnavailable", "get_bot", "start_game"]
