"""gluon.data: samplers, datasets, batchify and the DataLoader (workers included).

Golden values come from tests/golden/gluon_data.npz (tools/golden/gen_gluon_data.py, 1.9.1).
"""
from __future__ import annotations

import gc
import json
import multiprocessing
import pickle
import time
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.gluon.data import (
    ArrayDataset,
    BatchSampler,
    DataLoader,
    Dataset,
    FilterSampler,
    RandomSampler,
    RecordFileDataset,
    Sampler,
    SequentialSampler,
    SimpleDataset,
)
from mxnet.gluon.data.dataloader import default_batchify_fn

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "gluon_data.npz"


@pytest.fixture(scope="module")
def golden():
    g = np.load(GOLDEN)
    return g, json.loads(str(g["json"]))


def _np(batch):
    if isinstance(batch, list):
        return [_np(b) for b in batch]
    return batch.asnumpy().tolist()


def _no_children(timeout=5.0):
    deadline = time.time() + timeout
    while multiprocessing.active_children() and time.time() < deadline:
        time.sleep(0.05)
    return multiprocessing.active_children() == []


# -- samplers --------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["keep", "discard", "rollover"])
def test_batch_sampler_epochs_match_reference(golden, mode):
    _, meta = golden
    bs = BatchSampler(SequentialSampler(10), 3, mode)
    epochs = [[list(map(int, b)) for b in bs] for _ in range(3)]
    assert epochs == meta["order"][f"sampler/{mode}"]
    assert len(bs) == meta["order"][f"sampler_len/{mode}"]


def test_batch_sampler_rollover_len_counts_carried_samples():
    bs = BatchSampler(SequentialSampler(10), 4, "rollover")
    assert len(bs) == 2
    assert list(bs) == [[0, 1, 2, 3], [4, 5, 6, 7]]
    assert len(bs) == 3  # 2 carried + 10 new
    assert list(bs)[0] == [8, 9, 0, 1]


def test_batch_sampler_rejects_unknown_mode():
    bs = BatchSampler(SequentialSampler(5), 2, "bogus")
    with pytest.raises(ValueError, match="last_batch must be one of"):
        list(bs)
    with pytest.raises(ValueError, match="last_batch must be one of"):
        len(bs)


def test_sequential_random_filter_samplers():
    assert list(SequentialSampler(4, start=3)) == [3, 4, 5, 6]
    np.random.seed(5)
    a = list(RandomSampler(20))
    np.random.seed(5)
    assert list(RandomSampler(20)) == a
    assert sorted(a) == list(range(20)) and a != list(range(20))
    fs = FilterSampler(lambda x: x > 2, [5, 1, 3, 0])
    assert list(fs) == [0, 2] and len(fs) == 2
    with pytest.raises(NotImplementedError):
        iter(Sampler())


# -- datasets --------------------------------------------------------------------------------------
def test_dataset_views_match_reference(golden):
    _, meta = golden
    o = meta["order"]
    base = SimpleDataset(list(range(10)))
    assert [list(base.shard(3, i)) for i in range(3)] == o["shard"]
    assert [len(base.shard(4, i)) for i in range(4)] == o["shard_len"]
    assert [list(base.take(4)), list(base.take(None)), list(base.take(20))] == o["take"]
    assert list(base.filter(lambda v: v % 3 == 0)) == o["filter"]
    assert list(base.sample(SequentialSampler(3, 5))) == o["sample"]
    pairs = ArrayDataset([1, -2, 3], [-4, 5, -6]).transform_first(abs)
    assert [list(t) for t in pairs] == o["transform_first"]
    with pytest.raises(TypeError, match="Invalid sampler type"):
        base.sample([1, 2])
    with pytest.raises(AssertionError):
        base.shard(2, 2)


