"""Neural-network operators for ``mx.np`` arrays: the registered MXNet operators, called with
NumPy arrays and returning them."""
from __future__ import annotations

from ..base import MXNetError
from ..ndarray.ndarray import NDArray, invoke
from ..operator.registry import get_op

__all__ = ["relu", "sigmoid", "softmax", "log_softmax", "activation", "pick", "one_hot",
           "batch_dot", "batch_flatten", "reshape", "fully_connected", "convolution",
           "pooling", "dropout", "embedding", "batch_norm", "layer_norm", "sequence_mask",
           "topk", "leaky_relu", "gamma", "erf"]


def _np_cls():
    from ..numpy.multiarray import ndarray
    return ndarray


def _check(fname, *arrays):
    for a in arrays:
        if a is not None and not isinstance(a, NDArray):
            raise TypeError(f"npx.{fname}: expected mxnet.numpy.ndarray inputs, got "
                            f"{type(a).__module__}.{type(a).__name__}")


def _run(fname, opname, inputs, kwargs):
    _check(fname, *inputs)
    op = get_op(opname)
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    return invoke(op, [a for a in inputs if a is not None], op.parse_attrs(kwargs),
                  cls=_np_cls())


def relu(data):
    """max(data, 0) elementwise."""
    return _run("relu", "_npi_relu", [data], {})


def sigmoid(data):
    """1 / (1 + exp(-data)) elementwise."""
    return _run("sigmoid", "_npi_sigmoid", [data], {})


def activation(data, act_type="relu"):
    """An activation by name: relu, sigmoid, tanh, softrelu or softsign."""
    return _run("activation", "Activation", [data], {"act_type": act_type})


def leaky_relu(data, gamma=None, act_type="leaky", slope=0.25, lower_bound=0.125,
               upper_bound=0.334):
    """Leaky ReLU family (leaky, elu, selu, gelu, prelu with ``gamma``)."""
    return _run("leaky_relu", "LeakyReLU", [data, gamma],
                {"act_type": act_type, "slope": slope, "lower_bound": lower_bound,
                 "upper_bound": upper_bound})


def softmax(data, axis=-1, length=None, temperature=None, use_length=False, dtype=None):
    """Softmax along ``axis``."""
    if length is not None or use_length:
        raise MXNetError("npx.softmax: length/use_length are not supported yet")
    return _run("softmax", "softmax", [data], {"axis": axis, "temperature": temperature,
                                               "dtype": dtype})


def log_softmax(data, axis=-1, length=None, temperature=None, use_length=False, dtype=None):
    """Log of the softmax along ``axis``."""
    if length is not None or use_length:
        raise MXNetError("npx.log_softmax: length/use_length are not supported yet")
    return _run("log_softmax", "log_softmax", [data], {"axis": axis, "temperature": temperature,
                                                       "dtype": dtype})


def pick(data, index, axis=-1, mode="clip", keepdims=False):
    """The elements of ``data`` at positions ``index`` along ``axis``."""
    _check("pick", data, index)
    if index.dtype != data.dtype:
        index = index.astype(data.dtype)
    return _run("pick", "pick", [data, index], {"axis": axis, "mode": mode,
                                                "keepdims": keepdims})


def one_hot(data, depth, on_value=1.0, off_value=0.0, dtype="float32"):
    """One-hot rows of length ``depth`` for the integer indices in ``data``."""
    return _run("one_hot", "one_hot", [data], {"depth": depth, "on_value": on_value,
                                               "off_value": off_value, "dtype": dtype})


def batch_dot(a, b, transpose_a=False, transpose_b=False, forward_stype="default"):  # noqa: ARG001
    """Batched matrix product of two 3-d (or higher) arrays."""
    return _run("batch_dot", "batch_dot", [a, b], {"transpose_a": transpose_a,
                                                  "transpose_b": transpose_b})


def batch_flatten(x):
    """Flatten every axis but the first."""
    return _run("batch_flatten", "Flatten", [x], {})


