"""Custom operators written in Python: ``mx.operator.CustomOp``, ``CustomOpProp`` and
``register``, run through the registered operator ``Custom``.

A user registers a :class:`CustomOpProp` subclass under a name; ``mx.nd.Custom(*inputs,
op_type=name, **kwargs)`` then builds the prop from ``kwargs`` (every value passed as a
string, as 1.9.1 does), asks it for argument/output/auxiliary names, shapes and dtypes,
creates the :class:`CustomOp` with ``create_operator`` and calls its ``forward``. The
gradient rule calls the registered ``_backward_Custom``, which runs the *same* CustomOp
instance's ``backward`` (users keep state on ``self`` between the two, as in 1.9.1): the
instance is remembered against the forward's first output buffer, which the tape hands
back to the backward operator.

The CustomOp's lifetime follows 1.9.1: an imperative call creates a new one; a bound graph
(an Executor, or a block hybridized with static_alloc and static_shape) keeps one per node
in ``RunContext.states``, so state kept on the instance persists between batches. The
Executor creates them at bind time through the op's ``create_state`` hook.
"""
from __future__ import annotations

import collections
import warnings
import weakref

import numpy as np

from .._mode import mode as _mode
from ..base import MXNetError, dtype_code, dtype_np
from .registry import REQUIRED, OpDef, Param, all_ops, get_op

__all__ = ["CustomOp", "CustomOpProp", "register", "get_all_registered_operators",
           "get_operator_arguments", "OperatorArguments"]


class CustomOp:
    """Base class of a Python operator's computation. Override ``forward`` and ``backward``.

    Both receive NDArrays; write results into ``out_data`` / ``in_grad`` with
    :meth:`assign`, which honours the write request ('null', 'write', 'inplace', 'add').
    """

    def __init__(self):
        pass

    def forward(self, is_train, req, in_data, out_data, aux):
        """Compute ``out_data`` from ``in_data`` (and update ``aux`` in place if needed)."""

    def backward(self, req, out_grad, in_data, out_data, in_grad, aux):
        """Compute ``in_grad`` from ``out_grad`` and the forward's arrays."""

    def assign(self, dst, req, src):
        """Store ``src`` into ``dst`` as ``req`` asks: skip, overwrite or accumulate."""
        if req == "null":
            return
        if req in ("write", "inplace"):
            dst[:] = src
        elif req == "add":
            dst[:] += src
        else:
            raise MXNetError(f"CustomOp.assign: unknown request {req!r}; expected 'null', "
                             "'write', 'inplace' or 'add'")


class CustomOpProp:
    """Base class of a Python operator's properties: its argument, output and auxiliary
    names, shape and dtype inference, backward dependencies, and the factory of its
    :class:`CustomOp`.

    ``need_top_grad=False`` declares that ``backward`` does not read the output gradient
    (loss layers), which the default :meth:`declare_backward_dependency` honours.
    """

    def __init__(self, need_top_grad=True):
        self.need_top_grad_ = need_top_grad

    def infer_shape(self, in_shape):
        """(input shapes, output shapes[, aux shapes]); by default every output has the first
        input's shape."""
        return in_shape, (in_shape[0],) * len(self.list_outputs()), ()

    def infer_type(self, in_type):
        """(input dtypes, output dtypes[, aux dtypes]); by default all are the first input's."""
        return (in_type, [in_type[0]] * len(self.list_outputs()),
                [in_type[0]] * len(self.list_auxiliary_states()))

    def infer_storage_type(self, in_stype):
        """Storage types: only dense ('default') arrays exist here."""
        for i, st in enumerate(in_stype):
            if st != "default":
                raise MXNetError(f"CustomOpProp.infer_storage_type: input {i} has storage type "
                                 f"{st!r}; only 'default' is supported")
        return (in_stype, ["default"] * len(self.list_outputs()),
                ["default"] * len(self.list_auxiliary_states()))

    def infer_storage_type_backward(self, ograd_stype, in_stype, out_stype, igrad_stype,
                                    aux_stype):
        """Backward storage types: all dense."""
        lists = [ograd_stype, in_stype, out_stype, igrad_stype, aux_stype]
        return tuple(["default"] * len(x) for x in lists)

    def list_outputs(self):
        return ["output"]

    def list_arguments(self):
        return ["data"]

    def list_auxiliary_states(self):
        return []

    def declare_backward_dependency(self, out_grad, in_data, out_data):
        """The ids (among ``out_grad``, ``in_data``, ``out_data``) that ``backward`` reads."""
        deps = []
        if self.need_top_grad_:
            deps.extend(out_grad)
        deps.extend(in_data)
        deps.extend(out_data)
        return deps

    def create_operator(self, ctx, in_shapes, in_dtypes):
        """The :class:`CustomOp` for inputs of these shapes and dtype codes (aux included)."""
        return CustomOp()


