"""Converters for element-wise arithmetic, reductions and shape manipulation."""
import numpy as np

from ._registry import register

INT_MAX = 2 ** 63 - 1
INT_MIN = -(2 ** 63)


def _simple(onnx_op):
    def convert(g, n):
        g.add(onnx_op, n.inputs, n.out, hint=n.name)
    return convert


_BINARY = {
    "Add": ("elemwise_add", "broadcast_add", "broadcast_plus", "_plus", "_Plus", "_add",
            "_grad_add"),
    "Sub": ("elemwise_sub", "broadcast_sub", "broadcast_minus", "_minus", "_Minus", "_sub"),
    "Mul": ("elemwise_mul", "broadcast_mul", "_mul", "_Mul"),
    "Div": ("elemwise_div", "broadcast_div", "_div", "_Div"),
    "Pow": ("_power", "_Power", "broadcast_power"),
    "Max": ("_maximum", "_Maximum", "broadcast_maximum"),
    "Min": ("_minimum", "_Minimum", "broadcast_minimum"),
}
for _onnx_op, _names in _BINARY.items():
    register(*_names)(_simple(_onnx_op))

_UNARY = {
    "exp": "Exp", "log": "Log", "sqrt": "Sqrt", "abs": "Abs", "negative": "Neg",
    "reciprocal": "Reciprocal", "floor": "Floor", "ceil": "Ceil", "sin": "Sin", "cos": "Cos",
    "tan": "Tan", "arcsin": "Asin", "arccos": "Acos", "arctan": "Atan", "sinh": "Sinh",
    "cosh": "Cosh", "arcsinh": "Asinh", "arccosh": "Acosh", "arctanh": "Atanh", "erf": "Erf",
    "sign": "Sign", "rint": "Round", "softsign": "Softsign",
    "_copy": "Identity", "identity": "Identity", "BlockGrad": "Identity",
    "stop_gradient": "Identity", "MakeLoss": "Identity", "make_loss": "Identity",
    "add_n": "Sum", "ElementWiseSum": "Sum",
}
for _name, _onnx_op in _UNARY.items():
    register(_name)(_simple(_onnx_op))


@register("square")
def square(g, n):
    g.add("Mul", [n.inputs[0], n.inputs[0]], n.out, hint=n.name)


@register("rsqrt")
def rsqrt(g, n):
    g.add("Reciprocal", [g.add("Sqrt", [n.inputs[0]], hint=f"{n.name}_sqrt")], n.out, hint=n.name)


@register("log1p", "expm1", "log2", "log10")
def log_family(g, n):
    x, dt = n.inputs[0], n.dtype(0)
    if n.op == "log1p":
        g.add("Log", [g.add("Add", [x, g.scalar(1, dt, f"{n.name}_one")])], n.out, hint=n.name)
    elif n.op == "expm1":
        g.add("Sub", [g.add("Exp", [x]), g.scalar(1, dt, f"{n.name}_one")], n.out, hint=n.name)
    else:
        base = g.scalar(np.log(2.0 if n.op == "log2" else 10.0), dt, f"{n.name}_lnbase")
        g.add("Div", [g.add("Log", [x]), base], n.out, hint=n.name)


@register("round", "fix", "trunc")
def round_away(g, n):
    # MXNet's round goes half away from zero, ONNX's Round half to even: sign(x)*floor(|x|+c)
    x, dt = n.inputs[0], n.dtype(0)
    mag = g.add("Abs", [x])
    if n.op == "round":
        mag = g.add("Add", [mag, g.scalar(0.5, dt, f"{n.name}_half")])
    g.add("Mul", [g.add("Sign", [x]), g.add("Floor", [mag])], n.out, hint=n.name)


_COMPARE = {"equal": ("Equal", False), "not_equal": ("Equal", True), "greater": ("Greater", False),
            "greater_equal": ("GreaterOrEqual", False), "lesser": ("Less", False),
            "lesser_equal": ("LessOrEqual", False)}


def _compare(g, n, kind, a, b):
    op, negate = _COMPARE[kind]
    r = g.add(op, [a, b], hint=f"{n.name}_cmp")
    if negate:
        r = g.add("Not", [r])
    # MXNet's comparisons return 0/1 in the inputs' type
    g.add("Cast", [r], n.out, hint=n.name, to=g.helper.np_dtype_to_tensor_dtype(n.out_dtype()))


