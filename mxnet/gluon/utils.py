"""Gluon helpers: splitting batches across devices, gradient clipping, file checks."""
from __future__ import annotations

import hashlib
import math
import os

from .. import ndarray as _nd
from ..base import MXNetError

__all__ = ["split_data", "split_and_load", "clip_global_norm", "check_sha1", "download"]


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
    """Scale ``arrays`` in place so their joint 2-norm is at most ``max_norm``; returns the norm."""
    if not arrays:
        raise MXNetError("clip_global_norm: arrays must not be empty")
    ctx = arrays[0].context
    # asnumpy().item(): works for mx.nd (shape (1,)) and mx.np (shape ()) sums alike
    total = sum(float((a.as_in_context(ctx).astype("float32") ** 2).sum().asnumpy().item())
                for a in arrays)
    norm = math.sqrt(total)
    if check_isfinite and not math.isfinite(norm):
        import warnings
        warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."),
                      stacklevel=2)
    scale = max_norm / (norm + 1e-8)
    if scale < 1.0:
        for a in arrays:
            a *= scale
    return norm


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
