"""The "storage type fallback" warning 1.9.1 prints when an operator that cannot work on
sparse storage runs on the dense forms of its sparse inputs.

It goes to stderr in 1.9.1's C++ log format, once per distinct message (operator, storage
types and the parameters the caller gave), unless ``MXNET_STORAGE_FALLBACK_LOG_VERBOSE``
is ``0``.
"""
from __future__ import annotations

import os
import weakref

import numpy as np

from ..base import native_log

_seen: set = set()
MUTED = [0]   # > 0 while autograd runs gradient rules (only _backward_* warn then)
QUIET = [0]   # > 0 while a gradient that 1.9.1 computes natively runs (no warnings)
# dense code here, but sparse-aware in 1.9.1 (no warning there)
# (Embedding and SparseEmbedding read a row_sparse weight natively in 1.9.1)
_NATIVE = frozenset(("norm", "Embedding", "_contrib_SparseEmbedding"))
# operators 1.9.1 runs natively for these input storage types only
_NATIVE_FOR = {"elemwise_div": (("row_sparse", "default"), ("default", "row_sparse"),
                                 ("csr", "default"), ("default", "csr"),
                                 ("row_sparse", "row_sparse")),
               "where": (("csr", "default", "default"),),
               "broadcast_add": (("csr", "default"), ("default", "csr")),
               "broadcast_sub": (("csr", "default"), ("default", "csr")),
               "FullyConnected": (("default", "row_sparse"),
                                  ("default", "row_sparse", "default"))}

_TAIL = ("The operator with default storage type will be dispatched for execution. You're "
         "seeing this warning message because the operator above is unable to process the "
         "given ndarrays with specified storage types, context and parameter. Temporary dense "
         "ndarrays are generated in order to execute the operator. This does not affect the "
         "correctness of the programme. You can set environment variable "
         "MXNET_STORAGE_FALLBACK_LOG_VERBOSE to 0 to suppress this warning.")


# 1.9.1 prints the operator's parameters in the iteration order of its C++ attribute map (a
# libstdc++ unordered_map<string, string> with room reserved for n + 1 entries, filled in
# the frontend's order: declared parameters, other keywords, then ``dtype``). That order is
# reproduced here: the library's string hash and its bucket placement.
_M64 = (1 << 64) - 1
_MUL = ((0xc6a4a793 << 32) + 0x5bd1e995) & _M64
_SMALL_PRIMES = (2, 2, 2, 3, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13)


def _str_hash(text):
    """libstdc++'s std::hash<std::string> on 64-bit (its murmur-style _Hash_bytes)."""
    b = text.encode()
    n = len(b)
    h = (0xc70f6907 ^ (n * _MUL)) & _M64
    whole = n & ~7
    for i in range(0, whole, 8):
        d = (int.from_bytes(b[i:i + 8], "little") * _MUL) & _M64
        h ^= ((d ^ (d >> 47)) * _MUL) & _M64
        h = (h * _MUL) & _M64
    if n & 7:
        h ^= int.from_bytes(b[whole:], "little")
        h = (h * _MUL) & _M64
    h = ((h ^ (h >> 47)) * _MUL) & _M64
    return h ^ (h >> 47)


def _bucket_count(n):
    if n < len(_SMALL_PRIMES):
        return _SMALL_PRIMES[n]
    while any(n % d == 0 for d in range(2, int(n ** 0.5) + 1)):
        n += 1
    return n


def _map_order(keys):
    """The iteration order of the keys once inserted (in this order) into the map."""
    nb = _bucket_count(len(keys) + 1)
    if len(keys) > nb:   # more keys than reserved for: not expected (keep the given order)
        return list(keys)
    out = []
    for k in keys:
        b = _str_hash(k) % nb
        # a new key goes first in its bucket's run, or first overall when the bucket is empty
        at = next((i for i, x in enumerate(out) if _str_hash(x) % nb == b), 0)
        out.insert(at, k)
    return out


