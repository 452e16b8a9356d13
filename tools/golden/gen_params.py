"""Write the ``.params`` fixtures in ``tests/golden/params/`` with the reference MXNet 1.9.1.

Run it under the reference venv, from the repository root:

    MXNET_ENGINE_TYPE=NaiveEngine .ref/bin/python tools/golden/gen_params.py

Every file is loaded back with 1.9.1 and checked against the values we meant to
store; what 1.9.1 returns (list or dict, contexts, storage types, or the error it
raises) is recorded in ``manifest.json`` next to the files.

1.9.1 only writes V2 (and V3 through ``npx.save``). The V1 and V0 files are built
here from the documented layout, and 1.9.1's ``mx.nd.load`` must accept them.

Manifest entry per file::

    {"writer": "mx.nd.save" | "mx.npx.save" | "handmade",
     "kind": "list" | "dict", "version": "V2" | "V3" | "V1" | "V0" | "mixed",
     "byte_identical": true when our encoder must reproduce the file exactly,
     "size": bytes, "sha256": hex digest,
     "arrays": [{"name": str | null, "dtype": str, "shape": [...],
                 "dev_type": int, "dev_id": int, "stype": "default" | "row_sparse" | "csr",
                 "hex": little-endian C-order bytes of the dense value,
                 or "recipe": "arange" (np.arange(size).reshape(shape).astype(dtype))}],
     "oracle_load": {"ok": true, "type": "list" | "dict", "contexts": [...],
                     "stypes": [...]} | {"ok": false, "error": str}}
"""
from __future__ import annotations

import hashlib
import json
import os
import struct
import sys

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden",
                   "params")
BF16 = np.dtype([("bfloat16", np.uint16)])  # how 1.9.1's Python spells bfloat16
TYPE_FLAG = {"float32": 0, "float64": 1, "float16": 2, "uint8": 3, "int32": 4, "int8": 5,
             "int64": 6, "bool": 7}
DEV = {"cpu": 1, "gpu": 2, "cpu_pinned": 3, "cpu_shared": 5}
V1_MAGIC, V2_MAGIC = 0xF993FAC8, 0xF993FAC9

manifest = {"format": 1, "mxnet_version": mx.__version__, "files": {}}


# ----------------------------------------------------------------- helpers

def dtype_name(dt):
    return "bfloat16" if np.dtype(dt) == BF16 else np.dtype(dt).name


def entry(name, value, dev_type=1, dev_id=0, stype="default", recipe=None):
    """Describe one expected array; ``value`` is its dense NumPy value."""
    e = {"name": name, "dtype": dtype_name(value.dtype), "shape": list(value.shape),
         "dev_type": dev_type, "dev_id": dev_id, "stype": stype}
    if recipe == "arange":
        want = np.arange(value.size).reshape(value.shape).astype(value.dtype)
        assert want.tobytes() == value.tobytes()
        e["recipe"] = "arange"
    else:
        e["hex"] = np.ascontiguousarray(value).tobytes().hex()
    return e


def loaded_bytes(nd):
    if nd.stype != "default":
        nd = nd.tostype("default")
    return nd.asnumpy().tobytes()


def expected_bytes(e):
    if "hex" in e:
        return bytes.fromhex(e["hex"])
    dt = BF16 if e["dtype"] == "bfloat16" else np.dtype(e["dtype"])
    return np.arange(int(np.prod(e["shape"]))).astype(dt).tobytes()


def oracle_load(path, entries, kind, np_semantics=False):
    """Load ``path`` with 1.9.1, compare with ``entries`` and describe the result."""
    try:
        if np_semantics:
            mx.npx.set_np()
            try:
                got = mx.npx.load(path)
            finally:
                mx.npx.reset_np()
        else:
            got = mx.nd.load(path)
    except Exception as err:  # noqa: BLE001 - we record whatever 1.9.1 raises
        msg = str(err).strip().splitlines()
        return {"ok": False, "error_type": type(err).__name__, "error": msg[-1] if msg else ""}
    if isinstance(got, dict):
        values = list(got.values())
        names = list(got.keys())
        assert kind == "dict", (path, "1.9.1 returned a dict")
        assert names == [e["name"] for e in entries], (path, names)
    else:
        values = got
        assert kind == "list", (path, "1.9.1 returned a list")
    assert len(values) == len(entries), path
    for e, v in zip(entries, values):
        assert dtype_name(v.dtype) == e["dtype"], (path, e["name"], v.dtype)
        assert list(v.shape) == e["shape"], (path, e["name"], v.shape)
        assert loaded_bytes(v) == expected_bytes(e), (path, e["name"])
        assert v.stype == (e["stype"] if not np_semantics else "default"), (path, v.stype)
    return {"ok": True, "type": "dict" if isinstance(got, dict) else "list",
            "contexts": [str(v.context) for v in values],
            "stypes": [v.stype for v in values]}


