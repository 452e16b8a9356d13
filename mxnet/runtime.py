"""Which of MXNet 1.9.1's build features this installation provides.

1.9.1 reports the switches its native library was compiled with. This implementation
has no native library, so each of the same 32 names (in 1.9.1's order) is answered by
what is true of this installation; see ``docs/misc_modules.md`` for the table:

- ``CUDA``, ``CUDNN``, ``CUDA_RTC``: CuPy is installed and sees at least one GPU (GPU
  contexts, GPU convolutions and :mod:`mxnet.rtc` then work; cuDNN itself is not used);
- ``CPU_SSE`` ... ``CPU_AVX2``, ``F16C``: NumPy's SIMD dispatch finds the instruction set
  on this CPU (``CPU_SSE4A`` has no NumPy counterpart and is false);
- ``BLAS_OPEN`` / ``BLAS_MKL`` / ``BLAS_APPLE`` / ``BLAS_ATLAS``: the BLAS NumPy was
  built against; ``LAPACK``: always (``numpy.linalg``);
- ``OPENCV``: the ``cv2`` package is installed (``mx.image`` then decodes with it);
- ``DIST_KVSTORE``: ``mpi4py`` is installed (the ``dist_*`` KVStores need it);
- ``PROFILER`` and ``INT64_TENSOR_SIZE``: always (``mx.profiler`` works; NumPy indexes
  with 64-bit sizes);
- everything else (NCCL, TENSORRT, OPENMP, SSE, JEMALLOC, MKLDNN, CAFFE, CXX14,
  SIGNAL_HANDLER, DEBUG, TVM_OP) is false: no such library or native code is involved.

Nothing is probed at ``import mxnet``: the answers are worked out on the first
:func:`feature_list` or ``Features()`` call (which imports CuPy if it is installed).
"""
from __future__ import annotations

import collections
import importlib.util

__all__ = ["Feature", "Features", "feature_list"]

# 1.9.1's feature names, in the order its library lists them.
_NAMES = (
    "CUDA", "CUDNN", "NCCL", "CUDA_RTC", "TENSORRT", "CPU_SSE", "CPU_SSE2", "CPU_SSE3",
    "CPU_SSE4_1", "CPU_SSE4_2", "CPU_SSE4A", "CPU_AVX", "CPU_AVX2", "OPENMP", "SSE", "F16C",
    "JEMALLOC", "BLAS_OPEN", "BLAS_ATLAS", "BLAS_MKL", "BLAS_APPLE", "LAPACK", "MKLDNN",
    "OPENCV", "CAFFE", "PROFILER", "DIST_KVSTORE", "CXX14", "INT64_TENSOR_SIZE",
    "SIGNAL_HANDLER", "DEBUG", "TVM_OP",
)

# MXNet's CPU feature name -> NumPy's name for it in numpy's __cpu_features__
_CPU_NAMES = {"CPU_SSE": "SSE", "CPU_SSE2": "SSE2", "CPU_SSE3": "SSE3", "CPU_SSE4_1": "SSE41",
              "CPU_SSE4_2": "SSE42", "CPU_AVX": "AVX", "CPU_AVX2": "AVX2", "F16C": "F16C"}

_BLAS_KEYWORDS = {"BLAS_OPEN": ("openblas",), "BLAS_MKL": ("mkl",),
                  "BLAS_APPLE": ("accelerate", "veclib"), "BLAS_ATLAS": ("atlas",)}

_ALWAYS = frozenset({"LAPACK", "PROFILER", "INT64_TENSOR_SIZE"})

_detected: dict | None = None


def _installed(module):
    """Whether ``module`` can be imported, without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _gpu_usable():
    if not _installed("cupy"):
        return False
    from .backend import gpu_count
    try:
        return gpu_count() > 0
    except Exception:  # a broken CUDA setup counts as no GPU
        return False


def _cpu_features():
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as found
    except ImportError:  # pragma: no cover - NumPy 1.x layout
        try:
            from numpy.core._multiarray_umath import __cpu_features__ as found
        except ImportError:
            found = {}
    return {name: bool(found.get(np_name, False)) for name, np_name in _CPU_NAMES.items()}


def _blas_name():
    import numpy as np
    try:
        deps = np.show_config(mode="dicts").get("Build Dependencies", {})
        return str(deps.get("blas", {}).get("name", "")).lower()
    except Exception:  # an older or unusual NumPy build: unknown
        return ""


def _detect():
    global _detected
    if _detected is None:
        on = dict.fromkeys(_NAMES, False)
        gpu = _gpu_usable()
        on.update(CUDA=gpu, CUDNN=gpu, CUDA_RTC=gpu)
        on.update(_cpu_features())
        blas = _blas_name()
        for feat, words in _BLAS_KEYWORDS.items():
            on[feat] = any(w in blas for w in words)
        on["OPENCV"] = _installed("cv2")
        on["DIST_KVSTORE"] = _installed("mpi4py")
        for name in _ALWAYS:
            on[name] = True
        _detected = on
    return _detected


class Feature:
    """One build feature: its ``name`` and whether it is ``enabled``."""

    __slots__ = ("_name", "_enabled")

    def __init__(self, name, enabled):
        self._name = str(name)
        self._enabled = bool(enabled)

    @property
    def name(self):
        """The feature's name, e.g. ``'CUDA'``."""
        return self._name

    @property
    def enabled(self):
        """Whether this installation has the feature."""
        return self._enabled

    def __repr__(self):
        return ("\u2714 " if self._enabled else "\u2716 ") + self._name


def feature_list():
    """All features, as a list of :class:`Feature` in 1.9.1's order."""
    on = _detect()
    return [Feature(name, on[name]) for name in _NAMES]


class Features(collections.OrderedDict):
    """The features by name (an ordered mapping of name to :class:`Feature`); one shared
    instance, made on the first call."""

    instance = None

    def __new__(cls):
        if cls.instance is None:
            inst = super().__new__(cls)
            collections.OrderedDict.__init__(inst, [(f.name, f) for f in feature_list()])
            cls.instance = inst
        return cls.instance

    def __init__(self):  # filled once in __new__; calling Features() again changes nothing
        pass

    def __repr__(self):
        return str(list(self.values()))

    def is_enabled(self, feature_name):
        """Whether the feature ``feature_name`` (any case) is enabled; RuntimeError for a
        name 1.9.1 does not know."""
        key = feature_name.upper()
        if key not in self:
            raise RuntimeError(f"Feature '{key}' is unknown, known features are: "
                               f"{list(self.keys())}")
        return self[key].enabled