def _frontend_order(params, declared):
    """The keys in the order 1.9.1's generated function passes them."""
    declared = [k for k in declared if k != "dtype"]
    keys = [k for k in declared if k in params]
    keys += [k for k in params if k not in declared and k != "dtype"]
    if "dtype" in params:
        keys.append("dtype")
    return keys


def _enabled():
    value = os.environ.get("MXNET_STORAGE_FALLBACK_LOG_VERBOSE", "1").strip()
    try:
        return int(value) != 0
    except ValueError:
        return value.lower() not in ("false", "")


def _native_norm(inputs, params):
    """1.9.1's sparse norm: the 2-norm of all the elements, or of a csr along axis 0 or 1
    (a non-negative axis, without keepdims); other forms run densely."""
    params = params or {}
    if str(params.get("ord", 2)) not in ("2", "2.0"):
        return False
    axis = params.get("axis")
    if axis is None or axis == ():
        return True
    if isinstance(axis, (tuple, list)):
        axis = axis[0] if len(axis) == 1 else None
    return getattr(inputs[0], "stype", "") == "csr" and str(axis) in ("0", "1") and \
        str(params.get("keepdims", False)).lower() not in ("true", "1")


def log_fallback(op_name, inputs, params=None, n_out=1, declared=(), out_stypes=None,
                 _backward=False):
    """Warn (once per message) that ``op_name`` runs densely on ``inputs``.

    ``params`` are the attributes the caller passed; ``None`` values are left out, as the
    frontend drops them. ``declared``: the operator's parameter names in declared order.
    """
    if op_name in _NATIVE and not (op_name == "norm" and not _native_norm(inputs, params)):
        return
    if QUIET[0] or not _enabled():
        return
    if tuple(getattr(a, "stype", "default") for a in inputs if a is not None) in \
            _NATIVE_FOR.get(op_name, ()):
        return
    if MUTED[0] and not _backward and (not op_name.startswith("_backward_") or (
            op_name == "_backward_dot" and ((params or {}).get("transpose_a") or (
                len(inputs) > 2 and getattr(inputs[2], "stype", "") == "row_sparse")))):
        # inside backward only 1.9.1's own backward operators are named (its backward of
        # dot(csr.T, dense) and of dot(csr, row_sparse) is native)
        return
    stypes = "".join(f"{getattr(a, 'stype', 'default')}, " for a in inputs if a is not None)
    given = {k: v for k, v in (params or {}).items() if v is not None and k != "name"}
    if "dtype" in given and not isinstance(given["dtype"], str):
        given["dtype"] = np.dtype(given["dtype"]).name   # as the frontend passes it
    shown = "".join(f'"{k}" : {given[k]}, '
                    for k in _map_order(_frontend_order(given, declared)))
    dev = "cpu"
    for a in inputs:
        ctx = getattr(a, "context", None)
        if ctx is not None:
            dev = "gpu" if ctx.device_type == "gpu" else "cpu"
            break
    msg = (f"\nStorage type fallback detected:\noperator = {op_name}\n"
           f"input storage types = [{stypes}]\n"
           f"output storage types = [{''.join(f'{t}, ' for t in out_stypes or ['default'] * n_out)}]\n"
           f"params = {{{shown}}}\ncontext.dev_mask = {dev}\n{_TAIL}")
    if msg in _seen:
        return
    _seen.add(msg)
    native_log("../src/executor/../operator/../common/utils.h:472", msg)


def log_copy(src, dst):
    """Warn (once per message) that a copy between storage types ``src`` -> ``dst`` (two
    arrays, one of them sparse) goes through a temporary array, as 1.9.1 does."""
    if not _enabled():
        return
    def where(a):
        return "gpu" if a.context.device_type == "gpu" else "cpu"
    msg = (f"\nStorage fallback detected:\nCopy from {src.stype} storage type on {where(src)} "
           f"to {dst.stype} storage type on {where(dst)}.\nA temporary ndarray with "
           f"{dst.stype} storage type will be generated in order to perform the copy. This "
           "does not affect the correctness of the programme. You can set environment "
           "variable MXNET_STORAGE_FALLBACK_LOG_VERBOSE to 0 to suppress this warning.")
    if msg in _seen:
        return
    _seen.add(msg)
    native_log("../src/executor/../operator/../common/utils.h:472", msg)


