"""The ``.params`` codec (mxnet.ndarray.serialization) against files MXNet 1.9.1 wrote.

Fixtures come from ``tools/golden/gen_params.py``; ``manifest.json`` says what each
file holds and what 1.9.1's ``mx.nd.load`` returned for it.
"""
from __future__ import annotations

import hashlib
import importlib
import json
import os
import struct
import tracemalloc

import numpy as np
import pytest

from mxnet.base import CODE_TO_DTYPE, MXNetError

ser = importlib.import_module("mxnet.ndarray.serialization")

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "..", "golden", "params")
with open(os.path.join(GOLDEN, "manifest.json"), encoding="utf-8") as _f:
    MANIFEST = json.load(_f)["files"]
HAVE_BF16 = 12 in CODE_TO_DTYPE
V2 = 0xF993FAC9


def raw(fname):
    with open(os.path.join(GOLDEN, fname), "rb") as f:
        return f.read()


def expected_value(e):
    """The dense value a manifest entry describes, as (dtype name, shape, bytes)."""
    if "hex" in e:
        data = bytes.fromhex(e["hex"])
    else:
        assert e["recipe"] == "arange"
        data = np.arange(int(np.prod(e["shape"]))).astype(e["dtype"]).tobytes()
    return e["dtype"], tuple(e["shape"]), data


def needs_bf16(fname):
    return any(e["dtype"] == "bfloat16" for e in MANIFEST[fname]["arrays"])


def header(n):
    return struct.pack("<QQQ", 0x112, 0, n)


def v2_record(shape, type_flag=0, dev=(1, 0), data=None, stype=0, magic=V2):
    out = struct.pack(f"<Iii{len(shape)}q", magic, stype, len(shape), *shape)
    out += struct.pack("<iii", dev[0], dev[1], type_flag)
    if data is None:
        data = np.arange(int(np.prod(shape)), dtype=np.float32).tobytes()
    return out + data


K0 = struct.pack("<Q", 0)


def names_block(names):
    out = struct.pack("<Q", len(names))
    for n in names:
        out += struct.pack("<Q", len(n)) + n
    return out


# ------------------------------------------------------------------ fixtures

@pytest.mark.parametrize("fname", sorted(MANIFEST))
def test_fixture_integrity(fname):
    data = raw(fname)
    assert len(data) == MANIFEST[fname]["size"]
    assert hashlib.sha256(data).hexdigest() == MANIFEST[fname]["sha256"]


@pytest.mark.parametrize("fname", sorted(MANIFEST))
def test_fixture_decodes_to_manifest(fname):
    info = MANIFEST[fname]
    if needs_bf16(fname) and not HAVE_BF16:
        with pytest.raises(MXNetError, match="bfloat16"):
            ser.decode(raw(fname))
        return
    records, names = ser.decode(raw(fname))
    entries = info["arrays"]
    if info["kind"] == "dict":
        assert names == [e["name"] for e in entries]
    else:
        assert names is None
    assert len(records) == len(entries)
    for (arr, dev_type, dev_id), e in zip(records, entries):
        dtype, shape, data = expected_value(e)
        assert isinstance(arr, np.ndarray)
        assert (arr.dtype.name if dtype != "bfloat16" else "bfloat16") == dtype
        assert arr.shape == shape
        assert arr.tobytes() == data, e["name"]
        assert (dev_type, dev_id) == (e["dev_type"], e["dev_id"])


@pytest.mark.parametrize("fname", sorted(f for f in MANIFEST
                                         if MANIFEST[f]["oracle_load"]["ok"]))
def test_list_or_dict_like_oracle(fname):
    if needs_bf16(fname) and not HAVE_BF16:
        pytest.skip("needs ml_dtypes")
    _, names = ser.decode(raw(fname))
    assert ("dict" if names is not None else "list") == MANIFEST[fname]["oracle_load"]["type"]


@pytest.mark.parametrize("fname", sorted(f for f in MANIFEST if MANIFEST[f]["byte_identical"]))
def test_reencode_is_byte_identical(fname):
    if needs_bf16(fname) and not HAVE_BF16:
        pytest.skip("needs ml_dtypes")
    data = raw(fname)
    assert ser.encode(*ser.decode(data)) == data


