"""ImageRecordIter throughput: decode + augment (224x224 random crop, random mirror, mean/std)
of 256x256 JPEGs, images per second, beside 1.9.1's C++ ImageRecordIter with the same threads.

    python benchmark/bench_imagerecorditer.py [--images 500] [--threads 1 2] [--epochs 3]

The .rec file is generated (Pillow, JPEG quality 90) in a temporary directory. The reference
runs in a subprocess of ``.ref/bin/python`` (cwd=/tmp, so this repository's ``mxnet`` is not
imported there) when that interpreter exists. Each measurement reads one warm-up epoch, then
times ``--epochs`` epochs; the best epoch rate is reported.

Note: 1.9.1 caps ``preprocess_threads`` at the number of cores minus one (it logs "use N
threads for decoding"); the table shows the count it actually used.
"""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
REF_PYTHON = ROOT / ".ref" / "bin" / "python"
MAGIC = 0xCED7230A
AUG = dict(data_shape=(3, 224, 224), rand_crop=True, rand_mirror=True, mean_r=123.68,
           mean_g=116.779, mean_b=103.939, std_r=58.393, std_g=57.12, std_b=57.375)


def make_rec(path, n, size=256, quality=90, seed=0):
    """``n`` JPEGs of size x size (smooth colour fields with noise, like photos compress)."""
    from PIL import Image
    rs = np.random.RandomState(seed)
    yy, xx = np.mgrid[0:size, 0:size].astype(np.float32) / size
    with open(path, "wb") as f:
        for i in range(n):
            a, b, c = rs.uniform(0, 6.28, 3)
            img = np.stack([np.sin(xx * 7 + a) + np.cos(yy * 5 + b),
                            np.sin((xx + yy) * 4 + c), np.cos(xx * 3 - yy * 9 + a)], -1)
            img = (img - img.min()) / (np.ptp(img) + 1e-6) * 200 + rs.normal(0, 12, img.shape)
            buf = io.BytesIO()
            Image.fromarray(np.clip(img, 0, 255).astype(np.uint8)).save(buf, "JPEG", quality=quality)
            rec = struct.pack("IfQQ", 0, float(i % 1000), i, 0) + buf.getvalue()
            f.write(struct.pack("<II", MAGIC, len(rec)))
            f.write(rec + b"\x00" * ((-len(rec)) % 4))


def measure(mx, rec, threads, batch_size, epochs):
    it = mx.io.ImageRecordIter(path_imgrec=rec, batch_size=batch_size, preprocess_threads=threads,
                               prefetch_buffer=4, **AUG)
    for _ in it:  # warm-up epoch
        pass
    rates = []
    for _ in range(epochs):
        it.reset()
        n = 0
        t0 = time.perf_counter()
        for b in it:
            b.data[0].wait_to_read()
            n += b.data[0].shape[0] - b.pad
        rates.append(n / (time.perf_counter() - t0))
    return max(rates)


def run_reference(rec, threads, batch_size, epochs):
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r}); "
            f"import bench_imagerecorditer as b, mxnet as mx, json; "
            f"print('RESULT', json.dumps(b.measure(mx, {rec!r}, {threads}, {batch_size}, {epochs})))")
    env = dict(os.environ, MXNET_ENGINE_TYPE="NaiveEngine")
    out = subprocess.run([str(REF_PYTHON), "-c", code], cwd="/tmp", capture_output=True, text=True,
                         env=env, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError(f"reference run failed:\n{out.stderr[-2000:]}")
    rate = float(out.stdout.split("RESULT", 1)[1])
    used = re.findall(r"use (\d+) threads for decoding", out.stderr)
    return rate, int(used[-1]) if used else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--images", type=int, default=500)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--no-ref", action="store_true", help="skip the 1.9.1 reference runs")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    import mxnet as mx

    with tempfile.TemporaryDirectory() as d:
        rec = os.path.join(d, "bench.rec")
        make_rec(rec, args.images)
        print(f"{args.images} JPEGs 256x256 ({os.path.getsize(rec) / 1e6:.1f} MB), batch "
              f"{args.batch_size}, 224x224 rand_crop + rand_mirror + mean/std; os.cpu_count()="
              f"{os.cpu_count()}")
        print(f"{'threads':>8} {'mxnet-py img/s':>15} {'1.9.1 img/s':>12} {'1.9.1 threads':>14} "
              f"{'ratio':>6}")
        results = []
        for t in args.threads:
            ours = measure(mx, rec, t, args.batch_size, args.epochs)
            ref, used = (None, None)
            if not args.no_ref and REF_PYTHON.exists():
                ref, used = run_reference(rec, t, args.batch_size, args.epochs)
            ratio = f"{ours / ref:6.2f}" if ref else "     -"
            print(f"{t:>8} {ours:>15.1f} {ref if ref else float('nan'):>12.1f} "
                  f"{used if used else '-':>14} {ratio}")
            results.append({"threads": t, "mxnet_py": ours, "ref": ref, "ref_threads_used": used})
        print(json.dumps(results))


if __name__ == "__main__":
    main()
