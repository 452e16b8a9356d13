"""mx.nd.save / mx.nd.load / mx.nd.load_frombuffer with 1.9.1's semantics."""
from __future__ import annotations

import json
import os
import struct

import numpy as np
import pytest

mx = pytest.importorskip("mxnet")
if not hasattr(getattr(mx, "nd", None), "array"):
    pytest.skip("mxnet.nd.array does not exist yet", allow_module_level=True)

from mxnet.base import CODE_TO_DTYPE, MXNetError  # noqa: E402
from mxnet.ndarray import serialization as ser  # noqa: E402

GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "params")
with open(os.path.join(GOLDEN, "manifest.json"), encoding="utf-8") as _f:
    MANIFEST = json.load(_f)["files"]


def golden(fname):
    return os.path.join(GOLDEN, fname)


def expected(e):
    if "hex" in e:
        return np.frombuffer(bytes.fromhex(e["hex"]), e["dtype"]).reshape(e["shape"])
    return np.arange(int(np.prod(e["shape"]))).astype(e["dtype"]).reshape(e["shape"])


def test_save_load_list(tmp_path):
    fname = str(tmp_path / "a.params")
    arrs = [mx.nd.array([1, 2, 3]), mx.nd.array(np.arange(6).reshape(2, 3), dtype="int64"),
            mx.nd.array(np.zeros((2, 0)), dtype="float16")]
    mx.nd.save(fname, arrs)
    got = mx.nd.load(fname)
    assert isinstance(got, list) and len(got) == 3
    for a, b in zip(arrs, got):
        assert b.dtype == a.dtype and b.shape == a.shape
        np.testing.assert_array_equal(b.asnumpy(), a.asnumpy())


def test_save_load_dict_keeps_order(tmp_path):
    fname = str(tmp_path / "d.params")
    data = {"z": mx.nd.array([1.5]), "arg:w": mx.nd.ones((2, 2)), "\u00e4": mx.nd.zeros(3)}
    mx.nd.save(fname, data)
    got = mx.nd.load(fname)
    assert isinstance(got, dict) and list(got) == list(data)
    for k in data:
        np.testing.assert_array_equal(got[k].asnumpy(), data[k].asnumpy())


def test_single_ndarray_and_empty_containers(tmp_path):
    fname = str(tmp_path / "s.params")
    mx.nd.save(fname, mx.nd.array([4, 5]))
    got = mx.nd.load(fname)
    assert isinstance(got, list) and got[0].asnumpy().tolist() == [4, 5]
    mx.nd.save(fname, {})
    assert mx.nd.load(fname) == []  # 1.9.1 writes an empty dict as an empty list
    mx.nd.save(fname, [])
    assert mx.nd.load(fname) == []


def test_bytes_match_reference(tmp_path):
    """mx.nd.save of the manifest's arrays reproduces 1.9.1's files byte for byte."""
    for fname in ("list_basic.params", "dict_basic.params", "dtypes.params",
                  "zero_size.params", "cpu1_list.params"):
        info = MANIFEST[fname]
        arrs = [mx.nd.array(expected(e), ctx=mx.Context(e["dev_type"], e["dev_id"]),
                            dtype=expected(e).dtype) for e in info["arrays"]]
        out = str(tmp_path / fname)
        if info["kind"] == "dict":
            mx.nd.save(out, dict(zip([e["name"] for e in info["arrays"]], arrs)))
        else:
            mx.nd.save(out, arrs)
        with open(out, "rb") as f, open(golden(fname), "rb") as g:
            assert f.read() == g.read(), fname


@pytest.mark.parametrize("fname", sorted(f for f in MANIFEST if MANIFEST[f]["oracle_load"]["ok"]
                                         and MANIFEST[f]["version"] != "V3"))