def test_byte_identical_covers_the_dense_files():
    dense_v2 = {f for f, i in MANIFEST.items() if i["writer"] == "mx.nd.save"
                and all(e["stype"] == "default" for e in i["arrays"])}
    assert dense_v2 <= {f for f, i in MANIFEST.items() if i["byte_identical"]}
    assert len(dense_v2) >= 8


def test_encode_from_manifest_matches_oracle_bytes():
    """Build the records from the manifest alone and compare with 1.9.1's file."""
    for fname in ("list_basic.params", "dict_basic.params", "dtypes.params",
                  "zero_size.params", "contexts.params", "scalar_v2.params"):
        info = MANIFEST[fname]
        records = []
        for e in info["arrays"]:
            dtype, shape, data = expected_value(e)
            arr = np.frombuffer(data, dtype).reshape(shape)
            records.append((arr, e["dev_type"], e["dev_id"]))
        names = [e["name"] for e in info["arrays"]] if info["kind"] == "dict" else None
        assert ser.encode(records, names) == raw(fname), fname


def test_legacy_v0_layout():
    data = raw("legacy_v0.params")
    assert len(data) == 3224
    records, names = ser.decode(data)
    assert names is None and len(records) == 6
    for arr, dev_type, dev_id in records:
        assert arr.dtype == np.float32 and arr.shape == (128,)
        np.testing.assert_array_equal(arr, np.arange(128, dtype=np.float32))
        assert (dev_type, dev_id) == (1, 0)


def test_legacy_v1_and_mixed():
    recs, names = ser.decode(raw("legacy_v1.params"))
    assert names == ["a", "scalar", "empty", "b", "c"]
    assert recs[1][0].shape == () and recs[1][0] == 7.0
    assert recs[2][0].shape == (0,) and recs[2][0].dtype == np.int64
    recs, names = ser.decode(raw("legacy_mixed.params"))
    assert [(r[1], r[2]) for r in recs] == [(2, 1), (1, 2), (2, 0), (1, 0)]
    assert recs[0][0].dtype == np.int8 and recs[1][0].dtype == np.float16


def test_sparse_fixtures_densified():
    recs, names = ser.decode(raw("row_sparse.params"))
    assert names == ["rs", "rs_empty"]
    want = np.zeros((5, 2), np.float32)
    want[[1, 3]] = [[1, 2], [3, 4]]
    np.testing.assert_array_equal(recs[0][0], want)
    recs, _ = ser.decode(raw("csr.params"))
    np.testing.assert_array_equal(recs[0][0], [[1, 0, 2, 0], [0, 0, 0, 0], [0, 3, 0, 0]])
    assert recs[0][0].dtype == np.float64
    assert recs[1][0].shape == (2, 3) and not recs[1][0].any()


def test_v3_and_scalar_fixtures():
    recs, names = ser.decode(raw("v3_npx.params"))
    assert names == ["scalar", "empty", "ints"]
    assert recs[0][0].shape == () and recs[0][0] == 2.5
    assert recs[1][0].shape == (0, 2)
    # 1.9.1 writes a 0-d array it cannot read back; we read it as 0-d.
    assert not MANIFEST["scalar_v2.params"]["oracle_load"]["ok"]
    recs, _ = ser.decode(raw("scalar_v2.params"))
    assert recs[0][0].shape == () and recs[0][0] == 3.5


def test_empty_containers():
    assert ser.decode(raw("empty_list.params")) == ([], None)
    assert ser.decode(raw("empty_dict.params")) == ([], None)
    assert ser.encode([]) == raw("empty_list.params")
    assert ser.encode([], []) == raw("empty_dict.params")


def test_bfloat16_without_ml_dtypes_is_clear(monkeypatch):
    monkeypatch.delitem(ser.CODE_TO_DTYPE, 12, raising=False)
    with pytest.raises(MXNetError, match="ml_dtypes"):
        ser.decode(raw("bfloat16.params"))


# ------------------------------------------------------------------ round trips

ROUNDTRIP_DTYPES = [np.float32, np.float64, np.float16, np.uint8, np.int8, np.int32,
                    np.int64, np.bool_, np.int16, np.uint16, np.uint32, np.uint64]


