"""Record mx.io behaviour under 1.9.1: NDArrayIter, CSVIter, MNISTIter, LibSVMIter and
ImageRecordIter batches (contents, labels, pad, index, provide_data / provide_label).

Run with the reference interpreter, from a directory outside the repository (so that this
repository's ``mxnet`` package does not shadow the reference)::

    cd /tmp && MXNET_ENGINE_TYPE=NaiveEngine /work/main/.ref/bin/python /work/main/tools/golden/gen_io.py

It writes ``tests/golden/io/io.npz``. The ``json`` entry holds the case descriptions and the
scalar results; every input file (CSV and LibSVM text, MNIST idx bytes, the .rec / .idx files)
is stored too, so the tests feed this repository exactly what the reference read. Array results
are stored under ``<case>/<epoch>/<batch>/<data|label><i>``.

The image records are PNG (made by the small encoder below) and two JPEGs made once with Pillow
(the reference environment has no image encoder).
"""
from __future__ import annotations

import base64
import json
import os
import struct
import tempfile
from pathlib import Path

import numpy as np
from png_encode import png_bytes  # (run from tools/golden: its folder is on sys.path)

OUT = Path(__file__).resolve().parent.parent.parent / "tests" / "golden" / "io" / "io.npz"

JPEG_B64 = [
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQ"
    "ERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU"
    "FBQUFBQUFBQUFBQUFBT/wAARCAAOABIDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA"
    "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6"
    "Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG"
    "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA"
    "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5"
    "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPE"
    "xcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD5atf2a5CnmQwOk23akdyuJCPmDN/eYgZ+"
    "6MDavGTxt2/7MRQRNDEY7UoHV5I1xtBBPfcTsCk4BPyjjPI/V2D9nrS1uYwnlRW8Lok0W3eJG3Km3JGSpGcknPQgDkGa2+Dt"
    "hpV0IPMYRSIMSK+6QKWYE5IxuPUnB9O/EvV2ir/1a3l8vvB07xtH+v6f9dD8rm/ZLsdx8+yuJJs/vHaG6Us3ckBgBz2AA9hR"
    "X6jzfA7w950nmWlrLJuO6R4SWY9yTv6mil7X/p9JfJGSq6bfgv8A5I//2Q==",
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQ"
    "ERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQU"
    "FBQUFBQUFBQUFBQUFBT/wAARCAAMAAwDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAA"
    "AgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6"
    "Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXG"
    "x8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREA"
    "AgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5"
    "OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPE"
    "xcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwDwPSP2O2vEeZomZTt3wpE68NFwBkfMOSTt"
    "YnAPAOMWrr9jvULny2h0m8mUKVLW0DbAdxyuRjOOg4GAAMDGB+r8Xw50F7p4hZKkMtv5hjHIG4MpAz0GB+vpxXbaZ4I0a0tR"
    "DFZRoiYHAHPA5P8A9bili39Xp+2nrtpZegKcotNu91fXp/X+fc//2Q==",
]


class Recorder:
    def __init__(self):
        self.arrays = {}
        self.meta = {}

    def epochs(self, key, it, n_epochs, between=None, store_data=True):
        """Run ``n_epochs`` epochs (reset between them). The batches' arrays are stacked in run
        order under ``<key>/data<i>`` and ``<key>/label<i>``."""
        out = []
        stacks = {}
        for ep in range(n_epochs):
            if ep:
                (between or it.reset)()
            batches = []
            try:
                for b in it:
                    for what, arrs in (("data", b.data if store_data else []),
                                       ("label", b.label or [])):
                        for i, a in enumerate(arrs):
                            stacks.setdefault(f"{key}/{what}{i}", []).append(a.asnumpy())
                    index = None if b.index is None else [int(v) for v in b.index]
                    batches.append({"pad": int(b.pad) if b.pad is not None else None,
                                    "index": index, "n_data": len(b.data),
                                    "n_label": len(b.label or [])})
            except Exception as e:  # noqa: BLE001 - recorded: the error ends the run
                msg = [ln for ln in str(e).splitlines() if "Check failed" in ln or ln.strip()]
                batches.append({"error": type(e).__name__, "message": msg[-1] if msg else ""})
                out.append(batches)
                break
            out.append(batches)
        for name, arrs in stacks.items():
            self.arrays[name] = np.stack(arrs)
        self.meta[key] = {"epochs": out, "provide_data": [repr(d) for d in it.provide_data],
                          "provide_label": [repr(d) for d in it.provide_label],
                          "batch_size": int(it.batch_size)}
        return out