# ---------------------------------------------------------------------------------------------
# the registry of Python operators

_PROPS: dict[str, type] = {}


def register(reg_name):
    """Class decorator: register a :class:`CustomOpProp` subclass as op_type ``reg_name``."""
    def do_register(prop_cls):
        if not (isinstance(prop_cls, type) and issubclass(prop_cls, CustomOpProp)):
            raise MXNetError(f"mx.operator.register({reg_name!r}): expected a subclass of "
                             f"CustomOpProp, got {prop_cls!r}")
        if reg_name in _PROPS and _PROPS[reg_name] is not prop_cls:
            warnings.warn(f"New registration is overriding existing custom operator {reg_name}",
                          stacklevel=2)
        _PROPS[reg_name] = prop_cls
        return prop_cls
    return do_register


def get_all_registered_operators():
    """Every operator name the registry knows (aliases included)."""
    return sorted(all_ops())


OperatorArguments = collections.namedtuple("OperatorArguments", ["narg", "names", "types"])

_KIND_NAMES = {"bool": "boolean", "int": "int", "float": "float", "shape": "Shape(tuple)",
               "tuple_float": "tuple of <float>", "str": "string", "dtype": "dtype", "any": "any"}


def _param_type(p: Param) -> str:
    kind = ("{" + ", ".join(repr(c) for c in p.choices) + "}") if p.choices else \
        _KIND_NAMES.get(p.kind, p.kind)
    if p.default is REQUIRED:
        return f"{kind}, required"
    d = p.default
    if isinstance(d, bool):
        d = int(d)
    elif isinstance(d, str):
        d = repr(d)
    return f"{kind}, optional, default={d}"


def get_operator_arguments(op_name):
    """(narg, names, types) of an operator: its inputs first, then its parameters."""
    op = get_op(op_name)
    try:
        inputs = op.input_names(op.parse_attrs({}))
    except MXNetError:
        inputs = [] if callable(op._inputs) else list(op._inputs)
    names = list(inputs) + [p for p in op.params if p != op.variadic]
    types = ["NDArray-or-Symbol"] * len(inputs) + [_param_type(op.params[p]) for p in
                                                    names[len(inputs):]]
    return OperatorArguments(len(names), names, types)


# ---------------------------------------------------------------------------------------------
# the Custom operator

_NAME = "Custom"
_GRAD_REQ = "__grad_req__"    # internal attribute of _backward_Custom: the write requests
_prop_cache: dict = {}


def _prop_kwargs(attrs):
    return {k: v for k, v in attrs.items() if k != "op_type" and not k.startswith("__")}


def _prop(attrs) -> CustomOpProp:
    """The prop instance for these attributes (built once per distinct attribute set)."""
    op_type = attrs["op_type"]
    cls = _PROPS.get(op_type)
    if cls is None:
        raise MXNetError(f"{_NAME}: Cannot find custom operator {op_type}; registered custom "
                         f"operators are {sorted(_PROPS)}")
    kwargs = _prop_kwargs(attrs)
    key = (op_type, cls, tuple(sorted(kwargs.items())))
    prop = _prop_cache.get(key)
    if prop is None:
        if len(_prop_cache) > 4096:
            _prop_cache.clear()
        prop = _prop_cache[key] = cls(**kwargs)
    return prop


class _CustomOpDef(OpDef):
    """``Custom`` and ``_backward_Custom`` accept any keyword: besides ``op_type``, each is
    handed to the prop's constructor as a string."""

    any_params = True  # so loading a -symbol.json keeps the prop's keywords

    def parse_attrs(self, kwargs: dict) -> dict:
        attrs = {}
        for k, v in kwargs.items():
            if k in ("name", "attr"):
                continue
            if v is None and k == "op_type":
                continue
            attrs[k] = v if isinstance(v, str) else str(v)
        if not attrs.get("op_type"):
            raise MXNetError(f"{self.name}: Required argument `op_type` is missing")
        return attrs

    def attrs_to_strings(self, attrs: dict) -> dict:
        return dict(attrs)