def _register_compare(kind):
    @register(f"broadcast_{kind}", f"_{kind}")
    def binary(g, n):
        _compare(g, n, kind, n.inputs[0], n.inputs[1])

    @register(f"_{kind}_scalar")
    def scalar(g, n):
        s = g.scalar(float(n.p["scalar"]), n.dtype(0), f"{n.name}_scalar")
        _compare(g, n, kind, n.inputs[0], s)


for _kind in _COMPARE:
    _register_compare(_kind)

# name -> (ONNX op, scalar goes first)
_SCALAR = {"_plus_scalar": ("Add", False), "_minus_scalar": ("Sub", False),
           "_rminus_scalar": ("Sub", True), "_mul_scalar": ("Mul", False),
           "_div_scalar": ("Div", False), "_rdiv_scalar": ("Div", True),
           "_power_scalar": ("Pow", False), "_rpower_scalar": ("Pow", True),
           "_maximum_scalar": ("Max", False), "_minimum_scalar": ("Min", False)}


@register(*_SCALAR)
def scalar_op(g, n):
    op, first = _SCALAR[n.op]
    s = g.scalar(float(n.p["scalar"]), n.dtype(0), f"{n.name}_scalar")
    ins = [s, n.inputs[0]] if first else [n.inputs[0], s]
    g.add(op, ins, n.out, hint=n.name)


@register("clip")
def clip(g, n):
    dt = n.dtype(0)
    g.add("Clip", [n.inputs[0], g.scalar(float(n.p["a_min"]), dt, f"{n.name}_min"),
                   g.scalar(float(n.p["a_max"]), dt, f"{n.name}_max")], n.out, hint=n.name)


@register("Cast", "cast", "amp_cast")
def cast(g, n):
    g.add("Cast", [n.inputs[0]], n.out, hint=n.name,
          to=g.helper.np_dtype_to_tensor_dtype(np.dtype(n.p["dtype"])))


@register("zeros_like", "ones_like")
def fill_like(g, n):
    value = 0 if n.op == "zeros_like" else 1
    dt = n.dtype(0)
    tensor = g.numpy_helper.from_array(np.array([value], dt), "value")
    shape = g.add("Shape", [n.inputs[0]], hint=f"{n.name}_shape")
    g.add("ConstantOfShape", [shape], n.out, hint=n.name, value=tensor)


# -- shapes --------------------------------------------------------------------------------

@register("Flatten", "flatten")
def flatten(g, n):
    g.add("Flatten", [n.inputs[0]], n.out, hint=n.name, axis=1)


@register("Reshape", "reshape")
def reshape(g, n):
    codes = tuple(int(c) for c in (n.p["shape"] or n.p.get("target_shape") or ()))
    simple = codes and not n.p.get("reverse") and all(c >= -1 for c in codes) \
        and codes.count(-1) <= 1
    if simple:
        # 0 (copy the dim) and -1 (infer) mean the same in ONNX: the graph stays shape-free
        target = g.ints(codes, f"{n.name}_shape")
    elif g.dynamic and not n.p.get("reverse"):
        target = _dynamic_target(g, n, codes)
    else:  # -2/-3/-4 or reverse: the shape MXNet inferred
        target = g.ints(n.out_shape(), f"{n.name}_shape")
    g.add("Reshape", [n.inputs[0], target], n.out, hint=n.name)