def ndarray_iter_cases(mx, rec):
    data = np.arange(30, dtype=np.float32).reshape(10, 3)
    label = np.arange(10, dtype=np.float32) * 10
    rec.arrays["in/nd/data"] = data
    rec.arrays["in/nd/label"] = label
    for mode in ("pad", "discard", "roll_over"):
        for bs in (3, 4, 5):
            it = mx.io.NDArrayIter(data, label, batch_size=bs, last_batch_handle=mode)
            rec.epochs(f"nd/{mode}/{bs}", it, 4)
    # hard_reset drops the carried examples
    it = mx.io.NDArrayIter(data, label, batch_size=4, last_batch_handle="roll_over")
    rec.epochs("nd/roll_over_hard", it, 3, between=it.hard_reset)
    # batch larger than the data: padding tiles the data
    small = np.arange(6, dtype=np.float32).reshape(3, 2)
    rec.arrays["in/nd/small"] = small
    for bs in (7, 6, 4):
        it = mx.io.NDArrayIter(small, None, batch_size=bs, last_batch_handle="pad")
        rec.epochs(f"nd/small_pad/{bs}", it, 2)
    it = mx.io.NDArrayIter(small, None, batch_size=4, last_batch_handle="roll_over")
    rec.epochs("nd/small_roll", it, 3)
    # dict and list inputs, custom names
    d2 = np.arange(20, dtype=np.float32).reshape(10, 2)
    l2 = np.arange(10, dtype=np.float32) % 3
    rec.arrays["in/nd/d2"] = d2
    rec.arrays["in/nd/l2"] = l2
    it = mx.io.NDArrayIter({"b": data, "a": d2}, {"y2": l2, "y1": label}, batch_size=4,
                           last_batch_handle="roll_over")
    rec.epochs("nd/dict", it, 3)
    it = mx.io.NDArrayIter([data, d2], [label, l2], batch_size=4, last_batch_handle="pad")
    rec.epochs("nd/list", it, 1)
    it = mx.io.NDArrayIter(data, label, batch_size=4, data_name="x", label_name="y",
                           last_batch_handle="discard")
    rec.epochs("nd/names", it, 1)
    ints = np.arange(10, dtype=np.int32).reshape(5, 2)
    rec.arrays["in/nd/ints"] = ints
    it = mx.io.NDArrayIter(mx.nd.array(ints, dtype="int32"), batch_size=2)
    rec.epochs("nd/int_nd", it, 1)
    seq = np.arange(60, dtype=np.float32).reshape(10, 3, 2)
    rec.arrays["in/nd/seq"] = seq
    it = mx.io.NDArrayIter(seq, label, batch_size=4, layout="NTC")
    rec.epochs("nd/ntc", it, 1)
    # shuffling uses NumPy's global generator, whose legacy stream is stable
    np.random.seed(3)
    it = mx.io.NDArrayIter(data, label, batch_size=4, shuffle=True, last_batch_handle="pad")
    rec.epochs("nd/shuffle", it, 2)
    # ResizeIter and PrefetchingIter over NDArrayIter
    it = mx.io.ResizeIter(mx.io.NDArrayIter(data, label, batch_size=4), 5)
    rec.epochs("nd/resize5", it, 2)
    it = mx.io.ResizeIter(mx.io.NDArrayIter(data, label, batch_size=4), 2, reset_internal=False)
    rec.epochs("nd/resize2", it, 3)
    it = mx.io.PrefetchingIter([mx.io.NDArrayIter(data, label, batch_size=4),
                                mx.io.NDArrayIter(d2, l2, batch_size=4)],
                               rename_data=[{"data": "d1"}, {"data": "d2"}],
                               rename_label=[{"softmax_label": "l1"}, {"softmax_label": "l2"}])
    rec.epochs("nd/prefetch", it, 2)
    rec.meta["repr"] = {
        "desc": repr(mx.io.DataDesc("x", (2, 3))),
        "desc_i": repr(mx.io.DataDesc("x", (2, 3), np.int32, "NTC")),
        "batch_axis": [mx.io.DataDesc.get_batch_axis(x) for x in ("NCHW", "TNC", None, "CHW")],
        "get_list": [repr(d) for d in mx.io.DataDesc.get_list([("a", (1, 2)), ("b", (3,))],
                                                              [("a", np.int32), ("b", np.float16)])],
        "batch_str": str(mx.io.DataBatch([mx.nd.zeros((2, 3))], [mx.nd.zeros((2,))])),
    }


