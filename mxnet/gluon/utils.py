"""Gluon helpers: splitting batches across devices, gradient clipping, file checks."""
from __future__ import annotations

import hashlib
import numbers
import os

from .. import ndarray as _nd
from ..base import MXNetAssertionError, MXNetError

__all__ = ["split_data", "split_and_load", "clip_global_norm", "check_sha1", "download",
           "replace_file"]


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
                         f"slices along axis {batch_axis:d}. Use a batch size that's multiple of "
                         f"{num_slice} or set even_split=False to allow uneven partitioning of data.")
    # as 1.9.1, more slices than rows (even_split=False) leaves the last slices empty
    if num_slice == 1:
        return [data]
    # as 1.9.1: the first ``size % num_slice`` slices take one extra row each
    step, extra = divmod(size, num_slice)
    bounds = [0]
    for i in range(num_slice):
        bounds.append(bounds[-1] + step + (1 if i < extra else 0))
    if batch_axis == 0:
        return [data[bounds[i]:bounds[i + 1]] for i in range(num_slice)]
    from .. import util as _util
    if _util.is_np_array():   # as 1.9.1: np.split, whose sections may be empty
        from .. import numpy as _mx_np
        return _mx_np.split(data, indices_or_sections=bounds[1:-1], axis=batch_axis)
    return [_nd.slice_axis(data, axis=batch_axis, begin=bounds[i], end=bounds[i + 1])
            for i in range(num_slice)]


def split_and_load(data, ctx_list, batch_axis=0, even_split=True):
    """Split ``data`` along ``batch_axis`` and put one piece on each context."""
    if not isinstance(data, _nd.NDArray):
        from .. import util as _util
        if _util.is_np_array():   # as 1.9.1: an mx.np array, keeping a NumPy array's dtype
            from .. import numpy as _mx_np
            data = _mx_np.array(data, ctx=ctx_list[0])
        else:
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
    for a in arrays:   # 1.9.1's norm (a dot product) rejects integer arrays
        if not np.issubdtype(np.dtype(a.dtype), np.floating):
            raise MXNetError(f"clip_global_norm: arrays must hold floating-point values, got an "
                             f"array of dtype {np.dtype(a.dtype).name} with shape {a.shape}")
    # (1.9.1's CPU build refuses float16 arrays here, having no float16 dot, and float64 ones
    # or a mix of dtypes; float16 and float64 training work on the CPU here, so they are
    # clipped too, with the norm accumulated in the first array's precision)
    ctx = arrays[0].context
    # accumulate in the first array's dtype (half precision in float32)
    acc = np.float32 if arrays[0].dtype == np.float16 else np.dtype(arrays[0].dtype).type

    def _sq(a):
        a = a.as_in_context(ctx)
        if a.dtype != acc:
            a = a.astype(acc)
        if a.stype != "default":   # as 1.9.1: a sparse array's norm (computed natively)
            return a.norm().square()
        flat = a.reshape((-1,))   # as 1.9.1: a dot product (it adds in BLAS's order)
        return _nd.dot(flat, flat)

    total = _sq(arrays[0])
    for a in arrays[1:]:
        total = total + _sq(a)
    total_norm = _nd.sqrt(total)
    # the norm and the scale in the arrays' precision, as 1.9.1 computes them
    norm = total_norm.asnumpy().reshape(-1)[0]
    if check_isfinite and not np.isfinite(norm):
        import warnings
        warnings.warn(UserWarning("nan or inf is detected. Clipping results will be undefined."),
                      stacklevel=2)
    if isinstance(max_norm, _nd.NDArray):   # as 1.9.1, an array works too (its smallest value)
        max_norm = max_norm.asnumpy().min()
    elif not isinstance(max_norm, numbers.Real):   # a str, None, a list: 1.9.1 fails here
        raise MXNetAssertionError(f"clip_global_norm: max_norm must be a number or an NDArray, "
                                  f"got {max_norm!r} ({type(max_norm).__name__})")
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


def _indent(text, spaces):
    """``text`` with every line after the first indented by ``spaces`` blanks (for reprs)."""
    first, *rest = text.split("\n")
    pad = " " * spaces
    return "\n".join([first] + [pad + line for line in rest])


def _brief_print_list(items, limit=7):
    """The items quoted and joined by ', '; a long list keeps only its ends around '...'."""
    items = list(items)
    if len(items) > limit:
        head = limit // 2
        return (_brief_print_list(items[:head], limit) + ", ..., "
                + _brief_print_list(items[head - limit:], limit))
    return ", ".join(f"'{item}'" for item in items)


def replace_file(src, dst):
    """Move ``src`` onto ``dst``, replacing ``dst`` atomically where it exists."""
    os.replace(src, dst)


def shape_is_known(shape):
    """True when every dimension of ``shape`` is known: not None, and (outside NumPy-shape
    mode, where 0 means unknown) not empty and without zeros; -1 is unknown in NumPy-shape mode."""
    from .. import util as _util
    if shape is None:
        return False
    unknown = -1 if _util.is_np_shape() else 0
    if not _util.is_np_shape() and len(shape) == 0:
        return False
    for dim in shape:
        if dim == unknown:
            return False
        if dim < unknown:
            raise MXNetAssertionError(f"shape_is_known: a dimension cannot be less than "
                                      f"{unknown}, got {dim} in shape {tuple(shape)}")
    return True


