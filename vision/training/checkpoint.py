"""The shipped ONNX detector back into an ultralytics checkpoint, to train on from where it is.

The ONNX export folds each convolution's batch norm into the convolution (weight and bias), so the
shipped file keeps the trained function but not the layers that trained it. The detector is
rebuilt from its yaml and each folded convolution ``W x + b`` is split again into ``W x``
followed by a batch norm that computes the same: with ``mu`` and ``var`` the per-channel mean and
variance of ``W x`` over some scenes, the norm keeps them as its running statistics and takes the
scale ``sqrt(var + eps)`` and the shift ``mu + b``. In evaluation the rebuilt model is the ONNX
model exactly; in training, where a batch's own statistics stand in for the running ones, it
starts near it rather than at an arbitrary rescaling of every layer (a norm set to the identity
would normalise each channel at once).

    python -m vision.training.checkpoint models/corner_detector.onnx models/corner_detector.pt
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np

from .detector import MODEL_YAML, offline_ultralytics

CALIBRATION_SCENES = 48  # training scenes whose activations give the norms their statistics
CALIBRATION_IMGSZ = 480  # the size the detector was last trained at
CALIBRATION_SEED = 4_200_000  # a seed range no scene set of the project uses


def onnx_weights(onnx_path: Path) -> dict[str, np.ndarray]:
    """The exported graph's weights, by the torch parameter names the exporter kept (its other
    initialisers are constants of the graph: split sizes, the upsampling's scales)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(onnx_path)).graph
    return {i.name: numpy_helper.to_array(i).copy() for i in graph.initializer if i.name.startswith("model.")}


def calibration_batches(n: int, imgsz: int, seed: int):
    """Letterboxed training scenes (of the training designs, never the held-out ones), one at a time."""
    import torch

    from vision.detect import Detector
    from vision.synth.artwork import FIRST_DESIGNS
    from vision.synth.scene import render_scene

    box = Detector(imgsz=imgsz)
    for k in range(n):
        img, _ = render_scene(seed + k, list(FIRST_DESIGNS))
        yield torch.from_numpy(box.letterbox(img)[0])


def rebuild(onnx_path: Path, n_scenes: int = CALIBRATION_SCENES, imgsz: int = CALIBRATION_IMGSZ,
            seed: int = CALIBRATION_SEED):
    """-> the ultralytics DetectionModel computing what ``onnx_path`` computes (see the module)."""
    import torch
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import DetectionModel

    weights = onnx_weights(onnx_path)
    model = DetectionModel(str(MODEL_YAML), ch=3, nc=1, verbose=False)
    folded = {name: m for name, m in model.named_modules() if isinstance(m, Conv)}
    state = model.state_dict()
    used = set()
    with torch.no_grad():
        for name, m in folded.items():
            w, b = weights[f"{name}.conv.weight"], weights[f"{name}.conv.bias"]
            m.conv.weight.copy_(torch.from_numpy(w))
            m.bn.weight.fill_(1.0)
            m.bn.bias.copy_(torch.from_numpy(b))
            m.bn.running_mean.zero_()
            m.bn.running_var.fill_(1.0 - m.bn.eps)  # the identity until the statistics are in
            used.update({f"{name}.conv.weight", f"{name}.conv.bias"})
        for key in state:  # the head's last convolutions: plain, not folded
            if key in weights:
                state[key].copy_(torch.from_numpy(weights[key]))
                used.add(key)
    missing = sorted(set(weights) - used)
    if missing:
        raise ValueError(f"{onnx_path}: weights with no place in {MODEL_YAML.name}: {missing[:5]}")

    # the statistics of each convolution's output (before its norm), over the calibration scenes
    sums = {name: [0.0, 0.0, 0] for name in folded}

    def hook(name):
        def record(_module, _inputs, out):
            x = out.double()
            s = sums[name]
            s[0] = s[0] + x.sum(dim=(0, 2, 3))
            s[1] = s[1] + (x * x).sum(dim=(0, 2, 3))
            s[2] += x.shape[0] * x.shape[2] * x.shape[3]
        return record

    handles = [m.conv.register_forward_hook(hook(name)) for name, m in folded.items()]
    model.eval()
    with torch.no_grad():
        for x in calibration_batches(n_scenes, imgsz, seed):
            model(x)
    for h in handles:
        h.remove()
    with torch.no_grad():
        for name, m in folded.items():
            total, squares, count = sums[name]
            mean = total / count
            var = (squares / count - mean * mean).clamp(min=0.0)
            m.bn.running_mean.copy_(mean.float())
            m.bn.running_var.copy_(var.float())
            m.bn.weight.copy_(torch.sqrt(var + m.bn.eps).float())
            m.bn.bias.add_(mean.float())
    return model


def save_checkpoint(model, out: Path, source: Path) -> Path:
    """``model`` as an ultralytics checkpoint that ``YOLO(out)`` loads and trains on."""
    import copy
    import datetime

    import torch
    import ultralytics

    out.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"epoch": -1, "best_fitness": None, "model": copy.deepcopy(model).half(), "ema": None,
                "updates": None, "optimizer": None, "train_args": {"task": "detect", "imgsz": CALIBRATION_IMGSZ},
                "date": datetime.datetime.now().isoformat(timespec="seconds"),
                "version": ultralytics.__version__, "license": "AGPL-3.0",
                "docs": f"rebuilt from {source.name} by vision.training.checkpoint"}, out)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("onnx", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--scenes", type=int, default=CALIBRATION_SCENES)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    offline_ultralytics(Path(tempfile.gettempdir()) / "piki-yolocfg", args.threads)
    model = rebuild(args.onnx, args.scenes)
    save_checkpoint(model, args.out, args.onnx)
    print(f"{args.out}: rebuilt from {args.onnx} ({sum(p.numel() for p in model.parameters()):,} parameters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
