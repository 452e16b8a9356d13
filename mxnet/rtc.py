"""Compile CUDA C++ source at run time and launch its kernels on NDArrays (``mx.rtc``).

1.9.1 compiles with NVRTC inside its native library; here :class:`CudaModule` compiles
through CuPy (``cupy.RawModule``, which uses NVRTC too). Both need CuPy and a visible
CUDA GPU; without them creating a module raises :class:`~mxnet.base.MXNetError` naming
what is missing. CuPy is imported only when a module is created.
"""
from __future__ import annotations

import re

import numpy as np

from .base import MXNetError, numeric_types, string_types

__all__ = ["CudaModule", "CudaKernel"]

# C++ argument type -> NumPy dtype, the types 1.9.1 accepts in kernel signatures
_DTYPE_CPP_TO_NP = {
    "float": np.float32,
    "double": np.float64,
    "__half": np.float16,
    "uint8_t": np.uint8,
    "int": np.int32,
    "int32_t": np.int32,
    "int8_t": np.int8,
    "char": np.int8,
    "int64_t": np.int64,
}

_ARG_PATTERN = re.compile(r"^(const)?\s?([\w_]+)\s?(\*)?\s?([\w_]+)?$")


def _cupy_for(what):
    """CuPy, or MXNetError saying why ``what`` cannot run here."""
    try:
        import cupy  # noqa: PLC0415 - optional GPU dependency, imported on use
    except ImportError as e:
        raise MXNetError(f"{what}: runtime CUDA compilation needs CuPy and a CUDA GPU, but "
                         f"CuPy is not installed (pip install 'mxnet-py[gpu]')") from e
    from .backend import gpu_count
    if gpu_count() < 1:
        raise MXNetError(f"{what}: runtime CUDA compilation needs a CUDA GPU, but CuPy sees "
                         f"none")
    return cupy


def _parse_signature(signature):
    """``(is_ndarray, is_const, dtypes)`` for a signature like ``const float *x, int n``."""
    is_ndarray, is_const, dtypes = [], [], []
    for arg in re.sub(r"\s+", " ", signature).split(","):
        text = " ".join(arg.split())
        m = _ARG_PATTERN.match(text)
        if not m or m.group(2) == "const":
            raise ValueError(f'Invalid function prototype "{text}". Must be in the form of '
                             f'"(const) type (*) (name)"')
        ctype = m.group(2)
        if ctype not in _DTYPE_CPP_TO_NP:
            raise TypeError(f"Unsupported kernel argument type {text}. Supported types are: "
                            f"{','.join(_DTYPE_CPP_TO_NP)}.")
        is_const.append(bool(m.group(1)))
        is_ndarray.append(bool(m.group(3)))
        dtypes.append(np.dtype(_DTYPE_CPP_TO_NP[ctype]))
    return is_ndarray, is_const, dtypes


class CudaModule:
    r"""CUDA source compiled for the GPU.

    ``source`` is the complete source, ``options`` NVRTC flags (a string or a tuple, e.g.
    ``"-I/usr/local/cuda/include"``), ``exports`` names to export, e.g. template
    instances such as ``'axpy<float>'`` (plain kernels need ``extern "C"``)::

        mod = mx.rtc.CudaModule(r'''
        extern "C" __global__ void axpy(const float *x, float *y, float alpha) {
            int i = threadIdx.x + blockIdx.x * blockDim.x;
            y[i] += alpha * x[i];
        }''')
        k = mod.get_kernel("axpy", "const float *x, float *y, float alpha")
        k.launch([x, y, 3.0], mx.gpu(0), (1, 1, 1), (10, 1, 1))
    """

    def __init__(self, source, options=(), exports=()):
        if isinstance(options, string_types):
            options = (options,)
        if isinstance(exports, string_types):
            exports = (exports,)
        self._cupy = _cupy_for("mx.rtc.CudaModule")
        self.source = source
        self.options = tuple(options)
        self.exports = tuple(exports)
        self._modules = {}  # device id -> compiled cupy.RawModule
        self._module(int(self._cupy.cuda.runtime.getDevice()))  # compile errors show here

    def _module(self, device_id):
        mod = self._modules.get(device_id)
        if mod is None:
            cp = self._cupy
            with cp.cuda.Device(device_id):
                kwargs = {"name_expressions": list(self.exports)} if self.exports else {}
                try:
                    mod = cp.RawModule(code=self.source, options=self.options, **kwargs)
                    mod.compile()
                except Exception as e:  # NVRTC reports compile errors as CuPy exceptions
                    raise MXNetError(f"mx.rtc.CudaModule: compiling the CUDA source failed: "
                                     f"{e}") from e
            self._modules[device_id] = mod
        return mod

    def get_kernel(self, name, signature):
        """The kernel ``name`` with argument list ``signature``.

        ``signature`` lists the kernel's parameters as in its declaration, names optional
        (``"const float *x, double *y, int alpha"`` or ``"const float *, double *, int"``):
        ``*`` marks an NDArray argument, ``const`` one the kernel only reads. Types:
        float, double, __half, uint8_t, int, int32_t, int8_t, char, int64_t.
        """
        is_ndarray, is_const, dtypes = _parse_signature(signature)
        kernel = CudaKernel(self, name, is_ndarray, dtypes)
        kernel._is_const = is_const
        kernel._function(next(iter(self._modules)))  # an unknown name fails here
        return kernel