@pytest.mark.parametrize("dtype", ROUNDTRIP_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3), (2, 0, 3), (1, 2, 3, 4), (2, 1, 1, 2, 3)])
def test_roundtrip(dtype, shape):
    rng = np.random.default_rng(0)
    arr = (rng.standard_normal(shape) * 50).astype(dtype)
    recs, names = ser.decode(ser.encode([(arr, 1, 0), (arr, 2, 3)], ["x", "y"]))
    assert names == ["x", "y"]
    for got, dev in zip(recs, [(1, 0), (2, 3)]):
        assert got[0].dtype == arr.dtype and got[0].shape == arr.shape
        assert got[0].tobytes() == arr.tobytes()
        assert got[1:] == dev


def test_encode_normalises_layout_and_byteorder():
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    ref = ser.encode([(np.ascontiguousarray(base.T), 1, 0)])
    assert ser.encode([(base.T, 1, 0)]) == ref
    assert ser.encode([(base.T.astype(">f4"), 1, 0)]) == ref
    got = ser.decode(ref)[0][0][0]
    assert got.flags.c_contiguous and got.flags.writeable


def test_encode_errors():
    with pytest.raises(MXNetError, match="type code"):
        ser.encode([(np.zeros(2, np.complex64), 1, 0)])
    with pytest.raises(MXNetError, match="names"):
        ser.encode([(np.zeros(2), 1, 0)], ["a", "b"])
    with pytest.raises(MXNetError, match="str"):
        ser.encode([(np.zeros(2), 1, 0)], [b"a"])
    with pytest.raises(MXNetError, match="record 0"):
        ser.encode([np.zeros(2)])
    with pytest.raises(MXNetError, match="int32"):
        ser.encode([(np.zeros(2), 1, 2**40)])


def test_unicode_and_duplicate_names():
    recs = [(np.zeros(1, np.float32), 1, 0), (np.ones(1, np.float32), 1, 0)]
    buf = ser.encode(recs, ["gewicht_\u00e4", "gewicht_\u00e4"])
    assert ser.decode(buf)[1] == ["gewicht_\u00e4", "gewicht_\u00e4"]


def test_trailing_bytes_and_reserved_word_ignored():
    # 1.9.1 accepts both.
    data = raw("dict_basic.params")
    assert ser.decode(data + b"garbage")[1] == ser.decode(data)[1]
    patched = data[:8] + struct.pack("<Q", 7) + data[16:]
    assert len(ser.decode(patched)[0]) == len(MANIFEST["dict_basic.params"]["arrays"])


def test_decode_accepts_bytes_like():
    data = raw("list_basic.params")
    assert len(ser.decode(bytearray(data))[0]) == 4
    assert len(ser.decode(memoryview(data))[0]) == 4
    with pytest.raises(MXNetError, match="bytes-like"):
        ser.decode("not bytes")


# ------------------------------------------------------------------ malformed input

SMALL = ["dict_basic.params", "zero_size.params", "csr.params", "row_sparse.params",
         "legacy_mixed.params", "v3_npx.params", "scalar_v2.params", "legacy_v1.params"]


@pytest.mark.parametrize("fname", SMALL)
def test_every_truncation_raises(fname):
    data = raw(fname)
    tracemalloc.start()
    try:
        for n in range(len(data)):
            with pytest.raises(MXNetError, match="offset"):
                ser.decode(data[:n])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20


def test_random_corruption_only_raises_mxneterror(monkeypatch):
    monkeypatch.setattr(ser, "MAX_SPARSE_DENSE_BYTES", 1 << 16)
    rng = np.random.default_rng(1234)
    tracemalloc.start()
    try:
        for fname in SMALL:
            base = bytearray(raw(fname))
            for _ in range(300):
                buf = bytearray(base)
                for _ in range(int(rng.integers(1, 4))):
                    pos = int(rng.integers(0, len(buf)))
                    buf[pos] = int(rng.integers(0, 256))
                try:
                    ser.decode(bytes(buf))
                except MXNetError:
                    pass
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 << 20


def _decode_error(buf):
    with pytest.raises(MXNetError) as info:
        ser.decode(buf)
    msg = str(info.value)
    assert "decode" in msg and "byte offset" in msg
    return msg


GOOD = header(1) + v2_record((2,)) + K0


