"""``piki match``: duplicate matches between bots, figures as a table or one JSON object.

    piki match --a heuristic --b random --games 100 --seed 1 --jobs 2 --json
    piki match --a heuristic --vs-cmd "python advisor/bots/example_outside_bot.py" --games 10

``--games N`` plays ceil(N/2) deal sets, each twice with the sides swapped. Bots are named
from the registry (``random``, ``heuristic``, ``counter``, ``pimc``), optionally with options:
``pimc:time_budget=0.5``, or ``pimc:samples=16`` (no clock: a fixed number of deals a card, so a
game plays the same under any load). Unknown bots and bad arguments exit 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from functools import partial
from typing import Any

from .bots import BOTS, BotUnavailable
from .match import BotSpec, GameResult, MatchConfig, MatchResult, run_match
from .rules import Rules, RulesError


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line and exit 2, like the rest of piki
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="piki match", description="Duplicate matches between two bots.")
    p.add_argument("--a", default="heuristic", metavar="BOT",
                   help=f"side A's bot: {', '.join(BOTS)} (options as NAME:key=value,...)")
    p.add_argument("--b", default=None, metavar="BOT", help="side B's bot (default random)")
    p.add_argument("--vs-cmd", default=None, metavar="COMMAND",
                   help="side B is an outside program (one JSON line per decision, see CONTRACT)")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="seconds an outside program has per answer (default 10)")
    p.add_argument("--games", type=int, default=20, help="games to play (rounded up to even)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rules", default="piki", help="preset name or a JSON rules object")
    p.add_argument("--max-hands", type=int, default=40,
                   help="hands before a game is decided on points (default 40)")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="worker processes (default: all cores)")
    p.add_argument("--dd", action="store_true",
                   help="also measure bid error against double-dummy team tricks (slower)")
    p.add_argument("--checkpoint", default=None, metavar="FILE",
                   help="keep finished deal sets in FILE and skip those already there, so a long "
                        "match can stop and go on later (same bots, seed, rules and advisor code)")
    p.add_argument("--hands", default=None, metavar="FILE",
                   help="append every hand played in this run to FILE (JSON lines, each with its "
                        "piki-hand/1 record, all cards shown), e.g. to review it with piki review")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--list-bots", action="store_true", help="print the bot names and exit")
    return p


def parse_bot(text: str) -> BotSpec:
    name, _, rest = text.partition(":")
    options: list[tuple[str, Any]] = []
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key:
                raise _UsageError(f"bad bot option {item!r} in {text!r} (expected key=value)")
            options.append((key.strip(), _value(value.strip())))
    if name not in BOTS:
        raise _UsageError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    return BotSpec(name, tuple(options))


def _value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def _rules(text: str) -> Rules:
    spec: Any = text
    if text.lstrip().startswith("{"):
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as e:
            raise _UsageError(f"--rules: bad JSON: {e.msg}") from None
    try:
        return Rules.from_spec(spec)
    except RulesError as e:
        raise _UsageError(f"--rules: {e}") from None


def _config(args: argparse.Namespace) -> MatchConfig:
    if args.games < 1:
        raise _UsageError("--games must be at least 1")
    if args.max_hands < 1:
        raise _UsageError("--max-hands must be at least 1")
    if args.jobs < 1:
        raise _UsageError("--jobs must be at least 1")
    if args.timeout <= 0:
        raise _UsageError("--timeout must be positive")
    a = parse_bot(args.a)
    if args.vs_cmd is not None:
        if args.b is not None:
            raise _UsageError("--b and --vs-cmd both name side B; give one")
        if not args.vs_cmd.strip():
            raise _UsageError("--vs-cmd needs a command")
        b = BotSpec("outside", command=args.vs_cmd, timeout=args.timeout)
    else:
        b = parse_bot(args.b or "random")
    for spec in (a, b):
        if spec.command is None:
            spec.build()  # fail now, with a clear message, when a bot cannot be built
    return MatchConfig(a=a, b=b, deal_sets=(args.games + 1) // 2, seed=args.seed,
                       rules=_rules(args.rules), max_hands=args.max_hands, dd=args.dd)


def append_hands(path, pair: list[GameResult]) -> None:
    """Append the hands of ``pair`` to ``path``, one JSON object a line: ``deal_set``, ``game``
    (1: side A at N-S, 2: at E-W), ``hand`` (from 1), ``a_team``, ``dd_ns`` (N-S double-dummy
    tricks from the first lead, with ``--dd``) and ``record`` (``piki-hand/1``, every hand shown)."""
    with open(path, "a", encoding="utf-8") as f:
        for game in pair:
            for row in game.hand_log:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")


class ProgressBar:
    """A plain-text progress bar on stderr (a line per 10% when stderr is not a terminal)."""

    def __init__(self, stream=None, width: int = 30, resumed: int = 0) -> None:
        self.stream = stream or sys.stderr
        self.width = width
        self.resumed = resumed  # games read from a checkpoint: not counted in the rate
        self.tty = self.stream.isatty()
        self._last_decile = -1

    def __call__(self, done: int, total: int, seconds: float) -> None:
        rate = (done - self.resumed) / seconds if seconds > 0 else 0.0
        eta = (total - done) / rate if rate > 0 else 0.0
        filled = self.width * done // total
        line = (f"match [{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} games "
                f"{rate:.2f}/s eta {eta:.0f}s")
        if self.tty:
            self.stream.write("\r" + line + ("\n" if done == total else ""))
        else:
            decile = 10 * done // total
            if decile == self._last_decile:
                return
            self._last_decile = decile
            self.stream.write(line + "\n")
        self.stream.flush()


def render(result: MatchResult) -> str:
    data = result.to_json()
    rows = [
        ("games", "games"), ("wins", "wins"), ("draws", "draws"),
        ("win rate", "win_rate"), ("  95% CI", "win_rate_ci95"), ("points/hand", "points_per_hand"),
        ("set rate", "set_rate"), ("nils", "nils"), ("nil made", "nil_made_rate"),
        ("blind nils", "blind_nils"), ("  made", "blind_nils_made"), ("bags/hand", "bags_per_hand"),
        ("bid error (DD)", "bid_error"),
        ("forfeits", "forfeits"),
    ]

    def cell(v: Any) -> str:
        if v is None:
            return "-"
        if isinstance(v, list):
            return f"{v[0]:.3f}-{v[1]:.3f}"
        if isinstance(v, float):
            return f"{v:.3f}"
        return str(v)

    lines = [f"{data['games']} games ({data['deal_sets']} deal sets, seed {data['seed']}, "
             f"rules {data['rules'] if isinstance(data['rules'], str) else 'custom'}), "
             f"{data['hands']} hands, {data['seconds']:.1f} s, "
             f"{data['games_per_second']} games/s on {data['jobs']} job(s)"]
    lines.append(f"A: {data['a']['bot']}")
    lines.append(f"B: {data['b']['bot']}")
    width = 2 + max(14, *(len(cell(data[side][key])) for side in "ab" for _, key in rows))
    lines.append(f"{'':<16}{'A':>{width}}{'B':>{width}}")
    for label, key in rows:
        lines.append(f"{label:<16}{cell(data['a'][key]):>{width}}{cell(data['b'][key]):>{width}}")
    for f in data["forfeits"]:
        lines.append(f"forfeit: deal set {f['deal_set']} game {f['game']} hand {f['hand']}: "
                     f"side {f['side']} ({f['bot']}) seat {f['seat']}: {f['reason']}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    argv = list(argv)
    if argv[:1] == ["--"]:  # ``piki match -- ARGS`` passes the separator along
        argv = argv[1:]
    try:
        args = build_parser().parse_args(argv)
        if args.list_bots:
            print("\n".join(BOTS))
            return 0
        config = _config(args)
    except (_UsageError, BotUnavailable) as e:
        print(f"piki match: {e}", file=sys.stderr)
        return 2
    checkpoint = None
    if args.checkpoint is not None:
        from .match_checkpoint import Checkpoint, CheckpointError
        try:
            checkpoint = Checkpoint.open(args.checkpoint, config)
        except CheckpointError as e:
            print(f"piki match: --checkpoint: {e}", file=sys.stderr)
            return 2
    if args.hands is not None:
        try:
            open(args.hands, "a", encoding="utf-8").close()
        except OSError as e:
            print(f"piki match: --hands: cannot write {args.hands}: {e.strerror}", file=sys.stderr)
            return 2
    resumed = 0 if checkpoint is None else len(checkpoint.finished(config.deal_sets))
    progress = None if args.quiet else ProgressBar(resumed=resumed)
    if progress is not None and resumed:
        print(f"piki match: {resumed} games read from {args.checkpoint}", file=sys.stderr)
    try:
        on_games = None if args.hands is None else partial(append_hands, args.hands)
        result = run_match(config, jobs=args.jobs, progress=progress, checkpoint=checkpoint,
                           on_games=on_games)
    except ImportError as e:  # --dd without the solver
        print(f"piki match: {e}", file=sys.stderr)
        return 2
    if args.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(render(result) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