def test_load_golden(fname):
    info = MANIFEST[fname]
    if any(e["dtype"] == "bfloat16" for e in info["arrays"]) and 12 not in CODE_TO_DTYPE:
        with pytest.raises(MXNetError, match="bfloat16"):
            mx.nd.load(golden(fname))
        return
    got = mx.nd.load(golden(fname))
    assert type(got).__name__ == info["oracle_load"]["type"]
    values = list(got.values()) if isinstance(got, dict) else got
    if isinstance(got, dict):
        assert list(got) == [e["name"] for e in info["arrays"]]
    for v, e in zip(values, info["arrays"]):
        want = expected(e)
        assert tuple(v.shape) == want.shape or want.ndim == 0
        assert v.asnumpy().tobytes() == want.tobytes()


def test_contexts_on_load(monkeypatch):
    # cpu(1) and cpu_pinned(0) records land on cpu(0), as in 1.9.1.
    got = mx.nd.load(golden("contexts.params"))
    assert all(v.context == mx.cpu(0) for v in got.values())
    # GPU records land on their GPU only when it exists.
    monkeypatch.setattr(mx.context, "num_gpus", lambda: 0)
    got = mx.nd.load(golden("legacy_mixed.params"))
    assert all(v.context == mx.cpu(0) for v in got.values())


def test_cpu1_record_written(tmp_path):
    fname = str(tmp_path / "c.params")
    mx.nd.save(fname, [mx.nd.array([1.0, 2.0], ctx=mx.cpu(1))])
    with open(fname, "rb") as f:
        data = f.read()
    # context follows magic, stype and the 1-D shape
    assert struct.unpack_from("<ii", data, 24 + 4 + 4 + 4 + 8) == (1, 1)
    assert mx.nd.load(fname)[0].context == mx.cpu(0)


def test_load_frombuffer():
    with open(golden("dict_basic.params"), "rb") as f:
        buf = f.read()
    got = mx.nd.load_frombuffer(buf)
    assert list(got) == [e["name"] for e in MANIFEST["dict_basic.params"]["arrays"]]
    with pytest.raises(TypeError):
        mx.nd.load_frombuffer(bytearray(buf))
    with pytest.raises(MXNetError):
        mx.nd.load_frombuffer(buf[:-1])
    with pytest.raises(MXNetError):
        mx.nd.load_frombuffer(b"")


WRONG_TYPES = {
    "tuple": (lambda: (mx.nd.ones(2),), ValueError),  # 1.9.1 does not take tuples
    "numpy": (lambda: np.ones(2), ValueError),
    "int": (lambda: 5, ValueError),
    "list of numpy": (lambda: [np.ones(2)], TypeError),
    "int key": (lambda: {1: mx.nd.ones(2)}, TypeError),
    "numpy value": (lambda: {"a": np.ones(2)}, TypeError),
}


@pytest.mark.parametrize("case", sorted(WRONG_TYPES))
def test_save_wrong_types(tmp_path, case):
    make, exc = WRONG_TYPES[case]
    with pytest.raises(exc):
        mx.nd.save(str(tmp_path / "x.params"), make())
    assert not os.path.exists(tmp_path / "x.params")


def test_file_errors(tmp_path):
    with pytest.raises(TypeError):
        mx.nd.load(tmp_path / "x.params")
    with pytest.raises(MXNetError):
        mx.nd.load(str(tmp_path / "missing.params"))
    with pytest.raises(MXNetError):
        mx.nd.save(str(tmp_path / "no" / "dir.params"), [mx.nd.ones(1)])


def test_failed_save_keeps_old_file(tmp_path, monkeypatch):
    fname = str(tmp_path / "keep.params")
    mx.nd.save(fname, [mx.nd.array([1, 2])])
    with open(fname, "rb") as f:
        before = f.read()

    def boom(*args, **kwargs):
        raise RuntimeError("boom")
        yield  # pragma: no cover

    monkeypatch.setattr(ser, "_iter_encode", boom)
    with pytest.raises(RuntimeError):
        mx.nd.save(fname, [mx.nd.array([3, 4, 5])])
    with open(fname, "rb") as f:
        assert f.read() == before
    assert os.listdir(tmp_path) == ["keep.params"]
