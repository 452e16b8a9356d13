"""The CPU backend: NumPy arrays in host memory."""
from __future__ import annotations

import numpy as np

__all__ = ["CPUBackend", "np"]


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
