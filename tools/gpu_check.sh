#!/usr/bin/env bash
# The prepared GPU check (issue 8). On a machine with a GPU it
#   1. reruns the whole test suite with the default context switched to gpu(0)
#      (MXNET_TEST_DEVICE, see tests/conftest.py), in parallel with pytest-xdist and with a
#      per-test time limit when those plugins are installed;
#   2. runs the GPU benchmarks (benchmark/bench_gpu*.py), which CI never runs;
#   3. writes a summary.
# Everything goes to $OUT (default ./out/gpu_check): summary.txt, pytest.txt, bench_gpu.txt,
# nvidia-smi.txt, gpu_profile.txt (where a GPU step spends its time). It fits in about 8 minutes: GPU_CHECK_TEST_TIMEOUT (default 270 s) bounds
# the tests and GPU_CHECK_BENCH_TIMEOUT (default 180 s) the benchmarks.
# On a machine without a GPU (or without CuPy) it says so and exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-out/gpu_check}"
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
PY="${PYTHON:-python3}"
if ! "$PY" -c "import mxnet as mx, sys; sys.exit(0 if mx.context.num_gpus() > 0 else 1)" 2>/dev/null; then
    echo "gpu_check: no GPU visible to CuPy (or CuPy missing); nothing to do." | tee "$OUT/summary.txt"
    exit 0
fi
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || true
"$PY" -c "import sys, numpy, cupy; print(sys.version); print('numpy', numpy.__version__, 'cupy', cupy.__version__)" \
    >> "$OUT/nvidia-smi.txt" 2>&1

extra=()
if "$PY" -c "import xdist" 2>/dev/null; then
    extra+=(-n "${GPU_CHECK_WORKERS:-8}")
fi
if "$PY" -c "import pytest_timeout" 2>/dev/null; then
    extra+=(--timeout "${GPU_CHECK_PER_TEST:-120}")
fi
t0=$(date +%s)
MXNET_TEST_DEVICE="gpu(0)" timeout "${GPU_CHECK_TEST_TIMEOUT:-270}" \
    "$PY" -m pytest -p no:cacheprovider -rfE --durations=20 "${extra[@]}" "$@" \
    > "$OUT/pytest.txt" 2>&1
rc=$?
t1=$(date +%s)

for b in benchmark/bench_gpu*.py; do
    [ -f "$b" ] || continue
    timeout "${GPU_CHECK_BENCH_TIMEOUT:-180}" "$PY" "$b" --timeout 100 \
        > "$OUT/$(basename "$b" .py).txt" 2>&1
done
timeout "${GPU_CHECK_PROFILE_TIMEOUT:-90}" "$PY" tools/gpu_profile.py --workloads mlp,resnet18 \
    > "$OUT/gpu_profile.txt" 2>&1
t2=$(date +%s)
{
    echo "gpu_check: pytest exit code $rc ($((t1 - t0)) s; 124 means the time limit cut it)"
    grep -E "^(FAILED|ERROR) " "$OUT/pytest.txt" | head -n 60
    tail -n 1 "$OUT/pytest.txt"
    echo "benchmarks: $((t2 - t1)) s"
    cat "$OUT"/bench_gpu*.txt 2>/dev/null | grep -v "^#"
} | tee "$OUT/summary.txt"
exit 0
