"""Load the shipped ONNX models once (lazily) and keep them."""
from __future__ import annotations

import os
import threading
from pathlib import Path

MODELS_DIR = Path(os.environ.get("PIKI_MODELS_DIR", Path(__file__).resolve().parents[1] / "models"))
DETECTOR_FILE = "corner_detector.onnx"
# Two corner classifiers (int8) whose probabilities are averaged (the second asked only where the
# first is unsure): together they read more corners right, and are wrong with confidence less
# often, than either alone (models/MODEL_CARD.md).
CLASSIFIER_FILES = ("corner_classifier.onnx", "corner_classifier_2.onnx")
# Two more, run only on the corners the first two are unsure of: all four averaged there.
REREAD_FILES = ("corner_classifier_3.onnx", "corner_classifier_4.onnx")
# The reader of black-and-white images: suits by the pips' shapes alone (vision.classify)
GREY_FILE = "corner_classifier_grey.onnx"

# Between two operators of a run, the second thread waits for work by spinning this many
# microseconds before it sleeps, and stops spinning when the run ends (force_spinning_stop): a
# frame's 120-odd operators are then handed over without a wake-up each (640-px frames about 13 %
# faster on an idle machine, as fast beside one busy process), and no CPU is burnt between runs.
# ONNX Runtime's default spin goes on after a run (17.6 ms of CPU a frame against 12), and 200 us
# with the stop took a busy neighbour's core often enough to lose a third (benchmarks/README.md,
# Scan, thirty-ninth and forty-second stops). PIKI_VISION_SPIN_US=0: never spin.
SPIN_US = 20

_lock = threading.Lock()
_sessions: dict[str, object] = {}
_by_name: dict[str, object] = {}  # the same sessions by the path as given: resolving it costs
# about 0.2 ms of system calls, and a frame asks for its models six or seven times


def session(path: str | Path):
    """An onnxruntime InferenceSession for the model file, created on first use and cached."""
    found = _by_name.get(str(path))
    if found is not None:
        return found
    key = str(Path(path).resolve())
    with _lock:
        if key not in _sessions:
            import onnxruntime as ort

            if not Path(key).exists():
                raise FileNotFoundError(f"model file {key} is missing (train with: python -m vision.train)")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = threads()
            opts.inter_op_num_threads = 1
            spin_us = spin_microseconds()
            opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin_us > 0 else "0")
            if spin_us > 0:
                opts.add_session_config_entry("session.intra_op.spin_duration_us", str(spin_us))
                opts.add_session_config_entry("session.force_spinning_stop", "1")
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            _sessions[key] = ort.InferenceSession(key, opts, providers=["CPUExecutionProvider"])
        _by_name[str(path)] = _sessions[key]
        return _sessions[key]


class SettingError(ValueError):
    """A ``PIKI_VISION_*`` environment variable that cannot be used; the message names it."""


def _whole(name: str, default: int, low: int, high: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise SettingError(f"{name} must be a whole number from {low} to {high}, not {raw!r}")
    return value


def threads() -> int:
    """The threads each model runs on: ``PIKI_VISION_THREADS`` (default 2)."""
    return _whole("PIKI_VISION_THREADS", 2, 1, 64)


def spin_microseconds() -> int:
    """How long a thread waits for the next operator before it sleeps: ``PIKI_VISION_SPIN_US``
    (default SPIN_US; 0 never spins). A value that cannot be used raises SettingError, named."""
    return _whole("PIKI_VISION_SPIN_US", SPIN_US, 0, 100_000)
