"""The CPU backend: NumPy arrays in host memory."""
from __future__ import annotations

import numpy as np

from .mt_parallel import SEED_MAGIC, ParallelMT, SerialMT

__all__ = ["CPUBackend", "CPURandom", "np"]


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


class CPURandom:
    """The CPU random state, as 1.9.1 keeps it for a seed.

    - ``parallel``: 1.9.1's parallel sampler (1024 std::mt19937 states), which
      ``mx.nd.random.uniform``/``normal``/``randint``, the ``_sample_*`` and ``_like`` forms
      and Dropout draw from;
    - ``serial``: 1.9.1's single-engine resource (``mx.np.random.uniform``/``normal``);
    - every other attribute is the NumPy ``Generator`` (MT19937 seeded with the same seed)
      that the few samplers not reproduced draw from (``rng.random``, ``rng.integers``, ...:
      laplace, f, binomial, multivariate_normal, ...).

    ``bit_generator.state`` reads and restores all three at once (replays of control flow).
    """

    def __init__(self, seed=0):
        self.seed = int(seed)
        self.parallel = ParallelMT(seed)
        self.serial = SerialMT(seed)
        self._gen = None

    @property
    def generator(self):
        if self._gen is None:
            self._gen = np.random.Generator(np.random.MT19937(self.seed & 0xFFFFFFFF))
        return self._gen

    @property
    def bit_generator(self):
        return _AllStates(self)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.generator, name)


class _AllStates:
    """``state`` of a :class:`CPURandom`: its three generators' states together."""

    def __init__(self, rng):
        self._rng = rng

    @property
    def state(self):
        r = self._rng
        return (r.generator.bit_generator.state, r.parallel.get_state(), r.serial.get_state())

    @state.setter
    def state(self, value):
        r = self._rng
        r.generator.bit_generator.state = value[0]
        r.parallel.set_state(value[1])
        r.serial.set_state(value[2])


class CPUBackend:
    """NumPy on the host. As in 1.9.1, every CPU context (any id, pinned or shared) draws
    from one random state, so seeding any of them seeds them all (with the same seed: 1.9.1
    seeds cpu(i) as it seeds cpu(0))."""

    is_gpu = False
    _shared_rng = [CPURandom(0)]

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
        CPUBackend._shared_rng[0] = CPURandom(int(seed))

    def seed(self, seed):
        """``mx.random.seed(seed, ctx=cpu(i))``: as 1.9.1 seeds a device's resources, the
        parallel generator as ``mx.random.seed(seed)`` does, but the single-engine one (that
        ``mx.np.random.uniform`` / ``normal`` draw from) with ``seed`` itself, not
        ``seed * 127`` (the seed is given as seed * 127**-1 mod 2**32, which SerialMT scales
        back)."""
        CPUBackend.seed_shared(seed)
        CPUBackend._shared_rng[0].serial = SerialMT(
            (int(seed) * pow(SEED_MAGIC, -1, 1 << 32)) & 0xFFFFFFFF)

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
