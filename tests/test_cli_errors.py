"""Malformed input and illegal events through the real `piki` command (subprocesses)."""

from __future__ import annotations

import json
import queue
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
_ENTRY = Path(sys.executable).with_name("piki")
PIKI = [str(_ENTRY)] if _ENTRY.exists() else [sys.executable, "-m", "api.cli"]

BIDS = {"N": 3, "E": 3, "S": 3, "W": 3}
S_HAND = ["7H", "QH", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC"]
W_HAND = ["4S", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC"]


def record(**fields) -> dict:
    out = {"format": "piki-hand/1", "rules": "piki", "dealer": "N", "bids": BIDS, "plays": []}
    out.update(fields)
    return out


def piki(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*PIKI, *args], input=stdin, capture_output=True, text=True, cwd=ROOT,
                          timeout=60)


def write(tmp_path: Path, content, name="record.json") -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content if isinstance(content, str) else json.dumps(content),
                        encoding="utf-8")
    return str(path)


def assert_malformed(proc: subprocess.CompletedProcess, *words: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# ================================================================= malformed input
MALFORMED = [
    ("bad_json", '{"format": "piki-hand/1", "dealer": ', ["bad JSON", "line 1"]),
    ("not_object", "[1, 2, 3]", ["must be a JSON object"]),
    ("empty", "", ["bad JSON"]),
    ("unknown_card_hand", record(hands={"N": ["AS", "XQ"]}), ["hands.N[1]", "unknown card 'XQ'"]),
    ("unknown_card_play", record(plays=["5H", "1H"]), ["plays[1]", "unknown card '1H'"]),
    ("fourteen_cards", record(hands={"N": ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS",
                                           "JS", "QS", "KS", "AS", "AH"]}),
     ["N has 14 cards", "a hand has 13"]),
    ("card_in_two_hands", record(hands={"N": ["AS", "KH"], "E": ["2C", "AS"]}),
     ["AS is in two hands: N and E"]),
    ("card_twice_in_hand", record(hands={"W": ["AS", "as"]}), ["AS appears twice in W's hand"]),
    ("bid_14", record(bids={"N": 14, "E": 3}), ["bids.N", "between 0 and 13, got 14"]),
    ("bid_text", record(bids={"N": "many"}), ["bids.N", "a bid must be"]),
    ("bad_rules", record(rules={"preset": "piki", "win_at": "lots"}),
     ["rules field 'win_at' must be an integer"]),
    ("unknown_preset", record(rules="bridge"), ["unknown rules preset 'bridge'"]),
    ("bad_dealer", record(dealer="X"), ["dealer", "unknown seat 'X'"]),
    ("no_dealer", {"format": "piki-hand/1"}, ["missing field 'dealer'"]),
    ("bad_format", record(format="piki-hand/9"), ["unknown format 'piki-hand/9'"]),
    ("too_many_plays", record(plays=["2C"] * 53), ["53 cards"]),
    ("deep_json", "[" * 100000, ["bad JSON"]),
    ("huge_number", '{"dealer": "N", "score_before": {"NS": ' + "9" * 5000 + "}}", ["bad JSON"]),
]


