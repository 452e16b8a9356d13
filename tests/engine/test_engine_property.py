"""Property test: random programs on the threaded engine behave like a sequential run.

Each generated op reads some memory cells and writes others; some run on worker
threads (ASYNC) with tiny sleeps between reading and writing, which exposes any
ordering the engine gets wrong. Some ops fail, which checks that failures skip
exactly the ops that depend on them.
"""
from __future__ import annotations

import contextlib
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mxnet.base import MXNetError
from mxnet.engine import FnProperty, ThreadedEngine, Var

NCELLS = 5

op_strategy = st.fixed_dictionaries({
    "reads": st.lists(st.integers(0, NCELLS - 1), max_size=3),
    "writes": st.lists(st.integers(0, NCELLS - 1), max_size=2),
    "async": st.booleans(),
    "sleep": st.sampled_from([0.0, 0.0, 0.0003, 0.001]),
    "priority": st.integers(-2, 2),
    "fails": st.integers(0, 9).map(lambda k: k == 0),
})
program_strategy = st.lists(op_strategy, min_size=6, max_size=24)


def new_value(total, index, cell):
    return (total * 31 + index * 7 + cell) % 1_000_003


def reference(program):
    """Run the program sequentially, applying the engine's failure rules by hand.

    Returns the final cells, which op's failure each cell holds, the read values
    each op that ran saw, and the set of ops that ran and raised.
    """
    cells = [c + 1 for c in range(NCELLS)]
    failed = [None] * NCELLS  # index of the op whose failure a cell holds
    seen = {}
    raisers = set()  # ops that ran and raised
    for i, op in enumerate(program):
        # the engine looks at the (de-duplicated) read-only vars first, then the written
        writes = list(dict.fromkeys(op["writes"]))
        touched = [r for r in dict.fromkeys(op["reads"]) if r not in writes] + writes
        cause = next((failed[c] for c in touched if failed[c] is not None), None)
        if cause is None and op["fails"]:
            cause = i
            raisers.add(i)
        if cause is not None:
            for w in op["writes"]:
                failed[w] = cause
            continue
        seen[i] = tuple(cells[r] for r in op["reads"])
        total = sum(seen[i])
        for w in op["writes"]:
            cells[w] = new_value(total, i, w)
    return cells, failed, seen, raisers


def make_fn(i, op, cells, seen):
    reads, writes, pause, fails = op["reads"], op["writes"], op["sleep"], op["fails"]

    def fn():
        # pause before reading and before writing, so that an op wrongly run
        # beside a conflicting one either reads a wrong value or writes too late
        if pause:
            time.sleep(pause)
        got = tuple(cells[r] for r in reads)
        if pause:
            time.sleep(pause)
        if fails:
            raise ValueError(f"op {i} fails on purpose")
        seen[i] = got
        total = sum(got)
        for w in writes:
            cells[w] = new_value(total, i, w)
    return fn


@contextlib.contextmanager
def fresh_engine():
    """A new two-worker engine per example, so a broken run cannot leak into the next."""
    eng = ThreadedEngine("ThreadedEngine", num_workers=2)
    try:
        yield eng
    finally:
        eng._stop_workers()


def bounded(call, *args, limit=10.0):
    """Run a blocking engine call on a helper thread; fail instead of hanging forever."""
    outcome = []

    def target():
        try:
            call(*args)
        except BaseException as err:  # noqa: BLE001 - handed back to the test thread
            outcome.append(err)
        else:
            outcome.append(None)

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(limit)
    if not outcome:
        pytest.fail(f"{getattr(call, '__name__', call)} did not return: engine deadlock")
    if outcome[0] is not None:
        raise outcome[0]


def run_program(eng, program):
    """Push every op of ``program``; return the vars, the live cells and the read log."""
    vars_ = [Var() for _ in range(NCELLS)]
    cells = [c + 1 for c in range(NCELLS)]
    seen = {}
    for i, op in enumerate(program):
        eng.push(make_fn(i, op, cells, seen),
                 [vars_[r] for r in op["reads"]],
                 [vars_[w] for w in op["writes"]],
                 priority=op["priority"], name=f"op{i}",
                 prop=FnProperty.ASYNC if op["async"] else FnProperty.NORMAL)
    return vars_, cells, seen


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(op_strategy.map(lambda op: {**op, "fails": False}), min_size=6, max_size=24),
       st.integers(0, NCELLS - 1))
def test_threaded_engine_matches_sequential_run(program, first_wait):
    with fresh_engine() as eng:
        vars_, cells, seen = run_program(eng, program)
        want_cells, _, want_seen, _ = reference(program)
        # a waiting thread may run ready ops itself; the result must not change
        bounded(eng.wait_for_var, vars_[first_wait])
        assert vars_[first_wait].npending == 0
        bounded(eng.wait_all)
        assert all(v.npending == 0 for v in vars_)
        assert cells == want_cells
        assert seen == want_seen


@settings(max_examples=60, deadline=None, derandomize=True)
@given(program_strategy)
def test_failures_skip_exactly_the_dependent_ops(program):
    with fresh_engine() as eng:
        vars_, cells, seen = run_program(eng, program)
        _drain(eng)
        _check(eng, program, vars_, cells, seen)


def _drain(eng):
    """Wait, without reporting failures, until every pushed op has finished.

    Reporting a failure clears it from every var it spread to, so an op that
    still had to run would then run instead of being skipped; draining first
    keeps the outcome independent of thread timing.
    """
    deadline = time.monotonic() + 10
    while eng._npending:
        assert time.monotonic() < deadline, "engine did not finish"
        time.sleep(0.0002)


def _check(eng, program, vars_, cells, seen):
    want_cells, want_failed, want_seen, raisers = reference(program)
    # Per cell: the first wait on a failed cell reports its cause, which clears that
    # failure from every cell it spread to.
    reported = set()
    for c in range(NCELLS):
        cause = want_failed[c]
        if cause is not None and cause not in reported:
            with pytest.raises(MXNetError, match=f"operator op{cause} failed"):
                eng.wait_for_var(vars_[c])
            reported.add(cause)
        else:
            eng.wait_for_var(vars_[c])
    assert all(v.npending == 0 for v in vars_)
    assert cells == want_cells
    assert seen == want_seen

    # Failures no cell holds any more (overwritten, or an op without outputs) are
    # left for wait_all.
    left = raisers - reported
    if left:
        with pytest.raises(MXNetError) as info:
            eng.wait_all()
        assert any(f"operator op{i} failed" in str(info.value) for i in left)
    eng.wait_all()
    assert all(v.exc is None for v in vars_)
