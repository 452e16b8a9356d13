"""Neural-network operators for ``mx.np`` arrays: the registered MXNet operators, called with
NumPy arrays and returning them."""
from __future__ import annotations

from ..base import MXNetAssertionError, MXNetError
from ..context import gpu_memory_info  # noqa: F401  (1.9.1 exposes it as npx.gpu_memory_info)
from ..ndarray.ndarray import NDArray, invoke
from ..operator.registry import get_op

__all__ = ["relu", "sigmoid", "softmax", "log_softmax", "activation", "pick", "one_hot",
           "batch_dot", "batch_flatten", "reshape", "fully_connected", "convolution",
           "pooling", "dropout", "embedding", "batch_norm", "layer_norm", "sequence_mask",
           "topk", "leaky_relu", "gamma", "erf", "arange_like", "cast", "constraint_check",
           "deconvolution", "erfinv", "gammaln", "gather_nd", "gpu_memory_info",
           "multibox_detection", "multibox_prior", "multibox_target", "nonzero", "reshape_like",
           "rnn", "roi_pooling", "shape_array", "slice", "smooth_l1"]


def _np_cls():
    from ..numpy.multiarray import ndarray
    return ndarray


class _NpxInputError(MXNetAssertionError, TypeError):
    """A non-array input to an npx operator: 1.9.1 asserts (an AssertionError); a TypeError too."""


