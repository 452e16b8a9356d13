"""Storage-type inference for bound symbols (1.9.1's ``FInferStorageType`` pass).

Every kernel here computes on dense arrays; storage types only decide how the bound
arrays, the outputs and the gradients are *stored*. As in 1.9.1:

- an argument's storage type comes from the array bound to it, from ``simple_bind``'s
  ``stype_dict`` or from its variable's ``stype`` (JSON attr ``__storage_type__``);
- each operator output gets the storage type the operator's rule gives for its inputs'
  (``dot(csr.T, dense)`` is row_sparse, ``elemwise_add`` of two row_sparse arrays is
  row_sparse, a zero-preserving unary function keeps its input's, ``cast_storage``
  gives its ``stype``; anything else is dense, 1.9.1's storage fallback);
- the gradients flow back with storage types too: the head gradient of an output has
  the output's storage type, the weight gradient of ``dot(csr, w)`` and of
  ``Embedding(sparse_grad=True)`` is row_sparse, operators that ran sparse pass a sparse
  output gradient on to their inputs of that storage type, and several contributions
  to one gradient stay sparse only when all of them are sparse of one type.

:func:`infer` returns ``None`` for a graph that has nothing sparse (no sparse argument,
no operator that makes sparse data from dense), after one scan of the nodes: dense
graphs pay nothing else.
"""
from __future__ import annotations

from ..ndarray import sparse as _sparse  # noqa: F401 - loads sparse_ops in order
from ..ndarray.sparse_ops import ZERO_PRESERVING

__all__ = ["STYPE_NAMES", "declared_stypes", "infer", "StorageInfo"]

DEFAULT, RSP, CSR = "default", "row_sparse", "csr"
STYPE_NAMES = {"0": DEFAULT, "1": RSP, "2": CSR}   # a variable's ``__storage_type__``

# operators that can make sparse data (or sparse gradients) from dense inputs
_SOURCES = {
    "cast_storage": lambda a: a.get("stype", DEFAULT) != DEFAULT,
    "Embedding": lambda a: bool(a.get("sparse_grad")),
    "_contrib_SparseEmbedding": lambda a: True,
}


def declared_stypes(order, stype_dict=None):
    """{variable name: storage type} from the variables' ``stype`` and ``stype_dict``
    (which wins); only names with a storage type other than 'default' are listed."""
    out = {}
    for node in order:
        if node.op is None:
            code = (node.attrs or {}).get("__storage_type__")
            if code is not None and STYPE_NAMES.get(str(code), DEFAULT) != DEFAULT:
                out[node.name] = STYPE_NAMES[str(code)]
    for name, st in (stype_dict or {}).items():
        if st not in (DEFAULT, RSP, CSR):
            from ..base import MXNetValueError
            raise MXNetValueError(f"simple_bind: stype_dict[{name!r}] must be 'default', "
                                  f"'row_sparse' or 'csr', got {st!r}")
        if st == DEFAULT:
            out.pop(name, None)
        else:
            out[name] = st
    return out


# -- forward rules: (parsed attrs, input stypes) -> output stype ------------------------------------

def _same_sparse(attrs, ins):
    """Both operands sparse of one storage type: that type; else dense."""
    return ins[0] if ins[0] != DEFAULT and all(s == ins[0] for s in ins) else DEFAULT


def _mul(attrs, ins):
    """A sparse operand's storage type is kept, also with a dense other operand; two
    sparse operands of different storage types give a dense result."""
    sp = {s for s in ins if s != DEFAULT}
    return sp.pop() if len(sp) == 1 else DEFAULT


def _add_n(attrs, ins):
    return RSP if ins and all(s == RSP for s in ins) else DEFAULT


def _keep(attrs, ins):
    return ins[0]


def _dot(attrs, ins):
    lhs, rhs = ins[0], ins[1]
    ta, tb = attrs.get("transpose_a"), attrs.get("transpose_b")
    if lhs == CSR and rhs in (DEFAULT, RSP) and ta and not tb:
        return RSP
    if lhs == DEFAULT and rhs == CSR and not ta:
        return CSR
    return DEFAULT