def record(fname, writer, kind, version, entries, byte_identical, np_semantics=False):
    path = os.path.join(OUT, fname)
    with open(path, "rb") as f:
        raw = f.read()
    manifest["files"][fname] = {
        "writer": writer, "kind": kind, "version": version,
        "byte_identical": byte_identical, "size": len(raw),
        "sha256": hashlib.sha256(raw).hexdigest(), "arrays": entries,
        "oracle_load": oracle_load(path, entries, kind, np_semantics)}
    if np_semantics:  # also record that the legacy loader refuses V3
        manifest["files"][fname]["oracle_nd_load"] = oracle_load(path, entries, kind)
    print(f"{fname}: {len(raw)} bytes, 1.9.1 load: {manifest['files'][fname]['oracle_load']}")


def nd_save(fname, data, version="V2", byte_identical=True, specs=None):
    """Save ``data`` with mx.nd.save; ``specs`` gives per array (np value, ctx, recipe)."""
    if isinstance(data, dict):
        mx.nd.save(os.path.join(OUT, fname), data)
        kind = "dict" if data else "list"  # 1.9.1 writes an empty dict as an empty list
        names = list(data)
    else:
        mx.nd.save(os.path.join(OUT, fname), data)
        kind = "list"
        names = [None] * len(data)
    entries = [entry(n, *s) for n, s in zip(names, specs)]
    record(fname, "mx.nd.save", kind, version, entries, byte_identical)


def dense(value, ctx=None, recipe=None):
    """An mx.nd array holding ``value`` on ``ctx``, plus its manifest spec."""
    ctx = ctx or mx.cpu(0)
    nd = mx.nd.array(value, ctx=ctx, dtype=value.dtype)
    spec = (value, DEV[ctx.device_type], ctx.device_id, "default", recipe)
    return nd, spec


def arange(shape, dtype="float32", ctx=None):
    value = np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)
    return dense(value, ctx, recipe="arange")


# ----------------------------------------------------------------- hand-built layouts

def v0_record(value, dev_type=1, dev_id=0):
    """Legacy V0 record: u32 ndim, u32 dims, context, type flag, data."""
    return (struct.pack(f"<I{value.ndim}I", value.ndim, *value.shape)
            + struct.pack("<iii", dev_type, dev_id, TYPE_FLAG[value.dtype.name])
            + np.ascontiguousarray(value).tobytes())


def v1_record(value, dev_type=1, dev_id=0):
    """V1 record: magic, i32 ndim, i64 dims, context, type flag, data."""
    return (struct.pack(f"<Ii{value.ndim}q", V1_MAGIC, value.ndim, *value.shape)
            + struct.pack("<iii", dev_type, dev_id, TYPE_FLAG[value.dtype.name])
            + np.ascontiguousarray(value).tobytes())


def v2_record(value, dev_type=1, dev_id=0):
    return (struct.pack(f"<Iii{value.ndim}q", V2_MAGIC, 0, value.ndim, *value.shape)
            + struct.pack("<iii", dev_type, dev_id, TYPE_FLAG[value.dtype.name])
            + np.ascontiguousarray(value).tobytes())


def container(records, names=None):
    out = [struct.pack("<QQQ", 0x112, 0, len(records))] + list(records)
    names = names or []
    out.append(struct.pack("<Q", len(names)))
    for n in names:
        raw = n.encode("utf-8")
        out.append(struct.pack("<Q", len(raw)) + raw)
    return b"".join(out)


def handmade(fname, version, values, names=None, ctxs=None, recipes=None):
    builder = {"V0": v0_record, "V1": v1_record, "V2": v2_record}
    ctxs = ctxs or [(1, 0)] * len(values)
    recipes = recipes or [None] * len(values)
    versions = version if isinstance(version, list) else [version] * len(values)
    recs = [builder[v](x, *c) for v, x, c in zip(versions, values, ctxs)]
    with open(os.path.join(OUT, fname), "wb") as f:
        f.write(container(recs, names))
    entries = [entry(n, x, c[0], c[1], "default", r)
               for n, x, c, r in zip(names or [None] * len(values), values, ctxs, recipes)]
    record(fname, "handmade", "dict" if names else "list",
           "mixed" if isinstance(version, list) else version, entries,
           byte_identical=False)


