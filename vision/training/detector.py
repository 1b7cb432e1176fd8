"""Train the corner-index detector with ultralytics and export it to ONNX."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODEL_YAML = HERE / "corner-yolov8t.yaml"


def offline_ultralytics(config_dir: Path, threads: int) -> None:
    """Make ultralytics work with no network: local config dir with a font, no auto-installs."""
    font_dir = config_dir / "Ultralytics"
    font_dir.mkdir(parents=True, exist_ok=True)
    font = font_dir / "Arial.ttf"
    if not font.exists():
        for cand in ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                     "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"):
            if Path(cand).exists():
                shutil.copy(cand, font)
                break
    os.environ.setdefault("YOLO_CONFIG_DIR", str(config_dir))
    os.environ["YOLO_OFFLINE"] = "true"
    os.environ["YOLO_AUTOINSTALL"] = "false"
    os.environ["OMP_NUM_THREADS"] = str(threads)
    import torch
    import ultralytics.utils.torch_utils as tu

    tu.NUM_THREADS = threads
    torch.set_num_threads(threads)


def _finished(last: Path) -> bool:
    """ultralytics marks a completed run's last.pt with epoch -1 (optimizer stripped)."""
    import torch

    return torch.load(last, map_location="cpu", weights_only=False).get("epoch", -1) == -1


def _resume(last: Path) -> None:
    from ultralytics import YOLO

    if _finished(last):
        print(f"{last.parent.parent.name}: already trained", flush=True)
        return
    print(f"resuming from {last}", flush=True)
    YOLO(str(last)).train(resume=True, workers=0)


def train_detector(data_yaml: Path, project: Path, epochs: int, imgsz: int, batch: int,
                   threads: int, fraction: float = 1.0, name: str = "detector", patience: int = 100,
                   device: str = "cpu", workers: int = 0, **extra):
    offline_ultralytics(project / "yolocfg", threads)
    from ultralytics import YOLO

    last = project / name / "weights" / "last.pt"
    if last.exists():
        _resume(last)
    else:
        model = YOLO(str(MODEL_YAML))
        model.train(data=str(data_yaml), epochs=epochs, imgsz=imgsz, batch=batch, workers=workers,
                    device=device, project=str(project), name=name, exist_ok=True, seed=0,
                    deterministic=True, fraction=fraction, patience=patience, plots=False,
                    amp=False, cache=True, close_mosaic=max(1, epochs // 5), degrees=10.0,
                    fliplr=0.0, mosaic=1.0, scale=0.5, translate=0.1, hsv_h=0.02, optimizer="AdamW",
                    lr0=0.003, warmup_epochs=1, verbose=True, **extra)
    best = project / name / "weights" / "best.pt"
    return best if best.exists() else last


def finetune_detector(weights: Path, data_yaml: Path, project: Path, hours: float, imgsz: int, batch: int,
                      threads: int, name: str = "detector_ft", lr0: float = 0.0008, device: str = "cpu",
                      workers: int = 0):
    """A second, short pass from trained weights at a low learning rate (more epochs for less time
    than a longer first schedule: the first pass is bounded by its time budget)."""
    offline_ultralytics(project / "yolocfg", threads)
    from ultralytics import YOLO

    last = project / name / "weights" / "last.pt"
    if last.exists():
        _resume(last)
    else:
        YOLO(str(weights)).train(data=str(data_yaml), epochs=100, time=hours, imgsz=imgsz, batch=batch,
                                 workers=workers, device=device, project=str(project), name=name,
                                 exist_ok=True,
                                 seed=1, deterministic=True, plots=False, amp=False, cache=True,
                                 close_mosaic=2, degrees=10.0, fliplr=0.0, mosaic=1.0, scale=0.5,
                                 translate=0.1, hsv_h=0.02, optimizer="AdamW", lr0=lr0, lrf=0.05,
                                 warmup_epochs=0, verbose=True)
    best = project / name / "weights" / "best.pt"
    return best if best.exists() else last


def export_detector(weights: Path, out: Path, imgsz: int) -> Path:
    """``weights`` as the runtime's ONNX detector at ``out``. ultralytics writes its export beside
    the weights it exports, so a copy of them in a temporary folder is exported: nothing is
    written beside ``weights``, which may be the committed checkpoint next to the shipped
    detector file (``models/corner_detector.pt`` beside ``models/corner_detector.onnx``)."""
    from ultralytics import YOLO

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / Path(weights).name
        shutil.copy2(weights, copy)
        onnx_path = Path(YOLO(str(copy)).export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True,
                                                   opset=17, half=False))
        return raw_head(onnx_path, out)  # which makes out's folder


def raw_head(onnx_path: Path, out: Path) -> Path:
    """Cut the exported graph at the head's last convolutions (box distributions and class logits
    per stride), so that `vision.detect.Detector` decodes in numpy only the cells whose score
    passes: the graph's own decoding (a softmax over every cell's 64 box bins, then the
    concatenations) took about a seventh of the detector's time on a photo."""
    import onnx
    from onnx import utils

    model = onnx.load(str(onnx_path))
    last = {n.name: n.output[0] for n in model.graph.node
            if n.op_type == "Conv" and "/model.22/" in n.name and n.name.endswith("2/Conv")}
    # '/model.22/cv2.0/cv2.0.2/Conv': cv2 = box bins, cv3 = class logits; .0 = stride 8. The
    # runtime reads the outputs as (box, class) pairs, stride by stride.
    heads = [last[k] for k in sorted(last, key=lambda k: (k.split("/")[2][4:], k.split("/")[2][:3]))]
    if len(heads) != 6:
        raise ValueError(f"{onnx_path}: expected the 6 last convolutions of a 3-stride YOLOv8 head, found {len(heads)}")
    out.parent.mkdir(parents=True, exist_ok=True)
    utils.extract_model(str(onnx_path), str(out), [model.graph.input[0].name], heads)
    cut = onnx.load(str(out))
    names = {}
    for k, stride in enumerate((8, 16, 32)):
        names[heads[2 * k]], names[heads[2 * k + 1]] = f"boxes_{stride}", f"classes_{stride}"
    for node in cut.graph.node:
        node.output[:] = [names.get(o, o) for o in node.output]
    for o in cut.graph.output:
        o.name = names[o.name]
    onnx.save(cut, str(out))
    return out
