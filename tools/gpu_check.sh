#!/usr/bin/env bash
# The prepared GPU check (issue 8): rerun the test suite with the default context on gpu(0),
# then the GPU benchmarks, and write a report to $OUT (default ./out/gpu_check).
# On a machine without a GPU (or without CuPy) it says so and exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-out/gpu_check}"
mkdir -p "$OUT"
if ! python -c "import mxnet as mx, sys; sys.exit(0 if mx.context.num_gpus() > 0 else 1)" 2>/dev/null; then
    echo "gpu_check: no GPU visible to CuPy (or CuPy missing); nothing to do." | tee "$OUT/summary.txt"
    exit 0
fi
nvidia-smi > "$OUT/nvidia-smi.txt" 2>&1 || true
MXNET_TEST_DEVICE="gpu(0)" timeout 420 python -m pytest -q --maxfail=200 -p no:cacheprovider \
    > "$OUT/pytest.txt" 2>&1
rc=$?
for b in benchmark/bench_gpu*.py; do
    [ -f "$b" ] && timeout 60 python "$b" > "$OUT/$(basename "$b" .py).txt" 2>&1
done
{
    echo "gpu_check: pytest exit code $rc"
    tail -n 3 "$OUT/pytest.txt"
} | tee "$OUT/summary.txt"
exit 0
