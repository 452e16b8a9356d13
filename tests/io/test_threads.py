"""Background threads of mx.io: errors surface in the consumer, threads end cleanly."""
from __future__ import annotations

import gc
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError

from ._records import pack, png, write_rec

ROOT = Path(__file__).resolve().parents[2]


def _io_threads():
    return [t for t in threading.enumerate() if t.name.startswith("mxnet-")]


def _wait_no_io_threads(timeout=5.0, baseline=()):
    """Wait until no mxnet thread is alive beyond ``baseline`` (threads that earlier tests
    or the engine left running, which these tests do not own)."""
    baseline = set(baseline)
    deadline = time.time() + timeout
    while set(_io_threads()) - baseline and time.time() < deadline:
        time.sleep(0.02)
    return not set(_io_threads()) - baseline


class FailingIter(mx.io.DataIter):
    """Batches of ones; ``next()`` raises on batch ``fail_at`` (counting from 0)."""

    def __init__(self, fail_at, n=5, batch_size=2):
        super().__init__(batch_size)
        self.fail_at, self.n, self.i = fail_at, n, 0
        self.provide_data = [mx.io.DataDesc("data", (batch_size, 3))]
        self.provide_label = [mx.io.DataDesc("softmax_label", (batch_size,))]

    def reset(self):
        self.i = 0

    def next(self):
        if self.i == self.fail_at:
            self.i += 1
            raise ValueError(f"broken batch {self.fail_at}")
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return mx.io.DataBatch([mx.nd.ones((self.batch_size, 3)) * self.i],
                               [mx.nd.zeros((self.batch_size,))], pad=0)


def test_prefetching_iter_raises_thread_error_on_next():
    before = _io_threads()
    it = mx.io.PrefetchingIter(FailingIter(fail_at=2))
    assert it.next().data[0].asnumpy()[0, 0] == 1
    assert it.next().data[0].asnumpy()[0, 0] == 2
    with pytest.raises(ValueError, match="broken batch 2"):
        it.next()
    it.close()
    assert _wait_no_io_threads(baseline=before), [t.name for t in _io_threads()]


def test_prefetching_iter_raises_pending_error_on_reset_then_recovers():
    inner = FailingIter(fail_at=1)
    it = mx.io.PrefetchingIter(inner)
    it.next()
    deadline = time.time() + 5
    while inner.i < 2 and time.time() < deadline:  # let the thread hit the failure
        time.sleep(0.01)
    with pytest.raises(ValueError, match="broken batch 1"):
        it.reset()
    assert it.next().data[0].asnumpy()[0, 0] == 1  # reset did restart the epoch
    it.close()


def test_prefetching_iter_several_iters_must_agree():
    a = mx.io.NDArrayIter(np.zeros((8, 2)), batch_size=2)
    b = mx.io.NDArrayIter(np.zeros((6, 2)), batch_size=2)
    it = mx.io.PrefetchingIter([a, b])
    with pytest.raises(AssertionError, match="mismatches"):
        list(it)
    it.close()


def test_prefetching_iter_reads_one_batch_ahead():
    class Counting(FailingIter):
        calls = 0

        def next(self):
            Counting.calls += 1
            return super().next()

    it = mx.io.PrefetchingIter(Counting(fail_at=-1, n=10))
    it.next()
    time.sleep(0.2)
    assert Counting.calls == 2  # the batch handed out and the one prefetched
    it.reset()
    assert Counting.calls == 3  # reset waits for the fetch in flight, then starts over
    it.close()


def test_threads_end_when_iterators_are_collected(tmp_path):
    pytest.importorskip("PIL")
    before = _io_threads()
    it = mx.io.PrefetchingIter(mx.io.NDArrayIter(np.zeros((8, 2)), batch_size=2))
    it.next()
    rec = tmp_path / "a.rec"
    write_rec(rec, [pack(i, png(np.full((6, 6, 3), i))) for i in range(6)])
    it2 = mx.io.ImageRecordIter(path_imgrec=str(rec), data_shape=(3, 4, 4), batch_size=2)
    it2.next()
    assert set(_io_threads()) - set(before)
    del it, it2
    gc.collect()
    assert _wait_no_io_threads(baseline=before)


def test_image_record_iter_decode_error_raised_on_next(tmp_path):
    pytest.importorskip("PIL")
    rec = tmp_path / "bad.rec"
    recs = [pack(i, png(np.full((6, 6, 3), i * 10))) for i in range(6)]
    recs[4] = pack(4, b"not an image at all")
    write_rec(rec, recs)
    it = mx.io.ImageRecordIter(path_imgrec=str(rec), data_shape=(3, 4, 4), batch_size=2,
                               preprocess_threads=2)
    assert it.next().label[0].asnumpy().tolist() == [0, 1]
    assert it.next().label[0].asnumpy().tolist() == [2, 3]
    with pytest.raises(MXNetError, match="cannot decode"):
        it.next()
    with pytest.raises(MXNetError, match="cannot decode"):  # reset starts again; it fails again
        it.reset()
        list(it)
    it.close()


def test_interpreter_exits_with_iterators_running(tmp_path):
    pytest.importorskip("PIL")
    rec = tmp_path / "a.rec"
    write_rec(rec, [pack(i, png(np.full((6, 6, 3), i))) for i in range(40)])
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        import numpy as np
        import mxnet as mx

        class Slow(mx.io.NDArrayIter):
            def next(self):
                time.sleep(0.05)
                return super().next()

        p = mx.io.PrefetchingIter([Slow(np.zeros((100, 2)), batch_size=2),
                                   mx.io.NDArrayIter(np.zeros((100, 2)), batch_size=2)])
        p.next()
        r = mx.io.ImageRecordIter(path_imgrec={str(rec)!r}, data_shape=(3, 4, 4), batch_size=2,
                                  preprocess_threads=2, prefetch_buffer=2)
        r.next()
        c = mx.io.CSVIter(data_csv={str(tmp_path / 'd.csv')!r}, data_shape=(2,), batch_size=1)
        c.next()
        print("done")
    """)
    (tmp_path / "d.csv").write_text("\n".join("1,2" for _ in range(50)))
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"
