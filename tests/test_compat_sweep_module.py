"""Compatibility sweep of the Module API as training scripts use it: fit's callbacks,
checkpoints, warnings and log lines. Expected values were recorded from MXNet 1.9.1."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import mxnet as mx
from mxnet.io import DataBatch, NDArrayIter
from tests.module.test_module import mlp   # the same 5-8-3 MLP


def data(n=16, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 5).astype(np.float32)
    y = np.argmax(x.dot(rng.randn(5, 3)), axis=1).astype(np.float32)
    return x, y




def test_batch_end_callback_sees_batch_end_params_in_locals():
    # 1.9.1: from the second batch on, param.locals holds 'batch_end_params', the
    # BatchEndParam of the previous call (recorded key list of batch 1 starts like this)
    x, y = data()
    it = NDArrayIter(x, y, batch_size=4)
    mod = mx.mod.Module(mlp(), context=mx.cpu())
    seen = []

    def cb(param):
        seen.append(sorted(k for k in param.locals if not k.startswith("_"))[:6])

    mod.fit(it, num_epoch=1, batch_end_callback=cb)
    assert seen[0][:5] == ["allow_missing", "arg_params", "aux_params",
                           "batch_end_callback", "begin_epoch"]
    assert seen[1] == ["allow_missing", "arg_params", "aux_params", "batch_end_callback",
                       "batch_end_params", "begin_epoch"]


def test_label_name_mismatch_warning_is_shown_once_across_reshapes():
    # 1.9.1 attributes the warning to base_module itself, so Python's default filter shows
    # it once even when forward() reshapes the module and checks the names again
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the constructor's own note on label_names
        mod = mx.mod.Module(mx.sym.softmax(mlp().get_internals()["fc2_output"]),
                            context=mx.cpu())
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("default")
        mod.bind([("data", (8, 5))], None, for_training=False)
        mod.init_params(mx.init.One())
        mod.forward(DataBatch([mx.nd.ones((2, 5))]))
        mod.forward(DataBatch([mx.nd.ones((10, 5))]))
    assert len(rec) == 1
    assert str(rec[0].message) == ("Data provided by label_shapes don't match names specified "
                                   "by label_names ([] vs. ['softmax_label'])")
    assert rec[0].filename.replace("\\", "/").endswith("mxnet/module/base_module.py")
    assert mod.get_outputs()[0].shape == (10, 3)


def test_lbsgd_logs_its_settings(logs):
    # recorded from 1.9.1 (mx.optimizer.create('lbsgd'))
    mx.optimizer.create("lbsgd")
    assert logs[-2:] == ["Running Large-Batch SGD Algorithm",
                         "(Batch_scale=1.000000, warmup_epochs=5, warmup_strategy=linear, "
                         "updates_per_epoch=32)"]


def test_load_checkpoint_with_unprefixed_key_is_value_error(tmp_path):
    # 1.9.1 raises ValueError for a key without 'arg:'/'aux:' (e.g. a Gluon file); keys with
    # another prefix are skipped
    prefix = str(tmp_path / "bad")
    mx.sym.var("q").save(prefix + "-symbol.json")
    mx.nd.save(prefix + "-0001.params", {"weird": mx.nd.ones(1), "arg:w": mx.nd.ones(2)})
    with pytest.raises(ValueError, match="weird"):
        mx.model.load_checkpoint(prefix, 1)
    mx.nd.save(prefix + "-0002.params", {"foo:x": mx.nd.ones(1), "arg:w": mx.nd.ones(2)})
    arg, aux = mx.model.load_params(prefix, 2)
    assert sorted(arg) == ["w"] and aux == {}
