"""Record the golden NDArray cases under the reference MXNet 1.9.1.

Run with the reference interpreter (never with this repository's mxnet)::

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_ndarray_cases.py

It evaluates every snippet of ``tools/golden/ndarray_cases.py`` and writes

* ``tests/golden/ndarray_cases.json`` -- per case: the snippet, and either the
  exception it raised or a structural description of ``result``;
* ``tests/golden/ndarray_cases.npz`` -- the exact values of every array in the
  results, keyed by the names the JSON refers to.

Snippets run in worker subprocesses, so a case that kills the interpreter
(e.g. a native crash) is recorded as ``"crash"`` and the remaining cases still
run.  The generator refuses to run against anything but MXNet 1.9.1.
"""
from __future__ import annotations

import argparse
import builtins
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TABLE_PATH = HERE / "ndarray_cases.py"
OUT_JSON = REPO / "tests" / "golden" / "ndarray_cases.json"
OUT_NPZ = REPO / "tests" / "golden" / "ndarray_cases.npz"
FORMAT_VERSION = 1


def load_table():
    spec = importlib.util.spec_from_file_location("golden_ndarray_cases", TABLE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----------------------------------------------------------------- encoding
class Encoder:
    """Turn a case result into JSON-able data plus a dict of named arrays."""

    def __init__(self, mx, np, prefix):
        self.mx, self.np, self.prefix = mx, np, prefix
        self.arrays = {}

    def _store(self, arr):
        key = f"{self.prefix}_{len(self.arrays)}"
        self.arrays[key] = arr
        return key

    def encode(self, value):
        mx, np = self.mx, self.np
        if isinstance(value, mx.nd.NDArray):
            arr = value.asnumpy()  # forces evaluation; may raise
            return {"kind": "ndarray", "dtype": np.dtype(value.dtype).name,
                    "shape": list(value.shape), "context": str(value.context),
                    "stype": value.stype, "array": self._store(arr)}
        if isinstance(value, np.ndarray):
            return {"kind": "numpy", "dtype": value.dtype.name, "shape": list(value.shape),
                    "array": self._store(value.copy())}
        if isinstance(value, np.generic):
            return {"kind": "npscalar", "dtype": value.dtype.name, "value": value.item()}
        if isinstance(value, mx.Context):
            return {"kind": "context", "value": str(value)}
        if isinstance(value, np.dtype) or (isinstance(value, type) and issubclass(value, np.generic)):
            return {"kind": "dtype", "form": "dtype" if isinstance(value, np.dtype) else "type",
                    "name": np.dtype(value).name}
        if value is None or isinstance(value, (bool, int, float, str)):
            return {"kind": "py", "type": type(value).__name__, "value": value}
        if isinstance(value, (list, tuple)):
            return {"kind": type(value).__name__, "items": [self.encode(v) for v in value]}
        raise TypeError(f"golden case result of unsupported type {type(value).__name__}")


def describe_error(exc, mx):
    builtin = next((c.__name__ for c in type(exc).__mro__
                    if c.__module__ == "builtins" and getattr(builtins, c.__name__, None) is c), None)
    return {"type": type(exc).__name__, "mxnet_error": isinstance(exc, mx.base.MXNetError),
            "builtin": builtin}


def _headline(exc):
    """The informative line of an error message (shown by --show, never stored)."""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    picked = [ln for ln in lines if "Error" in ln or "Check failed" in ln]
    return (picked or lines or [""])[0][:200]


# ------------------------------------------------------------------- worker
def worker(start, workdir):
    """Evaluate cases from index ``start`` on, one JSON line per case."""
    os.environ.setdefault("MXNET_ENGINE_TYPE", "NaiveEngine")
    # never pick up this repository's mxnet: drop the repo from the path
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != REPO]
    import numpy as np
    import mxnet as mx
    if getattr(mx, "__version__", None) != "1.9.1" or not hasattr(mx.base, "_LIB"):
        raise SystemExit(f"reference MXNet 1.9.1 required, got {mx.__file__}")
    table = load_table()
    cases = table.CASES
    progress = open(Path(workdir) / "progress.txt", "a", buffering=1)
    results = open(Path(workdir) / "results.jsonl", "a", buffering=1)
    for idx in range(start, len(cases)):
        case_id, code = cases[idx]
        progress.write(f"{idx}\n")
        enc = Encoder(mx, np, f"c{idx:04d}")
        try:
            value = table.evaluate(code, mx, np)
            rec = {"outcome": "value", "value": enc.encode(value)}
            mx.nd.waitall()
        except Exception as exc:  # noqa: BLE001 - recording any failure is the point
            enc.arrays.clear()
            rec = {"outcome": "error", "error": describe_error(exc, mx), "message": _headline(exc)}
        if mx.autograd.is_recording() or mx.autograd.is_training():
            mx.autograd.set_recording(False)
            mx.autograd.set_training(False)
        if enc.arrays:
            np.savez(Path(workdir) / f"arrays_{idx:04d}.npz", **enc.arrays)
        results.write(json.dumps({"index": idx, "id": case_id, **rec}, allow_nan=True) + "\n")
    return 0


