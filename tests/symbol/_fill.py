"""Filling a bound executor's arguments with reproducible random values."""
from __future__ import annotations

import numpy as np


def fill_args(ex, seed, classes, scale):
    """Labels (``softmax_label``) get integers in [0, classes); every other argument
    uniform values in [-scale, scale]."""
    rs = np.random.RandomState(seed)
    for name, a in ex.arg_dict.items():
        if name == "softmax_label":
            a[:] = rs.randint(0, classes, a.shape)
        else:
            a[:] = rs.uniform(-scale, scale, a.shape)
    return ex