# ----------------------------------------------------------------- the fixtures

def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".params") or f == "manifest.json":
            os.remove(os.path.join(OUT, f))

    # A list file, 1-D to 4-D.
    items = [arange((6,)),
             dense(np.array([[0.5, -1.25, 2.0], [3.5, -4.75, 1e-3]], np.float32)),
             arange((2, 3, 4)),
             dense((-np.arange(12, dtype=np.float32) / 4).reshape(1, 2, 3, 2))]
    nd_save("list_basic.params", [i[0] for i in items], specs=[i[1] for i in items])

    # A dict file, with the key styles MXNet uses and a non-ASCII key.
    items = {"arg:fc1_weight": arange((4, 3)),
             "aux:bn_moving_var": dense(np.array([1.0, 0.25, 9.5], np.float32)),
             "features.0.bias": arange((2, 2, 2, 2), "float64"),
             "gewicht_\u00e4\u00df": dense(np.array([7], np.int32)),
             "": dense(np.array([-1.5], np.float32))}
    nd_save("dict_basic.params", {k: v[0] for k, v in items.items()},
            specs=[v[1] for v in items.values()])

    # Every dtype 1.9.1 can create and save (int16/uint16/uint32/uint64 cannot be
    # made from Python: its dtype table lacks them, and its loader rejects their
    # type flags 8-11). Edge values included.
    f32 = np.array([0.0, -0.0, 1.5, -2.25, np.inf, -np.inf, np.nan, 3.4028235e38, 1e-45],
                   np.float32)
    f64 = np.array([0.0, -0.0, np.pi, np.inf, -np.inf, np.nan, 1e308, 5e-324], np.float64)
    f16 = np.array([0.0, -0.0, 65504.0, -65504.0, 6e-8, np.inf, np.nan, 0.333], np.float16)
    items = {"float32": dense(f32),
             "float64": dense(f64),
             "float16": dense(f16.reshape(2, 4)),
             "uint8": dense(np.array([0, 1, 127, 128, 255], np.uint8)),
             "int8": dense(np.array([-128, -1, 0, 1, 127], np.int8)),
             "int32": dense(np.array([-2**31, -1, 0, 1, 2**31 - 1], np.int32)),
             "int64": dense(np.array([-2**63, -1, 0, 1, 2**63 - 1], np.int64)),
             "bool": dense(np.array([[True, False], [False, True]], np.bool_))}
    nd_save("dtypes.params", {k: v[0] for k, v in items.items()},
            specs=[v[1] for v in items.values()])

    # bfloat16 (type flag 12) alone, so the other files do not depend on ml_dtypes.
    src = np.array([1.0, 2.5, -3.0, 0.0, -0.0, np.inf, 1e10, 3.14159], np.float32)
    bf = mx.nd.array(src).astype(BF16)
    bits = np.frombuffer(bf.asnumpy().tobytes(), np.uint16)
    mx.nd.save(os.path.join(OUT, "bfloat16.params"), [bf])
    e = {"name": None, "dtype": "bfloat16", "shape": [8], "dev_type": 1, "dev_id": 0,
         "stype": "default", "hex": bits.tobytes().hex(), "float32_source": src.tolist()}
    # bfloat16 is the top half of a float32 (1.9.1 rounds to nearest even).
    assert (bits == (src.view(np.uint32) + 0x7FFF + ((src.view(np.uint32) >> 16) & 1))
            .__rshift__(16).astype(np.uint16))[np.isfinite(src)].all()
    record("bfloat16.params", "mx.nd.save", "list", "V2", [e], True)

    # Zero-size arrays: written as ordinary records without data bytes.
    items = [dense(np.zeros((0,), np.float32)), dense(np.zeros((0,), np.int32)),
             dense(np.zeros((2, 0, 3), np.float32)), dense(np.zeros((0, 4), np.int64))]
    nds = [mx.nd.array([]), mx.nd.empty((0,), dtype="int32"), mx.nd.empty((2, 0, 3)),
           mx.nd.empty((0, 4), dtype="int64")]
    nd_save("zero_size.params", nds, specs=[i[1] for i in items])

    # Contexts: the record keeps cpu(1) / cpu_pinned(0); loading lands on cpu(0).
    items = {"cpu1": dense(np.array([1.0, 2.0, 3.0], np.float32), mx.cpu(1)),
             "pinned": dense(np.array([4, 5], np.int64), mx.cpu_pinned(0)),
             "cpu0": dense(np.array([6.0], np.float64), mx.cpu(0))}
    nd_save("contexts.params", {k: v[0] for k, v in items.items()},
            specs=[v[1] for v in items.values()])
    items = [dense(np.array([[1.0, 2.0]], np.float32), mx.cpu(1))]
    nd_save("cpu1_list.params", [i[0] for i in items], specs=[i[1] for i in items])

    # Sparse records (1.9.1 keeps the storage type on load; the manifest holds the
    # dense value).
    rs_dense = np.zeros((5, 2), np.float32)
    rs_dense[[1, 3]] = [[1, 2], [3, 4]]
    rs = mx.nd.sparse.row_sparse_array((np.array([[1, 2], [3, 4]], np.float32),
                                        np.array([1, 3])), shape=(5, 2))
    rs_empty = mx.nd.sparse.zeros("row_sparse", (3, 2))
    mx.nd.save(os.path.join(OUT, "row_sparse.params"), {"rs": rs, "rs_empty": rs_empty})
    record("row_sparse.params", "mx.nd.save", "dict", "V2",
           [entry("rs", rs_dense, stype="row_sparse"),
            entry("rs_empty", np.zeros((3, 2), np.float32), stype="row_sparse")], False)
    csr_dense = np.array([[1, 0, 2, 0], [0, 0, 0, 0], [0, 3, 0, 0]], np.float64)
    csr = mx.nd.sparse.csr_matrix((np.array([1.0, 2, 3]), np.array([0, 2, 1]),
                                   np.array([0, 2, 2, 3])), shape=(3, 4), dtype="float64")
    csr_empty = mx.nd.sparse.zeros("csr", (2, 3))
    mx.nd.save(os.path.join(OUT, "csr.params"), [csr, csr_empty])
    record("csr.params", "mx.nd.save", "list", "V2",
           [entry(None, csr_dense, stype="csr"),
            entry(None, np.zeros((2, 3), np.float32), stype="csr")], False)

    # Empty containers: both are 32 bytes and load as [].
    nd_save("empty_list.params", [], specs=[])
    nd_save("empty_dict.params", {}, specs=[])

    # A 0-d array: 1.9.1 writes ndim 0 + context + type + one value, and cannot load
    # the file back (its V2 reader takes ndim 0 for an undefined array).
    items = [dense(np.array(3.5, np.float32)), arange((2,))]
    nd_save("scalar_v2.params", [i[0] for i in items], specs=[i[1] for i in items])

    # V3 (npx.save under NumPy shape semantics): 0-d, zero-size and plain arrays.
    mx.npx.set_np()
    try:
        mx.npx.save(os.path.join(OUT, "v3_npx.params"),
                    {"scalar": mx.np.array(2.5), "empty": mx.np.zeros((0, 2)),
                     "ints": mx.np.array([1, 2, 3], dtype="int32")})
    finally:
        mx.npx.reset_np()
    record("v3_npx.params", "mx.npx.save", "dict", "V3",
           [entry("scalar", np.array(2.5, np.float32)),
            entry("empty", np.zeros((0, 2), np.float32)),
            entry("ints", np.array([1, 2, 3], np.int32))], False, np_semantics=True)

    # V1 records, built by hand.
    vals = [np.arange(6, dtype=np.int32).reshape(2, 3), np.array(7.0, np.float32),
            np.zeros((0,), np.int64), np.array([[0.5, -1.0], [2.0, 1e300]], np.float64),
            np.array([0, 200, 255], np.uint8)]
    handmade("legacy_v1.params", "V1", vals, names=["a", "scalar", "empty", "b", "c"],
             recipes=["arange", None, None, None, None])

    # V0, laid out like MXNet's legacy_ndarray.v0 test file: 6 float32 arange(128).
    vals = [np.arange(128, dtype=np.float32) for _ in range(6)]
    handmade("legacy_v0.params", "V0", vals, recipes=["arange"] * 6)
    assert manifest["files"]["legacy_v0.params"]["size"] == 3224

    # V0 + V1 + V2 records in one dict file, and contexts 1.9.1 maps to cpu(0).
    vals = [np.array([[1, 2], [3, 4]], np.int8), np.array([1.5, 2.5], np.float16),
            np.array([9, 8, 7], np.int32), np.array(-1.0, np.float32)]
    handmade("legacy_mixed.params", ["V0", "V1", "V2", "V0"], vals,
             names=["v0_gpu1", "v1_cpu2", "v2_gpu0", "v0_scalar"],
             ctxs=[(2, 1), (1, 2), (2, 0), (1, 0)])

    with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print(f"{len(manifest['files'])} files, {total} bytes in {os.path.normpath(OUT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
