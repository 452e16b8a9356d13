"""The CPU backend: NumPy arrays in host memory."""
from __future__ import annotations

import numpy as np

__all__ = ["CPUBackend", "np"]


def _tune_malloc():
    """Keep freed large blocks in the heap instead of returning them to the OS at once, so
    that kernels' big temporaries do not page-fault afresh on every call (glibc only).

    This plays the part of MXNet's storage pool; MXNET_PY_MALLOPT=0 turns it off.
    """
    import os
    import sys
    if not sys.platform.startswith("linux") or os.environ.get("MXNET_PY_MALLOPT", "1") == "0":
        return
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 64 << 20)    # M_MMAP_THRESHOLD
        libc.mallopt(-1, 256 << 20)   # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass


_tune_malloc()


class CPUBackend:
    """NumPy on the host. Each CPU context id gets its own random generator."""

    is_gpu = False

    def __init__(self, ctx):
        self.ctx = ctx
        self.xp = np
        self.rng = np.random.Generator(np.random.MT19937(ctx.device_id))

    def seed(self, seed):
        self.rng = np.random.Generator(np.random.MT19937(int(seed) & 0xFFFFFFFF))

    def asarray(self, data, dtype=None):
        """Bring host data (NumPy, CuPy, list) onto this device as an array of ``dtype``."""
        if type(data).__module__.startswith("cupy"):
            data = data.get()
        return np.asarray(data, dtype=dtype)

    def synchronize(self):
        pass

    def empty_cache(self):
        pass

    def memory_info(self):
        import os
        pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        return avail, pages