# ------------------------------------------------------------------- parent
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", type=int, metavar="START", help=argparse.SUPPRESS)
    ap.add_argument("--workdir", help=argparse.SUPPRESS)
    ap.add_argument("--show", action="store_true", help="print a one-line summary per case")
    args = ap.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker, args.workdir)

    import numpy as np

    cases = load_table().CASES
    env = dict(os.environ, MXNET_ENGINE_TYPE="NaiveEngine")
    records = {}
    with tempfile.TemporaryDirectory() as workdir:
        wd = Path(workdir)
        start = 0
        while start < len(cases):
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", str(start),
                                   "--workdir", workdir], env=env, cwd=str(HERE),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            done = [json.loads(line) for line in (wd / "results.jsonl").read_text().splitlines()] \
                if (wd / "results.jsonl").exists() else []
            for rec in done:
                records[rec["index"]] = rec
            if proc.returncode == 0 and len(records) == len(cases):
                break
            begun = [int(s) for s in (wd / "progress.txt").read_text().split()] \
                if (wd / "progress.txt").exists() else []
            crashed = begun[-1] if begun else None
            if crashed is None or crashed in records:
                sys.stderr.write(proc.stdout)
                raise SystemExit(f"worker failed (rc={proc.returncode}) outside any case")
            sys.stderr.write(f"case {cases[crashed][0]} crashed the interpreter (rc={proc.returncode})\n")
            records[crashed] = {"index": crashed, "id": cases[crashed][0], "outcome": "crash"}
            with open(wd / "results.jsonl", "a") as fh:
                fh.write(json.dumps(records[crashed]) + "\n")
            start = crashed + 1

        arrays = {}
        for idx in sorted(records):
            path = wd / f"arrays_{idx:04d}.npz"
            if path.exists():
                with np.load(path, allow_pickle=False) as z:
                    arrays.update({k: z[k] for k in z.files})

    out = {"format": FORMAT_VERSION, "mxnet_version": "1.9.1", "numpy_version": np.__version__,
           "generator": "tools/golden/gen_ndarray_cases.py", "cases": {}}
    messages = {}
    for idx, (case_id, code) in enumerate(cases):
        rec = dict(records[idx])
        rec.pop("index")
        rec.pop("id")
        # the reference's own wording stays out of the fixture; only the class matters
        messages[case_id] = rec.pop("message", "")
        out["cases"][case_id] = {"code": code, **rec}
    OUT_JSON.parent.mkdir(parents=True, exist_ok=True)
    OUT_JSON.write_text(json.dumps(out, indent=1, sort_keys=False, allow_nan=True) + "\n")
    _write_npz(OUT_NPZ, arrays)

    n_err = sum(1 for r in out["cases"].values() if r["outcome"] == "error")
    n_crash = sum(1 for r in out["cases"].values() if r["outcome"] == "crash")
    print(f"{len(cases)} cases: {len(cases) - n_err - n_crash} values, {n_err} errors, "
          f"{n_crash} crashes -> {OUT_JSON.relative_to(REPO)}, {OUT_NPZ.relative_to(REPO)}")
    if args.show:
        for case_id, rec in out["cases"].items():
            print(case_id, "::", _summary(rec, arrays), messages[case_id])
    return 0


def _write_npz(path, arrays):
    """Like np.savez_compressed, but byte-for-byte reproducible (fixed zip timestamps)."""
    import io
    import zipfile

    import numpy as np

    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for key in sorted(arrays):
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.array(arrays[key], order="C"), allow_pickle=False)
            info = zipfile.ZipInfo(f"{key}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, buf.getvalue())


def _summary(rec, arrays):
    if rec["outcome"] != "value":
        return rec["outcome"] + " " + json.dumps(rec.get("error"))

    def show(v):
        k = v["kind"]
        if k in ("ndarray", "numpy"):
            a = arrays[v["array"]]
            extra = f" {v['context']}" if k == "ndarray" else " (numpy)"
            return f"{v['dtype']}{tuple(v['shape'])}{extra} {a.tolist()!r}"[:300]
        if k in ("list", "tuple"):
            return k + "[" + ", ".join(show(i) for i in v["items"]) + "]"
        if k == "py":
            return f"{v['type']}:{v['value']!r}"
        if k == "npscalar":
            return f"np.{v['dtype']}:{v['value']!r}"
        if k == "dtype":
            return f"{v['form']}:{v['name']}"
        return f"{k}:{v.get('value')}"
    return show(rec["value"])


if __name__ == "__main__":
    sys.exit(main())
