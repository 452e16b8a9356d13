"""Engines shared by the engine tests."""
from __future__ import annotations

import pytest

from mxnet.engine import NaiveEngine, ThreadedEngine


@pytest.fixture
def eng():
    """A private threaded engine with two workers, drained and stopped afterwards."""
    e = ThreadedEngine("ThreadedEngine", num_workers=2)
    yield e
    try:
        e.wait_all()
    finally:
        e._stop_workers()


@pytest.fixture(params=["naive", "threaded"])
def any_engine(request):
    """Each engine kind in turn (for contracts both must honour)."""
    if request.param == "naive":
        yield NaiveEngine()
        return
    e = ThreadedEngine("ThreadedEngine", num_workers=2)
    yield e
    try:
        e.wait_all()
    finally:
        e._stop_workers()
