"""Devices: ``mx.cpu(i)``, ``mx.gpu(i)``, ``mx.cpu_pinned(i)`` and the default-context stack."""
from __future__ import annotations

import threading

from .base import MXNetError, MXNetKeyError

__all__ = ["Context", "cpu", "gpu", "cpu_pinned", "current_context", "num_gpus", "gpu_memory_info"]


_DEFAULT_CTX_WARNING = ("Context.default_ctx has been deprecated. Please use "
                        "Context.current_context() instead. Please use "
                        "test_utils.set_default_context to set a default context")


class _ContextMeta(type):
    """Gives the class 1.9.1's deprecated ``Context.default_ctx`` (read and assigned)."""

    @property
    def default_ctx(cls):
        import warnings
        warnings.warn(_DEFAULT_CTX_WARNING, DeprecationWarning, stacklevel=2)
        return current_context()

    @default_ctx.setter
    def default_ctx(cls, ctx):
        import warnings
        warnings.warn(_DEFAULT_CTX_WARNING, DeprecationWarning, stacklevel=2)
        default_context_override(ctx)


class Context(metaclass=_ContextMeta):
    """A device: a kind (``cpu``, ``gpu``, ``cpu_pinned``, ``cpu_shared``) and an id.

    Distinct CPU ids count as distinct devices, so code written for several devices
    can run and be tested on one machine. A Context is also a ``with`` block that
    makes it the default for array creation.
    """

    devtype2str = {1: "cpu", 2: "gpu", 3: "cpu_pinned", 5: "cpu_shared"}
    devstr2type = {v: k for k, v in devtype2str.items()}
    _local = threading.local()
    __slots__ = ("device_typeid", "device_id", "_old_ctx", "_hash", "_rc")

    def __init__(self, device_type, device_id=0):
        if isinstance(device_type, Context):
            device_type, device_id = device_type.device_type, device_type.device_id
        if isinstance(device_type, str):
            if device_type not in self.devstr2type:
                # a KeyError, as 1.9.1 (its devstr2type lookup fails)
                raise MXNetKeyError(f"Context: unknown device type {device_type!r}; "
                                    f"expected one of {sorted(self.devstr2type)}")
            device_type = self.devstr2type[device_type]
        elif device_type not in self.devtype2str:
            raise MXNetError(f"Context: unknown device type code {device_type!r}")
        self.device_typeid = int(device_type)
        self.device_id = int(device_id)
        self._old_ctx = None
        self._hash = hash((self.device_typeid, self.device_id))
        self._rc = [None, None]  # RunContext per training flag, filled by the NDArray layer

    @property
    def device_type(self) -> str:
        """The kind of device, as a string."""
        return self.devtype2str[self.device_typeid]

    def __hash__(self):
        return self._hash

    def __getstate__(self):
        # 1.9.1's pickled state (its instance dict); the per-device run caches are not pickled
        return {"device_typeid": self.device_typeid, "device_id": self.device_id,
                "_old_ctx": None}

    def __setstate__(self, state):
        if isinstance(state, tuple):   # (dict state, slot state) forms
            state = {k: v for part in state if part for k, v in part.items()}
        self.device_typeid = int(state["device_typeid"])
        self.device_id = int(state["device_id"])
        self._old_ctx = None
        self._hash = hash((self.device_typeid, self.device_id))
        self._rc = [None, None]

    def __eq__(self, other):
        return (isinstance(other, Context) and self.device_typeid == other.device_typeid
                and self.device_id == other.device_id)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __repr__(self):
        return f"{self.device_type}({self.device_id})"

    __str__ = __repr__

    def __enter__(self):
        stack = _stack()
        stack.append(self)
        return self

    def __exit__(self, *exc):
        _stack().pop()

    def empty_cache(self):
        """Release cached device memory back to the device (GPU only; no-op on CPU)."""
        if self.device_type == "gpu":
            from .backend import get_backend
            get_backend(self).empty_cache()

    @property
    def is_gpu(self) -> bool:
        return self.device_typeid == 2


def _stack():
    loc = Context._local
    if not hasattr(loc, "stack"):
        loc.stack = []
    return loc.stack


_DEFAULT = Context("cpu", 0)


def default_context_override(ctx):
    """Set the process-wide default context (used by test_utils.set_default_context)."""
    global _DEFAULT
    _DEFAULT = Context(ctx)


def current_context() -> Context:
    """The innermost context of the ``with`` stack, or the default (``cpu(0)``)."""
    stack = getattr(Context._local, "stack", None)
    return stack[-1] if stack else _DEFAULT


class _DefaultCtx:
    """``Context._default_ctx``: 1.9.1's holder of the default context, which older scripts
    read and assign through ``.value``."""

    @property
    def value(self):
        return current_context()

    @value.setter
    def value(self, ctx):
        default_context_override(ctx)


Context._default_ctx = _DefaultCtx()


def cpu(device_id=0) -> Context:
    """The CPU context with the given id."""
    return Context("cpu", device_id)


def cpu_pinned(device_id=0) -> Context:
    """Page-locked CPU memory, used for staging copies to GPUs."""
    return Context("cpu_pinned", device_id)


def gpu(device_id=0) -> Context:
    """The GPU context with the given id (arrays there live in CuPy)."""
    return Context("gpu", device_id)


def num_gpus() -> int:
    """How many GPUs CuPy can see; 0 when CuPy or a GPU is missing."""
    from .backend import gpu_count
    return gpu_count()


def gpu_memory_info(device_id=0):
    """(free, total) bytes of a GPU."""
    from .backend import get_backend
    return get_backend(gpu(device_id)).memory_info()
