"""mx.recordio against files written by 1.9.1 (tools/golden/gen_recordio_image.py)."""
import json
import os
import pickle
import struct
from pathlib import Path

import numpy as np
import pytest

from mxnet import recordio
from mxnet.base import MXNetError

GOLDEN = Path(__file__).parent / "golden" / "recordio"
MAGIC = struct.pack("<I", 0xCED7230A)


@pytest.fixture(scope="module")
def meta():
    return json.loads((GOLDEN / "golden.json").read_text())


@pytest.fixture(scope="module")
def arrays():
    with np.load(GOLDEN / "golden.npz") as g:
        return dict(g)


def raw_records(meta):
    return [bytes.fromhex(h) for h in meta["raw"]["records"]]


# -- reading 1.9.1's files -------------------------------------------------------------------------
def test_reads_reference_raw_file_sequentially_and_by_key(meta):
    expected = raw_records(meta)
    rec = recordio.MXRecordIO(str(GOLDEN / "raw.rec"), "r")
    got = [rec.read() for _ in expected]
    assert got == expected
    assert rec.read() is None and rec.read() is None
    rec.reset()
    assert rec.read() == expected[0]
    rec.close()
    rec.close()  # closing twice is fine

    irec = recordio.MXIndexedRecordIO(str(GOLDEN / "raw.idx"), str(GOLDEN / "raw.rec"), "r")
    assert irec.keys == list(range(len(expected)))
    assert [irec.idx[k] for k in irec.keys] == meta["raw"]["tells"]
    for key in reversed(irec.keys):
        assert irec.read_idx(key) == expected[key]
    irec.seek(3)
    assert irec.read() == expected[3] and irec.read() == expected[4]
    irec.close()


def test_reads_reference_image_records(meta, arrays):
    pytest.importorskip("PIL")
    from mxnet import image
    irec = recordio.MXIndexedRecordIO(str(GOLDEN / "images.idx"), str(GOLDEN / "images.rec"), "r")
    assert irec.keys == meta["images"]["keys"]
    for key, (flag, label, id_, id2, size) in zip(irec.keys, meta["images"]["headers"]):
        header, payload = recordio.unpack(irec.read_idx(key))
        assert (header.flag, header.id, header.id2, len(payload)) == (flag, id_, id2, size)
        np.testing.assert_array_equal(header.label, label)
        if flag:
            assert header.label.dtype == np.float32
        decoded = arrays[f"rec/decoded/{key}"]
        np.testing.assert_array_equal(image.imdecode(payload).asnumpy(), decoded)
        _, bgr = recordio.unpack_img(irec.read_idx(key), iscolor=1)
        np.testing.assert_array_equal(bgr, decoded[:, :, ::-1])
    irec.close()


# -- writing what 1.9.1 writes ---------------------------------------------------------------------
def test_writes_reference_bytes(tmp_path, meta):
    idx, rec = tmp_path / "raw.idx", tmp_path / "raw.rec"
    w = recordio.MXIndexedRecordIO(str(idx), str(rec), "w")
    tells = []
    for i, r in enumerate(raw_records(meta)):
        tells.append(w.tell())
        w.write_idx(i, r)
    w.close()
    assert tells == meta["raw"]["tells"]
    assert rec.read_bytes() == (GOLDEN / "raw.rec").read_bytes()
    assert idx.read_text() == (GOLDEN / "raw.idx").read_text()


def test_repacks_image_records_byte_identical(tmp_path):
    src = recordio.MXIndexedRecordIO(str(GOLDEN / "images.idx"), str(GOLDEN / "images.rec"), "r")
    w = recordio.MXIndexedRecordIO(str(tmp_path / "i.idx"), str(tmp_path / "i.rec"), "w")
    for key in src.keys:
        header, payload = recordio.unpack(src.read_idx(key))
        label = header.label.tolist() if header.flag else header.label
        w.write_idx(key, recordio.pack(header._replace(label=label), payload))
    w.close()
    src.close()
    assert (tmp_path / "i.rec").read_bytes() == (GOLDEN / "images.rec").read_bytes()
    assert (tmp_path / "i.idx").read_text() == (GOLDEN / "images.idx").read_text()


