"""The committed detector checkpoint (models/corner_detector.pt) computes what the shipped ONNX
detector computes, and ultralytics trains on from it. Needs the training requirements
(requirements-train.txt: torch, ultralytics); skipped where they are not installed."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("ultralytics")
ort = pytest.importorskip("onnxruntime")

ROOT = Path(__file__).resolve().parents[1]
ONNX = ROOT / "models" / "corner_detector.onnx"
CHECKPOINT = ROOT / "models" / "corner_detector.pt"


def head_outputs(model, x: np.ndarray) -> list[np.ndarray]:
    """The six last convolutions of the head (box bins, class logit; strides 8, 16, 32), as the ONNX file ends."""
    outs = {}
    head = model.model[-1]
    hooks = []
    for i in range(3):
        hooks.append(head.cv2[i][2].register_forward_hook(lambda m, a, o, i=i: outs.__setitem__(2 * i, o)))
        hooks.append(head.cv3[i][2].register_forward_hook(lambda m, a, o, i=i: outs.__setitem__(2 * i + 1, o)))
    model.eval()
    with torch.no_grad():
        model(torch.from_numpy(x))
    for h in hooks:
        h.remove()
    return [outs[k].numpy() for k in range(6)]


def test_the_committed_checkpoint_is_the_shipped_detector(tmp_path):
    from vision.detect import Detector
    from vision.synth.artwork import HELD_OUT
    from vision.synth.scene import render_scene
    from vision.training.detector import offline_ultralytics

    offline_ultralytics(tmp_path / "yolocfg", 1)
    from ultralytics import YOLO

    img, _ = render_scene(900_005, list(HELD_OUT))
    x = Detector(imgsz=416).letterbox(img)[0]
    sess = ort.InferenceSession(str(ONNX), providers=["CPUExecutionProvider"])
    want = sess.run(None, {sess.get_inputs()[0].name: x})
    got = head_outputs(YOLO(str(CHECKPOINT)).model.float(), x)
    for g, w in zip(got, want):
        assert g.shape == w.shape
        # saved in half precision, as ultralytics saves its checkpoints: logits within a few hundredths
        assert np.abs(g - w).max() < 0.05 * max(1.0, np.abs(w).max() / 10)
    # a logit over 0 is a corner the detector reports: the same cells light up
    assert ((got[1] > 0) == (want[1] > 0)).mean() > 0.999


def test_the_rebuilt_norms_compute_the_folded_convolutions_exactly(tmp_path):
    from vision.detect import Detector
    from vision.synth.artwork import HELD_OUT
    from vision.synth.scene import render_scene
    from vision.training.checkpoint import rebuild
    from vision.training.detector import offline_ultralytics

    offline_ultralytics(tmp_path / "yolocfg", 1)
    model = rebuild(ONNX, n_scenes=2, imgsz=320)
    img, _ = render_scene(900_006, list(HELD_OUT))
    x = Detector(imgsz=416).letterbox(img)[0]
    sess = ort.InferenceSession(str(ONNX), providers=["CPUExecutionProvider"])
    for g, w in zip(head_outputs(model, x), sess.run(None, {sess.get_inputs()[0].name: x})):
        assert np.abs(g - w).max() < 1e-3
    # and the norms hold the statistics they were given, not the identity
    bn = model.model[0].bn
    assert not torch.allclose(bn.running_var, torch.ones_like(bn.running_var))


def test_exporting_a_checkpoint_writes_nothing_beside_it(tmp_path):
    """ultralytics writes its ONNX export beside the weights; exporting the committed checkpoint
    must not overwrite the shipped detector file next to it."""
    import shutil

    from vision.detect import Detector
    from vision.training.detector import export_detector, offline_ultralytics

    offline_ultralytics(tmp_path / "yolocfg", 1)
    shipped = tmp_path / "models"
    shipped.mkdir()
    shutil.copy2(CHECKPOINT, shipped / "corner_detector.pt")
    (shipped / "corner_detector.onnx").write_bytes(b"the shipped detector")
    out = export_detector(shipped / "corner_detector.pt", tmp_path / "export" / "corner_detector.onnx", 416)
    assert (shipped / "corner_detector.onnx").read_bytes() == b"the shipped detector"
    assert sorted(p.name for p in shipped.iterdir()) == ["corner_detector.onnx", "corner_detector.pt"]
    boxes, scores = Detector(model_path=out)(np.full((320, 416, 3), 200, np.uint8))
    assert boxes.shape[1] == 4 and len(boxes) == len(scores)
