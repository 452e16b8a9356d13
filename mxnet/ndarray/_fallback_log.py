"""The "storage type fallback" warning 1.9.1 prints when an operator that cannot work on
sparse storage runs on the dense forms of its sparse inputs.

It goes to stderr in 1.9.1's C++ log format, once per distinct message (operator, storage
types and the parameters the caller gave), unless ``MXNET_STORAGE_FALLBACK_LOG_VERBOSE``
is ``0``.
"""
from __future__ import annotations

import os

import numpy as np

from ..base import native_log

_seen: set = set()
MUTED = [0]   # > 0 while autograd runs gradient rules (only _backward_* warn then)
QUIET = [0]   # > 0 while a gradient that 1.9.1 computes natively runs (no warnings)
# dense code here, but sparse-aware in 1.9.1 (no warning there)
# (Embedding and SparseEmbedding read a row_sparse weight natively in 1.9.1)
_NATIVE = frozenset(("norm", "Embedding", "_contrib_SparseEmbedding"))
# operators 1.9.1 runs natively for these input storage types only
_NATIVE_FOR = {"elemwise_div": (("row_sparse", "default"), ("default", "row_sparse")),
               "where": (("csr", "default", "default"),)}

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


def log_fallback(op_name, inputs, params=None, n_out=1, declared=(), out_stypes=None):
    """Warn (once per message) that ``op_name`` runs densely on ``inputs``.

    ``params`` are the attributes the caller passed; ``None`` values are left out, as the
    frontend drops them. ``declared``: the operator's parameter names in declared order.
    """
    if op_name in _NATIVE and not (op_name == "norm" and (params or {}).get("axis") is not None):
        return   # (1.9.1's sparse norm is the norm of all the elements only)
    if QUIET[0] or not _enabled():
        return
    if tuple(getattr(a, "stype", "default") for a in inputs if a is not None) in \
            _NATIVE_FOR.get(op_name, ()):
        return
    if MUTED[0] and (not op_name.startswith("_backward_") or (
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