class _Mode:
    """Run a user callback outside autograd recording, in the op's train/predict mode."""

    def __init__(self, is_train):
        self._train = bool(is_train)

    def __enter__(self):
        self._prev = (_mode.recording, _mode.training)
        _mode.recording, _mode.training = False, self._train

    def __exit__(self, *exc):
        _mode.recording, _mode.training = self._prev


def _as_lists(opname, ret, n_in, n_out, n_aux, what):
    if not isinstance(ret, (list, tuple)) or len(ret) not in (2, 3):
        raise MXNetError(f"{opname}: {what} must return 2 or 3 lists (inputs, outputs[, aux])")
    ins, outs = list(ret[0]), list(ret[1])
    aux = list(ret[2]) if len(ret) == 3 else []
    for got, want, part in ((ins, n_in, "input"), (outs, n_out, "output"), (aux, n_aux, "aux")):
        if len(got) != want:
            raise MXNetError(f"{opname}: {what} returned {len(got)} {part} entries; expected "
                             f"{want}")
    return ins, outs, aux


def _infer(prop, opname, shapes, dtypes):
    """Output shapes and dtypes (and the aux ones) from the prop."""
    n_in, n_out = len(prop.list_arguments()), len(prop.list_outputs())
    n_aux = len(prop.list_auxiliary_states())
    _, oshape, ashape = _as_lists(opname, prop.infer_shape([list(s) for s in shapes]), n_in,
                                  n_out, n_aux, "infer_shape")
    _, otype, atype = _as_lists(opname, prop.infer_type([np.dtype(t).type for t in dtypes]),
                                n_in, n_out, n_aux, "infer_type")
    oshape = [tuple(int(d) for d in s) for s in oshape]
    return oshape, [dtype_np(t) for t in otype], ashape, atype


# The op instance used in a forward pass, looked up by the backward pass through the forward's
# first output buffer: id -> (weak reference to that buffer, CustomOp).
_live_ops: dict = {}


def _remember(buf, op):
    key = id(buf)
    try:
        ref = weakref.ref(buf, lambda _r, _k=key: _live_ops.pop(_k, None))
    except TypeError:  # an array type without weak references: backward makes a fresh op
        return
    _live_ops[key] = (ref, op)


def _recall(buf):
    hit = _live_ops.get(id(buf))
    if hit is not None and hit[0]() is buf:
        return hit[1]
    return None


def _wrap(rc, arrays):
    # The user's forward/backward are written against NDArrays, so the raw buffers are wrapped
    # (no copy) with the NDArray layer; it is imported here, at call time, because that layer
    # sits above the operator registry and imports it.
    from ..ndarray.ndarray import _new
    return [_new(a, rc.ctx) for a in arrays]


def _create(prop, rc, ins, aux):
    arrays = list(ins) + list(aux)
    return prop.create_operator(rc.ctx, [list(a.shape) for a in arrays],
                                [dtype_code(a.dtype) for a in arrays])


def _create_state(ctx, attrs, shapes, dtypes):
    """The CustomOp of one node of a graph being bound (inputs and aux states of these
    shapes and dtypes): 1.9.1 creates it at bind time and keeps it for the executor's life."""
    return _prop(attrs).create_operator(ctx, [list(s) for s in shapes],
                                        [dtype_code(t) for t in dtypes])


def _custom_compute(rc, attrs, *arrays):
    prop = _prop(attrs)
    n_in, n_out = len(prop.list_arguments()), len(prop.list_outputs())
    n_aux = len(prop.list_auxiliary_states())
    if len(arrays) != n_in + n_aux:
        raise MXNetError(f"{_NAME}({attrs['op_type']}): expected {n_in} input(s) and {n_aux} "
                         f"auxiliary state(s), got {len(arrays)} arrays")
    ins, aux = arrays[:n_in], arrays[n_in:]
    oshape, otype, _, _ = _infer(prop, f"{_NAME}({attrs['op_type']})",
                                 [a.shape for a in ins], [a.dtype for a in ins])
    states = rc.states
    if states is None:   # imperative call: a new CustomOp each time, as in 1.9.1
        op = _create(prop, rc, ins, aux)
    else:   # a bound graph: one CustomOp per node, kept for every later call
        op = states.get(id(attrs))
        if op is None:
            op = states[id(attrs)] = _create(prop, rc, ins, aux)
    xp = rc.xp
    outs = [xp.zeros(s, dtype=t) for s, t in zip(oshape, otype)]
    out_nd = _wrap(rc, outs)
    with _Mode(rc.is_train):
        op.forward(int(bool(rc.is_train)), ["write"] * n_out, _wrap(rc, ins), out_nd,
                   _wrap(rc, aux))
    res = [o._data for o in out_nd]
    if res:
        _remember(res[0], op)
    return res[0] if n_out == 1 else tuple(res)