CSV_DATA = "\n".join(",".join(f"{v:g}" for v in row) for row in
                     (np.arange(30).reshape(10, 3) * 1.5 - 4)) + "\n"
CSV_LABEL = "\n".join(f"{v:g}" for v in np.arange(10) * 10) + "\n"
CSV_WIDE = "\n".join(",".join(f"{v:g}" for v in row) for row in (np.arange(40).reshape(5, 8) + 0.5)) + "\n"
CSV_WIDE_LABEL = "\n".join(",".join(f"{v:g}" for v in row) for row in np.arange(10).reshape(5, 2)) + "\n"


def csv_cases(mx, rec, tmp):
    files = {"d.csv": CSV_DATA, "l.csv": CSV_LABEL, "w.csv": CSV_WIDE, "wl.csv": CSV_WIDE_LABEL}
    for name, text in files.items():
        (tmp / name).write_text(text)
    rec.meta["in/csv"] = files
    cases = {
        "round": dict(data_csv="d.csv", data_shape=(3,), label_csv="l.csv", batch_size=4),
        "noround": dict(data_csv="d.csv", data_shape=(3,), label_csv="l.csv", batch_size=4,
                        round_batch=False),
        "nolabel": dict(data_csv="d.csv", data_shape=(3,), batch_size=5),
        "big": dict(data_csv="d.csv", data_shape=(3,), batch_size=12),
        "shape": dict(data_csv="w.csv", data_shape=(2, 4), label_csv="wl.csv", label_shape=(2,),
                      batch_size=2),
        "int32": dict(data_csv="w.csv", data_shape=(8,), batch_size=2, dtype="int32"),
        "int64": dict(data_csv="d.csv", data_shape=(3,), label_csv="l.csv", batch_size=3,
                      dtype="int64"),
        "names": dict(data_csv="d.csv", data_shape=(3,), batch_size=3, data_name="x",
                      label_name="y"),
    }
    rec.meta["csv_cases"] = {k: {a: (list(b) if isinstance(b, tuple) else b) for a, b in v.items()}
                             for k, v in cases.items()}
    for key, kw in cases.items():
        kw = {a: (str(tmp / b) if a.endswith("_csv") else b) for a, b in kw.items()}
        rec.epochs(f"csv/{key}", mx.io.CSVIter(**kw), 3)
    try:
        mx.io.CSVIter(data_csv=str(tmp / "d.csv"), data_shape=(4,), batch_size=2)
        rec.meta["csv_error"] = None
    except mx.base.MXNetError as e:
        rec.meta["csv_error"] = str(e).strip().splitlines()[-1]


def mnist_files(n, rows=4, cols=3, seed=0):
    rs = np.random.RandomState(seed)
    img = rs.randint(0, 256, (n, rows, cols)).astype(np.uint8)
    img[:, 0, 0] = np.arange(n) % 256
    lab = (np.arange(n) * 7 % 10).astype(np.uint8)
    ibytes = struct.pack(">IIII", 2051, n, rows, cols) + img.tobytes()
    lbytes = struct.pack(">II", 2049, n) + lab.tobytes()
    return ibytes, lbytes


