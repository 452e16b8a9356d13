"""``mx.sym.npx``: MXNet's neural-network extensions on NumPy-mode Symbols (what ``F.npx``
is while a NumPy-mode HybridBlock is traced). Each function writes the operator and the
attributes 1.9.1's writes: only the parameters given, nodes named after the function."""
from __future__ import annotations

from ...operator.registry import get_op
from ..numpy._symbol import as_np, node

__all__ = ["relu", "sigmoid", "reshape"]


def relu(data, name=None, attr=None):
    """max(data, 0) elementwise."""
    return node("_npx_relu", [data], hint="relu", name=name, attr=attr)


def sigmoid(data, name=None, attr=None):
    """1 / (1 + exp(-data)) elementwise."""
    return node("_npx_sigmoid", [data], hint="sigmoid", name=name, attr=attr)


def reshape(a, newshape, reverse=None, order=None, name=None, attr=None):
    """Reshape with 1.9.1's npx codes (-1 infer, -2 copy, -3 drop, -4 rest, -5 merge,
    -6 split)."""
    params = {"newshape": newshape}
    if reverse is not None:
        params["reverse"] = reverse
    if order is not None:
        params["order"] = order
    return node("_npx_reshape", [a], params, hint="reshape", name=name, attr=attr)


def nonzero(a, name=None, attr=None):
    """Indices (int64, one row per element) of the nonzero elements."""
    return node("_npx_nonzero", [a], hint="nonzero", name=name, attr=attr)


__all__.append("nonzero")


def _legacy(public, opname, where=None, prefix="npx"):
    """``public`` over the registered ``opname`` operator, returning a NumPy-mode symbol
    (stored in ``where``'s namespace, this module's by default)."""
    from .. import _make_sym_function
    base = _make_sym_function(get_op(opname), public)

    def fn(*args, **kwargs):
        kwargs = {k: v for k, v in kwargs.items() if v is not None}
        return as_np(base(*args, **kwargs))
    fn.__name__ = fn.__qualname__ = public
    fn.__doc__ = f"Symbolic {prefix}.{public} (the {opname} operator)."
    fn.__signature__ = base.__signature__
    if where is None:
        fn.__module__ = __name__
        globals()[public] = fn
        __all__.append(public)
    else:
        fn.__module__ = where.__name__
        setattr(where, public, fn)
        where.__all__.append(public)


for _pub, _op in (("softmax", "softmax"), ("log_softmax", "log_softmax"),
                  ("activation", "Activation"), ("fully_connected", "FullyConnected"),
                  ("pick", "pick"), ("one_hot", "one_hot"), ("batch_dot", "batch_dot"),
                  ("batch_flatten", "Flatten"), ("dropout", "Dropout"), ("topk", "topk"),
                  ("leaky_relu", "LeakyReLU"), ("layer_norm", "LayerNorm"),
                  ("embedding", "Embedding"), ("gamma", "gamma"), ("erf", "erf"),
                  ("sequence_mask", "SequenceMask"), ("convolution", "Convolution"),
                  ("deconvolution", "Deconvolution"), ("pooling", "Pooling"),
                  ("batch_norm", "BatchNorm"), ("shape_array", "shape_array"),
                  ("arange_like", "_contrib_arange_like"), ("smooth_l1", "smooth_l1"),
                  ("gather_nd", "gather_nd"), ("slice", "slice"),
                  ("reshape_like", "reshape_like"), ("rnn", "RNN"), ("erfinv", "erfinv"),
                  ("gammaln", "gammaln"), ("cast", "Cast"), ("roi_pooling", "ROIPooling"),
                  ("multibox_detection", "_contrib_MultiBoxDetection"),
                  ("multibox_prior", "_contrib_MultiBoxPrior"),
                  ("multibox_target", "_contrib_MultiBoxTarget")):
    try:
        _legacy(_pub, _op)
    except Exception:  # noqa: BLE001 - an operator this build does not register
        pass


def _image_module():
    """``mx.sym.npx.image``: the ``_image_*`` operators on NumPy-mode symbols."""
    import sys
    import types
    mod = types.ModuleType(__name__ + ".image", "Symbolic npx.image operators.")
    mod.__all__ = []
    for pub in ("to_tensor", "normalize", "resize", "crop", "flip_left_right", "flip_top_bottom",
                "random_flip_left_right", "random_flip_top_bottom", "random_brightness",
                "random_contrast", "random_saturation", "random_hue", "random_color_jitter",
                "adjust_lighting", "random_lighting"):
        _legacy(pub, "_image_" + pub, where=mod, prefix="npx.image")
    sys.modules[mod.__name__] = mod
    return mod


image = _image_module()
__all__.append("image")

from . import random  # noqa: E402, F401
__all__.append("random")