def _custom_gradient(F, attrs, inputs, outputs, out_grads):
    prop = _prop(attrs)
    n_in = len(prop.list_arguments())
    # an input whose gradient is not wanted (outside the autograd graph, or not needed by
    # the executor) gets req 'null'
    need = _mode.need_grad
    if need is not None:
        reqs = ["write" if need[i] else "null" for i in range(n_in)]
    else:
        reqs = ["null" if getattr(x, "_node", True) is None else "write"
                for x in inputs[:n_in]]
    if "write" not in reqs:
        return [None] * len(inputs)
    grads = F._backward_Custom(*out_grads, *inputs[:n_in], *outputs, *inputs[n_in:],
                               **attrs, **{_GRAD_REQ: ",".join(reqs)})
    grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
    return [g if r == "write" else None for g, r in zip(grads, reqs)] + \
        [None] * (len(inputs) - n_in)


def _backward_custom_compute(rc, attrs, *arrays):
    prop = _prop(attrs)
    n_in, n_out = len(prop.list_arguments()), len(prop.list_outputs())
    n_aux = len(prop.list_auxiliary_states())
    if len(arrays) != 2 * n_out + n_in + n_aux:
        raise MXNetError(f"_backward_Custom({attrs['op_type']}): expected "
                         f"{2 * n_out + n_in + n_aux} arrays, got {len(arrays)}")
    ograd = list(arrays[:n_out])
    ins = list(arrays[n_out:n_out + n_in])
    outs = list(arrays[n_out + n_in:2 * n_out + n_in])
    aux = list(arrays[2 * n_out + n_in:])
    op = _recall(outs[0]) if outs else None
    if op is None:
        op = _create(prop, rc, ins, aux)
    xp = rc.xp
    # arrays the prop did not declare as backward dependencies are not handed over (1.9.1
    # passes empty placeholders in their place)
    groups = [ograd, ins, outs]
    ids = [list(range(n_out)), list(range(n_out, n_out + n_in)),
           list(range(n_out + n_in, 2 * n_out + n_in))]
    deps = set(int(d) for d in prop.declare_backward_dependency(*ids))
    for group, gid in zip(groups, ids):
        for j, i in enumerate(gid):
            if i not in deps:
                group[j] = xp.zeros((), dtype=group[j].dtype)
    reqs = attrs.get(_GRAD_REQ, "").split(",") if attrs.get(_GRAD_REQ) else ["write"] * n_in
    in_grad = [xp.zeros(a.shape, dtype=a.dtype) for a in arrays[n_out:n_out + n_in]]
    grad_nd = _wrap(rc, in_grad)
    with _Mode(rc.is_train):
        op.backward(reqs, _wrap(rc, ograd), _wrap(rc, ins), _wrap(rc, outs), grad_nd,
                    _wrap(rc, aux))
    res = [g._data for g in grad_nd]
    return res[0] if n_in == 1 else tuple(res)


def _legacy_in_shape(s):
    # as 1.9.1 hands partial shapes to the prop: [] when unknown, -1 for an unknown dim
    return [] if s is None else [-1 if d is None else int(d) for d in s]


def _known_shape(s, partial):
    # the prop's answer back in inference form: -1 dims unknown, and (while some input is
    # still unknown) an empty shape unknown as well
    if s is None or (partial and len(s) == 0):
        return None
    return tuple(None if int(d) < 0 else int(d) for d in s)


_NOT_YET = object()


def _ask_prop(method, known, partial):
    """``method(known)`` (the prop's infer_shape or infer_type); _NOT_YET where the inputs are
    only partly known and the prop fails on the unknown ones (nothing inferred yet). The
    prop's own MXNetErrors, and any failure on complete inputs, propagate."""
    try:
        return method(known)
    except MXNetError:
        raise
    except Exception:  # noqa: BLE001 - the prop needs what is not known yet
        if partial:
            return _NOT_YET
        raise


