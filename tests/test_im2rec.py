"""python -m mxnet.tools.im2rec: lists, and record files that 1.9.1 reads the same way
(the golden holds what 1.9.1 decoded from this tool's output; gen_recordio_image.py)."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mxnet import recordio
from mxnet.tools import im2rec

pytest.importorskip("PIL")

GOLDEN = Path(__file__).parent / "golden" / "recordio"
ROOT = Path(__file__).parents[1]


def _load_generator():
    path = ROOT / "tools" / "golden" / "gen_recordio_image.py"
    spec = importlib.util.spec_from_file_location("_gen_recordio_image", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("_gen_recordio_image", module)
    spec.loader.exec_module(module)
    return module


GEN = _load_generator()


@pytest.fixture(scope="module")
def meta():
    return json.loads((GOLDEN / "golden.json").read_text())["im2rec"]


@pytest.fixture(scope="module")
def g():
    with np.load(GOLDEN / "golden.npz") as data:
        return {k: v for k, v in data.items() if k.startswith("im2rec/")}


@pytest.fixture
def images(tmp_path):
    GEN.im2rec_folder(tmp_path / "imgs")
    return tmp_path / "imgs"


def _read(work):
    from mxnet import image
    r = recordio.MXIndexedRecordIO(str(work / "data.idx"), str(work / "data.rec"), "r")
    out = {}
    for key in r.keys:
        header, payload = recordio.unpack(r.read_idx(key))
        out[key] = (header, image.imdecode(payload).asnumpy())
    r.close()
    return r.keys, out


def test_recursive_list_matches(tmp_path, images, meta, capsys):
    assert im2rec.main(["--list", "--recursive", str(tmp_path / "data"), str(images)]) == 0
    assert (tmp_path / "data.lst").read_text() == meta["list"]
    assert capsys.readouterr().out.splitlines() == ["cats 0", "dogs 1"]
    im2rec.main(["--list", "--no-shuffle", str(tmp_path / "flat"), str(images / "dogs")])
    assert (tmp_path / "flat.lst").read_text() == "".join(
        f"{i}\t0.000000\tim{i + 4}.png\n" for i in range(3))


@pytest.mark.parametrize("case", list(GEN.IM2REC_CASES))
def test_records_read_by_reference(case, tmp_path, images, meta, g, capsys):
    want = meta[case]
    work = tmp_path / case
    work.mkdir()
    (work / "data.lst").write_text(meta["list"])
    assert im2rec.main([*GEN.IM2REC_CASES[case], str(work / "data"), str(images)]) == 0
    assert "Creating .rec file from" in capsys.readouterr().out
    keys, records = _read(work)
    assert keys == want["keys"]
    for key, (flag, label, id_, id2) in zip(keys, want["headers"]):
        header, pixels = records[key]
        assert (header.flag, header.label, header.id, header.id2) == (flag, label, id_, id2)
        ref = g[f"im2rec/{case}/{key}"]
        assert pixels.shape == ref.shape
        tol = 0 if case in ("png_resize", "pass", "gray") else 3  # JPEG: the encoder may vary
        assert np.abs(pixels.astype(int) - ref).max() <= tol, key
    got_idx = (work / "data.idx").read_text()
    if case == "pass":  # the original bytes: offsets are exact
        assert got_idx == want["idx"]
    else:  # offsets depend on the PNG/JPEG encoder's output size; the keys must agree
        assert [ln.split("\t")[0] for ln in got_idx.splitlines()] == \
            [ln.split("\t")[0] for ln in want["idx"].splitlines()]


def test_pack_label(tmp_path, images, meta):
    work = tmp_path / "multi"
    work.mkdir()
    (work / "data.lst").write_text(meta["multi"]["list"])
    im2rec.main(["--pack-label", "--encoding", ".png", str(work / "data"), str(images)])
    _, records = _read(work)
    for (flag, label, id_, id2), (header, _) in zip(meta["multi"]["headers"], records.values()):
        assert (header.flag, header.id, header.id2) == (flag, id_, id2)
        np.testing.assert_array_equal(header.label, label)


def test_image_iter_over_im2rec_output(tmp_path, images, meta, g):
    io = pytest.importorskip("mxnet.io")
    if not hasattr(io, "DataBatch"):
        pytest.skip("mxnet.io is not complete")
    from mxnet import image
    work = tmp_path / "png_resize"
    work.mkdir()
    (work / "data.lst").write_text(meta["list"])
    im2rec.main([*GEN.IM2REC_CASES["png_resize"], str(work / "data"), str(images)])
    it = image.ImageIter(2, (3, 5, 5), path_imgrec=str(work / "data.rec"),
                         path_imgidx=str(work / "data.idx"))
    batch = it.next()
    np.testing.assert_array_equal(batch.data[0].asnumpy(), g["im2rec/png_resize/iter_data"])
    np.testing.assert_array_equal(batch.label[0].asnumpy(), g["im2rec/png_resize/iter_label"])


def test_cli_chunks_and_ratios(tmp_path, images):
    cmd = [sys.executable, "-m", "mxnet.tools.im2rec", "--list", "--recursive", "--chunks", "2",
           "--train-ratio", "0.5", "--test-ratio", "0.25", str(tmp_path / "set"), str(images)]
    subprocess.run(cmd, check=True, cwd=ROOT, capture_output=True)
    # 7 images in chunks of 4: per chunk int(4 * 0.25) test, int(4 * 0.5) train, the rest val
    sizes = {p.name: len(p.read_text().splitlines()) for p in tmp_path.glob("set_*.lst")}
    assert sizes == {"set_0_test.lst": 1, "set_0_train.lst": 2, "set_0_val.lst": 1,
                     "set_1_test.lst": 1, "set_1_train.lst": 2, "set_1_val.lst": 0}
    lines = [ln for p in sorted(tmp_path.glob("set_*.lst")) for ln in p.read_text().splitlines()]
    assert sorted(int(ln.split("\t")[0]) for ln in lines) == list(range(7))
    out = subprocess.run([sys.executable, "-m", "mxnet.tools.im2rec", str(tmp_path / "set_0"),
                          str(images)], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert out.count("Creating .rec file from") == 3
    r = recordio.MXIndexedRecordIO(str(tmp_path / "set_0_train.idx"),
                                   str(tmp_path / "set_0_train.rec"), "r")
    assert len(r.keys) == 2
    assert im2rec.main([str(tmp_path / "nothing"), str(images)]) == 1


def test_bad_list_lines_and_images(tmp_path, images, capsys):
    (images / "cats" / "broken.png").write_bytes(b"not a png")
    work = tmp_path / "w"
    work.mkdir()
    (work / "data.lst").write_text("0\t1.0\tcats/im0.png\nbad line\n"
                                   "x\t1\tcats/im1.png\n1\t2.0\tcats/broken.png\n"
                                   "2\t3.0\tcats/missing.png\n3\t4.0\tcats/im1.png\n")
    im2rec.main(["--encoding", ".png", str(work / "data"), str(images)])
    out = capsys.readouterr().out
    assert "three parts" in out and "Parsing lst met error" in out and "broken.png" in out
    keys, records = _read(work)
    assert keys == [0, 3] and records[3][0].label == 4.0