def test_transform_lazy_and_eager():
    calls = []

    def fn(x, y):
        calls.append(x)
        return x * 2, y

    ds = ArrayDataset(np.arange(4), np.arange(4) + 10)
    lazy = ds.transform(fn)
    assert calls == [] and len(lazy) == 4
    assert lazy[1] == (2, 11) and calls == [1]
    eager = ds.transform(fn, lazy=False)
    assert isinstance(eager, SimpleDataset) and len(calls) == 5
    assert eager[3] == (6, 13)
    single = SimpleDataset([1, 2, 3]).transform_first(lambda v: -v)
    assert list(single) == [-1, -2, -3]
    # a transform_first closure pickles (worker processes need it)
    assert pickle.loads(pickle.dumps(SimpleDataset([1, 2]).transform_first(abs)))[0] == 1


def test_array_dataset_kinds():
    ds = ArrayDataset(mx.nd.arange(5), mx.nd.arange(10).reshape((5, 2)), np.arange(5), list(range(5)))
    a, b, c, d = ds[1]
    assert isinstance(a, np.float32) and a == 1.0  # 1-D NDArrays become NumPy, as in 1.9.1
    assert isinstance(b, mx.nd.NDArray) and b.asnumpy().tolist() == [2.0, 3.0]
    assert c == 1 and d == 1 and len(ds) == 5
    assert ArrayDataset([7, 8])[1] == 8
    with pytest.raises(AssertionError, match="same length"):
        ArrayDataset([1, 2], [1])
    with pytest.raises(NotImplementedError):
        Dataset()[0]


# -- batchify --------------------------------------------------------------------------------------
BATCHIFY_CASES = {
    "ints": [1, 2, 3],
    "floats": [1.5, 2.5],
    "np_f32": [np.float32(1), np.float32(2)],
    "bools": [True, False, True],
    "nested": [(1, 2.0, np.arange(3, dtype=np.float32), (np.int32(4), [5, 6])),
               (7, 8.0, np.arange(3, 6, dtype=np.float32), (np.int32(9), [10, 11]))],
    "ndarray": [(mx.nd.array([1, 2]), mx.nd.array([[3]], dtype="int32")),
                (mx.nd.array([4, 5]), mx.nd.array([[6]], dtype="int32"))],
    "np_rows": [np.ones((2, 2), np.float64), np.zeros((2, 2), np.float64)],
}


@pytest.mark.parametrize("case", sorted(BATCHIFY_CASES))
def test_default_batchify_matches_reference(golden, case):
    g, meta = golden

    def check(out, desc, prefix):
        if isinstance(desc[0], list):
            assert isinstance(out, list) and len(out) == len(desc)
            for i, (o, d) in enumerate(zip(out, desc)):
                check(o, d, f"{prefix}/{i}")
            return
        assert isinstance(out, mx.nd.NDArray)
        assert str(np.dtype(out.dtype)) == desc[0] and list(out.shape) == desc[1]
        np.testing.assert_array_equal(out.asnumpy(), g[prefix])

    check(default_batchify_fn(BATCHIFY_CASES[case]), meta["batchify"][case], f"batchify/{case}")


# -- DataLoader, in process ------------------------------------------------------------------------
def _loader_dataset():
    return ArrayDataset(np.arange(11, dtype=np.float32) * 10, np.arange(11))


@pytest.mark.parametrize("mode", ["keep", "discard", "rollover"])
def test_loader_batches_match_reference(golden, mode):
    _, meta = golden
    loader = DataLoader(_loader_dataset(), batch_size=4, last_batch=mode)
    epochs = [[_np(b) for b in loader] for _ in range(3)]
    assert epochs == meta["order"][f"loader/{mode}"]
    assert len(loader) == meta["order"][f"loader_len/{mode}"]  # after three epochs


def test_shuffle_order_matches_reference_for_a_seed(golden):
    _, meta = golden
    np.random.seed(42)
    loader = DataLoader(SimpleDataset(list(range(10))), batch_size=4, shuffle=True)
    assert [[b.asnumpy().tolist() for b in loader] for _ in range(2)] == meta["order"]["shuffle_seed42"]


