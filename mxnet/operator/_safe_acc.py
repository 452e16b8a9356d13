"""``MXNET_SAFE_ACCUMULATION``: 1.9.1 warns once per process (per operator family) when a
float16 softmax or L2 norm runs without it. Here float16 softmax and norm always
accumulate in float32 (the values 1.9.1 gives with the variable set to 1)."""
from __future__ import annotations

import os

import numpy as np

from ..base import native_log

_warned: set = set()
_SRC = {"softmax": "../src/operator/nn/./../../common/utils.h:472",
        "LpNorm": "../src/operator/tensor/./.././../common/utils.h:472"}


def warn_float16(family, dtype):
    """Log 1.9.1's recommendation for ``family`` ('softmax' or 'LpNorm') on float16 input."""
    if dtype != np.float16 or family in _warned:
        return
    if os.environ.get("MXNET_SAFE_ACCUMULATION", "0").strip() == "1":
        return
    _warned.add(family)
    native_log(_SRC[family], f"MXNET_SAFE_ACCUMULATION=1 is recommended for {family} with "
               "float16 inputs. See https://mxnet.apache.org/api/faq/env_var for more details.")
