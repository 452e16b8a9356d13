"""What a small user script prints (stdout and INFO log lines), for the script sweeps that
compare it with the text MXNet 1.9.1 printed for the same script."""
from __future__ import annotations

import contextlib
import io
import logging
import random
import warnings

import numpy as np
import pytest

import mxnet as mx


@pytest.fixture
def restore_random_state():
    """The project's, NumPy's and Python's random states as they were before the test (the
    scripts seed them, as users do)."""
    from mxnet.backend.cpu import CPUBackend
    saved_rng = CPUBackend._shared_rng[0]
    saved_np = np.random.get_state()
    saved_py = random.getstate()
    yield
    CPUBackend._shared_rng[0] = saved_rng
    np.random.set_state(saved_np)
    random.setstate(saved_py)


def run_printed(fn, tmp_path):
    """stdout and INFO log lines of ``fn(tmp)``, in a fresh NameManager, warnings silenced,
    the temporary directory shown as ``<tmp>``."""
    buf = io.StringIO()
    root = logging.getLogger()
    handler = logging.StreamHandler(buf)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    tmp = str(tmp_path)
    try:
        with contextlib.redirect_stdout(buf), warnings.catch_warnings(), mx.name.NameManager():
            warnings.simplefilter("ignore")
            fn(tmp)
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    return buf.getvalue().replace(tmp, "<tmp>")