def test_pack_matches_reference(meta):
    expected = {k: bytes.fromhex(v) for k, v in meta["pack"].items()}
    assert recordio.pack((0, 3.5, 17, 2), b"payload") == expected["scalar"]
    assert recordio.pack((9, [1, 2.5, -3], 18, 0), b"xyz") == expected["list"]
    assert recordio.pack(recordio.IRHeader(0, np.arange(4.0), 1, 1), b"") == expected["array"]
    assert recordio.pack((5, 2.0, 3, 4), bytearray(b"abc")) == expected["flagged"]
    header, payload = recordio.unpack(expected["list"])
    assert header.flag == 3 and header.id == 18 and payload == b"xyz"
    np.testing.assert_array_equal(header.label, [1, 2.5, -3])
    header, payload = recordio.unpack(expected["flagged"])
    assert header == recordio.IRHeader(0, 2.0, 3, 4) and payload == b"abc"


# -- splitting around the magic number -------------------------------------------------------------
def _parts(data):
    out, pos = [], 0
    while pos < len(data):
        magic, lrec = struct.unpack_from("<II", data, pos)
        assert magic == 0xCED7230A
        n = lrec & ((1 << 29) - 1)
        out.append((lrec >> 29, n))
        pos += 8 + n + (-n % 4)
    return out


@pytest.mark.parametrize("payload, parts", [
    (b"ab" + MAGIC + b"cd", [(0, 8)]),                      # not 4-byte aligned: kept whole
    (MAGIC, [(1, 0), (3, 0)]),
    (b"1234" + MAGIC, [(1, 4), (3, 0)]),
    (b"1234" + MAGIC + b"56", [(1, 4), (3, 2)]),
    (MAGIC * 3, [(1, 0), (2, 0), (2, 0), (3, 0)]),
    (b"12345" + MAGIC, [(0, 9)]),
])
def test_split_records(tmp_path, payload, parts):
    path = str(tmp_path / "s.rec")
    with recordio.MXRecordIO(path, "w") as w:
        w.write(payload)
    data = Path(path).read_bytes()
    assert _parts(data) == parts
    assert len(data) % 4 == 0
    r = recordio.MXRecordIO(path, "r")
    assert r.read() == payload and r.read() is None


def test_round_trip_random_payloads_with_magic(tmp_path):
    rs = np.random.RandomState(0)
    payloads = []
    for n in range(40):
        chunks = [rs.bytes(int(rs.randint(0, 9))) if rs.rand() < 0.6 else MAGIC
                  for _ in range(rs.randint(0, 12))]
        payloads.append(b"".join(chunks) + bytes(n % 4))
    w = recordio.MXIndexedRecordIO(str(tmp_path / "r.idx"), str(tmp_path / "r.rec"), "w")
    for i, p in enumerate(payloads):
        w.write_idx(i, p)
    w.close()
    r = recordio.MXIndexedRecordIO(str(tmp_path / "r.idx"), str(tmp_path / "r.rec"), "r")
    for i in rs.permutation(len(payloads)):
        assert r.read_idx(int(i)) == payloads[i]


# -- damaged files ---------------------------------------------------------------------------------
def _rec_file(tmp_path, data, name="bad.rec"):
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_bad_magic_names_offset(tmp_path):
    good = recordio._encode_record(b"abcd")
    path = _rec_file(tmp_path, good + b"\x00" * 12)
    r = recordio.MXRecordIO(path, "r")
    assert r.read() == b"abcd"
    with pytest.raises(MXNetError, match="offset 12"):
        r.read()