def _dynamic_target(g, n, codes):
    """MXNet's special reshape codes computed from the runtime shape (dynamic exports)."""
    shape = g.add("Shape", [n.inputs[0]], hint=f"{n.name}_inshape")
    rank = n.rank(0)

    def dims(a, b):
        return g.slice(shape, [a], [b], [0], hint=f"{n.name}_dims")
    parts, i, k = [], 0, 0
    while k < len(codes):
        c = codes[k]
        if c > 0 or c == -1:
            parts.append(g.ints([c], f"{n.name}_code"))
            i += c > 0
        elif c == 0:
            parts.append(dims(i, i + 1))
            i += 1
        elif c == -2:
            parts.append(dims(i, rank))
            i = rank
        elif c == -3:
            parts.append(g.add("Mul", [dims(i, i + 1), dims(i + 1, i + 2)]))
            i += 2
        elif c == -4:
            a, b = codes[k + 1], codes[k + 2]
            d = dims(i, i + 1)
            if a == -1:
                parts += [g.add("Div", [d, g.ints([b], f"{n.name}_b")]), g.ints([b], f"{n.name}_b")]
            elif b == -1:
                parts += [g.ints([a], f"{n.name}_a"), g.add("Div", [d, g.ints([a], f"{n.name}_a")])]
            else:
                parts.append(g.ints([a, b], f"{n.name}_ab"))
            i += 1
            k += 2
        else:
            n.fail(f"shape code {c} in {codes} is not a reshape code")
        k += 1
    return g.add("Concat", parts, hint=f"{n.name}_target", axis=0)


@register("Concat", "concat")
def concat(g, n):
    g.add("Concat", n.inputs, n.out, hint=n.name, axis=int(n.p["dim"]))


@register("stack")
def stack(g, n):
    axis = int(n.p["axis"])
    parts = [g.unsqueeze(x, [axis], hint=f"{n.name}_in{i}") for i, x in enumerate(n.inputs)]
    g.add("Concat", parts, n.out, hint=n.name, axis=axis)


@register("SliceChannel", "split")
def split(g, n):
    p = n.p
    axis, k = int(p["axis"]), int(p["num_outputs"])
    outs = n.outputs if not p["squeeze_axis"] else [g.fresh(f"{n.name}_part{i}") for i in range(k)]
    attrs = {"num_outputs": k} if g.opset >= 18 else {}
    g.add("Split", [n.inputs[0]], outs, hint=n.name, axis=axis, **attrs)
    if p["squeeze_axis"]:
        for part, out in zip(outs, n.outputs):
            g.squeeze(part, [axis], out, hint=out)


@register("transpose")
def transpose(g, n):
    axes = n.p["axes"]
    perm = [int(a) for a in axes] if axes else list(range(n.rank(0)))[::-1]
    g.add("Transpose", [n.inputs[0]], n.out, hint=n.name, perm=perm)


@register("SwapAxis", "swapaxes")
def swap_axis(g, n):
    rank = n.rank(0)
    perm = list(range(rank))
    a, b = int(n.p["dim1"]) % rank, int(n.p["dim2"]) % rank
    perm[a], perm[b] = perm[b], perm[a]
    g.add("Transpose", [n.inputs[0]], n.out, hint=n.name, perm=perm)


@register("expand_dims")
def expand_dims(g, n):
    g.unsqueeze(n.inputs[0], [int(n.p["axis"])], n.out, hint=n.name)


@register("squeeze")
def squeeze(g, n):
    axis = n.p["axis"]
    if axis is not None and not isinstance(axis, (tuple, list)):
        axis = (axis,)
    g.squeeze(n.inputs[0], None if axis is None else list(axis), n.out, hint=n.name)


@register("slice", "crop")
def slice_op(g, n):
    p = n.p
    begin, end = tuple(p["begin"]), tuple(p["end"])
    step = tuple(p["step"] or ()) + (None,) * (len(begin) - len(p["step"] or ()))
    starts, ends, steps = [], [], []
    for b, e, s in zip(begin, end, step):
        s = 1 if s is None else int(s)
        starts.append((0 if s > 0 else INT_MAX) if b is None else int(b))
        ends.append((INT_MAX if s > 0 else INT_MIN) if e is None else int(e))
        steps.append(s)
    g.slice(n.inputs[0], starts, ends, list(range(len(begin))), steps, n.out, hint=n.name)


@register("slice_axis")
def slice_axis(g, n):
    p = n.p
    end = INT_MAX if p["end"] is None else int(p["end"])
    g.slice(n.inputs[0], [int(p["begin"])], [end], [int(p["axis"])], None, n.out, hint=n.name)


@register("broadcast_to")
def broadcast_to(g, n):
    shape = [1 if int(d) == 0 else int(d) for d in n.p["shape"]]  # 0 keeps the input's dim
    g.add("Expand", [n.inputs[0], g.ints(shape, f"{n.name}_shape")], n.out, hint=n.name)


