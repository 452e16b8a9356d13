"""mx.contrib.svrg_optimization against 1.9.1 (golden): a tiny linear regression."""
import json
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.contrib.svrg_optimization import SVRGModule
from mxnet.contrib.svrg_optimization.svrg_optimizer import _SVRGOptimizer

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "tests" / "golden" /
                     "contrib_misc.json").read_text())["svrg"]


def _net():
    fc = mx.sym.FullyConnected(mx.sym.var("data"), num_hidden=1, name="fc")
    return mx.sym.LinearRegressionOutput(fc, mx.sym.var("lin_reg_label"), name="lro")


@pytest.mark.parametrize("freq,epochs", [(1, 1), (2, 3)])
def test_svrg_parameters_match_reference(freq, epochs):
    x = np.array(GOLDEN["x"], dtype="float32")
    y = np.array(GOLDEN["y"], dtype="float32")
    it = mx.io.NDArrayIter(x, y, batch_size=6, label_name="lin_reg_label")  # 20 rows: padded
    mod = SVRGModule(_net(), data_names=["data"], label_names=["lin_reg_label"],
                     update_freq=freq)
    mod.fit(it, eval_metric="mse", optimizer="sgd", optimizer_params=(("learning_rate", 0.05),),
            num_epoch=epochs, kvstore="local",
            arg_params={k: mx.nd.array(v) for k, v in GOLDEN["init"].items()})
    arg, _ = mod.get_params()
    key = f"freq{freq}_epochs{epochs}"
    for name, want in GOLDEN[key].items():
        np.testing.assert_allclose(arg[name].asnumpy(), want, rtol=1e-5, atol=1e-6)
    for name, want in GOLDEN[key + "_full"].items():
        np.testing.assert_allclose(mod._param_dict[0][name].asnumpy(), want, rtol=1e-5,
                                   atol=1e-6)


def test_svrg_update_rule_and_arguments():
    g = mx.nd.array([1.0, 2.0])
    out = SVRGModule._svrg_grads_update_rule(g, mx.nd.array([0.5, 0.5]), mx.nd.array([3.0, 4.0]))
    assert out is g
    np.testing.assert_allclose(g.asnumpy(), [3.5, 5.5])
    with pytest.raises(TypeError, match="update_freq"):
        SVRGModule(_net(), label_names=["lin_reg_label"])
    with pytest.raises(ValueError, match="positive"):
        SVRGModule(_net(), label_names=["lin_reg_label"], update_freq=0)


def test_svrg_optimizer_dispatch():
    o = _SVRGOptimizer("sgd", learning_rate=0.5, param_idx2name={0: "w", 1: "w_full"})
    w, g = mx.nd.array([1.0, 1.0]), mx.nd.array([0.2, -0.4])
    o.update(0, w, g, o.create_state(0, w))
    np.testing.assert_allclose(w.asnumpy(), [0.9, 1.2])
    full = mx.nd.zeros(2)
    o.update(1, full, g, o.create_state(1, full))
    np.testing.assert_allclose(full.asnumpy(), g.asnumpy())
    assert o._check_index("w_full") == "w_full"
