"""Array modules per device kind: NumPy for CPU contexts, CuPy (imported lazily) for GPUs.

``get_backend(ctx)`` returns a :class:`Backend` whose ``xp`` is the array module that
kernels compute with. Kernels never import NumPy to compute; they take ``xp``.
"""
from __future__ import annotations

from ..base import MXNetError
from ..context import Context
from .cpu import CPUBackend

__all__ = ["Backend", "get_backend", "seed_all", "gpu_count", "xp_of", "to_numpy",
           "synchronize_gpus", "gpu_out_of_memory"]

Backend = CPUBackend
_cache: dict = {}
_seed_state = {"seed": None}


def seed_all(seed, host_only=False):
    """Seed every existing backend, and every backend created later, with ``seed``.

    ``host_only`` leaves GPU generators alone: a process forked from one that already
    used CUDA (a DataLoader worker) must not touch the GPU.
    """
    _seed_state["seed"] = int(seed)
    CPUBackend.seed_shared(seed)  # one generator for all CPU contexts, created or not
    for b in list(_cache.values()):
        if b.is_gpu and not host_only:
            b.seed(seed)


def get_backend(ctx: Context):
    """The backend object of a context (cached per context)."""
    b = _cache.get(ctx)
    if b is None:
        if ctx.device_typeid == 2:
            from .gpu import GPUBackend
            b = GPUBackend(ctx)
        else:
            b = CPUBackend(ctx)
        if _seed_state["seed"] is not None and b.is_gpu:
            b.seed(_seed_state["seed"])  # CPU contexts share one generator, seeded already
        _cache[ctx] = b
    return b


def gpu_count() -> int:
    """Number of visible GPUs, 0 without CuPy or without a GPU."""
    from .gpu import device_count
    try:
        return device_count()
    except MXNetError:  # CuPy missing
        return 0


def xp_of(array):
    """The array module that owns ``array`` (NumPy or CuPy)."""
    mod = type(array).__module__
    if mod.startswith("cupy"):
        from .gpu import cupy_module
        return cupy_module()
    from .cpu import np
    return np


def to_numpy(array):
    """A NumPy copy (or view) of an array of either backend."""
    if type(array).__module__.startswith("cupy"):
        return array.get()
    return array


def synchronize_gpus():
    """Block until every GPU that has been used finishes its queued kernels."""
    for b in list(_cache.values()):
        if b.is_gpu:
            b.synchronize()


def gpu_out_of_memory(what, ctx, err, inputs=""):
    """An MXNetError for a device allocation that failed in ``what`` on ``ctx``.

    The cached blocks of the device's memory pool are released first, so that the
    process can go on with smaller work after catching the error.
    """
    b = _cache.get(ctx)
    free = total = None
    if b is not None and b.is_gpu:
        try:
            b.empty_cache()
            free, total = b.memory_info()
        except Exception:  # the device may be in a bad state; the message matters more
            pass
    where = f" (inputs: {inputs})" if inputs else ""
    mem = (f"; the device has {free} of {total} bytes free after releasing cached blocks"
           if free is not None else "")
    return MXNetError(f"{what}: out of memory on {ctx}: {err}{where}{mem}")
