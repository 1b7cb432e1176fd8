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

_lock = threading.Lock()
_sessions: dict[str, object] = {}


def session(path: str | Path):
    """An onnxruntime InferenceSession for the model file, created on first use and cached."""
    key = str(Path(path).resolve())
    with _lock:
        if key not in _sessions:
            import onnxruntime as ort

            if not Path(key).exists():
                raise FileNotFoundError(f"model file {key} is missing (train with: python -m vision.train)")
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = int(os.environ.get("PIKI_VISION_THREADS", "2"))
            opts.inter_op_num_threads = 1
            # no busy-waiting between runs: the machine is shared with the web server and others
            opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            _sessions[key] = ort.InferenceSession(key, opts, providers=["CPUExecutionProvider"])
        return _sessions[key]