def mnist_cases(mx, rec, tmp):
    for n in (10, 50):
        ib, lb = mnist_files(n)
        (tmp / f"img{n}").write_bytes(ib)
        (tmp / f"lab{n}").write_bytes(lb)
        rec.arrays[f"in/mnist/img{n}"] = np.frombuffer(ib, np.uint8)
        rec.arrays[f"in/mnist/lab{n}"] = np.frombuffer(lb, np.uint8)
    cases = {
        "plain": dict(n=10, batch_size=3, shuffle=False),
        "flat": dict(n=10, batch_size=4, shuffle=False, flat=True),
        "default_shuffle": dict(n=50, batch_size=7),
        "seed1": dict(n=50, batch_size=5, shuffle=True, seed=1),
        "seed5": dict(n=50, batch_size=10, shuffle=True, seed=5, flat=True),
        "names": dict(n=10, batch_size=5, shuffle=False, data_name="img", label_name="lab"),
    }
    for p in range(3):
        cases[f"part3_{p}"] = dict(n=10, batch_size=1, shuffle=False, num_parts=3, part_index=p)
    for p in range(4):
        cases[f"part4_{p}"] = dict(n=50, batch_size=2, shuffle=True, seed=2, num_parts=4, part_index=p)
    rec.meta["mnist_cases"] = cases
    for key, kw in cases.items():
        kw = dict(kw)
        n = kw.pop("n")
        it = mx.io.MNISTIter(image=str(tmp / f"img{n}"), label=str(tmp / f"lab{n}"), silent=True, **kw)
        rec.epochs(f"mnist/{key}", it, 2)


LIBSVM_DATA = ("1 0:1.5 3:2\n0 1:1\n-1 2:3 4:4\n2.5 0:1 1:2 2:3\n1\n3 4:0.25\n0 0:-1 4:1\n"
               "7 1:8 3:9\n")
LIBSVM_LABEL = "0 0:1 2:5\n0 1:2\n0 0:3\n0 2:1\n0 1:1\n0 0:4\n0 1:5 2:6\n0 2:2\n"


def libsvm_cases(mx, rec, tmp):
    (tmp / "a.libsvm").write_text(LIBSVM_DATA)
    (tmp / "l.libsvm").write_text(LIBSVM_LABEL)
    rec.meta["in/libsvm"] = {"a.libsvm": LIBSVM_DATA, "l.libsvm": LIBSVM_LABEL}
    cases = {"plain": dict(batch_size=3), "label": dict(batch_size=3, label_libsvm="l.libsvm",
                                                         label_shape=(3,))}
    for p in range(3):
        cases[f"part3_{p}"] = dict(batch_size=2, num_parts=3, part_index=p)
    rec.meta["libsvm_cases"] = {k: {a: (list(b) if isinstance(b, tuple) else b) for a, b in v.items()}
                                for k, v in cases.items()}
    for key, kw in cases.items():
        kw = {a: (str(tmp / b) if a == "label_libsvm" else b) for a, b in kw.items()}
        it = mx.io.LibSVMIter(data_libsvm=str(tmp / "a.libsvm"), data_shape=(5,), **kw)
        rec.epochs(f"libsvm/{key}", it, 3)


def rec_images():
    rs = np.random.RandomState(0)
    imgs = [rs.randint(0, 256, (10 + i % 3, 12 + (i * 2) % 5, 3)).astype(np.uint8) for i in range(7)]
    return imgs


