#!/usr/bin/env bash
# Train the corner detector on a lent GPU machine and bring the ONNX file back (device tool).
#
# Prepare once, here (the GPU machine has torch and OpenCV but not ultralytics, and no network):
#   echo /.whl/ >> .git/info/exclude
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#     --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
#     -d .whl ultralytics==8.4.190 ultralytics-thop==2.2.3 ultralytics-platform==0.1.99 onnxslim==0.1.98
# (polars, which ultralytics lists too, is 54 MB: over what a call may carry with the repo. The
# stand-in in scripts/gpu_stubs serves the one read training makes, inside a try.)
# Then run it there in one call, with the wheels carried (a call may run 10 minutes: about 2 for
# the scenes on 16 cores, 5 for training, 1 for the export):
#   run(command="bash scripts/gpu_train.sh", carry=[".whl"], timeout_s=600)
# and copy the returned corner_detector.onnx over models/ after checking it here:
#   python -m vision.evaluate --render 200
#
# SCENES, VAL_SCENES, HOURS, IMGSZ and BATCH override the sizes below (POLARS_STUB=1 forces the
# stand-in); with no GPU the same script trains on
# the CPU (only useful as a smoke test: SCENES=16 VAL_SCENES=8 HOURS=0.003 bash scripts/gpu_train.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -d .whl ] && ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
        --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site:${PYTHONPATH:-}
fi
PY=${PYTHON:-python3}
if ! "$PY" -c "import polars" 2>/dev/null || [ -n "${POLARS_STUB:-}" ]; then
    export PYTHONPATH=$PWD/scripts/gpu_stubs:${PYTHONPATH:-}
fi
export PYTHONPATH=$PWD:${PYTHONPATH:-} PYTHONUNBUFFERED=1
OUT_DIR=${OUT:-$PWD/runs/gpu-out}
mkdir -p "$OUT_DIR"
THREADS=$(nproc)
# Scenes are written by all cores; the detector trains at the run-time pixel scale from the start
# (IMGSZ 480 against 416 at run time: the small indices stay sharp), with the data loaded in
# parallel. The classifiers are left as they are (they train on the CPU), and so is the zone model
# (it reads scenes through the classifiers, which the export directory here does not hold).
"$PY" -m vision.train --out /tmp/piki-gpu --scenes "${SCENES:-5000}" --val-scenes "${VAL_SCENES:-300}" \
    --threads "$THREADS" --device auto --workers "$(( THREADS > 8 ? 8 : THREADS ))" \
    --imgsz "${IMGSZ:-480}" --batch "${BATCH:-64}" --hours "${HOURS:-0.08}" \
    --finetune-hours 0 --refine-hours 0 --skip-classifier --zone-scenes 0 --export-dir "$OUT_DIR" 2>&1 \
    | tee "$OUT_DIR/train.log"
cp /tmp/piki-gpu/detector/results.csv "$OUT_DIR/" 2>/dev/null || true
ls -la "$OUT_DIR"