def test_truncated_files(tmp_path):
    good = recordio._encode_record(b"hello world!")
    r = recordio.MXRecordIO(_rec_file(tmp_path, good[:-3]), "r")
    with pytest.raises(MXNetError, match="announces 12 payload bytes.*offset 0"):
        r.read()
    r = recordio.MXRecordIO(_rec_file(tmp_path, good + good[:5], "b.rec"), "r")
    assert r.read() == b"hello world!"
    with pytest.raises(MXNetError, match="truncated record header.*offset 20"):
        r.read()


def test_huge_length_is_not_read(tmp_path):
    head = struct.pack("<II", 0xCED7230A, (1 << 29) - 1)
    r = recordio.MXRecordIO(_rec_file(tmp_path, head + b"xxxx"), "r")
    with pytest.raises(MXNetError, match="536870911 payload bytes.*4 are left.*offset 0"):
        r.read()


def test_inconsistent_split_flags(tmp_path):
    first = struct.pack("<II", 0xCED7230A, 1 << 29 | 4) + b"abcd"
    whole = struct.pack("<II", 0xCED7230A, 4) + b"efgh"
    r = recordio.MXRecordIO(_rec_file(tmp_path, first + whole), "r")
    with pytest.raises(MXNetError, match="inside the split record.*offset 12"):
        r.read()
    last = struct.pack("<II", 0xCED7230A, 3 << 29 | 4) + b"abcd"
    r = recordio.MXRecordIO(_rec_file(tmp_path, last, "c.rec"), "r")
    with pytest.raises(MXNetError, match="continuation part.*offset 0"):
        r.read()


def test_bad_index_files(tmp_path):
    rec = _rec_file(tmp_path, recordio._encode_record(b"abcd"))
    idx = tmp_path / "bad.idx"
    idx.write_text("0\t0\n\n1\t400\n")
    r = recordio.MXIndexedRecordIO(str(idx), rec, "r")
    assert r.keys == [0, 1] and r.read_idx(0) == b"abcd"
    with pytest.raises(MXNetError, match="offset 400"):
        r.read_idx(1)
    with pytest.raises(KeyError):
        r.read_idx(7)
    idx.write_text("0\t12\n")
    with pytest.raises(MXNetError, match="at the end of the file.*offset 12"):
        recordio.MXIndexedRecordIO(str(idx), rec, "r").read_idx(0)
    idx.write_text("0\t0\nzero\t12\n")
    with pytest.raises(MXNetError, match="line 2"):
        recordio.MXIndexedRecordIO(str(idx), rec, "r")
    idx.write_text("0 0\n")
    with pytest.raises(MXNetError, match="line 1"):
        recordio.MXIndexedRecordIO(str(idx), rec, "r")
    with pytest.raises(MXNetError, match="cannot open"):
        recordio.MXRecordIO(str(tmp_path / "missing.rec"), "r")


def test_unpack_rejects_short_records():
    with pytest.raises(MXNetError, match="24 header bytes"):
        recordio.unpack(b"short")
    with pytest.raises(MXNetError, match="3 label values"):
        recordio.unpack(struct.pack("<IfQQ", 3, 0, 0, 0) + b"\x00" * 8)


# -- handles, modes, pickling ----------------------------------------------------------------------
def test_modes_and_argument_errors(tmp_path):
    path = str(tmp_path / "m.rec")
    with pytest.raises(ValueError, match="Invalid flag"):
        recordio.MXRecordIO(path, "a")
    w = recordio.MXIndexedRecordIO(str(tmp_path / "m.idx"), path, "w")
    with pytest.raises(TypeError, match="not str"):
        w.write("text")
    with pytest.raises(MXNetError, match="for writing"):
        w.read()
    with pytest.raises(ValueError, match="tabs"):
        recordio.MXIndexedRecordIO(str(tmp_path / "s.idx"), str(tmp_path / "s.rec"), "w",
                                   key_type=str).write_idx("a\tb", b"x")
    w.write_idx(5, np.arange(3, dtype=np.uint8))
    # the record reaches the file before its index line
    assert Path(path).read_bytes()[8:11] == b"\x00\x01\x02"
    w.close()
    with pytest.raises(MXNetError, match="closed"):
        w.write(b"x")
    r = recordio.MXIndexedRecordIO(str(tmp_path / "m.idx"), path, "r")
    with pytest.raises(MXNetError, match="for reading"):
        r.write(b"x")
    assert r.read_idx(5) == b"\x00\x01\x02"
    assert r.tell() == 12


