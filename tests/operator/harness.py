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