@register("broadcast_like")
def broadcast_like(g, n):
    if n.p.get("lhs_axes") or n.p.get("rhs_axes"):
        n.fail("lhs_axes/rhs_axes are not supported")
    shape = g.add("Shape", [n.inputs[1]], hint=f"{n.name}_shape")
    g.add("Expand", [n.inputs[0], shape], n.out, hint=n.name)


@register("tile")
def tile(g, n):
    reps = [int(r) for r in n.p["reps"]]
    x, rank = n.inputs[0], n.rank(0)
    if len(reps) > rank:
        x = g.unsqueeze(x, list(range(len(reps) - rank)), hint=f"{n.name}_expand")
    reps = [1] * (rank - len(reps)) + reps
    g.add("Tile", [x, g.ints(reps, f"{n.name}_reps")], n.out, hint=n.name)


@register("where")
def where(g, n):
    cond = g.add("Cast", [n.inputs[0]], hint=f"{n.name}_cond", to=g.onnx.TensorProto.BOOL)
    g.add("Where", [cond, n.inputs[1], n.inputs[2]], n.out, hint=n.name)


@register("take")
def take(g, n):
    idx = g.add("Cast", [n.inputs[1]], hint=f"{n.name}_indices", to=g.onnx.TensorProto.INT64)
    axis = int(n.p["axis"])
    mode = n.p.get("mode", "clip")
    if mode in ("clip", "wrap"):  # 'raise' keeps the indices (onnxruntime rejects bad ones)
        shape = g.add("Shape", [n.inputs[0]], hint=f"{n.name}_shape")
        dim = g.add("Gather", [shape, g.ints([axis % n.rank(0)], f"{n.name}_axis")],
                    hint=f"{n.name}_dim", axis=0)
        if mode == "wrap":
            idx = g.add("Mod", [idx, dim], hint=f"{n.name}_wrap")
        else:
            top = g.add("Sub", [dim, g.ints([1], f"{n.name}_one")], hint=f"{n.name}_top")
            idx = g.add("Max", [g.add("Min", [idx, top]), g.ints([0], f"{n.name}_zero")],
                        hint=f"{n.name}_clip")
    g.add("Gather", [n.inputs[0], idx], n.out, hint=n.name, axis=axis)


@register("Pad", "pad")
def pad(g, n):
    p = n.p
    width = [int(w) for w in p["pad_width"]]
    pads = g.ints(width[0::2] + width[1::2], f"{n.name}_pads")
    ins = [n.inputs[0], pads]
    if p["mode"] == "constant":
        ins.append(g.scalar(float(p["constant_value"]), n.dtype(0), f"{n.name}_value"))
    g.add("Pad", ins, n.out, hint=n.name, mode=p["mode"])


# -- reductions ----------------------------------------------------------------------------

_REDUCE = {"sum": "ReduceSum", "sum_axis": "ReduceSum", "mean": "ReduceMean", "max": "ReduceMax",
           "max_axis": "ReduceMax", "min": "ReduceMin", "min_axis": "ReduceMin",
           "prod": "ReduceProd"}


def _reduce_axes(n, axis, exclude=False):
    rank = n.rank(0)
    if axis is None or (isinstance(axis, (tuple, list)) and len(axis) == 0):
        return None
    if not isinstance(axis, (tuple, list)):
        axis = (axis,)
    axes = sorted(int(a) % rank for a in axis)
    if exclude:
        axes = [a for a in range(rank) if a not in axes]
    return axes


def _fix_scalar_result(g, n, y):
    """MXNet returns shape (1,) where ONNX returns a scalar (reducing everything)."""
    if len(n._out[0][0]) == 1 and n.rank(0) >= 1 and _reduces_all(n):
        return g.add("Reshape", [y, g.ints([1], f"{n.name}_one")], n.out, hint=n.name)
    return g.add("Identity", [y], n.out, hint=n.name)


def _reduces_all(n):
    keep = n.p.get("keepdims", False)
    axes = _reduce_axes(n, n.p.get("axis"), n.p.get("exclude", False))
    return not keep and (axes is None or len(axes) == n.rank(0))


