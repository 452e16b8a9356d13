"""The GPU backend: CuPy arrays, imported only when a GPU context is first used."""
from __future__ import annotations

from ..base import MXNetError

__all__ = ["GPUBackend", "cupy_module", "device_count"]

_cupy = None


def cupy_module():
    """Import CuPy on first use; a clear MXNetError when it is not installed."""
    global _cupy
    if _cupy is None:
        try:
            import cupy  # noqa: PLC0415 - heavy optional import, kept lazy on purpose
        except ImportError as e:
            raise MXNetError(
                "GPU context requested but CuPy is not installed; install the 'gpu' extra "
                "(pip install mxnet-py[gpu])") from e
        _cupy = cupy
    return _cupy


def device_count() -> int:
    cp = cupy_module()
    try:
        return int(cp.cuda.runtime.getDeviceCount())
    except Exception:  # CUDA driver missing or no device
        return 0


class GPUBackend:
    """CuPy on one GPU device."""

    is_gpu = True

    def __init__(self, ctx):
        cp = cupy_module()
        n = device_count()
        if ctx.device_id >= n:
            raise MXNetError(f"{ctx} requested but only {n} GPU(s) are visible to CuPy")
        self.ctx = ctx
        self.xp = cp
        self.device = cp.cuda.Device(ctx.device_id)
        with self.device:
            self.rng = cp.random.default_rng(ctx.device_id)

    def seed(self, seed):
        cp = self.xp
        with self.device:
            self.rng = cp.random.default_rng(int(seed) & 0xFFFFFFFF)

    def asarray(self, data, dtype=None):
        with self.device:
            try:
                return self.xp.asarray(data, dtype=dtype)
            except self.xp.cuda.memory.OutOfMemoryError as e:
                from . import gpu_out_of_memory
                raise gpu_out_of_memory("array copy to GPU", self.ctx, e) from e

    def synchronize(self):
        self.device.synchronize()

    def empty_cache(self):
        self.xp.get_default_memory_pool().free_all_blocks()

    def memory_info(self):
        with self.device:
            free, total = self.xp.cuda.runtime.memGetInfo()
        return free, total