# operator / storage-type pairs 1.9.1 computes natively although a sparse operand is involved
_NATIVE_PAIRS = frozenset((("broadcast_add", "default", "csr"), ("broadcast_add", "csr", "default"),
                           ("broadcast_sub", "default", "csr"), ("broadcast_sub", "csr", "default")))


def log_arith(op_name, inputs, scalar=None):
    """The fallback warning of an arithmetic operator (``+``, ``*``, ``**``, a comparison
    ...) that runs densely on a sparse operand, as 1.9.1 prints it. ``scalar``: the scalar
    of a ``_*_scalar`` operator."""
    stypes = tuple(getattr(a, "stype", "default") for a in inputs)
    if all(s == "default" for s in stypes) or (op_name,) + stypes in _NATIVE_PAIRS:
        return
    log_fallback(op_name, inputs, None if scalar is None else {"scalar": float(scalar)})


# -- the gradient operators of recorded calls (autograd.backward) -------------------------------

# tape nodes whose gradient 1.9.1 computes natively (no warning), e.g. sparse.retain's
NATIVE_NODES = weakref.WeakSet()
# tape node -> the parameters its caller gave (as 1.9.1's frontend passes them)
GIVEN = weakref.WeakKeyDictionary()
# tape node -> the name of 1.9.1's operator, where the taped one differs
AS_OP = weakref.WeakKeyDictionary()

_D = "default"
# forward operators whose gradient is one ``_copy`` per input (1.9.1's imperative graph)
_COPY_GRAD = ("elemwise_add", "_plus_scalar", "_minus_scalar", "cast_storage")
# zero-preserving functions whose gradient operator is ``_backward_<name>`` on the
# output gradient and the (sparse) input
_UNARY_GRAD = ("abs", "square", "sqrt", "cbrt", "relu", "sin", "tan", "arcsin", "arctan",
               "sinh", "tanh", "arcsinh", "arctanh", "expm1", "log1p", "clip")
# gradient operators that read the output gradient and the (dense) output
_OUT_GRAD = ("sigmoid",)
# gradient operators that read the output gradient and both inputs
_BINARY_GRAD = {"elemwise_mul": "_backward_mul", "broadcast_mul": "_backward_broadcast_mul",
                "broadcast_div": "_backward_broadcast_div", "elemwise_div": "_backward_div",
                "FullyConnected": "_backward_FullyConnected"}
_NAT = "natural"   # a target that is one of several uses: the operator's own output stype
_SCALAR_GRAD = {"_mul_scalar": "_backward_mul_scalar", "_div_scalar": "_backward_div_scalar",
                "negative": "_backward_mul_scalar", "_rminus_scalar": "negative"}


def _given_params(node):
    if node.op.name == "negative":   # (1.9.1's gradient of negative is a _mul_scalar)
        return {"scalar": -1.0}
    given = GIVEN.get(node)
    if given is not None:
        return dict(given)
    out = {}
    for k, v in (node.attrs or {}).items():
        p = node.op.params.get(k)
        if p is not None and v != p.default and v is not None:
            out[k] = v
    return out


def _dot_lines(attrs, ins, targets):
    """1.9.1's ``_backward_dot`` (as its imperative backward dispatches it): the stypes of
    its outputs, or None where its kernel is native."""
    ta = bool(attrs.get("transpose_a"))
    ls, rs = ins
    tl, tr = targets
    if ls == "csr":
        outs = [tl or _D, tr or ("row_sparse" if not ta else _D)]
        native = outs[0] == _D and outs[1] == (_D if ta else "row_sparse")
        return None if native else outs
    if rs == "csr":
        outs = [tl or _D, tr or _D]
        return None if outs == [_D, _D] else outs
    return [tl or _D, tr or _D]