def test_loader_argument_checks():
    ds = _loader_dataset()
    with pytest.raises(ValueError, match="batch_size must be specified"):
        DataLoader(ds)
    with pytest.raises(ValueError, match="shuffle must not be specified"):
        DataLoader(ds, batch_size=2, shuffle=True, sampler=SequentialSampler(11))
    with pytest.raises(ValueError, match="must not be specified if batch_sampler"):
        DataLoader(ds, batch_size=2, batch_sampler=BatchSampler(SequentialSampler(11), 2))
    with pytest.raises(AssertionError, match="timeout must be positive"):
        DataLoader(ds, batch_size=2, timeout=0)


def test_loader_shuffle_sampler_batchify_pin():
    ds = _loader_dataset()
    np.random.seed(0)
    seen = np.concatenate([b[1].asnumpy() for b in DataLoader(ds, batch_size=3, shuffle=True)])
    assert sorted(seen.tolist()) == list(range(11)) and seen.tolist() != list(range(11))
    custom = DataLoader(ds, batch_sampler=BatchSampler(SequentialSampler(4, 2), 2),
                        batchify_fn=lambda samples: [s[1] for s in samples])
    assert list(custom) == [[2, 3], [4, 5]]
    pinned = next(iter(DataLoader(ds, batch_size=2, pin_memory=True, pin_device_id=0)))
    assert pinned[0].context == mx.cpu_pinned(0)
    assert next(iter(DataLoader(np.arange(6).reshape(3, 2), batch_size=2))).shape == (2, 2)


def test_loader_auto_reload_prefetches_the_next_pass():
    calls = []
    ds = SimpleDataset(list(range(4))).transform(lambda v: calls.append(v) or v)
    loader = DataLoader(ds, batch_size=2, auto_reload=True)
    assert [b.asnumpy().tolist() for b in loader] == [[0, 1], [2, 3]]
    assert [b.asnumpy().tolist() for b in loader] == [[0, 1], [2, 3]]
    assert len(calls) == 8


# -- DataLoader with workers -----------------------------------------------------------------------
def _double(x):
    return x * 2


def test_workers_give_the_same_batches_and_shut_down():
    ds = ArrayDataset(np.arange(40, dtype=np.float32).reshape(20, 2), np.arange(20))
    ds = ds.transform_first(lambda x: x + 1)  # a lambda: workers get the dataset by fork
    plain = DataLoader(ds, batch_size=3, last_batch="rollover")
    with DataLoader(ds, batch_size=3, last_batch="rollover", num_workers=2) as loader:
        assert len(multiprocessing.active_children()) >= 2
        for _ in range(3):  # the pool is reused across epochs; rollover carries samples over
            assert [_np(b) for b in loader] == [_np(b) for b in plain]
        first = next(iter(loader))
        assert isinstance(first[0], mx.nd.NDArray) and first[0].dtype == np.float32
        assert first[0].context == mx.cpu(0)
    assert _no_children()


def test_workers_early_break_then_new_epoch_and_gc_shutdown():
    ds = ArrayDataset(np.arange(30, dtype=np.float32), np.arange(30))
    loader = DataLoader(ds, batch_size=2, num_workers=2, prefetch=6)
    for i, _ in enumerate(loader):
        if i == 1:
            break
    full = [_np(b) for b in loader]
    assert full == [_np(b) for b in DataLoader(ds, batch_size=2)]
    del loader
    gc.collect()
    assert _no_children()


def test_workers_draw_distinct_random_streams():
    ds = SimpleDataset(list(range(12))).transform(lambda i: np.random.rand())
    with DataLoader(ds, batch_size=2, num_workers=2, prefetch=6) as loader:
        values = np.concatenate([b.asnumpy() for b in loader])
    assert len(np.unique(values)) == 12
    assert _no_children()


def test_thread_pool_and_pinned_workers():
    ds = ArrayDataset(np.arange(12, dtype=np.float32).reshape(6, 2), np.arange(6))
    ref = [_np(b) for b in DataLoader(ds.transform_first(_double), batch_size=4)]
    threads = DataLoader(ds.transform_first(_double), batch_size=4, num_workers=2, thread_pool=True)
    assert [_np(b) for b in threads] == ref
    threads.close()
    with DataLoader(ds, batch_size=4, num_workers=1, pin_memory=True) as loader:
        batch = next(iter(loader))
        assert batch[0].context == mx.cpu_pinned(0) and batch[1].context == mx.cpu_pinned(0)
    assert _no_children()


