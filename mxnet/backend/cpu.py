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
    """NumPy on the host. As in 1.9.1, every CPU context (any id, pinned or shared) draws
    from one random generator, so seeding any of them seeds them all."""

    is_gpu = False
    _shared_rng = [np.random.Generator(np.random.MT19937(0))]

    def __init__(self, ctx):
        self.ctx = ctx
        self.xp = np

    @property
    def rng(self):
        return CPUBackend._shared_rng[0]

    @rng.setter
    def rng(self, value):
        CPUBackend._shared_rng[0] = value

    @staticmethod
    def seed_shared(seed):
        """Seed the generator that every CPU context draws from."""
        CPUBackend._shared_rng[0] = np.random.Generator(np.random.MT19937(int(seed) & 0xFFFFFFFF))

    def seed(self, seed):
        CPUBackend.seed_shared(seed)

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