def test_string_keys_and_writer_reset(tmp_path):
    idx, path = str(tmp_path / "k.idx"), str(tmp_path / "k.rec")
    w = recordio.MXIndexedRecordIO(idx, path, "w", key_type=str)
    w.write_idx("cat", b"meow")
    w.reset()  # a writer starts over, empty
    w.write_idx("dog", b"woof")
    w.write_idx("cow", b"moo")
    assert w.keys == ["dog", "cow"] and w.tell() == 24
    w.close()
    r = recordio.MXIndexedRecordIO(idx, path, "r", key_type=str)
    assert r.keys == ["dog", "cow"] and r.read_idx("cow") == b"moo"


def test_pickle_reopens(tmp_path, meta):
    expected = raw_records(meta)
    r = recordio.MXIndexedRecordIO(str(GOLDEN / "raw.idx"), str(GOLDEN / "raw.rec"), "r")
    r.read_idx(2)
    clone = pickle.loads(pickle.dumps(r))
    assert clone.is_open and clone.keys == r.keys
    assert clone.read() == expected[0]  # reopened at the start
    assert clone.read_idx(7) == expected[7]
    assert r.read() == expected[3]      # the original keeps its position
    r.close()
    closed = pickle.loads(pickle.dumps(r))
    assert not closed.is_open
    seq = recordio.MXRecordIO(str(GOLDEN / "raw.rec"), "r")
    assert pickle.loads(pickle.dumps(seq)).read() == expected[0]


def test_other_process_must_reopen(meta):
    expected = raw_records(meta)
    r = recordio.MXIndexedRecordIO(str(GOLDEN / "raw.idx"), str(GOLDEN / "raw.rec"), "r")
    r.pid = -1  # as if the object had been forked into another process
    with pytest.raises(RuntimeError, match="multiple processes"):
        r.read()
    assert r.read_idx(6) == expected[6]  # seeking reopens the file
    assert r.pid == os.getpid()


# -- images ----------------------------------------------------------------------------------------
def test_pack_img_round_trip(tmp_path):
    pytest.importorskip("PIL")
    rs = np.random.RandomState(1)
    bgr = rs.randint(0, 256, (6, 7, 3)).astype(np.uint8)
    s = recordio.pack_img((0, [1, 2], 9, 0), bgr, img_fmt=".png")
    header, img = recordio.unpack_img(s)
    assert header.flag == 2 and header.id == 9
    np.testing.assert_array_equal(img, bgr)
    _, gray = recordio.unpack_img(s, 0)
    assert gray.shape == (6, 7)
    s = recordio.pack_img((0, 1.0, 0, 0), bgr[:, :, 0], img_fmt=".png")
    np.testing.assert_array_equal(recordio.unpack_img(s)[1], bgr[:, :, 0])
    assert recordio.unpack_img(s, 1)[1].shape == (6, 7, 3)
    smooth = np.repeat(np.linspace(0, 250, 16)[None, :, None], 16, axis=0)
    smooth = np.repeat(smooth, 3, axis=2).astype(np.uint8)
    s = recordio.pack_img((0, 1.0, 0, 0), smooth)  # JPEG, quality 95
    assert recordio.unpack(s)[1][:2] == b"\xff\xd8"
    assert np.abs(recordio.unpack_img(s)[1].astype(int) - smooth).max() <= 4
    with pytest.raises(MXNetError, match="Decoding failed"):
        recordio.unpack_img(recordio.pack((0, 1.0, 0, 0), b"not an image"))