def log_backward(node, targets):
    """Print, once per message, the fallback line 1.9.1 prints for the gradient operator of
    the recorded call ``node``. ``targets``: per input, the storage type its gradient is
    written in (None when no gradient is needed). Returns False for an operator not
    modelled here (its gradient rule's own ``_backward_*`` calls may print then)."""
    name = AS_OP.get(node)
    ins = [getattr(a, "stype", _D) for a in node.inputs]
    if name is None and node.op.name in ("broadcast_add", "broadcast_sub", "broadcast_mul") \
            and len(ins) == 2 and ins[0] != _D and \
            node.inputs[0].shape == node.inputs[1].shape:
        # the sparse front end's operator
        name = "elemwise_" + node.op.name[len("broadcast_"):]
    name = name or node.op.name
    if node in NATIVE_NODES or name in ("_square_sum", "Embedding",
                                        "_contrib_SparseEmbedding") or \
            (name == "where" and ins == ["csr", _D, _D]):
        return True
    params = _given_params(node)
    lines = []
    if name != "dot":
        targets = [_D if t == _NAT else t for t in targets]
    if name == "_copy":   # (NDArray.copy) its gradient is copied into the buffer
        for t in targets:
            if t not in (None, _D):
                log_copy(_Stype(_D, node.ctx), _Stype(t, node.ctx))
        return True
    if name == "dot":
        outs = _dot_lines(node.attrs or {}, ins, [None if t == _NAT else t for t in targets])
        if outs is not None:
            lines = [("_backward_dot", [_D] + ins, outs)]
        return _print(lines, params, node)
    if name == "exp":   # its gradient is ograd * output
        lines = [("elemwise_mul", [_D, _D], [targets[0] or _D])]
    elif name in _COPY_GRAD:
        lines = [("_copy", [_D], [t]) for t in targets if t is not None]
    elif name in ("elemwise_sub", "broadcast_add", "broadcast_sub"):
        bname = "_backward_sub" if name == "elemwise_sub" else "_backward_" + name
        lines = [(bname, [_D], [t or _D for t in targets])]
    elif name in _BINARY_GRAD:
        lines = [(_BINARY_GRAD[name], [_D] + ins, [t or _D for t in targets])]
    elif name in _SCALAR_GRAD:
        lines = [(_SCALAR_GRAD[name], [_D], [targets[0] or _D])]
    elif name in _UNARY_GRAD:
        lines = [(f"_backward_{name}", [_D] + ins[:1], [targets[0] or _D])]
    elif name in _OUT_GRAD:
        lines = [(f"_backward_{name}", [_D, _D], [targets[0] or _D])]
    elif name == "Concat":   # (1.9.1 cannot give it a sparse gradient: no line)
        lines = []
    elif name in ("sum", "mean", "slice"):
        lines = [(f"_backward_{name}", [_D], [t or _D for t in targets])]
    else:
        return False
    return _print(lines, params, node)


def _print(lines, params, node):
    ctx = node.ctx
    ctx = node.ctx
    for bname, b_ins, outs in lines:
        if all(s == _D for s in b_ins + outs):
            continue
        log_fallback(bname, [_Stype(s, ctx) for s in b_ins], params, len(outs),
                     tuple(node.op.params), outs, _backward=True)
    return True


def _natural(node, pos):
    """The storage type 1.9.1's gradient operator of ``node`` gives input ``pos`` when
    nothing asks for another one (one of several uses of a variable)."""
    name = node.op.name
    attrs = node.attrs or {}
    if name == "dot" and pos == 1 and getattr(node.inputs[0], "stype", _D) == "csr" and \
            not attrs.get("transpose_a"):
        return "row_sparse"
    if name in ("Embedding", "_contrib_SparseEmbedding") and pos == 1 and \
            (attrs.get("sparse_grad") or name != "Embedding"):
        return "row_sparse"
    return _D