@register(*_REDUCE)
def reduce(g, n):
    p = n.p
    axes = _reduce_axes(n, p.get("axis"), p.get("exclude", False))
    y = g.reduce(_REDUCE[n.op], n.inputs[0], axes, p.get("keepdims", False),
                 hint=f"{n.name}_reduce")
    _fix_scalar_result(g, n, y)


@register("norm")
def norm(g, n):
    p = n.p
    op = {1: "ReduceL1", 2: "ReduceL2"}.get(int(p["ord"]))
    if op is None:
        n.fail(f"ord={p['ord']} is not supported; expected 1 or 2")
    axes = _reduce_axes(n, p["axis"])
    y = g.reduce(op, n.inputs[0], axes, p["keepdims"], hint=f"{n.name}_reduce")
    _fix_scalar_result(g, n, y)


@register("argmax", "argmin")
def arg_reduce(g, n):
    p = n.p
    x, axis = n.inputs[0], p["axis"]
    if axis is None:
        x, axis = g.add("Reshape", [x, g.ints([-1], f"{n.name}_flat")]), 0
    op = "ArgMax" if n.op == "argmax" else "ArgMin"
    y = g.add(op, [x], hint=f"{n.name}_idx", axis=int(axis), keepdims=int(bool(p["keepdims"])))
    # MXNet gives the indices as floats
    g.add("Cast", [y], n.out, hint=n.name, to=g.helper.np_dtype_to_tensor_dtype(n.out_dtype()))


# -- products ------------------------------------------------------------------------------

def _swap_last(g, x, rank, hint):
    perm = list(range(rank))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return g.add("Transpose", [x], hint=hint, perm=perm)


@register("dot")
def dot(g, n):
    p = n.p
    a, b = n.inputs
    ra, rb = n.rank(0), n.rank(1)
    if p["transpose_a"]:
        if ra != 2:
            n.fail(f"transpose_a=True needs a 2-D lhs; got rank {ra}")
        a = g.add("Transpose", [a], hint=f"{n.name}_aT", perm=[1, 0])
    if p["transpose_b"]:
        b = g.add("Transpose", [b], hint=f"{n.name}_bT", perm=list(range(rb))[::-1])
    if rb > 2:  # MXNet contracts a's last axis with b's first one
        head = n.shape(1)[::-1][0] if p["transpose_b"] else n.shape(1)[0]
        b = g.add("Reshape", [b, g.ints([head, -1], f"{n.name}_b2d")])
        y = g.add("MatMul", [a, b], hint=f"{n.name}_matmul")
        g.add("Reshape", [y, g.ints(n.out_shape(), f"{n.name}_shape")], n.out, hint=n.name)
        return
    y = g.add("MatMul", [a, b], hint=f"{n.name}_matmul")
    if ra == 1 and rb == 1:  # MXNet's vector dot product has shape (1,)
        g.add("Reshape", [y, g.ints([1], f"{n.name}_one")], n.out, hint=n.name)
    else:
        g.add("Identity", [y], n.out, hint=n.name)


@register("batch_dot")
def batch_dot(g, n):
    p = n.p
    a, b = n.inputs
    if p["transpose_a"]:
        a = _swap_last(g, a, n.rank(0), f"{n.name}_aT")
    if p["transpose_b"]:
        b = _swap_last(g, b, n.rank(1), f"{n.name}_bT")
    g.add("MatMul", [a, b], n.out, hint=n.name)


@register("_linalg_gemm2", "linalg_gemm2")
def linalg_gemm2(g, n):
    p = n.p
    if int(p["axis"]) not in (-2, n.rank(0) - 2):
        n.fail(f"axis={p['axis']} is not supported; only -2")
    a, b = n.inputs
    if p["transpose_a"]:
        a = _swap_last(g, a, n.rank(0), f"{n.name}_aT")
    if p["transpose_b"]:
        b = _swap_last(g, b, n.rank(1), f"{n.name}_bT")
    alpha = float(p["alpha"])
    if alpha == 1.0:
        g.add("MatMul", [a, b], n.out, hint=n.name)
    else:
        y = g.add("MatMul", [a, b], hint=f"{n.name}_matmul")
        g.add("Mul", [y, g.scalar(alpha, n.dtype(0), f"{n.name}_alpha")], n.out, hint=n.name)
