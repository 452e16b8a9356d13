"""``mx.contrib.ndarray``: the contrib operators for NDArrays (the functions of ``mx.nd.contrib``)."""
from ..ndarray import contrib as _impl


def __getattr__(attr):
    try:
        return getattr(_impl, attr)
    except AttributeError:
        raise AttributeError(f"module 'mxnet.contrib.ndarray' has no attribute {attr!r}") from None


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_impl) if not n.startswith("__")})
