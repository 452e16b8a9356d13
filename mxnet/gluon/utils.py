"""Gluon helpers: splitting batches across devices, gradient clipping, file checks."""
from __future__ import annotations

import hashlib
import os

from .. import ndarray as _nd
from ..base import MXNetAssertionError, MXNetError

__all__ = ["split_data", "split_and_load", "clip_global_norm", "check_sha1", "download"]


def __getattr__(name):
    # 1.9.1 defines the hook handle here; it lives with the blocks (imported on first use
    # so that this module never needs gluon.block while that is being imported)
    if name == "HookHandle":
        from .block import HookHandle
        return HookHandle
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def split_data(data, num_slice, batch_axis=0, even_split=True):
    """Split ``data`` into ``num_slice`` pieces along ``batch_axis``."""
    size = data.shape[batch_axis]
    if even_split and size % num_slice != 0:
        raise ValueError(f"data with shape {data.shape} cannot be evenly split into {num_slice} "
                         f"slices along axis {batch_axis}. Use a batch size that's multiple of "
                         f"{num_slice} or set even_split=False to allow uneven partitioning of data.")
    if size < num_slice:
        raise ValueError(f"Too many slices for data with shape {data.shape}. Arguments are "
                         f"num_slice={num_slice} and batch_axis={batch_axis}.")
    if num_slice == 1:
        return [data]
    # as 1.9.1: the first ``size % num_slice`` slices take one extra row each
    step, extra = divmod(size, num_slice)
    bounds = [0]
    for i in range(num_slice):
        bounds.append(bounds[-1] + step + (1 if i < extra else 0))
    if batch_axis == 0:
        return [data[bounds[i]:bounds[i + 1]] for i in range(num_slice)]
    return [_nd.slice_axis(data, axis=batch_axis, begin=bounds[i], end=bounds[i + 1])
            for i in range(num_slice)]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Split ``data`` along ``batch_axis`` and put one piece on each context."""
    if not isinstance(data, _nd.NDArray):
        data = _nd.array(data, ctx=ctx_list[0])
    if len(ctx_list) == 1:
        return [data.as_in_context(ctx_list[0])]
    slices = split_data(data, len(ctx_list), batch_axis, even_split)
    return [s.as_in_context(c) for s, c in zip(slices, ctx_list)]


def clip_global_norm(arrays, max_norm, check_isfinite=True):
    """Scale ``arrays`` in place so their joint 2-norm is at most ``max_norm``.

    Returns the norm before clipping, as 1.9.1 does: a NumPy scalar of the arrays' dtype
    (float32 for float16 arrays) when ``check_isfinite``, else the norm as a 1-element array.
    """
    import numpy as np
    if len(arrays) == 0:   # as 1.9.1, a single NDArray also works (clipped row by row)
        raise MXNetAssertionError("clip_global_norm: arrays must not be empty")
    ctx = arrays[0].context
    # accumulate in the first array's dtype (half precision in float32)
    acc = np.float32 if arrays[0].dtype == np.float16 else np.dtype(arrays[0].dtype).type

    def _sq(a):
        a = a.as_in_context(ctx)
        if a.dtype != acc:
            a = a.astype(acc)
        if a.stype != "default":   # as 1.9.1: a sparse array's norm (computed natively)
            return a.norm().square()
        return (a * a).sum()

    total = _sq(arrays[0])
    for a in arrays[1:]:
        total = total + _sq(a)
    total_norm = total ** 0.5
    # the norm and the scale in the arrays' precision, as 1.9.1 computes them
    norm = total_norm.asnumpy().reshape(-1)[0]
    if check_isfinite and not np.isfinite(norm):
        import warnings
        warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."),
                      stacklevel=2)
    scale = norm.dtype.type(max_norm) / (norm + norm.dtype.type(1e-8))
    if scale < 1.0 or not np.isfinite(scale):
        with np.errstate(invalid="ignore", over="ignore"):   # inf * 0 is nan, silently
            for a in arrays:
                if a.stype != "default":   # 1.9.1 scales by a 1-element array (logged)
                    from ..ndarray import array as _nd_array
                    a *= _nd_array([scale], ctx=a.context, dtype=a.dtype)
                else:
                    a *= float(scale)
    return norm if check_isfinite else total_norm


def check_sha1(filename, sha1_hash):
    """True when the file's SHA-1 equals ``sha1_hash``."""
    sha1 = hashlib.sha1()
    with open(filename, "rb") as f:
        while True:
            chunk = f.read(1 << 20)
            if not chunk:
                break
            sha1.update(chunk)
    return sha1.hexdigest() == sha1_hash


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Fetch ``url`` to ``path``; a clear MXNetError when the network cannot be reached."""
    fname = path if path and not os.path.isdir(path) else os.path.join(path or ".", url.split("/")[-1])
    if os.path.exists(fname) and not overwrite and (sha1_hash is None or check_sha1(fname, sha1_hash)):
        return fname
    import urllib.request
    tmp = fname + ".part"
    try:
        with urllib.request.urlopen(url, timeout=30) as r, open(tmp, "wb") as f:
            while True:
                chunk = r.read(1 << 20)
                if not chunk:
                    break
                f.write(chunk)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise MXNetError(f"download: cannot fetch {url} ({e}); this machine may be offline. "
                         f"Download the file elsewhere and place it at {fname}.") from None
    os.replace(tmp, fname)
    if sha1_hash and not check_sha1(fname, sha1_hash):
        raise MXNetError(f"download: {fname} does not match the expected SHA-1 {sha1_hash}")
    return fname


_APACHE_REPO_URL = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"


def _get_repo_url():
    """The base URL of the Gluon file repository (``MXNET_GLUON_REPO``), ending in '/'."""
    url = os.environ.get("MXNET_GLUON_REPO", _APACHE_REPO_URL)
    return url if url.endswith("/") else url + "/"


def _get_repo_file_url(namespace, filename):
    """The URL of ``filename`` in folder ``namespace`` of the Gluon file repository."""
    return f"{_get_repo_url()}{namespace}/{filename}"