def _square_sum(attrs, ins):
    axis = attrs.get("axis")
    axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    if ins[0] == RSP and axis == (1,) and attrs.get("keepdims"):
        return RSP
    return DEFAULT


def _cast(attrs, ins):
    return attrs.get("stype", DEFAULT)


def _retain(attrs, ins):
    return RSP if ins[0] == RSP else DEFAULT


_FORWARD = {
    "elemwise_add": _same_sparse, "elemwise_sub": _same_sparse, "elemwise_mul": _mul,
    "add_n": _add_n, "_mul_scalar": _keep, "_div_scalar": _keep, "_copy": _keep,
    "zeros_like": _keep, "dot": _dot, "_square_sum": _square_sum, "cast_storage": _cast,
    "_sparse_retain": _retain,
}
for _n in ZERO_PRESERVING:
    _FORWARD.setdefault(_n, _keep)

# -- backward rules: which inputs get the output gradient's sparse storage type --------------------

# operators whose gradient keeps a sparse output gradient's storage type for each input
# of that storage type (when the operator itself ran sparse)
_PASS_BACK = {"elemwise_add", "elemwise_sub", "add_n", "_copy", "negative", "_mul_scalar",
              "_div_scalar", "zeros_like", "square", "relu", "abs"}


def _backward_rule(node, in_st, out_st, og):
    """Storage types of the input gradients of ``node`` (None: no gradient known)."""
    name, attrs = node.op.name, node.parsed
    n = len(in_st)
    if name == "dot":
        if not attrs.get("transpose_a") and not attrs.get("transpose_b") and in_st[0] == CSR:
            return [DEFAULT, RSP][:n]
        return [DEFAULT] * n
    if (name == "Embedding" and attrs.get("sparse_grad")) or name == "_contrib_SparseEmbedding":
        return [DEFAULT, RSP][:n]
    if name == "cast_storage":   # the output gradient as it is
        return [og]
    if name == "_square_sum":
        return [RSP if in_st[0] == RSP else DEFAULT]
    if name in _PASS_BACK and og is not None and og != DEFAULT and out_st == og:
        return [og if s == og else DEFAULT for s in in_st]
    return [DEFAULT] * n


def _merge(stypes):
    """One gradient from several contributions: sparse only when all agree."""
    if not stypes:
        return None
    first = stypes[0]
    return first if all(s == first for s in stypes) else DEFAULT


class StorageInfo:
    """What the pass found: ``entry`` maps (id(node), output index) to a storage type (for
    every entry; variables included); ``grad`` maps id(variable node) to the storage type
    of its gradient."""

    __slots__ = ("entry", "grad", "backward")

    def __init__(self, entry, grad, backward=()):
        self.entry = entry
        self.grad = grad
        self.backward = backward   # (node, output-gradient stype, input stypes), run order

    def output_stypes(self, heads):
        return [self.entry.get((id(n), i), DEFAULT) for n, i in heads]


def infer(order, heads, var_stype):
    """Run the pass over the topologically ordered nodes ``order`` with outputs ``heads``.

    ``var_stype(node)`` gives a variable node's storage type. Returns a
    :class:`StorageInfo`, or None when the whole graph is dense.
    """
    vst = {}
    sparse = False
    for node in order:
        if node.op is None:
            st = var_stype(node) or DEFAULT
            vst[id(node)] = st
            sparse = sparse or st != DEFAULT
        elif not sparse:
            src = _SOURCES.get(node.op.name)
            sparse = src is not None and src(node.parsed)
    if not sparse:
        return None
    entry = {}
    for node in order:
        if node.op is None:
            entry[(id(node), 0)] = vst[id(node)]
            continue
        ins = [entry.get((id(s), i), DEFAULT) for s, i in node.inputs]
        rule = _FORWARD.get(node.op.name)
        nout = node.num_outputs()
        if rule is None or nout != 1:
            for i in range(nout):
                entry[(id(node), i)] = DEFAULT
        else:
            entry[(id(node), 0)] = rule(node.parsed, ins)
    # the gradients, in reverse order, starting from head gradients of the outputs' types
    contrib = {}
    for n, i in heads:
        contrib.setdefault((id(n), i), []).append(entry[(id(n), i)])
    grad = {}
    back = []
    for node in reversed(order):
        if node.op is None:
            g = _merge(contrib.get((id(node), 0), []))
            if g is not None:
                grad[id(node)] = g
            continue
        og = _merge(contrib.get((id(node), 0), [])) if node.num_outputs() == 1 else DEFAULT
        if node.num_outputs() != 1 and not any((id(node), i) in contrib
                                               for i in range(node.num_outputs())):
            og = None
        if og is None:
            continue
        in_st = [entry.get((id(s), i), DEFAULT) for s, i in node.inputs]
        back.append((node, og, in_st))
        res = _backward_rule(node, in_st, entry.get((id(node), 0)), og)
        for (s, i), g in zip(node.inputs, res):
            contrib.setdefault((id(s), i), []).append(g)
    return StorageInfo(entry, grad, back)


