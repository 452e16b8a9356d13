"""engine.push_async: asynchronous ops that hold their vars until a completion call."""
from __future__ import annotations

import threading

import pytest

import mxnet.engine as engine
from mxnet.base import MXNetError
from mxnet.engine import NaiveEngine, Var

TIMEOUT = 5.0


def later(fn, delay=0.05):
    """Run ``fn`` on another thread after ``delay`` seconds."""
    t = threading.Timer(delay, fn)
    t.start()
    return t


def test_grants_held_until_completion(eng):
    v = Var()
    log = []
    box = {}

    def start(done):
        log.append("start")
        box["done"] = done
    eng.push_async(start, (), (v,), name="slow")
    assert log == ["start"] and v.npending == 1
    eng.push(lambda: log.append("reader"), (v,), ())
    assert log == ["start"]          # the reader waits for the async op's write
    later(lambda: (log.append("complete"), box["done"]()))
    eng.wait_for_var(v)
    assert log == ["start", "complete", "reader"]
    assert v.npending == 0


def test_waits_for_earlier_ops_and_orders_later_ones(eng):
    v, w = Var(), Var()
    gate = threading.Event()
    log = []
    # a writer of w that runs on a worker and blocks until the gate opens
    eng.push(lambda: (gate.wait(TIMEOUT), log.append("gated")), (), (w,),
             prop=engine.FnProperty.ASYNC)

    def start(done):
        log.append("async-start")
        later(done, 0.01)
    eng.push_async(start, (w,), (v,))
    eng.push(lambda: log.append("after"), (v,), ())
    assert "async-start" not in log
    gate.set()
    eng.wait_all()
    assert log == ["gated", "async-start", "after"]


def test_release_hands_one_var_back_early(eng):
    a, b, r = Var(), Var(), Var()
    box = {}
    eng.push_async(lambda done: box.setdefault("done", done), (r,), (a, b))
    got = []
    eng.push(lambda: got.append("a"), (a,), ())
    eng.push(lambda: got.append("b"), (b,), ())
    eng.push(lambda: got.append("r-write"), (), (r,))
    assert got == []
    box["done"].release(a)
    eng.wait_for_var(a)
    assert got == ["a"]
    assert b.npending == 2 and r.npending == 2
    box["done"].release(r)          # a read given back: the queued write may go
    eng.wait_for_var(r)
    assert got == ["a", "r-write"]
    box["done"].release(a)          # not held any more: nothing happens
    box["done"]()
    eng.wait_all()
    assert got == ["a", "r-write", "b"]


def test_failure_is_raised_at_the_next_wait_point(any_engine):
    v = Var()

    def start(done):
        later(lambda: done(ValueError("wire broke")))
    any_engine.push_async(start, (), (v,), name="KVStore.pull(3)")
    with pytest.raises(MXNetError, match=r"KVStore\.pull\(3\).*wire broke"):
        any_engine.wait_for_var(v)
    any_engine.wait_for_var(v)      # reported once


def test_failure_of_the_callable_itself(any_engine):
    v = Var()

    def start(done):
        raise RuntimeError("could not start")
    any_engine.push_async(start, (), (v,), name="starter")
    with pytest.raises(MXNetError, match="starter.*could not start"):
        any_engine.wait_for_var(v)


def test_failed_release_marks_that_var(eng):
    a, b = Var(), Var()
    box = {}
    eng.push_async(lambda done: box.setdefault("done", done), (), (a, b), name="walk")
    box["done"].release(a, KeyError("half"))
    with pytest.raises(MXNetError, match="walk.*half"):
        eng.wait_for_var(a)
    box["done"]()
    eng.wait_for_var(b)


def test_failed_input_skips_the_op_and_calls_on_skip(any_engine):
    src, dst = Var(), Var()
    any_engine.push(lambda: 1 / 0, (), (src,), name="producer")
    called, skipped = [], []
    any_engine.push_async(lambda done: called.append(done), (src,), (dst,),
                          on_skip=skipped.append)
    assert called == [] and len(skipped) == 1 and "producer" in str(skipped[0])
    with pytest.raises(MXNetError, match="producer"):
        any_engine.wait_for_var(dst)


def test_completion_twice_is_an_error(any_engine):
    v = Var()
    box = {}

    def start(done):
        box["done"] = done
        done()
    any_engine.push_async(start, (), (v,), name="twice")
    with pytest.raises(MXNetError, match="twice.*more than once"):
        box["done"]()
    any_engine.wait_all()


def test_naive_engine_blocks_until_completed_from_another_thread():
    e = NaiveEngine()
    v = Var()
    log = []

    def start(done):
        later(lambda: (log.append("worker done"), done()), 0.05)
    e.push_async(start, (), (v,))
    assert log == ["worker done"]   # push_async returned only after the completion


def test_module_level_push_async_uses_the_current_engine():
    v = Var()
    out = []

    def start(done):
        out.append(1)
        later(done, 0.01)
    engine.push_async(start, (), (v,))
    engine.wait_for_var(v)
    assert out == [1] and v.npending == 0


def test_many_async_ops_completed_from_threads_keep_var_order(eng):
    v = Var()
    log = []
    for i in range(20):
        def start(done, i=i):
            log.append(i)
            later(done, 0.001)
        eng.push_async(start, (), (v,))
    eng.wait_all()
    assert log == list(range(20))