def _custom_infer_shape(attrs, in_shapes, out_shapes):
    prop = _prop(attrs)
    n_in, n_aux = len(prop.list_arguments()), len(prop.list_auxiliary_states())
    args = list(in_shapes[:n_in])
    partial = any(s is None or None in s for s in args)
    if all(s is None for s in args):
        return in_shapes, out_shapes, []
    ret = _ask_prop(prop.infer_shape, [_legacy_in_shape(s) for s in args], partial)
    if ret is _NOT_YET:
        return in_shapes, out_shapes, []
    ishape, oshape, ashape = _as_lists(f"{_NAME}({attrs['op_type']})", ret, n_in,
                                       len(prop.list_outputs()), n_aux, "infer_shape")
    tup = [_known_shape(s, partial) for s in ishape]
    aux = [_known_shape(s, partial) for s in ashape]
    extra = aux if len(in_shapes) == n_in + n_aux else []
    return tup + extra, [_known_shape(s, partial) for s in oshape], aux


def _custom_infer_type(attrs, in_types, out_types):
    prop = _prop(attrs)
    n_in, n_aux = len(prop.list_arguments()), len(prop.list_auxiliary_states())
    args = list(in_types[:n_in])
    if all(t is None for t in args):
        return in_types, out_types, []
    partial = any(t is None for t in args)
    # as in 1.9.1, an unknown dtype reaches the prop as None
    ret = _ask_prop(prop.infer_type, [None if t is None else dtype_np(t).type for t in args],
                    partial)
    if ret is _NOT_YET:
        return in_types, out_types, []
    itype, otype, atype = _as_lists(f"{_NAME}({attrs['op_type']})", ret, n_in,
                                    len(prop.list_outputs()), n_aux, "infer_type")
    conv = lambda t: None if t is None else dtype_np(t)
    norm = [conv(t) for t in itype]
    aux = [conv(t) for t in atype]
    extra = aux if len(in_types) == n_in + n_aux else []
    return norm + extra, [conv(t) for t in otype], aux


def _install(op: OpDef):
    # register() builds a plain OpDef, whose parse_attrs rejects unknown keywords; Custom takes
    # arbitrary ones, so its subclassed record is placed in the registry table directly.
    table = all_ops()
    if op.name in table:
        raise MXNetError(f"operator {op.name} registered twice")
    table[op.name] = op


_CUSTOM = _CustomOpDef(
    _NAME, _custom_compute,
    params=(Param("op_type", "str", doc="Name of the custom operator, as given to "
                                        "mx.operator.register."),),
    inputs=lambda attrs: _prop(attrs).list_arguments(),
    aux=lambda attrs: _prop(attrs).list_auxiliary_states(),
    num_outputs=lambda attrs: len(_prop(attrs).list_outputs()),
    output_names=lambda attrs: _prop(attrs).list_outputs(),
    infer_shape=_custom_infer_shape, infer_type=_custom_infer_type,
    gradient=_custom_gradient,
    doc="Apply a custom operator written in Python (a CustomOpProp registered with "
        "mx.operator.register); extra keyword arguments reach the prop's constructor as "
        "strings.")
# what an executor calls once per node at bind time (see RunContext.states)
_CUSTOM.create_state = _create_state
_install(_CUSTOM)


def _backward_inputs(attrs):
    prop = _prop(attrs)
    outs = prop.list_outputs()
    return ([f"{o}_grad" for o in outs] + list(prop.list_arguments()) + list(outs) +
            list(prop.list_auxiliary_states()))


def _backward_infer(attrs, ins, outs):
    # the input gradients have the inputs' shapes (dtypes); declared so that inference
    # never runs the user's backward on placeholder arrays
    prop = _prop(attrs)
    n_in, n_out = len(prop.list_arguments()), len(prop.list_outputs())
    return ins, list(ins[n_out:n_out + n_in]), []


_install(_CustomOpDef(
    "_backward_Custom", _backward_custom_compute,
    params=(Param("op_type", "str"),),
    inputs=_backward_inputs,
    infer_shape=_backward_infer, infer_type=_backward_infer,
    num_outputs=lambda attrs: len(_prop(attrs).list_arguments()),
    doc="Backward pass of a custom operator: runs the CustomOp's backward."))
