"""Test-wide settings.

``MXNET_TEST_DEVICE=gpu(0)`` reruns the whole suite with the default context switched to
that device (how tools/gpu_check.sh runs the GPU tests); tests that build arrays through
``mx.test_utils.default_context()`` or the current context then run there.
"""
import logging
import os

import pytest

import mxnet as mx

_DEVICE = os.environ.get("MXNET_TEST_DEVICE", "").strip()


def pytest_configure(config):
    if _DEVICE:
        kind, _, rest = _DEVICE.partition("(")
        ctx = mx.Context(kind, int(rest.rstrip(")") or 0))
        if ctx.device_type == "gpu" and mx.context.num_gpus() <= ctx.device_id:
            raise pytest.UsageError(f"MXNET_TEST_DEVICE={_DEVICE} but no such GPU is visible")
        mx.test_utils.set_default_context(ctx)


class _LogLines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


@pytest.fixture
def logs():
    """The messages logged (root logger, INFO and up) while the test runs."""
    root = logging.getLogger()
    handler = _LogLines()
    old = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    yield handler.lines
    root.removeHandler(handler)
    root.setLevel(old)


@pytest.fixture
def np_mode():
    """NumPy semantics (``npx.set_np()``) for one test; both flags (np arrays, np shapes) are
    put back as they were afterwards. Yields ``mx.np``."""
    was_array, was_shape = mx.util.is_np_array(), mx.util.is_np_shape()
    mx.npx.set_np()
    try:
        yield mx.np
    finally:
        if not was_array:
            mx.npx.reset_np()
        elif not was_shape:
            mx.util.set_np_shape(False)