def test_sanity_of_handmade_record():
    arr, dev_type, dev_id = ser.decode(GOOD)[0][0]
    np.testing.assert_array_equal(arr, [0, 1])


@pytest.mark.parametrize("buf, match", [
    (b"", "header"),
    (struct.pack("<QQQ", 0x113, 0, 0) + K0, "list magic"),
    (header(2**63) + K0, "array count"),
    (header(3) + v2_record((2,)) + K0, "array count"),
    (header(0) + struct.pack("<Q", 2**62), "0 or 0 names"),
    (header(1) + v2_record((2,)) + struct.pack("<Q", 1) + struct.pack("<Q", 2**62), "name 0"),
    (header(1) + v2_record((2,)) + struct.pack("<Q", 2), "0 or 1 names"),
    (header(1) + v2_record((2,)), "name count"),
    (header(1) + struct.pack("<I", 0x12345678) + b"\0" * 40 + K0, "record magic"),
    (header(1) + struct.pack("<Iii", V2, 0, 2**30) + b"\0" * 40 + K0, "dims"),
    (header(1) + struct.pack("<Iii", V2, 0, -5) + b"\0" * 40 + K0, "ndim"),
    (header(1) + v2_record((-2,), data=b"") + K0, "non-negative"),
    (header(1) + v2_record((-1,), data=b"") + K0, "undefined"),
    (header(1) + v2_record((2**40, 2**40), data=b"") + K0, "data of array 0"),
    (header(1) + v2_record((2**62,), type_flag=1, data=b"") + K0, "data of array 0"),
    (header(1) + v2_record((0, 2**62, 2**62), data=b"") + K0, "too large"),
    (header(1) + v2_record((2,), type_flag=99) + K0, "type flag"),
    (header(1) + v2_record((2,), type_flag=-1) + K0, "type flag"),
    (header(1) + v2_record((2,), stype=5) + K0, "storage type"),
    (header(1) + v2_record((2,), stype=-1) + K0, "storage type"),
    (header(1) + v2_record((2,), magic=0xF993FACA, stype=1) + K0, "V3"),
    (header(1) + struct.pack("<Iii", 0xF993FACA, 0, -1) + b"\0" * 20 + K0, "undefined"),
    (header(1) + v2_record((2,)) + names_block([b"\xff"]), "UTF-8"),
])
def test_corrupt_inputs(buf, match):
    msg = _decode_error(buf)
    assert match in msg, msg


def test_bfloat16_flag_when_unsupported(monkeypatch):
    monkeypatch.delitem(ser.CODE_TO_DTYPE, 12, raising=False)
    msg = _decode_error(header(1) + v2_record((2,), type_flag=12, data=b"\0" * 4) + K0)
    assert "bfloat16" in msg and "ml_dtypes" in msg


def _sparse_record(stype, sshape, shape, aux, data, dtype_flag=0):
    """aux: list of (type flag, shape, bytes)."""
    out = struct.pack("<Ii", V2, stype)
    for shp in (sshape, shape):
        out += struct.pack(f"<i{len(shp)}q", len(shp), *shp)
    out += struct.pack("<iii", 1, 0, dtype_flag)
    for flag, shp, _ in aux:
        out += struct.pack(f"<ii{len(shp)}q", flag, len(shp), *shp)
    out += data
    for _, _, b in aux:
        out += b
    return out


def _i64(*vals):
    return np.array(vals, np.int64).tobytes()


def test_handmade_sparse_records():
    f4 = np.array([1, 2, 3, 4], np.float32).tobytes()
    rs = _sparse_record(1, (2, 2), (4, 2), [(6, (2,), _i64(0, 3))], f4)
    arr = ser.decode(header(1) + rs + K0)[0][0][0]
    np.testing.assert_array_equal(arr, [[1, 2], [0, 0], [0, 0], [3, 4]])
    # int32 indices are fine too
    rs32 = _sparse_record(1, (2, 2), (4, 2), [(4, (2,), np.array([0, 3], np.int32).tobytes())],
                          f4)
    np.testing.assert_array_equal(ser.decode(header(1) + rs32 + K0)[0][0][0], arr)
    csr = _sparse_record(2, (4,), (2, 3), [(6, (3,), _i64(0, 1, 4)), (6, (4,), _i64(2, 0, 1, 2))],
                         f4)
    np.testing.assert_array_equal(ser.decode(header(1) + csr + K0)[0][0][0],
                                  [[0, 0, 1], [2, 3, 4]])


