"""The ``piki`` command line.

Every command that takes ``RECORD.json`` also takes ``-``: records are then read one per line
from stdin and answered one per line, each answer flushed before the next line is read.
Malformed input exits 2 with one line on stderr; an illegal event exits 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Callable

from advisor.record import HandRecord, RecordError, check_json, replay, state_json
from advisor.refusals import words
from advisor.state import IllegalEvent
from vision.runtime import SettingError

from . import text

# A command's core: record -> (answer object, exit status). It may raise RecordError or
# IllegalEvent; the runner turns those into the contract's messages and exit codes.
Handler = Callable[[HandRecord], "tuple[dict[str, Any], int]"]


class UsageError(Exception):
    """Bad command-line input that is not a record (exit 2)."""


def _state(record: HandRecord, lang: str = "en") -> tuple[dict[str, Any], int]:
    return state_json(replay(record)), 0


def _check(record: HandRecord, lang: str = "en") -> tuple[dict[str, Any], int]:
    answer = check_json(record, lang)
    return answer, 0 if answer["legal"] else 1


def _advisor_command(name: str) -> Handler:
    def handler(record: HandRecord, **options) -> tuple[dict[str, Any], int]:
        from advisor import advice  # imported late: the advisor is heavier than the rules core

        return getattr(advice, f"{name}_json")(record, **options), 0
    return handler


def _read_file(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise UsageError(f"{path}: is a directory, not a record file") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not a UTF-8 text file") from None
    except OSError as e:
        raise UsageError(f"{path}: cannot read ({e.strerror})") from None


def _print(obj: dict[str, Any], as_json: bool, render: Callable[[dict], str]) -> None:
    sys.stdout.write((json.dumps(obj, ensure_ascii=False) if as_json else render(obj)) + "\n")
    sys.stdout.flush()


def _say_notes(record: HandRecord, lang: str, where: str) -> None:
    """The record's notes (a misspelt-looking field: HandRecord.notes) on stderr, each after ``where``."""
    for note in record.notes(lang):
        print(f"piki: {where}: {note}", file=sys.stderr)


def run_record_command(
    handler: Handler, source: str, as_json: bool, render: Callable[[dict], str],
    options: dict[str, Any] | None = None, always_print: bool = False,
) -> int:
    options = options or {}
    lang = options.get("lang", "en")
    if source == "-":
        status = 0
        for number, line in enumerate(sys.stdin, 1):
            if not line.strip():
                continue
            try:
                record = HandRecord.from_text(line)
                _say_notes(record, lang, f"line {number}")
                answer, code = handler(record, **options)
            except IllegalEvent as e:
                answer, code = {"error": e.reason_in(lang)}, 0
            except (RecordError, ValueError) as e:
                answer, code = {"error": words(e, lang)}, 0
            except Exception as e:  # a bug: this line is answered, exit status 3, the rest go on
                answer, code = {"error": f"internal error: {type(e).__name__}: {e}"}, 3
            status = max(status, code)
            sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
            sys.stdout.flush()
        return status
    try:
        record = HandRecord.from_text(_read_file(source))
        _say_notes(record, lang, source)
        answer, code = handler(record, **options)
    except (RecordError, UsageError, ValueError) as e:  # ValueError: no such decision (e.g. the
        # record is in the bidding and play advice was asked for, or the hand to advise is unknown)
        text = words(e, lang)
        print(f"piki: {source}: {text}" if not text.startswith(source) else f"piki: {text}",
              file=sys.stderr)
        return 2
    except IllegalEvent as e:
        print(f"piki: {source}: {e.describe(lang, numbered=True)}", file=sys.stderr)
        return 1
    _print(answer, as_json, render)
    return code


