"""Table-driven operator checks shared by every operator family's tests.

Each family test module defines ``GRAD_CASES``: a list of :class:`GradCase`. The
module parametrises ``check_grad_case`` over it; ``test_coverage.py`` gathers every
table and fails when a differentiable registered operator has no case.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import mxnet as mx
from mxnet.test_utils import check_numeric_gradient, default_context


@dataclass
class GradCase:
    """One gradient check: ``fn(*ndarrays)`` built from ``inputs`` (NumPy arrays).

    ``ops`` lists the registered operator names this case exercises (for coverage).
    ``wrt`` limits the checked inputs (indices); ``eps``/``rtol``/``atol`` tune the
    central difference (which runs in float64).
    """

    id: str
    fn: Callable
    inputs: list
    ops: tuple = ()
    wrt: list | None = None
    eps: float = 1e-4
    rtol: float = 1e-3
    atol: float = 1e-5
    kwargs: dict = field(default_factory=dict)


def check_grad_case(case: GradCase):
    check_numeric_gradient(case.fn, [np.asarray(x, dtype=np.float64) for x in case.inputs],
                           numeric_eps=case.eps, rtol=case.rtol, atol=case.atol,
                           grad_nodes=case.wrt, ctx=default_context())


def rand(*shape, low=-1.0, high=1.0, seed=0):
    """Deterministic uniform test data in float64."""
    return np.random.RandomState(seed).uniform(low, high, size=shape)


def positive(*shape, seed=0):
    return rand(*shape, low=0.5, high=2.0, seed=seed)


def expect_error(fn, *args, match=None, **kwargs):
    """Assert ``fn`` raises MXNetError whose message mentions ``match`` (case-insensitive)."""
    try:
        fn(*args, **kwargs)
    except mx.base.MXNetError as e:
        if match is not None:
            assert match.lower() in str(e).lower(), f"error message {str(e)!r} lacks {match!r}"
        return e
    raise AssertionError(f"{getattr(fn, '__name__', fn)} did not raise MXNetError")


def load_golden_npz(path, regenerate):
    """Every array of a golden .npz fixture by name; fails the test (naming the command that
    writes the file) when the fixture is missing."""
    import pytest
    if not path.exists():
        pytest.fail(f"golden fixture missing; regenerate with: {regenerate}")
    with np.load(path) as npz:
        return {k: npz[k] for k in npz.files}


def golden_case_results(table, case, golden, post=True):
    """Replay ``case`` (a golden generator's Case, run through the generator's ``run_case``
    under this mxnet) on the fixture's inputs and head gradients; returns ``(key, got,
    recorded)`` for every output (``out<j>``), gradient (``grad<i>``) and, with ``post``,
    state after the call (``post<i>``), having checked their number, dtypes and shapes."""
    cid = case.id
    n_out = sum(1 for k in golden if k.startswith(f"{cid}/out"))
    n_head = sum(1 for k in golden if k.startswith(f"{cid}/head"))
    inputs = [golden[f"{cid}/in{i}"] for i in range(len(case.inputs))]
    heads = [golden[f"{cid}/head{j}"] for j in range(n_head)] or None
    outs, _, grads, after = table.run_case(mx, case, inputs=inputs, heads=heads)
    assert len(outs) == n_out
    got = {f"out{j}": o for j, o in enumerate(outs)}
    got.update({f"grad{i}": g for i, g in grads.items()})
    if post:
        got.update({f"post{i}": p for i, p in enumerate(after)})
    results = []
    for key, have in got.items():
        want = golden[f"{cid}/{key}"]
        assert (have.dtype, have.shape) == (want.dtype, want.shape), (key, have.dtype,
                                                                      have.shape, want.dtype,
                                                                      want.shape)
        results.append((key, have, want))
    return results