@pytest.mark.parametrize("record, match", [
    (_sparse_record(1, (2, 2), (4, 2), [(6, (2,), _i64(0, 4))], b"\0" * 16), "out of range"),
    (_sparse_record(1, (2, 3), (4, 2), [(6, (2,), _i64(0, 1))], b"\0" * 24), "storage shape"),
    (_sparse_record(1, (2, 2), (4, 2), [(6, (3,), _i64(0, 1, 2))], b"\0" * 16), "index shape"),
    (_sparse_record(1, (2, 2), (4, 2), [(0, (2,), b"\0" * 8)], b"\0" * 16), "integer aux"),
    (_sparse_record(2, (2,), (2, 3), [(6, (3,), _i64(0, 2, 1)), (6, (2,), _i64(0, 1))],
                    b"\0" * 8), "indptr"),
    (_sparse_record(2, (2,), (2, 3), [(6, (3,), _i64(0, 1, 2)), (6, (2,), _i64(0, 3))],
                    b"\0" * 8), "column index"),
    (_sparse_record(2, (2,), (2, 3, 1), [(6, (3,), _i64(0, 1, 2)), (6, (2,), _i64(0, 1))],
                    b"\0" * 8), "2-D"),
])
def test_bad_sparse_records(record, match):
    assert match in _decode_error(header(1) + record + K0)


def test_sparse_dense_size_is_capped(monkeypatch):
    rec = _sparse_record(1, (0, 2**40), (2**20, 2**40), [(6, (0,), b"")], b"")
    assert "limit" in _decode_error(header(1) + rec + K0)
    monkeypatch.setattr(ser, "MAX_SPARSE_DENSE_BYTES", 100)
    assert "limit" in _decode_error(header(1) + _sparse_record(
        1, (0, 2), (13, 2), [(6, (0,), b"")], b"") + K0)
    assert ser.decode(header(1) + _sparse_record(
        1, (0, 2), (12, 2), [(6, (0,), b"")], b"") + K0)[0][0][0].shape == (12, 2)


def test_v0_scalar_and_v1_scalar():
    v0 = struct.pack("<Iiii", 0, 1, 0, 0) + np.float32(7).tobytes()
    v1 = struct.pack("<Iiiii", 0xF993FAC8, 0, 1, 0, 4) + np.int32(-3).tobytes()
    recs, _ = ser.decode(header(2) + v0 + v1 + K0)
    assert recs[0][0].shape == () and recs[0][0] == 7
    assert recs[1][0].dtype == np.int32 and recs[1][0] == -3


def test_bool_bytes_normalised():
    rec = v2_record((3,), type_flag=7, data=bytes([0, 1, 2]))
    arr = ser.decode(header(1) + rec + K0)[0][0][0]
    assert arr.dtype == np.bool_ and arr.tolist() == [False, True, True]


# ------------------------------------------------------------------ atomic writes

def test_write_file_atomic_writes_and_replaces(tmp_path):
    target = tmp_path / "w.params"
    ser.write_file_atomic(str(target), b"first")
    assert target.read_bytes() == b"first"
    ser.write_file_atomic(target, [b"sec", memoryview(b"ond")])
    assert target.read_bytes() == b"second"
    assert os.listdir(tmp_path) == ["w.params"]


def test_write_file_atomic_keeps_old_file_on_failure(tmp_path):
    target = tmp_path / "w.params"
    target.write_bytes(b"old contents")
    os.chmod(target, 0o640)

    def chunks():
        yield b"partial new contents"
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError, match="disk on fire"):
        ser.write_file_atomic(str(target), chunks())
    assert target.read_bytes() == b"old contents"
    assert os.listdir(tmp_path) == ["w.params"]
    ser.write_file_atomic(str(target), b"new")
    assert os.stat(target).st_mode & 0o777 == 0o640


def test_write_file_atomic_missing_directory(tmp_path):
    with pytest.raises(OSError):
        ser.write_file_atomic(str(tmp_path / "nope" / "w.params"), b"x")
