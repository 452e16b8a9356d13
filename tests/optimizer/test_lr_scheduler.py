"""mx.lr_scheduler: learning rate sequences against 1.9.1, warmup, state and errors."""
from __future__ import annotations

import json
import pickle

import pytest

import mxnet as mx
from mxnet import lr_scheduler

from .golden import GOLDEN, REGENERATE, TABLE

GOLD = json.loads((GOLDEN / "schedulers.json").read_text())


@pytest.mark.parametrize("case", TABLE.SCHED_CASES, ids=lambda c: c.id)
def test_matches_1_9_1(case):
    assert case.id in GOLD, f"no fixture for {case.id}; regenerate with: {REGENERATE}"
    assert TABLE.run_sched_case(mx, case) == GOLD[case.id]


def test_warmup_modes():
    s = lr_scheduler.PolyScheduler(max_update=10, base_lr=1.0, warmup_steps=4,
                                   warmup_begin_lr=0.2)
    assert [s(n) for n in range(4)] == pytest.approx([0.2, 0.4, 0.6, 0.8])
    s = lr_scheduler.CosineScheduler(max_update=10, base_lr=1.0, warmup_steps=4,
                                     warmup_begin_lr=0.2, warmup_mode="constant")
    assert [s(n) for n in range(4)] == [0.2] * 4
    assert s(4) == 1.0 and s(10) == pytest.approx(0.0) and s(50) == pytest.approx(0.0)


def test_factor_scheduler_is_stateful():
    s = lr_scheduler.FactorScheduler(step=2, factor=0.5, base_lr=1.0)
    assert s(7) == 0.125
    assert s(1) == 0.125  # it never decays back
    pickled = pickle.loads(pickle.dumps(s))
    assert pickled.count == 6 and pickled(9) == 0.0625


@pytest.mark.parametrize("make, match", [
    (lambda: lr_scheduler.FactorScheduler(step=0), "step"),
    (lambda: lr_scheduler.FactorScheduler(step=2, factor=1.5), "Factor"),
    (lambda: lr_scheduler.MultiFactorScheduler(step=[3, 3]), "increasing"),
    (lambda: lr_scheduler.MultiFactorScheduler(step=[0, 3]), "step"),
    (lambda: lr_scheduler.PolyScheduler(max_update=0), "strictly positive"),
    (lambda: lr_scheduler.CosineScheduler(max_update=5, warmup_mode="cubic"), "linear"),
    (lambda: lr_scheduler.CosineScheduler(max_update=5, base_lr=0.1, warmup_begin_lr=0.5),
     "warmup_begin_lr"),
    (lambda: lr_scheduler.FactorScheduler(step=2, warmup_steps=-1), "positive"),
])
def test_bad_arguments(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_base_class_needs_override():
    with pytest.raises(NotImplementedError):
        lr_scheduler.LRScheduler()(0)
