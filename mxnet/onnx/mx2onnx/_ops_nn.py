"""Converters for the neural-network layers: dense, convolution, pooling, normalisation,
activations, softmax and the like."""
import math

import numpy as np

from ._registry import register


def _spatial(values, nd, default):
    """An MXNet per-spatial-dim tuple (possibly empty) as a list of ``nd`` ints."""
    values = tuple(values or ())
    return [int(v) for v in values] if values else [default] * nd


def _check_layout(n, layout):
    if layout not in (None, "NCW", "NCHW", "NCDHW"):
        n.fail(f"layout={layout!r} is not supported; expected a channel-first layout (NCW, NCHW, "
               "NCDHW)")


@register("FullyConnected")
def fully_connected(g, n):
    p = n.p
    x, w = n.inputs[0], n.inputs[1]
    bias = None if p["no_bias"] else n.inputs[2]
    if p["flatten"]:
        if n.rank(0) != 2:
            x = g.add("Flatten", [x], hint=f"{n.name}_flatten", axis=1)
        if bias is None:
            bias = g.scalar(0, n.dtype(0), f"{n.name}_bias0")
        g.add("Gemm", [x, w, bias], n.out, hint=n.name, alpha=1.0, beta=1.0, transB=1)
        return
    # flatten=False: the last axis is the feature axis, the others are batch axes
    wt = g.add("Transpose", [w], hint=f"{n.name}_wT", perm=[1, 0])
    if bias is None:
        g.add("MatMul", [x, wt], n.out, hint=n.name)
    else:
        y = g.add("MatMul", [x, wt], hint=f"{n.name}_matmul")
        g.add("Add", [y, bias], n.out, hint=n.name)


@register("Convolution")
def convolution(g, n):
    p = n.p
    _check_layout(n, p["layout"])
    nd = len(p["kernel"])
    pad = _spatial(p["pad"], nd, 0)
    g.add("Conv", n.inputs, n.out, hint=n.name, kernel_shape=list(p["kernel"]),
          strides=_spatial(p["stride"], nd, 1), dilations=_spatial(p["dilate"], nd, 1),
          pads=pad + pad, group=int(p["num_group"]))


@register("Deconvolution")
def deconvolution(g, n):
    p = n.p
    _check_layout(n, p["layout"])
    if p["target_shape"] and any(p["target_shape"]):
        n.fail(f"target_shape={p['target_shape']} is not supported; give pad and adj instead")
    nd = len(p["kernel"])
    pad = _spatial(p["pad"], nd, 0)
    g.add("ConvTranspose", n.inputs, n.out, hint=n.name, kernel_shape=list(p["kernel"]),
          strides=_spatial(p["stride"], nd, 1), dilations=_spatial(p["dilate"], nd, 1),
          pads=pad + pad, output_padding=_spatial(p["adj"], nd, 0), group=int(p["num_group"]))


