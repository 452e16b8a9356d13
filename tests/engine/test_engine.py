"""Tests of the dependency engine: ordering, threads, failures, selection, bulk."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

import mxnet.engine as engine
from mxnet.base import MXNetError
from mxnet.engine import FnProperty, NaiveEngine, ThreadedEngine, Var

# the directory that holds the ``mxnet`` package this process imported
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(engine.__file__))))
TIMEOUT = 5.0


def gate_op(gate, log=None, tag=None):
    """An op that blocks until ``gate`` is set (bounded, so a bug cannot hang the suite)."""
    def fn():
        assert gate.wait(TIMEOUT)
        if log is not None:
            log.append(tag)
    return fn


# -- vars and constants -----------------------------------------------------------

def test_var_plain_attributes():
    v = engine.new_var()
    assert isinstance(v, Var)
    assert v.npending == 0 and v.exc is None
    assert not hasattr(v, "__dict__")
    err = MXNetError("x")
    v.exc = err
    assert v.exc is err
    v.exc = None
    assert "idle" in repr(v)


def test_fn_property_values():
    assert (FnProperty.NORMAL, FnProperty.COPY_FROM_GPU, FnProperty.COPY_TO_GPU,
            FnProperty.CPU_PRIORITIZED, FnProperty.ASYNC) == (0, 1, 2, 3, 4)


# -- where ops run --------------------------------------------------------------------

def test_ready_normal_op_runs_inline(eng):
    v, w = Var(), Var()
    seen = []
    eng.push(lambda: seen.append(threading.get_ident()), [v], [w])
    # it already ran, in this thread, and released its vars
    assert seen == [threading.get_ident()]
    assert v.npending == 0 and w.npending == 0
    assert eng._threads == []  # no worker was needed


@pytest.mark.parametrize("prop", [FnProperty.ASYNC, FnProperty.COPY_FROM_GPU,
                                  FnProperty.COPY_TO_GPU, FnProperty.CPU_PRIORITIZED])
def test_non_normal_ops_run_off_thread(eng, prop):
    v = Var()
    seen = []
    eng.push(lambda: seen.append(threading.get_ident()), (), [v], prop=prop)
    eng.wait_for_var(v)
    assert len(seen) == 1 and seen[0] != threading.get_ident()
    assert v.npending == 0


def test_blocked_normal_op_waits_then_runs(eng):
    v, w = Var(), Var()
    gate = threading.Event()
    log = []
    eng.push(gate_op(gate, log, "async"), (), [v], prop=FnProperty.ASYNC)
    eng.push(lambda: log.append("normal"), [v], [w])
    assert log == [] and w.npending == 1 and v.npending == 2
    gate.set()
    eng.wait_for_var(w)
    assert log == ["async", "normal"]
    assert v.npending == 0 and w.npending == 0


def test_naive_runs_inside_push():
    e = NaiveEngine()
    v = Var()
    seen = []
    for prop in (FnProperty.NORMAL, FnProperty.ASYNC):
        e.push(lambda: seen.append(threading.get_ident()), (), [v], prop=prop)
        assert v.npending == 0
    assert seen == [threading.get_ident()] * 2
    e.wait_for_var(v)
    e.wait_all()


# -- ordering -----------------------------------------------------------------------

def test_writes_run_in_push_order(eng):
    v = Var()
    log = []
    n = 12
    for i in range(n):
        # earlier ops sleep longer: without ordering they would finish last
        def fn(i=i):
            time.sleep(0.001 * (n - i) / n)
            log.append(i)
        eng.push(fn, (), [v], prop=FnProperty.ASYNC)
    eng.wait_for_var(v)
    assert log == list(range(n))


def test_mixed_chain_matches_sequential(eng):
    a, b = Var(), Var()
    cell = {"a": 1, "b": 0}

    def write_a(k):
        def fn():
            x = cell["a"]
            time.sleep(0.0005)
            cell["a"] = x * 3 + k
        return fn

    def a_to_b():
        x = cell["a"]
        time.sleep(0.0002)
        cell["b"] = cell["b"] * 2 + x

    expect = {"a": 1, "b": 0}
    for k in range(6):
        eng.push(write_a(k), (), [a], prop=FnProperty.ASYNC if k % 2 else FnProperty.NORMAL)
        eng.push(a_to_b, [a], [b], prop=FnProperty.ASYNC)
        expect["a"] = expect["a"] * 3 + k
        expect["b"] = expect["b"] * 2 + expect["a"]
    eng.wait_all()
    assert cell == expect


def test_reads_of_one_var_overlap(eng):
    v = Var()
    barrier = threading.Barrier(2, timeout=TIMEOUT)
    met = []

    def reader():
        barrier.wait()  # both readers must be running at once to get past this
        met.append(True)

    eng.push(reader, [v], [Var()], prop=FnProperty.ASYNC)
    eng.push(reader, [v], [Var()], prop=FnProperty.ASYNC)
    eng.wait_all()
    assert met == [True, True]


def test_write_waits_for_earlier_reads(eng):
    v = Var()
    gate = threading.Event()
    log = []
    eng.push(gate_op(gate, log, "read1"), [v], [Var()], prop=FnProperty.ASYNC)
    eng.push(gate_op(gate, log, "read2"), [v], [Var()], prop=FnProperty.ASYNC)
    eng.push(lambda: log.append("write"), (), [v])  # must not run inline
    assert log == [] and v.npending == 3
    gate.set()
    eng.wait_for_var(v)
    assert sorted(log[:2]) == ["read1", "read2"] and log[2] == "write"


def test_read_waits_for_earlier_write(eng):
    v = Var()
    cell = [0]

    def slow_write():
        time.sleep(0.02)
        cell[0] = 42

    eng.push(slow_write, (), [v], prop=FnProperty.ASYNC)
    got = []
    eng.push(lambda: got.append(cell[0]), [v], [Var()])
    eng.wait_all()
    assert got == [42]


def test_read_after_queued_write_is_not_granted_early(eng):
    v = Var()
    gate = threading.Event()
    log = []
    eng.push(gate_op(gate, log, "r1"), [v], [Var()], prop=FnProperty.ASYNC)
    eng.push(lambda: log.append("w"), (), [v])
    eng.push(lambda: log.append("r2"), [v], [Var()])  # behind the write, not beside r1
    gate.set()
    eng.wait_all()
    assert log == ["r1", "w", "r2"]


def test_duplicate_vars_are_merged(eng):
    v, w = Var(), Var()
    gate = threading.Event()
    eng.push(gate_op(gate), [v, v, w], [w, w, v], prop=FnProperty.ASYNC)
    assert v.npending == 1 and w.npending == 1
    eng.push(lambda: None, [v, v], [])
    assert v.npending == 2
    gate.set()
    eng.wait_all()
    assert v.npending == 0 and w.npending == 0


def test_npending_counts_readers_and_writers(eng):
    v = Var()
    gate = threading.Event()
    eng.push(gate_op(gate), (), [v], prop=FnProperty.ASYNC)
    eng.push(lambda: None, [v], [Var()])
    eng.push(lambda: None, [v], [Var()])
    assert v.npending == 3
    gate.set()
    eng.wait_for_var(v)
    assert v.npending == 0


def test_priority_orders_ready_ops():
    e = ThreadedEngine("ThreadedEngine", num_workers=1)
    try:
        gate = threading.Event()
        log = []
        e.push(gate_op(gate), (), [Var()], prop=FnProperty.ASYNC)  # occupies the one worker
        deadline = time.monotonic() + TIMEOUT
        while e._ready and time.monotonic() < deadline:  # let the worker pick it up
            time.sleep(0.001)
        for p in (1, 5, 3, -2):
            e.push(lambda p=p: log.append(p), (), [Var()], priority=p, prop=FnProperty.ASYNC)
        gate.set()
        e.wait_all()
        assert log == [5, 3, 1, -2]
    finally:
        e._stop_workers()


def test_module_level_push_accepts_priority_and_name():
    v = Var()
    out = []
    engine.push(lambda: out.append(1), (), [v], priority=7, name="p", prop=FnProperty.NORMAL)
    engine.push(lambda: out.append(2), [v], [Var()], priority=-3, prop=FnProperty.ASYNC)
    engine.wait_for_var(v)
    engine.wait_all()
    assert out == [1, 2]


def test_wait_all_waits_for_everything(eng):
    done = []
    for i in range(8):
        def fn(i=i):
            time.sleep(0.002)
            done.append(i)
        eng.push(fn, (), [Var()], prop=FnProperty.ASYNC)
    eng.wait_all()
    assert sorted(done) == list(range(8))
    assert eng._npending == 0


def test_concurrent_pushers_keep_counts(eng):
    v = Var()
    counter = [0]

    def bump():
        x = counter[0]
        counter[0] = x + 1

    def pusher():
        for i in range(300):
            eng.push(bump, (), [v], prop=FnProperty.ASYNC if i % 3 == 0 else FnProperty.NORMAL)

    threads = [threading.Thread(target=pusher) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    eng.wait_all()
    assert counter[0] == 1200 and v.npending == 0


def test_nested_push_from_inside_an_op(eng):
    v, w = Var(), Var()
    log = []

    def outer():
        eng.push(lambda: log.append("inner"), (), [w], prop=FnProperty.ASYNC)
        log.append("outer")

    eng.push(outer, (), [v], prop=FnProperty.ASYNC)
    eng.wait_for_var(v)
    eng.wait_for_var(w)
    assert sorted(log) == ["inner", "outer"]


def test_waiting_thread_runs_ready_ops_itself():
    e = ThreadedEngine("ThreadedEngine", num_workers=1)
    try:
        busy, hold = threading.Event(), threading.Event()
        v, w = Var(), Var()
        e.push(gate_op(busy), (), [Var()], prop=FnProperty.ASYNC)  # the only worker is stuck
        started = threading.Event()

        def holder():  # another thread runs an inline op that keeps v until `hold` is set
            started.set()
            assert hold.wait(TIMEOUT)

        t = threading.Thread(target=lambda: e.push(holder, (), [v]))
        t.start()
        assert started.wait(TIMEOUT)
        ran_in = []
        e.push(lambda: ran_in.append(threading.get_ident()), [v], [w])  # queued behind holder
        assert w.npending == 1
        hold.set()
        e.wait_for_var(w)  # no free worker: the waiter must run it
        assert ran_in == [threading.get_ident()]
        t.join(TIMEOUT)
        busy.set()
        e.wait_all()
    finally:
        e._stop_workers()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_engine_works_in_forked_child(eng):
    eng.push(lambda: None, (), [Var()], prop=FnProperty.ASYNC)
    eng.wait_all()  # the parent now has worker threads, which the child lacks
    pid = os.fork()
    if pid == 0:  # child: any failure shows up as a non-zero exit status
        code = 1
        try:
            out = []
            v = Var()
            eng.push(lambda: out.append(1), (), [v], prop=FnProperty.ASYNC)
            eng.push(lambda: out.append(2), [v], [Var()])
            eng.wait_all()
            code = 0 if out == [1, 2] else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + TIMEOUT
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("forked child hung")
        time.sleep(0.005)
    assert os.waitstatus_to_exitcode(status) == 0


def test_worker_count_from_environment(monkeypatch):
    monkeypatch.setenv("MXNET_CPU_WORKER_NTHREADS", "3")
    assert ThreadedEngine()._nworkers == 3
    monkeypatch.setenv("MXNET_CPU_WORKER_NTHREADS", "x")
    with pytest.raises(MXNetError, match="MXNET_CPU_WORKER_NTHREADS"):
        ThreadedEngine()
    monkeypatch.delenv("MXNET_CPU_WORKER_NTHREADS")
    assert ThreadedEngine()._nworkers == 2


def test_workers_restart_after_stop(eng):
    v = Var()
    eng.push(lambda: None, (), [v], prop=FnProperty.ASYNC)
    eng.wait_all()
    old = eng._stop_workers()
    for t in old:
        t.join(TIMEOUT)
        assert not t.is_alive()
    out = []
    eng.push(lambda: out.append(1), (), [v], prop=FnProperty.ASYNC)
    eng.wait_all()
    assert out == [1]


# -- failures -------------------------------------------------------------------------

def boom():
    raise ValueError("boom")


def test_failure_is_stored_and_raised_once(any_engine):
    e = any_engine
    v, w = Var(), Var()
    e.push(boom, [v], [w], name="my_failing_op")  # push itself does not raise
    e.wait_for_var(v)  # only read: no failure there
    with pytest.raises(MXNetError, match="my_failing_op") as info:
        e.wait_for_var(w)
    assert "ValueError: boom" in str(info.value)
    assert isinstance(info.value.__cause__, ValueError)
    assert w.exc is None
    e.wait_for_var(w)  # cleared: a second wait does not raise
    e.wait_all()


def test_failure_on_worker_thread(eng):
    w = Var()
    eng.push(boom, (), [w], name="async_fail", prop=FnProperty.ASYNC)
    with pytest.raises(MXNetError, match="async_fail"):
        eng.wait_for_var(w)
    eng.wait_for_var(w)


def test_failure_skips_dependents_and_propagates(any_engine):
    e = any_engine
    x, y, z, other = Var(), Var(), Var(), Var()
    ran = []
    e.push(boom, (), [x], name="first")
    e.push(lambda: ran.append("reader"), [x], [y], name="reader")
    e.push(lambda: ran.append("writer"), (), [x, z], name="writer")
    e.push(lambda: ran.append("fine"), [other], [other], name="fine")
    # all four were ready, so both engines have run (or skipped) them already
    assert ran == ["fine"]
    assert x.exc is y.exc is z.exc and x.exc is not None
    assert other.exc is None
    with pytest.raises(MXNetError, match="first"):
        e.wait_for_var(y)
    # one report clears the failure everywhere it spread
    assert x.exc is None and z.exc is None
    e.wait_for_var(x)
    e.wait_for_var(z)
    e.wait_all()
    assert ran == ["fine"]


def test_async_failure_skips_queued_dependents(eng):
    x, y = Var(), Var()
    gate = threading.Event()
    ran = []

    def fail_later():
        assert gate.wait(TIMEOUT)
        raise RuntimeError("late")

    eng.push(fail_later, (), [x], name="late_op", prop=FnProperty.ASYNC)
    eng.push(lambda: ran.append(1), [x], [y])
    gate.set()
    with pytest.raises(MXNetError, match="late_op.*RuntimeError: late"):
        eng.wait_for_var(y)
    assert ran == []


def test_wait_all_raises_then_clears(any_engine):
    e = any_engine
    x, y = Var(), Var()
    e.push(boom, (), [x], name="op_a")
    e.push(lambda: None, [x], [y], name="op_b")
    with pytest.raises(MXNetError, match="op_a"):
        e.wait_all()
    assert x.exc is None and y.exc is None
    e.wait_all()
    e.wait_for_var(y)


def test_failure_without_outputs_reaches_wait_all(any_engine):
    e = any_engine
    e.push(boom, [Var()], [], name="sink")
    with pytest.raises(MXNetError, match="sink"):
        e.wait_all()
    e.wait_all()


def test_op_name_defaults_to_function_name(any_engine):
    e = any_engine
    w = Var()

    def exploding_kernel():
        raise KeyError("k")

    e.push(exploding_kernel, (), [w])
    with pytest.raises(MXNetError, match="exploding_kernel"):
        e.wait_for_var(w)


def test_mxnet_error_message_is_kept(any_engine):
    e = any_engine
    w = Var()

    def fn():
        raise MXNetError("shape mismatch (2, 3) vs (4,)")

    e.push(fn, (), [w], name="dot")
    with pytest.raises(MXNetError, match=r"dot.*shape mismatch \(2, 3\)"):
        e.wait_for_var(w)


def test_copied_failure_is_raised_and_then_ignored(any_engine):
    e = any_engine
    src, alias = Var(), Var()
    e.push(boom, (), [src], name="origin")
    # the op ran inline (threaded) or in push (naive); another layer passes the
    # failure on by hand
    assert src.npending == 0 and src.exc is not None
    alias.exc = src.exc
    with pytest.raises(MXNetError, match="origin"):
        e.wait_for_var(alias)
    # the report retired the error: src no longer holds it, and copies are inert
    assert src.exc is None
    stale = Var()
    stale.exc = alias.exc
    e.wait_for_var(stale)
    e.wait_all()


def test_later_ops_run_again_after_report(any_engine):
    e = any_engine
    v = Var()
    out = []
    e.push(boom, (), [v], name="bad")
    with pytest.raises(MXNetError):
        e.wait_for_var(v)
    e.push(lambda: out.append(1), [v], [Var()])
    e.wait_all()
    assert out == [1]


def test_base_exception_is_not_swallowed_inline(eng):
    class Interrupt(BaseException):
        pass

    v = Var()

    def fn():
        raise Interrupt()

    with pytest.raises(Interrupt):
        eng.push(fn, (), [v], name="interrupted")
    assert v.npending == 0
    with pytest.raises(MXNetError, match="interrupted"):
        eng.wait_for_var(v)


def test_module_level_failure_contract():
    w = Var()
    engine.push(boom, (), [w], name="module_level_op")
    with pytest.raises(MXNetError, match="module_level_op"):
        engine.wait_for_var(w)
    engine.wait_all()


# -- engine selection ------------------------------------------------------------------

def _run_python(code, engine_type):
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("MXNET_ENGINE_TYPE", None)
    if engine_type is not None:
        env["MXNET_ENGINE_TYPE"] = engine_type
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


# A fresh interpreter imports the engine under one MXNET_ENGINE_TYPE, then re-runs the
# engine package's import-time selection for the other values (one subprocess, not five).
_SHOW_ALL = """
import importlib, os
import mxnet.engine as e
def show():
    g = e.get_engine()
    print(type(g).__name__, g.name)
