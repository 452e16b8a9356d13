"""NumPy's OpenBLAS thread count, lowered to one while op threads run GEMMs of their own.

A convolution alternates im2col copies with GEMMs. Left to OpenBLAS, each GEMM is split over
the cores, so every core reads column buffers that one thread has just written, and the next
im2col writes them again: on a machine whose cores do not share a cache (the two vCPUs of a
cloud VM on different core complexes) each such write first has to take the lines back from
the other core, which made the copies 5-7x slower (a 4 MB buffer: 64 us rewritten by the core
that read it, 380-430 us after the other core read it). The convolution kernels instead give
each op thread whole images (see ``conv_kernels``), each with its own buffers and a
single-threaded GEMM, the way MXNet's and PyTorch's CPU kernels run one OpenMP thread per
slice of the batch.

OpenBLAS's count is process-wide, so ``single_threaded()`` lowers it for as long as any thread
is inside (other threads' GEMMs in that window run on one core too) and restores it when the
last one leaves. Where NumPy is not built on OpenBLAS (MKL, Accelerate) or its library cannot
be found, ``threads()`` is 0 and callers keep BLAS's own threading.
"""
from __future__ import annotations

import contextlib
import glob
import os
import threading

__all__ = ["threads", "single_threaded"]

_STATE = {"lib": None, "tried": False, "depth": 0, "saved": 0}
_LOCK = threading.Lock()

# (set, get) symbol pairs: NumPy's wheels bundle scipy-openblas (its symbols prefixed, "64_"
# suffixed for 64-bit integers); other builds link a plain OpenBLAS
_SYMBOLS = [("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
            ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
            ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
            ("openblas_set_num_threads", "openblas_get_num_threads")]


def _candidates():
    import numpy as np
    base = os.path.dirname(np.__file__)
    found = []
    for pattern in ("../numpy.libs/*openblas*", ".dylibs/*openblas*", "../numpy.libs/*.dll"):
        found += sorted(glob.glob(os.path.join(base, pattern)))
    try:   # Linux: whatever OpenBLAS this process has loaded (a distribution's NumPy)
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.split()[-1]
                if "openblas" in os.path.basename(path) and path not in found:
                    found.append(path)
    except OSError:
        pass
    return found


def _library():
    if _STATE["tried"]:
        return _STATE["lib"]
    with _LOCK:
        if not _STATE["tried"]:
            _STATE["lib"] = _load()
            _STATE["tried"] = True
    return _STATE["lib"]


def _load():
    if os.environ.get("MXNET_PY_BLAS_CONTROL", "1") == "0":
        return None
    try:
        import ctypes
        import numpy as np
        blas = np.__config__.CONFIG["Build Dependencies"]["blas"]["name"]
    except Exception:
        return None
    if "openblas" not in str(blas).lower():
        return None
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _SYMBOLS:
            set_fn, get_fn = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if set_fn is not None and get_fn is not None:
                set_fn.argtypes, set_fn.restype = [ctypes.c_int], None
                get_fn.argtypes, get_fn.restype = [], ctypes.c_int
                return set_fn, get_fn
    return None


def threads():
    """OpenBLAS's thread count as it stands outside ``single_threaded`` (0 where it cannot be
    controlled)."""
    lib = _library()
    if lib is None:
        return 0
    with _LOCK:
        return _STATE["saved"] if _STATE["depth"] else lib[1]()


def _after_fork_in_child():
    # a fork inside another thread's single_threaded block: that block never ends here
    if _STATE["depth"] and _STATE["lib"] is not None:
        _STATE["lib"][0](_STATE["saved"])
    _STATE["depth"] = 0
    global _LOCK
    _LOCK = threading.Lock()   # the parent's could have been held by a thread gone here


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)


@contextlib.contextmanager
def single_threaded():
    """OpenBLAS on one thread inside the block (a no-op where it cannot be controlled)."""
    lib = _library()
    if lib is None:
        yield
        return
    with _LOCK:
        if not _STATE["depth"]:
            _STATE["saved"] = lib[1]()
            lib[0](1)
        _STATE["depth"] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STATE["depth"] -= 1
            if not _STATE["depth"]:
                lib[0](_STATE["saved"])
