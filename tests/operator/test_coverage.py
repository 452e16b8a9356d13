"""Every differentiable registered operator must have a gradient case in some family table."""
import importlib
import pkgutil

import mxnet as mx
from mxnet.operator.registry import all_ops

from . import __name__ as _pkg

# Operators whose gradient rules are exercised only through other ops' backward passes.
_EXEMPT_PREFIXES = ("_backward_",)
_EXEMPT = {"_index_backward", "_CustomFunction"}


def _tables():
    covered, nondiff = set(), set()
    pkg = importlib.import_module(_pkg)
    for info in pkgutil.iter_modules(pkg.__path__):
        if not info.name.startswith("test_") or info.name == "test_coverage":
            continue
        mod = importlib.import_module(f"{_pkg}.{info.name}")
        for case in getattr(mod, "GRAD_CASES", []):
            covered.update(case.ops)
        nondiff.update(getattr(mod, "NON_DIFFERENTIABLE", ()))
    return covered, nondiff


def test_every_differentiable_op_has_a_gradient_case():
    covered, nondiff = _tables()
    missing = []
    seen = set()
    for _name, op in all_ops().items():
        if id(op) in seen:
            continue
        seen.add(id(op))
        if op.gradient is None or op.name in nondiff or op.name.startswith(_EXEMPT_PREFIXES):
            continue
        if op.name in _EXEMPT:
            continue
        names = {op.name, *op.aliases}
        if not names & covered:
            missing.append(op.name)
    assert not missing, f"operators without a gradient case: {sorted(missing)}"


def test_nd_namespace_has_every_public_op():
    for name, op in all_ops().items():
        if not name.startswith("_") and not op.nd_hidden:
            assert callable(getattr(mx.nd, name)), name