@pytest.mark.parametrize("command", ["state", "check"])
@pytest.mark.parametrize("name,content,words", MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_record(tmp_path, command, name, content, words):
    path = write(tmp_path, content)
    line = assert_malformed(piki(command, path, "--json"), *words)
    assert line.startswith("piki: ")


@pytest.mark.parametrize("command", ["state", "bid", "review"])
@pytest.mark.parametrize("field,team,value", [("score_before", "EW", -10**20), ("bags_before", "NS", 10**7)])
def test_numbers_beyond_any_game_are_malformed(tmp_path, command, field, team, value):
    # a score of 1e20 once reached the advice's 64-bit arithmetic: an internal error (exit 3)
    path = write(tmp_path, record(**{field: {team: value}}))
    assert_malformed(piki(command, path, "--json"), f"{field}.{team} must be between -1000000 and 1000000")
    out = piki(command, "-", stdin=json.dumps(record(**{field: {team: value}})) + "\n" + json.dumps(record()) + "\n")
    first, second = out.stdout.splitlines()  # the line after it is answered too
    assert "must be between -1000000 and 1000000" in json.loads(first)["error"]
    assert json.loads(second)


@pytest.mark.parametrize("content,words", [
    (record(plays=["5H", "1H"]), "plays[1]: nieznana karta '1H'"),
    (record(dealer="X"), "dealer: nieznane miejsce 'X' (N, E, S albo W)"),
    (record(bids={"N": 14, "E": 3}), "bids.N: deklaracja musi wynosić od 0 do 13, a nie 14"),
])
def test_malformed_record_in_polish(tmp_path, content, words):
    path = write(tmp_path, content)
    assert assert_malformed(piki("state", path, "--lang", "pl"), words) == f"piki: {path}: {words}"
    out = piki("check", "-", "--lang", "pl", stdin=json.dumps(content) + "\n")
    assert json.loads(out.stdout) == {"error": words}


@pytest.mark.parametrize("command", ["state", "check"])
def test_missing_file(tmp_path, command):
    path = str(tmp_path / "nope.json")
    assert_malformed(piki(command, path, "--json"), path, "no such file")


def test_directory_and_binary_file(tmp_path):
    assert_malformed(piki("state", str(tmp_path)), "is a directory")
    path = write(tmp_path, b"\xff\xfe\x00garbage\x80", "bin.json")
    assert_malformed(piki("state", path, "--json"), "not a UTF-8 text file")


# ================================================================= illegal events
ILLEGAL = [
    ("revoke", record(hands={"S": S_HAND}, plays=["2H", "3H", "2C", "4H"]),
     {"kind": "play", "index": 2, "seat": "S", "card": "2C",
      "reason": "S must follow hearts: holds 7H, QH"},
     "niedozwolone zagranie nr 3 (lewa 1, S): S musi dołożyć do koloru (kiery): ma 7H, QH"),
    ("spade_lead", record(dealer="W", hands={"W": W_HAND}, plays=["4S"]),
     {"kind": "play", "index": 0, "seat": "W", "card": "4S",
      "reason": "spades not broken: W leads 4S while holding clubs"},
     "niedozwolone zagranie nr 1 (lewa 1, W): piki nie są rozbite: W wychodzi 4S, mając jeszcze trefle"),
    ("blind_nil", record(bids={"N": 2, "E": "blind_nil", "S": 3, "W": 3},
                         score_before={"NS": 300, "EW": 150}),
     {"kind": "bid", "index": 1, "seat": "E", "card": None, "bid": "blind_nil",
      "reason": "E may not bid blind nil: EW trails by 150, blind nil needs a deficit of at "
                "least 200"},
     "niedozwolona deklaracja nr 2 (E): E nie może zadeklarować zera w ciemno: EW przegrywa o 150"
     " pkt, a zero w ciemno wymaga straty co najmniej 200 pkt"),
    ("replayed_card", record(plays="2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AS AS".split()),
     {"kind": "play", "index": 12, "seat": "E", "card": "AS",
      "reason": "AS was already played in trick 3"},
     "niedozwolone zagranie nr 13 (lewa 4, E): AS została już zagrana w lewie 3"),
]


@pytest.mark.parametrize("name,rec,error,polish", ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_illegal_event(tmp_path, name, rec, error, polish):
    path = write(tmp_path, rec)
    proc = piki("check", path, "--json")
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == ""
    out = json.loads(proc.stdout)
    assert out["legal"] is False
    assert len(out["errors"]) == 1
    got = out["errors"][0]
    for key, value in error.items():
        assert got[key] == value, key

    # the plain-text check names the same reason
    text = piki("check", path)
    assert text.returncode == 1 and error["reason"] in text.stdout

    # `state` stops with the same reason, exit 1, one line on stderr
    for args in (("state", path, "--json"), ("state", path)):
        proc = piki(*args)
        assert proc.returncode == 1
        assert proc.stdout == ""
        assert "Traceback" not in proc.stderr
        lines = proc.stderr.splitlines()
        assert len(lines) == 1 and error["reason"] in lines[0]
        # counted from 1 in words (the JSON's index counts from 0)
        number = error["index"] + 1
        assert (f"#{number} (trick {error['index'] // 4 + 1}) by {error['seat']}" if error["kind"] == "play"
                else f"#{number} by {error['seat']}") in lines[0]

    # --lang pl: the same refusal in Polish, by check and by state
    text = piki("check", path, "--lang", "pl")
    assert text.returncode == 1 and text.stdout.strip() == polish
    proc = piki("state", path, "--lang", "pl")
    assert proc.returncode == 1 and proc.stderr.strip() == f"piki: {path}: {polish}"


def test_legal_record_checks_clean(tmp_path):
    path = write(tmp_path, record(hands={"S": S_HAND}, plays=["2H", "3H", "QH", "4H"]))
    proc = piki("check", path, "--json")
    assert proc.returncode == 0 and json.loads(proc.stdout) == {"legal": True, "errors": [], "notes": []}
    assert proc.stderr == ""
    proc = piki("state", path, "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["tricks"]["S"] == 1


def test_a_misspelt_field_is_named_and_the_record_still_read(tmp_path):
    """Extra fields are welcome, but one that looks like a misspelt field of the format is not
    read, so a score written as "score" would leave the score at 0 without a word: every record
    command names it on stderr (the record is still answered), and check lists it in its notes."""
    rec = record(hands={"S": S_HAND}, plays=["2H", "3H", "QH", "4H"], venue="club",
                 score={"NS": 420, "EW": 180}, Dealer="E")
    path = write(tmp_path, rec)
    proc = piki("check", path, "--json")
    assert proc.returncode == 0, proc.stderr
    notes = json.loads(proc.stdout)["notes"]
    assert len(notes) == 2 and '"score_before"' in notes[0] and '"dealer"' in notes[1], notes
    assert "venue" not in proc.stderr and proc.stderr.count("did you mean") == 2, proc.stderr
    proc = piki("state", path, "--json", "--lang", "pl")
    assert proc.returncode == 0 and json.loads(proc.stdout)["tricks"]["S"] == 1
    assert 'czy chodziło o "score_before"?' in proc.stderr, proc.stderr
    proc = piki("state", "-", "--json", stdin=json.dumps(record()) + "\n" + json.dumps(rec) + "\n")
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 2
    assert proc.stderr.startswith('piki: line 2: field "score" is not one of'), proc.stderr


# ===================================================================== stdin mode
def test_stdin_several_lines_answered_in_order():
    lines = [
        json.dumps(record(plays=["5H"])),
        "{not json",
        json.dumps(record(hands={"S": S_HAND}, plays=["2H", "3H", "2C"])),
        "",  # blank lines are skipped
        json.dumps(record(bids={"N": 14})),
        json.dumps(record(plays=["5H", "KH", "2H", "9H"])),
    ]
    proc = piki("state", "-", "--json", stdin="\n".join(lines) + "\n")
    assert "Traceback" not in proc.stderr
    answers = [json.loads(a) for a in proc.stdout.splitlines()]
    assert len(answers) == 5
    assert answers[0]["to_act"] == "E" and answers[0]["played"] == ["5H"]
    assert set(answers[1]) == {"error"} and "bad JSON" in answers[1]["error"]
    assert answers[2] == {"error": "S must follow hearts: holds 7H, QH"}
    assert set(answers[3]) == {"error"} and "between 0 and 13" in answers[3]["error"]
    assert answers[4]["to_act"] == "E" and answers[4]["tricks"]["E"] == 1

    proc = piki("check", "-", stdin="\n".join(lines) + "\n")
    answers = [json.loads(a) for a in proc.stdout.splitlines()]
    assert [a.get("legal") for a in answers] == [True, None, False, None, True]
    assert answers[2]["errors"][0]["index"] == 2 and answers[2]["errors"][0]["card"] == "2C"
    assert proc.returncode == 1  # one record was illegal


def test_stdin_answers_are_flushed_one_by_one():
    """Hold a conversation: each answer must arrive before the next line is written."""
    proc = subprocess.Popen([*PIKI, "state", "-", "--json"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            bufsize=1, cwd=ROOT)
    answers: queue.Queue = queue.Queue()

    def reader():
        for line in proc.stdout:
            answers.put(line)
        answers.put(None)

    threading.Thread(target=reader, daemon=True).start()
    try:
        conversation = [
            (record(plays=[]), lambda a: a["phase"] == "play" and a["to_act"] == "N"),
            ("this is not json", lambda a: "bad JSON" in a["error"]),
            (record(plays=["5H", "KH"]), lambda a: a["to_act"] == "S"),
            (record(dealer="W", hands={"W": W_HAND}, plays=["4S"]),
             lambda a: a == {"error": "spades not broken: W leads 4S while holding clubs"}),
            (record(plays=["5H", "KH", "2H", "9H"]), lambda a: a["to_act"] == "E"),
        ]
        for message, ok in conversation:
            proc.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
            proc.stdin.flush()
            line = answers.get(timeout=30)  # stdin stays open: no answer means no flush
            assert line is not None, proc.stderr.read()
            assert ok(json.loads(line)), line
        assert answers.empty()
        proc.stdin.close()
        assert answers.get(timeout=30) is None
        assert proc.wait(timeout=30) == 0
        assert "Traceback" not in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# ================================================================= advice asked at the wrong moment
@pytest.mark.parametrize("command,rec,words", [
    ("play", record(bids={"N": 3}, hands={"E": S_HAND}), ["still in the bidding", "ask for bid advice"]),
    ("play", record(), ["N's hand is not known"]),
    ("bid", record(hands={"N": S_HAND}), ["the bidding is over"]),
])
def test_advice_with_no_such_decision_names_why(tmp_path, command, rec, words):
    assert_malformed(piki(command, write(tmp_path, rec), "--time", "0.1"), *words)


@pytest.mark.parametrize("args,words", [
    (["--time", "-1"], ["--time", "over 0 and at most 60"]),
    (["--time", "nan"], ["--time"]),
    (["--time", "soon"], ["--time", "not a number"]),
    (["--seed", "-3"], ["--seed", "from 0"]),
])
def test_bad_advice_options_exit_2(tmp_path, args, words):
    proc = piki("bid", write(tmp_path, record(bids={}, hands={"N": S_HAND})), *args)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    last = proc.stderr.splitlines()[-1]  # argparse: the usage, then the error
    assert all(w in last for w in words), last


@pytest.mark.parametrize("command", [["scan", "datasets/artwork/raster/simplistic/AH.png"],
                                     ["serve", "--port", "1"]])
@pytest.mark.parametrize("name, value, words", [("PIKI_VISION_THREADS", "two", "from 1 to 64, not 'two'"),
                                                ("PIKI_VISION_SPIN_US", "-5", "from 0 to 100000, not '-5'")])
def test_a_bad_vision_setting_is_named_not_a_traceback(command, name, value, words):
    """The scan's thread settings are read from the environment: a value that cannot be used is
    named with exit 2, by `piki scan` on its first model and by `piki serve` before it starts."""
    proc = subprocess.run([*PIKI, *command], capture_output=True, text=True, cwd=ROOT, timeout=120,
                          env={**os.environ, name: value})
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip() == f"piki: {name} must be a whole number {words}"
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_line_that_hits_a_bug_is_answered_and_the_rest_go_on(monkeypatch, capsys):
    import io

    from api.cli import run_record_command

    def handler(rec, **options):
        if rec.dealer.name == "E":
            raise OverflowError("int too large")
        return {"dealer": rec.dealer.name}, 0

    lines = [json.dumps(record(dealer=d)) for d in "NES"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    status = run_record_command(handler, "-", True, str)
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out == [{"dealer": "N"}, {"error": "internal error: OverflowError: int too large"}, {"dealer": "S"}]
    assert status == 3


def test_an_image_opencv_cannot_decode_gets_one_line(tmp_path):
    # a TIFF of 32-bit float samples: OpenCV's decoder used to print a warning of its own first
    from PIL import Image

    path = tmp_path / "float.tiff"
    Image.fromarray(np.linspace(0, 1, 100 * 100, dtype=np.float32).reshape(100, 100)).save(path)
    proc = piki("scan", str(path))
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"piki scan: {path} is not a readable image (corrupt file or unsupported format)"]
