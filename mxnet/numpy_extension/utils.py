"""``npx.save`` / ``npx.load``: ``mx.np`` arrays in the ``.params`` format with NumPy shapes
(V3 records, which allow zero-dim arrays), as 1.9.1 writes them."""
from __future__ import annotations

from ..base import MXNetError

__all__ = ["save", "load"]


def save(file, arr):
    """Save an ``mx.np.ndarray``, a list of them or a dict str -> array to ``file``."""
    from ..ndarray import serialization as ser
    from ..numpy.multiarray import ndarray
    if not isinstance(file, str):
        raise TypeError(f"npx.save: file must be a str path, got {type(file).__name__}")
    if isinstance(arr, ndarray):
        arr = [arr]
    if isinstance(arr, dict):
        names, values = list(arr.keys()), list(arr.values())
        if any(not isinstance(k, str) for k in names):
            raise TypeError("npx.save: dict keys must be str")
    elif isinstance(arr, (list, tuple)):
        names, values = None, list(arr)
    else:
        raise ValueError(f"npx.save: expected an ndarray, a list or a dict of ndarrays, got "
                         f"{type(arr).__name__}")
    for v in values:
        if not isinstance(v, ndarray):
            raise TypeError(f"npx.save: only mxnet.numpy.ndarray can be saved, got "
                            f"{type(v).__module__}.{type(v).__name__}")
    chunks = ser._iter_encode([ser._to_record(v) for v in values], names, magic=ser.V3_MAGIC)
    try:
        ser.write_file_atomic(file, chunks)
    except OSError as err:
        raise MXNetError(f"npx.save: cannot write {file!r}: {err.strerror or err}") from err


def load(file):
    """Load a file written by ``npx.save`` (or ``mx.nd.save``): a list or dict of
    ``mx.np.ndarray``."""
    from ..ndarray import serialization as ser
    from ..numpy.multiarray import array
    if not isinstance(file, str):
        raise TypeError(f"npx.load: file must be a str path, got {type(file).__name__}")
    try:
        with open(file, "rb") as f:
            buf = f.read()
    except OSError as err:
        raise MXNetError(f"npx.load: cannot open {file!r}: {err.strerror or err}") from err
    records, names = ser.decode(buf, f"npx.load({file!r})")
    out = [array(a, dtype=a.dtype, ctx=ser._load_ctx(t, i)) for a, t, i in records]
    return out if names is None else dict(zip(names, out))