def log_add_n(stype, stypes, ctx):
    """1.9.1's ``add_n`` of the gradients (of storage types ``stypes``) a variable with a
    ``stype`` gradient gets from several uses."""
    if stype != _D and len(stypes) > 1:
        log_fallback("add_n", [_Stype(s, ctx) for s in stypes], {"num_args": len(stypes)}, 1,
                     (), [stype], _backward=True)


class _Stype:
    """What the log reads of an operand: its storage type and context."""

    __slots__ = ("stype", "context")

    def __init__(self, stype, context):
        self.stype = stype
        self.context = context


class LeafUses:
    """How many recorded inputs (and heads) refer to each variable with a sparse gradient
    in the backward pass over ``order`` (``count_all()`` counts them, before the walk frees
    any node; only graphs with such a variable are counted)."""

    __slots__ = ("_count", "multi", "sparse_leaf", "sparse_emb")

    def __init__(self, order, count_all):
        from .tape import Leaf
        self._count = {}
        # id(leaf) -> (its stype, the stypes of its uses' gradients) for sparse gradients of
        # several uses
        self.multi = {}
        self.sparse_leaf = self.sparse_emb = False
        for n in order:
            if isinstance(n, Leaf):
                arr = n.array
                if arr is not None and arr._grad is not None and arr._grad.stype != _D:
                    self.sparse_leaf = True
            elif n.op is not None and n.op.name == "Embedding" and \
                    (n.attrs or {}).get("sparse_grad"):
                self.sparse_emb = True
        if self.sparse_leaf or self.sparse_emb:
            self._count = count_all()

    def count(self, leaf):
        return self._count.get(id(leaf), 0)


def _check_sparse_grad(node, uses):
    """As 1.9.1's backward: ``Embedding(sparse_grad=True)`` cannot write its gradient into
    the dense gradient buffer of a weight variable it alone uses."""
    from .tape import Leaf
    e = node.in_entries[1] if len(node.in_entries) > 1 else None
    arr = e[0].array if e is not None and isinstance(e[0], Leaf) else None
    if (node.attrs or {}).get("sparse_grad") and arr is not None and arr._grad is not None \
            and arr._grad_req != "null" and arr._grad.stype == _D and uses.count(e[0]) <= 1:
        from ..base import MXNetError
        raise MXNetError("Embedding: sparse_grad=True gives the weight a row_sparse gradient, "
                         "but its gradient buffer has storage type 'default'; attach it with "
                         "attach_grad(stype='row_sparse') or pass sparse_grad=False")


def backward_node(node, uses):
    """The fallback line of ``node``'s gradient operator (see :func:`log_backward`) when
    the node meets sparse storage. True when modelled: its gradient rule then runs quiet."""
    from .tape import Leaf
    inputs = node.inputs
    if node.gradient is not None or inputs is None:
        return False
    if uses.sparse_emb and node.op.name == "Embedding":
        _check_sparse_grad(node, uses)
    sparse = False
    for a in inputs:
        if a._is_sparse:
            sparse = True
            break
    if not sparse and not uses.sparse_leaf:   # (dense graphs stop here)
        return False
    leaves = []
    for e in node.in_entries:
        arr = e[0].array if e is not None and isinstance(e[0], Leaf) else None
        leaves.append(arr)
        if arr is not None and arr._grad is not None and arr._grad.stype != _D:
            sparse = True
    if not sparse:
        return False
    targets = []
    for e, arr in zip(node.in_entries, leaves):
        if e is None:
            targets.append(None)
        elif not isinstance(e[0], Leaf):
            targets.append(_D)   # an intermediate gradient is dense in 1.9.1
        elif arr is None or arr._grad is None or arr._grad_req == "null":
            targets.append(None)
        else:
            st = arr._grad.stype
            if st != _D and uses.count(e[0]) > 1:   # the uses' gradients are summed by add_n
                uses.multi.setdefault(id(e[0]), (st, []))[1].append(
                    _natural(node, len(targets)))
                st = _NAT
            targets.append(st)
    return log_backward(node, targets)