def _check_same_symbol_type(symbols):
    """The common Symbol class of ``symbols``; a TypeError when legacy and NumPy symbols mix."""
    from ..symbol.numpy import _Symbol as _NpSymbol
    kinds = {isinstance(s, _NpSymbol) for s in symbols}
    if len(kinds) > 1:
        raise TypeError("_check_same_symbol_type: the outputs mix legacy symbols (mx.sym.Symbol) "
                        "and NumPy symbols (mx.sym.np._Symbol); convert them to one kind "
                        "with as_nd_ndarray() or as_np_ndarray()")
    return type(symbols[0]) if symbols else None


def _check_all_np_ndarrays(out):
    """A TypeError unless every array or symbol in the nested ``out`` is a NumPy-mode one."""
    from .. import numpy as _mx_np
    from ..symbol.numpy import _Symbol as _NpSymbol
    if out is None or isinstance(out, (_mx_np.ndarray, _NpSymbol)):
        return
    if isinstance(out, (list, tuple)):
        for item in out:
            _check_all_np_ndarrays(item)
        return
    raise TypeError("A block's outputs must be mxnet.numpy.ndarray or mx.sym.np._Symbol in "
                    f"NumPy mode, got {type(out).__module__}.{type(out).__name__}")


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


class DownloadError(MXNetError, ConnectionError):
    """A failed fetch: an MXNetError that is also the OSError (ConnectionError) 1.9.1 raises."""


class HashMismatchError(MXNetError, UserWarning):
    """A fetched file with the wrong SHA-1: 1.9.1 raises a UserWarning (as an exception)."""


def download(url, path=None, overwrite=False, sha1_hash=None, retries=5, verify_ssl=True):
    """Fetch ``url`` to ``path`` (a file name or a folder; the URL's last part by default).

    As 1.9.1: an existing file is kept unless ``overwrite`` or its SHA-1 differs; each try
    prints ``Downloading <file> from <url>...``; a failure is retried (``retries`` tries in
    all, at least one) and the last one raised as a ConnectionError (here a DownloadError).
    """
    if retries < 0:
        raise MXNetAssertionError(f"Number of retries should be at least 0, currently it's "
                                  f"{retries}")
    if path is None or os.path.isdir(path):
        name = url.split("/")[-1]
        if not name:
            raise MXNetAssertionError("download: cannot construct a file name from the URL "
                                      f"{url!r}; set the `path` argument to a file name")
        fname = os.path.join(path or ".", name) if path else name
    else:
        fname = path
    fname = os.path.expanduser(fname)
    if os.path.exists(fname) and not overwrite and (sha1_hash is None or check_sha1(fname, sha1_hash)):
        return fname
    folder = os.path.dirname(os.path.abspath(fname))
    os.makedirs(folder, exist_ok=True)
    import urllib.request
    context = None
    if not verify_ssl:
        import ssl
        import warnings
        warnings.warn("Unverified HTTPS request is being made (verify_ssl=False). Adding "
                      "certificate verification is strongly advised.", stacklevel=2)
        context = ssl._create_unverified_context()
    tmp = fname + ".part"
    left = max(retries, 1)
    while True:
        print(f"Downloading {fname} from {url}...")
        try:
            try:
                with urllib.request.urlopen(url, timeout=30, context=context) as r, \
                        open(tmp, "wb") as f:
                    while True:
                        chunk = r.read(1 << 20)
                        if not chunk:
                            break
                        f.write(chunk)
            except OSError as e:
                if os.path.exists(tmp):
                    os.remove(tmp)
                raise DownloadError(f"download: cannot fetch {url} ({e}); this machine may be "
                                    f"offline. Download the file elsewhere and place it at "
                                    f"{fname}.") from None
            os.replace(tmp, fname)
            if sha1_hash and not check_sha1(fname, sha1_hash):
                raise HashMismatchError(f"download: {fname} was fetched from {url} but its SHA-1 "
                                        f"is not the expected {sha1_hash}; the file may be "
                                        f"incomplete or the repository outdated.")
            break
        except (DownloadError, HashMismatchError) as e:
            left -= 1
            if left <= 0:
                raise
            print(f"download failed due to {e!r}, retrying, {left} attempt"
                  f"{'s' if left > 1 else ''} left")
    return fname


_APACHE_REPO_URL = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"


def _get_repo_url():
    """The base URL of the Gluon file repository (``MXNET_GLUON_REPO``), ending in '/'."""
    url = os.environ.get("MXNET_GLUON_REPO", _APACHE_REPO_URL)
    return url if url.endswith("/") else url + "/"


def _get_repo_file_url(namespace, filename):
    """The URL of ``filename`` in folder ``namespace`` of the Gluon file repository."""
    return f"{_get_repo_url()}{namespace}/{filename}"