def _check(fname, *arrays):
    for a in arrays:
        if a is not None and not isinstance(a, NDArray):
            raise _NpxInputError(f"npx.{fname}: expected mxnet.numpy.ndarray inputs, got "
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


def softmax(data=None, length=None, axis=-1, temperature=None, dtype=None, use_length=False,
            out=None, name=None, **kwargs):  # noqa: ARG001  (name: 1.9.1's signature)
    """Softmax along ``axis``. With ``use_length=True`` the integer array ``length`` (shape of
    ``data`` without ``axis``) keeps only the first ``length`` entries of each slice: the
    rest get probability 0."""
    if length is not None and not isinstance(length, NDArray):
        raise MXNetError(f"npx.softmax: length must be an integer mx.np.ndarray, got "
                         f"{type(length).__name__} {length!r} (the second positional argument "
                         "is length; pass axis= by keyword)")
    if bool(use_length) != (length is not None):
        raise MXNetError("npx.softmax: use_length=True and a length array go together; got "
                         f"use_length={use_length!r} with length "
                         f"{'given' if length is not None else 'None'}")
    if length is not None and length.dtype.kind not in "iu":
        raise MXNetError(f"npx.softmax: length must have an integer dtype, got {length.dtype} "
                         "(1.9.1 accepts int32/int64 lengths only)")
    return _op("softmax", "softmax", [data, length], dict(
        kwargs, axis=axis, temperature=temperature, dtype=dtype,
        use_length=True if use_length else None), out)


def log_softmax(data=None, axis=-1, temperature=None, dtype=None, use_length=False, out=None,
                name=None, **kwargs):  # noqa: ARG001
    """Log of the softmax along ``axis``. As in 1.9.1 the operator has no length input, so
    ``use_length=True`` is an error."""
    if use_length or "length" in kwargs:
        raise MXNetError("npx.log_softmax: use_length/length are not available: 1.9.1's "
                         "log_softmax operator takes no length input (use npx.softmax(data, "
                         "length, use_length=True) and take the log)")
    return _op("log_softmax", "log_softmax", [data], dict(
        kwargs, axis=axis, temperature=temperature, dtype=dtype), out)


def pick(data, index, axis=-1, keepdims=False, mode="clip"):
    """The elements of ``data`` at positions ``index`` along ``axis``."""
    _check("pick", data, index)
    if index.dtype != data.dtype:
        index = index.astype(data.dtype)
    return _run("pick", "pick", [data, index], {"axis": axis, "mode": mode,
                                                "keepdims": keepdims})


def one_hot(indices, depth, on_value=1.0, off_value=0.0, dtype="float32"):
    """One-hot rows of length ``depth`` for the integer ``indices``."""
    return _run("one_hot", "one_hot", [indices], {"depth": depth, "on_value": on_value,
                                                  "off_value": off_value, "dtype": dtype})


def batch_dot(lhs, rhs, transpose_a=False, transpose_b=False, forward_stype="default"):  # noqa: ARG001
    """Batched matrix product of two 3-d (or higher) arrays."""
    return _run("batch_dot", "batch_dot", [lhs, rhs], {"transpose_a": transpose_a,
                                                      "transpose_b": transpose_b})


def batch_flatten(data):
    """Flatten every axis but the first."""
    return _run("batch_flatten", "Flatten", [data], {})


def reshape(a, newshape, reverse=False, order="C"):
    """Reshape with 1.9.1's npx codes: -1 infers, -2 copies a dimension, -3 drops a size-1
    dimension, -4 copies all remaining ones, -5 merges two, -6 splits one into the next two
    values; ``reverse=True`` reads the codes right to left."""
    if isinstance(newshape, int):
        newshape = (newshape,)
    return _run("reshape", "_npx_reshape", [a], {"newshape": tuple(newshape),
                                                 "reverse": reverse, "order": order})


def fully_connected(data, weight, bias=None, num_hidden=None, no_bias=False, flatten=True):
    """x @ weight.T + bias (``no_bias=True``: no bias; 1.9.1's default is to add one)."""
    if num_hidden is None:
        num_hidden = weight.shape[0]
    if not no_bias and bias is None:
        raise MXNetError("npx.fully_connected: bias is None but no_bias=False; pass a bias "
                         "array of shape (num_hidden,) or no_bias=True")
    if no_bias and bias is not None:
        raise MXNetError("npx.fully_connected: a bias array was given with no_bias=True "
                         "(1.9.1 rejects the extra input); drop one of them")
    return _run("fully_connected", "FullyConnected", [data, weight, None if no_bias else bias],
                {"num_hidden": num_hidden, "no_bias": no_bias, "flatten": flatten})


def convolution(data, weight, bias=None, kernel=None, stride=None, dilate=None, pad=None,
                num_filter=1, num_group=1, no_bias=False, layout=None, **kwargs):
    """N-d convolution (the registered Convolution operator)."""
    kw = dict(kwargs, kernel=kernel, stride=stride, dilate=dilate, pad=pad,
              num_filter=num_filter, num_group=num_group, no_bias=no_bias, layout=layout)
    return _run("convolution", "Convolution", [data, weight, None if no_bias else bias], kw)


def pooling(data, kernel=None, pool_type="max", global_pool=False, cudnn_off=False,
            pooling_convention="valid", stride=None, pad=None, **kwargs):
    """Max / average / sum / lp pooling (1.9.1's positional order)."""
    kw = dict(kwargs, kernel=kernel, stride=stride, pad=pad, pool_type=pool_type,
              global_pool=global_pool, cudnn_off=cudnn_off,
              pooling_convention=pooling_convention)
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


def batch_norm(data, gamma, beta, moving_mean, moving_var, eps=1e-3, momentum=0.9,
               fix_gamma=True, use_global_stats=False, axis=1, **kwargs):
    """Batch normalisation (the registered BatchNorm operator)."""
    kw = dict(kwargs, eps=eps, momentum=momentum, fix_gamma=fix_gamma,
              use_global_stats=use_global_stats, axis=axis)
    return _run("batch_norm", "BatchNorm", [data, gamma, beta, moving_mean, moving_var], kw)


def layer_norm(data, gamma, beta, axis=-1, eps=1e-5, output_mean_var=False):
    """Layer normalisation over ``axis``."""
    return _run("layer_norm", "LayerNorm", [data, gamma, beta],
                {"axis": axis, "eps": eps, "output_mean_var": output_mean_var})


def sequence_mask(data, sequence_length=None, use_sequence_length=False, value=0.0, axis=0):
    """Set the positions past each sequence's length to ``value``."""
    return _run("sequence_mask", "SequenceMask", [data, sequence_length],
                {"use_sequence_length": use_sequence_length, "value": value, "axis": axis})


def topk(data, axis=-1, k=1, ret_typ="indices", is_ascend=False, dtype="float32"):
    """The top ``k`` elements (or their indices) along ``axis`` (of the flattened array when
    ``axis`` is None)."""
    return _run("topk", "topk", [data], {"axis": "None" if axis is None else axis, "k": k,
                                         "ret_typ": ret_typ, "is_ascend": is_ascend,
                                         "dtype": dtype})


def gamma(data):
    """The gamma function elementwise."""
    return _run("gamma", "gamma", [data], {})


def erf(data):
    """The error function elementwise."""
    return _run("erf", "erf", [data], {})


# --- thin front ends over registered operators, with 1.9.1's signatures -------------------------
# (None means "the operator's default", as 1.9.1's _Null does)

def _op(fname, opname, inputs, attrs, out=None, required=1):
    """Run ``opname`` on ``inputs`` (the first ``required`` must be given; a trailing None is an
    optional input left out) with the non-None ``attrs``; results are mx.np arrays."""
    for i, a in enumerate(inputs[:required]):
        if a is None:
            raise MXNetError(f"npx.{fname}: input {i} is required but was None")
    _check(fname, *inputs)
    op = get_op(opname)
    attrs = {k: v for k, v in attrs.items() if v is not None}
    return invoke(op, [a for a in inputs if a is not None], op.parse_attrs(attrs), out=out,
                  cls=_np_cls())


def arange_like(data=None, start=None, step=None, repeat=None, ctx=None, axis=None, out=None,
                name=None, **kwargs):  # noqa: ARG001
    """start, start + step, ... shaped like ``data`` (or as long as its ``axis``), each value
    repeated ``repeat`` times; float32, on ``data``'s device."""
    return _op("arange_like", "_contrib_arange_like", [data],
               dict(kwargs, start=start, step=step, repeat=repeat, axis=axis), out)


def cast(data=None, dtype=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """``data`` converted to ``dtype`` (the gradient is cast back)."""
    if dtype is None and "dtype" not in kwargs:
        raise MXNetError("npx.cast: dtype is required (e.g. 'float16', 'int32'), got None")
    return _op("cast", "Cast", [data], dict(kwargs, dtype=dtype), out)


def constraint_check(x, msg):
    """A bool scalar that is True when every element of the boolean array ``x`` is True;
    otherwise ValueError(``msg``), as 1.9.1 raises."""
    _check("constraint_check", x)
    if not isinstance(x, NDArray):
        raise MXNetError("npx.constraint_check: x must be an mx.np.ndarray")
    if x.dtype != bool:
        raise MXNetError(f"npx.constraint_check: x must be a boolean array, got dtype "
                         f"{x.dtype}")
    res = _op("constraint_check", "_np_all", [x], {})
    if not bool(res.asnumpy()):
        raise ValueError(f"npx.constraint_check: {msg}")
    return res


def deconvolution(data=None, weight=None, bias=None, kernel=None, stride=None, dilate=None,
                  pad=None, adj=None, target_shape=None, num_filter=None, num_group=None,
                  workspace=None, no_bias=None, cudnn_tune=None, cudnn_off=None, layout=None,
                  out=None, name=None, **kwargs):  # noqa: ARG001
    """Transposed convolution (the Deconvolution operator). As in 1.9.1, ``no_bias`` defaults
    to True, so a ``bias`` needs ``no_bias=False``."""
    if bias is not None and (no_bias is None or no_bias):
        raise MXNetError("npx.deconvolution: a bias array was given but no_bias is "
                         f"{True if no_bias is None else no_bias} (1.9.1's default is True, "
                         "so the operator takes 2 inputs); pass no_bias=False to add a bias")
    if no_bias is False and bias is None:
        raise MXNetError("npx.deconvolution: no_bias=False but bias is None; pass a bias of "
                         "shape (num_filter,)")
    return _op("deconvolution", "Deconvolution", [data, weight, bias], dict(
        kwargs, kernel=kernel, stride=stride, dilate=dilate, pad=pad, adj=adj,
        target_shape=target_shape, num_filter=num_filter, num_group=num_group,
        workspace=workspace, no_bias=no_bias, cudnn_tune=cudnn_tune, cudnn_off=cudnn_off,
        layout=layout), out, required=2)


def erfinv(data=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """The inverse error function elementwise."""
    return _op("erfinv", "erfinv", [data], kwargs, out)


def gammaln(data=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """log|gamma(x)| elementwise."""
    return _op("gammaln", "gammaln", [data], kwargs, out)


def gather_nd(data=None, indices=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """Elements (or slices) of ``data`` at the index tuples stored along the first axis of
    ``indices``."""
    return _op("gather_nd", "gather_nd", [data, indices], kwargs, out, required=2)


def multibox_detection(cls_prob=None, loc_pred=None, anchor=None, clip=None, threshold=None,
                       background_id=None, nms_threshold=None, force_suppress=None,
                       variances=None, nms_topk=None, out=None, name=None,
                       **kwargs):  # noqa: ARG001
    """SSD detections [class, score, xmin, ymin, xmax, ymax] from class probabilities, box
    offsets and anchors, after non-maximum suppression."""
    return _op("multibox_detection", "_contrib_MultiBoxDetection", [cls_prob, loc_pred, anchor],
               dict(kwargs, clip=clip, threshold=threshold, background_id=background_id,
                    nms_threshold=nms_threshold, force_suppress=force_suppress,
                    variances=variances, nms_topk=nms_topk), out, required=3)


def multibox_prior(data=None, sizes=None, ratios=None, clip=None, steps=None, offsets=None,
                   out=None, name=None, **kwargs):  # noqa: ARG001
    """SSD anchor boxes (1, H*W*(len(sizes)+len(ratios)-1), 4) for a (N, C, H, W) feature
    map."""
    return _op("multibox_prior", "_contrib_MultiBoxPrior", [data], dict(
        kwargs, sizes=sizes, ratios=ratios, clip=clip, steps=steps, offsets=offsets), out)


def multibox_target(anchor=None, label=None, cls_pred=None, overlap_threshold=None,
                    ignore_label=None, negative_mining_ratio=None, negative_mining_thresh=None,
                    minimum_negative_samples=None, variances=None, out=None, name=None,
                    **kwargs):  # noqa: ARG001
    """SSD training targets: [box targets, box masks, class targets]."""
    return _op("multibox_target", "_contrib_MultiBoxTarget", [anchor, label, cls_pred], dict(
        kwargs, overlap_threshold=overlap_threshold, ignore_label=ignore_label,
        negative_mining_ratio=negative_mining_ratio,
        negative_mining_thresh=negative_mining_thresh,
        minimum_negative_samples=minimum_negative_samples, variances=variances), out,
        required=3)


def nonzero(a):
    """The indices of the nonzero elements of ``a``: int64, shape (count, a.ndim)."""
    return _op("nonzero", "_npx_nonzero", [a], {})


def reshape_like(lhs=None, rhs=None, lhs_begin=None, lhs_end=None, rhs_begin=None, rhs_end=None,
                 out=None, name=None, **kwargs):  # noqa: ARG001
    """``lhs`` reshaped to ``rhs``'s shape (or axes [lhs_begin, lhs_end) of it replaced by
    axes [rhs_begin, rhs_end) of ``rhs``)."""
    return _op("reshape_like", "reshape_like", [lhs, rhs], dict(
        kwargs, lhs_begin=lhs_begin, lhs_end=lhs_end, rhs_begin=rhs_begin, rhs_end=rhs_end),
        out, required=2)


def rnn(data=None, parameters=None, state=None, state_cell=None, sequence_length=None,
        state_size=None, num_layers=None, bidirectional=None, mode=None, p=None,
        state_outputs=None, projection_size=None, lstm_state_clip_min=None,
        lstm_state_clip_max=None, lstm_state_clip_nan=None, use_sequence_length=None, out=None,
        name=None, **kwargs):  # noqa: ARG001
    """The fused RNN operator (rnn_relu, rnn_tanh, lstm or gru) over a (T, N, C) sequence with
    packed ``parameters``; ``state_cell`` is LSTM's cell state."""
    return _op("rnn", "RNN", [data, parameters, state, state_cell, sequence_length], dict(
        kwargs, state_size=state_size, num_layers=num_layers, bidirectional=bidirectional,
        mode=mode, p=p, state_outputs=state_outputs, projection_size=projection_size,
        lstm_state_clip_min=lstm_state_clip_min, lstm_state_clip_max=lstm_state_clip_max,
        lstm_state_clip_nan=lstm_state_clip_nan, use_sequence_length=use_sequence_length),
        out, required=3)


def roi_pooling(data=None, rois=None, pooled_size=None, spatial_scale=None, out=None, name=None,
                **kwargs):  # noqa: ARG001
    """Max pooling of each region [batch, x1, y1, x2, y2] of ``rois`` to ``pooled_size``."""
    return _op("roi_pooling", "ROIPooling", [data, rois], dict(
        kwargs, pooled_size=pooled_size, spatial_scale=spatial_scale), out, required=2)


def shape_array(data=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """The shape of ``data`` as a 1-d int64 array."""
    return _op("shape_array", "shape_array", [data], kwargs, out)


def slice(data=None, begin=None, end=None, step=None, out=None, name=None,  # noqa: A001
          **kwargs):  # noqa: ARG001
    """``data[begin:end:step]`` per axis (None entries take the whole axis)."""
    return _op("slice", "slice", [data], dict(kwargs, begin=begin, end=end, step=step), out)


def smooth_l1(data=None, scalar=None, out=None, name=None, **kwargs):  # noqa: ARG001
    """Smooth L1: 0.5 (s x)^2 where |x| < 1/s^2, else |x| - 0.5/s^2 (s = ``scalar``)."""
    return _op("smooth_l1", "smooth_l1", [data], dict(kwargs, scalar=scalar), out)