# -- the storage-fallback warning of operators that run densely on sparse inputs ---------------

def _native(node, ins, out):
    """Whether 1.9.1 runs ``node`` on these input storage types without falling back."""
    name, attrs = node.op.name, node.parsed
    if name == "dot" and ins[0] == DEFAULT and attrs.get("transpose_b"):
        return False   # dense x csr.T: a csr result, computed densely
    if out != DEFAULT or name in ("cast_storage", "_square_sum", "elemwise_div",
                                  "Embedding", "_contrib_SparseEmbedding"):
        return True
    if name in ("elemwise_add", "elemwise_sub", "elemwise_mul", "_plus_scalar",
                "_minus_scalar"):
        return True   # a sparse and a dense operand: a dense result, computed natively
    if name == "dot":
        return ins[0] == CSR and not attrs.get("transpose_b")
    if name == "FullyConnected":   # a row_sparse weight is read natively, csr data is not
        return ins[0] == DEFAULT
    if name in ("sum", "mean"):
        axis = attrs.get("axis")
        axis = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
        return ins[0] == CSR and axis in ((0,), (1,))
    return False


class _Shown:
    """What the fallback log reads of an input: its storage type and context."""

    __slots__ = ("stype", "context")

    def __init__(self, stype, context):
        self.stype = stype
        self.context = context


# gradient operators 1.9.1 runs densely on sparse inputs (other gradients of the operators
# above work on sparse data or get dense inputs only); dot's is sparse for a csr lhs
_BACKWARD_FALLBACK = {"elemwise_mul": "_backward_mul", "elemwise_div": "_backward_div",
                      "dot": "_backward_dot", "clip": "_backward_clip",
                      "FullyConnected": "_backward_FullyConnected"}


def log_fallbacks(order, info, ctx, training=False):
    """Print 1.9.1's storage-fallback warning (once per distinct message) for each forward
    operator of the graph that meets a sparse input it cannot work on, and, when gradients
    are requested (``training``), for each such gradient operator."""
    from ..ndarray._fallback_log import log_fallback
    for node in order:
        if node.op is None:
            continue
        ins = [info.entry.get((id(s), i), DEFAULT) for s, i in node.inputs]
        if all(s == DEFAULT for s in ins):
            continue
        if _native(node, ins, info.entry.get((id(node), 0), DEFAULT)):
            continue
        given = {k: v for k, v in (node.attrs or {}).items() if not k.startswith("__")}
        outs = [info.entry.get((id(node), i), DEFAULT) for i in range(node.num_outputs())]
        log_fallback(node.op.name, [_Shown(s, ctx) for s in ins], given,
                     node.num_outputs(), tuple(node.op.params), outs)
    if not training:
        return
    for node, og, ins in info.backward:
        name = _BACKWARD_FALLBACK.get(node.op.name)
        if name is None or all(s == DEFAULT for s in [og] + ins):
            continue
        if name == "_backward_dot" and ins[0] == CSR:
            continue
        if name == "_backward_FullyConnected" and ins[1] == DEFAULT:
            continue
        given = {k: v for k, v in (node.attrs or {}).items() if not k.startswith("__")}
        log_fallback(name, [_Shown(s, ctx) for s in [og] + ins], given, len(ins),
                     tuple(node.op.params))
