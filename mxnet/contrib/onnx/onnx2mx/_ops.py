"""ONNX operator -> MXNet Symbol converters, and NumPy folders for constant subgraphs.

A converter is ``fn(imp, node, attrs)`` returning the Symbol(s) of the node's outputs. A
folder is ``fn(imp, node, attrs, values)`` that computes the outputs when every input is
known at import time (shape arithmetic such as ``Shape -> Gather -> Concat -> Reshape``
that exporters emit), returning a list of arrays or None to leave the node to a converter.
"""
import numpy as np

CONVERTERS = {}
FOLDERS = {}

_FLOAT_MAX = float(np.finfo(np.float32).max)


def converter(*names):
    def wrap(fn):
        for n in names:
            CONVERTERS[n] = fn
        return fn
    return wrap


def folder(*names):
    def wrap(fn):
        for n in names:
            FOLDERS[n] = fn
        return fn
    return wrap


def _axes_arg(imp, node, attrs, index):
    """Axes given as an attribute (older opsets) or as input ``index`` (newer ones)."""
    if "axes" in attrs:
        return [int(a) for a in attrs["axes"]]
    if len(node.input) > index and node.input[index]:
        v = imp.const(node.input[index])
        if v is None:
            imp.fail(node, "axes must be a constant")
        return [int(a) for a in np.asarray(v).reshape(-1)]
    return None


def _item(v):
    """The one number in a size-1 array, as a float."""
    return float(np.asarray(v).reshape(-1)[0])


def _const_input(imp, node, index, what):
    if len(node.input) <= index or not node.input[index]:
        return None
    v = imp.const(node.input[index])
    if v is None:
        imp.fail(node, f"{what} (input {index}) must be a constant initializer")
    return v


# -- folding -------------------------------------------------------------------------------

@folder("Constant")
def fold_constant(imp, node, attrs, values):
    from onnx import numpy_helper
    if "value" in attrs:
        return [numpy_helper.to_array(attrs["value"])]
    for key, dtype in (("value_float", np.float32), ("value_int", np.int64),
                       ("value_floats", np.float32), ("value_ints", np.int64)):
        if key in attrs:
            return [np.asarray(attrs[key], dtype)]
    imp.fail(node, f"unsupported attributes {sorted(attrs)}")


@folder("Identity")
def fold_identity(imp, node, attrs, values):
    return [values[0]]


@folder("Cast")
def fold_cast(imp, node, attrs, values):
    from onnx import helper
    return [values[0].astype(helper.tensor_dtype_to_np_dtype(attrs["to"]))]


@folder("Shape")
def fold_shape(imp, node, attrs, values):
    return [np.asarray(values[0].shape, np.int64)]


@folder("Gather")
def fold_gather(imp, node, attrs, values):
    return [np.take(values[0], values[1].astype(np.int64), axis=attrs.get("axis", 0))]


@folder("Unsqueeze")
def fold_unsqueeze(imp, node, attrs, values):
    x = values[0]
    axes = _axes_arg(imp, node, attrs, 1)
    rank = x.ndim + len(axes)
    for a in sorted(a % rank for a in axes):
        x = np.expand_dims(x, a)
    return [x]


@folder("Squeeze")
def fold_squeeze(imp, node, attrs, values):
    axes = _axes_arg(imp, node, attrs, 1)
    return [np.squeeze(values[0], axis=None if axes is None else tuple(axes))]


@folder("Concat")
def fold_concat(imp, node, attrs, values):
    return [np.concatenate([v for v in values if v is not None], axis=attrs["axis"])]


@folder("Reshape")
def fold_reshape(imp, node, attrs, values):
    x, shape = values[0], [int(s) for s in values[1]]
    shape = [x.shape[i] if s == 0 and not attrs.get("allowzero") else s
             for i, s in enumerate(shape)]
    return [x.reshape(shape)]


_NP_BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Pow": np.power,
              "Equal": np.equal, "Less": np.less, "Greater": np.greater}


@folder(*_NP_BINARY, "Div")
def fold_binary(imp, node, attrs, values):
    a, b = values
    if node.op_type == "Div":
        if np.issubdtype(a.dtype, np.integer):
            return [np.trunc(a / b).astype(a.dtype)]
        return [a / b]
    return [_NP_BINARY[node.op_type](a, b).astype(a.dtype if node.op_type in
                                                  ("Add", "Sub", "Mul", "Pow") else bool)]


@folder("Slice")
def fold_slice(imp, node, attrs, values):
    x = values[0]
    starts, ends = values[1], values[2]
    axes = values[3] if len(values) > 3 and values[3] is not None else range(len(starts))
    steps = values[4] if len(values) > 4 and values[4] is not None else [1] * len(starts)
    index = [slice(None)] * x.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        index[int(a)] = slice(int(s), int(e), int(st))
    return [x[tuple(index)]]


@folder("ConstantOfShape")
def fold_constant_of_shape(imp, node, attrs, values):
    from onnx import numpy_helper
    value = numpy_helper.to_array(attrs["value"]) if "value" in attrs else np.zeros(1, np.float32)
    return [np.full(tuple(int(d) for d in values[0]), value.reshape(-1)[0], value.dtype)]


@folder("Range")
def fold_range(imp, node, attrs, values):
    start, limit, delta = values
    return [np.arange(start, limit, delta).astype(np.asarray(start).dtype)]


# -- converters ----------------------------------------------------------------------------

def _sym_inputs(imp, node):
    return [imp.sym(i) for i in node.input]