def image_rec_cases(mx, rec, tmp):
    imgs = rec_images()
    payloads = [png_bytes(im) for im in imgs]
    payloads[4] = base64.b64decode(JPEG_B64[0])   # 14 x 18 JPEG
    payloads[5] = base64.b64decode(JPEG_B64[1])   # 12 x 12 JPEG
    payloads[6] = png_bytes(imgs[6][:, :, 1])             # a gray PNG
    w = mx.recordio.MXIndexedRecordIO(str(tmp / "t.idx"), str(tmp / "t.rec"), "w")
    for i, p in enumerate(payloads):
        w.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(0, float(i * 10), 100 + i, 0), p))
    w.close()
    rs = np.random.RandomState(1)
    w = mx.recordio.MXIndexedRecordIO(str(tmp / "m.idx"), str(tmp / "m.rec"), "w")
    for i in range(5):
        img = rs.randint(0, 256, (10, 12, 3)).astype(np.uint8)
        lab = np.array([i, i + 0.5, -i], np.float32)
        w.write_idx(i, mx.recordio.pack(mx.recordio.IRHeader(3, lab, 200 + i, 0), png_bytes(img)))
    w.close()
    for name in ("t.rec", "t.idx", "m.rec", "m.idx"):
        rec.arrays[f"in/rec/{name}"] = np.frombuffer((tmp / name).read_bytes(), np.uint8)
    base = dict(path_imgrec="t.rec", data_shape=(3, 8, 10), batch_size=3)
    cases = {
        "plain": dict(base),
        "noround": dict(base, round_batch=False),
        "big": dict(base, batch_size=10),
        "resize9": dict(base, data_shape=(3, 8, 9), resize=9),
        "resize15": dict(base, data_shape=(3, 8, 9), resize=15),
        "resize15_cubic": dict(base, data_shape=(3, 8, 9), resize=15, inter_method=2),
        "resize9_area": dict(base, data_shape=(3, 8, 9), resize=9, inter_method=3),
        "enlarge_h": dict(base, data_shape=(3, 11, 8)),
        "enlarge_w": dict(base, data_shape=(3, 6, 14)),
        "enlarge_both": dict(base, data_shape=(3, 13, 13)),
        "norm": dict(base, mean_r=10.5, mean_g=20, mean_b=30, std_r=2, std_g=3, std_b=7, scale=0.5),
        "mirror": dict(base, mirror=True),
        "pad": dict(base, pad=2, fill_value=7, data_shape=(3, 13, 15)),
        "gray": dict(base, data_shape=(1, 8, 10), mean_r=100, scale=0.01),
        "names": dict(base, data_name="img", label_name="lab", batch_size=4),
        "threads2": dict(base, preprocess_threads=2, prefetch_buffer=1),
        "multilabel": dict(path_imgrec="m.rec", data_shape=(3, 8, 10), batch_size=2, label_width=3),
    }
    for p in range(3):
        cases[f"part3_{p}"] = dict(base, batch_size=1, num_parts=3, part_index=p)
        cases[f"part3idx_{p}"] = dict(base, batch_size=1, num_parts=3, part_index=p,
                                      path_imgidx="t.idx")
    rec.meta["rec_cases"] = {}
    for key, kw in cases.items():
        rec.meta["rec_cases"][key] = {a: (list(b) if isinstance(b, tuple) else b) for a, b in kw.items()}
        kw = {a: (str(tmp / b) if a.startswith("path_") else b) for a, b in kw.items()}
        n_epochs = 3 if key in ("plain", "noround", "big", "names") else 1
        rec.epochs(f"rec/{key}", mx.io.ImageRecordIter(**kw), n_epochs,
                   store_data=not key.startswith("part"))
    rec.meta["rec_cases"]["uint8"] = dict(base)
    kw = dict(base, path_imgrec=str(tmp / "t.rec"))
    rec.epochs("rec/uint8", mx.io.ImageRecordUInt8Iter(**kw), 1)
    try:
        mx.io.ImageRecordIter(path_imgrec=str(tmp / "m.rec"), data_shape=(3, 8, 10), batch_size=2)
        rec.meta["rec_label_error"] = None
    except mx.base.MXNetError as e:
        rec.meta["rec_label_error"] = [ln for ln in str(e).splitlines() if "Check failed" in ln][0]


def main():
    import mxnet as mx
    rec = Recorder()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        os.chdir(tmp)
        ndarray_iter_cases(mx, rec)
        csv_cases(mx, rec, tmp)
        mnist_cases(mx, rec, tmp)
        libsvm_cases(mx, rec, tmp)
        image_rec_cases(mx, rec, tmp)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(OUT, json=np.array(json.dumps(rec.meta, sort_keys=True)), **rec.arrays)
    print(f"wrote {OUT} ({len(rec.arrays)} arrays, {OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