@register("Pooling")
def pooling(g, n):
    p = n.p
    _check_layout(n, p["layout"])
    kind = p["pool_type"]
    x = n.inputs[0]
    rank = n.rank(0)
    if kind not in ("max", "avg", "sum", "lp"):
        n.fail(f"pool_type={kind!r} is not supported; expected max, avg, sum or lp")
    if p["global_pool"]:
        if kind == "max":
            g.add("GlobalMaxPool", [x], n.out, hint=n.name)
        elif kind == "avg":
            g.add("GlobalAveragePool", [x], n.out, hint=n.name)
        elif kind == "sum":
            g.reduce("ReduceSum", x, list(range(2, rank)), True, n.out, n.name)
        else:
            g.add("GlobalLpPool", [x], n.out, hint=n.name, p=int(p["p_value"] or 2))
        return
    nd = len(p["kernel"])
    kernel = [int(k) for k in p["kernel"]]
    attrs = {"kernel_shape": kernel, "strides": _spatial(p["stride"], nd, 1)}
    convention = p["pooling_convention"]
    if convention == "same":
        # MXNet's windows start at 0 and every missing element is padded at the end
        sizes = n.shape(0)[2:]
        end = [max((-(-size // s) - 1) * s + k - size, 0)
               for size, s, k in zip(sizes, attrs["strides"], kernel)]
        attrs["pads"] = [0] * nd + end
    else:
        pad = _spatial(p["pad"], nd, 0)
        attrs["pads"] = pad + pad
        if convention == "full":
            attrs["ceil_mode"] = 1
    if kind == "max":
        g.add("MaxPool", [x], n.out, hint=n.name, **attrs)
    elif kind == "avg":
        include = p["count_include_pad"]
        # MXNet's "same" convention never counts the padding
        attrs["count_include_pad"] = 0 if include is False or convention == "same" else 1
        g.add("AveragePool", [x], n.out, hint=n.name, **attrs)
    elif kind == "sum":
        attrs["count_include_pad"] = 1
        avg = g.add("AveragePool", [x], hint=f"{n.name}_avg", **attrs)
        area = g.scalar(math.prod(kernel), n.dtype(0), f"{n.name}_area")
        g.add("Mul", [avg, area], n.out, hint=n.name)
    else:
        g.add("LpPool", [x], n.out, hint=n.name, p=int(p["p_value"] or 2), **attrs)


def _activation(g, n, act, x, out):
    simple = {"relu": "Relu", "sigmoid": "Sigmoid", "tanh": "Tanh", "softrelu": "Softplus",
              "softsign": "Softsign"}
    if act in simple:
        return g.add(simple[act], [x], out, hint=n.name)
    n.fail(f"act_type={act!r} is not supported")


@register("Activation")
def activation(g, n):
    _activation(g, n, n.p["act_type"], n.inputs[0], n.out)


@register("relu", "sigmoid", "tanh", "softsign")
def activation_op(g, n):
    _activation(g, n, n.op, n.inputs[0], n.out)


@register("hard_sigmoid")
def hard_sigmoid(g, n):
    g.add("HardSigmoid", [n.inputs[0]], n.out, hint=n.name, alpha=float(n.p["alpha"]),
          beta=float(n.p["beta"]))


def _channel_shape(rank, axis, size=-1):
    """The shape that broadcasts a per-channel vector along ``axis`` of a rank-``rank`` tensor."""
    shape = [1] * rank
    shape[axis % rank] = size
    return shape


@register("LeakyReLU")
def leaky_relu(g, n):
    p = n.p
    act, x = p["act_type"], n.inputs[0]
    if act == "leaky":
        g.add("LeakyRelu", [x], n.out, hint=n.name, alpha=float(p["slope"]))
    elif act == "rrelu":  # inference uses the mean of the random slope's range
        g.add("LeakyRelu", [x], n.out, hint=n.name,
              alpha=(float(p["lower_bound"]) + float(p["upper_bound"])) / 2)
    elif act == "elu":
        g.add("Elu", [x], n.out, hint=n.name, alpha=float(p["slope"]))
    elif act == "selu":
        g.add("Selu", [x], n.out, hint=n.name, alpha=1.6732632423543772, gamma=1.0507009873554805)
    elif act == "prelu":
        rank = n.rank(0)
        slope = n.inputs[1]
        if rank > 2:  # MXNet's gamma is per channel (axis 1); ONNX broadcasts from the right
            shape = g.ints(_channel_shape(rank - 1, 0), f"{n.name}_gamma_shape")
            slope = g.add("Reshape", [slope, shape], hint=f"{n.name}_gamma")
        g.add("PRelu", [x, slope], n.out, hint=n.name)
    elif act == "gelu":  # the erf form: x * (1 + erf(x / sqrt 2)) / 2
        dt = n.dtype(0)
        scaled = g.add("Mul", [x, g.scalar(1 / math.sqrt(2), dt, f"{n.name}_rsqrt2")])
        erf = g.add("Erf", [scaled], hint=f"{n.name}_erf")
        one = g.add("Add", [erf, g.scalar(1, dt, f"{n.name}_one")])
        half = g.add("Mul", [x, g.scalar(0.5, dt, f"{n.name}_half")])
        g.add("Mul", [half, one], n.out, hint=n.name)
    else:
        n.fail(f"act_type={act!r} is not supported; expected leaky, prelu, rrelu, elu, selu or gelu")


@register("BatchNorm")
def batch_norm(g, n):
    p = n.p
    if p["output_mean_var"]:
        n.fail("output_mean_var=True is not supported (inference graphs only)")
    x, gamma, beta, mean, var = n.inputs[:5]
    dt = n.dtype(0)
    if p["fix_gamma"]:  # MXNet then ignores the stored gamma and scales by 1
        gamma = g.const(np.ones(n.param_shape(1), n.dtype(1)), f"{n.name}_gamma_fixed")
    eps = float(p["eps"])
    rank = n.rank(0)
    axis = int(p["axis"]) % rank
    if axis == 1:
        g.add("BatchNormalization", [x, gamma, beta, mean, var], n.out, hint=n.name, epsilon=eps)
        return
    # another channel axis: (x - mean) / sqrt(var + eps) * gamma + beta, params reshaped
    shape = g.ints(_channel_shape(rank, axis), f"{n.name}_cshape")

    def bc(t, tag):
        return g.add("Reshape", [t, shape], hint=f"{n.name}_{tag}")
    std = g.add("Sqrt", [g.add("Add", [bc(var, "var"), g.scalar(eps, dt, f"{n.name}_eps")])])
    norm = g.add("Div", [g.add("Sub", [x, bc(mean, "mean")]), std])
    g.add("Add", [g.add("Mul", [norm, bc(gamma, "gamma")]), bc(beta, "beta")], n.out, hint=n.name)


@register("InstanceNorm")
def instance_norm(g, n):
    g.add("InstanceNormalization", n.inputs[:3], n.out, hint=n.name, epsilon=float(n.p["eps"]))


@register("LayerNorm")
def layer_norm(g, n):
    p = n.p
    if p["output_mean_var"]:
        n.fail("output_mean_var=True is not supported (inference graphs only)")
    x, gamma, beta = n.inputs[:3]
    rank = n.rank(0)
    axis = int(p["axis"]) % rank
    eps = float(p["eps"])
    if g.opset >= 17 and axis == rank - 1:
        g.add("LayerNormalization", [x, gamma, beta], n.out, hint=n.name, axis=-1, epsilon=eps)
        return
    dt = n.dtype(0)
    mean = g.reduce("ReduceMean", x, [axis], True, hint=f"{n.name}_mean")
    d = g.add("Sub", [x, mean], hint=f"{n.name}_centered")
    var = g.reduce("ReduceMean", g.add("Mul", [d, d]), [axis], True, hint=f"{n.name}_var")
    std = g.add("Sqrt", [g.add("Add", [var, g.scalar(eps, dt, f"{n.name}_eps")])])
    norm = g.add("Div", [d, std], hint=f"{n.name}_norm")
    if axis != rank - 1:
        shape = g.ints(_channel_shape(rank, axis), f"{n.name}_cshape")
        gamma = g.add("Reshape", [gamma, shape], hint=f"{n.name}_gamma")
        beta = g.add("Reshape", [beta, shape], hint=f"{n.name}_beta")
    g.add("Add", [g.add("Mul", [norm, gamma]), beta], n.out, hint=n.name)


@register("LRN")
def lrn(g, n):
    p = n.p
    g.add("LRN", [n.inputs[0]], n.out, hint=n.name, alpha=float(p["alpha"]),
          beta=float(p["beta"]), bias=float(p["knorm"]), size=int(p["nsize"]))


@register("L2Normalization")
def l2_normalization(g, n):
    p = n.p
    rank = n.rank(0)
    axes = {"instance": list(range(1, rank)), "channel": [1],
            "spatial": list(range(2, rank))}.get(p["mode"])
    x = n.inputs[0]
    sq = g.reduce("ReduceSum", g.add("Mul", [x, x]), axes, True, hint=f"{n.name}_sumsq")
    eps = g.scalar(float(p["eps"]), n.dtype(0), f"{n.name}_eps")
    g.add("Div", [x, g.add("Sqrt", [g.add("Add", [sq, eps])])], n.out, hint=n.name)


@register("Dropout")
def dropout(g, n):
    # inference: identity (the mask output, when MXNet lists one, is never consumed)
    g.add("Identity", [n.inputs[0]], n.out, hint=n.name)


def _scaled_by_temperature(g, n):
    x, t = n.inputs[0], n.p.get("temperature")
    if t is not None and float(t) != 1.0:
        x = g.add("Div", [x, g.scalar(float(t), n.dtype(0), f"{n.name}_temperature")])
    return x


@register("softmax", "log_softmax")
def softmax(g, n):
    if n.p.get("use_length"):
        n.fail("use_length=True is not supported")
    kind = "Softmax" if n.op == "softmax" else "LogSoftmax"
    x = _scaled_by_temperature(g, n)
    dtype = n.p.get("dtype")
    if dtype is None or np.dtype(dtype) == n.dtype(0):
        g.softmax(kind, x, int(n.p["axis"]), n.rank(0), n.out, hint=n.name)
        return
    y = g.softmax(kind, x, int(n.p["axis"]), n.rank(0), hint=f"{n.name}_softmax")
    g.add("Cast", [y], n.out, hint=n.name,
          to=g.helper.np_dtype_to_tensor_dtype(np.dtype(dtype)))


def _instance_softmax(g, n, x):
    """Softmax over all but the first axis (MXNet's per-instance softmax)."""
    rank = n.rank(0)
    if rank <= 2:
        return g.softmax("Softmax", x, rank - 1, rank, n.out, hint=n.name)
    shape = g.add("Shape", [x], hint=f"{n.name}_shape")
    flat = g.add("Flatten", [x], hint=f"{n.name}_flat", axis=1)
    sm = g.softmax("Softmax", flat, 1, 2, hint=f"{n.name}_softmax")
    return g.add("Reshape", [sm, shape], n.out, hint=n.name)


@register("SoftmaxOutput")
def softmax_output(g, n):
    p, x, rank = n.p, n.inputs[0], n.rank(0)
    if p["multi_output"]:
        g.softmax("Softmax", x, 1, rank, n.out, hint=n.name)
    elif p["preserve_shape"]:
        g.softmax("Softmax", x, rank - 1, rank, n.out, hint=n.name)
    else:
        _instance_softmax(g, n, x)


@register("SoftmaxActivation")
def softmax_activation(g, n):
    if n.p["mode"] == "channel":
        g.softmax("Softmax", n.inputs[0], 1, n.rank(0), n.out, hint=n.name)
    else:
        _instance_softmax(g, n, n.inputs[0])


@register("UpSampling")
def upsampling(g, n):
    p = n.p
    if p["sample_type"] != "nearest":
        n.fail(f"sample_type={p['sample_type']!r} is not supported; only nearest is")
    if len(n.inputs) != 1:
        n.fail(f"{len(n.inputs)} inputs are not supported; only one")
    s = float(p["scale"])
    scales = g.const(np.array([1, 1] + [s] * (n.rank(0) - 2), np.float32), f"{n.name}_scales")
    roi = g.const(np.zeros(0, np.float32), f"{n.name}_roi")
    g.add("Resize", [n.inputs[0], roi, scales], n.out, hint=n.name, mode="nearest",
          coordinate_transformation_mode="asymmetric", nearest_mode="floor")


@register("Embedding")
def embedding(g, n):
    idx = g.add("Cast", [n.inputs[0]], hint=f"{n.name}_indices", to=g.onnx.TensorProto.INT64)
    g.add("Gather", [n.inputs[1], idx], n.out, hint=n.name, axis=0)