def _pads_split(imp, node, pads, nd):
    """ONNX [begin..., end...] -> symmetric MXNet pad, or None when asymmetric."""
    pads = [int(p) for p in (pads or [0] * (2 * nd))]
    begin, end = pads[:nd], pads[nd:]
    return tuple(begin) if begin == end else None


def _auto_pads(imp, node, attrs, kernel, strides, dilations):
    """Explicit pads for auto_pad=SAME_* from the input's static shape."""
    mode = attrs.get("auto_pad", "NOTSET")
    if mode in ("NOTSET", "VALID"):
        return list(attrs.get("pads", [0] * (2 * len(kernel)))) if mode == "NOTSET" \
            else [0] * (2 * len(kernel))
    shape = imp.shape(node.input[0])
    if shape is None:
        imp.fail(node, f"auto_pad={mode} needs the input's static shape")
    begin, end = [], []
    for size, k, s, d in zip(shape[2:], kernel, strides, dilations):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        small, big = total // 2, total - total // 2
        begin.append(small if mode == "SAME_UPPER" else big)
        end.append(big if mode == "SAME_UPPER" else small)
    return begin + end


def _explicit_pad(imp, node, x, pads, nd, value=0.0):
    """Pad the spatial dims of ``x`` by ONNX-style ``pads`` with MXNet's Pad (4-D/5-D only,
    so a 1-D signal gets a dummy axis while it is padded)."""
    pads = [int(p) for p in pads]
    one_d = nd == 1
    if one_d:
        x = imp.S.expand_dims(x, axis=2)
        pads, nd = [0, pads[0], 0, pads[1]], 2
    width = [0, 0, 0, 0]
    for b, e in zip(pads[:nd], pads[nd:]):
        width += [b, e]
    y = imp.S.Pad(x, mode="constant", pad_width=tuple(width), constant_value=value,
                  name=imp.unique(f"{node.name or node.output[0]}_pad"))
    return imp.S.squeeze(y, axis=2) if one_d else y


@converter("Conv")
def conv(imp, node, attrs):
    wshape = imp.shape(node.input[1])
    if wshape is None:
        imp.fail(node, "needs the weight's shape (a constant or inferred)")
    kernel = list(attrs.get("kernel_shape", wshape[2:]))
    nd = len(kernel)
    strides = list(attrs.get("strides", [1] * nd))
    dil = list(attrs.get("dilations", [1] * nd))
    pads = _auto_pads(imp, node, attrs, kernel, strides, dil)
    ins = _sym_inputs(imp, node)
    pad = _pads_split(imp, node, pads, nd)
    if pad is None:
        ins[0] = _explicit_pad(imp, node, ins[0], pads, nd)
        pad = (0,) * nd
    return imp.S.Convolution(*ins, kernel=tuple(kernel), stride=tuple(strides),
                             dilate=tuple(dil), pad=pad, num_filter=int(wshape[0]),
                             num_group=int(attrs.get("group", 1)), no_bias=len(ins) < 3,
                             name=imp.node_name(node))


@converter("ConvTranspose")
def conv_transpose(imp, node, attrs):
    wshape = imp.shape(node.input[1])
    if wshape is None:
        imp.fail(node, "needs the weight's shape (a constant or inferred)")
    if "output_shape" in attrs:
        imp.fail(node, "output_shape is not supported; give pads and output_padding")
    kernel = list(attrs.get("kernel_shape", wshape[2:]))
    nd = len(kernel)
    pads = list(attrs.get("pads", [0] * (2 * nd)))
    pad = _pads_split(imp, node, pads, nd)
    if pad is None or attrs.get("auto_pad", "NOTSET") != "NOTSET":
        imp.fail(node, f"asymmetric or automatic padding {pads} is not supported")
    group = int(attrs.get("group", 1))
    ins = _sym_inputs(imp, node)
    return imp.S.Deconvolution(*ins, kernel=tuple(kernel),
                               stride=tuple(attrs.get("strides", [1] * nd)),
                               dilate=tuple(attrs.get("dilations", [1] * nd)), pad=pad,
                               adj=tuple(attrs.get("output_padding", [0] * nd)),
                               num_filter=int(wshape[1]) * group, num_group=group,
                               no_bias=len(ins) < 3, name=imp.node_name(node))


@converter("BatchNormalization", "SpatialBN")
def batch_norm(imp, node, attrs):
    x, gamma, beta, mean, var = _sym_inputs(imp, node)[:5]
    return imp.S.BatchNorm(x, gamma, beta, mean, var, eps=float(attrs.get("epsilon", 1e-5)),
                           momentum=float(attrs.get("momentum", 0.9)), fix_gamma=False,
                           use_global_stats=True, name=imp.node_name(node))


@converter("InstanceNormalization")
def instance_norm(imp, node, attrs):
    return imp.S.InstanceNorm(*_sym_inputs(imp, node), eps=float(attrs.get("epsilon", 1e-5)),
                              name=imp.node_name(node))


@converter("LayerNormalization")
def layer_norm(imp, node, attrs):
    axis = int(attrs.get("axis", -1))
    rank = imp.rank(node.input[0])
    if axis != -1 and (rank is None or axis % rank != rank - 1):
        imp.fail(node, f"axis={axis} is not supported; MXNet's LayerNorm normalises one axis "
                 "(the last)")
    ins = _sym_inputs(imp, node)
    if len(ins) < 3:
        imp.fail(node, "a bias input is required")
    return imp.S.LayerNorm(*ins[:3], axis=-1, eps=float(attrs.get("epsilon", 1e-5)),
                           name=imp.node_name(node))