class CudaKernel:
    """A kernel of a :class:`CudaModule`; get it from :meth:`CudaModule.get_kernel`."""

    def __init__(self, handle, name, is_ndarray, dtypes):
        self.handle = handle
        self._name = name
        self._is_ndarray = list(is_ndarray)
        self._dtypes = [np.dtype(d) for d in dtypes]
        self._is_const = [False] * len(self._is_ndarray)
        self._functions = {}

    def _function(self, device_id):
        fn = self._functions.get(device_id)
        if fn is None:
            mod = self.handle._module(device_id)
            try:
                fn = mod.get_function(self._name)
            except Exception as e:
                raise MXNetError(f"mx.rtc: kernel {self._name!r} not found in the compiled "
                                 f"module ({e}); kernels need extern \"C\" or an export "
                                 f"name") from e
            self._functions[device_id] = fn
        return fn

    def launch(self, args, ctx, grid_dims, block_dims, shared_mem=0):
        """Run the kernel on GPU ``ctx`` with a ``grid_dims`` grid of ``block_dims``
        blocks (3 integers each) and ``shared_mem`` bytes of dynamic shared memory.
        ``args``: an NDArray on ``ctx`` for each pointer parameter (of the matching
        dtype), a number for each other one."""
        from .ndarray import NDArray
        assert ctx.device_type == "gpu", "Cuda kernel can only be launched on GPU"
        assert len(grid_dims) == 3, "grid_dims must be a tuple of 3 integers"
        assert len(block_dims) == 3, "grid_dims must be a tuple of 3 integers"
        assert len(args) == len(self._dtypes), (
            f"CudaKernel({self._name}) expects {len(self._dtypes)} arguments but got "
            f"{len(args)}")
        values = []
        for i, (arg, is_nd, dtype) in enumerate(zip(args, self._is_ndarray, self._dtypes)):
            if is_nd:
                assert isinstance(arg, NDArray), (
                    f"The {i}-th argument is expected to be a NDArray but got {type(arg)}")
                if arg.context != ctx:
                    raise MXNetError(f"mx.rtc: argument {i} of kernel {self._name} is on "
                                     f"{arg.context}, but the kernel is launched on {ctx}")
                if np.dtype(arg.dtype) != dtype:
                    raise MXNetError(f"mx.rtc: argument {i} of kernel {self._name} must have "
                                     f"dtype {dtype.name}, got {np.dtype(arg.dtype).name}")
                arg.wait_to_read()
                data = arg._data
                if not data.flags.c_contiguous:
                    raise MXNetError(f"mx.rtc: argument {i} of kernel {self._name} is not a "
                                     f"contiguous array")
                values.append(data)
            else:
                assert isinstance(arg, numeric_types), (
                    f"The {i}-th argument is expected to be a number, but got {type(arg)}")
                values.append(np.array(arg, dtype=dtype)[()])
        fn = self._function(ctx.device_id)
        cp = self.handle._cupy
        with cp.cuda.Device(ctx.device_id):
            fn(tuple(int(g) for g in grid_dims), tuple(int(b) for b in block_dims),
               tuple(values), shared_mem=int(shared_mem))
