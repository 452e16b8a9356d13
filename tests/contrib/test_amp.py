"""mx.contrib.amp: converted graphs against 1.9.1 (golden), loss scaling in closed form,
and float16 training of an MLP."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import mxnet as mx
from mxnet.base import MXNetError
from mxnet.contrib import amp
from mxnet.contrib.amp import LossScaler

from .._scripts import load_script

REPO = Path(__file__).resolve().parents[2]
GOLDEN = json.loads((REPO / "tests" / "golden" / "contrib_misc.json").read_text())["amp"]


# the graphs the golden generator converted under 1.9.1, built here the same way
_GEN = load_script("tools/golden/gen_contrib_misc.py")
mlp, cnn = _GEN.mlp, _GEN.cnn


def _widest_unknown():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    return mx.sym.elemwise_add(mx.sym.exp(a, name="ea"), mx.sym.exp(b, name="eb"), name="sum")


def _widest_mixed():
    a, b = mx.sym.var("a"), mx.sym.var("b")
    return mx.sym.broadcast_mul(mx.sym.FullyConnected(a, num_hidden=2, name="fa"),
                                mx.sym.sum(b, name="sb"), name="bm")


def _multicast_mixed():
    a, b, c = mx.sym.var("a"), mx.sym.var("b"), mx.sym.var("c")
    fa = mx.sym.FullyConnected(a, num_hidden=2, name="fa")
    return mx.sym.Group([mx.sym.broadcast_add(fa, c, name="bc"),
                         mx.sym.concat(fa, mx.sym.relu(b, name="rb"), dim=0, name="cc")])


CASES = {
    "mlp_fp16": (mlp, {}),
    "mlp_bf16": (mlp, {"target_dtype": "bfloat16"}),
    "mlp_fp16_optional": (mlp, {"cast_optional_params": True}),
    "cnn_fp16": (cnn, {}),
    "cnn_bf16": (cnn, {"target_dtype": "bfloat16"}),
    "cnn_fp16_optional": (cnn, {"cast_optional_params": True}),
    "mlp_fp16_excl": (mlp, {"excluded_sym_names": ["fc2"]}),
    "cnn_fp16_excl": (cnn, {"excluded_sym_names": ["conv2", "add1"]}),
    "mlp_custom": (mlp, {"target_dtype_ops": ["FullyConnected"], "fp32_ops": ["SoftmaxOutput"],
                         "conditional_fp32_ops": [("Activation", "act_type", ["relu"])]}),
    "cnn_data_names": (cnn, {"data_names": ["data"]}),
    "cnn_data_names_optional": (cnn, {"data_names": ["data"], "cast_optional_params": True}),
    "cnn_bf16_data_names": (cnn, {"target_dtype": "bfloat16", "data_names": ["data"]}),
    "widest_unknown": (_widest_unknown, {}),
    "widest_mixed": (_widest_mixed, {}),
    "multicast_vars": (lambda: mx.sym.elemwise_add(mx.sym.var("a"), mx.sym.var("b"), name="ab"),
                       {}),
    "multicast_mixed": (_multicast_mixed, {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_convert_symbol_matches_reference(case):
    build, kwargs = CASES[case]
    if kwargs.get("target_dtype") == "bfloat16" and amp.amp.bfloat16 is None:
        with pytest.raises(mx.base.MXNetError, match="ml_dtypes"):
            amp.convert_symbol(build(), **kwargs)
        pytest.skip("bfloat16 needs ml_dtypes (the onnx extra)")
    got = json.loads(amp.convert_symbol(build(), **kwargs).tojson(remove_amp_cast=False))
    assert got == json.loads(GOLDEN[case])


@pytest.mark.parametrize("optional", [False, True])
def test_convert_model_matches_reference(optional):
    args = {"fc1_weight": mx.nd.ones((16, 8)), "fc1_bias": mx.nd.zeros((16,)),
            "fc2_weight": mx.nd.ones((4, 16)), "fc2_bias": mx.nd.zeros((4,))}
    sym, new_args, aux = amp.convert_model(mlp(), dict(args), {}, cast_optional_params=optional)
    want = GOLDEN["convert_model"][str(optional)]
    assert json.loads(sym.tojson(remove_amp_cast=False)) == json.loads(want["json"])
    got = {k: f"<class 'numpy.{np.dtype(v.dtype).name}'>" for k, v in new_args.items()}
    assert got == want["dtypes"]
    assert aux == {}


def test_converted_symbol_runs_in_float16():
    sym = amp.convert_symbol(mlp())
    ex = sym.simple_bind(mx.cpu(), data=(2, 8), softmax_label=(2,), grad_req="null")
    inner = sym.get_internals()
    types = inner.infer_type(**{n: "float32" for n in sym.list_arguments()})[1]
    internals = dict(zip(inner.list_outputs(), types))
    assert internals["fc1_output"] == np.float16
    assert internals["fc2_output_amp_cast_float32_output"] == np.float32
    for name, arr in ex.arg_dict.items():
        arr[:] = 0.1 if name != "softmax_label" else 1
    out = ex.forward()[0]
    assert out.dtype == np.float32
    np.testing.assert_allclose(out.asnumpy().sum(1), 1.0, rtol=1e-3)


def test_convert_symbol_errors():
    with pytest.raises(MXNetError, match="target_dtype"):
        amp.convert_symbol(mlp(), target_dtype="float64")
    with pytest.raises(MXNetError, match="two or more lists"):
        amp.convert_symbol(mlp(), target_dtype_ops=["FullyConnected"],
                           fp32_ops=["FullyConnected"])
    with pytest.raises(MXNetError, match="none of"):
        amp.convert_symbol(mlp(), target_dtype_ops=["NoSuchOp"])
    with pytest.raises(MXNetError, match="Symbol"):
        amp.convert_symbol("not a symbol")


def test_lists_are_1_9_1s():
    assert amp.list_conditional_fp32_ops("float16") == [
        ("Activation", "act_type", ["softrelu"]), ("LeakyReLU", "act_type", ["elu", "selu"])]
    assert amp.list_loss_output_functions("float16") == [
        "SoftmaxOutput", "LinearRegressionOutput", "LogisticRegressionOutput",
        "MAERegressionOutput"]
    assert "FullyConnected" in amp.list_lp16_ops("float16")
    assert "Convolution" in amp.list_lp16_ops("bfloat16")
    assert "softmax" in amp.list_fp32_ops("float16")
    assert amp.list_lp16_use_fp32_params("float16") is None
    assert amp.list_lp16_use_fp32_params("bfloat16")["BatchNorm"] == [
        "", "gamma", "beta", "moving_mean", "moving_var"]
    for dt in ("float16", "bfloat16"):
        lp, fp = set(amp.list_lp16_ops(dt)), set(amp.list_fp32_ops(dt))
        assert not lp & fp
        assert "elemwise_add" in amp.list_widest_type_cast(dt)
        assert "BatchNorm" in amp.list_lp16_fp32_ops(dt) or "BatchNorm" in fp
    with pytest.raises(MXNetError, match="target_dtype"):
        amp.list_lp16_ops("int8")


class _P:
    """A parameter stand-in holding one gradient array."""

    def __init__(self, grad):
        self.grad_req = "write"
        self._data = [grad]
        self._grad = grad

    def list_grad(self):
        return [self._grad]


def test_loss_scaler_schedule():
    s = LossScaler()
    s._scale_seq_len = 3
    fine = [_P(mx.nd.ones((3,)))]
    bad = [_P(mx.nd.array([1.0, np.nan, 2.0]))]
    seen = []
    for params in (fine, bad, fine, fine, fine, fine, bad):
        seen.append((s.has_overflow(params), s.loss_scale, s._next_loss_scale))
    # the new scale takes effect at the following check; growth after 3 clean steps
    assert seen == [(False, 65536.0, 65536.0), (True, 65536.0, 32768.0),
                    (False, 32768.0, 32768.0), (False, 32768.0, 32768.0),
                    (False, 32768.0, 65536.0), (False, 65536.0, 65536.0),
                    (True, 65536.0, 32768.0)]
    big = LossScaler()
    big._loss_scale = big._next_loss_scale = 2.0 ** 24
    big._scale_seq_len = 1
    big.has_overflow(fine)
    assert big._next_loss_scale == 2.0 ** 24  # capped


def test_scale_loss_needs_init_trainer():
    w = mx.gluon.Parameter("w", shape=(1,))
    w.initialize()   # 1.9.1's Trainer refuses uninitialized Parameters
    tr = mx.gluon.Trainer([w], "sgd")
    with pytest.raises(MXNetError, match="init_trainer"):
        with amp.scale_loss(mx.nd.ones((1,)), tr):
            pass


@pytest.fixture(scope="module")
def amp_run():
    env = dict(os.environ, PYTHONPATH=str(REPO))
    res = subprocess.run([sys.executable, str(Path(__file__).with_name("_amp_training.py"))],
                         capture_output=True, text=True, env=env, cwd=str(REPO), timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_overflow_step_is_skipped(amp_run):
    r = amp_run["skip"]
    c = np.array([0.25, -0.5])
    assert r["scaled0"] == 65536 * c.sum()
    # step 0: inf gradient -> parameters unchanged, next scale halved
    assert r["w0"] == [1.0, 1.0]
    assert r["scale0"] == [65536.0, 32768.0]
    # step 1 still scales by 2**16 (the halving shows at the next check), and applies
    assert r["grad1"] == (65536 * c).tolist()
    assert r["rescale1"] == 1 / 65536
    np.testing.assert_allclose(r["w1"], 1.0 - 0.5 * c)
    assert r["scale1"] == [32768.0, 32768.0]
    assert r["grad2"] == (32768 * c).tolist()
    np.testing.assert_allclose(r["w2"], 1.0 - 2 * 0.5 * c)
    assert r["unscaled_grad"] == c.tolist() and r["scale_after_unscale"] == 1.0


def test_float16_mlp_converges(amp_run):
    r = amp_run["mlp"]
    assert r["out_dtype"] == "float16" and r["param_dtype"] == "float32"
    assert r["last"] < 0.3 * r["first"]
    assert r["acc"] > 0.9
    assert 0 < r["skipped"] < 20  # the scale came down from 2**16 by skipping steps


def test_init_wraps_symbol_functions(amp_run):
    r = amp_run["sym"]
    assert r["ops"] == ["null", "amp_cast", "null", "amp_cast", "null", "amp_cast",
                        "FullyConnected"]
    assert r["out_type"] == "float16"


@pytest.mark.parametrize("optional", [False, True])
def test_convert_hybrid_block(optional):
    net = mx.gluon.nn.HybridSequential()
    net.add(mx.gluon.nn.Dense(8, activation="relu"), mx.gluon.nn.Dense(3))
    net.initialize(mx.init.Xavier())
    x = mx.nd.array(np.random.RandomState(1).uniform(-1, 1, (4, 5)))
    with pytest.raises(RuntimeError, match="hybridize"):
        amp.convert_hybrid_block(net)
    net.hybridize()
    want = net(x).asnumpy()
    block = amp.convert_hybrid_block(net, cast_optional_params=optional)
    dtypes = {np.dtype(p.data().dtype).name for p in block.collect_params().values()}
    assert dtypes == {"float16" if optional else "float32"}
    got = block(x)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.asnumpy(), want, rtol=2e-2, atol=2e-3)


def test_converted_cnn_matches_float32():
    sym = cnn()
    conv = amp.convert_symbol(sym)
    ex = sym.simple_bind(mx.cpu(), data=(2, 3, 8, 8), grad_req="null")
    ex16 = conv.simple_bind(mx.cpu(), data=(2, 3, 8, 8), grad_req="null")
    rng = np.random.RandomState(0)
    for k, a in ex.arg_dict.items():  # small weights: logits stay where float16 is fine
        a[:] = rng.uniform(-0.2, 0.2, a.shape)
        ex16.arg_dict[k][:] = a
    for k, a in ex.aux_dict.items():
        ex16.aux_dict[k][:] = a
    want = ex.forward()[0].asnumpy()
    got = ex16.forward()[0]
    assert got.dtype == np.float32
    np.testing.assert_allclose(got.asnumpy(), want, atol=5e-3)
