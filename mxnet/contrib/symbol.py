"""``mx.contrib.symbol``: the contrib operators for Symbols (the functions of ``mx.sym.contrib``)."""
from ..symbol import contrib as _impl


def __getattr__(attr):
    try:
        return getattr(_impl, attr)
    except AttributeError:
        raise AttributeError(f"module 'mxnet.contrib.symbol' has no attribute {attr!r}") from None


def __dir__():
    return sorted(set(globals()) | {n for n in dir(_impl) if not n.startswith("__")})
