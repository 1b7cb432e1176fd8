"""Speed of `scan_image` (ONNX models, onnxruntime) next to an untrained YOLOv8n in PyTorch.

    python benchmarks/scan.py [--repeats 20] [--threads 2]

Both run on the same images: a 1200x1200 photo-like scene and 640x480 webcam-like frames
(rendered by vision.synth from a held-out card design), 1280x720 frames of the same scenes (what
the live page sends: `FRAME_MAX_WIDTH` in api/web/app.js), and a 2560x2560 phone-size render whose
corner indices come out small at 416 px, so that the scan makes its second, 640-px detector pass
(`vision.scan.ZOOM_*`). The YOLOv8n column is built from its
yaml with random weights (nothing is downloaded): it is only a speed baseline, timed as model
inference at 640 px the way ultralytics runs it. The column is skipped when torch or ultralytics
are not installed.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2  # noqa: E402


def frame(seed: int, width: int, height: int):
    """A webcam-like frame: the held-out scene of ``seed`` rendered at about ``width`` px and fitted
    to ``width`` x ``height``."""
    from vision.synth.artwork import HELD_OUT
    from vision.synth.scene import render_scene

    img, _ = render_scene(seed, list(HELD_OUT), scale=width / 640)
    return cv2.resize(img, (width, height), interpolation=cv2.INTER_AREA)


def scenes():
    from vision.synth.artwork import HELD_OUT
    from vision.synth.scene import render_scene

    img, _ = render_scene(900_001, list(HELD_OUT))
    photo = cv2.resize(img, (1200, 1200), interpolation=cv2.INTER_CUBIC)
    frames = [frame(FRAME_SEED + k, 640, 480) for k in range(4)]
    live = [frame(FRAME_SEED + k, 1280, 720) for k in range(4)]
    phone, _ = render_scene(PHONE_SEED, list(HELD_OUT), scale=4)
    return photo, frames, live, phone


FRAME_SEED = 900_010  # the first of the four frames
PHONE_SEED = 900_003  # a scene whose indices are small: the scan takes its second pass


def timeit(fn, images, repeats: int) -> float:
    fn(images[0])  # warm up (model load)
    times = []
    for r in range(repeats):
        img = images[r % len(images)]
        t = time.perf_counter()
        fn(img)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000.0


def piki_column(photo, frames, live, phone, repeats):
    from vision.scan import default_detector, scan_image

    det = default_detector()
    boxes, _ = det.detector(phone)
    if not det.needs_zoom(phone, boxes):
        raise SystemExit("the phone-size scene no longer takes the second pass: pick another PHONE_SEED")
    return (timeit(scan_image, [photo], repeats), timeit(scan_image, frames, repeats),
            timeit(scan_image, live, repeats), timeit(scan_image, [phone], max(3, repeats // 4)))


def yolov8n_column(photo, frames, live, phone, repeats, threads):
    try:
        os.environ.setdefault("YOLO_OFFLINE", "true")
        os.environ.setdefault("YOLO_AUTOINSTALL", "false")
        import torch
        from ultralytics import YOLO
    except ImportError:
        return None
    torch.set_num_threads(threads)
    model = YOLO("yolov8n.yaml")  # architecture only, random weights, no download

    def run(img):
        model.predict(img, imgsz=640, device="cpu", verbose=False)

    return (timeit(run, [photo], repeats), timeit(run, frames, repeats), timeit(run, live, repeats),
            timeit(run, [phone], max(3, repeats // 4)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=20)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    os.environ["PIKI_VISION_THREADS"] = str(args.threads)
    cv2.setNumThreads(args.threads)
    photo, frames, live, phone = scenes()
    ours = piki_column(photo, frames, live, phone, args.repeats)
    base = yolov8n_column(photo, frames, live, phone, args.repeats, args.threads)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
          f"{args.threads} threads, Python {platform.python_version()}")
    print(f"{'':28}{'piki scan (onnx)':>18}{'YOLOv8n (torch)':>18}")
    for label, i, fps in (("1200x1200 photo, ms", 0, False), ("640x480 frame, ms", 1, False),
                          ("640x480 frames per second", 1, True), ("1280x720 live-page frame, ms", 2, False),
                          ("2560x2560 phone photo, ms", 3, False)):
        a = ours[i]
        b = base[i] if base else None
        fa = f"{1000.0 / a:.1f}" if fps else f"{a:.1f}"
        fb = "skipped" if b is None else (f"{1000.0 / b:.1f}" if fps else f"{b:.1f}")
        print(f"{label:28}{fa:>18}{fb:>18}")
    if base:
        print(f"speed-up: {base[0] / ours[0]:.1f}x (photo), {base[1] / ours[1]:.1f}x (frame), "
              f"{base[2] / ours[2]:.1f}x (live-page frame), {base[3] / ours[3]:.1f}x (phone photo, two passes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