@converter("LRN")
def lrn(imp, node, attrs):
    return imp.S.LRN(imp.sym(node.input[0]), alpha=float(attrs.get("alpha", 1e-4)),
                     beta=float(attrs.get("beta", 0.75)), knorm=float(attrs.get("bias", 1.0)),
                     nsize=int(attrs["size"]), name=imp.node_name(node))


_ACT = {"Relu": "relu", "Sigmoid": "sigmoid", "Tanh": "tanh", "Softplus": "softrelu",
        "Softsign": "softsign"}


@converter(*_ACT)
def activation(imp, node, attrs):
    return imp.S.Activation(imp.sym(node.input[0]), act_type=_ACT[node.op_type],
                            name=imp.node_name(node))


@converter("LeakyRelu")
def leaky_relu(imp, node, attrs):
    return imp.S.LeakyReLU(imp.sym(node.input[0]), act_type="leaky",
                           slope=float(attrs.get("alpha", 0.01)), name=imp.node_name(node))


@converter("Elu")
def elu(imp, node, attrs):
    return imp.S.LeakyReLU(imp.sym(node.input[0]), act_type="elu",
                           slope=float(attrs.get("alpha", 1.0)), name=imp.node_name(node))


@converter("Selu")
def selu(imp, node, attrs):
    alpha, gamma = float(attrs.get("alpha", 1.67326319)), float(attrs.get("gamma", 1.05070102))
    if abs(alpha - 1.6732632) > 1e-5 or abs(gamma - 1.0507010) > 1e-5:
        imp.fail(node, f"alpha={alpha}, gamma={gamma}: MXNet's selu has fixed constants")
    return imp.S.LeakyReLU(imp.sym(node.input[0]), act_type="selu", name=imp.node_name(node))


@converter("Gelu")
def gelu(imp, node, attrs):
    if attrs.get("approximate", "none") != "none":
        imp.fail(node, "approximate='tanh' is not supported")
    return imp.S.LeakyReLU(imp.sym(node.input[0]), act_type="gelu", name=imp.node_name(node))


@converter("PRelu")
def prelu(imp, node, attrs):
    slope = imp.const(node.input[1])
    xshape = imp.shape(node.input[0])
    if slope is not None and xshape is not None and len(xshape) >= 2:
        flat = slope.reshape(-1)
        trailing = slope.shape[1:] if slope.ndim == len(xshape) - 1 else None
        if trailing is not None and all(d == 1 for d in trailing) and flat.size == xshape[1]:
            gamma = imp.param(node.input[1], flat)
            return imp.S.LeakyReLU(imp.sym(node.input[0]), gamma=gamma, act_type="prelu",
                                   name=imp.node_name(node))
    # any other slope shape: max(x, 0) + slope * min(x, 0), broadcasting like ONNX
    x = imp.sym(node.input[0])
    pos, neg = imp.S.relu(x), imp.S.negative(imp.S.relu(imp.S.negative(x)))
    slope_sym = _aligned(imp, node, 1, _rank_of(imp, node, 0))
    return imp.S.broadcast_add(pos, imp.S.broadcast_mul(neg, slope_sym), name=imp.node_name(node))


@converter("HardSigmoid")
def hard_sigmoid(imp, node, attrs):
    return imp.S.hard_sigmoid(imp.sym(node.input[0]), alpha=float(attrs.get("alpha", 0.2)),
                              beta=float(attrs.get("beta", 0.5)), name=imp.node_name(node))