show()
for kind in [None, "", "ThreadedEngine", "ThreadedEnginePerDevice", "NaiveEngine"]:
    if kind is None:
        os.environ.pop("MXNET_ENGINE_TYPE", None)
    else:
        os.environ["MXNET_ENGINE_TYPE"] = kind
    importlib.reload(e)
    show()
"""


@pytest.mark.parametrize("first", ["NaiveEngine", None])
def test_engine_type_from_environment(first):
    res = _run_python(_SHOW_ALL, first)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.strip().splitlines()
    initial = "NaiveEngine NaiveEngine" if first else "ThreadedEngine ThreadedEnginePerDevice"
    assert lines == [initial,
                     "ThreadedEngine ThreadedEnginePerDevice",
                     "ThreadedEngine ThreadedEnginePerDevice",
                     "ThreadedEngine ThreadedEngine",
                     "ThreadedEngine ThreadedEnginePerDevice",
                     "NaiveEngine NaiveEngine"]


def test_unknown_engine_type_in_environment():
    # importing the package may already import the engine, so just let it fail
    res = _run_python("import mxnet.engine", "TurboEngine")
    assert res.returncode != 0
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("mxnet.base.MXNetError")
    for word in ("MXNET_ENGINE_TYPE", "TurboEngine", "NaiveEngine", "ThreadedEngine",
                 "ThreadedEnginePerDevice"):
        assert word in last


def test_set_engine_swaps_and_restores():
    before = engine.get_engine()
    prev = engine.set_engine("NaiveEngine")
    try:
        assert prev == before.name
        assert isinstance(engine.get_engine(), NaiveEngine)
        seen = []
        engine.push(lambda: seen.append(1), (), [Var()], prop=FnProperty.ASYNC)
        assert seen == [1]  # synchronous now
    finally:
        engine.set_engine(prev)
    assert engine.get_engine().name == before.name
    assert isinstance(engine.get_engine(), type(before))


def test_set_engine_rejects_unknown_name():
    current = engine.get_engine()
    with pytest.raises(MXNetError, match="NoSuchEngine"):
        engine.set_engine("NoSuchEngine")
    assert engine.get_engine() is current


def test_set_engine_reports_pending_failure_after_swap():
    kind = engine.get_engine().name
    engine.push(boom, (), [Var()], name="left_over")
    try:
        with pytest.raises(MXNetError, match="left_over"):
            engine.set_engine("NaiveEngine")
        assert isinstance(engine.get_engine(), NaiveEngine)
    finally:
        engine.set_engine(kind)


# -- bulk ------------------------------------------------------------------------------

def test_set_bulk_size_returns_previous():
    first = engine.set_bulk_size(15)
    try:
        assert engine.get_bulk_size() == 15
        assert engine.set_bulk_size(4) == 15
    finally:
        engine.set_bulk_size(first)
    assert engine.get_bulk_size() == first


def test_bulk_context_restores_even_on_error():
    prev = engine.get_bulk_size()
    with engine.bulk(30):
        assert engine.get_bulk_size() == 30
        with engine.bulk(2):
            assert engine.get_bulk_size() == 2
        assert engine.get_bulk_size() == 30
    assert engine.get_bulk_size() == prev
    with pytest.raises(ZeroDivisionError):
        with engine.bulk(9):
            raise ZeroDivisionError
    assert engine.get_bulk_size() == prev


def test_bulk_size_is_per_thread_and_validated():
    engine.set_bulk_size(0)
    with engine.bulk(11):
        got = []
        t = threading.Thread(target=lambda: got.append(engine.get_bulk_size()))
        t.start()
        t.join(TIMEOUT)
        assert got == [0]
    with pytest.raises(MXNetError):
        engine.set_bulk_size(-1)


def test_ops_still_run_inside_bulk():
    v = Var()
    out = []
    with engine.bulk(8):
        for i in range(5):
            engine.push(lambda i=i: out.append(i), (), [v])
    engine.wait_for_var(v)
    assert out == list(range(5))


# -- documentation ---------------------------------------------------------------------

def test_public_api_has_docstrings():
    names = ["Var", "new_var", "FnProperty", "push", "wait_for_var", "wait_all",
             "get_engine", "set_engine", "set_bulk_size", "get_bulk_size", "bulk",
             "NaiveEngine", "ThreadedEngine"]
    for n in names:
        assert getattr(engine, n).__doc__, n
    for cls in (NaiveEngine, ThreadedEngine):
        for meth in ("push", "wait_for_var", "wait_all"):
            assert getattr(cls, meth).__doc__, (cls, meth)