def reshape(a, newshape, reverse=False, order="C"):
    """Reshape with 1.9.1's npx codes: -1 infers, -2 copies a dimension, -3 drops a size-1
    dimension, -4 copies all remaining ones, -5 merges two, -6 splits one into the next two
    values; ``reverse=True`` reads the codes right to left."""
    if isinstance(newshape, int):
        newshape = (newshape,)
    return _run("reshape", "_npx_reshape", [a], {"newshape": tuple(newshape),
                                                 "reverse": reverse, "order": order})


def fully_connected(x, weight, bias=None, num_hidden=None, no_bias=False, flatten=True):
    """x @ weight.T + bias (``no_bias=True``: no bias; 1.9.1's default is to add one)."""
    if num_hidden is None:
        num_hidden = weight.shape[0]
    if not no_bias and bias is None:
        raise MXNetError("npx.fully_connected: bias is None but no_bias=False; pass a bias "
                         "array of shape (num_hidden,) or no_bias=True")
    if no_bias and bias is not None:
        raise MXNetError("npx.fully_connected: a bias array was given with no_bias=True "
                         "(1.9.1 rejects the extra input); drop one of them")
    return _run("fully_connected", "FullyConnected", [x, weight, None if no_bias else bias],
                {"num_hidden": num_hidden, "no_bias": no_bias, "flatten": flatten})


def convolution(data, weight, bias=None, kernel=None, stride=None, dilate=None, pad=None,
                num_filter=1, num_group=1, no_bias=False, layout=None, **kwargs):
    """N-d convolution (the registered Convolution operator)."""
    kw = dict(kwargs, kernel=kernel, stride=stride, dilate=dilate, pad=pad,
              num_filter=num_filter, num_group=num_group, no_bias=no_bias, layout=layout)
    return _run("convolution", "Convolution", [data, weight, None if no_bias else bias], kw)


def pooling(data, kernel=None, stride=None, pad=None, pool_type="max", global_pool=False,
            **kwargs):
    """Max / average / sum / lp pooling."""
    kw = dict(kwargs, kernel=kernel, stride=stride, pad=pad, pool_type=pool_type,
              global_pool=global_pool)
    return _run("pooling", "Pooling", [data], kw)


def dropout(data, p=0.5, mode="training", axes=None, **kwargs):
    """Dropout (active while autograd is training, or always with ``mode='always'``)."""
    kw = dict(kwargs, p=p, mode=mode, axes=axes)
    return _run("dropout", "Dropout", [data], kw)


def embedding(data, weight, input_dim=None, output_dim=None, dtype="float32", **kwargs):
    """Rows of ``weight`` picked by the indices in ``data``."""
    kw = dict(kwargs, input_dim=input_dim or weight.shape[0],
              output_dim=output_dim or weight.shape[1], dtype=dtype)
    return _run("embedding", "Embedding", [data, weight], kw)


def batch_norm(x, gamma, beta, running_mean, running_var, eps=1e-3, momentum=0.9,
               fix_gamma=True, use_global_stats=False, axis=1, **kwargs):
    """Batch normalisation (the registered BatchNorm operator)."""
    kw = dict(kwargs, eps=eps, momentum=momentum, fix_gamma=fix_gamma,
              use_global_stats=use_global_stats, axis=axis)
    return _run("batch_norm", "BatchNorm", [x, gamma, beta, running_mean, running_var], kw)


def layer_norm(data, gamma, beta, axis=-1, eps=1e-5, output_mean_var=False):
    """Layer normalisation over ``axis``."""
    return _run("layer_norm", "LayerNorm", [data, gamma, beta],
                {"axis": axis, "eps": eps, "output_mean_var": output_mean_var})


def sequence_mask(data, sequence_length=None, use_sequence_length=False, value=0.0, axis=0):
    """Set the positions past each sequence's length to ``value``."""
    return _run("sequence_mask", "SequenceMask", [data, sequence_length],
                {"use_sequence_length": use_sequence_length, "value": value, "axis": axis})


def topk(data, axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype="float32"):
    """The top ``k`` elements (or their indices) along ``axis``."""
    return _run("topk", "topk", [data], {"axis": axis, "k": k, "ret_typ": ret_typ,
                                         "is_ascend": is_ascend, "dtype": dtype})


def gamma(data):
    """The gamma function elementwise."""
    return _run("gamma", "gamma", [data], {})


def erf(data):
    """The error function elementwise."""
    return _run("erf", "erf", [data], {})