def _pool(imp, node, attrs, pool_type):
    kernel = list(attrs["kernel_shape"])
    nd = len(kernel)
    if any(d != 1 for d in attrs.get("dilations", [1] * nd)):
        imp.fail(node, "dilated pooling is not supported")
    if len(node.output) > 1 and node.output[1]:
        imp.fail(node, "the indices output is not supported")
    strides = list(attrs.get("strides", [1] * nd))
    pads = _auto_pads(imp, node, attrs, kernel, strides, [1] * nd)
    x = imp.sym(node.input[0])
    pad = _pads_split(imp, node, pads, nd)
    shape = imp.shape(node.input[0])
    counts_pad = pool_type == "avg" and attrs.get("count_include_pad", 0)
    if pad is None and nd == 1 and pads[0] == 0 and shape is not None and not counts_pad \
            and not attrs.get("ceil_mode", 0) and pads[1] == max((-(-shape[2] // strides[0]) - 1) * strides[0]
                                                + kernel[0] - shape[2], 0):
        # MXNet's own "same" convention: windows from 0, padding at the end, not counted
        return imp.S.Pooling(imp.sym(node.input[0]), kernel=tuple(kernel), stride=tuple(strides),
                             pad=(0, 0, 0), pool_type=pool_type, pooling_convention="same",
                             name=imp.node_name(node))
    if pad is None:
        if pool_type == "avg" and not attrs.get("count_include_pad", 0):
            imp.fail(node, f"asymmetric pads {pads} with count_include_pad=0 are not supported")
        x = _explicit_pad(imp, node, x, pads, nd, -_FLOAT_MAX if pool_type == "max" else 0.0)
        pad = (0,) * nd
    kw = {}
    if pool_type == "avg":
        kw["count_include_pad"] = bool(attrs.get("count_include_pad", 0))
    if pool_type == "lp":
        kw["p_value"] = int(attrs.get("p", 2))
    return imp.S.Pooling(x, kernel=tuple(kernel), stride=tuple(strides), pad=pad,
                         pool_type=pool_type,
                         pooling_convention="full" if attrs.get("ceil_mode", 0) else "valid",
                         name=imp.node_name(node), **kw)


@converter("MaxPool")
def max_pool(imp, node, attrs):
    return _pool(imp, node, attrs, "max")


@converter("AveragePool")
def avg_pool(imp, node, attrs):
    return _pool(imp, node, attrs, "avg")


@converter("LpPool")
def lp_pool(imp, node, attrs):
    return _pool(imp, node, attrs, "lp")


@converter("GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool")
def global_pool(imp, node, attrs):
    rank = imp.rank(node.input[0]) or 4
    kind = {"GlobalAveragePool": "avg", "GlobalMaxPool": "max", "GlobalLpPool": "lp"}[node.op_type]
    kw = {"p_value": int(attrs.get("p", 2))} if kind == "lp" else {}
    return imp.S.Pooling(imp.sym(node.input[0]), kernel=(1,) * (rank - 2), global_pool=True,
                         pool_type=kind, name=imp.node_name(node), **kw)


@converter("Flatten")
def flatten(imp, node, attrs):
    axis = int(attrs.get("axis", 1))
    x = imp.sym(node.input[0])
    if axis == 1:
        return imp.S.Flatten(x, name=imp.node_name(node))
    shape = imp.shape(node.input[0])
    if axis == 0:
        return imp.S.Reshape(x, shape=(1, -1), name=imp.node_name(node))
    if shape is None:
        imp.fail(node, f"axis={axis} needs the input's static shape")
    axis %= len(shape)
    return imp.S.Reshape(x, shape=(int(np.prod(shape[:axis])), -1), name=imp.node_name(node))


@converter("Gemm")
def gemm(imp, node, attrs):
    alpha, beta = float(attrs.get("alpha", 1.0)), float(attrs.get("beta", 1.0))
    ta, tb = int(attrs.get("transA", 0)), int(attrs.get("transB", 0))
    b = imp.const(node.input[1])
    c = imp.const(node.input[2]) if len(node.input) > 2 and node.input[2] else None
    has_c = len(node.input) > 2 and bool(node.input[2])
    a = imp.sym(node.input[0])
    name = imp.node_name(node)
    if b is not None and not ta and (not has_c or (c is not None and c.size in (1, b.shape[tb]))):
        # the common dense layer: y = x W^T + b
        w = b if tb else b.T
        wname = node.input[1] if tb and alpha == 1.0 else f"{node.input[1]}_gemm"
        if alpha != 1.0:
            w = w * alpha
        weight = imp.param(wname, np.ascontiguousarray(w))
        n = w.shape[0]
        if has_c:
            bias_v = np.broadcast_to(c.reshape(-1), (n,)) * beta
            bname = node.input[2] if beta == 1.0 and c.size == n else f"{node.input[2]}_gemm"
            bias = imp.param(bname, np.ascontiguousarray(bias_v.astype(c.dtype)))
            return imp.S.FullyConnected(a, weight, bias, num_hidden=n, name=name)
        return imp.S.FullyConnected(a, weight, num_hidden=n, no_bias=True, name=name)
    y = imp.S.linalg_gemm2(a, imp.sym(node.input[1]), transpose_a=bool(ta), transpose_b=bool(tb),
                           alpha=alpha, name=f"{name}_matmul" if has_c else name)
    if not has_c:
        return y
    cs = imp.sym(node.input[2])
    if beta != 1.0:
        cs = cs * beta
    return imp.S.broadcast_add(y, cs, name=name)


@converter("MatMul")
def matmul(imp, node, attrs):
    b = imp.const(node.input[1])
    a = imp.sym(node.input[0])
    name = imp.node_name(node)
    if b is not None and b.ndim == 2:
        weight = imp.param(f"{node.input[1]}_T", np.ascontiguousarray(b.T))
        return imp.S.FullyConnected(a, weight, num_hidden=b.shape[1], no_bias=True,
                                    flatten=False, name=name)
    ra, rb = imp.rank(node.input[0]), imp.rank(node.input[1])
    bs = imp.sym(node.input[1])
    if rb == 2 or (ra == 2 and rb == 2):
        return imp.S.dot(a, bs, name=name)
    if ra is not None and ra == rb and ra >= 3:
        return imp.S.linalg_gemm2(a, bs, name=name)
    imp.fail(node, f"operand ranks {ra} and {rb} are not supported")


def _rank_of(imp, node, i):
    return imp.rank(node.input[i])


def _aligned(imp, node, i, rank):
    """Input ``i`` as a Symbol whose rank is ``rank`` (ONNX broadcasting pads on the left)."""
    name = node.input[i]
    v = imp.const(name)
    if v is not None:
        if rank is not None and v.ndim < rank:
            v = v.reshape((1,) * (rank - v.ndim) + v.shape)
            return imp.param(name, v)
        return imp.sym(name)
    s = imp.sym(name)
    r = imp.rank(name)
    if rank is not None and r is not None:
        for _ in range(rank - r):
            s = imp.S.expand_dims(s, axis=0)
    return s


_BINARY = {"Add": ("broadcast_add", "_plus_scalar", None),
           "Sub": ("broadcast_sub", "_minus_scalar", "_rminus_scalar"),
           "Mul": ("broadcast_mul", "_mul_scalar", None),
           "Div": ("broadcast_div", "_div_scalar", "_rdiv_scalar"),
           "Pow": ("broadcast_power", "_power_scalar", "_rpower_scalar"),
           "Max": ("broadcast_maximum", "_maximum_scalar", None),
           "Min": ("broadcast_minimum", "_minimum_scalar", None)}


def _scalar_of(imp, name):
    v = imp.const(name)
    if v is not None and v.size == 1 and np.issubdtype(v.dtype, np.floating):
        return float(v.reshape(-1)[0])
    return None


def _binary(imp, node, a, b, name):
    """Two-input element-wise op; a constant size-1 operand becomes a *_scalar op."""
    bcast, scalar, rscalar = _BINARY[node.op_type]
    sa, sb = _scalar_of(imp, node.input[a]), _scalar_of(imp, node.input[b])
    if sb is not None and imp.rank(node.input[b]) <= max(imp.rank(node.input[a]) or 0, 1):
        return getattr(imp.S._internal, scalar)(imp.sym(node.input[a]), scalar=sb, name=name)
    if sa is not None and imp.rank(node.input[a]) <= max(imp.rank(node.input[b]) or 0, 1):
        op = rscalar or scalar
        return getattr(imp.S._internal, op)(imp.sym(node.input[b]), scalar=sa, name=name)
    ra, rb = imp.rank(node.input[a]), imp.rank(node.input[b])
    rank = max(ra, rb) if ra is not None and rb is not None else None
    return getattr(imp.S, bcast)(_aligned(imp, node, a, rank), _aligned(imp, node, b, rank),
                                 name=name)


@converter(*_BINARY)
def binary(imp, node, attrs):
    if len(node.input) == 1:
        return imp.S.identity(imp.sym(node.input[0]), name=imp.node_name(node))
    if len(node.input) > 2:  # variadic Max/Min
        if node.op_type not in ("Max", "Min"):
            imp.fail(node, f"{len(node.input)} inputs")
        op = imp.S.broadcast_maximum if node.op_type == "Max" else imp.S.broadcast_minimum
        y = imp.sym(node.input[0])
        for i in node.input[1:]:
            y = op(y, imp.sym(i))
        return imp.S.identity(y, name=imp.node_name(node))
    return _binary(imp, node, 0, 1, imp.node_name(node))


@converter("Sum", "Mean")
def sum_n(imp, node, attrs):
    ranks = [imp.rank(i) for i in node.input]
    rank = None if None in ranks else max(ranks)
    syms = [_aligned(imp, node, i, rank) for i in range(len(node.input))]
    y = syms[0]
    for s in syms[1:]:
        y = imp.S.broadcast_add(y, s)
    if node.op_type == "Mean":
        y = y / float(len(syms))
    return imp.S.identity(y, name=imp.node_name(node))


_UNARY = {"Exp": "exp", "Log": "log", "Sqrt": "sqrt", "Abs": "abs", "Neg": "negative",
          "Reciprocal": "reciprocal", "Floor": "floor", "Ceil": "ceil", "Sin": "sin",
          "Cos": "cos", "Tan": "tan", "Asin": "arcsin", "Acos": "arccos", "Atan": "arctan",
          "Sinh": "sinh", "Cosh": "cosh", "Erf": "erf", "Sign": "sign", "Round": "rint",
          "Identity": "identity", "Not": "logical_not"}


@converter(*_UNARY)
def unary(imp, node, attrs):
    return getattr(imp.S, _UNARY[node.op_type])(imp.sym(node.input[0]), name=imp.node_name(node))


_COMPARE = {"Equal": "broadcast_equal", "Less": "broadcast_lesser",
            "Greater": "broadcast_greater", "LessOrEqual": "broadcast_lesser_equal",
            "GreaterOrEqual": "broadcast_greater_equal"}


@converter(*_COMPARE)
def compare(imp, node, attrs):
    ra, rb = imp.rank(node.input[0]), imp.rank(node.input[1])
    rank = max(ra, rb) if ra is not None and rb is not None else None
    return getattr(imp.S, _COMPARE[node.op_type])(_aligned(imp, node, 0, rank),
                                                  _aligned(imp, node, 1, rank),
                                                  name=imp.node_name(node))


@converter("Dropout")
def dropout(imp, node, attrs):
    if len(node.output) > 1 and node.output[1]:
        imp.fail(node, "the mask output is not supported")
    return imp.S.identity(imp.sym(node.input[0]), name=imp.node_name(node))


@converter("Softmax", "LogSoftmax")
def softmax(imp, node, attrs):
    fn = imp.S.softmax if node.op_type == "Softmax" else imp.S.log_softmax
    x = imp.sym(node.input[0])
    name = imp.node_name(node)
    if imp.opset >= 13:
        return fn(x, axis=int(attrs.get("axis", -1)), name=name)
    axis = int(attrs.get("axis", 1))
    rank = imp.rank(node.input[0])
    if rank is not None and axis % rank == rank - 1:
        return fn(x, axis=-1, name=name)
    if rank is None and axis not in (-1, 1):
        imp.fail(node, f"axis={axis} needs the input's rank")
    if rank == 2 or rank is None and axis == -1:
        return fn(x, axis=-1, name=name)
    # before opset 13: softmax over the dims from ``axis`` on, flattened together
    shape = imp.shape(node.input[0])
    if shape is None:
        imp.fail(node, "needs the input's static shape")
    axis %= rank
    flat = imp.S.Reshape(x, shape=(int(np.prod(shape[:axis])), -1))
    return imp.S.Reshape(fn(flat, axis=-1), shape=shape, name=name)


@converter("Concat")
def concat(imp, node, attrs):
    axis = int(attrs["axis"])
    if axis < 0:
        rank = imp.rank(node.input[0], node)
        axis %= rank
    return imp.S.Concat(*_sym_inputs(imp, node), dim=axis, num_args=len(node.input),
                        name=imp.node_name(node))


@converter("Reshape")
def reshape(imp, node, attrs):
    value = None if len(node.input) < 2 or imp.const(node.input[1]) is not None else \
        imp.shape_values.get(node.input[1])
    if value is not None:
        # a shape built at run time: dims copied from the input at the same place are 0
        codes = [0 if e == (node.input[0], i) else e for i, e in enumerate(value)]
        if any(not isinstance(c, int) for c in codes) or attrs.get("allowzero"):
            imp.fail(node, "a target shape known only at run time is supported only when its "
                     "run-time dims are the input's own dims at the same places")
        return imp.S.Reshape(imp.sym(node.input[0]), shape=tuple(codes),
                             name=imp.node_name(node))
    shape = _const_input(imp, node, 1, "the target shape")
    if shape is None:
        shape = attrs.get("shape")
    shape = tuple(int(s) for s in np.asarray(shape).reshape(-1))
    if attrs.get("allowzero") and 0 in shape:
        imp.fail(node, "allowzero=1 with zero dims is not supported")
    return imp.S.Reshape(imp.sym(node.input[0]), shape=shape, name=imp.node_name(node))


@converter("Transpose")
def transpose(imp, node, attrs):
    perm = attrs.get("perm")
    return imp.S.transpose(imp.sym(node.input[0]), axes=tuple(perm) if perm else (),
                           name=imp.node_name(node))


@converter("Squeeze")
def squeeze(imp, node, attrs):
    axes = _axes_arg(imp, node, attrs, 1)
    return imp.S.squeeze(imp.sym(node.input[0]), axis=None if axes is None else tuple(axes),
                         name=imp.node_name(node))


@converter("Unsqueeze")
def unsqueeze(imp, node, attrs):
    axes = _axes_arg(imp, node, attrs, 1)
    x = imp.sym(node.input[0])
    rank = imp.rank(node.input[0])
    if any(a < 0 for a in axes):
        if rank is None:
            imp.fail(node, "negative axes need the input's rank")
        axes = [a % (rank + len(axes)) for a in axes]
    for a in sorted(axes):
        x = imp.S.expand_dims(x, axis=a)
    return imp.S.identity(x, name=imp.node_name(node))


@converter("Slice")
def slice_(imp, node, attrs):
    if "starts" in attrs:  # opset < 10
        starts, ends = attrs["starts"], attrs["ends"]
        axes, steps = attrs.get("axes", list(range(len(starts)))), [1] * len(starts)
    else:
        starts = _const_input(imp, node, 1, "starts")
        ends = _const_input(imp, node, 2, "ends")
        axes = _const_input(imp, node, 3, "axes")
        steps = _const_input(imp, node, 4, "steps")
        axes = list(range(len(starts))) if axes is None else axes
        steps = [1] * len(starts) if steps is None else steps
    big = 2 ** 62
    x = imp.sym(node.input[0])
    name = imp.node_name(node)
    if len(starts) == 1 and int(steps[0]) == 1:
        e = int(ends[0])
        return imp.S.slice_axis(x, axis=int(axes[0]), begin=int(starts[0]),
                                end=None if e >= big else e, name=name)
    if any(int(a) < 0 for a in axes):
        rank = imp.rank(node.input[0], node)
        axes = [int(a) % rank for a in axes]
    n = max(int(a) for a in axes) + 1
    begin, end, step = [None] * n, [None] * n, [None] * n
    for s, e, a, st in zip(starts, ends, axes, steps):
        s, e, st = int(s), int(e), int(st)
        begin[int(a)] = s if abs(s) < big else None
        end[int(a)] = e if abs(e) < big else None
        step[int(a)] = st
    return imp.S.slice(x, begin=tuple(begin), end=tuple(end), step=tuple(step), name=name)


_REDUCE = {"ReduceSum": "sum", "ReduceMean": "mean", "ReduceMax": "max", "ReduceMin": "min",
           "ReduceProd": "prod"}


def _reduction(imp, node, attrs):
    """An ONNX reduction's (input symbol, node name, axis (None: all), keepdims, noop), where
    ``noop`` says the node reduces nothing (no axes and ``noop_with_empty_axes``)."""
    axes = _axes_arg(imp, node, attrs, 1)
    noop = not axes and bool(attrs.get("noop_with_empty_axes", 0))
    axis = tuple(axes) if axes else None
    return (imp.sym(node.input[0]), imp.node_name(node), axis,
            bool(attrs.get("keepdims", 1)), noop)


@converter(*_REDUCE, "ReduceL1", "ReduceL2")
def reduce(imp, node, attrs):
    x, name, axis, keep, noop = _reduction(imp, node, attrs)
    if noop:
        return imp.S.identity(x, name=name)
    if node.op_type in ("ReduceL1", "ReduceL2"):
        return imp.S.norm(x, ord=1 if node.op_type == "ReduceL1" else 2, axis=axis,
                          keepdims=keep, name=name)
    return getattr(imp.S, _REDUCE[node.op_type])(x, axis=axis, keepdims=keep, name=name)


@converter("ArgMax", "ArgMin")
def arg_reduce(imp, node, attrs):
    if attrs.get("select_last_index", 0):
        imp.fail(node, "select_last_index=1 is not supported")
    fn = imp.S.argmax if node.op_type == "ArgMax" else imp.S.argmin
    y = fn(imp.sym(node.input[0]), axis=int(attrs.get("axis", 0)),
           keepdims=bool(attrs.get("keepdims", 1)))
    return imp.S.Cast(y, dtype="int64", name=imp.node_name(node))


@converter("Clip")
def clip(imp, node, attrs):
    lo, hi = attrs.get("min", -_FLOAT_MAX), attrs.get("max", _FLOAT_MAX)
    v = _const_input(imp, node, 1, "min")
    lo = _item(v) if v is not None else lo
    v = _const_input(imp, node, 2, "max")
    hi = _item(v) if v is not None else hi
    return imp.S.clip(imp.sym(node.input[0]), a_min=lo, a_max=hi, name=imp.node_name(node))


@converter("Pad")
def pad(imp, node, attrs):
    pads = _const_input(imp, node, 1, "pads")
    pads = attrs.get("pads") if pads is None else pads
    value = _const_input(imp, node, 2, "constant_value")
    value = float(attrs.get("value", 0.0)) if value is None else _item(value)
    pads = [int(p) for p in pads]
    nd = len(pads) // 2
    pairs = list(zip(pads[:nd], pads[nd:]))
    axes = _const_input(imp, node, 3, "axes")
    if axes is not None:  # opset 18: pads for the listed axes only
        rank = imp.rank(node.input[0], node)
        full = [(0, 0)] * rank
        for a, pr in zip(np.asarray(axes).reshape(-1), pairs):
            full[int(a) % rank] = pr
        pairs, nd = full, rank
    if any(b < 0 or e < 0 for b, e in pairs):
        imp.fail(node, f"negative pads {pads} are not supported")
    mode = attrs.get("mode", "constant")
    x = imp.sym(node.input[0])
    name = imp.node_name(node)
    if nd in (4, 5) and pairs[0] == pairs[1] == (0, 0):
        return imp.S.Pad(x, mode=mode, pad_width=tuple(v for pr in pairs for v in pr),
                         constant_value=value, name=name)
    # MXNet's Pad takes 4-D/5-D input padded after the first two axes: move the padded axes
    # last and fold the others into the leading two
    shape = imp.shape(node.input[0])
    padded = [a for a in range(nd) if pairs[a] != (0, 0)]
    if shape is None or len(padded) > 3:
        imp.fail(node, f"pads {pads} need a static input shape and at most 3 padded axes")
    rest = [a for a in range(nd) if a not in padded]
    perm = rest + padded
    dummy = max(2 - len(padded), 0)
    y = imp.S.transpose(x, axes=tuple(perm)) if perm != list(range(nd)) else x
    y = imp.S.Reshape(y, shape=(int(np.prod([shape[a] for a in rest])), 1) + (1,) * dummy +
                      tuple(shape[a] for a in padded))
    width = (0, 0, 0, 0) + (0, 0) * dummy + tuple(v for a in padded for v in pairs[a])
    y = imp.S.Pad(y, mode=mode, pad_width=width, constant_value=value)
    y = imp.S.Reshape(y, shape=tuple(shape[a] for a in rest) +
                      tuple(shape[a] + sum(pairs[a]) for a in padded))
    if perm == list(range(nd)):
        return imp.S.identity(y, name=name)
    return imp.S.transpose(y, axes=tuple(int(i) for i in np.argsort(perm)), name=name)


@converter("Cast")
def cast(imp, node, attrs):
    from onnx import helper
    dtype = np.dtype(helper.tensor_dtype_to_np_dtype(attrs["to"]))
    return imp.S.Cast(imp.sym(node.input[0]), dtype=dtype.name, name=imp.node_name(node))


@converter("Gather")
def gather(imp, node, attrs):
    axis = int(attrs.get("axis", 0))
    data = imp.const(node.input[0])
    name = imp.node_name(node)
    if data is not None and data.ndim == 2 and axis == 0:
        weight = imp.sym(node.input[0])
        return imp.S.Embedding(imp.sym(node.input[1]), weight, input_dim=data.shape[0],
                               output_dim=data.shape[1], dtype=data.dtype.name, name=name)
    idx = imp.const(node.input[1])
    if idx is not None and idx.ndim == 0:
        i = int(idx.reshape(-1)[0])
        y = imp.S.slice_axis(imp.sym(node.input[0]), axis=axis, begin=i,
                             end=None if i == -1 else i + 1)
        return imp.S.squeeze(y, axis=(axis,), name=name)
    # ONNX counts negative indices from the end, as take's wrap mode does
    mode = "wrap" if idx is None or (idx < 0).any() else "clip"
    return imp.S.take(imp.sym(node.input[0]), imp.sym(node.input[1]), axis=axis, mode=mode,
                      name=name)


@converter("Resize", "Upsample")
def resize(imp, node, attrs):
    mode = attrs.get("mode", "nearest")
    if mode not in ("nearest", "linear", "bilinear"):
        imp.fail(node, f"mode={mode!r} is not supported; expected nearest or linear")
    if node.op_type == "Upsample":
        scales = attrs.get("scales")
        scales = _const_input(imp, node, 1, "scales") if scales is None else scales
    elif imp.opset < 11:  # Resize-10: (X, scales)
        scales, sizes = _const_input(imp, node, 1, "scales"), None
    else:
        scales = _const_input(imp, node, 2, "scales")
        sizes = imp.shape_values.get(node.input[3]) if len(node.input) > 3 and node.input[3] \
            and imp.const(node.input[3]) is None else _const_input(imp, node, 3, "sizes")
        if sizes is not None:
            # a run-time size must be the input's own dim at the same place
            dims = imp.dims(node.input[0]) or (None,) * len(sizes)
            sizes = [("same" if e == (node.input[0], i) else None) if isinstance(e, tuple)
                     else int(e) for i, e in enumerate(sizes)]
            if None in sizes:
                imp.fail(node, "sizes known only at run time must be the input's own dims")
        if (scales is None or np.size(scales) == 0) and sizes is not None and mode == "nearest":
            if any(s != "same" and d is None for s, d in zip(sizes, dims)):
                imp.fail(node, "sizes needs the input's static shape")
            scales = [1.0 if s == "same" else s / d for s, d in zip(sizes, dims)]
    if mode != "nearest":
        from ._ops_more import resize_linear
        if node.op_type == "Resize":
            return resize_linear(imp, node, attrs, scales, sizes)
        imp.fail(node, f"mode={mode!r} is not supported; Upsample's linear mode samples at "
                 "asymmetric coordinates, which BilinearResize2D does not")
    scales = [float(s) for s in np.asarray(scales).reshape(-1)]
    if any(s < 1 or s != int(s) for s in scales):
        imp.fail(node, f"scales {scales} are not supported; expected integer factors")
    # an integer factor s reads input index i // s under these coordinate/rounding settings
    ctm = attrs.get("coordinate_transformation_mode", "half_pixel")
    rounding = attrs.get("nearest_mode", "round_prefer_floor")
    if node.op_type == "Resize" and imp.opset >= 11 and not (
            ctm in ("half_pixel", "pytorch_half_pixel") and rounding.startswith("round")
            or ctm == "asymmetric" and (rounding == "floor" or rounding == "round_prefer_floor"
                                        and max(scales) <= 2)):
        imp.fail(node, f"coordinate_transformation_mode={ctm!r} with nearest_mode="
                 f"{rounding!r} is not supported for scales {scales}")
    spatial = scales[2:]
    name = imp.node_name(node)
    if len(scales) == 4 and scales[:2] == [1.0, 1.0] and len(set(spatial)) == 1:
        return imp.S.UpSampling(imp.sym(node.input[0]), scale=int(spatial[0]),
                                sample_type="nearest", num_args=1, name=name)
    y = imp.sym(node.input[0])
    for axis, s in enumerate(scales):
        if s != 1:
            y = imp.S.repeat(y, repeats=int(s), axis=axis)
    return imp.S.identity(y, name=name)


@converter("Split")
def split(imp, node, attrs):
    axis = int(attrs.get("axis", 0))
    sizes = attrs.get("split")
    if sizes is None and len(node.input) > 1 and node.input[1]:
        sizes = _const_input(imp, node, 1, "split")
    x = imp.sym(node.input[0])
    k = len(node.output)
    name = imp.node_name(node)
    shape = imp.shape(node.input[0])
    if sizes is None and shape is not None and shape[axis] % k:
        # Split-18's num_outputs on an uneven dim: equal parts, the last one smaller
        part = -(-shape[axis] // k)
        sizes = [part] * (k - 1) + [shape[axis] - part * (k - 1)]
    if sizes is None or len(set(int(s) for s in sizes)) == 1:
        parts = imp.S.SliceChannel(x, num_outputs=k, axis=axis, name=name)
        return [parts[i] for i in range(k)]
    outs, start = [], 0
    for i, s in enumerate(int(s) for s in sizes):
        outs.append(imp.S.slice_axis(x, axis=axis, begin=start, end=start + s, name=f"{name}_{i}"))
        start += s
    return outs


@converter("Expand")
def expand(imp, node, attrs):
    value = imp.shape_values.get(node.input[1]) if imp.const(node.input[1]) is None else None
    if value is not None:  # a shape known at run time: broadcast against zeros of that shape
        from ._ops_more import filled
        rank = max(imp.rank(node.input[0], node), len(value))
        zeros = filled(imp, node, [1] * (rank - len(value)) + list(value),
                       imp.dtype(node.input[0]) or "float32")
        return imp.S.broadcast_add(_aligned(imp, node, 0, rank), zeros, name=imp.node_name(node))
    shape = [int(s) for s in _const_input(imp, node, 1, "shape")]
    rank = imp.rank(node.input[0])
    x = _aligned(imp, node, 0, len(shape) if rank is not None and rank < len(shape) else None)
    if rank is None:
        imp.fail(node, "needs the input's rank")
    # ONNX's 1 keeps the input's dim; MXNet's broadcast_to says so with 0
    shape = [0 if s == 1 else s for s in shape]
    return imp.S.broadcast_to(x, shape=tuple(shape), name=imp.node_name(node))


@converter("Tile")
def tile(imp, node, attrs):
    reps = [int(r) for r in _const_input(imp, node, 1, "repeats")]
    return imp.S.tile(imp.sym(node.input[0]), reps=tuple(reps), name=imp.node_name(node))


@converter("Where")
def where(imp, node, attrs):
    shapes = [imp.shape(i) for i in node.input]
    if len({s for s in shapes}) == 1:
        return imp.S.where(*_sym_inputs(imp, node), name=imp.node_name(node))
    # MXNet's where takes equal shapes: broadcast the operands first (ONNX's rules)
    if any(s is None for s in shapes):
        imp.fail(node, "operands of different shapes need static shapes")
    out = np.broadcast_shapes(*shapes)
    args = []
    for i, s in enumerate(shapes):
        x = _aligned(imp, node, i, len(out))
        args.append(x if tuple(s) == out else imp.S.broadcast_to(x, shape=out))
    return imp.S.where(*args, name=imp.node_name(node))


from . import _ops_more  # noqa: E402,F401  (registers more converters)
