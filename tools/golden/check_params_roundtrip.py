"""Check that MXNet 1.9.1 reads the ``.params`` files our codec writes.

Two steps, two interpreters:

    # 1. with mxnet-py (repository root on the path): write files + expected.json
    python tools/golden/check_params_roundtrip.py write /tmp/params_rt
    # 2. with the reference MXNet 1.9.1: load every file and compare
    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/check_params_roundtrip.py \\
        check /tmp/params_rt

``check`` works on any directory holding ``*.params`` files and an ``expected.json``
in the manifest format of ``gen_params.py``: for each file it compares names, dtypes,
shapes and raw values with what ``mx.nd.load`` returns, and also checks that 1.9.1's
own ``mx.nd.save`` of those arrays (on the recorded CPU contexts) gives the same bytes.
Files listed with ``"oracle_fails": true`` must be rejected by 1.9.1 instead.
It exits non-zero on the first mismatch.
"""
from __future__ import annotations

import json
import os
import sys

import numpy as np

BF16_NAME = "bfloat16"


# ------------------------------------------------------------------ write (mxnet-py side)

def _entry(name, arr, dev_type, dev_id):
    return {"name": name, "dtype": BF16_NAME if arr.dtype.name == BF16_NAME else arr.dtype.name,
            "shape": list(arr.shape), "dev_type": dev_type, "dev_id": dev_id,
            "stype": "default", "hex": np.ascontiguousarray(arr).tobytes().hex()}


def write(outdir):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    import importlib
    ser = importlib.import_module("mxnet.ndarray.serialization")
    base = importlib.import_module("mxnet.base")

    os.makedirs(outdir, exist_ok=True)
    files = {}

    def emit(fname, records, names=None, oracle_fails=False):
        ser.write_file_atomic(os.path.join(outdir, fname), ser.encode(records, names))
        files[fname] = {"kind": "dict" if names else "list", "oracle_fails": oracle_fails,
                        "arrays": [_entry(n, a, t, i) for n, (a, t, i)
                                   in zip(names or [None] * len(records), records)]}

    rng = np.random.default_rng(0)
    dtypes = ["float32", "float64", "float16", "uint8", "int8", "int32", "int64", "bool"]
    recs = [((rng.standard_normal((2, 3)) * 100).astype(dt), 1, 0) for dt in dtypes]
    emit("ours_dtypes_dict.params", recs, [f"arr_{dt}" for dt in dtypes])
    if 12 in base.CODE_TO_DTYPE:
        bf = np.array([1.0, -2.5, 0.0, 3e38], np.float32).astype(base.CODE_TO_DTYPE[12])
        emit("ours_bfloat16.params", [(bf, 1, 0)])
    shapes = [(5,), (2, 3), (2, 3, 4), (1, 2, 3, 4), (0,), (3, 0, 2)]
    emit("ours_shapes_list.params",
         [(np.arange(int(np.prod(s)), dtype=np.float32).reshape(s), 1, 0) for s in shapes])
    emit("ours_contexts.params",
         [(np.ones(2, np.float32), 1, 1), (np.zeros(3, np.int32), 3, 0),
          (np.full(1, 7, np.int64), 1, 0)], ["cpu1", "pinned", "cpu0"])
    emit("ours_empty_list.params", [])
    emit("ours_names.params", [(np.ones(1, np.float32), 1, 0)] * 3,
         ["arg:fc_weight", "gewicht_\u00e4\u00df", ""])
    # 0-d arrays: written as 1.9.1 writes them, which 1.9.1 cannot read back.
    emit("ours_scalar.params", [(np.array(1.5, np.float32), 1, 0)], oracle_fails=True)

    # Every golden fixture, decoded and re-encoded (sparse ones come back dense).
    golden = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests",
                          "golden", "params")
    with open(os.path.join(golden, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)["files"]
    for fname, info in sorted(manifest.items()):
        if any(e["dtype"] == BF16_NAME for e in info["arrays"]) and 12 not in base.CODE_TO_DTYPE:
            continue
        with open(os.path.join(golden, fname), "rb") as f:
            records, names = ser.decode(f.read())
        fails = any(a.ndim == 0 for a, _, _ in records)
        emit("reenc_" + fname, records, names, oracle_fails=fails)

    with open(os.path.join(outdir, "expected.json"), "w", encoding="utf-8") as f:
        json.dump({"files": files}, f, indent=1, ensure_ascii=False)
    print(f"wrote {len(files)} files to {outdir}")
    return 0


# ------------------------------------------------------------------ check (1.9.1 side)

def check(indir):
    import mxnet as mx
    bf16 = np.dtype([("bfloat16", np.uint16)])
    devs = {1: mx.cpu, 3: mx.cpu_pinned}

    with open(os.path.join(indir, "expected.json"), encoding="utf-8") as f:
        files = json.load(f)["files"]
    failures = 0
    for fname, info in sorted(files.items()):
        path = os.path.join(indir, fname)
        try:
            got = mx.nd.load(path)
        except Exception as err:  # noqa: BLE001
            if info.get("oracle_fails"):
                print(f"ok   {fname}: rejected by 1.9.1 as expected ({type(err).__name__})")
                continue
            print(f"FAIL {fname}: 1.9.1 cannot load it: {err}")
            failures += 1
            continue
        problems = []
        if info.get("oracle_fails"):
            problems.append("1.9.1 loaded a file it was expected to reject")
        entries = info["arrays"]
        if info["kind"] == "dict":
            if not isinstance(got, dict) or list(got) != [e["name"] for e in entries]:
                problems.append(f"names differ: {list(got) if isinstance(got, dict) else got}")
            values = list(got.values()) if isinstance(got, dict) else []
        else:
            values = got if isinstance(got, list) else []
        if len(values) != len(entries):
            problems.append(f"{len(values)} arrays, expected {len(entries)}")
        for v, e in zip(values, entries):
            name = "bfloat16" if v.dtype == bf16 else np.dtype(v.dtype).name
            if name != e["dtype"] or list(v.shape) != e["shape"]:
                problems.append(f"{e['name']}: {name}{v.shape}, expected {e['dtype']}{e['shape']}")
            elif v.asnumpy().tobytes() != bytes.fromhex(e["hex"]):
                problems.append(f"{e['name']}: values differ")
        if not problems and all(e["dev_type"] in devs for e in entries):
            # 1.9.1 re-saving the same arrays on the same contexts must give our bytes.
            moved = [v.as_in_context(devs[e["dev_type"]](e["dev_id"]))
                     for v, e in zip(values, entries)]
            tmp = path + ".oracle"
            if info["kind"] == "dict":
                mx.nd.save(tmp, dict(zip([e["name"] for e in entries], moved)))
            else:
                mx.nd.save(tmp, moved)
            with open(tmp, "rb") as a, open(path, "rb") as b:
                if a.read() != b.read():
                    problems.append("1.9.1's own save of these arrays gives different bytes")
            os.remove(tmp)
        if problems:
            failures += 1
            print(f"FAIL {fname}: " + "; ".join(problems))
        else:
            print(f"ok   {fname}: {len(entries)} arrays")
    print(f"{len(files) - failures}/{len(files)} files ok")
    return 1 if failures else 0


def main(argv):
    if len(argv) != 3 or argv[1] not in ("write", "check"):
        print(__doc__)
        return 2
    return write(argv[2]) if argv[1] == "write" else check(argv[2])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
