"""A match's finished deal sets on disk, so that a long match can stop and go on later.

The file is JSON lines: a header naming the match (bots, seed, rules, game cap, double dummy and
a fingerprint of the advisor's code), then one line per finished deal set with both its games.
A deal set is the same for the same seed and index whatever else runs, so a match of 500 games
can be played 40 at a time: each run skips the deal sets already in the file and appends the new
ones as they finish. A run killed mid-way loses only the deal sets still in play (a torn last
line is ignored). A file written by another match, or by other advisor code, is refused: the
figures of one match must come from one engine.

>>> import tempfile, os
>>> from advisor.match import BotSpec, MatchConfig
>>> cfg = MatchConfig(a=BotSpec("heuristic"), b=BotSpec("random"), deal_sets=1, seed=3)
>>> path = os.path.join(tempfile.mkdtemp(), "m.jsonl")
>>> Checkpoint.open(path, cfg).done
[]
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from .match import Forfeit, GameResult, MatchConfig, SideTally

FORMAT = "piki-match-checkpoint/1"


class CheckpointError(ValueError):
    """The checkpoint file cannot continue this match (another match, other code, bad file)."""


# How a match is printed and stored does not change how it is played.
NOT_ENGINE = ("match_cli.py", "match_checkpoint.py")


def engine_fingerprint() -> str:
    """A short hash of what decides how the games go: the advisor's source (the Python modules
    and the C solver) and its data (the bid model's network weights)."""
    root = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        if path.suffix in (".py", ".c", ".npz") and "__pycache__" not in path.parts \
                and path.relative_to(root).as_posix() not in NOT_ENGINE:
            h.update(path.relative_to(root).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:12]


def header(config: MatchConfig) -> dict[str, Any]:
    return {"format": FORMAT, "a": config.a.label, "b": config.b.label, "seed": config.seed,
            "rules": config.rules.to_json(), "max_hands": config.max_hands, "dd": config.dd,
            "engine": engine_fingerprint()}


def game_to_json(g: GameResult) -> dict[str, Any]:
    return {"deal_set": g.deal_set, "swapped": g.swapped, "winner": g.winner, "points": g.points,
            "hands": g.hands, "capped": g.capped,
            "tally": {side: asdict(t) for side, t in g.tally.items()},
            "forfeit": None if g.forfeit is None else asdict(g.forfeit)}


def game_from_json(d: dict[str, Any]) -> GameResult:
    names = {f.name for f in fields(SideTally)}
    tally = {side: SideTally(**{k: int(v) for k, v in t.items() if k in names})
             for side, t in d["tally"].items()}
    forfeit = None if d["forfeit"] is None else Forfeit(**d["forfeit"])
    return GameResult(int(d["deal_set"]), bool(d["swapped"]), str(d["winner"]),
                      {k: int(v) for k, v in d["points"].items()}, int(d["hands"]),
                      bool(d["capped"]), tally, forfeit)  # the deals: from the seed, not stored


_MATCH_KEYS = (("a", "side A's bot"), ("b", "side B's bot"), ("seed", "seed"),
               ("rules", "rules"), ("max_hands", "--max-hands"), ("dd", "--dd"))


class Checkpoint:
    """The finished games of a match in ``path``; :meth:`add` appends a deal set's two games."""

    def __init__(self, path: Path, done: list[GameResult], seconds: float) -> None:
        self.path = path
        self.done = done
        self.seconds_before = seconds  # wall time of the earlier runs
        self._run = f"{os.getpid()}-{time.time():.3f}"
        self._start = time.perf_counter()

    @classmethod
    def open(cls, path: str | os.PathLike, config: MatchConfig) -> "Checkpoint":
        """Read ``path`` (or start it) for ``config``; raises CheckpointError when it is another
        match's, other code's, or not a checkpoint at all."""
        path = Path(path)
        want = header(config)
        if not path.exists() or path.stat().st_size == 0:
            try:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(json.dumps(want) + "\n")
            except OSError as e:
                raise CheckpointError(f"cannot write {path}: {e.strerror}") from None
            return cls(path, [], 0.0)
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as e:
            raise CheckpointError(f"cannot read {path}: {e}") from None
        try:
            head = json.loads(lines[0])
        except (json.JSONDecodeError, IndexError):
            head = None
        if not isinstance(head, dict) or head.get("format") != FORMAT:
            raise CheckpointError(f"{path} is not a piki match checkpoint")
        for key, what in _MATCH_KEYS:
            if head.get(key) != want[key]:
                raise CheckpointError(f"{path} belongs to another match: its {what} is "
                                      f"{json.dumps(head.get(key))}, this one's {json.dumps(want[key])}")
        if head.get("engine") != want["engine"]:
            raise CheckpointError(
                f"{path} was played by other advisor code (engine {head.get('engine')}, now "
                f"{want['engine']}); its games cannot be counted with these: start a new file")
        done: list[GameResult] = []
        runs: dict[str, float] = {}
        for n, line in enumerate(lines[1:], start=2):
            try:
                rec = json.loads(line)
                games = [game_from_json(g) for g in rec["games"]]
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
                if n == len(lines):  # torn by a kill mid-write: that deal set is played again
                    break
                raise CheckpointError(f"{path} line {n} is damaged ({type(e).__name__})") from None
            done.extend(games)
            run = str(rec.get("run", ""))
            runs[run] = max(runs.get(run, 0.0), float(rec.get("elapsed", 0.0)))
        seen: set[tuple[int, bool]] = set()
        unique = []
        for g in done:  # the same deal set twice (two runs at once): keep the first
            if (g.deal_set, g.swapped) not in seen:
                seen.add((g.deal_set, g.swapped))
                unique.append(g)
        return cls(path, unique, sum(runs.values()))

    @property
    def done_sets(self) -> set[int]:
        """Deal sets whose two games are both in the file."""
        sets: dict[int, int] = {}
        for g in self.done:
            sets[g.deal_set] = sets.get(g.deal_set, 0) + 1
        return {s for s, n in sets.items() if n == 2}

    def finished(self, deal_sets: int) -> list[GameResult]:
        """The games of the finished deal sets below ``deal_sets`` (what a run of that many deal
        sets does not play again)."""
        done = self.done_sets
        return [g for g in self.done if g.deal_set < deal_sets and g.deal_set in done]

    def add(self, pair: list[GameResult]) -> None:
        rec = {"run": self._run, "elapsed": round(time.perf_counter() - self._start, 3),
               "games": [game_to_json(g) for g in pair]}
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.done.extend(pair)