def _ranged(convert: Callable[[str], Any], what: str, ok: Callable[[Any], bool], bounds: str):
    """An argparse type: ``convert`` the text, then check it lies within ``bounds``."""
    def parse(value: str):
        try:
            x = convert(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {what}: {value!r}") from None
        if not ok(x):  # a comparison with nan is false: nan is refused too
            raise argparse.ArgumentTypeError(f"must be {bounds}, got {value}")
        return x
    return parse


# as the HTTP API takes them
_seconds = _ranged(float, "a number of seconds", lambda t: 0 < t <= 60, "over 0 and at most 60 seconds")
_seed = _ranged(int, "a whole number", lambda n: 0 <= n < 2**31, f"from 0 to {2**31 - 1}")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="piki", description="Spades (piki) coach: rules, advice, card scanning.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def record_cmd(name: str, help_: str) -> argparse.ArgumentParser:
        sp = sub.add_parser(name, help=help_)
        sp.add_argument("record", metavar="RECORD.json", help="a piki-hand/1 record, or - for one per line on stdin")
        sp.add_argument("--json", action="store_true", help="print one JSON object")
        sp.add_argument("--lang", choices=("en", "pl"), default="en",
                        help="language of the answer (the explanation, the labels around it, why"
                             " an event is illegal)")
        return sp

    record_cmd("state", "the state after a hand record")
    record_cmd("check", "is the record legal? the first illegal event")
    for name, help_ in (("bid", "bid advice for the seat to act"),
                        ("play", "card advice for the seat to act"),
                        ("review", "review of a finished hand")):
        sp = record_cmd(name, help_)
        sp.add_argument("--time", type=_seconds, default=None, metavar="SECONDS",
                        help="thinking time budget (trades strength for speed)")
        sp.add_argument("--seed", type=_seed, default=None, help="random seed for the simulations")
        if name == "review":
            sp.add_argument("--seat", default=None, help="review only this seat (default: all seats)")

    sp = sub.add_parser("scan", help="find the cards in photos")
    sp.add_argument("images", nargs="+", metavar="IMAGE")
    sp.add_argument("--json", action="store_true")
    sp.add_argument("--annotate", metavar="OUT.jpg", default=None, help="write an image with boxes and names")
    sp.add_argument("--lang", choices=("en", "pl"), default="en", help="language of the warnings")

    sp = sub.add_parser("advise", help="scan a photo of a hand, then advise the bid")
    sp.add_argument("image", metavar="PHOTO")
    sp.add_argument("--seat", default="S", help="your seat (default S)")
    sp.add_argument("--dealer", default=None, help="the dealer (default: you)")
    sp.add_argument("--bids", default="", help='bids made before yours, e.g. "N:3,E:nil"')
    sp.add_argument("--score", default="", help='game score, e.g. "NS:120,EW:-40"')
    sp.add_argument("--bags", default="", help='bag counts, e.g. "NS:3,EW:7"')
    sp.add_argument("--rules", default="piki", help="rules preset")
    sp.add_argument("--time", type=_seconds, default=None, metavar="SECONDS")
    sp.add_argument("--lang", choices=("en", "pl"), default="en")
    sp.add_argument("--json", action="store_true")

    sp = sub.add_parser("train", help="train the card detector (needs the training extras)")
    sp.add_argument("rest", nargs=argparse.REMAINDER)

    sp = sub.add_parser("serve", help="start the HTTP API and the web page")
    sp.add_argument("--host", default="127.0.0.1")
    sp.add_argument("--port", type=int, default=8000)
    sp.add_argument("--db", default=None, help="database URL or SQLite file (default: piki.db)")
    sp.add_argument("--token", default=None, help="access token (required beyond loopback)")
    sp.add_argument("--workers", type=int, default=None, metavar="N",
                    help="server processes sharing the port and the database (default: PIKI_WORKERS or 1)")

    sub.add_parser("match", help="duplicate matches between bots (piki match --help)")
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["match"]:  # its options are the match harness's own
        from advisor.match_cli import main as match_main

        return match_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except SettingError as e:
        print(f"piki: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # last resort: one line, never a traceback
        print(f"piki: internal error: {type(e).__name__}: {e}", file=sys.stderr)
        return 3


def _dispatch(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd in ("state", "check"):
        render = getattr(text, f"render_{cmd}")
        return run_record_command(_state if cmd == "state" else _check, args.record, args.json,
                                  lambda answer: render(answer, lang=args.lang), {"lang": args.lang})
    if cmd in ("bid", "play", "review"):
        options: dict[str, Any] = {"time_budget": args.time, "seed": args.seed, "lang": args.lang}
        if cmd == "review":
            options["seat"] = args.seat
        render = getattr(text, f"render_{cmd}")
        return run_record_command(_advisor_command(cmd), args.record, args.json,
                                  lambda answer: render(answer, lang=args.lang), options)
    if cmd == "scan":
        from vision.cli import run_scan

        return run_scan(args.images, args.json, args.annotate, args.lang)
    if cmd == "advise":
        from .advise_photo import run_advise

        return run_advise(args)
    if cmd == "train":
        from vision.train import main as train_main

        return train_main(args.rest)
    if cmd == "serve":
        from .server import serve

        return serve(host=args.host, port=args.port, db=args.db, token=args.token, workers=args.workers)
    return 2  # pragma: no cover - argparse rejects unknown commands


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