def _sleepy(x):
    time.sleep(1.5)
    return x


def test_worker_timeout_raises_clear_error():
    ds = SimpleDataset(list(range(4))).transform(_sleepy)
    loader = DataLoader(ds, batch_size=2, num_workers=1, timeout=0.2, prefetch=1)
    start = time.time()
    with pytest.raises(multiprocessing.TimeoutError, match="timeout=0.2 seconds"):
        next(iter(loader))
    assert time.time() - start < 1.2
    loader.close()
    assert _no_children()


def _boom(x):
    if x == 3:
        raise KeyError("sample 3 is broken")
    return x


def test_worker_exception_reaches_the_caller():
    with DataLoader(SimpleDataset(list(range(6))).transform(_boom), batch_size=2,
                    num_workers=2) as loader:
        with pytest.raises(KeyError, match="sample 3 is broken"):
            list(loader)
    assert _no_children()
    closed = DataLoader(SimpleDataset([1, 2]), batch_size=1, num_workers=1)
    closed.close()
    with pytest.raises(RuntimeError, match="worker pool was closed"):
        list(closed)


# -- RecordIO --------------------------------------------------------------------------------------
def _write_rec(tmp_path, golden):
    g, meta = golden
    rec = tmp_path / "data.rec"
    rec.write_bytes(g["rec/bytes"].tobytes())
    (tmp_path / "data.idx").write_text(meta["rec_idx"])
    return str(rec)


def test_record_file_dataset_reads_reference_file(tmp_path, golden):
    _, meta = golden
    ds = RecordFileDataset(_write_rec(tmp_path, golden))
    assert len(ds) == meta["rec_len"]
    # the last record had the magic number inside: the writer split it, the reader rejoins it
    assert list(ds[len(ds) - 1]) == meta["rec_raw_last"]
    from mxnet.gluon.data._recordio import unpack
    header, payload = unpack(ds[2])
    np.testing.assert_array_equal(header.label, [1.5, 2.5, 3.5])
    assert header.id == 2 and payload[:4] == b"\x89PNG"
    clone = pickle.loads(pickle.dumps(ds))
    assert clone[1] == ds[1]
    ref = [bytes(r) for r in ds]
    with DataLoader(ds, batch_size=2, num_workers=2, batchify_fn=list) as loader:
        assert [bytes(r) for b in loader for r in b] == ref
    assert _no_children()


def test_record_reader_rejects_bad_files(tmp_path):
    (tmp_path / "bad.rec").write_bytes(b"\x00" * 16)
    (tmp_path / "bad.idx").write_text("0\t0\n")
    with pytest.raises(ValueError, match="invalid RecordIO magic"):
        RecordFileDataset(str(tmp_path / "bad.rec"))[0]
    (tmp_path / "gone.idx").write_text("0\t0\n")
    with pytest.raises(FileNotFoundError):
        RecordFileDataset(str(tmp_path / "gone.rec"))


def test_worker_processes_fork_unless_the_program_chose(monkeypatch):
    # 1.9.1's workers fork on Linux; Python 3.14's forkserver default would need picklable
    # datasets and transforms (lambdas are common in these), so fork is asked for there
    import multiprocessing
    import sys

    from mxnet.gluon.data import dataloader
    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: None)
    want = "fork" if sys.platform.startswith("linux") else multiprocessing.get_context() \
        .get_start_method()
    assert dataloader._worker_context().get_start_method() == want
    monkeypatch.undo()
    before = multiprocessing.get_start_method(allow_none=True)
    multiprocessing.set_start_method("spawn", force=True)   # the program's choice is kept
    try:
        assert dataloader._worker_context().get_start_method() == "spawn"
    finally:
        multiprocessing.set_start_method(before, force=True)
